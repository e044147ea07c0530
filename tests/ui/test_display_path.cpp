// The two ways a live frame reaches the view's texture when its pixels stayed in the engine's
// cineloop (EngineController::setPixelsInCineloop, used on the CUDA backend):
//   - the host-copy fallback (any backend; run here on the CPU backend): the view copies the frame
//     out of the cineloop and uploads it with glTexSubImage2D;
//   - the CUDA-OpenGL interop path (needs a CUDA device whose driver also runs the GL context,
//     e.g. NVIDIA GLX under Xvfb; skipped otherwise, or failed when CINEFLOW_REQUIRE_GL_INTEROP=1
//     says the machine is meant to have it): the slot is copied device-to-array into the texture.
// Either way the texture must hold exactly the cineloop's pixels of the frame on screen, and the
// cursor readout must report them.

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QTimer>
#include <QtTest>

#include "bridge/engine_controller.hpp"
#include "common/app_settings.hpp"
#include "common/gl_format.hpp"
#include "shell/main_window.hpp"
#include "support/gui_latency.hpp"
#include "support/test_paths.hpp"
#include "view2d/image_view.hpp"
#if CINEFLOW_HAVE_CUDA
#include "compute/cuda/cuda_probe.hpp"
#endif

using cineflow::compute::BackendRequest;
using cineflow::ui::MainWindow;

namespace {

constexpr int kFirstFramesTimeoutMs = 120'000;
constexpr int kFramesBeforeChecks = 10;
constexpr double kFlatOutHz = 100'000.0;  // the acquisition panel's maximum: unpaced in practice

}  // namespace

class TestDisplayPath : public QObject {
  Q_OBJECT

 public:
  static void initMain() {
    cineflow::ui::setDefaultSurfaceFormat();
    const QString settingsPath =
        QString::fromStdString(cineflow::test::artefactPath("test_display_path.ini"));
    QFile::remove(settingsPath);
    qputenv(cineflow::ui::kSettingsPathVariable, settingsPath.toLocal8Bit());
  }

 private slots:
  void hostCopyOfCineloopFramesMatchesTheCineloop();
  void cudaInteropMatchesTheCineloop();

 private:
  // Opens the simulator in a fresh window on `backend`, runs frames, stops, and checks that the
  // texture and the readout hold the cineloop's pixels of the frame on screen.
  void runAndCompare(BackendRequest backend, bool forcePixelsInCineloop, const QString& artefact);
};

void TestDisplayPath::runAndCompare(BackendRequest backend, bool forcePixelsInCineloop,
                                    const QString& artefact) {
  auto window = std::make_unique<MainWindow>(backend);
  window->setInteractiveErrors(false);
  window->resize(1280, 860);
  window->show();
  QVERIFY(QTest::qWaitForWindowExposed(window.get()));
  auto& view = window->view();
  QVERIFY2(view.renderingError().isEmpty(), qPrintable(view.renderingError()));
  qInfo("display path: %s", qPrintable(view.displayPath()));
  QCOMPARE(window->controller().pixelsInCineloop(), view.deviceUploadActive());
  if (forcePixelsInCineloop) {
    window->controller().setPixelsInCineloop(true);
  }

  window->openSource(QStringLiteral("sim"));
  QTRY_VERIFY_WITH_TIMEOUT(
      view.framesDisplayed() >= kFramesBeforeChecks || !window->lastError().isEmpty(),
      kFirstFramesTimeoutMs);
  QVERIFY2(window->lastError().isEmpty(), qPrintable(window->lastError()));

  // Display rate over two seconds of live acquisition at the source's rate (for the notes).
  const auto before = view.framesDisplayed();
  const auto uploadsBefore = view.uploads();
  const double uploadMsBefore = view.uploadMsTotal();
  QElapsedTimer clock;
  clock.start();
  QTest::qWait(2000);
  qInfo("displayed %.1f frames/s; %.3f ms per texture upload",
        (view.framesDisplayed() - before) * 1000.0 / clock.elapsed(),
        (view.uploadMsTotal() - uploadMsBefore) /
            std::max<double>(1.0, static_cast<double>(view.uploads() - uploadsBefore)));

  // Flat out (CUDA only: on the CPU backend the engine's pool takes the cores the GUI needs, and
  // test_main_window covers the CPU case at the source rate): the engine runs as fast as the GPU
  // allows while the display keeps showing the newest frame and the GUI stays responsive: a 10 ms
  // timer fires within 100 ms.
  if (backend == BackendRequest::Cuda) {
    QVERIFY(window->controller().setFrameRate(kFlatOutHz));
    const auto processedBefore = window->controller().engine().stats().processed;
    const auto displayedBefore = view.framesDisplayed();
    clock.restart();
    const qint64 worstTimerMs = cineflow::test::worstTimerLatencyMs(20);
    QVERIFY(worstTimerMs >= 0);
    const double seconds = clock.elapsed() / 1000.0;
    qInfo(
        "flat out: processed %.0f frames/s, displayed %.1f frames/s, a 10 ms timer fired after "
        "at most %lld ms",
        (window->controller().engine().stats().processed - processedBefore) / seconds,
        (view.framesDisplayed() - displayedBefore) / seconds, static_cast<long long>(worstTimerMs));
    QVERIFY2(worstTimerMs < 100,
             qPrintable(QStringLiteral("a 10 ms timer fired after %1 ms").arg(worstTimerMs)));
    QVERIFY(window->lastError().isEmpty());
  }

  window->controller().stop();
  const auto& cineloop = window->controller().engine().cineloop();
  const auto newest = cineloop.latest();
  QVERIFY(newest.has_value());
  QTRY_VERIFY_WITH_TIMEOUT(view.grabFramebuffer().width() > 0 && view.displayedFrame() &&
                               view.displayedFrame()->header.sequence == newest->sequence,
                           10'000);
  const QImage image = view.grabFramebuffer();
  QVERIFY2(image.save(artefact), qPrintable(artefact));

  std::vector<float> expected;
  cineflow::acquire::FrameHeader header;
  cineflow::process::ImageGeometry geometry;
  QVERIFY(cineloop.copyImage(newest->sequence, expected, header, geometry));
  const std::vector<float> texture = view.textureContents();
  QCOMPARE(texture.size(), expected.size());
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < texture.size(); ++i) {
    mismatches += (std::isnan(expected[i]) ? !std::isnan(texture[i]) : texture[i] != expected[i]);
  }
  QVERIFY2(mismatches == 0, qPrintable(QStringLiteral("%1 of %2 texels differ from the cineloop")
                                           .arg(mismatches)
                                           .arg(texture.size())));
  // A real image, not a cleared texture: speckle spans tens of dB.
  double sum = 0, sumSquares = 0;
  for (const float value : expected) {
    sum += value;
    sumSquares += static_cast<double>(value) * value;
  }
  const double mean = sum / static_cast<double>(expected.size());
  const double sd = std::sqrt(sumSquares / static_cast<double>(expected.size()) - mean * mean);
  QVERIFY2(sd > 3.0, qPrintable(QStringLiteral("image sd %1 dB").arg(sd)));

  // The readout at the image centre reports that pixel's value.
  const QRectF rect(view.imageRectInFramebuffer());
  const QPointF centre = rect.center() / view.devicePixelRatioF();
  const auto readout = view.readoutAt(centre);
  QVERIFY(readout.has_value());
  const float pixel = expected[static_cast<std::size_t>(readout->row) * geometry.nx +
                               static_cast<std::size_t>(readout->column)];
  QCOMPARE(static_cast<float>(readout->db), pixel);

  // Quitting with the view holding its display resources is clean.
  window.reset();
}

void TestDisplayPath::hostCopyOfCineloopFramesMatchesTheCineloop() {
  QVERIFY2(qEnvironmentVariableIsSet("CINEFLOW_CACHE_DIR"),
           "CTest sets CINEFLOW_CACHE_DIR so the simulator's frames are cached between runs");
  runAndCompare(BackendRequest::Cpu, true,
                QString::fromStdString(cineflow::test::artefactPath("test_display_path_host.png")));
}

void TestDisplayPath::cudaInteropMatchesTheCineloop() {
#if CINEFLOW_HAVE_CUDA
  const auto probe = cineflow::compute::cuda::probeDevices();
  if (probe.deviceCount == 0) {
    QSKIP(
        qPrintable(QStringLiteral("no CUDA device: %1").arg(QString::fromStdString(probe.reason))));
  }
  {
    // Whether this machine's GL context can share textures with CUDA at all.
    MainWindow window(BackendRequest::Cuda);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    if (!window.view().deviceUploadActive()) {
      const QString why = window.view().displayPath();
      if (qEnvironmentVariableIntValue("CINEFLOW_REQUIRE_GL_INTEROP") == 1) {
        QFAIL(qPrintable(QStringLiteral("no CUDA-OpenGL interop: %1").arg(why)));
      }
      QSKIP(qPrintable(QStringLiteral("no CUDA-OpenGL interop here: %1").arg(why)));
    }
  }
  runAndCompare(BackendRequest::Cuda, false,
                QString::fromStdString(cineflow::test::artefactPath("test_display_path_cuda.png")));
#else
  QSKIP("this build has no CUDA");
#endif
}

QTEST_MAIN(TestDisplayPath)
#include "test_display_path.moc"
