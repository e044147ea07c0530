// The OCT chain's CUDA twin against its CPU twin on B-scans of the OCT simulator (rolling-mean
// and reference backgrounds, linear and cubic resampling, dispersion on): the same dB image to
// within float rounding of two FFT implementations, through the two stages both twins report.
#include <QtTest>

#include <cmath>
#include <vector>

#include "compute/buffer.hpp"
#include "cuda_test_support.hpp"
#include "oct/cpu/oct_stages.hpp"
#include "oct/oct_processor.hpp"
#include "oct/oct_simulator.hpp"

using namespace cineflow;

namespace {

std::vector<float> imageOn(compute::Backend& backend, const oct::OctAcquisition& acquisition,
                           const oct::OctParams& params, const std::vector<std::uint16_t>& raw,
                           std::uint64_t sourceIndex) {
  oct::OctProcessor processor;
  processor.configure(backend, acquisition, params);
  acquire::FrameHeader header;
  header.sourceIndex = sourceIndex;
  return test::processFrame(backend, processor, std::as_bytes(std::span(raw)), header);
}

}  // namespace

class TestCudaOct : public QObject {
  Q_OBJECT

  std::string cudaSkipReason_;
  std::unique_ptr<compute::Backend> cuda_ = test::cudaBackendOrReason(cudaSkipReason_);

 private slots:
  void cudaMatchesTheCpuTwin_data() {
    QTest::addColumn<bool>("reference");
    QTest::addColumn<int>("interpolation");
    QTest::addColumn<bool>("bidirectional");
    QTest::newRow("rolling mean, cubic")
        << false << static_cast<int>(oct::Interpolation::Cubic) << false;
    QTest::newRow("reference, linear")
        << true << static_cast<int>(oct::Interpolation::Linear) << false;
    QTest::newRow("bidirectional with flyback, odd B-scan")
        << false << static_cast<int>(oct::Interpolation::Cubic) << true;
  }

  void cudaMatchesTheCpuTwin() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    QFETCH(bool, reference);
    QFETCH(int, interpolation);
    QFETCH(bool, bidirectional);
    oct::OctSimulatorConfig config;
    config.ascans = 256;
    config.bscans = 2;
    config.bidirectional = bidirectional;
    config.flybackAscans = bidirectional ? 20 : 0;
    oct::OctSimulator simulator(config);
    const auto& acq = simulator.acquisition();
    std::vector<std::uint16_t> raw(acq.samplesPerFrame());
    acquire::SliceInfo slice;
    simulator.readFrame(1, std::as_writable_bytes(std::span(raw)), slice);
    oct::OctParams params;
    params.a2 = config.a2;
    params.a3 = config.a3;
    params.interpolation = static_cast<oct::Interpolation>(interpolation);
    params.depthFirst = 10;
    params.depthLast = 700;
    if (reference) {
      params.background = oct::Background::Reference;
      params.reference.resize(static_cast<std::size_t>(acq.samples));
      oct::cpu::meanSpectrum(raw.data(), acq.imagedAscans(), acq.samples, params.reference.data());
    }
    auto cpu = compute::createBackend(compute::BackendRequest::Cpu);
    const auto want = imageOn(*cpu, acq, params, raw, 1);
    const auto got = imageOn(*cuda_, acq, params, raw, 1);
    QCOMPARE(got.size(), want.size());
    // Float FFTs of 2048 points (cuFFT against FFTW): 1e-5 relative in amplitude at the echoes,
    // more in the noise floor far below them; compared where the image is within 60 dB of its
    // peak.
    const float peak = *std::max_element(want.begin(), want.end());
    double worst = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      if (want[i] > peak - 60.0f) {
        worst = std::max(worst, static_cast<double>(std::abs(got[i] - want[i])));
      }
    }
    qInfo("largest CUDA - CPU difference within 60 dB of the peak: %.3g dB", worst);
    QVERIFY2(worst < 0.01, qPrintable(QString::number(worst)));
  }
};

QTEST_GUILESS_MAIN(TestCudaOct)
#include "test_cuda_oct.moc"
