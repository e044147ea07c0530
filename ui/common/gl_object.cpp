// GLEW must precede every other OpenGL header.
#include <GL/glew.h>

#include "common/gl_object.hpp"

namespace cineflow::ui {

void deleteGlName(GlKind kind, unsigned int name) noexcept {
  if (name == 0) {
    return;
  }
  switch (kind) {
    case GlKind::Texture:
      glDeleteTextures(1, &name);
      return;
    case GlKind::Program:
      glDeleteProgram(name);
      return;
    case GlKind::VertexArray:
      glDeleteVertexArrays(1, &name);
      return;
    case GlKind::Framebuffer:
      glDeleteFramebuffers(1, &name);
      return;
  }
}

GlVertexArray makeVertexArray() {
  GLuint name = 0;
  glGenVertexArrays(1, &name);
  return GlVertexArray(name);
}

GlFramebuffer makeFramebuffer() {
  GLuint name = 0;
  glGenFramebuffers(1, &name);
  return GlFramebuffer(name);
}

}  // namespace cineflow::ui
