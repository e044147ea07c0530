// The main window's acquisition panel, menus, status bar and settings on the simulator with the
// CPU backend, under Xvfb: the f-number and the mode (RF / I/Q) reach the engine live, an invalid
// grid is reported in
// the panel without stopping acquisition, the Drop policy at a frame rate the CPU cannot keep up
// with raises a visible dropped-frame alert, Freeze switches to cineloop review, the About text
// names the backend, quitting mid-acquisition is clean, and a second window restores the first
// one's geometry and choices from the (temporary) settings file.

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QtTest>

#include "acquisition/acquisition_panel.hpp"
#include "bridge/engine_controller.hpp"
#include "cineloop/cineloop_panel.hpp"
#include "common/app_settings.hpp"
#include "common/gl_format.hpp"
#include "modalities/ultrasound/imaging_panel.hpp"
#include "profiler/status_indicators.hpp"
#include "registry/ultrasound_engine.hpp"
#include "shell/about_dialog.hpp"
#include "shell/main_window.hpp"
#include "ultrasound/ultrasound_modality.hpp"
#include "view2d/image_view.hpp"

using cineflow::pipeline::OverflowPolicy;
using cineflow::ui::MainWindow;

namespace {

// The simulator synthesises its frames on the first run (cached afterwards); the CI machine is
// shared, so every wait is generous.
constexpr int kFirstFramesTimeoutMs = 120'000;
constexpr int kFramesTimeoutMs = 60'000;
// Far beyond what the CPU backend processes, so the Drop policy must drop.
constexpr double kOverwhelmingFrameRateHz = 5000.0;
const QString kSettingsPath =
    QStringLiteral(CINEFLOW_TEST_BINARY_DIR "/test_acquisition_panel.ini");

}  // namespace

class TestAcquisitionPanel : public QObject {
  Q_OBJECT

 public:
  // QTEST_MAIN calls this before it creates the application: the operator's settings stay
  // untouched and every run starts from defaults.
  static void initMain() {
    cineflow::ui::setDefaultSurfaceFormat();
    QFile::remove(kSettingsPath);
    qputenv(cineflow::ui::kSettingsPathVariable, kSettingsPath.toLocal8Bit());
  }

 private slots:
  void initTestCase();
  void fNumberChangesLiveAndFramesKeepComing();
  void modeSwitchesLiveBetweenRfAndIq();
  void invalidGridIsReportedAndAcquisitionContinues();
  void dropPolicyAtAnOverwhelmingRateShowsDroppedFrames();
  void statusBarShowsRatesAndMemory();
  void freezeStopsAcquisitionAndEnablesReview();
  void aboutTextNamesTheBackend();
  void quittingWhileAcquiringIsClean();
  void secondWindowRestoresSettings();
  void cleanupTestCase();

 private:
  cineflow::ui::AcquisitionPanel& panel() { return window_->acquisitionPanel(); }
  QAction* action(const char* name) {
    return window_->findChild<QAction*>(QString::fromLatin1(name));
  }
  // True once `count` more frames than now reached the GUI within `timeoutMs`.
  bool framesKeepComing(int count = 3, int timeoutMs = kFramesTimeoutMs);

  std::unique_ptr<MainWindow> window_;
};

bool TestAcquisitionPanel::framesKeepComing(int count, int timeoutMs) {
  const auto target = window_->controller().framesDelivered() + static_cast<std::uint64_t>(count);
  QElapsedTimer clock;
  clock.start();
  while (clock.elapsed() < timeoutMs) {
    if (window_->controller().framesDelivered() >= target) {
      return true;
    }
    QTest::qWait(20);
  }
  return false;
}

void TestAcquisitionPanel::initTestCase() {
  QVERIFY2(qEnvironmentVariableIsSet("CINEFLOW_CACHE_DIR"),
           "CTest sets CINEFLOW_CACHE_DIR so the simulator's frames are cached between runs");
  window_ = std::make_unique<MainWindow>(cineflow::compute::BackendRequest::Cpu);
  window_->setInteractiveErrors(false);
  window_->show();
  QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  // Window-wide shortcuts (Left, Right, P, Space) need the window to be the active one; Xvfb has
  // no window manager to activate it.
  window_->activateWindow();
  QApplication::setActiveWindow(window_.get());
  QTRY_VERIFY(QApplication::activeWindow() == window_.get());
  window_->openSource(QStringLiteral("sim"));
  QTRY_VERIFY_WITH_TIMEOUT(
      window_->view().framesDisplayed() >= 3 || !window_->lastError().isEmpty(),
      kFirstFramesTimeoutMs);
  QVERIFY2(window_->lastError().isEmpty(), qPrintable(window_->lastError()));
  QVERIFY(window_->controller().isRunning());
  QVERIFY(window_->cineloopPanel().isLive());
  QVERIFY(window_->acquisitionPanel().isVisible());
  QVERIFY(window_->cineloopDock().isVisible());
}

void TestAcquisitionPanel::fNumberChangesLiveAndFramesKeepComing() {
  const double before = cineflow::ultrasound::imagingOf(window_->controller().engine()).fNumber;
  QCOMPARE(panel().modalityPanel<cineflow::ui::ImagingPanel>().fNumberBox().value(), before);
  const double wanted = before + 0.5;
  panel().modalityPanel<cineflow::ui::ImagingPanel>().fNumberBox().setValue(wanted);
  QCOMPARE(cineflow::ultrasound::imagingOf(window_->controller().engine()).fNumber, wanted);
  QVERIFY2(panel().modalityPanel<cineflow::ui::ImagingPanel>().imagingError().isEmpty(),
           qPrintable(panel().modalityPanel<cineflow::ui::ImagingPanel>().imagingError()));
  QVERIFY(window_->controller().isRunning());
  QVERIFY2(framesKeepComing(), "no frames after changing the f-number");
}

void TestAcquisitionPanel::modeSwitchesLiveBetweenRfAndIq() {
  using cineflow::ultrasound::ImagingMode;
  QComboBox& mode = panel().modalityPanel<cineflow::ui::ImagingPanel>().modeBox();
  QCOMPARE(mode.currentData().toInt(), static_cast<int>(ImagingMode::Rf));
  QVERIFY(panel()
              .modalityPanel<cineflow::ui::ImagingPanel>()
              .modeNote()
              .isEmpty());  // the simulator samples well above 2 f0
  const auto stageNames = [this] {
    QStringList names;
    for (const auto& stage : window_->controller().engine().stats().stages) {
      names << QString::fromStdString(stage.name);
    }
    return names.join(' ');
  };
  mode.setCurrentIndex(mode.findData(static_cast<int>(ImagingMode::Iq)));
  QCOMPARE(cineflow::ultrasound::imagingOf(window_->controller().engine()).mode, ImagingMode::Iq);
  QVERIFY2(panel().modalityPanel<cineflow::ui::ImagingPanel>().imagingError().isEmpty(),
           qPrintable(panel().modalityPanel<cineflow::ui::ImagingPanel>().imagingError()));
  QTRY_COMPARE_WITH_TIMEOUT(stageNames(), QStringLiteral("upload demodulate beamform log"),
                            kFramesTimeoutMs);
  QVERIFY2(framesKeepComing(), "no frames in I/Q mode");
  mode.setCurrentIndex(mode.findData(static_cast<int>(ImagingMode::Rf)));
  QTRY_COMPARE_WITH_TIMEOUT(stageNames(), QStringLiteral("upload bandpass beamform envelope log"),
                            kFramesTimeoutMs);
  QVERIFY2(framesKeepComing(), "no frames back in RF mode");
}

void TestAcquisitionPanel::invalidGridIsReportedAndAcquisitionContinues() {
  const auto gridBefore = cineflow::ultrasound::imagingOf(window_->controller().engine()).grid;
  const double depthEndMm =
      panel().modalityPanel<cineflow::ui::ImagingPanel>().depthEndBox().value();
  panel().modalityPanel<cineflow::ui::ImagingPanel>().depthEndBox().setValue(
      panel().modalityPanel<cineflow::ui::ImagingPanel>().depthStartBox().value() -
      1.0);  // z1 < z0
  QTest::mouseClick(&panel().modalityPanel<cineflow::ui::ImagingPanel>().applyGridButton(),
                    Qt::LeftButton);
  QVERIFY(!panel().modalityPanel<cineflow::ui::ImagingPanel>().imagingError().isEmpty());
  QVERIFY(window_->findChild<QLabel*>(QStringLiteral("imagingError"))->isVisible());
  qInfo("refused grid: %s",
        qPrintable(panel().modalityPanel<cineflow::ui::ImagingPanel>().imagingError()));
  QVERIFY(cineflow::ultrasound::imagingOf(window_->controller().engine()).grid == gridBefore);
  QVERIFY(window_->controller().isRunning());
  QVERIFY2(framesKeepComing(), "no frames after an invalid grid");

  // The refused value stays to be corrected, marked as not in effect; typing back the value in
  // effect takes the refusal away with it.
  auto& imaging = panel().modalityPanel<cineflow::ui::ImagingPanel>();
  QVERIFY(imaging.gridEdited());
  QVERIFY(imaging.revertGridButton().isEnabled());
  QVERIFY(imaging.depthEndBox().palette().color(QPalette::Text) !=
          imaging.depthStartBox().palette().color(QPalette::Text));
  imaging.depthEndBox().setValue(depthEndMm);
  QVERIFY(!imaging.gridEdited());
  QVERIFY2(imaging.imagingError().isEmpty(), qPrintable(imaging.imagingError()));
  QVERIFY(!imaging.revertGridButton().isEnabled());

  // Refused again, then Revert: the boxes show the grid in effect and the reason goes.
  imaging.depthEndBox().setValue(imaging.depthStartBox().value() - 1.0);
  QTest::mouseClick(&imaging.applyGridButton(), Qt::LeftButton);
  QVERIFY(!imaging.imagingError().isEmpty());
  QTest::mouseClick(&imaging.revertGridButton(), Qt::LeftButton);
  QVERIFY2(imaging.imagingError().isEmpty(), qPrintable(imaging.imagingError()));
  QCOMPARE(imaging.depthEndBox().value(), depthEndMm);
  QVERIFY(imaging.depthEndBox().palette().color(QPalette::Text) ==
          imaging.depthStartBox().palette().color(QPalette::Text));

  // A grid far past the recording's last sample applies, and the panel says so.
  QVERIFY(imaging.modeNote().isEmpty() || !imaging.modeNote().contains(QStringLiteral("ends at")));
  imaging.depthEndBox().setValue(depthEndMm * 3);
  QTest::mouseClick(&imaging.applyGridButton(), Qt::LeftButton);
  QVERIFY2(imaging.imagingError().isEmpty(), qPrintable(imaging.imagingError()));
  QVERIFY2(imaging.modeNote().contains(QStringLiteral("recording ends at")),
           qPrintable(imaging.modeNote()));
  qInfo("past the data: %s", qPrintable(imaging.modeNote()));

  // A valid grid clears the error and the note.
  imaging.depthEndBox().setValue(depthEndMm);
  imaging.applyGridButton().click();  // (a second mouseClick so soon would read as a double click)
  QVERIFY2(imaging.imagingError().isEmpty(), qPrintable(imaging.imagingError()));
  QVERIFY2(!imaging.modeNote().contains(QStringLiteral("recording ends at")),
           qPrintable(imaging.modeNote()));
}

void TestAcquisitionPanel::dropPolicyAtAnOverwhelmingRateShowsDroppedFrames() {
  const QLabel& alert = panel().droppedAlert();
  QVERIFY(alert.isHidden());
  panel().overflowBox().setCurrentIndex(
      panel().overflowBox().findData(static_cast<int>(OverflowPolicy::Drop)));
  QCOMPARE(window_->controller().config().overflow, OverflowPolicy::Drop);
  panel().frameRateBox().setValue(kOverwhelmingFrameRateHz);  // live: no restart
  QCOMPARE(window_->controller().config().frameRateHz, kOverwhelmingFrameRateHz);
  QVERIFY(window_->controller().isRunning());

  QTRY_VERIFY_WITH_TIMEOUT(alert.isVisible(), kFramesTimeoutMs);
  qInfo("alert: %s; status: %s", qPrintable(alert.text()),
        qPrintable(window_->statusIndicators().droppedText()));
  QTRY_VERIFY_WITH_TIMEOUT(window_->statusIndicators().droppedText() != QStringLiteral("dropped 0"),
                           10'000);

  // Back to the source's rate without losing frames: once drops stop, the alert clears.
  panel().setOverflowPolicy(OverflowPolicy::Block);
  panel().frameRateBox().setValue(0.0);
  QCOMPARE(window_->controller().config().frameRateHz, 0.0);
  QCOMPARE(window_->controller().config().overflow, OverflowPolicy::Block);
  QVERIFY(window_->controller().isRunning());
  QTRY_VERIFY_WITH_TIMEOUT(alert.isHidden(), 10'000);
  QVERIFY2(framesKeepComing(), "no frames after returning to the source's rate");
}

void TestAcquisitionPanel::statusBarShowsRatesAndMemory() {
  auto& status = window_->statusIndicators();
  QTRY_VERIFY_WITH_TIMEOUT(status.ratesText().contains(QStringLiteral("fps")), 10'000);
  QVERIFY2(status.memoryText().contains(QStringLiteral("GiB")), qPrintable(status.memoryText()));
  qInfo("status: %s · %s · %s", qPrintable(status.ratesText()), qPrintable(status.droppedText()),
        qPrintable(status.memoryText()));
}

void TestAcquisitionPanel::freezeStopsAcquisitionAndEnablesReview() {
  auto& cineloop = window_->cineloopPanel();
  QVERIFY(window_->controller().isRunning());
  QVERIFY(!cineloop.stepBackAction()->isEnabled());
  QVERIFY(action("freezeAction")->isEnabled());
  action("freezeAction")->trigger();
  QVERIFY(!window_->controller().isRunning());
  QVERIFY(!cineloop.isLive());
  QVERIFY(window_->cineloopDock().isVisible());
  QTRY_VERIFY_WITH_TIMEOUT(cineloop.entryCount() > 1, 10'000);
  QVERIFY(cineloop.stepBackAction()->isEnabled());

  // Left steps to an older frame, shown in the view.
  const auto newest = cineloop.currentSequence();
  QVERIFY(newest.has_value());
  QTest::keyClick(window_.get(), Qt::Key_Left);
  QTRY_VERIFY_WITH_TIMEOUT(cineloop.currentSequence() != newest, 5'000);
  QTRY_VERIFY_WITH_TIMEOUT(
      window_->view().displayedFrame() &&
          window_->view().displayedFrame()->header.sequence == *cineloop.currentSequence(),
      5'000);

  // Start (Space) goes live again.
  action("runAction")->trigger();
  QVERIFY(window_->controller().isRunning());
  QVERIFY(cineloop.isLive());
  QVERIFY2(framesKeepComing(), "no frames after resuming");
}

void TestAcquisitionPanel::aboutTextNamesTheBackend() {
  const QString text = cineflow::ui::aboutText(window_->controller());
  QVERIFY2(text.contains(window_->controller().backendDescription().toHtmlEscaped()),
           qPrintable(text));
  QVERIFY(text.contains(QStringLiteral(CINEFLOW_VERSION)));
  QVERIFY(text.contains(QString::fromLatin1(qVersion())));
}

void TestAcquisitionPanel::quittingWhileAcquiringIsClean() {
  QVERIFY(window_->controller().isRunning());
  window_->resize(1111, 777);
  panel().setOverflowPolicy(OverflowPolicy::Drop);  // a choice the second window must restore
  QTest::qWait(50);
  QElapsedTimer clock;
  clock.start();
  action("quitAction")->trigger();  // closes the window, which saves the settings
  QVERIFY(!window_->isVisible());
  window_.reset();
  const qint64 elapsedMs = clock.elapsed();
  qInfo("quit while acquiring in %lld ms", static_cast<long long>(elapsedMs));
  QVERIFY2(elapsedMs < 10'000, qPrintable(QStringLiteral("took %1 ms").arg(elapsedMs)));
  QVERIFY(QFile::exists(kSettingsPath));
}

void TestAcquisitionPanel::secondWindowRestoresSettings() {
  window_ = std::make_unique<MainWindow>(cineflow::compute::BackendRequest::Cpu);
  window_->setInteractiveErrors(false);
  QCOMPARE(window_->size(), QSize(1111, 777));
  QCOMPARE(window_->controller().config().overflow, OverflowPolicy::Drop);
  QCOMPARE(panel().overflowBox().currentData().toInt(), static_cast<int>(OverflowPolicy::Drop));
  window_->show();
  QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  QVERIFY(window_->cineloopDock().isVisible());
}

void TestAcquisitionPanel::cleanupTestCase() {
  window_.reset();
}

QTEST_MAIN(TestAcquisitionPanel)
#include "test_acquisition_panel.moc"
