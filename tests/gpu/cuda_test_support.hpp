#pragma once
// Shared by the GPU tests: the CUDA backend (or why there is none), and running one stage on a
// backend from host inputs to host outputs.

#include <QtTest>

#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "modality/frame_processor.hpp"

namespace cineflow::test {

// The CUDA backend, or nullptr with `reason` set (no device, no driver, CPU-only build).
inline std::unique_ptr<compute::Backend> cudaBackendOrReason(std::string& reason) {
  try {
    return compute::createBackend(compute::BackendRequest::Cuda);
  } catch (const std::exception& e) {
    reason = e.what();
    return nullptr;
  }
}

#define CINEFLOW_REQUIRE_CUDA(backendPtr)                                   \
  do {                                                                      \
    if (!(backendPtr)) {                                                    \
      QSKIP(qPrintable(QString("no CUDA device, GPU test skipped: %1")      \
                           .arg(QString::fromStdString(cudaSkipReason_)))); \
    }                                                                       \
  } while (false)

// Uploads `input` to `backend`'s device memory, runs `body` on a stream, returns the output.
template <class In>
std::vector<float> runStage(
    compute::Backend& backend, const std::vector<In>& input, std::size_t outputCount,
    const std::function<void(compute::Stream&, compute::DeviceSpan<const In>,
                             compute::DeviceSpan<float>)>& body) {
  compute::DeviceBuffer<In> in(backend, input.size());
  compute::DeviceBuffer<float> out(backend, outputCount);
  std::vector<float> result(outputCount, -12345.0f);  // poison: every element must be written
  auto stream = backend.createStream("stage-test");
  stream->copyAsync(in.data(), input.data(), in.bytes());
  stream->copyAsync(out.data(), result.data(), out.bytes());
  body(*stream, compute::DeviceSpan<const In>(in.data(), in.size()), out.view());
  stream->copyAsync(result.data(), out.data(), out.bytes());
  stream->synchronize();
  const std::string error = stream->takeError();
  if (!error.empty()) {
    throw std::runtime_error(error);
  }
  return result;
}

// ||a - b|| / ||b|| in double.
inline double relativeL2(const std::vector<float>& a, const std::vector<float>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
    den += double(b[i]) * b[i];
  }
  return std::sqrt(num / den);
}

// Runs `processor`, configured on `backend`, on one raw frame uploaded from the host; returns its
// image (poisoned with NaN before, so a pixel the processor did not write shows).
inline std::vector<float> processFrame(compute::Backend& backend,
                                       modality::FrameProcessor& processor,
                                       std::span<const std::byte> raw,
                                       const acquire::FrameHeader& header) {
  compute::DeviceBuffer<std::byte> device(backend, raw.size());
  backend.copyBlocking(device.data(), raw.data(), raw.size());
  compute::DeviceBuffer<float> image(backend, processor.geometry().pixels());
  std::vector<float> host(image.size(), std::numeric_limits<float>::quiet_NaN());
  backend.copyBlocking(image.data(), host.data(), host.size() * sizeof(float));
  auto stream = backend.createStream("test");
  std::vector<std::unique_ptr<compute::Event>> marks;
  for (std::size_t i = 0; i <= processor.stageNames().size(); ++i) {
    marks.push_back(backend.createEvent());
  }
  processor.enqueue(*stream, header, device.view(), image.view(), marks);
  stream->synchronize();
  if (const std::string error = stream->takeError(); !error.empty()) {
    throw std::runtime_error(error);
  }
  backend.copyBlocking(host.data(), image.data(), host.size() * sizeof(float));
  return host;
}

}  // namespace cineflow::test
