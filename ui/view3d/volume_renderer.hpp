#pragma once
// The OpenGL side of the 3-D view: the volume as a 3-D R32F texture of dB values ([ny][nz][nx]:
// width nx, height nz, depth ny), a coarse texture of each 8^3 brick's largest value (empty-space
// skipping: process/volume_bricks.hpp), the colour map and the opacity transfer function as 256 x 1
// textures, and the ray casting program (shaders/volume.frag: maximum intensity, volume rendering,
// shaded iso-surface).
//
// Every method, the destructor included, must be called on the GUI thread with the owning
// widget's context current (VolumeView guarantees that). Like ImageRenderer, this header names no
// OpenGL type.

#include <array>
#include <cstdint>
#include <vector>

#include <QMatrix4x4>
#include <QRect>
#include <QVector3D>

#include "common/colour_maps.hpp"
#include "common/gl_object.hpp"

namespace cineflow::ui {

enum class VolumeRenderMode { MaximumIntensity = 0, Composite = 1, IsoSurface = 2 };

// What the ray caster is asked to draw, beside the volume itself.
struct VolumeLook {
  VolumeRenderMode mode = VolumeRenderMode::MaximumIntensity;
  float gainDb = 0;
  float dynamicRangeDb = 60;
  float isoLevel = 0.5f;  // of the display level, [0, 1]
  // The clipping box in texture coordinates (the six clipping planes), each within [0, 1].
  QVector3D clipMin{0, 0, 0};
  QVector3D clipMax{1, 1, 1};
  float stepVoxels = 0.5f;  // the distance between samples; larger while the view moves
  // The fraction of the viewport's pixels cast along each side (drawn into an offscreen buffer
  // and scaled up); below 1 while the view moves.
  float resolution = 1.0f;
};

class VolumeRenderer {
 public:
  // Loads GL entry points and builds the program. Throws std::runtime_error saying what failed.
  VolumeRenderer();
  ~VolumeRenderer();
  VolumeRenderer(const VolumeRenderer&) = delete;
  VolumeRenderer& operator=(const VolumeRenderer&) = delete;

  // Uploads a volume [ny][nz][nx] of dB values (reallocating only when the size changed) and
  // computes its brick maxima. Throws std::runtime_error when the GL cannot hold it (its 3-D
  // texture limit, out of memory).
  void upload(const float* voxels, int nx, int nz, int ny);
  bool hasVolume() const { return size_[0] > 0; }

  // For writers other than upload() (the CUDA interop path): makes the volume texture nx x nz x
  // ny (R32F, contents undefined after a reallocation) and returns its GL name; then
  // uploadBricks() takes the brick maxima (process/volume_bricks.hpp) from host memory.
  unsigned int ensureVolumeTexture(int nx, int nz, int ny);
  void uploadBricks(const float* bricks);
  // Counts the volume texture's storage (re)allocations: a CUDA registration of the texture is
  // valid only for the allocation it was made for.
  std::uint64_t volumeAllocations() const { return allocations_; }
  std::array<int, 3> size() const { return size_; }  // nx, nz, ny

  void setColourMap(ColourMap map);
  // The opacity of each display level (256 values in [0, 1], for samples one voxel apart).
  void setOpacityTable(const std::vector<float>& opacity);

  // Clears `viewport` (device pixels, top-left origin, in framebuffer `target`, `framebufferHeight`
  // tall) to the background and casts the rays: `clipToTexture` takes normalised device
  // coordinates of the viewport back into texture coordinates, `voxelMm` is the voxel's size
  // along s, t, r.
  void render(unsigned int target, const QRect& viewport, int framebufferHeight,
              const QMatrix4x4& clipToTexture, const QVector3D& voxelMm, const VolumeLook& look);

 private:
  GlProgram program_;
  GlVertexArray vertexArray_;
  GlTexture volumeTexture_;
  GlTexture brickTexture_;
  GlTexture colourMapTexture_;
  GlTexture opacityTexture_;
  std::array<int, 3> size_{0, 0, 0};
  std::array<int, 3> bricks_{0, 0, 0};
  ColourMap colourMap_ = ColourMap::Grey;
  float opacityFloor_ = 0;  // the lowest level with any opacity
  std::vector<float> brickScratch_;
  std::uint64_t allocations_ = 0;
  // The offscreen buffer a reduced resolution draws into.
  GlFramebuffer offscreen_;
  GlTexture offscreenColour_;
  int offscreenWidth_ = 0;
  int offscreenHeight_ = 0;
  void castRays(const QMatrix4x4& clipToTexture, const QVector3D& voxelMm, const VolumeLook& look);
};

}  // namespace cineflow::ui
