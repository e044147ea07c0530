// The one-pass MIP kernel (process/cuda/mip_tile.cu) on the paths a single GPU does not take by
// itself: the plan of a GPU without thread-block clusters (sm_75 to sm_89: every block folds its
// maxima along z alone), run here on whatever device there is, and a launch whose marks are
// broken, which must end with a reported fault instead of hanging the stream. Exact comparisons
// with the triple-loop reference (tests/support/mip_reference.hpp).
#include <QtTest>

#if CINEFLOW_HAVE_CUDA
#include <cuda_runtime.h>

#include "compute/buffer.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "cuda_test_support.hpp"
#include "process/cuda/mip_kernels.hpp"
#include "process/cuda/stage_kernels.hpp"
#include "support/mip_reference.hpp"

using namespace cineflow;

class TestCudaMipTile : public QObject {
  Q_OBJECT

 private:
  std::string cudaSkipReason_;
  std::unique_ptr<compute::Backend> cuda_ = test::cudaBackendOrReason(cudaSkipReason_);

  // Projects `volume` with `plan` as launch number `launch` on a fresh stream; `scratch` carries
  // the launch marks between calls. Returns the stream's error (empty when none) in `error`.
  test::Mips project(const process::cuda::MipPlan& plan, unsigned launch,
                     const std::vector<float>& volume, const process::VolumeShape& shape,
                     compute::DeviceBuffer<float>& scratch, std::string& error) {
    compute::DeviceBuffer<float> in(*cuda_, volume.size());
    compute::DeviceBuffer<float> y(*cuda_, shape.alongY()), z(*cuda_, shape.alongZ()),
        x(*cuda_, shape.alongX());
    test::Mips out{std::vector<float>(shape.alongY()), std::vector<float>(shape.alongZ()),
                   std::vector<float>(shape.alongX())};
    auto stream = cuda_->createStream("mip-tile-test");
    stream->copyAsync(in.data(), volume.data(), in.bytes());
    process::cuda::enqueueMips(*stream, plan, launch, in.data(), shape.ny, shape.nz, shape.nx,
                               scratch.data(), y.data(), z.data(), x.data());
    stream->copyAsync(out.alongY.data(), y.data(), y.bytes());
    stream->copyAsync(out.alongZ.data(), z.data(), z.bytes());
    stream->copyAsync(out.alongX.data(), x.data(), x.bytes());
    stream->synchronize();
    error = stream->takeError();
    return out;
  }

  process::cuda::MipPlan planWithoutClusters(const process::VolumeShape& shape) {
    process::cuda::MipPlan plan = process::cuda::planMips(shape.ny, shape.nz, shape.nx);
    plan.tile = process::cuda::planMipTile(shape.nz, /*allowClusters=*/false);
    return plan;
  }

 private slots:
  void clustersArePlannedWhereTheDeviceHasThem() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    int clusterLaunch = 0;
    compute::cuda::check(cudaDeviceGetAttribute(&clusterLaunch, cudaDevAttrClusterLaunch, 0),
                         "cudaDeviceGetAttribute");
    const process::cuda::MipTilePlan plan = process::cuda::planMipTile(958);
    QCOMPARE(plan.cluster, clusterLaunch != 0 ? 8 : 1);
    QCOMPARE(plan.blocks % plan.cluster, 0);
    QCOMPARE(process::cuda::planMipTile(958, false).cluster, 1);
  }

  void withoutClustersTheKernelMatchesTheReference() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    for (const process::VolumeShape shape :
         {process::VolumeShape{5, 37, 32}, process::VolumeShape{17, 3, 4},
          process::VolumeShape{40, 70, 64}, process::VolumeShape{16, 958, 248}}) {
      const process::cuda::MipPlan plan = planWithoutClusters(shape);
      QVERIFY(plan.onePass);
      QCOMPARE(plan.tile.cluster, 1);
      compute::DeviceBuffer<float> scratch(*cuda_, plan.scratchFloats);
      process::cuda::prepareMipScratch(plan, scratch.data());
      const std::vector<float> volume = test::randomVolume(shape, 7000 + shape.nz);
      const test::Mips reference = test::referenceMips(volume, shape);
      for (unsigned launch = 1; launch <= 2; ++launch) {  // the second reuses the marks
        std::string error;
        const test::Mips gpu = project(plan, launch, volume, shape, scratch, error);
        QVERIFY2(error.empty(), error.c_str());
        QVERIFY(test::identical(gpu.alongY, reference.alongY));
        QVERIFY(test::identical(gpu.alongZ, reference.alongZ));
        QVERIFY(test::identical(gpu.alongX, reference.alongX));
      }
    }
  }

  // Marks that claim this launch already emptied alongZ, which no block then does: every block
  // waits for it, gives up after the plan's limit, and the stream reports the fault.
  void aBrokenLaunchIsReportedInsteadOfHanging() {
    CINEFLOW_REQUIRE_CUDA(cuda_);
    const process::VolumeShape shape{16, 958, 248};
    for (const bool clusters : {true, false}) {
      process::cuda::MipPlan plan = process::cuda::planMips(shape.ny, shape.nz, shape.nx);
      plan.tile = process::cuda::planMipTile(shape.nz, clusters);
      plan.tile.waitLimitNs = 1'000'000;  // 1 ms
      compute::DeviceBuffer<float> scratch(*cuda_, plan.scratchFloats);
      process::cuda::prepareMipScratch(plan, scratch.data());
      const unsigned claimed = 7;
      compute::cuda::check(
          cudaMemcpy(scratch.data(), &claimed, sizeof claimed, cudaMemcpyHostToDevice),
          "breaking the launch marks");
      const std::vector<float> volume = test::randomVolume(shape, 31);
      std::string error;
      project(plan, claimed, volume, shape, scratch, error);
      QVERIFY2(error.find("the MIP kernel gave up waiting") != std::string::npos, error.c_str());
      // The next launch is whole again, and nothing of the fault is left over.
      const test::Mips gpu = project(plan, claimed + 1, volume, shape, scratch, error);
      QVERIFY2(error.empty(), error.c_str());
      const test::Mips reference = test::referenceMips(volume, shape);
      QVERIFY(test::identical(gpu.alongZ, reference.alongZ));
    }
  }
};

#else

class TestCudaMipTile : public QObject {
  Q_OBJECT

 private slots:
  void withoutCuda() { QSKIP("this build has no CUDA"); }
};

#endif

QTEST_APPLESS_MAIN(TestCudaMipTile)
#include "test_cuda_mip_tile.moc"
