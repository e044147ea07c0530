#pragma once
// The 3-D view's CUDA-OpenGL interop path: on the CUDA backend a volume goes from the engine's
// device memory straight into the view's 3-D texture and never visits host memory.
//
// The renderer's volume texture is registered with CUDA once per texture allocation
// (cudaGraphicsGLRegisterImage, GL_TEXTURE_3D, write-discard). Each upload maps it on the
// uploader's own display stream, copies the volume device-to-array (cudaMemcpy3DAsync), unmaps,
// computes the brick maxima on the device (process/volume_bricks.hpp) and copies those few values
// to pinned host memory for the brick texture, with the rows the view's own level is taken from
// (volume_level.hpp), then waits for that work alone. The engine's
// streams are never waited on: the caller holds the volume (a VolumeLock or a store Access) and
// passes only a volume whose work has completed, so the display never blocks the engine.
//
// Every method, the destructor included, must be called on the GUI thread with the view's GL
// context current, and the uploader must be destroyed before the renderer whose texture it holds.
// This header names no OpenGL or CUDA type.

#include <memory>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "process/mip.hpp"

namespace cineflow::ui {

class VolumeRenderer;

class DeviceVolumeUpload {
 public:
  // An uploader when `backend` is the CUDA backend and the current GL context runs on its device
  // (interopDevice); otherwise null, with `reason` saying why.
  static std::unique_ptr<DeviceVolumeUpload> create(compute::Backend& backend, std::string& reason);

  virtual ~DeviceVolumeUpload() = default;
  DeviceVolumeUpload(const DeviceVolumeUpload&) = delete;
  DeviceVolumeUpload& operator=(const DeviceVolumeUpload&) = delete;

  // Copies `volume` (float32 dB [ny][nz][nx] in the backend's device memory, complete) into the
  // renderer's textures. Throws compute::cuda::CudaError when CUDA fails, after which the caller
  // should drop the uploader and copy through the host.
  virtual void upload(VolumeRenderer& renderer, const float* volume,
                      const process::VolumeShape& shape) = 0;
  // The last upload's level sample (levelSample() of volume_level.hpp, the same rows).
  virtual std::vector<float> levelSample() const = 0;
  // Drops the texture's registration (before the renderer goes, or its context).
  virtual void detach() = 0;

 protected:
  DeviceVolumeUpload() = default;
};

}  // namespace cineflow::ui
