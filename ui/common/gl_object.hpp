#pragma once
// RAII owners of OpenGL object names (house style rule 2, docs/development.md): one owner per
// texture, program, vertex array or framebuffer, deleted by its destructor, so that a renderer
// whose constructor throws half-way leaks none of what it had made. Move-only. Like every GL call,
// making and destroying one needs the owning widget's context current on the GUI thread. This
// header names no OpenGL type (GLEW must precede every other OpenGL header, and users include
// Qt's).

#include <utility>

namespace cineflow::ui {

enum class GlKind { Texture, Program, VertexArray, Framebuffer };

// Deletes `name` of `kind` (glDeleteTextures, glDeleteProgram, ...); 0 is ignored.
void deleteGlName(GlKind kind, unsigned int name) noexcept;

template <GlKind Kind>
class GlObject {
 public:
  GlObject() = default;
  explicit GlObject(unsigned int name) : name_(name) {}
  ~GlObject() { deleteGlName(Kind, name_); }
  GlObject(GlObject&& other) noexcept : name_(std::exchange(other.name_, 0)) {}
  GlObject& operator=(GlObject&& other) noexcept {
    if (this != &other) {
      deleteGlName(Kind, std::exchange(name_, std::exchange(other.name_, 0)));
    }
    return *this;
  }
  GlObject(const GlObject&) = delete;
  GlObject& operator=(const GlObject&) = delete;

  unsigned int get() const { return name_; }
  explicit operator bool() const { return name_ != 0; }

 private:
  unsigned int name_ = 0;
};

using GlTexture = GlObject<GlKind::Texture>;
using GlProgram = GlObject<GlKind::Program>;
using GlVertexArray = GlObject<GlKind::VertexArray>;
using GlFramebuffer = GlObject<GlKind::Framebuffer>;

// New, empty objects (glGenVertexArrays, glGenFramebuffers).
GlVertexArray makeVertexArray();
GlFramebuffer makeFramebuffer();

}  // namespace cineflow::ui
