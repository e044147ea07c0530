// GLEW must precede every other OpenGL header.
#include <GL/glew.h>

#include "view2d/image_renderer.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <QFile>

#include "common/gl_program.hpp"
#include "common/resources.hpp"

namespace cineflow::ui {
namespace {

static_assert(std::is_same_v<GLuint, unsigned int> && std::is_same_v<GLint, int>,
              "the header stores GL names and locations as unsigned int and int");

}  // namespace

ImageRenderer::ImageRenderer() {
  loadGlFunctions();
  initResources();
  program_ = linkProgram(QStringLiteral(":/shaders/bmode.vert"),
                         QStringLiteral(":/shaders/bmode.frag"), "the B-mode shader program");
  gainLocation_ = glGetUniformLocation(program_.get(), "gainDb");
  dynamicRangeLocation_ = glGetUniformLocation(program_.get(), "dynamicRangeDb");
  windowOriginLocation_ = glGetUniformLocation(program_.get(), "windowOrigin");
  windowSizeLocation_ = glGetUniformLocation(program_.get(), "windowSize");
  layersLocation_ = glGetUniformLocation(program_.get(), "layers");
  flowMapLocation_ = glGetUniformLocation(program_.get(), "flowMap");
  aliasingLocation_ = glGetUniformLocation(program_.get(), "aliasingVelocity");
  thresholdLocation_ = glGetUniformLocation(program_.get(), "powerThresholdDb");
  priorityLocation_ = glGetUniformLocation(program_.get(), "priority");
  powerRangeLocation_ = glGetUniformLocation(program_.get(), "powerRangeDb");
  depthGainLocation_ = glGetUniformLocation(program_.get(), "depthGainDb");
  glUseProgram(program_.get());
  glUniform1i(glGetUniformLocation(program_.get(), "image"), 0);
  glUniform1i(glGetUniformLocation(program_.get(), "colourMap"), 1);
  glUseProgram(0);

  vertexArray_ = makeVertexArray();  // a core profile draws nothing without one bound
  texture_ = createTexture(GL_TEXTURE_2D, GL_LINEAR);
  colourMapTexture_ = createTexture(GL_TEXTURE_2D, GL_LINEAR);
  glBindTexture(GL_TEXTURE_2D, colourMapTexture_.get());
  const ColourTable grey = colourTable(ColourMap::Grey);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, kColourTableSize, 1, 0, GL_RGB, GL_UNSIGNED_BYTE,
               grey.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // GL's default, which Qt's own uploads assume
  glBindTexture(GL_TEXTURE_2D, 0);
}

ImageRenderer::~ImageRenderer() = default;  // the GL owners delete in reverse order of making

void ImageRenderer::upload(const Image& frame) {
  const auto& geometry = frame.geometry;
  if (geometry.nx <= 0 || geometry.nz <= 0 || geometry.layers < 1 ||
      frame.pixels.size() < geometry.values()) {
    return;  // nothing sensible to show; keep the previous image
  }
  glBindTexture(GL_TEXTURE_2D, ensureTexture(geometry.nx, geometry.nz, geometry.layers));
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, geometry.nx, geometry.nz * geometry.layers, GL_RED,
                  GL_FLOAT, frame.pixels.data());
  glBindTexture(GL_TEXTURE_2D, 0);
}

unsigned int ImageRenderer::ensureTexture(int nx, int nz, int layers) {
  if (!textureMatches(nx, nz, layers)) {
    glBindTexture(GL_TEXTURE_2D, texture_.get());
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, nx, nz * layers, 0, GL_RED, GL_FLOAT, nullptr);
    glBindTexture(GL_TEXTURE_2D, 0);
    textureWidth_ = nx;
    textureHeight_ = nz * layers;
    layers_ = layers;
    ++textureAllocations_;
  }
  return texture_.get();
}

std::vector<float> ImageRenderer::readTexture() const {
  std::vector<float> pixels(static_cast<std::size_t>(textureWidth_) *
                            static_cast<std::size_t>(textureHeight_));
  if (pixels.empty()) {
    return pixels;
  }
  glBindTexture(GL_TEXTURE_2D, texture_.get());
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, pixels.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  return pixels;
}

void ImageRenderer::setColourMap(ColourMap map) {
  if (map == colourMap_) {
    return;
  }
  const ColourTable table = colourTable(map);
  glBindTexture(GL_TEXTURE_2D, colourMapTexture_.get());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kColourTableSize, 1, GL_RGB, GL_UNSIGNED_BYTE,
                  table.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // GL's default, which Qt's glyph cache assumes
  glBindTexture(GL_TEXTURE_2D, 0);
  colourMap_ = map;
}

void ImageRenderer::render(const QRect& viewport, int framebufferHeight, float gainDb,
                           float dynamicRangeDb, const ViewWindow& window, const FlowLook& flow,
                           double aliasingVelocity, const DepthGain& depthGain) {
  // A QPainter overlay drawn after the previous frame may have left any of these on.
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glClearColor(kBackground[0], kBackground[1], kBackground[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  if (!hasImage() || viewport.isEmpty()) {
    return;
  }
  // GL's window origin is bottom-left; ours is top-left.
  glViewport(viewport.x(), framebufferHeight - viewport.y() - viewport.height(), viewport.width(),
             viewport.height());
  glUseProgram(program_.get());
  glUniform1f(gainLocation_, gainDb);
  glUniform1f(dynamicRangeLocation_, dynamicRangeDb);
  glUniform2f(windowOriginLocation_, static_cast<float>(window.u0), static_cast<float>(window.v0));
  glUniform1f(windowSizeLocation_, static_cast<float>(1.0 / window.zoom));
  glUniform1i(layersLocation_, layers_);
  glUniform1i(flowMapLocation_, static_cast<int>(flow.map));
  glUniform1f(aliasingLocation_, static_cast<float>(aliasingVelocity));
  glUniform1f(thresholdLocation_, static_cast<float>(flow.powerThresholdDb));
  glUniform1f(priorityLocation_, static_cast<float>(flow.priority));
  glUniform1f(powerRangeLocation_, static_cast<float>(flow.powerRangeDb));
  std::array<float, kDepthGainBands> bands{};
  std::transform(depthGain.db.begin(), depthGain.db.end(), bands.begin(),
                 [](double g) { return static_cast<float>(g); });
  glUniform1fv(depthGainLocation_, kDepthGainBands, bands.data());
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, colourMapTexture_.get());
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture_.get());
  glBindVertexArray(vertexArray_.get());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
  glUseProgram(0);
}

}  // namespace cineflow::ui
