// The OCT chain on the OCT simulator (CPU backend), against what the simulator put there:
//   - every specular layer within one axial pixel of its true depth, in every checked A-scan;
//   - with the simulated dispersion compensated, the axial point-spread function's -6 dB width
//     within 10 % of the transform limit, computed here independently from the simulated source
//     spectrum and the window (an ideal reflector at the same depth, evenly sampled in k, no
//     dispersion); without compensation clearly wider (so the check can fail);
//   - volumes of B-scans through the engine, with the en-face MIP showing the sample's structure;
//   - a bidirectional scan with flyback A-scans images exactly as a plain left-to-right scan of the
//     same sample: the flyback is cropped and every other B-scan turned back.

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "oct/dispersion_search.hpp"
#include "oct/oct_modality.hpp"
#include "oct/oct_processor.hpp"
#include "oct/oct_simulator.hpp"
#include "pipeline/engine.hpp"
#include "support/axial_peaks.hpp"

using namespace cineflow;
using test::amplitudeColumn;
using test::peakNear;
using test::widthAtHalf;

namespace {

// Small enough for the sanitizer builds: 96 A-scans, 4 B-scans of 2048 samples.
oct::OctSimulatorConfig smallSample(bool scattering) {
  oct::OctSimulatorConfig config;
  config.ascans = 96;
  config.bscans = 4;
  config.scattering = scattering;
  return config;
}

// The B-scan `index` of `simulator` through the chain: dB [z][x].
std::vector<float> image(compute::Backend& backend, oct::OctSimulator& simulator,
                         const oct::OctParams& params, std::uint64_t index) {
  oct::OctProcessor processor;
  processor.configure(backend, simulator.acquisition(), params);
  compute::DeviceBuffer<std::byte> raw(backend, simulator.frameBytes());
  acquire::SliceInfo slice;
  simulator.readFrame(index, {raw.data(), raw.size()}, slice);
  compute::DeviceBuffer<float> out(backend, processor.geometry().pixels());
  auto stream = backend.createStream("test");
  acquire::FrameHeader header;
  header.sourceIndex = index;
  header.slice = slice;
  processor.enqueue(*stream, header, raw.view(), out.view(), {});
  stream->synchronize();
  return {out.data(), out.data() + out.size()};
}

// The ideal A-scan of one reflector at optical path `depthM`: the simulated source spectrum at k
// evenly spaced over the spectrometer's span, times the chain's Hann window, no dispersion,
// transformed by a plain DFT (double precision); amplitude per depth pixel.
std::vector<double> transformLimited(const oct::OctAcquisition& acq, double depthM) {
  const int n = acq.samples;
  const double kMin = acq.kMin(), kMax = acq.kMax();
  const double k0 = 2 * std::numbers::pi / acq.centreWavelengthM;
  const double fwhmK =
      2 * std::numbers::pi * acq.bandwidthM / (acq.centreWavelengthM * acq.centreWavelengthM);
  std::vector<std::complex<double>> spectrum(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    const double k = kMin + (kMax - kMin) * j / (n - 1);
    const double x = (k - k0) / fwhmK;
    const double hann = 0.5 - 0.5 * std::cos(2 * std::numbers::pi * j / (n - 1));
    spectrum[static_cast<std::size_t>(j)] =
        std::exp(-4 * std::numbers::ln2 * x * x) * hann * std::polar(1.0, 2 * k * depthM);
  }
  std::vector<double> column(static_cast<std::size_t>(n / 2));
  for (int z = 0; z < n / 2; ++z) {
    std::complex<double> sum;
    for (int j = 0; j < n; ++j) {
      sum += spectrum[static_cast<std::size_t>(j)] *
             std::polar(1.0, -2 * std::numbers::pi * z * j / n);
    }
    column[static_cast<std::size_t>(z)] = std::abs(sum);
  }
  return column;
}

}  // namespace

class TestOctChain : public QObject {
  Q_OBJECT

 private slots:
  void reflectorsLieAtTheirDepths() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    const auto config = smallSample(true);
    oct::OctSimulator simulator(config);
    oct::OctParams params;
    params.a2 = config.a2;
    params.a3 = config.a3;
    const std::uint64_t bscan = 1;
    const auto db = image(*backend, simulator, params, bscan);
    const auto geometry = params.geometry(simulator.acquisition());
    const double pixel = simulator.acquisition().axialPixelInAirM();
    QCOMPARE(geometry.dz, pixel);  // refractive index 1: depth in air
    double worst = 0;
    for (int x = 4; x < geometry.nx; x += 23) {
      const auto column = amplitudeColumn(db, geometry.nx, x);
      const auto layers =
          oct::simulatedLayers(config, simulator.xOf(x), simulator.yOf(static_cast<int>(bscan)));
      for (const auto& layer : layers) {
        const double truth = layer.depthM / pixel;
        const double found = peakNear(column, truth, 4);
        worst = std::max(worst, std::abs(found - truth));
        QVERIFY2(std::abs(found - truth) < 1.0,
                 qPrintable(QStringLiteral("A-scan %1: layer at %2 px found at %3 px")
                                .arg(x)
                                .arg(truth, 0, 'f', 2)
                                .arg(found, 0, 'f', 2)));
      }
    }
    qInfo("worst depth error %.3f px (%.2f um)", worst, worst * pixel * 1e6);
  }

  void dispersionCompensationReachesTheTransformLimit() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    auto config = smallSample(false);
    config.noise = 0.0;
    oct::OctSimulator simulator(config);
    const auto& acq = simulator.acquisition();
    const double pixel = acq.axialPixelInAirM();
    const int x = 40;
    const double surface =
        oct::simulatedLayers(config, simulator.xOf(x), simulator.yOf(0)).front().depthM;
    const auto limit = transformLimited(acq, surface);
    const double limitWidth =
        widthAtHalf(limit, static_cast<int>(std::lround(peakNear(limit, surface / pixel, 3))));

    oct::OctParams compensated;
    compensated.a2 = config.a2;
    compensated.a3 = config.a3;
    const auto geometry = compensated.geometry(acq);
    const auto withColumn =
        amplitudeColumn(image(*backend, simulator, compensated, 0), geometry.nx, x);
    const double withWidth = widthAtHalf(
        withColumn, static_cast<int>(std::lround(peakNear(withColumn, surface / pixel, 3))));
    const auto withoutColumn =
        amplitudeColumn(image(*backend, simulator, oct::OctParams{}, 0), geometry.nx, x);
    const double withoutWidth = widthAtHalf(
        withoutColumn, static_cast<int>(std::lround(peakNear(withoutColumn, surface / pixel, 12))));
    qInfo("-6 dB width: transform limit %.2f px (%.2f um), compensated %.2f px, without %.2f px",
          limitWidth, limitWidth * pixel * 1e6, withWidth, withoutWidth);
    QVERIFY2(std::abs(withWidth - limitWidth) <= 0.10 * limitWidth,
             qPrintable(QStringLiteral("%1 against %2 px").arg(withWidth).arg(limitWidth)));
    QVERIFY2(withoutWidth > 1.5 * limitWidth,
             qPrintable(QStringLiteral("%1 against %2 px").arg(withoutWidth).arg(limitWidth)));
  }

  void autoDispersionFindsTheSimulatedMismatch() {
    auto config = smallSample(true);
    oct::OctSimulator simulator(config);
    std::vector<std::uint16_t> bscan(simulator.acquisition().samplesPerFrame());
    acquire::SliceInfo slice;
    simulator.readFrame(2, std::as_writable_bytes(std::span(bscan)), slice);
    const auto estimate =
        oct::searchDispersion(simulator.acquisition(), oct::OctParams{}, bscan, 300, 150, 2);
    qInfo("auto dispersion: a2 %.2f (simulated %.1f), a3 %.2f (simulated %.1f)", estimate.a2,
          config.a2, estimate.a3, config.a3);
    QVERIFY2(std::abs(estimate.a2 - config.a2) <= 0.10 * config.a2,
             qPrintable(QString::number(estimate.a2)));
  }

  void bidirectionalScansWithFlybackImageAsPlainOnes() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    oct::OctSimulatorConfig plainConfig = smallSample(true);
    plainConfig.bscans = 3;
    oct::OctSimulatorConfig scannedConfig = plainConfig;
    scannedConfig.bidirectional = true;
    scannedConfig.flybackAscans = 13;
    oct::OctSimulator plain(plainConfig), scanned(scannedConfig);
    QCOMPARE(scanned.acquisition().ascans, plainConfig.ascans + 13);
    const oct::OctParams params = oct::OctParams::defaultsFor(plain.acquisition());
    for (std::uint64_t b = 0; b < 3; ++b) {
      const std::vector<float> expected = image(*backend, plain, params, b);
      const std::vector<float> got = image(*backend, scanned, params, b);
      QCOMPARE(got.size(), expected.size());
      // The same arithmetic on the same A-scans (the background is the mean of the imaged ones,
      // an exact integer sum), so equal to float rounding of the FFT's input order: 1e-3 dB.
      float worst = 0;
      for (std::size_t i = 0; i < got.size(); ++i) {
        worst = std::max(worst, std::abs(got[i] - expected[i]));
      }
      QVERIFY2(worst <= 1e-3f, qPrintable(QStringLiteral("B-scan %1: %2 dB").arg(b).arg(worst)));
    }
    // The raw odd B-scan really runs the other way: its first A-scan is the plain one's last.
    std::vector<std::uint16_t> rawPlain(plain.frameBytes() / 2),
        rawScanned(scanned.frameBytes() / 2);
    acquire::SliceInfo slice;
    plain.readFrame(1, std::as_writable_bytes(std::span(rawPlain)), slice);
    scanned.readFrame(1, std::as_writable_bytes(std::span(rawScanned)), slice);
    const auto n = static_cast<std::size_t>(plain.acquisition().samples);
    QVERIFY(std::equal(rawScanned.begin(), rawScanned.begin() + static_cast<std::ptrdiff_t>(n),
                       rawPlain.end() - static_cast<std::ptrdiff_t>(n)));
    QVERIFY(!std::equal(rawScanned.begin(), rawScanned.begin() + static_cast<std::ptrdiff_t>(n),
                        rawPlain.begin()));
  }

  // The simulator's frames are cached on disk: a second open loads exactly what the first made,
  // and a damaged cache file is ignored and made again.
  void simulatorIsCachedOnDisk() {
    QTemporaryDir cache;
    const QByteArray previous = qgetenv("CINEFLOW_CACHE_DIR");
    qputenv("CINEFLOW_CACHE_DIR", cache.path().toUtf8());
    oct::OctSimulatorConfig config = smallSample(true);
    config.seed = 5;
    config.bscans = 2;
    oct::OctSimulator made(config);
    oct::OctSimulator loaded(config);
    config.seed = 6;
    oct::OctSimulator other(config);
    {
      QFile file(QString::fromStdString(loaded.cachePath().string()));
      QVERIFY(file.open(QIODevice::ReadWrite));
      file.seek(file.size() - 3);
      file.write("xyz");  // the payload's checksum no longer matches
    }
    config.seed = 5;
    oct::OctSimulator remade(config);
    qputenv("CINEFLOW_CACHE_DIR", previous);
    using Outcome = acquire::detail::CacheOutcome;
    QCOMPARE(made.cacheOutcome(), Outcome::Written);
    QCOMPARE(loaded.cacheOutcome(), Outcome::Loaded);
    QCOMPARE(other.cacheOutcome(), Outcome::Written);  // another seed, another file
    QVERIFY(other.cachePath() != made.cachePath());
    QCOMPARE(remade.cacheOutcome(), Outcome::Written);
    std::vector<std::byte> a(made.frameBytes()), b(made.frameBytes()), c(made.frameBytes());
    for (std::uint64_t f = 0; f < made.frameCount(); ++f) {
      acquire::SliceInfo slice;
      made.readFrame(f, a, slice);
      loaded.readFrame(f, b, slice);
      remade.readFrame(f, c, slice);
      QVERIFY(a == b && a == c);
    }
  }

  void volumesGoThroughTheEngine() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 8;
    config.framesPerVolume = -1;  // the source's: 4 B-scans per volume
    pipeline::Engine engine(*backend, config);
    auto source = std::make_unique<oct::OctSimulator>(smallSample(true));
    engine.setSource(std::move(source));
    int volumes = 0;
    engine.setVolumeCallback([&volumes](const process::VolumeEndpoint&) { ++volumes; });
    engine.start();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Finished);
    engine.stop();
    QCOMPARE(engine.stats().processed, std::uint64_t{8});
    QCOMPARE(engine.framesPerVolume(), 4);
    QCOMPARE(volumes, 2);
    QCOMPARE(std::string(engine.settings()->modality().name()), std::string("oct"));
  }
};

QTEST_APPLESS_MAIN(TestOctChain)
#include "test_oct_chain.moc"
