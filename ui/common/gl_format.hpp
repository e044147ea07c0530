#pragma once
// The OpenGL context every view needs: 3.3 core (the shaders are GLSL 330 core). Call before the
// QApplication is created, so that every context, the first included, gets it.

namespace cineflow::ui {

void setDefaultSurfaceFormat();

}  // namespace cineflow::ui
