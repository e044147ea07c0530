#pragma once
// The OpenGL side of the B-mode display: one R32F texture holding the dB image (with its flow
// layers under it when it has them: nz x layers rows), one 256x1 RGB texture holding the colour
// map, one shader program mapping dB through it and compositing the flow (flow_display.hpp), one
// (empty) vertex array for the generated quad.
//
// Every method, the destructor included, must be called on the GUI thread with the owning
// widget's context current (house style rule 7, docs/development.md); ImageView guarantees that.
//
// This header names no OpenGL type on purpose: GLEW (used by the implementation) must be included
// before any other OpenGL header, Qt's included, and users of this class include Qt's.

#include <cstdint>
#include <vector>

#include <QRect>

#include "common/colour_maps.hpp"
#include "common/display_geometry.hpp"
#include "common/gl_object.hpp"
#include "common/image.hpp"
#include "view2d/depth_gain.hpp"
#include "view2d/flow_display.hpp"

namespace cineflow::ui {

class ImageRenderer {
 public:
  // Loads GL entry points (GLEW) and builds the program from the Qt resources. Throws
  // std::runtime_error saying what failed (GLEW, shader compile or link log).
  ImageRenderer();
  ~ImageRenderer();
  ImageRenderer(const ImageRenderer&) = delete;
  ImageRenderer& operator=(const ImageRenderer&) = delete;

  // Reallocates the texture only when the geometry changed; otherwise updates it in place.
  void upload(const Image& frame);
  bool hasImage() const { return textureWidth_ > 0; }

  // For writers other than upload() (the CUDA interop path): makes the image texture nx x
  // (nz layers) (R32F, contents undefined after a reallocation) and returns its GL name.
  unsigned int ensureTexture(int nx, int nz, int layers = 1);
  bool textureMatches(int nx, int nz, int layers = 1) const {
    return nx == textureWidth_ && nz * layers == textureHeight_ && layers == layers_;
  }
  // Counts the texture's storage (re)allocations: a CUDA registration of the texture is valid
  // only for the allocation it was made for.
  std::uint64_t textureAllocations() const { return textureAllocations_; }
  // Reads the image texture back (glGetTexImage), [layer][z][x]; for tests and diagnostics.
  std::vector<float> readTexture() const;

  // Uploads the map's table unless it is already the one in use (a fresh renderer uses grey).
  void setColourMap(ColourMap map);
  ColourMap colourMap() const { return colourMap_; }

  // Clears the framebuffer to the letterbox colour, then draws the part of the image (if any)
  // that `window` selects into `viewport` (device pixels, top-left origin) of a framebuffer
  // `framebufferHeight` pixels tall. Sets every GL state it relies on, so a QPainter may draw
  // between two calls.
  // `flow` and `aliasingVelocity` (m/s) composite the flow layers when the image has them;
  // `depthGain` adds its gain at each row's depth (time-gain compensation).
  void render(const QRect& viewport, int framebufferHeight, float gainDb, float dynamicRangeDb,
              const ViewWindow& window = {}, const FlowLook& flow = {}, double aliasingVelocity = 0,
              const DepthGain& depthGain = {});

  // The letterbox margins: near-black, a shade off the image's black so its edge stays visible.
  static constexpr float kBackground[3] = {0.035f, 0.035f, 0.04f};

 private:
  // GL object names and uniform locations (GLuint and GLint).
  GlProgram program_;
  GlVertexArray vertexArray_;
  GlTexture texture_;
  GlTexture colourMapTexture_;
  int gainLocation_ = -1;
  int dynamicRangeLocation_ = -1;
  int windowOriginLocation_ = -1;
  int windowSizeLocation_ = -1;
  int layersLocation_ = -1;
  int flowMapLocation_ = -1;
  int aliasingLocation_ = -1;
  int thresholdLocation_ = -1;
  int depthGainLocation_ = -1;
  int priorityLocation_ = -1;
  int powerRangeLocation_ = -1;
  int layers_ = 1;
  ColourMap colourMap_ = ColourMap::Grey;
  int textureWidth_ = 0;
  int textureHeight_ = 0;
  std::uint64_t textureAllocations_ = 0;
};

}  // namespace cineflow::ui
