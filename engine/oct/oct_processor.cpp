#include "oct/oct_processor.hpp"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "oct/cpu/oct_stages.hpp"
#include "oct/cuda/oct_kernels.hpp"
#include "oct/oct_modality.hpp"
#include "process/stage_checks.hpp"

namespace cineflow::oct {
namespace {
constexpr const char* kName = "OCT processor";
}

OctProcessor::OctProcessor() = default;
OctProcessor::~OctProcessor() = default;

void OctProcessor::configure(compute::Backend& backend, const acquire::FrameSource& source,
                             const modality::ProcessingSettings& settings) {
  configure(backend, requireOct(source).acquisition(), requireParams(settings));
}

void OctProcessor::configure(compute::Backend& backend, const OctAcquisition& acquisition,
                             const OctParams& params) {
  acquisition.validate();
  params.validate(acquisition);
  // Everything new is made first: a failure leaves the previous configuration in place.
  compute::DeviceBuffer<float> background(backend, static_cast<std::size_t>(acquisition.samples));
  if (params.background == Background::Reference) {
    backend.copyBlocking(background.data(), params.reference.data(),
                         params.reference.size() * sizeof(float));
  }
  chain_.make(
      backend.kind(),
      [&] {
        auto chain = std::make_unique<cpu::OctCpuChain>();
        chain->configure(acquisition, params);
        return chain;
      },
      [&] { return std::make_unique<cuda::OctCudaChain>(backend, acquisition, params); });

  acquisition_ = acquisition;
  geometry_ = params.geometry(acquisition);
  rollingBackground_ = params.background == Background::RollingMean;
  background_ = std::move(background);
}

void OctProcessor::enqueue(compute::Stream& stream, const acquire::FrameHeader& frame,
                           compute::DeviceSpan<const std::byte> raw,
                           compute::DeviceSpan<float> image, process::StageMarks marks) {
  process::checkEnqueue(kName, geometry_.pixels(), acquisition_.samplesPerFrame() * 2,
                        stageNames().size(), raw, image, marks);
  const auto* spectra = reinterpret_cast<const std::uint16_t*>(raw.data());
  const bool reverse = reversed(acquisition_, frame);
  chain_.visitMutable(kName, [&](auto& chain) {
    process::recordMark(stream, marks, 0);
    if (rollingBackground_) {
      chain.enqueueBackground(stream, spectra, background_.data());
    }
    process::recordMark(stream, marks, 1);
    chain.enqueueTransform(stream, spectra, background_.data(), image.data(), reverse);
    process::recordMark(stream, marks, 2);
  });
}

cpu::OctCpuChain& OctProcessor::cpuChain() const {
  cpu::OctCpuChain* chain = chain_.cpuKernel();
  if (chain == nullptr) {
    throw std::logic_error("OCT processor: the CPU transform is not configured");
  }
  return *chain;
}

std::vector<tune::TunableStage> OctProcessor::tunableStages(compute::Backend& backend) {
  if (chain_.cpuKernel() == nullptr || geometry_.pixels() == 0) {
    return {};
  }
  if (!tuneStream_) {
    tuneStream_ = backend.createStream("tune");
  }
  // A B-scan of its own (a fixed pattern of 12-bit counts) and an image to write.
  struct Buffers {
    compute::DeviceBuffer<std::uint16_t> raw;
    compute::DeviceBuffer<float> image;
  };
  auto buffers = std::make_shared<Buffers>(
      Buffers{compute::DeviceBuffer<std::uint16_t>(backend, acquisition_.samplesPerFrame()),
              compute::DeviceBuffer<float>(backend, geometry_.pixels())});
  for (std::size_t i = 0; i < buffers->raw.size(); ++i) {
    buffers->raw.data()[i] = static_cast<std::uint16_t>(2048 + (i * 37) % 1000);  // CPU memory
  }
  tune::TunableStage stage;
  stage.stage = "transform";
  stage.problem = std::to_string(acquisition_.imagedAscans()) + " A-scans of " +
                  std::to_string(acquisition_.samples) + " samples";
  stage.variants = cpu::OctCpuChain::variantNames();
  // The chain is looked up at each call: a reconfiguration makes a new one.
  stage.select = [this](std::size_t index) { cpuChain().selectVariant(index); };
  stage.runOnce = [this, buffers] {
    cpuChain().enqueueTransform(*tuneStream_, buffers->raw.data(), background_.data(),
                                buffers->image.data(), false);
    tune::finishTuningRun(*tuneStream_, "the OCT transform");
  };
  std::vector<tune::TunableStage> stages;
  stages.push_back(std::move(stage));
  return stages;
}

}  // namespace cineflow::oct
