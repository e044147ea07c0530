#pragma once
// OctProcessor: the OCT chain (oct_params.hpp) as one FrameProcessor.
//   stages: "background" (the B-scan's mean spectrum; nothing with a reference spectrum),
//           "transform" (background subtraction, k-linearisation, window and dispersion, FFT,
//           dB), the same on both backends: fused per A-scan on the CPU (oct/cpu/oct_stages.hpp),
//           three kernels on CUDA (oct/cuda/oct_kernels.hpp)
// The flyback crop drops the last A-scans of every raw B-scan (in the order they were acquired);
// the reversal of bidirectional B-scans applies to the image columns.
// Memory: the background spectrum [samples] floats, and on the CPU the chain's tables, FFT plan
// and per-chunk scratch; all made by configure(). enqueue() never allocates or synchronises.

#include <array>

#include <memory>

#include "compute/buffer.hpp"
#include "compute/twin.hpp"
#include "modality/frame_processor.hpp"
#include "oct/oct_params.hpp"

namespace cineflow::oct {

namespace cpu {
class OctCpuChain;
}
namespace cuda {
class OctCudaChain;
}

class OctProcessor final : public modality::FrameProcessor {
 public:
  OctProcessor();
  ~OctProcessor() override;
  OctProcessor(const OctProcessor&) = delete;
  OctProcessor& operator=(const OctProcessor&) = delete;

  void configure(compute::Backend& backend, const OctAcquisition& acquisition,
                 const OctParams& params);
  // An OctSource and OctSettings; throws std::invalid_argument for another modality's.
  void configure(compute::Backend& backend, const acquire::FrameSource& source,
                 const modality::ProcessingSettings& settings) override;
  process::ImageGeometry geometry() const override { return geometry_; }
  std::span<const char* const> stageNames() const override { return kStages; }
  // With bidirectional scanning, the B-scans of odd `frame.sourceIndex` ran right to left: their
  // imaged A-scans are written to the image in reverse, so every B-scan reads left to right.
  void enqueue(compute::Stream& stream, const acquire::FrameHeader& frame,
               compute::DeviceSpan<const std::byte> raw, compute::DeviceSpan<float> image,
               process::StageMarks marks) override;
  // On the CPU backend the transform's variants (cpu::OctCpuChain: "fused", "separate"), timed on
  // a B-scan of a fixed pattern; on CUDA none yet (one implementation).
  std::vector<tune::TunableStage> tunableStages(compute::Backend& backend) override;
  // Whether the B-scan `frame` of `acquisition` was scanned right to left.
  static bool reversed(const OctAcquisition& acquisition, const acquire::FrameHeader& frame) {
    return acquisition.bidirectional && frame.sourceIndex % 2 == 1;
  }

 private:
  static constexpr std::array<const char*, 2> kStages = {"background", "transform"};

  OctAcquisition acquisition_;
  process::ImageGeometry geometry_;
  bool rollingBackground_ = true;
  compute::DeviceBuffer<float> background_;  // [samples]
  // The CPU chain, for the tuner's runs; std::logic_error when the CUDA chain is the one made.
  cpu::OctCpuChain& cpuChain() const;

  compute::Twin<cpu::OctCpuChain, cuda::OctCudaChain> chain_;
  std::unique_ptr<compute::Stream> tuneStream_;  // the tuner's runs
};

}  // namespace cineflow::oct
