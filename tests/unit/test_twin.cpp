// compute/twin.hpp, the one CPU/CUDA twin mechanism, and the backend tags it rests on: a kernel is
// made for the backend it is asked for (the CUDA one only in a build with CUDA), a failed make
// keeps the previous kernel, variants go to the kernel made, and nothing runs before a make.
// Streams and events carry their backend's kind, so a stream refuses another backend's event by
// that tag; sync-only events order work like timed ones.

#include <QtTest>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "compute/twin.hpp"

using namespace cineflow;

namespace {

// Two kernels with the shape the stages' kernels have: variants and an enqueue-like call.
struct CpuKernel {
  explicit CpuKernel(int value) : value(value) {}
  static std::vector<std::string> variantNames() { return {"scalar", "vector"}; }
  void selectVariant(std::size_t index) {
    if (index >= variantNames().size()) {
      throw std::invalid_argument("no CPU variant " + std::to_string(index));
    }
    chosen = index;
  }
  std::size_t variant() const { return chosen; }
  std::string run() const { return "cpu " + std::to_string(value); }
  int value;
  std::size_t chosen = 0;
};

struct CudaKernel {
  explicit CudaKernel(int value) : value(value) {}
  static std::vector<std::string> variantNames() { return {"thread per pixel", "warp", "tiles"}; }
  void selectVariant(std::size_t index) { chosen = index; }
  std::size_t variant() const { return chosen; }
  std::string run() const { return "cuda " + std::to_string(value); }
  int value;
  std::size_t chosen = 0;
};

using Kernel = compute::Twin<CpuKernel, CudaKernel>;

void make(Kernel& kernel, compute::BackendKind kind, int value) {
  kernel.make(
      kind, [&] { return std::make_unique<CpuKernel>(value); },
      [&] { return std::make_unique<CudaKernel>(value); });
}

std::string run(const Kernel& kernel) {
  return kernel.visit("test stage", [](const auto& k) { return k.run(); });
}

// An event of the other backend, as far as its tag says.
class ForeignEvent final : public compute::Event {
 public:
  ForeignEvent() : Event(compute::BackendKind::Cuda) {}
  bool query() const override { return true; }
  void synchronize() const override {}
  double elapsedMsSince(const Event& /*start*/) const override { return 0; }
};

}  // namespace

class TestTwin : public QObject {
  Q_OBJECT

 private slots:
  void nothingRunsBeforeAMake() {
    Kernel kernel;
    QVERIFY(!kernel.made());
    QVERIFY(kernel.cpuKernel() == nullptr);
    try {
      run(kernel);
      QFAIL("a kernel ran before it was made");
    } catch (const std::logic_error& error) {
      QCOMPARE(std::string(error.what()), std::string("test stage: not configured"));
    }
    QVERIFY_THROWS_EXCEPTION(std::logic_error, kernel.selectVariant("test stage", 1));
    // The variants a tuner would list before the stage is configured: the CPU kernel's.
    QCOMPARE(kernel.variants(), CpuKernel::variantNames());
    QCOMPARE(kernel.variant(), std::size_t(0));
  }

  void theCpuKernelOnTheCpu() {
    Kernel kernel;
    make(kernel, compute::BackendKind::Cpu, 7);
    QCOMPARE(run(kernel), std::string("cpu 7"));
    QVERIFY(kernel.cpuKernel() != nullptr);
    QCOMPARE(kernel.variants(), CpuKernel::variantNames());
    kernel.selectVariant("test stage", 1);
    QCOMPARE(kernel.variant(), std::size_t(1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kernel.selectVariant("test stage", 2));
  }

  // A CUDA backend gets the CUDA kernel where the build has CUDA; a build without CUDA never
  // makes a CUDA backend, and a stage asked for one anyway runs its CPU kernel.
  void theCudaKernelOnlyWhereCudaIsBuilt() {
    QCOMPARE(compute::runsOnCuda(compute::BackendKind::Cuda), compute::kCudaBuilt);
    QVERIFY(!compute::runsOnCuda(compute::BackendKind::Cpu));
    Kernel kernel;
    make(kernel, compute::BackendKind::Cuda, 3);
    if (compute::kCudaBuilt) {
      QCOMPARE(run(kernel), std::string("cuda 3"));
      QVERIFY(kernel.cpuKernel() == nullptr);
      QCOMPARE(kernel.variants(), CudaKernel::variantNames());
      kernel.selectVariant("test stage", 2);
      QCOMPARE(kernel.variant(), std::size_t(2));
      // Back to the CPU: the CUDA kernel goes.
      make(kernel, compute::BackendKind::Cpu, 4);
      QCOMPARE(run(kernel), std::string("cpu 4"));
      QCOMPARE(kernel.variant(), std::size_t(0));
    } else {
      QCOMPARE(run(kernel), std::string("cpu 3"));
    }
  }

  void aFailedMakeKeepsThePreviousKernel() {
    Kernel kernel;
    make(kernel, compute::BackendKind::Cpu, 5);
    kernel.selectVariant("test stage", 1);
    const auto refuse = []() -> std::unique_ptr<CpuKernel> {
      throw std::invalid_argument("refused");
    };
    const auto refuseCuda = []() -> std::unique_ptr<CudaKernel> {
      throw std::invalid_argument("refused");
    };
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             kernel.make(compute::BackendKind::Cpu, refuse, refuseCuda));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        kernel.make(compute::kCudaBuilt ? compute::BackendKind::Cuda : compute::BackendKind::Cpu,
                    refuse, refuseCuda));
    QCOMPARE(run(kernel), std::string("cpu 5"));
    QCOMPARE(kernel.variant(), std::size_t(1));
  }

  void onTwinPicksTheFunctionOfTheBackend() {
    const auto which = [](compute::BackendKind kind) {
      return compute::onTwin(
          kind, [] { return std::string("cpu"); }, [] { return std::string("cuda"); });
    };
    QCOMPARE(which(compute::BackendKind::Cpu), std::string("cpu"));
    QCOMPARE(which(compute::BackendKind::Cuda), std::string(compute::kCudaBuilt ? "cuda" : "cpu"));
  }

  void streamsAndEventsCarryTheirBackend() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    auto stream = backend->createStream("twin");
    const auto timed = backend->createEvent();
    const auto sync = backend->createSyncEvent();
    QCOMPARE(stream->kind(), compute::BackendKind::Cpu);
    QCOMPARE(timed->kind(), compute::BackendKind::Cpu);
    QCOMPARE(sync->kind(), compute::BackendKind::Cpu);
    // A sync-only event orders work across streams like a timed one.
    auto other = backend->createStream("twin other");
    std::vector<int> order;
    stream->enqueueHost([&order] { order.push_back(1); });
    stream->record(*sync);
    other->wait(*sync);
    other->enqueueHost([&order] { order.push_back(2); });
    other->synchronize();
    stream->synchronize();
    QCOMPARE(order, (std::vector<int>{1, 2}));
    QVERIFY(sync->query());
    // Another backend's event is refused by its tag, naming who refused it.
    ForeignEvent foreign;
    try {
      stream->record(foreign);
      QFAIL("a CPU stream recorded another backend's event");
    } catch (const std::invalid_argument& error) {
      QVERIFY2(std::string(error.what()).find("another backend") != std::string::npos,
               error.what());
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, timed->elapsedMsSince(foreign));
  }
};

QTEST_GUILESS_MAIN(TestTwin)
#include "test_twin.moc"
