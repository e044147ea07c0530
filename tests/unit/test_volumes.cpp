// Volumes on the CPU backend: assembly from sweeps, MIPs, the endpoint callback with a chained
// copy, abandoned sweeps under Drop, the RAII lock; and a real sweep of the simulator, whose
// slices land at the phantom's elevations.
#include <QtTest>

#include <algorithm>

#include "compute/buffer.hpp"
#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "registry/ultrasound_engine.hpp"
#include "support/mip_reference.hpp"
#include "support/volume_checks.hpp"
#include "ultrasound/imaging_params.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;

class TestVolumes : public QObject {
  Q_OBJECT

  std::unique_ptr<compute::Backend> cpu_ = compute::createBackend(compute::BackendRequest::Cpu);

 private slots:
  void assembleSweepsAndChainCopies() { test::checkVolumesAssembleSweepsAndChainCopies(*cpu_); }
  void droppedFramesAbandonSweeps() { test::checkDroppedFramesAbandonSweeps(*cpu_); }
  void lockHoldsTheVolume() { test::checkVolumeLockHoldsTheVolume(*cpu_); }

  void simulatorSweepBecomesAVolume() {
    QVERIFY2(qEnvironmentVariableIsSet("CINEFLOW_CACHE_DIR"),
             "CTest sets CINEFLOW_CACHE_DIR so the simulator's frames are cached between runs");
    auto source = acquire::openSource("sim");
    const auto& acq = ultrasound::requireUltrasound(*source).params();
    const int slices = acq.framesPerVolume;
    QVERIFY(slices > 1);
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = static_cast<std::uint64_t>(slices);
    pipeline::Engine engine(*cpu_, config);
    // A coarse grid keeps this quick: 0.2 mm pixels over the phantom.
    ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
    imaging.grid.dx = imaging.grid.dz = 0.2e-3;
    engine.setSource(std::move(source));
    ultrasound::setImaging(engine, imaging);
    engine.start();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Finished);
    engine.stop();
    QCOMPARE(engine.stats().volumes, std::uint64_t{1});
    const process::VolumeLock volume = engine.lockLatestVolume();
    QVERIFY(volume);
    volume.done().synchronize();
    const auto& info = volume.info();
    QCOMPARE(info.shape.ny, slices);
    // Elevations rise through the sweep and straddle the point targets' plane (y = 0).
    for (int y = 1; y < slices; ++y) {
      QVERIFY(info.elevationM[static_cast<std::size_t>(y)] >
              info.elevationM[static_cast<std::size_t>(y) - 1]);
    }
    QVERIFY(info.elevationM.front() < 0 && info.elevationM.back() > 0);
    std::vector<float> voxels(info.shape.voxels());
    cpu_->copyBlocking(voxels.data(), volume.view().volume.data(), volume.view().volume.bytes());
    const test::Mips expected = test::referenceMips(voxels, info.shape);
    std::vector<float> alongY(info.shape.alongY());
    cpu_->copyBlocking(alongY.data(), volume.view().alongY.data(), volume.view().alongY.bytes());
    QVERIFY(test::identical(alongY, expected.alongY));
    // A real image: tens of dB of speckle contrast in the projection.
    const auto [lo, hi] = std::minmax_element(alongY.begin(), alongY.end());
    QVERIFY2(*hi - *lo > 30.0f, qPrintable(QString("MIP spans %1 dB").arg(*hi - *lo)));
  }

  void badFramesPerVolumeIsRefused() {
    pipeline::EngineConfig config;
    config.framesPerVolume = -2;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pipeline::Engine(*cpu_, config));
  }
};

QTEST_GUILESS_MAIN(TestVolumes)
#include "test_volumes.moc"
