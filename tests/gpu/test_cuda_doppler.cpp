// Colour Doppler on CUDA against its CPU twin: the flow estimator with each clutter filter on
// seeded synthetic ensembles (tissue 40 dB above the blood, noise), and the whole Doppler chain on
// the flow simulator. Velocity, variance and power agree within float rounding carried through
// the filters: velocities within 1e-4 of the aliasing velocity where the flow's power is within
// 60 dB of its peak (below that a pixel holds noise whose phase float rounding may move freely),
// power within 0.01 dB there. Through the whole chain the I/Q the estimator sees already differs
// between the twins by the beamformer's float rounding, about 1e-6 of the peak amplitude (the
// chain's relative L2 difference, docs/performance.md): a pixel whose flow is D dB below the peak
// then has its autocorrelation's phase moved by up to about 1e-6 x 10^(D/20) rad, and its
// velocity by v_a / pi times that. The chain's velocities are held to 1e-5 x 10^(D/20) / pi of
// v_a (ten times that rounding), at most 1e-4 of v_a as above where that is larger.
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "cuda_test_support.hpp"
#include "support/flow_ensembles.hpp"
#include "ultrasound/bmode_processor.hpp"
#include "ultrasound/flow_simulator.hpp"

using namespace cineflow;

namespace {

constexpr double kAliasing = 0.5;
// The whole chain's CUDA - CPU relative L2 difference is 0.6-1.4e-6 (docs/performance.md).
constexpr double kChainRounding = 1e-6;

// Compares two flow images [velocity, variance, power][pixels] where the power is within 60 dB
// of its peak.
// `chainRounding` > 0: the relative rounding of the I/Q both twins start from (the whole chain),
// which loosens the velocity tolerance of weaker pixels as derived above.
void compareFlow(const char* what, const std::vector<float>& gpu, const std::vector<float>& cpu,
                 std::size_t pixels, double aliasing, double chainRounding = 0) {
  float peak = -INFINITY;
  for (std::size_t p = 0; p < pixels; ++p) {
    if (std::isfinite(cpu[2 * pixels + p])) {
      peak = std::max(peak, cpu[2 * pixels + p]);
    }
  }
  double worstVelocity = 0, worstPower = 0, worstShare = 0, worstBelowPeak = 0;
  std::size_t compared = 0;
  for (std::size_t p = 0; p < pixels; ++p) {
    QCOMPARE(std::isnan(gpu[p]), std::isnan(cpu[p]));
    if (!std::isfinite(cpu[2 * pixels + p]) || cpu[2 * pixels + p] < peak - 60) {
      continue;
    }
    ++compared;
    double dv = std::abs(double(gpu[p]) - cpu[p]);
    dv = std::min(dv, 2 * aliasing - dv);  // +-v_a are one velocity
    const double belowPeak = peak - cpu[2 * pixels + p];
    const double tolerance =
        aliasing * std::max(1e-4, 10 * chainRounding * std::pow(10.0, belowPeak / 20) / M_PI);
    if (dv / tolerance > worstShare) {
      worstShare = dv / tolerance;
      worstBelowPeak = belowPeak;
    }
    worstVelocity = std::max(worstVelocity, dv);
    worstPower = std::max(worstPower, std::abs(double(gpu[2 * pixels + p]) - cpu[2 * pixels + p]));
  }
  qInfo(
      "%-24s %zu pixels: velocity within %.2g of v_a (worst against its tolerance: %.2g of it, "
      "%.1f dB below the peak), power within %.3g dB",
      what, compared, worstVelocity / aliasing, worstShare, worstBelowPeak, worstPower);
  QVERIFY(compared > pixels / 4);
  QVERIFY2(worstShare <= 1, what);
  QVERIFY2(worstPower <= 0.01, what);
}

}  // namespace

class TestCudaDoppler : public QObject {
  Q_OBJECT

  std::string cudaSkipReason_;
  std::unique_ptr<compute::Backend> cuda_ = test::cudaBackendOrReason(cudaSkipReason_);
  std::unique_ptr<compute::Backend> cpu_ = compute::createBackend(compute::BackendRequest::Cpu);

 private slots:
  void theFlowEstimatorMatchesItsCpuTwin() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    const process::ImageGeometry g = test::flowGrid(40, 36);
    test::SlowTime signal;
    signal.flowStep = 1.2;
    signal.clutterStep = 0.005;
    signal.clutterAmplitude = 100.0;
    signal.clutterDrift = 0.1;
    signal.noise = 0.01;
    const auto frames = test::makeFrames(g, 40, signal, 11);
    for (const char* spec : {"none", "regression:2", "iir:0.08", "svd:1"}) {
      ultrasound::DopplerParams params;
      params.ensemble = 24;
      params.applyWallFilterSpec(spec);
      params.averageX = 3;
      params.box = {0.5e-3, 3.5e-3, 10.2e-3, 13.0e-3};
      const auto gpu = test::runFlowEstimator(*cuda_, g, params, kAliasing, frames);
      const auto cpu = test::runFlowEstimator(*cpu_, g, params, kAliasing, frames);
      QCOMPARE(gpu.estimated, cpu.estimated);
      compareFlow(spec, gpu.flow.back(), cpu.flow.back(), g.pixels(), kAliasing);
    }
  }

  void theDopplerChainMatchesOnTheFlowSimulator() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    ultrasound::FlowSimulatorConfig config;
    config.frames = 20;
    ultrasound::FlowSimulator source(config);
    ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(source.params());
    imaging.mode = ultrasound::ImagingMode::ColourDoppler;
    imaging.grid = ultrasound::ImagingGrid::parseMillimetres("-9:9:0.15,7:31:0.08");
    imaging.doppler.ensemble = 16;
    std::vector<float> images[2];
    compute::Backend* backends[2] = {cuda_.get(), cpu_.get()};
    for (int b = 0; b < 2; ++b) {
      ultrasound::BmodeProcessor processor;
      processor.configure(*backends[b], source.params(), source.sampleType(), imaging);
      const process::ImageGeometry geometry = processor.geometry();
      compute::DeviceBuffer<std::byte> raw(*backends[b], source.frameBytes());
      compute::DeviceBuffer<float> image(*backends[b], geometry.values());
      std::vector<std::byte> host(source.frameBytes());
      auto stream = backends[b]->createStream("doppler-test");
      for (int f = 0; f < config.frames; ++f) {
        acquire::FrameHeader header;
        header.sequence = header.sourceIndex = static_cast<std::uint64_t>(f);
        stream->synchronize();
        source.readFrame(header.sourceIndex, host, header.slice);
        stream->copyAsync(raw.data(), host.data(), host.size());
        processor.enqueue(*stream, header, raw.view(), image.view(), {});
      }
      images[b].resize(geometry.values());
      stream->copyAsync(images[b].data(), image.data(), image.bytes());
      stream->synchronize();
      QVERIFY(stream->takeError().empty());
    }
    const process::ImageGeometry g = imaging.imageGeometry(source.params());
    const std::size_t pixels = g.pixels();
    compareFlow("chain on the simulator",
                std::vector<float>(images[0].begin() + pixels, images[0].end()),
                std::vector<float>(images[1].begin() + pixels, images[1].end()), pixels,
                g.aliasingVelocity, kChainRounding);
  }
};

QTEST_GUILESS_MAIN(TestCudaDoppler)
#include "test_cuda_doppler.moc"
