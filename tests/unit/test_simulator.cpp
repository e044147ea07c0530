// The simulator: deterministic per seed, cached on disk (and robust to a bad cache), echoes at
// the delays of docs/ultrasound.md, slices cycling through the elevation sweep. Small
// configurations keep every case well under a second.
#include <QtTest>

#include <cmath>
#include <complex>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <vector>

#include "ultrasound/simulator.hpp"

using namespace cineflow::acquire;
using namespace cineflow::ultrasound;
namespace fs = std::filesystem;

namespace {

SimulatorConfig smallConfig() {
  SimulatorConfig c;
  c.elements = 16;
  c.maxDepthM = 12e-3;
  c.slicesPerVolume = 4;
  c.elevationHalfSpanM = 1e-3;
  PhantomConfig& p = c.phantom;
  p.xMinM = -2.4e-3;
  p.xMaxM = 2.4e-3;
  p.yMinM = -(1e-3 + 3 * c.elevationSigmaM);
  p.yMaxM = -p.yMinM;
  p.zMinM = 2e-3;
  p.zMaxM = 12e-3;
  p.pointTargetXM = {0.0};
  p.pointTargetZM = {5e-3, 9e-3};
  p.cysts = false;
  p.vessel = false;
  return c;
}

std::vector<std::byte> allFrames(Simulator& sim) {
  std::vector<std::byte> bytes(sim.frameBytes() * sim.frameCount());
  for (std::uint64_t k = 0; k < sim.frameCount(); ++k) {
    SliceInfo slice;
    sim.readFrame(k, std::span(bytes).subspan(k * sim.frameBytes(), sim.frameBytes()), slice);
  }
  return bytes;
}

// Envelope of an RF line sampled at fs = 4 f0: demodulate, then a one-period [.5 1 1 1 .5]
// window, which cancels the 2 f0 term exactly at that sampling rate. Returns the peak index.
int envelopePeak(const std::int16_t* line, int samples) {
  const std::complex<double> rotate[4] = {{1, 0}, {0, -1}, {-1, 0}, {0, 1}};  // e^(-j pi n / 2)
  std::vector<std::complex<double>> base(static_cast<std::size_t>(samples));
  for (int n = 0; n < samples; ++n) {
    base[static_cast<std::size_t>(n)] = static_cast<double>(line[n]) * rotate[n % 4];
  }
  int best = 0;
  double bestValue = -1;
  for (int n = 2; n + 2 < samples; ++n) {
    const auto i = static_cast<std::size_t>(n);
    const double value =
        std::abs(0.5 * base[i - 2] + base[i - 1] + base[i] + base[i + 1] + 0.5 * base[i + 2]);
    if (value > bestValue) {
      bestValue = value;
      best = n;
    }
  }
  return best;
}

}  // namespace

class TestSimulator : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  int cacheDirs_ = 0;

  // A fresh, empty cache directory for the next simulator.
  fs::path freshCache() {
    const fs::path path =
        fs::path(dir_.path().toStdString()) / ("cache" + std::to_string(cacheDirs_++));
    qputenv("CINEFLOW_CACHE_DIR", QByteArray::fromStdString(path.string()));
    return path;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    freshCache();
  }

  void paramsFollowTheConfig() {
    freshCache();
    const SimulatorConfig c = smallConfig();
    Simulator sim(c);
    const AcquisitionParams& p = sim.params();
    QCOMPARE(p.elements(), c.elements);
    QCOMPARE(p.transmits(), 3);
    QCOMPARE(p.anglesRad[0], -10 * std::numbers::pi / 180);
    QCOMPARE(p.elementXM.front(), -p.elementXM.back());  // centred on x = 0
    QVERIFY(std::abs(p.elementXM[1] - p.elementXM[0] - c.pitchM) < 1e-12);
    QCOMPARE(p.samples % 64, 0);
    QVERIFY(p.samples >= std::ceil(2 * c.maxDepthM / c.soundSpeedMPerS * c.samplingFrequencyHz));
    QCOMPARE(p.framesPerVolume, c.slicesPerVolume);
    QCOMPARE(p.fractionalBandwidth, c.fractionalBandwidth);
    QCOMPARE(sim.frameCount(), std::uint64_t(c.slicesPerVolume));
    QCOMPARE(sim.frameRateHz(), 20.0);
    QCOMPARE(sim.sampleType(), SampleType::Int16);
    QVERIFY(sim.describe().find("seed 1") != std::string::npos);
  }

  void sameConfigGivesIdenticalBytes() {
    freshCache();
    Simulator a(smallConfig());
    freshCache();  // so that the second one synthesises too
    Simulator b(smallConfig());
    QCOMPARE(a.cacheOutcome(), Simulator::CacheOutcome::Written);
    QCOMPARE(b.cacheOutcome(), Simulator::CacheOutcome::Written);
    QVERIFY(allFrames(a) == allFrames(b));
  }

  void differentSeedDiffers() {
    freshCache();
    SimulatorConfig c = smallConfig();
    Simulator a(c);
    c.seed = 2;
    Simulator b(c);
    QVERIFY(allFrames(a) != allFrames(b));
    QVERIFY(a.cachePath() != b.cachePath());
  }

  void peakSitsAtAQuarterOfFullScale() {
    freshCache();
    Simulator sim(smallConfig());
    const auto bytes = allFrames(sim);
    std::vector<std::int16_t> samples(bytes.size() / 2);
    std::memcpy(samples.data(), bytes.data(), bytes.size());
    int peak = 0;
    for (std::int16_t s : samples) {
      peak = std::max(peak, std::abs(static_cast<int>(s)));
    }
    // 8192 plus at most a few noise standard deviations (about 26 LSB each at -50 dB).
    QVERIFY2(peak > 8000 && peak < 8400, qPrintable(QString::number(peak)));
  }

  void secondConstructionLoadsTheCache() {
    freshCache();
    QStringList messages;
    const auto progress = [&](double fraction, const std::string& what) {
      QVERIFY(fraction >= 0 && fraction <= 1);
      messages << QString::fromStdString(what);
    };
    QElapsedTimer timer;
    timer.start();
    Simulator first(smallConfig(), progress);
    const qint64 synthesisNs = timer.nsecsElapsed();
    QCOMPARE(first.cacheOutcome(), Simulator::CacheOutcome::Written);
    QVERIFY(fs::exists(first.cachePath()));
    QVERIFY(first.cachePath().filename().string().starts_with("sim-"));
    messages.clear();
    timer.restart();
    Simulator second(smallConfig(), progress);
    const qint64 loadNs = timer.nsecsElapsed();
    QCOMPARE(second.cacheOutcome(), Simulator::CacheOutcome::Loaded);
    QVERIFY2(messages.filter("cache").size() > 0, qPrintable(messages.join(" | ")));
    QVERIFY(allFrames(first) == allFrames(second));
    QCOMPARE(second.sampleScale(), first.sampleScale());
    qInfo("synthesis %.1f ms, cache load %.1f ms", synthesisNs / 1e6, loadNs / 1e6);
    QVERIFY(loadNs < synthesisNs);
  }

  void corruptCacheIsRejectedAndRewritten() {
    freshCache();
    Simulator original(smallConfig());
    const fs::path cache = original.cachePath();
    const auto expected = allFrames(original);
    {
      // Flip bytes in the payload (the header stays valid): only the checksum can tell.
      std::fstream file(cache, std::ios::in | std::ios::out | std::ios::binary);
      file.seekp(static_cast<std::streamoff>(fs::file_size(cache) / 2));
      file.write("\x12\x34\x56\x78", 4);
    }
    QStringList messages;
    Simulator repaired(smallConfig(), [&](double, const std::string& what) {
      messages << QString::fromStdString(what);
    });
    QCOMPARE(repaired.cacheOutcome(), Simulator::CacheOutcome::Written);
    QVERIFY2(messages.filter("ignoring").size() > 0, qPrintable(messages.join(" | ")));
    QVERIFY(allFrames(repaired) == expected);
    QCOMPARE(Simulator(smallConfig()).cacheOutcome(), Simulator::CacheOutcome::Loaded);

    fs::resize_file(cache, fs::file_size(cache) - 100);  // short
    Simulator again(smallConfig());
    QCOMPARE(again.cacheOutcome(), Simulator::CacheOutcome::Written);
    QVERIFY(allFrames(again) == expected);
    std::ofstream(cache, std::ios::trunc) << "garbage";  // not a cache file at all
    QCOMPARE(Simulator(smallConfig()).cacheOutcome(), Simulator::CacheOutcome::Written);
  }

  void unwritableCacheIsOnlyAWarning() {
    const fs::path blocker = fs::path(dir_.path().toStdString()) / "plain_file";
    std::ofstream(blocker) << "x";
    qputenv("CINEFLOW_CACHE_DIR", QByteArray::fromStdString((blocker / "cache").string()));
    Simulator sim(smallConfig());
    QCOMPARE(sim.cacheOutcome(), Simulator::CacheOutcome::Unsaved);
    QVERIFY2(sim.cacheMessage().find("warning") != std::string::npos, sim.cacheMessage().c_str());
    QCOMPARE(allFrames(sim).size(), sim.frameBytes() * sim.frameCount());
    freshCache();
  }

  void cacheDirectoryFollowsTheEnvironment() {
    const fs::path cache = freshCache();
    QCOMPARE(Simulator::cacheDirectory(), cache);
    qunsetenv("CINEFLOW_CACHE_DIR");
    qputenv("XDG_CACHE_HOME", "/somewhere/xdg");
    QCOMPARE(Simulator::cacheDirectory(), fs::path("/somewhere/xdg/cineflow"));
    qunsetenv("XDG_CACHE_HOME");
    qputenv("HOME", "/home/someone");
    QCOMPARE(Simulator::cacheDirectory(), fs::path("/home/someone/.cache/cineflow"));
    freshCache();
  }

  // One scatterer, no noise: every (transmit, element) line peaks at the delay of
  // docs/ultrasound.md, and the samples around the peak follow the Gaussian pulse of the configured
  // bandwidth.
  void singlePointEchoArrivesOnTime() {
    freshCache();
    SimulatorConfig c = smallConfig();
    c.noise = false;
    c.slicesPerVolume = 1;  // the slice sits at y = 0
    c.t0S = 1.1e-6;
    c.maxDepthM = 15e-3;
    const double x = 1.3e-3, z = 10.2e-3;
    Simulator sim(c, Phantom::fromScatterers({{float(x), 0.0f, float(z), 1.0f}}));
    const AcquisitionParams& p = sim.params();
    std::vector<std::int16_t> frame(p.samplesPerFrame());
    SliceInfo slice;
    sim.readFrame(0, std::as_writable_bytes(std::span(frame)), slice);

    const double sigmaT = std::sqrt(2 * std::numbers::ln2) /
                          (std::numbers::pi * c.fractionalBandwidth * c.centerFrequencyHz);
    const double tan45 = 1.0;
    int checkedLines = 0;
    for (int t = 0; t < p.transmits(); ++t) {
      const double a = p.anglesRad[static_cast<std::size_t>(t)];
      for (int e = 0; e < p.elements(); ++e) {
        const double xe = p.elementXM[static_cast<std::size_t>(e)];
        const std::int16_t* line =
            frame.data() + (static_cast<std::size_t>(t) * p.elements() + e) * p.samples;
        if (std::abs(x - xe) > z * tan45) {
          continue;  // outside the acceptance cone: silent
        }
        const double r = std::hypot(x - xe, z);
        const double tau = (z * std::cos(a) + x * std::sin(a) + r) / p.soundSpeedMPerS;
        const double u = (tau - p.t0S) * p.samplingFrequencyHz;
        const int peak = envelopePeak(line, p.samples);
        QVERIFY2(std::abs(peak - std::lround(u)) <= 1,
                 qPrintable(QString("transmit %1 element %2: peak at %3, expected %4")
                                .arg(t)
                                .arg(e)
                                .arg(peak)
                                .arg(u)));
        // Shape and sign: amplitude (obliquity z / r) x Gaussian envelope x carrier. Tolerance:
        // 3 % of the line's peak (baseband deposit, phase table) plus rounding.
        const double amplitude = sim.sampleScale() * z / r;
        for (int n = peak - 8; n <= peak + 8; ++n) {
          const double dt = p.t0S + n / p.samplingFrequencyHz - tau;
          const double expected = amplitude * std::exp(-dt * dt / (2 * sigmaT * sigmaT)) *
                                  std::cos(2 * std::numbers::pi * c.centerFrequencyHz * dt);
          QVERIFY2(std::abs(line[n] - expected) <= 0.03 * amplitude + 1,
                   qPrintable(QString("transmit %1 element %2 sample %3: %4, expected %5")
                                  .arg(t)
                                  .arg(e)
                                  .arg(n)
                                  .arg(line[n])
                                  .arg(expected)));
        }
        ++checkedLines;
      }
    }
    QVERIFY(checkedLines >= p.transmits() * 10);
  }

  void noiseHasTheConfiguredLevel() {
    freshCache();
    SimulatorConfig c = smallConfig();
    c.slicesPerVolume = 1;
    Simulator noisy(c);
    c.noise = false;
    Simulator clean(c);
    const auto a = allFrames(noisy);
    const auto b = allFrames(clean);
    std::vector<std::int16_t> x(a.size() / 2), y(b.size() / 2);
    std::memcpy(x.data(), a.data(), a.size());
    std::memcpy(y.data(), b.data(), b.size());
    double sumSquares = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double d = x[i] - y[i];
      sumSquares += d * d;
    }
    const double sigma = std::sqrt(sumSquares / static_cast<double>(x.size()));
    const double expected = 0.25 * 32767 * std::pow(10.0, c.noiseDb / 20);  // about 26 LSB
    QVERIFY2(std::abs(sigma - expected) < 0.1 * expected, qPrintable(QString::number(sigma)));
  }

  void slicesCycleThroughTheSweep() {
    freshCache();
    const SimulatorConfig c = smallConfig();
    Simulator sim(c);
    std::vector<std::byte> frame(sim.frameBytes());
    for (int k = 0; k < c.slicesPerVolume; ++k) {
      SliceInfo slice;
      sim.readFrame(static_cast<std::uint64_t>(k), frame, slice);
      QCOMPARE(slice.sliceIndex, k);
      const double expected =
          -c.elevationHalfSpanM + 2 * c.elevationHalfSpanM * k / (c.slicesPerVolume - 1);
      QVERIFY(std::abs(slice.elevationM - expected) < 1e-12);
      QVERIFY(std::abs(sim.elevationM(k) - expected) < 1e-12);
    }
    SliceInfo slice;
    QVERIFY_THROWS_EXCEPTION(SourceError, sim.readFrame(sim.frameCount(), frame, slice));
    std::vector<std::byte> small(sim.frameBytes() - 1);
    QVERIFY_THROWS_EXCEPTION(SourceError, sim.readFrame(0, small, slice));
    // Slices differ: the elevation profile selects different scatterers.
    std::vector<std::byte> other(sim.frameBytes());
    sim.readFrame(0, frame, slice);
    sim.readFrame(3, other, slice);
    QVERIFY(frame != other);
  }

  void float32OutputMatchesInt16Scale() {
    freshCache();
    SimulatorConfig c = smallConfig();
    c.noise = false;
    c.slicesPerVolume = 1;
    Simulator integer(c);
    c.sampleType = SampleType::Float32;
    Simulator real(c);
    QCOMPARE(real.sampleType(), SampleType::Float32);
    QCOMPARE(real.frameBytes(), integer.frameBytes() * 2);
    std::vector<std::int16_t> a(integer.params().samplesPerFrame());
    std::vector<float> b(real.params().samplesPerFrame());
    SliceInfo slice;
    integer.readFrame(0, std::as_writable_bytes(std::span(a)), slice);
    real.readFrame(0, std::as_writable_bytes(std::span(b)), slice);
    for (std::size_t i = 0; i < a.size(); ++i) {
      QVERIFY(std::abs(a[i] - b[i]) <= 0.5f + 1e-3f);  // the same values before rounding
    }
  }

  void invalidConfigIsRejected() {
    SimulatorConfig c = smallConfig();
    c.anglesDeg = {};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Simulator{c});
    c = smallConfig();
    c.elements = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Simulator{c});
    c = smallConfig();
    c.samplingFrequencyHz = -1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Simulator{c});
  }
};

QTEST_APPLESS_MAIN(TestSimulator)
#include "test_simulator.moc"
