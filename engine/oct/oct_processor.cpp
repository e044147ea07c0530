#include "oct/oct_processor.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "oct/oct_modality.hpp"
#include "process/stage_checks.hpp"

namespace cineflow::oct {
namespace {
constexpr const char* kName = "OCT processor";
}

void OctProcessor::configure(compute::Backend& backend, const acquire::FrameSource& source,
                             const modality::ProcessingSettings& settings) {
  configure(backend, requireOct(source).acquisition(), requireParams(settings));
}

void OctProcessor::configure(compute::Backend& backend, const OctAcquisition& acquisition,
                             const OctParams& params) {
  acquisition.validate();
  params.validate(acquisition);
#if !CINEFLOW_HAVE_CUDA
  if (backend.kind() == compute::BackendKind::Cuda) {
    process::detail::throwNoCudaTwin("OCT chain");
  }
#endif
  // Everything new is made first: a failure leaves the previous configuration in place.
  compute::DeviceBuffer<float> background(backend, static_cast<std::size_t>(acquisition.samples));
  if (params.background == Background::Reference) {
    backend.copyBlocking(background.data(), params.reference.data(),
                         params.reference.size() * sizeof(float));
  }
  cpu::OctCpuChain chain;
#if CINEFLOW_HAVE_CUDA
  std::unique_ptr<cuda::OctCudaChain> cudaChain;
  if (backend.kind() == compute::BackendKind::Cuda) {
    cudaChain = std::make_unique<cuda::OctCudaChain>(backend, acquisition, params);
  } else {
    chain.configure(acquisition, params);
  }
#else
  chain.configure(acquisition, params);
#endif

  kind_ = backend.kind();
  acquisition_ = acquisition;
  geometry_ = params.geometry(acquisition);
  rollingBackground_ = params.background == Background::RollingMean;
  background_ = std::move(background);
  cpu_ = std::move(chain);
#if CINEFLOW_HAVE_CUDA
  cuda_ = std::move(cudaChain);
#endif
}

std::span<const char* const> OctProcessor::stageNames() const {
  if (kind_ == compute::BackendKind::Cuda) {
    return kCudaStages;
  }
  return kCpuStages;
}

void OctProcessor::enqueue(compute::Stream& stream, const acquire::FrameHeader& frame,
                           compute::DeviceSpan<const std::byte> raw,
                           compute::DeviceSpan<float> image, process::StageMarks marks) {
  process::checkEnqueue(kName, geometry_.pixels(), acquisition_.samplesPerFrame() * 2,
                        stageNames().size(), raw, image, marks);
  const auto* spectra = reinterpret_cast<const std::uint16_t*>(raw.data());
  const bool reverse = reversed(acquisition_, frame);
  process::recordMark(stream, marks, 0);
#if CINEFLOW_HAVE_CUDA
  if (cuda_) {
    if (rollingBackground_) {
      cuda_->enqueueBackground(stream, spectra, background_.data());
    }
    process::recordMark(stream, marks, 1);
    cuda_->enqueueSpectra(stream, spectra, background_.data());
    process::recordMark(stream, marks, 2);
    cuda_->enqueueFft(stream);
    process::recordMark(stream, marks, 3);
    cuda_->enqueueImage(stream, image.data(), reverse);
    process::recordMark(stream, marks, 4);
    return;
  }
#endif
  if (rollingBackground_) {
    cpu_.enqueueBackground(stream, spectra, background_.data());
  }
  process::recordMark(stream, marks, 1);
  cpu_.enqueueTransform(stream, spectra, background_.data(), image.data(), reverse);
  process::recordMark(stream, marks, 2);
}

std::vector<tune::TunableStage> OctProcessor::tunableStages(compute::Backend& backend) {
  if (kind_ != compute::BackendKind::Cpu || geometry_.pixels() == 0) {
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
  stage.select = [this](std::size_t index) { cpu_.selectVariant(index); };
  stage.runOnce = [this, buffers] {
    cpu_.enqueueTransform(*tuneStream_, buffers->raw.data(), background_.data(),
                          buffers->image.data(), false);
    tune::finishTuningRun(*tuneStream_, "the OCT transform");
  };
  std::vector<tune::TunableStage> stages;
  stages.push_back(std::move(stage));
  return stages;
}

}  // namespace cineflow::oct
