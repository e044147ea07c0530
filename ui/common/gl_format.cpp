#include "common/gl_format.hpp"

#include <QSurfaceFormat>

namespace cineflow::ui {

void setDefaultSurfaceFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setSwapInterval(1);  // vsync: the display never renders faster than the screen
  QSurfaceFormat::setDefaultFormat(format);
}

}  // namespace cineflow::ui
