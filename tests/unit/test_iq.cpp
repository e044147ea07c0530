// I/Q mode (process/iq_demodulate.hpp, iq_beamform.hpp, the I/Q chain of BmodeProcessor), CPU
// backend: the low-pass filter's response; demodulation and I/Q delay-and-sum against the
// double-precision references of their contract formulas on seeded random inputs (with and
// without decimation, int16 and float32, bandpass-sampled rates); a demodulated pulse keeps its
// envelope and carries the carrier's phase at its delay; a point target in bandpass-sampled RF,
// which RF mode refuses, is imaged where it lies; the mode defaults and errors; and the engine
// switching from RF to I/Q while it runs.
#include <QtTest>

#include <cmath>
#include <complex>
#include <cstring>
#include <numbers>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "registry/ultrasound_engine.hpp"
#include "support/image_analysis.hpp"
#include "support/reference_stages.hpp"
#include "support/rf_file_fixture.hpp"
#include "support/test_paths.hpp"
#include "support/test_random.hpp"
#include "ultrasound/bmode_processor.hpp"
#include "ultrasound/iq_beamform.hpp"
#include "ultrasound/iq_demodulate.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;

namespace {

// |H(f)| of a real FIR at f (Hz).
double response(const std::vector<float>& taps, double fHz, double fsHz) {
  std::complex<double> sum;
  for (std::size_t n = 0; n < taps.size(); ++n) {
    sum += static_cast<double>(taps[n]) *
           std::polar(1.0, -2 * std::numbers::pi * fHz / fsHz * static_cast<double>(n));
  }
  return std::abs(sum);
}

// Runs `body` on the CPU backend's stream from host input to host output.
template <class In, class Body>
std::vector<float> runOnCpu(compute::Backend& backend, const std::vector<In>& input,
                            std::size_t outputs, Body body) {
  compute::DeviceBuffer<In> in(backend, input.size());
  compute::DeviceBuffer<float> out(backend, outputs);
  std::copy(input.begin(), input.end(), in.data());
  auto stream = backend.createStream("iq-test");
  body(*stream, compute::DeviceSpan<const In>(in.data(), in.size()), out.view());
  stream->synchronize();
  const std::string error = stream->takeError();
  if (!error.empty()) {
    throw std::runtime_error(error);
  }
  return std::vector<float>(out.data(), out.data() + outputs);
}

// A Gaussian-enveloped tone of the carrier arriving at `tau`: the echo of a point.
double pulse(double t, double tau, double f0, double sigma) {
  const double u = t - tau;
  return std::exp(-u * u / (2 * sigma * sigma)) * std::cos(2 * std::numbers::pi * f0 * u);
}

}  // namespace

class TestIq : public QObject {
  Q_OBJECT

  std::unique_ptr<compute::Backend> cpu_ = compute::createBackend(compute::BackendRequest::Cpu);

 private slots:
  void lowpassHasUnitGainAndItsCutOff() {
    for (const double fs : {20e6, 6.67e6}) {
      const double cutoff = 0.3 * 5e6 / 2 * (fs > 10e6 ? 2 : 1);
      const int taps = ultrasound::lowpassTapsFor(cutoff, fs);
      QVERIFY(taps % 2 == 1 && taps >= 15 && taps <= 255);
      const std::vector<float> h = ultrasound::designLowpassTaps(taps, cutoff, fs);
      QVERIFY(std::abs(response(h, 0, fs) - 1) < 1e-6);
      // -6 dB at the cut-off (2 %), and below -40 dB two transition widths further.
      QVERIFY2(std::abs(response(h, cutoff, fs) - 0.5) < 0.01,
               qPrintable(QString::number(response(h, cutoff, fs))));
      QVERIFY(response(h, cutoff * 1.9, fs) < 0.01);
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ultrasound::designLowpassTaps(20, 1e6, 20e6));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ultrasound::designLowpassTaps(31, 11e6, 20e6));
  }

  void demodulationMatchesTheReference_data() {
    QTest::addColumn<double>("fs");
    QTest::addColumn<int>("decimation");
    QTest::addColumn<bool>("float32");
    QTest::newRow("20 MHz, int16") << 20e6 << 1 << false;
    QTest::newRow("20 MHz, float32, decimated by 3") << 20e6 << 3 << true;
    QTest::newRow("6.67 MHz (bandpass sampled), int16") << 6.67e6 << 1 << false;
    QTest::newRow("6.67 MHz, decimated by 2") << 6.67e6 << 2 << true;
  }
  void demodulationMatchesTheReference() {
    QFETCH(double, fs);
    QFETCH(int, decimation);
    QFETCH(bool, float32);
    acquire::AcquisitionParams acq = test::makePlaneWaveAcquisition(8, 2, 301, 0.3e-3, 0.1, 2e-6);
    acq.samplingFrequencyHz = fs;
    ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
    imaging.mode = ultrasound::ImagingMode::Iq;
    imaging.iqBandwidthRel = 0.5;
    imaging.iqDecimation = decimation;
    const auto type = float32 ? acquire::SampleType::Float32 : acquire::SampleType::Int16;
    ultrasound::IqDemodulator demodulator;
    demodulator.configure(*cpu_, acq, type, imaging);
    QCOMPARE(demodulator.iqSamples(),
             static_cast<std::size_t>((301 + decimation - 1) / decimation));

    test::SeededRandom random(1000 + decimation);
    std::vector<double> values(acq.samplesPerFrame());
    std::vector<std::byte> raw(acq.samplesPerFrame() * acquire::sampleBytes(type));
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (float32) {
        const auto v = static_cast<float>(random.uniform(-1000, 1000));
        values[i] = v;
        std::memcpy(raw.data() + 4 * i, &v, 4);
      } else {
        const auto v = static_cast<std::int16_t>(random.integer(-20000, 20000));
        values[i] = v;
        std::memcpy(raw.data() + 2 * i, &v, 2);
      }
    }
    const std::vector<float> iq =
        runOnCpu(*cpu_, raw, demodulator.iqFloats(),
                 [&](compute::Stream& s, compute::DeviceSpan<const std::byte> in,
                     compute::DeviceSpan<float> out) { demodulator.enqueue(s, in, out); });
    const auto expected = test::referenceDemodulate(acq, demodulator.taps(), values, decimation);
    QCOMPARE(iq.size(), 2 * expected.size());
    double error = 0, norm = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      error += std::norm(std::complex<double>(iq[2 * i], iq[2 * i + 1]) - expected[i]);
      norm += std::norm(expected[i]);
    }
    const double relative = std::sqrt(error / norm);
    QVERIFY2(relative < 1e-5, qPrintable(QString("relative L2 error %1").arg(relative)));
  }

  void demodulatedPulseKeepsItsEnvelopeAndPhase_data() {
    QTest::addColumn<double>("fs");
    QTest::newRow("20 MHz") << 20e6;
    QTest::newRow("6.67 MHz, below 2 f0") << 6.67e6;
  }
  void demodulatedPulseKeepsItsEnvelopeAndPhase() {
    QFETCH(double, fs);
    acquire::AcquisitionParams acq = test::makePlaneWaveAcquisition(1, 1, 400, 0.3e-3, 0, 3e-6);
    acq.samplingFrequencyHz = fs;
    ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
    imaging.mode = ultrasound::ImagingMode::Iq;
    imaging.iqBandwidthRel = 0.6;
    ultrasound::IqDemodulator demodulator;
    demodulator.configure(*cpu_, acq, acquire::SampleType::Float32, imaging);
    // A pulse of 20 % fractional bandwidth (-6 dB), arriving between samples.
    const double f0 = acq.centerFrequencyHz;
    const double sigma = std::sqrt(2 * std::log(2.0)) / (std::numbers::pi * 0.2 * f0);
    const double tau = acq.t0S + 200.37 / fs;
    std::vector<float> rf(static_cast<std::size_t>(acq.samples));
    for (int n = 0; n < acq.samples; ++n) {
      rf[static_cast<std::size_t>(n)] =
          static_cast<float>(1000 * pulse(acq.t0S + n / fs, tau, f0, sigma));
    }
    std::vector<std::byte> raw(rf.size() * 4);
    std::memcpy(raw.data(), rf.data(), raw.size());
    const std::vector<float> iq =
        runOnCpu(*cpu_, raw, demodulator.iqFloats(),
                 [&](compute::Stream& s, compute::DeviceSpan<const std::byte> in,
                     compute::DeviceSpan<float> out) { demodulator.enqueue(s, in, out); });
    const std::complex<double> at200(iq[400], iq[401]);
    const double t = acq.t0S + 200 / fs;
    const double envelope = 1000 * std::exp(-(t - tau) * (t - tau) / (2 * sigma * sigma));
    QVERIFY2(std::abs(std::abs(at200) / envelope - 1) < 0.03,
             qPrintable(QString("|iq| %1, envelope %2").arg(std::abs(at200)).arg(envelope)));
    // The echo's phase: exp(-j 2 pi f0 tau), whatever the sampling rate.
    const double phaseError = std::arg(at200 * std::polar(1.0, 2 * std::numbers::pi * f0 * tau));
    QVERIFY2(std::abs(phaseError) < 0.05,
             qPrintable(QString("phase error %1 rad").arg(phaseError)));
  }

  void iqBeamformingMatchesTheReference_data() {
    QTest::addColumn<int>("decimation");
    QTest::addColumn<bool>("rectangular");
    QTest::newRow("full rate") << 1 << false;
    QTest::newRow("decimated by 2") << 2 << false;
    QTest::newRow("rectangular apodisation") << 1 << true;
  }
  void iqBeamformingMatchesTheReference() {
    QFETCH(int, decimation);
    QFETCH(bool, rectangular);
    const acquire::AcquisitionParams acq =
        test::makePlaneWaveAcquisition(16, 3, 600, 0.3e-3, 0.15, 1e-6);
    ultrasound::ImagingParams imaging;
    imaging.mode = ultrasound::ImagingMode::Iq;
    imaging.iqDecimation = decimation;
    imaging.fNumber = 1.2;
    imaging.apodisation =
        rectangular ? ultrasound::Apodisation::Rectangular : ultrasound::Apodisation::Hann;
    imaging.grid = ultrasound::ImagingGrid::parseMillimetres("-3:3:0.25,5:15:0.2");
    const std::size_t iqSamples = static_cast<std::size_t>((600 + decimation - 1) / decimation);
    ultrasound::IqBeamformer beamformer;
    beamformer.configure(*cpu_, acq, imaging, iqSamples);
    const std::size_t traces = 16 * 3;
    test::SeededRandom random(77 + decimation);
    std::vector<float> iq(traces * iqSamples * 2);
    std::vector<std::complex<double>> values(traces * iqSamples);
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = {random.uniform(-1, 1), random.uniform(-1, 1)};
      iq[2 * i] = static_cast<float>(values[i].real());
      iq[2 * i + 1] = static_cast<float>(values[i].imag());
      values[i] = {iq[2 * i], iq[2 * i + 1]};
    }
    const process::ImageGeometry g = imaging.geometry();
    const std::vector<double> expected = test::referenceIqDelayAndSum(acq, imaging, values);
    // Every variant this CPU has (instruction sets), not only the tuner's choice.
    const std::vector<std::string> variants = beamformer.variants();
    QVERIFY(!variants.empty() && variants.back() == "portable");
    for (std::size_t v = 0; v < variants.size(); ++v) {
      beamformer.selectVariant(v);
      const std::vector<float> image =
          runOnCpu(*cpu_, iq, g.pixels(),
                   [&](compute::Stream& s, compute::DeviceSpan<const float> in,
                       compute::DeviceSpan<float> out) { beamformer.enqueue(s, in, out); });
      const double relative = test::relativeL2Error(image, expected);
      qInfo("%s: relative L2 error %.2g", variants[v].c_str(), relative);
      QVERIFY2(relative < 1e-5, qPrintable(QString("%1: relative L2 error %2")
                                               .arg(QString::fromStdString(variants[v]))
                                               .arg(relative)));
    }
  }

  void bandpassSampledPointIsImagedInIqModeOnly() {
    // 64 elements, one plane wave, fs 6.67 MHz for a 5 MHz carrier: below 2 f0.
    acquire::AcquisitionParams acq = test::makePlaneWaveAcquisition(64, 1, 260, 0.3e-3, 0, 5e-6);
    acq.samplingFrequencyHz = 6.67e6;
    acq.fractionalBandwidth = 0.5;
    const double xs = 1.0e-3, zs = 20e-3;
    const double f0 = acq.centerFrequencyHz;
    const double sigma = std::sqrt(2 * std::log(2.0)) / (std::numbers::pi * 0.5 * f0);
    std::vector<std::byte> raw(acq.samplesPerFrame() * 2);
    for (int e = 0; e < acq.elements(); ++e) {
      const double tau =
          (zs + std::hypot(xs - acq.elementXM[static_cast<std::size_t>(e)], zs)) / 1540.0;
      for (int n = 0; n < acq.samples; ++n) {
        const auto v = static_cast<std::int16_t>(
            std::lround(8000 * pulse(acq.t0S + n / acq.samplingFrequencyHz, tau, f0, sigma)));
        std::memcpy(raw.data() + 2 * (static_cast<std::size_t>(e) * acq.samples + n), &v, 2);
      }
    }
    ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
    QCOMPARE(imaging.mode, ultrasound::ImagingMode::Iq);
    imaging.grid = ultrasound::ImagingGrid::parseMillimetres("-2:4:0.05,17:23:0.05");
    imaging.fNumber = 1.0;
    ultrasound::BmodeProcessor processor;
    processor.configure(*cpu_, acq, acquire::SampleType::Int16, imaging);
    QCOMPARE(processor.stageNames().size(), std::size_t{3});
    QCOMPARE(std::string(processor.stageNames()[0]), std::string("demodulate"));
    const process::ImageGeometry g = processor.geometry();
    const std::vector<float> image =
        runOnCpu(*cpu_, raw, g.pixels(),
                 [&](compute::Stream& s, compute::DeviceSpan<const std::byte> in,
                     compute::DeviceSpan<float> out) { processor.enqueue(s, in, out, {}); });
    const test::Peak peak = test::findPeak(image, g, xs, zs, 2e-3);
    const double error = std::hypot(peak.xM - xs, peak.zM - zs);
    qInfo("point at (1.000, 20.000) mm imaged at (%.3f, %.3f) mm in I/Q mode", peak.xM * 1e3,
          peak.zM * 1e3);
    QVERIFY2(error < 0.1e-3, qPrintable(QString("error %1 mm").arg(error * 1e3)));

    imaging.mode = ultrasound::ImagingMode::Rf;
    try {
      processor.configure(*cpu_, acq, acquire::SampleType::Int16, imaging);
      QFAIL("RF mode accepted bandpass-sampled RF");
    } catch (const std::invalid_argument& e) {
      qInfo("%s", e.what());
      QVERIFY(std::string(e.what()).find("I/Q mode") != std::string::npos);
      QVERIFY(std::string(e.what()).find("6.67 MHz") != std::string::npos);
    }
    QCOMPARE(processor.mode(), ultrasound::ImagingMode::Iq);  // the failed change left it whole
  }

  void modesParseDefaultAndRefuseBadParameters() {
    QCOMPARE(ultrasound::parseApodisation("rect"), ultrasound::Apodisation::Rectangular);
    QCOMPARE(ultrasound::parseApodisation("hann"), ultrasound::Apodisation::Hann);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ultrasound::parseApodisation("tukey"));
    QCOMPARE(ultrasound::parseImagingMode("rf"), ultrasound::ImagingMode::Rf);
    QCOMPARE(ultrasound::parseImagingMode("iq"), ultrasound::ImagingMode::Iq);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ultrasound::parseImagingMode("IQ"));
    acquire::AcquisitionParams acq = test::makePlaneWaveAcquisition(8, 1, 200);
    QCOMPARE(ultrasound::ImagingParams::defaultsFor(acq).mode, ultrasound::ImagingMode::Rf);
    QVERIFY(ultrasound::bandpassSamplingNotice(acq).empty());
    ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
    QCOMPARE(imaging.iqBandwidthFor(acq), 0.6);  // the acquisition's
    acq.fractionalBandwidth = 0;
    QCOMPARE(imaging.iqBandwidthFor(acq), ultrasound::kDefaultIqBandwidthRel);
    imaging.iqBandwidthRel = 0.4;
    QCOMPARE(imaging.iqBandwidthFor(acq), 0.4);
    imaging.mode = ultrasound::ImagingMode::Iq;
    imaging.iqDecimation = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, imaging.validate(acq));
    imaging.iqDecimation = 16;  // 20 MHz / 16 = 1.25 MHz < a 2 MHz band
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, imaging.validate(acq));
    imaging.iqDecimation = 4;
    imaging.validate(acq);
    acq.samplingFrequencyHz = 6e6;
    QCOMPARE(ultrasound::ImagingParams::defaultsFor(acq).mode, ultrasound::ImagingMode::Iq);
    QCOMPARE(ultrasound::bandpassSamplingNotice(acq),
             std::string("sampled at 6.00 MHz, below 2 x f0 = 10.00 MHz: imaging in I/Q mode"));
    // At fs = f0 (or 2 f0) the negative band's image lands on the carrier: refused, saying why;
    // at 6 MHz it lies 2 MHz away, so a 3 MHz band overlaps it and a 1.5 MHz band does not.
    ultrasound::ImagingParams iq = ultrasound::ImagingParams::defaultsFor(acq);
    iq.iqBandwidthRel = 0.6;
    try {
      iq.validate(acq);
      QFAIL("an I/Q band overlapping the negative band's image was accepted");
    } catch (const std::invalid_argument& e) {
      qInfo("%s", e.what());
      QVERIFY(std::string(e.what()).find("image of the negative band") != std::string::npos);
    }
    iq.iqBandwidthRel = 0.3;
    iq.validate(acq);
    acq.samplingFrequencyHz = 5e6;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, iq.validate(acq));
    // The I/Q stages check their own parameters even when the imaging mode is RF.
    acq.samplingFrequencyHz = 20e6;
    ultrasound::ImagingParams rfMode = ultrasound::ImagingParams::defaultsFor(acq);
    rfMode.iqDecimation = 0;
    ultrasound::IqDemodulator demodulator;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             demodulator.configure(*cpu_, acq, acquire::SampleType::Int16, rfMode));
  }

  void engineSwitchesFromRfToIqWhileRunning() {
    const std::string path = test::artefactPath("test_iq_switch.h5");
    test::RfFileSpec spec;
    spec.frames = 4;
    test::writeRfFile(path, spec);
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 100000;
    pipeline::Engine engine(*cpu_, config);
    engine.setSource(acquire::openSource(path));
    engine.start();
    QTRY_VERIFY_WITH_TIMEOUT(engine.stats().processed >= 5, 20'000);
    QCOMPARE(engine.stats().stages.size(), std::size_t{5});  // upload + 4 RF stages
    ultrasound::ImagingParams imaging = ultrasound::imagingOf(engine);
    imaging.mode = ultrasound::ImagingMode::Iq;
    ultrasound::setImaging(engine, imaging);
    QTRY_VERIFY_WITH_TIMEOUT(engine.stats().stages.size() == 4, 20'000);
    const auto stats = engine.stats();
    QCOMPARE(stats.stages[1].name, std::string("demodulate"));
    QCOMPARE(stats.stages[2].name, std::string("beamform"));
    QCOMPARE(stats.stages[3].name, std::string("log"));
    const std::uint64_t processed = stats.processed;
    QTRY_VERIFY_WITH_TIMEOUT(engine.stats().processed >= processed + 5, 20'000);
    QTRY_VERIFY_WITH_TIMEOUT(engine.stats().stages[1].count >= 3, 20'000);
    engine.stop();
    QCOMPARE(engine.state(), pipeline::EngineState::Stopped);
    QCOMPARE(ultrasound::imagingOf(engine).mode, ultrasound::ImagingMode::Iq);
  }
};

QTEST_GUILESS_MAIN(TestIq)
#include "test_iq.moc"
