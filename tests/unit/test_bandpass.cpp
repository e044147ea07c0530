// Bandpass FIR: tap design, the CPU stage against a double-precision direct convolution, and
// boundary checks.

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <stdexcept>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "support/reference_stages.hpp"
#include "support/test_random.hpp"
#include "ultrasound/bandpass.hpp"

using namespace cineflow;

namespace {

// |H(f)| of an odd-length symmetric FIR, evaluated directly.
double gainAt(const std::vector<float>& taps, double frequencyHz, double fsHz) {
  std::complex<double> sum = 0;
  for (std::size_t n = 0; n < taps.size(); ++n) {
    sum += static_cast<double>(taps[n]) *
           std::polar(1.0, -2 * std::numbers::pi * frequencyHz / fsHz * static_cast<double>(n));
  }
  return std::abs(sum);
}

struct FilterRun {
  std::vector<float> output;
  std::vector<float> taps;
};

template <class Sample>
FilterRun runFilter(const acquire::AcquisitionParams& acq, const ultrasound::ImagingParams& imaging,
                    const std::vector<Sample>& input, acquire::SampleType type) {
  auto backend = compute::createBackend(compute::BackendRequest::Cpu);
  auto stream = backend->createStream("test");
  ultrasound::BandpassFilter filter;
  filter.configure(*backend, acq, type, imaging);
  compute::DeviceBuffer<Sample> raw(*backend, input.size());
  compute::DeviceBuffer<float> out(*backend, filter.rows() * filter.outputSamples());
  std::copy(input.begin(), input.end(), raw.data());  // CPU backend: device memory is host memory
  std::fill(out.data(), out.data() + out.size(), std::nanf(""));
  const compute::DeviceSpan<const std::byte> bytes(reinterpret_cast<const std::byte*>(raw.data()),
                                                   raw.bytes());
  filter.enqueue(*stream, bytes, out.view());
  stream->synchronize();
  return {std::vector<float>(out.data(), out.data() + out.size()), filter.taps()};
}

}  // namespace

class TestBandpass : public QObject {
  Q_OBJECT

 private slots:
  void designedTapsPassTheBandAndStopTheRest() {
    const double fs = 20e6, f0 = 5e6;
    const auto taps = ultrasound::designBandpassTaps(65, 0.5 * f0, 1.5 * f0, fs);
    QCOMPARE(taps.size(), std::size_t{65});
    for (std::size_t i = 0; i < taps.size() / 2; ++i) {
      QCOMPARE(taps[i], taps[taps.size() - 1 - i]);  // symmetric: zero phase about the centre
    }
    // Tolerances: unit gain at the band centre to float rounding (1e-5); Hamming sidelobes are
    // near -53 dB, so the stop bands (DC and 0.98 Nyquist) sit well under 0.01.
    const double centre = gainAt(taps, f0, fs);
    QVERIFY2(std::abs(centre - 1) < 1e-5, qPrintable(QString::number(centre, 'g', 10)));
    QVERIFY2(gainAt(taps, 0, fs) < 0.01, qPrintable(QString::number(gainAt(taps, 0, fs))));
    const double nearNyquist = gainAt(taps, 0.49 * fs, fs);
    QVERIFY2(nearNyquist < 0.01, qPrintable(QString::number(nearNyquist)));
    QVERIFY(gainAt(taps, 0.5 * f0, fs) > 0.3);  // the edges are around -6 dB
    QVERIFY(gainAt(taps, 1.5 * f0, fs) > 0.3);
  }

  void highEdgeAboveNyquistIsClamped() {
    const double fs = 20e6;
    const auto taps = ultrasound::designBandpassTaps(101, 4e6, 12e6, fs);  // 12 MHz > fs/2
    const double centre = (4e6 + 0.98 * fs / 2) / 2;  // centre of the clamped band
    QVERIFY(std::abs(gainAt(taps, centre, fs) - 1) < 1e-5);
    QVERIFY(gainAt(taps, 0, fs) < 0.01);
  }

  void designRejectsBadArguments() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             ultrasound::designBandpassTaps(64, 1e6, 2e6, 2e7));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             ultrasound::designBandpassTaps(1, 1e6, 2e6, 2e7));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             ultrasound::designBandpassTaps(65, 2e6, 1e6, 2e7));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             ultrasound::designBandpassTaps(65, 1e6, 2e6, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             ultrasound::designBandpassTaps(65, 9.9e6, 12e6, 2e7));  // low > clamp
  }

  void matchesDirectConvolution_data() {
    QTest::addColumn<bool>("int16");
    QTest::addColumn<int>("taps");
    QTest::addColumn<int>("samples");
    QTest::addColumn<int>("factor");
    QTest::newRow("float32, 65 taps") << false << 65 << 300 << 1;
    QTest::newRow("int16, 65 taps") << true << 65 << 300 << 1;
    QTest::newRow("int16, 31 taps, row shorter than the filter") << true << 31 << 20 << 1;
    QTest::newRow("float32, 3 taps") << false << 3 << 257 << 1;
    QTest::newRow("float32, 65 taps, interpolated x3") << false << 65 << 300 << 3;
    QTest::newRow("int16, 31 taps, x2, row shorter than the filter") << true << 31 << 20 << 2;
    QTest::newRow("int16, 3 taps, x8") << true << 3 << 257 << 8;
  }
  void matchesDirectConvolution() {
    QFETCH(bool, int16);
    QFETCH(int, taps);
    QFETCH(int, samples);
    QFETCH(int, factor);
    const auto acq = test::makePlaneWaveAcquisition(8, 3, samples);
    auto imaging = ultrasound::ImagingParams::defaultsFor(acq);
    imaging.firTaps = taps;
    imaging.rfUpsampling = factor;
    imaging.grid.z1 = imaging.grid.z0 + 1e-3;  // the grid does not matter here; keep it valid
    const std::size_t count = acq.samplesPerFrame();
    FilterRun run;
    std::vector<double> input;
    if (int16) {
      const auto raw = test::randomInt16(count, 11);
      run = runFilter(acq, imaging, raw, acquire::SampleType::Int16);
      input = test::toDoubles(std::span<const std::int16_t>(raw));
    } else {
      const auto raw = test::randomFloats(count, 12);
      run = runFilter(acq, imaging, raw, acquire::SampleType::Float32);
      input = test::toDoubles(std::span<const float>(raw));
    }
    QCOMPARE(run.taps.size(), std::size_t(factor * (taps - 1) + 1));
    const auto expected =
        test::referenceBandpass(run.taps, input, 24, std::size_t(samples), factor);
    QCOMPARE(run.output.size(), expected.size());
    // Tolerance: float32 multiply-adds of <= 65 terms against a double reference: rel L2 < 1e-5.
    const double error = test::relativeL2Error(run.output, expected);
    QVERIFY2(error < 1e-5, qPrintable(QString("relative L2 error %1 >= 1e-5").arg(error)));
  }

  void interpolatedSamplesLieOnTheSignal() {
    // A tone at f0 inside the band, interpolated by 3: every output m must be the tone at
    // t0 + m / (3 fs), between the recorded samples too. Tolerance 1 % of the amplitude: the
    // Hamming-windowed design's ripple in the pass band is below 0.2 %, the tone is 1 away from
    // the band's -6 dB edges, and rows are checked away from their ends (the filter's span).
    auto acq = test::makePlaneWaveAcquisition(1, 1, 400);
    auto imaging = ultrasound::ImagingParams::defaultsFor(acq);
    imaging.grid.z1 = imaging.grid.z0 + 1e-3;
    imaging.rfUpsampling = 3;
    const double fs = acq.samplingFrequencyHz, f0 = acq.centerFrequencyHz;
    const double phase = 0.7;
    std::vector<float> tone(400);
    for (std::size_t n = 0; n < tone.size(); ++n) {
      tone[n] = static_cast<float>(1000 * std::cos(2 * std::numbers::pi * f0 * n / fs + phase));
    }
    const FilterRun run = runFilter(acq, imaging, tone, acquire::SampleType::Float32);
    QCOMPARE(run.output.size(), std::size_t{1200});
    double worst = 0;
    for (std::size_t m = 200; m < 1000; ++m) {
      const double want = 1000 * std::cos(2 * std::numbers::pi * f0 * m / (3 * fs) + phase);
      worst = std::max(worst, std::abs(run.output[m] - want));
    }
    QVERIFY2(worst < 10, qPrintable(QString("worst difference %1 of 1000").arg(worst)));
  }

  void rejectsWrongBuffers() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    auto stream = backend->createStream("test");
    ultrasound::BandpassFilter filter;
    compute::DeviceBuffer<std::int16_t> raw(*backend, 4 * 100);
    compute::DeviceBuffer<float> out(*backend, 4 * 100);
    const compute::DeviceSpan<const std::byte> bytes(reinterpret_cast<const std::byte*>(raw.data()),
                                                     raw.bytes());
    QVERIFY_THROWS_EXCEPTION(std::logic_error, filter.enqueue(*stream, bytes, out.view()));

    const auto acq = test::makePlaneWaveAcquisition(2, 2, 100);
    auto imaging = ultrasound::ImagingParams::defaultsFor(acq);
    imaging.grid.z1 = imaging.grid.z0 + 1e-3;  // 100 samples end above the default 5 mm start
    imaging.firTaps = 64;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             filter.configure(*backend, acq, acquire::SampleType::Int16, imaging));
    imaging.firTaps = 21;
    imaging.rfUpsampling = 1;  // outputs as many samples as it reads
    filter.configure(*backend, acq, acquire::SampleType::Int16, imaging);
    filter.enqueue(*stream, bytes, out.view());  // the right sizes
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        filter.enqueue(*stream, bytes.subspan(0, bytes.size() - 2), out.view()));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             filter.enqueue(*stream, bytes, out.view().subspan(0, 399)));
    ultrasound::BandpassFilter floatFilter;
    floatFilter.configure(*backend, acq, acquire::SampleType::Float32, imaging);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,  // int16 bytes are half a float32 frame
                             floatFilter.enqueue(*stream, bytes, out.view()));
    stream->synchronize();
  }
};

QTEST_APPLESS_MAIN(TestBandpass)
#include "test_bandpass.moc"
