// GLEW must precede every other OpenGL header.
#include <GL/glew.h>

#include "common/gl_program.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <QFile>

namespace cineflow::ui {
namespace {

std::string readResource(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    throw std::runtime_error("cannot read shader resource " + path.toStdString());
  }
  return file.readAll().toStdString();
}

std::string shaderLog(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
  glGetShaderInfoLog(shader, length, nullptr, log.data());
  return log;
}

std::string programLog(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
  glGetProgramInfoLog(program, length, nullptr, log.data());
  return log;
}

GLuint compileShader(GLenum type, const QString& resourcePath) {
  const std::string source = readResource(resourcePath);
  const GLuint shader = glCreateShader(type);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    const std::string log = shaderLog(shader);
    glDeleteShader(shader);
    throw std::runtime_error("cannot compile " + resourcePath.toStdString() + ": " + log);
  }
  return shader;
}

}  // namespace

void loadGlFunctions() {
  // Core profiles hide extension strings from the old query GLEW uses; experimental mode makes
  // GLEW load every entry point the driver exports.
  glewExperimental = GL_TRUE;
  const GLenum status = glewInit();
  if (status != GLEW_OK) {
    throw std::runtime_error(std::string("cannot load OpenGL functions (GLEW): ") +
                             reinterpret_cast<const char*>(glewGetErrorString(status)));
  }
  // glewInit() can leave a harmless GL_INVALID_ENUM behind on core profiles; clear it so that
  // later error checks see only our own errors.
  while (glGetError() != GL_NO_ERROR) {
  }
  if (!GLEW_VERSION_3_3) {
    throw std::runtime_error(std::string("OpenGL 3.3 is required, the driver offers ") +
                             reinterpret_cast<const char*>(glGetString(GL_VERSION)));
  }
}

GlProgram linkProgram(const QString& vertexPath, const QString& fragmentPath, const char* what) {
  const GLuint vertex = compileShader(GL_VERTEX_SHADER, vertexPath);
  GLuint fragment = 0;
  try {
    fragment = compileShader(GL_FRAGMENT_SHADER, fragmentPath);
  } catch (...) {
    glDeleteShader(vertex);
    throw;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vertex);
  glAttachShader(program, fragment);
  glLinkProgram(program);
  // The program keeps what it needs; the shader objects can go now.
  glDetachShader(program, vertex);
  glDetachShader(program, fragment);
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    const std::string log = programLog(program);
    glDeleteProgram(program);
    throw std::runtime_error(std::string("cannot link ") + what + ": " + log);
  }
  return GlProgram(program);
}

GlTexture createTexture(unsigned int target, int filter) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(target, texture);
  glTexParameteri(target, GL_TEXTURE_MIN_FILTER, filter);
  glTexParameteri(target, GL_TEXTURE_MAG_FILTER, filter);
  glTexParameteri(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  if (target == GL_TEXTURE_3D) {
    glTexParameteri(target, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
  }
  return GlTexture(texture);
}

}  // namespace cineflow::ui
