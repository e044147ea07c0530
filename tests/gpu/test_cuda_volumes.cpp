// Volumes on the CUDA backend: the same checks as tests/unit/test_volumes.cpp (assembly, MIPs, a
// copy chained onto the endpoint stream, abandoned sweeps, the RAII lock, auto-buffering into the
// VolumeStore).
#include <QtTest>

#include "cuda_test_support.hpp"
#include "support/volume_checks.hpp"

using namespace cineflow;

class TestCudaVolumes : public QObject {
  Q_OBJECT

  std::string cudaSkipReason_;
  std::unique_ptr<compute::Backend> cuda_ = test::cudaBackendOrReason(cudaSkipReason_);

 private slots:
  void assembleSweepsAndChainCopies() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    test::checkVolumesAssembleSweepsAndChainCopies(*cuda_);
  }
  void droppedFramesAbandonSweeps() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    test::checkDroppedFramesAbandonSweeps(*cuda_);
  }
  void lockHoldsTheVolume() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    test::checkVolumeLockHoldsTheVolume(*cuda_);
  }
  void storeAutoBuffersUntilFull() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    test::checkStoreAutoBuffersUntilFull(*cuda_);
  }
};

QTEST_GUILESS_MAIN(TestCudaVolumes)
#include "test_cuda_volumes.moc"
