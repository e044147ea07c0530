// The flow estimator (ultrasound/flow_estimator.hpp) on the CPU backend, on seeded synthetic
// ensembles whose answers are known in closed form (tests/support/flow_ensembles.hpp):
//   - a tone of phase step phi per frame reads v = v_a phi / pi, variance ~ 0, its power in dB;
//   - sliding ensembles estimate at every frame from the Nth, blocks every N frames; a frame that
//     does not follow (a sequence gap, a replay's loop) starts a new ensemble;
//   - NaN outside the colour box and before the first estimate;
//   - each clutter filter (regression, IIR, SVD) takes tissue 40 dB stronger than the blood back
//     to the blood's velocity, which without a filter is lost under the tissue's;
//   - the averaging window averages R0 and R1 (checked against the closed form).
#include <QtTest>

#include <cmath>
#include <complex>
#include <numbers>

#include "support/flow_ensembles.hpp"
#include "ultrasound/doppler_math.hpp"

using namespace cineflow;

namespace {

constexpr double kAliasing = 0.5;  // m/s

std::unique_ptr<compute::Backend> cpu() {
  return compute::createBackend(compute::BackendRequest::Cpu);
}

float velocityAt(const std::vector<float>& flow, const process::ImageGeometry& g, int ix, int iz) {
  return flow[static_cast<std::size_t>(iz) * g.nx + ix];
}

// The mean velocity over every pixel of `flow`'s velocity layer.
double meanVelocity(const std::vector<float>& flow, const process::ImageGeometry& g) {
  double sum = 0;
  for (std::size_t p = 0; p < g.pixels(); ++p) {
    sum += flow[p];
  }
  return sum / static_cast<double>(g.pixels());
}

}  // namespace

class TestFlowEstimator : public QObject {
  Q_OBJECT

 private slots:
  void aToneReadsItsVelocityVarianceAndPower() {
    auto backend = cpu();
    const process::ImageGeometry g = test::flowGrid(12, 9);
    ultrasound::DopplerParams params;
    params.ensemble = 10;
    params.wallFilter = ultrasound::WallFilter::None;
    const double step = 1.1;
    test::SlowTime signal;
    signal.flowStep = step;
    signal.flowAmplitude = 3.0;
    const auto frames = test::makeFrames(g, 10, signal, 3);
    const test::FlowRun run = test::runFlowEstimator(*backend, g, params, kAliasing, frames);
    const std::vector<float>& flow = run.flow.back();
    for (std::size_t p = 0; p < g.pixels(); ++p) {
      QVERIFY(std::abs(flow[p] - kAliasing * step / std::numbers::pi) < 1e-5);
      QVERIFY(std::abs(flow[g.pixels() + p]) < 1e-5);  // one frequency: no spread
      const double amplitude = std::abs(frames[0][p]);
      QVERIFY(std::abs(flow[2 * g.pixels() + p] - 20 * std::log10(amplitude)) < 1e-3);
    }
  }

  void slidingEstimatesEveryFrameBlocksEveryN() {
    auto backend = cpu();
    const process::ImageGeometry g = test::flowGrid(6, 5);
    const auto frames = test::makeFrames(g, 20, test::SlowTime{}, 4);
    ultrasound::DopplerParams params;
    params.ensemble = 8;
    params.wallFilter = ultrasound::WallFilter::None;
    const test::FlowRun sliding = test::runFlowEstimator(*backend, g, params, kAliasing, frames);
    params.ensembleMode = ultrasound::EnsembleMode::Block;
    const test::FlowRun block = test::runFlowEstimator(*backend, g, params, kAliasing, frames);
    for (int k = 0; k < 20; ++k) {
      QCOMPARE(sliding.estimated[static_cast<std::size_t>(k)], k >= 7);
      QCOMPARE(block.estimated[static_cast<std::size_t>(k)], k == 7 || k == 15);
      // Before the first estimate nothing is known: NaN.
      QCOMPARE(std::isnan(sliding.flow[static_cast<std::size_t>(k)][0]), k < 7);
    }
    // Between blocks the last estimate is repeated.
    QCOMPARE(block.flow[10], block.flow[7]);
  }

  void aFrameThatDoesNotFollowStartsANewEnsemble() {
    auto backend = cpu();
    const process::ImageGeometry g = test::flowGrid(4, 4);
    const auto frames = test::makeFrames(g, 24, test::SlowTime{}, 5);
    std::vector<acquire::FrameHeader> headers(24);
    for (std::size_t k = 0; k < headers.size(); ++k) {
      headers[k].sequence = k < 10 ? k : k + 1;          // frame 10 was dropped
      headers[k].sourceIndex = k < 18 ? k + 1 : k - 18;  // a replay loops at frame 18
    }
    ultrasound::DopplerParams params;
    params.ensemble = 4;
    params.wallFilter = ultrasound::WallFilter::None;
    const test::FlowRun run =
        test::runFlowEstimator(*backend, g, params, kAliasing, frames, headers);
    for (std::size_t k = 0; k < headers.size(); ++k) {
      const bool expected = (k >= 3 && k < 10) || (k >= 13 && k < 18) || k >= 21;
      QVERIFY2(run.estimated[k] == expected, qPrintable(QString("frame %1").arg(k)));
    }
  }

  void nothingIsEstimatedOutsideTheColourBox() {
    auto backend = cpu();
    const process::ImageGeometry g = test::flowGrid(20, 16);
    ultrasound::DopplerParams params;
    params.ensemble = 6;
    params.wallFilter = ultrasound::WallFilter::None;
    params.box = {0.45e-3, 1.05e-3, 10.3e-3, 10.95e-3};  // columns 5-10, rows 3-9
    const process::PixelBox box = process::pixelBox(params.box, g);
    QCOMPARE(box, (process::PixelBox{5, 11, 3, 10}));
    const auto frames = test::makeFrames(g, 6, test::SlowTime{}, 6);
    const test::FlowRun run = test::runFlowEstimator(*backend, g, params, kAliasing, frames);
    for (int layer = 0; layer < 3; ++layer) {
      for (int iz = 0; iz < g.nz; ++iz) {
        for (int ix = 0; ix < g.nx; ++ix) {
          const bool inside = ix >= 5 && ix < 11 && iz >= 3 && iz < 10;
          const float v = run.flow.back()[static_cast<std::size_t>(layer) * g.pixels() +
                                          static_cast<std::size_t>(iz) * g.nx + ix];
          QVERIFY2(std::isfinite(v) == inside,
                   qPrintable(QString("layer %1 (%2, %3)").arg(layer).arg(ix).arg(iz)));
        }
      }
    }
  }

  void everyClutterFilterRecoversTheFlowUnderTissue() {
    auto backend = cpu();
    const process::ImageGeometry g = test::flowGrid(16, 16);
    test::SlowTime signal;
    signal.flowStep = 1.5;            // rad per frame: 0.24 m/s here
    signal.clutterStep = 0.005;       // 0.12 rad over the ensemble: slow tissue motion
    signal.clutterAmplitude = 100.0;  // 40 dB above the blood
    signal.clutterDrift = 0.1;
    signal.noise = 0.01;
    const auto frames = test::makeFrames(g, 24, signal, 7);
    const double truth = kAliasing * signal.flowStep / std::numbers::pi;
    ultrasound::DopplerParams params;
    params.ensemble = 24;
    params.wallFilter = ultrasound::WallFilter::None;
    const double unfiltered =
        meanVelocity(test::runFlowEstimator(*backend, g, params, kAliasing, frames).flow.back(), g);
    qInfo("no filter: %.4f m/s (the tissue's %.4f; the blood's %.4f)", unfiltered,
          kAliasing * signal.clutterStep / std::numbers::pi, truth);
    QVERIFY(std::abs(unfiltered) < 0.1 * truth);
    // The tissue here is one slow-time signal over the box (rank 1), and so is the blood (every
    // pixel's tone has the same step): the SVD filter removes one component.
    for (const char* spec : {"regression:1", "regression:2", "iir:0.1", "svd:1"}) {
      params.applyWallFilterSpec(spec);
      const test::FlowRun run = test::runFlowEstimator(*backend, g, params, kAliasing, frames);
      const double v = meanVelocity(run.flow.back(), g);
      qInfo("%-13s %.4f m/s (%+.2f %%)", spec, v, 100 * (v / truth - 1));
      // The filters' own response (the regression's and the IIR's transition bands, the blood's
      // small share in the SVD's strongest components) bends the tone little at 1.5 rad/frame.
      QVERIFY2(std::abs(v - truth) < 0.02 * truth, spec);
    }
  }

  void theAveragingWindowAveragesTheAutocorrelation() {
    auto backend = cpu();
    const process::ImageGeometry g = test::flowGrid(7, 7);
    // Each pixel its own tone: column ix steps by 0.3 + 0.1 ix rad per frame, unit amplitude.
    test::ComplexFrames frames(8, std::vector<std::complex<float>>(g.pixels()));
    for (int k = 0; k < 8; ++k) {
      for (int iz = 0; iz < g.nz; ++iz) {
        for (int ix = 0; ix < g.nx; ++ix) {
          frames[static_cast<std::size_t>(k)][static_cast<std::size_t>(iz) * g.nx + ix] =
              std::polar(1.0f, static_cast<float>((0.3 + 0.1 * ix) * k));
        }
      }
    }
    ultrasound::DopplerParams params;
    params.ensemble = 8;
    params.wallFilter = ultrasound::WallFilter::None;
    params.averageX = 3;
    params.averageZ = 5;
    const test::FlowRun run = test::runFlowEstimator(*backend, g, params, kAliasing, frames);
    // At column 3: R1 is the mean of exp(j step) over columns 2-4 (every row alike); at column 0
    // the window is cut by the edge: columns 0-1.
    const auto expected = [](std::initializer_list<int> columns) {
      std::complex<double> r1;
      for (const int c : columns) {
        r1 += std::polar(1.0, 0.3 + 0.1 * c);
      }
      return kAliasing * std::arg(r1) / std::numbers::pi;
    };
    QVERIFY(std::abs(velocityAt(run.flow.back(), g, 3, 3) - expected({2, 3, 4})) < 1e-5);
    QVERIFY(std::abs(velocityAt(run.flow.back(), g, 0, 0) - expected({0, 1})) < 1e-5);
  }

  void badParametersAreRefusedWithTheirNames() {
    auto backend = cpu();
    const process::ImageGeometry g = test::flowGrid(4, 4);
    acquire::AcquisitionParams acq;
    acq.samplingFrequencyHz = 20e6;
    acq.centerFrequencyHz = 5e6;
    acq.anglesRad = {0.0};
    acq.elementXM = {-1e-3, 1e-3};
    acq.samples = 100;
    ultrasound::DopplerParams params;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, params.validate(acq, g));  // no PRF
    acq.pulseRepetitionFrequencyHz = 4000;
    params.validate(acq, g);
    QCOMPARE(params.aliasingVelocityFor(acq), 1540.0 * 4000 / (4 * 5e6));
    const std::pair<const char*, const char*> named[] = {{"regression:4", "regression order 4"},
                                                         {"iir:0.6", "IIR cut-off 0.6"},
                                                         {"svd:15", "SVD rank 15"},
                                                         {"iir:0", "IIR cut-off 0"}};
    for (const auto& [spec, name] : named) {
      ultrasound::DopplerParams bad;
      bad.applyWallFilterSpec(spec);
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.validate(acq, g));
      try {
        bad.validate(acq, g);
      } catch (const std::invalid_argument& e) {
        QVERIFY2(std::string(e.what()).find(name) != std::string::npos, e.what());
      }
    }
    for (const char* spec : {"fir", "none:1", "regression:x", "svd:1.5"}) {
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                               ultrasound::DopplerParams().applyWallFilterSpec(spec));
    }
    ultrasound::DopplerParams outside;
    outside.box = {5e-3, 6e-3, 10e-3, 11e-3};  // right of the 0.4 mm wide image
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, outside.validate(acq, g));
    ultrasound::DopplerParams even;
    even.averageX = 2;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, even.validate(acq, g));
    acq.framesPerVolume = 16;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, params.validate(acq, g));
    QCOMPARE(ultrasound::parseColourBoxMillimetres("-5:5,10:30"),
             (process::ColourBox{-5e-3, 5e-3, 10e-3, 30e-3}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             ultrasound::parseColourBoxMillimetres("5:-5,1:2"));
  }
};

QTEST_GUILESS_MAIN(TestFlowEstimator)
#include "test_flow_estimator.moc"
