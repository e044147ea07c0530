#pragma once
// Maximum-intensity projections of a B-mode volume (docs/ultrasound.md).
//
// Contract
//   volume  float32 dB [ny][nz][nx] (y: elevation slice, z: depth, x: lateral), device memory.
//   alongY  [nz][nx] = max over y  (the projection through the slab; looks like a B-mode image)
//   alongZ  [ny][nx] = max over z  (en face)
//   alongX  [ny][nz] = max over x  (side view)
//   Maxima follow IEEE 754-2019 maximumNumber (process/cuda/mip_max.hpp): a NaN is ignored unless
//   every value of the line is NaN, and +0 counts above -0, so every variant on every backend
//   gives the same bits. The outputs must not overlap the volume or each other.
//   stream  enqueue() only enqueues work on `stream`: it never allocates or synchronises. The CUDA
//           projector owns a scratch buffer (sized and readied in configure) where the maxima
//           along z meet, so two enqueues of one projector must not run concurrently on different
//           streams.

#include <cstddef>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "process/cuda/mip_plan.hpp"
#include "tune/tuning.hpp"

namespace cineflow::process {

struct VolumeShape {
  int ny = 0, nz = 0, nx = 0;
  std::size_t voxels() const {
    return static_cast<std::size_t>(ny) * static_cast<std::size_t>(nz) *
           static_cast<std::size_t>(nx);
  }
  std::size_t alongY() const { return static_cast<std::size_t>(nz) * static_cast<std::size_t>(nx); }
  std::size_t alongZ() const { return static_cast<std::size_t>(ny) * static_cast<std::size_t>(nx); }
  std::size_t alongX() const { return static_cast<std::size_t>(ny) * static_cast<std::size_t>(nz); }
  bool operator==(const VolumeShape&) const = default;
};

class MipProjector {
 public:
  // Throws std::invalid_argument for an empty shape, std::logic_error for a backend without this
  // stage, and the backend's error when the scratch buffer cannot be allocated.
  void configure(compute::Backend& backend, const VolumeShape& shape);
  // Throws std::invalid_argument (before enqueuing anything) for spans of the wrong size.
  void enqueue(compute::Stream& stream, compute::DeviceSpan<const float> volume,
               compute::DeviceSpan<float> alongY, compute::DeviceSpan<float> alongZ,
               compute::DeviceSpan<float> alongX) const;

  const VolumeShape& shape() const { return shape_; }

  // Implementations of this contract on the configured backend (tune/tuning.hpp). CPU:
  // "two-pass" and "one-pass" (cpu/mip.hpp). CUDA: "one-pass", the cluster kernel
  // (cuda/mip_tile.cu), where the device and the volume's width allow it, and "multi-pass", three
  // kernels with partial maxima along z. Each is checked against the plain loops by test_mip
  // (CPU) and test_cuda_stages (CUDA). Variant 0 is the default.
  std::vector<std::string> variants() const;
  void selectVariant(std::size_t index);  // between volumes
  std::size_t variant() const { return variant_; }
  // This projector as the tunable stage "mip": each run projects `volume` (shape() voxels) into
  // projections allocated here, on `stream`, and waits. The projector must outlive the stage.
  tune::TunableStage tunableStage(compute::Backend& backend,
                                  compute::DeviceSpan<const float> volume, compute::Stream& stream);

 private:
  compute::BackendKind kind_ = compute::BackendKind::Cpu;
  VolumeShape shape_;
  cuda::MipPlan plan_;  // CUDA only
  // CUDA: launch marks, partial maxima along z; CPU: the one-pass variant's bands along z
  compute::DeviceBuffer<float> scratch_;
  std::size_t variant_ = 0;
  [[maybe_unused]] mutable unsigned launches_ = 0;  // CUDA: numbers the one-pass kernel's enqueues
};

}  // namespace cineflow::process
