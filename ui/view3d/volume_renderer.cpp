// GLEW must precede every other OpenGL header.
#include <GL/glew.h>

#include "view3d/volume_renderer.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/gl_program.hpp"
#include "common/resources.hpp"
#include "process/volume_bricks.hpp"
#include "view2d/image_renderer.hpp"

namespace cineflow::ui {
VolumeRenderer::VolumeRenderer() {
  loadGlFunctions();
  initResources();
  program_ = linkProgram(QStringLiteral(":/shaders/volume.vert"),
                         QStringLiteral(":/shaders/volume.frag"), "the 3-D view's ray caster");
  vertexArray_ = makeVertexArray();
  volumeTexture_ = createTexture(GL_TEXTURE_3D, GL_LINEAR);
  brickTexture_ = createTexture(GL_TEXTURE_3D, GL_NEAREST);
  colourMapTexture_ = createTexture(GL_TEXTURE_2D, GL_LINEAR);
  opacityTexture_ = createTexture(GL_TEXTURE_2D, GL_LINEAR);
  glUseProgram(program_.get());
  glUniform1i(glGetUniformLocation(program_.get(), "volume"), 0);
  glUniform1i(glGetUniformLocation(program_.get(), "bricks"), 1);
  glUniform1i(glGetUniformLocation(program_.get(), "colourMap"), 2);
  glUniform1i(glGetUniformLocation(program_.get(), "opacityTable"), 3);
  glUseProgram(0);
  colourMap_ = ColourMap::Viridis;  // differs, so the next call uploads
  setColourMap(ColourMap::Grey);
  std::vector<float> ramp(kColourTableSize);
  for (int i = 0; i < kColourTableSize; ++i) {
    const float level = static_cast<float>(i) / (kColourTableSize - 1);
    ramp[static_cast<std::size_t>(i)] = std::clamp((level - 0.3f) / 0.7f, 0.0f, 1.0f) * 0.3f;
  }
  setOpacityTable(ramp);
}

VolumeRenderer::~VolumeRenderer() = default;  // the GL owners delete in reverse order of making

unsigned int VolumeRenderer::ensureVolumeTexture(int nx, int nz, int ny) {
  GLint limit = 0;
  glGetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &limit);
  if (nx <= 0 || nz <= 0 || ny <= 0 || nx > limit || nz > limit || ny > limit) {
    throw std::runtime_error("a volume of " + std::to_string(nx) + " x " + std::to_string(nz) +
                             " x " + std::to_string(ny) +
                             " voxels does not fit this OpenGL's 3-D textures (at most " +
                             std::to_string(limit) + " along each axis)");
  }
  glBindTexture(GL_TEXTURE_3D, volumeTexture_.get());
  if (size_ != std::array<int, 3>{nx, nz, ny}) {
    while (glGetError() != GL_NO_ERROR) {
    }
    glTexImage3D(GL_TEXTURE_3D, 0, GL_R32F, nx, nz, ny, 0, GL_RED, GL_FLOAT, nullptr);
    if (glGetError() == GL_OUT_OF_MEMORY) {
      size_ = {0, 0, 0};
      throw std::runtime_error("the graphics memory cannot hold a " + std::to_string(nx) + " x " +
                               std::to_string(nz) + " x " + std::to_string(ny) + " volume");
    }
    size_ = {nx, nz, ny};
    const process::VolumeShape grid = process::brickShape({ny, nz, nx});
    bricks_ = {grid.nx, grid.nz, grid.ny};
    ++allocations_;
  }
  return volumeTexture_.get();
}

void VolumeRenderer::uploadBricks(const float* bricks) {
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindTexture(GL_TEXTURE_3D, brickTexture_.get());
  glTexImage3D(GL_TEXTURE_3D, 0, GL_R32F, bricks_[0], bricks_[1], bricks_[2], 0, GL_RED, GL_FLOAT,
               bricks);
}

void VolumeRenderer::upload(const float* voxels, int nx, int nz, int ny) {
  ensureVolumeTexture(nx, nz, ny);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindTexture(GL_TEXTURE_3D, volumeTexture_.get());
  glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 0, nx, nz, ny, GL_RED, GL_FLOAT, voxels);
  const process::VolumeShape shape{ny, nz, nx};
  brickScratch_.resize(process::brickShape(shape).voxels());
  process::brickMaximaHost(voxels, shape, brickScratch_.data());
  uploadBricks(brickScratch_.data());
}

void VolumeRenderer::setColourMap(ColourMap map) {
  if (map == colourMap_) {
    return;
  }
  const ColourTable table = colourTable(map);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glBindTexture(GL_TEXTURE_2D, colourMapTexture_.get());
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, kColourTableSize, 1, 0, GL_RGB, GL_UNSIGNED_BYTE,
               table.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // GL's default, which Qt's glyph cache assumes
  colourMap_ = map;
}

void VolumeRenderer::setOpacityTable(const std::vector<float>& opacity) {
  std::vector<float> table(kColourTableSize, 0.0f);
  opacityFloor_ = 1.0f;
  for (std::size_t i = 0; i < table.size() && i < opacity.size(); ++i) {
    table[i] = std::clamp(opacity[i], 0.0f, 1.0f);
    if (table[i] > 0 && opacityFloor_ >= 1.0f) {
      // Linear sampling lets a level just below this entry see some opacity.
      opacityFloor_ = static_cast<float>(i == 0 ? 0 : i - 1) / (kColourTableSize - 1);
    }
  }
  glBindTexture(GL_TEXTURE_2D, opacityTexture_.get());
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, kColourTableSize, 1, 0, GL_RED, GL_FLOAT, table.data());
}

void VolumeRenderer::render(unsigned int target, const QRect& viewport, int framebufferHeight,
                            const QMatrix4x4& clipToTexture, const QVector3D& voxelMm,
                            const VolumeLook& look) {
  const float* bg = ImageRenderer::kBackground;
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glBindFramebuffer(GL_FRAMEBUFFER, target);
  glClearColor(bg[0], bg[1], bg[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  if (!hasVolume() || viewport.isEmpty()) {
    return;
  }
  const int bottom = framebufferHeight - viewport.y() - viewport.height();
  const float resolution = std::clamp(look.resolution, 0.1f, 1.0f);
  if (resolution >= 1.0f) {
    glViewport(viewport.x(), bottom, viewport.width(), viewport.height());
    castRays(clipToTexture, voxelMm, look);
    return;
  }
  // Fewer rays into the offscreen buffer, scaled up into the viewport.
  const int width =
      std::max(1, static_cast<int>(static_cast<float>(viewport.width()) * resolution));
  const int height =
      std::max(1, static_cast<int>(static_cast<float>(viewport.height()) * resolution));
  if (!offscreen_) {
    offscreen_ = makeFramebuffer();
    offscreenColour_ = createTexture(GL_TEXTURE_2D, GL_LINEAR);
  }
  if (width != offscreenWidth_ || height != offscreenHeight_) {
    glBindTexture(GL_TEXTURE_2D, offscreenColour_.get());
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindFramebuffer(GL_FRAMEBUFFER, offscreen_.get());
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                           offscreenColour_.get(), 0);
    offscreenWidth_ = width;
    offscreenHeight_ = height;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, offscreen_.get());
  glViewport(0, 0, width, height);
  castRays(clipToTexture, voxelMm, look);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, offscreen_.get());
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target);
  glBlitFramebuffer(0, 0, width, height, viewport.x(), bottom, viewport.x() + viewport.width(),
                    bottom + viewport.height(), GL_COLOR_BUFFER_BIT, GL_LINEAR);
  glBindFramebuffer(GL_FRAMEBUFFER, target);
}

void VolumeRenderer::castRays(const QMatrix4x4& clipToTexture, const QVector3D& voxelMm,
                              const VolumeLook& look) {
  const float* bg = ImageRenderer::kBackground;
  glUseProgram(program_.get());
  const auto uniform = [this](const char* name) {
    return glGetUniformLocation(program_.get(), name);
  };
  glUniformMatrix4fv(uniform("clipToTexture"), 1, GL_FALSE, clipToTexture.constData());
  glUniform3f(uniform("clipMin"), look.clipMin.x(), look.clipMin.y(), look.clipMin.z());
  glUniform3f(uniform("clipMax"), look.clipMax.x(), look.clipMax.y(), look.clipMax.z());
  glUniform3f(uniform("voxels"), static_cast<float>(size_[0]), static_cast<float>(size_[1]),
              static_cast<float>(size_[2]));
  glUniform3f(uniform("brickCount"), static_cast<float>(bricks_[0]), static_cast<float>(bricks_[1]),
              static_cast<float>(bricks_[2]));
  glUniform3f(uniform("voxelMm"), voxelMm.x(), voxelMm.y(), voxelMm.z());
  glUniform1f(uniform("stepTexels"), std::max(look.stepVoxels, 0.05f));
  glUniform1f(uniform("gainDb"), look.gainDb);
  glUniform1f(uniform("dynamicRangeDb"), std::max(look.dynamicRangeDb, 1.0f));
  glUniform1f(uniform("opacityFloor"), opacityFloor_);
  glUniform1f(uniform("isoLevel"), std::clamp(look.isoLevel, 0.0f, 1.0f));
  glUniform1i(uniform("mode"), static_cast<int>(look.mode));
  glUniform3f(uniform("background"), bg[0], bg[1], bg[2]);
  // The ray's direction in texture coordinates, as a unit vector in millimetres along s, t, r.
  const QVector3D near = clipToTexture.map(QVector3D(0, 0, -1));
  const QVector3D far = clipToTexture.map(QVector3D(0, 0, 1));
  const QVector3D extent(voxelMm.x() * static_cast<float>(size_[0]),
                         voxelMm.y() * static_cast<float>(size_[1]),
                         voxelMm.z() * static_cast<float>(size_[2]));
  const QVector3D direction = ((far - near) * extent).normalized();
  glUniform3f(uniform("viewDirection"), direction.x(), direction.y(), direction.z());
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_3D, volumeTexture_.get());
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_3D, brickTexture_.get());
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_2D, colourMapTexture_.get());
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_2D, opacityTexture_.get());
  glBindVertexArray(vertexArray_.get());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  // Leave the texture units as QPainter (the overlay) expects them: nothing bound but unit 0.
  for (const GLenum unit : {GL_TEXTURE3, GL_TEXTURE2, GL_TEXTURE1}) {
    glActiveTexture(unit);
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindTexture(GL_TEXTURE_3D, 0);
  }
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_3D, 0);
  glUseProgram(0);
}

}  // namespace cineflow::ui
