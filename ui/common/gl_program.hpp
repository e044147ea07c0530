#pragma once
// What every OpenGL renderer of the views needs first: the GL entry points (GLEW) and its shader
// program from the Qt resources. Call with the owning widget's context current. This header names
// no OpenGL type (GLEW must precede every other OpenGL header, and users include Qt's).

#include <QString>

#include "common/gl_object.hpp"

namespace cineflow::ui {

// Loads the GL entry points (GLEW) and checks for OpenGL 3.3. Throws std::runtime_error saying
// what failed (GLEW, the version the driver offers).
void loadGlFunctions();

// Compiles and links the program of two shader resources (":/shaders/..."). Throws
// std::runtime_error naming `what` with the compile or link log.
GlProgram linkProgram(const QString& vertexPath, const QString& fragmentPath, const char* what);

// A new texture of `target` (GL_TEXTURE_2D, GL_TEXTURE_3D: a GLenum) sampled with `filter`
// (GL_LINEAR, GL_NEAREST) and clamped at its edges, bound on return.
GlTexture createTexture(unsigned int target, int filter);

}  // namespace cineflow::ui
