// GLEW must precede every other OpenGL header, CUDA's interop header included.
#include <GL/glew.h>

#include "view3d/device_volume_upload.hpp"

#include "view2d/device_image_upload.hpp"
#include "view3d/volume_level.hpp"
#include "view3d/volume_renderer.hpp"

#if CINEFLOW_HAVE_CUDA
#include <cuda_gl_interop.h>

#include "compute/buffer.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "compute/cuda/graphics_resource.hpp"
#include "process/volume_bricks.hpp"
#endif

namespace cineflow::ui {
namespace {

#if CINEFLOW_HAVE_CUDA
namespace cuda = compute::cuda;

class CudaVolumeUpload final : public DeviceVolumeUpload {
 public:
  CudaVolumeUpload(compute::Backend& backend, int device)
      : backend_(backend), device_(device), stream_("cf-volume-display") {}

  void upload(VolumeRenderer& renderer, const float* volume,
              const process::VolumeShape& shape) override {
    cuda::check(cudaSetDevice(device_), "cudaSetDevice (3-D view)");
    attach(renderer, shape);
    const process::VolumeShape grid = process::brickShape(shape);
    if (bricks_.size() != grid.voxels()) {
      bricks_ = compute::DeviceBuffer<float>(backend_, grid.voxels());
      hostBricks_ = compute::PinnedBuffer<float>(backend_, grid.voxels());
    }
    const std::size_t rowBytes = static_cast<std::size_t>(shape.nx) * sizeof(float);
    {
      cuda::ScopedMapping mapping(resource_, stream_.get());
      cudaMemcpy3DParms copy{};
      copy.srcPtr = make_cudaPitchedPtr(const_cast<float*>(volume), rowBytes,
                                        static_cast<std::size_t>(shape.nx),
                                        static_cast<std::size_t>(shape.nz));
      copy.dstArray = mapping.array();
      copy.extent =
          make_cudaExtent(static_cast<std::size_t>(shape.nx), static_cast<std::size_t>(shape.nz),
                          static_cast<std::size_t>(shape.ny));
      copy.kind = cudaMemcpyDeviceToDevice;
      cuda::check(cudaMemcpy3DAsync(&copy, stream_.get()),
                  "cudaMemcpy3DAsync (volume to the 3-D view's texture)", shape.voxels() * 4);
    }
    process::enqueueBrickMaxima(stream_, compute::BackendKind::Cuda,
                                compute::DeviceSpan<const float>(volume, shape.voxels()), shape,
                                bricks_.view());
    stream_.copyAsync(hostBricks_.data(), bricks_.data(), bricks_.bytes());
    copyLevelSample(volume, shape);
    cuda::check(cudaStreamSynchronize(stream_.get()), "cudaStreamSynchronize (3-D view)");
    const std::string error = stream_.takeError();
    if (!error.empty()) {
      throw std::runtime_error(error);
    }
    renderer.uploadBricks(hostBricks_.data());
  }

  void detach() override { resource_ = cuda::GraphicsResource(); }

  std::vector<float> levelSample() const override {
    return std::vector<float>(hostSample_.data(), hostSample_.data() + sampleSize_);
  }

 private:
  // Every levelSampleRowStride()-th row of the volume into pinned memory, on the upload's stream.
  void copyLevelSample(const float* volume, const process::VolumeShape& shape) {
    const auto rows = static_cast<std::size_t>(levelSampleRows(shape));
    const std::size_t rowBytes = static_cast<std::size_t>(shape.nx) * sizeof(float);
    sampleSize_ = rows * static_cast<std::size_t>(shape.nx);
    if (hostSample_.size() < sampleSize_) {
      hostSample_ = compute::PinnedBuffer<float>(backend_, sampleSize_);
    }
    if (rows == 0) {
      return;
    }
    cuda::check(cudaMemcpy2DAsync(hostSample_.data(), rowBytes, volume,
                                  rowBytes * static_cast<std::size_t>(levelSampleRowStride(shape)),
                                  rowBytes, rows, cudaMemcpyDeviceToHost, stream_.get()),
                "cudaMemcpy2DAsync (the 3-D view's level sample)", sampleSize_ * sizeof(float));
  }

  // Registers the renderer's volume texture once per allocation; the registration is dropped
  // before the texture is reallocated (CUDA forbids changing a registered texture's storage).
  void attach(VolumeRenderer& renderer, const process::VolumeShape& shape) {
    const auto size = renderer.size();
    if (size != std::array<int, 3>{shape.nx, shape.nz, shape.ny}) {
      detach();
    }
    const unsigned int texture = renderer.ensureVolumeTexture(shape.nx, shape.nz, shape.ny);
    if (resource_ && registeredAllocation_ == renderer.volumeAllocations()) {
      return;
    }
    detach();
    cudaGraphicsResource_t handle = nullptr;
    cuda::check(cudaGraphicsGLRegisterImage(&handle, texture, GL_TEXTURE_3D,
                                            cudaGraphicsRegisterFlagsWriteDiscard),
                "cudaGraphicsGLRegisterImage (3-D view texture)");
    resource_ = cuda::GraphicsResource(handle);
    registeredAllocation_ = renderer.volumeAllocations();
  }

  compute::Backend& backend_;
  int device_;
  cuda::CudaStream stream_;
  compute::DeviceBuffer<float> bricks_;
  compute::PinnedBuffer<float> hostBricks_;
  compute::PinnedBuffer<float> hostSample_;
  std::size_t sampleSize_ = 0;       // of hostSample_'s values, the last upload's
  cuda::GraphicsResource resource_;  // after stream_: unregistered before the stream goes
  std::uint64_t registeredAllocation_ = 0;
};
#endif

}  // namespace

std::unique_ptr<DeviceVolumeUpload> DeviceVolumeUpload::create(compute::Backend& backend,
                                                               std::string& reason) {
  const int device = interopDevice(backend, reason);
  if (device < 0) {
    return nullptr;
  }
#if CINEFLOW_HAVE_CUDA
  return std::make_unique<CudaVolumeUpload>(backend, device);
#else
  return nullptr;
#endif
}

}  // namespace cineflow::ui
