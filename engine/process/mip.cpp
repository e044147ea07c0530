#include "process/mip.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include "compute/twin.hpp"
#include "process/cpu/mip.hpp"
#include "process/cuda/stage_kernels.hpp"
#include "process/stage_checks.hpp"

namespace cineflow::process {
namespace {
constexpr const char* kStage = "MIP";
}

void MipProjector::configure(compute::Backend& backend, const VolumeShape& shape) {
  if (shape.ny <= 0 || shape.nz <= 0 || shape.nx <= 0) {
    throw std::invalid_argument("MIP: volume shape " + std::to_string(shape.ny) + " x " +
                                std::to_string(shape.nz) + " x " + std::to_string(shape.nx) +
                                " (y, z, x) must have at least one voxel");
  }
  kind_ = backend.kind();
  compute::onTwin(
      kind_,
      [&] {
        scratch_ = compute::DeviceBuffer<float>(
            backend, cpu::mipBandScratchFloats(shape.ny, shape.nz, shape.nx));
        // Committed now, not by the frame loop when the first volume completes.
        backend.zeroBlocking(scratch_.data(), scratch_.bytes());
      },
      [&] {
        plan_ = cuda::planMips(shape.ny, shape.nz, shape.nx);
        scratch_ = compute::DeviceBuffer<float>(backend, plan_.scratchFloats);
        cuda::prepareMipScratch(plan_, scratch_.data());
        launches_ = 0;
      });
  shape_ = shape;
  variant_ = 0;
}

std::vector<std::string> MipProjector::variants() const {
  if (compute::runsOnCuda(kind_)) {
    if (plan_.onePass) {
      return {"one-pass", "multi-pass"};
    }
    return {"multi-pass"};
  }
  return {"two-pass", "one-pass"};
}

void MipProjector::selectVariant(std::size_t index) {
  if (shape_.voxels() == 0) {
    detail::throwNotConfigured(kStage);
  }
  if (index >= variants().size()) {
    throw std::invalid_argument("MIP: no variant " + std::to_string(index));
  }
  variant_ = index;
}

void MipProjector::enqueue(compute::Stream& stream, compute::DeviceSpan<const float> volume,
                           compute::DeviceSpan<float> alongY, compute::DeviceSpan<float> alongZ,
                           compute::DeviceSpan<float> alongX) const {
  if (shape_.voxels() == 0) {
    detail::throwNotConfigured(kStage);
  }
  detail::requireSize(kStage, "volume", volume.size(), shape_.voxels());
  detail::requireSize(kStage, "projection along y", alongY.size(), shape_.alongY());
  detail::requireSize(kStage, "projection along z", alongZ.size(), shape_.alongZ());
  detail::requireSize(kStage, "projection along x", alongX.size(), shape_.alongX());
  for (const void* data :
       {static_cast<const void*>(volume.data()), static_cast<const void*>(alongY.data()),
        static_cast<const void*>(alongZ.data()), static_cast<const void*>(alongX.data())}) {
    detail::requireData(kStage, "a buffer", data);
  }
  compute::onTwin(
      kind_,
      [&] {
        stream.enqueueHost([shape = shape_, onePass = variant_ == 1, bands = scratch_.data(),
                            v = volume.data(), y = alongY.data(), z = alongZ.data(),
                            x = alongX.data()] {
          if (onePass) {
            cpu::mipsOnePass(v, shape.ny, shape.nz, shape.nx, bands, y, z, x);
          } else {
            cpu::mips(v, shape.ny, shape.nz, shape.nx, y, z, x);
          }
        });
      },
      [&] {
        launches_ = launches_ == ~0u ? 1u : launches_ + 1u;  // never 0, which the scratch starts as
        cuda::enqueueMips(stream, plan_, launches_, volume.data(), shape_.ny, shape_.nz, shape_.nx,
                          scratch_.data(), alongY.data(), alongZ.data(), alongX.data(),
                          /*multiPass=*/!plan_.onePass || variant_ == 1);
      });
}

tune::TunableStage MipProjector::tunableStage(compute::Backend& backend,
                                              compute::DeviceSpan<const float> volume,
                                              compute::Stream& stream) {
  if (shape_.voxels() == 0) {
    detail::throwNotConfigured(kStage);
  }
  detail::requireSize(kStage, "volume", volume.size(), shape_.voxels());
  // Projections of their own: a reader may hold the engine's latest ones while a retune runs.
  struct Outputs {
    compute::DeviceBuffer<float> alongY, alongZ, alongX;
  };
  auto outputs =
      std::make_shared<Outputs>(Outputs{compute::DeviceBuffer<float>(backend, shape_.alongY()),
                                        compute::DeviceBuffer<float>(backend, shape_.alongZ()),
                                        compute::DeviceBuffer<float>(backend, shape_.alongX())});
  tune::TunableStage stage;
  stage.stage = "mip";
  stage.problem = std::to_string(shape_.ny) + " x " + std::to_string(shape_.nz) + " x " +
                  std::to_string(shape_.nx) + " volume";
  stage.variants = variants();
  stage.select = [this](std::size_t index) { selectVariant(index); };
  stage.runOnce = [this, outputs, volume, &stream] {
    enqueue(stream, volume, outputs->alongY.view(), outputs->alongZ.view(), outputs->alongX.view());
    tune::finishTuningRun(stream, "the MIPs");
  };
  return stage;
}

}  // namespace cineflow::process
