// The pipeline policy checks of tests/unit/test_pipeline.cpp, repeated on the CUDA backend:
// upload and compute streams on the GPU, host slots released by cudaLaunchHostFunc callbacks.
#include <QtTest>

#include "cuda_test_support.hpp"
#include "support/pipeline_checks.hpp"

using namespace cineflow;

class TestCudaPipeline : public QObject {
  Q_OBJECT

 private:
  std::string cudaSkipReason_;
  std::unique_ptr<compute::Backend> cuda_ = test::cudaBackendOrReason(cudaSkipReason_);

 private slots:
  void blockLosesNothingAndKeepsOrder() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    test::checkBlockLosesNothingAndKeepsOrder(*cuda_);
  }
  void dropCountsExactlyAndNeverMixes() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    test::checkDropCountsExactlyAndNeverMixes(*cuda_);
  }
  void stopWhileBusyFinishesWhatWasAcquired() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    test::checkStopWhileBusyFinishesWhatWasAcquired(*cuda_);
  }
  void destroyWhileFramesAreInFlight() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    test::checkDestroyWhileFramesAreInFlight(*cuda_);
  }
};

QTEST_GUILESS_MAIN(TestCudaPipeline)
#include "test_cuda_pipeline.moc"
