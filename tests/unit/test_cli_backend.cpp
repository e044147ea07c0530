// Why the CUDA backend is not used, as the operator reads it: the reason composed from what the
// probe found (one case per CUDA failure), the mapping from CUDA's error codes, and on the
// command line `--backend cuda` failing with that reason (exit status 1) while `--backend auto`
// falls back to the CPU and says why. The command-line half needs a machine where CUDA is
// unavailable (as CI's); on a GPU machine it checks that CUDA is used instead.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <stdexcept>
#include <string>

#include "compute/backend.hpp"
#include "compute/cuda_diagnosis.hpp"
#include "support/test_paths.hpp"
#if CINEFLOW_HAVE_CUDA
#include "compute/cuda/cuda_probe.hpp"
#endif

using namespace cineflow::compute;

namespace {

// An RTX 4090 on a machine whose driver supports CUDA 12.4, with a CUDA 13.0 build for sm_75..90.
CudaFacts factsFor(CudaProblem problem) {
  CudaFacts facts;
  facts.problem = problem;
  facts.call = "cudaGetDeviceCount";
  facts.errorName = "cudaErrorSomething";
  facts.errorText = "something went wrong";
  facts.driverVersion = 12040;
  facts.runtimeVersion = 13000;
  facts.deviceCount = 2;
  facts.device = 1;
  facts.deviceName = "NVIDIA GeForce RTX 4090";
  facts.computeMajor = 8;
  facts.computeMinor = 9;
  facts.builtArchitectures = {750, 800, 860, 890, 900};
  return facts;
}

void expectContains(const std::string& text, const std::string& part) {
  QVERIFY2(text.find(part) != std::string::npos,
           qPrintable(QString::fromStdString("'" + part + "' missing from: " + text)));
}

// What this machine's backend creation says when CUDA is unavailable; empty when CUDA works.
std::string cudaUnavailableHere() {
  try {
    createBackend(BackendRequest::Cuda);
    return {};
  } catch (const std::runtime_error& e) {
    return e.what();
  }
}

struct AppRun {
  int exitCode = -1;
  QString err;
};

AppRun runHeadless(const QString& backend, const QString& output) {
  QProcess app;
  app.start(
      QString::fromStdString(cineflow::test::appPath()),
      {"--headless", "--input", "sim", "--frames", "1", "--backend", backend, "--output", output});
  if (!app.waitForFinished(-1) || app.exitStatus() != QProcess::NormalExit) {
    return {};
  }
  return {app.exitCode(), QString::fromUtf8(app.readAllStandardError())};
}

}  // namespace

class TestCliBackend : public QObject {
  Q_OBJECT

 private slots:
  void versionsAndArchitecturesAreWrittenAsNvidiaWritesThem() {
    QCOMPARE(cudaVersionText(13000), std::string("13.0"));
    QCOMPARE(cudaVersionText(12040), std::string("12.4"));
    QCOMPARE(cudaVersionText(11080), std::string("11.8"));
    QCOMPARE(architecturesText({750, 860, 1000, 1200}),
             std::string("sm_75, sm_86, sm_100, sm_120"));
    QCOMPARE(architecturesText({}), std::string("no architecture"));
  }

  void everyProblemNamesItsFactsAndWhatToDo() {
    QVERIFY(describeCudaProblem(factsFor(CudaProblem::None)).empty());
    struct Case {
      CudaProblem problem;
      std::vector<std::string> parts;
    };
    const std::vector<Case> cases = {
        {CudaProblem::NotBuilt, {"no CUDA support", "nvcc"}},
        {CudaProblem::NoDriver, {"no NVIDIA driver", "CUDA 13.0", "install a driver"}},
        {CudaProblem::DriverTooOld, {"driver is too old", "up to 12.4", "needs CUDA 13.0"}},
        {CudaProblem::DriverMismatch, {"kernel module", "libcuda", "reboot"}},
        {CudaProblem::StubDriver, {"stub libcuda", "LD_LIBRARY_PATH"}},
        {CudaProblem::NoDevice, {"no CUDA device", "up to 12.4"}},
        {CudaProblem::DeviceUnavailable, {"device 1 (NVIDIA GeForce RTX 4090)", "exclusive"}},
        {CudaProblem::NoKernelImage,
         {"no code for CUDA device 1 (NVIDIA GeForce RTX 4090)", "compute capability 8.9", "sm_89",
          "sm_75, sm_80, sm_86, sm_89, sm_90", "CINEFLOW_CUDA_ARCHITECTURES=native"}},
        {CudaProblem::PtxTooNew,
         {"cannot compile this build's PTX", "compute capability 8.9", "up to 12.4",
          "needs CUDA 13.0", "newer driver"}},
        {CudaProblem::PtxJitFailed,
         {"could not compile", "something went wrong", "CINEFLOW_CUDA_ARCHITECTURES=native"}},
        {CudaProblem::Other,
         {"cudaGetDeviceCount failed on device 1 (NVIDIA GeForce RTX 4090): something went "
          "wrong"}},
    };
    for (const Case& c : cases) {
      const std::string text = describeCudaProblem(factsFor(c.problem));
      for (const std::string& part : c.parts) {
        expectContains(text, part);
      }
      // The failed call and CUDA's name for the error close every reason, for a bug report.
      expectContains(text, "[cudaGetDeviceCount: cudaErrorSomething]");
    }
  }

  void environmentSettingsAreQuoted() {
    CudaFacts facts = factsFor(CudaProblem::DeviceIndex);
    facts.deviceSetting = std::string("7");
    expectContains(describeCudaProblem(facts),
                   "CINEFLOW_CUDA_DEVICE=7 is not a device index in [0, 2)");
    facts = factsFor(CudaProblem::NoDevice);
    facts.visibleDevices = std::string("none");
    expectContains(describeCudaProblem(facts), "CUDA_VISIBLE_DEVICES=none");
  }

  void cudaErrorsMapToProblems() {
#if CINEFLOW_HAVE_CUDA
    struct Case {
      cudaError_t error;
      int driverVersion;
      CudaProblem problem;
    };
    const Case cases[] = {
        {cudaSuccess, 13000, CudaProblem::None},
        {cudaErrorInsufficientDriver, 0, CudaProblem::NoDriver},
        {cudaErrorInsufficientDriver, 12040, CudaProblem::DriverTooOld},
        {cudaErrorSystemDriverMismatch, 13000, CudaProblem::DriverMismatch},
        {cudaErrorStubLibrary, 13000, CudaProblem::StubDriver},
        {cudaErrorNoDevice, 13000, CudaProblem::NoDevice},
        {cudaErrorDevicesUnavailable, 13000, CudaProblem::DeviceUnavailable},
        {cudaErrorNoKernelImageForDevice, 13000, CudaProblem::NoKernelImage},
        {cudaErrorInvalidDeviceFunction, 13000, CudaProblem::NoKernelImage},
        {cudaErrorUnsupportedPtxVersion, 12040, CudaProblem::PtxTooNew},
        {cudaErrorInvalidPtx, 13000, CudaProblem::PtxJitFailed},
        {cudaErrorJitCompilerNotFound, 13000, CudaProblem::PtxJitFailed},
        {cudaErrorJitCompilationDisabled, 13000, CudaProblem::PtxJitFailed},
        {cudaErrorMemoryAllocation, 13000, CudaProblem::Other},
    };
    for (const Case& c : cases) {
      QVERIFY2(cuda::classifyCudaError(c.error, c.driverVersion) == c.problem,
               cudaGetErrorName(c.error));
    }
#else
    QSKIP("this build has no CUDA: no CUDA error codes to map");
#endif
  }

  void backendCreationReportsTheProbesReason() {
    const std::string reason = cudaUnavailableHere();
    std::string message;
    auto backend = createBackend(BackendRequest::Auto, &message);
    if (reason.empty()) {
      QCOMPARE(backend->kind(), BackendKind::Cuda);
      QVERIFY(message.empty());
      return;
    }
    QCOMPARE(backend->kind(), BackendKind::Cpu);
    QCOMPARE(message, reason);  // auto says exactly what cuda fails with
    QVERIFY2(reason.rfind("CUDA unavailable: ", 0) == 0, reason.c_str());
#if CINEFLOW_HAVE_CUDA
    const CudaFacts facts = cuda::diagnoseCuda();
    QVERIFY(facts.problem != CudaProblem::None);
    QCOMPARE(reason, "CUDA unavailable: " + describeCudaProblem(facts));
    QVERIFY2(!facts.builtArchitectures.empty(), "nvcc's architecture list did not arrive");
    QVERIFY(facts.runtimeVersion > 0);
    if (facts.driverVersion == 0) {  // a machine without a driver, as CI's
      QCOMPARE(facts.problem, CudaProblem::NoDriver);
    }
#else
    expectContains(reason, "no CUDA support");
#endif
  }

  void commandLineFailsOrFallsBackWithTheReason() {
    const std::string reason = cudaUnavailableHere();
    if (reason.empty()) {
      QSKIP("CUDA works on this machine: there is no reason to report");
    }
    QTemporaryDir dir;
    const QString output = dir.filePath("out.h5");
    const AppRun cuda = runHeadless("cuda", output);
    QCOMPARE(cuda.exitCode, 1);
    QVERIFY2(cuda.err.contains(QString::fromStdString("cineflow: " + reason)),
             qPrintable(cuda.err));
    QVERIFY(!QFile::exists(output));

    const AppRun automatic = runHeadless("auto", output);
    QCOMPARE(automatic.exitCode, 0);
    QVERIFY2(automatic.err.contains(
                 QString::fromStdString("cineflow: " + reason + "; using the CPU backend")),
             qPrintable(automatic.err));
    QVERIFY(QFile::exists(output));
  }
};

QTEST_APPLESS_MAIN(TestCliBackend)
#include "test_cli_backend.moc"
