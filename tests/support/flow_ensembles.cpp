#include "support/flow_ensembles.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "compute/buffer.hpp"
#include "support/test_random.hpp"
#include "ultrasound/flow_estimator.hpp"

namespace cineflow::test {

ComplexFrames makeFrames(const process::ImageGeometry& geometry, int frames, const SlowTime& signal,
                         std::uint64_t seed) {
  SeededRandom random(seed);
  const std::size_t pixels = geometry.pixels();
  std::vector<std::complex<double>> flow(pixels), clutter(pixels);
  for (std::size_t p = 0; p < pixels; ++p) {
    flow[p] = std::polar(signal.flowAmplitude * random.uniform(0.5, 1.0),
                         random.uniform(-std::numbers::pi, std::numbers::pi));
    clutter[p] =
        std::polar(signal.clutterAmplitude, random.uniform(-std::numbers::pi, std::numbers::pi));
  }
  ComplexFrames out(static_cast<std::size_t>(frames), std::vector<std::complex<float>>(pixels));
  for (int k = 0; k < frames; ++k) {
    const std::complex<double> flowTurn = std::polar(1.0, signal.flowStep * k);
    const double drift = 1.0 + signal.clutterDrift * k / std::max(1, frames - 1);
    const std::complex<double> clutterTurn = std::polar(drift, signal.clutterStep * k);
    for (std::size_t p = 0; p < pixels; ++p) {
      // Box-Muller from two uniforms per component.
      const auto gaussian = [&random] {
        const double u1 = 1.0 - random.uniform(0.0, 1.0);
        const double u2 = random.uniform(0.0, 1.0);
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
      };
      const std::complex<double> noise(signal.noise * gaussian() / std::numbers::sqrt2,
                                       signal.noise * gaussian() / std::numbers::sqrt2);
      out[static_cast<std::size_t>(k)][p] =
          std::complex<float>(flow[p] * flowTurn + clutter[p] * clutterTurn + noise);
    }
  }
  return out;
}

FlowRun runFlowEstimator(compute::Backend& backend, const process::ImageGeometry& geometry,
                         const ultrasound::DopplerParams& params, double aliasingVelocity,
                         const ComplexFrames& frames,
                         const std::vector<acquire::FrameHeader>& headers) {
  ultrasound::FlowEstimator estimator;
  estimator.configure(backend, geometry, params, aliasingVelocity);
  compute::DeviceBuffer<float> flow(backend, 3 * geometry.pixels());
  auto stream = backend.createStream("flow-test");
  FlowRun run;
  for (std::size_t k = 0; k < frames.size(); ++k) {
    acquire::FrameHeader header;
    if (headers.empty()) {
      header.sequence = k;
      header.sourceIndex = k;
    } else {
      header = headers[k];
    }
    const compute::DeviceSpan<float> next = estimator.nextFrame();
    stream->copyAsync(next.data(), frames[k].data(), next.bytes());
    estimator.enqueue(*stream, header, flow.view());
    std::vector<float> out(flow.size());
    stream->copyAsync(out.data(), flow.data(), flow.bytes());
    stream->synchronize();
    if (const std::string error = stream->takeError(); !error.empty()) {
      throw std::runtime_error(error);
    }
    run.flow.push_back(std::move(out));
    run.estimated.push_back(estimator.estimated());
  }
  return run;
}

process::ImageGeometry flowGrid(int nx, int nz) {
  process::ImageGeometry g;
  g.nx = nx;
  g.nz = nz;
  g.x0 = 0;
  g.dx = 1e-4;
  g.z0 = 10e-3;
  g.dz = 1e-4;
  return g;
}

}  // namespace cineflow::test
