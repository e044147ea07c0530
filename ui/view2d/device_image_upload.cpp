// GLEW must precede every other OpenGL header, CUDA's interop header included.
#include <GL/glew.h>

#include "view2d/device_image_upload.hpp"

#include "common/gl_program.hpp"
#include "view2d/image_renderer.hpp"

#if CINEFLOW_HAVE_CUDA
#include <cuda_gl_interop.h>

#include "compute/cuda/cuda_backend.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "compute/cuda/graphics_resource.hpp"
#endif

namespace cineflow::ui {
namespace {

#if CINEFLOW_HAVE_CUDA
namespace cuda = compute::cuda;

std::string glRendererName() {
  const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return name != nullptr ? name : "an unknown OpenGL renderer";
}

// Registers a scratch texture and lets it go, so that a driver refusing interop is known before
// the first frame (and before the renderer's texture is touched).
void probeRegistration() {
  const GlTexture texture = createTexture(GL_TEXTURE_2D, GL_NEAREST);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, 1, 1, 0, GL_RED, GL_FLOAT, nullptr);
  glBindTexture(GL_TEXTURE_2D, 0);
  cudaGraphicsResource_t handle = nullptr;
  const cudaError_t status = cudaGraphicsGLRegisterImage(&handle, texture.get(), GL_TEXTURE_2D,
                                                         cudaGraphicsRegisterFlagsWriteDiscard);
  {
    const cuda::GraphicsResource owner(status == cudaSuccess ? handle : nullptr);
  }  // unregistered before its texture goes
  cuda::check(status, "cudaGraphicsGLRegisterImage (probe texture)");
}

class CudaImageUpload final : public DeviceImageUpload {
 public:
  explicit CudaImageUpload(int device)
      : device_(device), stream_("cf-display"), renderer_(glRendererName()) {}

  bool upload(ImageRenderer& renderer, const pipeline::Cineloop& cineloop,
              std::optional<std::uint64_t> sequence, acquire::FrameHeader& header,
              process::ImageGeometry& geometry) override {
    cuda::check(cudaSetDevice(device_), "cudaSetDevice (display)");
    return cineloop.readImage(
        sequence,
        [&](const float* image, const process::ImageGeometry& g) {
          attach(renderer, g);
          const std::size_t rowBytes = static_cast<std::size_t>(g.nx) * sizeof(float);
          const auto rows = static_cast<std::size_t>(g.nz) * static_cast<std::size_t>(g.layers);
          {
            cuda::ScopedMapping mapping(resource_, stream_.get());
            cuda::check(cudaMemcpy2DToArrayAsync(mapping.array(), 0, 0, image, rowBytes, rowBytes,
                                                 rows, cudaMemcpyDeviceToDevice, stream_.get()),
                        "cudaMemcpy2DToArrayAsync (cineloop to display texture)", rowBytes * rows);
          }
          // The seqlock validates the copy only once it has finished.
          cuda::check(cudaStreamSynchronize(stream_.get()), "cudaStreamSynchronize (display)");
          return true;
        },
        header, geometry);
  }

  void detach() override { resource_ = cuda::GraphicsResource(); }

  std::string description() const override { return "CUDA-OpenGL interop on " + renderer_; }

  // Registers the renderer's texture once per allocation (a reallocation invalidates it).
  // The registration is dropped before the texture is reallocated: CUDA forbids changing the
  // storage of a registered texture.
  void attach(ImageRenderer& renderer, const process::ImageGeometry& geometry) {
    if (!renderer.textureMatches(geometry.nx, geometry.nz, geometry.layers)) {
      detach();
    }
    const unsigned int texture = renderer.ensureTexture(geometry.nx, geometry.nz, geometry.layers);
    if (resource_ && registeredAllocation_ == renderer.textureAllocations()) {
      return;
    }
    detach();
    cudaGraphicsResource_t handle = nullptr;
    cuda::check(cudaGraphicsGLRegisterImage(&handle, texture, GL_TEXTURE_2D,
                                            cudaGraphicsRegisterFlagsWriteDiscard),
                "cudaGraphicsGLRegisterImage (display texture)");
    resource_ = cuda::GraphicsResource(handle);
    registeredAllocation_ = renderer.textureAllocations();
  }

 private:
  int device_;
  cuda::CudaStream stream_;
  std::string renderer_;
  cuda::GraphicsResource resource_;  // after stream_: unregistered before the stream goes
  std::uint64_t registeredAllocation_ = 0;
};
#endif

}  // namespace

int interopDevice(const compute::Backend& backend, std::string& reason) {
  if (backend.kind() != compute::BackendKind::Cuda) {
    reason = "the CPU backend keeps images in host memory";
    return -1;
  }
#if CINEFLOW_HAVE_CUDA
  const auto& cudaBackend = static_cast<const cuda::CudaBackend&>(backend);
  try {
    cuda::check(cudaSetDevice(cudaBackend.device()), "cudaSetDevice (display)");
    // Which CUDA devices drive the current GL context; none when it runs on another vendor's
    // driver or in software.
    unsigned int count = 0;
    int devices[4] = {-1, -1, -1, -1};
    const cudaError_t status = cudaGLGetDevices(&count, devices, 4, cudaGLDeviceListAll);
    if (status != cudaSuccess || count == 0) {
      (void)cudaGetLastError();  // a non-sticky error: clear it so later checks see their own
      reason = "the OpenGL context runs on " + glRendererName() + ", not on a CUDA device";
      return -1;
    }
    bool sameDevice = false;
    for (unsigned int i = 0; i < count && i < 4; ++i) {
      sameDevice = sameDevice || devices[i] == cudaBackend.device();
    }
    if (!sameDevice) {
      reason = "the OpenGL context runs on another GPU than CUDA device " +
               std::to_string(cudaBackend.device());
      return -1;
    }
    return cudaBackend.device();
  } catch (const std::exception& error) {
    reason = error.what();
    return -1;
  }
#else
  reason = "this build of Cineflow has no CUDA";
  return -1;
#endif
}

std::unique_ptr<DeviceImageUpload> DeviceImageUpload::create(const compute::Backend& backend,
                                                             std::string& reason) {
  const int device = interopDevice(backend, reason);
  if (device < 0) {
    return nullptr;
  }
#if CINEFLOW_HAVE_CUDA
  try {
    probeRegistration();
    return std::make_unique<CudaImageUpload>(device);
  } catch (const std::exception& error) {
    reason = error.what();
    return nullptr;
  }
#else
  return nullptr;
#endif
}

}  // namespace cineflow::ui
