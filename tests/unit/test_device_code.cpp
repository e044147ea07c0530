// The CUDA kernels' per-thread code (process/cuda/das_device.hpp), compiled for the host and run
// against the CPU twins (the oracles), so that a machine without a GPU checks the kernels'
// arithmetic, indexing, strides and boundaries: the I/Q demodulation's sums and the RF and I/Q
// delay-and-sum's pixels, on seeded random data, int16 and float32 samples, bandpass-sampled RF,
// decimation, one and three transmits, Hann and rectangular apodisation. Tolerances: 1e-5 of the
// largest value for the demodulation, relative L2 error 1e-5 for the pixels (float32 sums in
// another order, sin and cos from another approximation). What this cannot see: the mapping of
// threads to samples and pixels, and nvcc's own rounding (its fused float multiply-adds, the
// device's sincospif); test_cuda_stages checks those on a device.
#include <QtTest>

#include <map>
#include <utility>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "support/reference_stages.hpp"
#include "support/test_random.hpp"
#include "ultrasound/cpu/beamform.hpp"
#include "ultrasound/cpu/iq_beamform.hpp"
#include "ultrasound/cpu/iq_demodulate.hpp"
#include "ultrasound/cuda/das_device.hpp"
#include "ultrasound/fir_design.hpp"
#include "ultrasound/iq_demodulate.hpp"

using namespace cineflow;

namespace {

// 81 x 501 pixels over x -4..4 mm and z 0..25 mm: the surface (no aperture) and depths past the
// last sample included; f-number 1.2.
ultrasound::ImagingParams smallGrid(const acquire::AcquisitionParams& acq,
                                    ultrasound::ImagingMode mode, int decimation,
                                    bool rectangular) {
  ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
  imaging.mode = mode;
  imaging.iqDecimation = decimation;
  imaging.fNumber = 1.2;
  imaging.apodisation =
      rectangular ? ultrasound::Apodisation::Rectangular : ultrasound::Apodisation::Hann;
  imaging.grid = {-4e-3, 4e-3, 0.1e-3, 0, 25e-3, 0.05e-3};
  imaging.validate(acq);
  return imaging;
}

// The relative L2 error of pixel(ix, iz) against `expected` ([z][x]); also checks that most
// pixels are lit, so that an image of zeros cannot pass.
template <class Pixel>
double relativeError(const process::ImageGeometry& g, const std::vector<float>& expected,
                     Pixel pixel) {
  double error = 0, norm = 0;
  std::size_t lit = 0;
  for (int iz = 0; iz < g.nz; ++iz) {
    for (int ix = 0; ix < g.nx; ++ix) {
      const double got = pixel(ix, iz);
      const double want = expected[static_cast<std::size_t>(iz) * g.nx + ix];
      error += (got - want) * (got - want);
      norm += want * want;
      lit += want != 0;
    }
  }
  const double relative = std::sqrt(error / norm);
  qInfo("relative L2 error %.3g over %d x %d pixels, %zu lit", relative, g.nx, g.nz, lit);
  return lit > g.pixels() / 2 ? relative : 1.0;
}

}  // namespace

class TestDeviceCode : public QObject {
  Q_OBJECT

 private slots:
  void demodulationMatchesTheCpuTwin_data() {
    QTest::addColumn<double>("fs");
    QTest::addColumn<int>("decimation");
    QTest::addColumn<bool>("float32");
    QTest::newRow("20 MHz, int16") << 20e6 << 1 << false;
    QTest::newRow("20 MHz, float32, decimated by 3") << 20e6 << 3 << true;
    QTest::newRow("6.67 MHz (bandpass sampled), int16, decimated by 2") << 6.67e6 << 2 << false;
  }
  void demodulationMatchesTheCpuTwin() {
    QFETCH(double, fs);
    QFETCH(int, decimation);
    QFETCH(bool, float32);
    acquire::AcquisitionParams acq = test::makePlaneWaveAcquisition(8, 2, 301, 0.3e-3, 0.1, 2e-6);
    acq.samplingFrequencyHz = fs;
    const double cutoffHz = 0.25 * acq.centerFrequencyHz;
    const std::vector<float> taps =
        ultrasound::designLowpassTaps(ultrasound::lowpassTapsFor(cutoffHz, fs), cutoffHz, fs);
    const std::vector<float> phasors = ultrasound::mixingPhasors(acq);
    const std::size_t rows = 16, samples = 301;
    const std::size_t iqSamples = (samples + decimation - 1) / decimation;
    const auto type = float32 ? acquire::SampleType::Float32 : acquire::SampleType::Int16;

    test::SeededRandom random(2000 + decimation);
    std::vector<std::int16_t> int16(rows * samples);
    std::vector<float> floats(rows * samples);
    for (std::size_t i = 0; i < int16.size(); ++i) {
      int16[i] = static_cast<std::int16_t>(random.integer(-20000, 20000));
      floats[i] = static_cast<float>(random.uniform(-1000, 1000));
    }
    const auto* raw = float32 ? reinterpret_cast<const std::byte*>(floats.data())
                              : reinterpret_cast<const std::byte*>(int16.data());
    std::vector<float> expected(rows * iqSamples * 2);
    ultrasound::cpu::IqDemodulateKernel(
        taps, phasors, {rows, samples, iqSamples, static_cast<std::size_t>(decimation)}, type)
        .run(raw, expected.data());

    const auto* phasorPairs = reinterpret_cast<const float2*>(phasors.data());
    double worst = 0, largest = 0;
    for (std::size_t row = 0; row < rows; ++row) {
      for (std::size_t k = 0; k < iqSamples; ++k) {
        const int centre = static_cast<int>(k) * decimation;
        const float2 got =
            float32 ? ultrasound::cuda::demodulateSample(floats.data() + row * samples, taps.data(),
                                                         static_cast<int>(taps.size()), phasorPairs,
                                                         static_cast<int>(samples), centre)
                    : ultrasound::cuda::demodulateSample(int16.data() + row * samples, taps.data(),
                                                         static_cast<int>(taps.size()), phasorPairs,
                                                         static_cast<int>(samples), centre);
        const float* want = expected.data() + 2 * (row * iqSamples + k);
        worst =
            std::max({worst, std::abs(double(got.x) - want[0]), std::abs(double(got.y) - want[1])});
        largest = std::max({largest, std::abs(double(want[0])), std::abs(double(want[1]))});
      }
    }
    QVERIFY(largest > 0);
    qInfo("largest difference %.3g of %.3g", worst, largest);
    QVERIFY2(worst <= 1e-5 * largest,
             qPrintable(QString("worst difference %1 of %2").arg(worst).arg(largest)));
  }

  void rfPixelsMatchTheCpuTwin_data() {
    QTest::addColumn<int>("transmits");
    QTest::addColumn<bool>("rectangular");
    QTest::addColumn<int>("oversampling");  // times the sampling rate and the samples
    QTest::newRow("3 transmits, Hann") << 3 << false << 1;
    QTest::newRow("1 transmit, rectangular") << 1 << true << 1;
    // Positions near 4000: the split-float delays must stay as exact as the double ones.
    QTest::newRow("3 transmits, Hann, 6000-sample traces") << 3 << false << 10;
  }
  void rfPixelsMatchTheCpuTwin() {
    QFETCH(int, transmits);
    QFETCH(bool, rectangular);
    QFETCH(int, oversampling);
    const int samples = 600 * oversampling;
    acquire::AcquisitionParams acq =
        test::makePlaneWaveAcquisition(16, transmits, samples, 0.3e-3, 0.15, 1e-6);
    acq.samplingFrequencyHz *= oversampling;
    const ultrasound::ImagingParams imaging =
        smallGrid(acq, ultrasound::ImagingMode::Rf, 1, rectangular);
    std::vector<float> rf(static_cast<std::size_t>(transmits) * 16 * samples);
    test::fillUniform(rf, 4000 + transmits, -100, 100);
    const process::ImageGeometry g = imaging.geometry();
    std::vector<float> expected(g.pixels());
    ultrasound::cpu::DasKernel(acq, imaging, acq.samplingFrequencyHz, samples)
        .run(rf.data(), expected.data());

    // One thread per pixel (the kernel's lanes = 1): every element summed in order, with the
    // delays in double and in split float (with the per-row tables the kernel uploads).
    const ultrasound::DasParams p =
        ultrasound::makeDasParams(acq, imaging, acq.samplingFrequencyHz, samples);
    std::vector<int> base;
    std::vector<float> offset;
    ultrasound::makeTransmitSplitTables(p, base, offset);
    // The tabled variant's receive terms, made as its kernel makes them (receiveTableKernel).
    std::vector<float2> table(static_cast<std::size_t>(p.nx) * p.elements * p.nz);
    for (int ix = 0; ix < p.nx; ++ix) {
      for (int e = 0; e < p.elements; ++e) {
        for (int iz = 0; iz < p.nz; ++iz) {
          table[ultrasound::cuda::receiveTableIndex(p, ix, iz, e)] =
              ultrasound::cuda::receiveTableEntry(p, ix, iz, e);
        }
      }
    }
    enum class Delays { Double, Split, Tabled };
    std::map<Delays, std::vector<float>> images;
    for (const auto& [delays, name] :
         {std::pair{Delays::Double, "double"}, std::pair{Delays::Split, "split float"},
          std::pair{Delays::Tabled, "tabled split float"}}) {
      std::vector<float>& image = images[delays];
      const double relative = relativeError(g, expected, [&](int ix, int iz) {
        const ultrasound::cuda::DasPixel px = ultrasound::cuda::dasPixel(p, ix, iz);
        float sum = 0.0f;
        for (int e = px.first; e <= px.last; ++e) {
          switch (delays) {
            case Delays::Double:
              sum = ultrasound::cuda::rfDasAccumulate(rf.data(), p, px, e, sum);
              break;
            case Delays::Split:
              sum = ultrasound::cuda::rfDasAccumulateSplit(rf.data(), p, px, base.data(),
                                                           offset.data(), iz, e, sum);
              break;
            case Delays::Tabled:
              sum = ultrasound::cuda::rfDasAccumulateTabled(
                  rf.data(), p, px, table.data(), base.data(), offset.data(), ix, iz, e, sum);
              break;
          }
        }
        image.push_back(sum);
        return sum / static_cast<float>(p.transmits);
      });
      qInfo("%s delays: relative L2 error %.3g", name, relative);
      QVERIFY2(relative < 1e-5,
               qPrintable(QString("%1 delays: relative L2 error %2").arg(name).arg(relative)));
    }
    // The table holds what the split-float kernel computes per frame: the same sums, bit for bit.
    QVERIFY(images[Delays::Tabled] == images[Delays::Split]);
  }

  void iqPixelsMatchTheCpuTwin_data() {
    QTest::addColumn<int>("transmits");
    QTest::addColumn<int>("decimation");
    QTest::addColumn<bool>("rectangular");
    QTest::newRow("3 transmits, Hann") << 3 << 1 << false;
    QTest::newRow("3 transmits, rectangular") << 3 << 1 << true;
    QTest::newRow("1 transmit, decimated by 2, rectangular") << 1 << 2 << true;
    QTest::newRow("3 transmits, decimated by 3, Hann") << 3 << 3 << false;
  }
  void iqPixelsMatchTheCpuTwin() {
    QFETCH(int, transmits);
    QFETCH(int, decimation);
    QFETCH(bool, rectangular);
    const acquire::AcquisitionParams acq =
        test::makePlaneWaveAcquisition(16, transmits, 600, 0.3e-3, 0.15, 1e-6);
    const ultrasound::ImagingParams imaging =
        smallGrid(acq, ultrasound::ImagingMode::Iq, decimation, rectangular);
    const std::size_t iqSamples = (600 + decimation - 1) / decimation;
    std::vector<float> iq(static_cast<std::size_t>(transmits) * 16 * iqSamples * 2);
    test::fillUniform(iq, 3000 + transmits * 10 + decimation, -100, 100);

    const process::ImageGeometry g = imaging.geometry();
    std::vector<float> expected(g.pixels());
    ultrasound::cpu::IqDasKernel(acq, imaging, iqSamples).run(iq.data(), expected.data(), nullptr);

    const ultrasound::DasParams p = ultrasound::makeDasParams(
        acq, imaging, acq.samplingFrequencyHz / decimation, static_cast<int>(iqSamples));
    const double cyclesPerSample = acq.centerFrequencyHz * decimation / acq.samplingFrequencyHz;
    const auto* traces = reinterpret_cast<const float2*>(iq.data());
    const double relative = relativeError(g, expected, [&](int ix, int iz) {
      return ultrasound::cuda::iqDasPixel(traces, cyclesPerSample, p, ix, iz);
    });
    QVERIFY2(relative < 1e-5, qPrintable(QString("relative L2 error %1").arg(relative)));
  }
};

QTEST_GUILESS_MAIN(TestDeviceCode)
#include "test_device_code.moc"
