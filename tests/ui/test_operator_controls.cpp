// What an operator tripped over, checked as an operator meets it under Xvfb: the grid's Apply
// button stays reachable with the I/Q note shown (and Return in a grid box applies the grid), the
// Start / Stop action follows the engine after a failed open, Freeze toggles and says so.

#include <memory>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFontMetricsF>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QWheelEvent>
#include <QtTest>

#include "acquisition/acquisition_panel.hpp"
#include "bridge/engine_controller.hpp"
#include "common/display_geometry.hpp"
#include "modalities/ultrasound/imaging_panel.hpp"
#include "profiler/status_indicators.hpp"
#include "shell/main_window.hpp"
#include "sim_window.hpp"
#include "support/test_paths.hpp"
#include "view2d/display_controls.hpp"
#include "view2d/image_view.hpp"
#include "view2d/line_profile.hpp"
#include "view2d/profile_plot.hpp"
#include "view2d/profiler_overlay.hpp"

using cineflow::ui::MainWindow;

namespace {

constexpr int kOpenTimeoutMs = 60'000;

QAction* findAction(MainWindow& window, const char* name) {
  return window.findChild<QAction*>(QString::fromLatin1(name));
}

// `widget`'s rectangle in `ancestor`'s coordinates.
QRect rectIn(const QWidget& widget, const QWidget& ancestor) {
  return QRect(widget.mapTo(&ancestor, QPoint(0, 0)), widget.size());
}

// The simulator window once it acquires; null (with a failed check) when it does not.
std::unique_ptr<MainWindow> acquiringSimulatorWindow() {
  auto window = cineflow::test::openSimulatorWindow();
  if (window == nullptr) {
    return nullptr;
  }
  if (!QTest::qWaitFor(
          [&window] { return window->controller().isRunning() || !window->lastError().isEmpty(); },
          kOpenTimeoutMs) ||
      !window->lastError().isEmpty()) {
    QTest::qFail(qPrintable(window->lastError()), __FILE__, __LINE__);
    return nullptr;
  }
  return window;
}

QString describe(const QRect& rect) {
  return QStringLiteral("%1,%2 %3x%4")
      .arg(rect.x())
      .arg(rect.y())
      .arg(rect.width())
      .arg(rect.height());
}

}  // namespace

class TestOperatorControls : public QObject {
  Q_OBJECT

 public:
  static void initMain() { cineflow::test::useFreshSettings("test_operator_controls"); }

 private slots:
  void applyGridStaysReachableWithTheIqNote_data();
  void applyGridStaysReachableWithTheIqNote();
  void runActionFollowsTheEngineAfterAFailedOpen();
  void freezeTogglesAndSaysSo();
  void dropAlertDoesNotShiftThePanel();
  void gainRisesToTheRightAndBrightens();
  void frameRateUpArrowGoesUp();
  void statusBarSaysWhenThePipelineIsBehind();
  void imagingPanelWithoutASourceShowsBlanks();
  void gainComesFromTheNewSource();
  void profilerPanelIsSizedFromItsText();
  void lineProfileReadoutKeepsItsUnits();
  void wheelScrollsThePanelNotTheFieldUnderIt();
  void theImageIsTheLargestThingAtEveryWindowSize();
  void displayRateShowsFromTheFirstFrames();
};

void TestOperatorControls::applyGridStaysReachableWithTheIqNote_data() {
  QTest::addColumn<QSize>("windowSize");
  QTest::newRow("1280 x 860") << QSize(1280, 860);
  QTest::newRow("1920 x 1080") << QSize(1920, 1080);
}

void TestOperatorControls::applyGridStaysReachableWithTheIqNote() {
  QFETCH(QSize, windowSize);
  const std::string path = cineflow::test::datasetFile("verasonics_rotating_disk.h5");
  if (path.empty()) {
    QFAIL("data/verasonics_rotating_disk.h5 is missing from this clone (data/README.md)");
  }
  MainWindow window(cineflow::compute::BackendRequest::Cpu);
  window.setInteractiveErrors(false);
  window.resize(windowSize);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  window.openSource(QString::fromStdString(path), false);
  cineflow::ui::ImagingPanel& imaging =
      window.acquisitionPanel().modalityPanel<cineflow::ui::ImagingPanel>();
  QTRY_VERIFY_WITH_TIMEOUT(imaging.isEnabled() || !window.lastError().isEmpty(), kOpenTimeoutMs);
  QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
  QVERIFY(!imaging.modeNote().isEmpty());  // the I/Q note is shown
  QTest::qWait(50);                        // layouts settle

  QPushButton& apply = imaging.applyGridButton();
  QVERIFY(apply.isVisible());
  // Not clipped by its group: the whole button lies inside the Imaging group.
  const QRect inGroup = rectIn(apply, imaging);
  QVERIFY2(imaging.rect().contains(inGroup),
           qPrintable(describe(inGroup) + QStringLiteral(" outside ") + describe(imaging.rect())));
  // Reachable: scrolled to, it lies inside the dock's visible viewport.
  auto* scroll =
      qobject_cast<QScrollArea*>(window.acquisitionPanel().parentWidget()->parentWidget());
  QVERIFY(scroll != nullptr);
  scroll->ensureWidgetVisible(&apply);
  QTest::qWait(20);
  QVERIFY(scroll->viewport()->rect().contains(rectIn(apply, *scroll->viewport())));

  // Return in a grid box applies the grid.
  QDoubleSpinBox& depthEnd = imaging.depthEndBox();
  const double before = window.controller().imagingParams().grid.z1;
  depthEnd.setFocus();
  depthEnd.setValue(before * 1e3 - 5.0);
  QTest::keyClick(&depthEnd, Qt::Key_Return);
  QTRY_VERIFY(std::abs(window.controller().imagingParams().grid.z1 - depthEnd.value() * 1e-3) <
              1e-9);
  QVERIFY(std::abs(depthEnd.value() * 1e-3 - (before - 5e-3)) < 1e-5);

  // A step below the smallest is refused with the reason, not silently put back; a long reason
  // wraps inside the panel instead of widening the dock.
  // The dock's width is what the operator sees; the panel inside it may lose a scroll bar's
  // width when the reason makes it taller than the dock, but never grows.
  const int dockWidth = scroll->width();
  const int panelWidth = window.acquisitionPanel().width();
  imaging.lateralStepBox().setValue(0.0);
  QCOMPARE(imaging.lateralStepBox().value(), 0.0);
  QTest::mouseClick(&apply, Qt::LeftButton);
  QVERIFY2(imaging.imagingError().contains(QStringLiteral("must be > 0")),
           qPrintable(imaging.imagingError()));
  imaging.lateralStepBox().setValue(0.0001);
  imaging.depthStepBox().setValue(0.0001);
  QTest::mouseClick(&apply, Qt::LeftButton);
  QVERIFY2(imaging.imagingError().contains(QStringLiteral("M pixels")),
           qPrintable(imaging.imagingError()));
  QTest::qWait(50);
  QCOMPARE(scroll->width(), dockWidth);
  QVERIFY2(window.acquisitionPanel().width() <= panelWidth,
           qPrintable(QStringLiteral("the panel widened from %1 to %2 px")
                          .arg(panelWidth)
                          .arg(window.acquisitionPanel().width())));
  scroll->ensureWidgetVisible(&apply);
  QTest::qWait(20);
  QVERIFY(scroll->viewport()->rect().contains(rectIn(apply, *scroll->viewport())));
}

void TestOperatorControls::runActionFollowsTheEngineAfterAFailedOpen() {
  const auto window = acquiringSimulatorWindow();
  QVERIFY(window);
  QAction* run = findAction(*window, "runAction");
  QVERIFY(run != nullptr);
  QVERIFY(run->isEnabled());

  const QString notHdf5 =
      QString::fromStdString(cineflow::test::artefactPath("operator_controls_not_hdf5.h5"));
  {
    QFile file(notHdf5);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not an HDF5 file\n");
  }
  window->openSource(notHdf5);
  QTRY_VERIFY_WITH_TIMEOUT(!window->lastError().isEmpty(), kOpenTimeoutMs);
  QVERIFY(!window->controller().isOpening());
  // The simulator still runs: Stop (Space) must stop it.
  QVERIFY(window->controller().isRunning());
  QVERIFY(run->isEnabled());
  QCOMPARE(run->text(), QStringLiteral("Stop"));
  run->trigger();
  QVERIFY(!window->controller().isRunning());
  QVERIFY(run->isEnabled());
  run->trigger();
  QVERIFY(window->controller().isRunning());
}

void TestOperatorControls::freezeTogglesAndSaysSo() {
  const auto window = acquiringSimulatorWindow();
  QVERIFY(window);
  QAction* freeze = findAction(*window, "freezeAction");
  QVERIFY(freeze != nullptr);
  QVERIFY(!window->view().isFrozen());

  freeze->trigger();
  QVERIFY(!window->controller().isRunning());
  QVERIFY(window->view().isFrozen());  // the view's FROZEN badge
  QVERIFY(freeze->isEnabled());        // F toggles back
  QVERIFY(freeze->isChecked());
  auto* state = window->findChild<QLabel*>(QStringLiteral("acquisitionState"));
  QVERIFY(state != nullptr);
  QVERIFY2(state->text().contains(QStringLiteral("Frozen")), qPrintable(state->text()));

  freeze->trigger();  // unfreeze: live again
  QVERIFY(window->controller().isRunning());
  QVERIFY(!window->view().isFrozen());
  QVERIFY(!freeze->isChecked());
  QVERIFY2(state->text().contains(QStringLiteral("Live")), qPrintable(state->text()));

  // Stopped is not frozen.
  findAction(*window, "runAction")->trigger();
  QVERIFY(!window->controller().isRunning());
  QVERIFY(!window->view().isFrozen());
  QVERIFY2(state->text().contains(QStringLiteral("Stopped")), qPrintable(state->text()));
}

void TestOperatorControls::dropAlertDoesNotShiftThePanel() {
  cineflow::ui::EngineController controller(cineflow::compute::BackendRequest::Cpu);
  cineflow::ui::AcquisitionPanel panel(controller);
  panel.resize(360, 900);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  const QWidget& imaging = panel.modalityPanel<cineflow::ui::ImagingPanel>();
  QTest::qWait(20);
  const int before = imaging.mapTo(&panel, QPoint(0, 0)).y();
  QVERIFY(!panel.droppedAlert().isVisible());

  cineflow::pipeline::EngineStats stats;
  stats.dropped = 12;
  emit controller.statsUpdated(stats);
  QVERIFY(panel.droppedAlert().isVisible());
  QTest::qWait(20);
  QCOMPARE(imaging.mapTo(&panel, QPoint(0, 0)).y(), before);
  stats.dropped = 123456;  // a longer count
  emit controller.statsUpdated(stats);
  QTest::qWait(20);
  QCOMPARE(imaging.mapTo(&panel, QPoint(0, 0)).y(), before);
}

void TestOperatorControls::gainRisesToTheRightAndBrightens() {
  cineflow::ui::DisplayControls controls;
  controls.show();
  QVERIFY(QTest::qWaitForWindowExposed(&controls));
  controls.setSuggestedGain(83.0, 80.0, 40.0);
  auto* slider = controls.findChild<QSlider*>(QStringLiteral("gainSlider"));
  QVERIFY(slider != nullptr);
  const auto handleX = [slider] {
    QStyleOptionSlider option;
    option.initFrom(slider);
    option.orientation = slider->orientation();
    option.minimum = slider->minimum();
    option.maximum = slider->maximum();
    option.sliderPosition = slider->sliderPosition();
    option.sliderValue = slider->value();
    option.upsideDown = slider->invertedAppearance();
    return slider->style()
        ->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, slider)
        .center()
        .x();
  };
  QCOMPARE(controls.relativeGainDb(), 0.0);  // the suggested level reads +0 dB
  QVERIFY(!slider->invertedAppearance());    // the fill is on the left of the handle
  slider->setValue(slider->minimum());
  const int leftX = handleX();
  const double leftWhite = controls.gainDb();
  const double leftGain = controls.relativeGainDb();
  slider->setValue(slider->maximum());
  QVERIFY(handleX() > leftX);                     // more value to the right
  QVERIFY(controls.gainDb() < leftWhite);         // a lower white level: brighter
  QVERIFY(controls.relativeGainDb() > leftGain);  // and the label says more gain
  auto* label = controls.findChild<QLabel*>(QStringLiteral("gainValue"));
  QVERIFY(label != nullptr);
  QCOMPARE(label->text(), QStringLiteral("+80 dB"));
}

void TestOperatorControls::frameRateUpArrowGoesUp() {
  const std::string path = cineflow::test::datasetFile("verasonics_rotating_disk.h5");
  if (path.empty()) {
    QFAIL("data/verasonics_rotating_disk.h5 is missing from this clone (data/README.md)");
  }
  cineflow::ui::EngineController controller(cineflow::compute::BackendRequest::Cpu);
  cineflow::ui::AcquisitionPanel panel(controller);
  panel.show();
  controller.open(QString::fromStdString(path), false);
  QTRY_VERIFY_WITH_TIMEOUT(controller.hasSource(), kOpenTimeoutMs);
  const double source = controller.sourceFrameRateHz();
  QVERIFY(source > 0.0);
  QDoubleSpinBox& rate = panel.frameRateBox();
  QCOMPARE(rate.value(), 0.0);  // the source's rate
  rate.stepUp();
  QVERIFY2(rate.value() > source, qPrintable(rate.text()));
  rate.stepDown();  // back onto the source's rate
  QCOMPARE(rate.value(), 0.0);
  rate.stepDown();
  QVERIFY2(rate.value() > 0.0 && rate.value() < source, qPrintable(rate.text()));
}

void TestOperatorControls::statusBarSaysWhenThePipelineIsBehind() {
  MainWindow window(cineflow::compute::BackendRequest::Cpu);
  window.setInteractiveErrors(false);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  cineflow::pipeline::EngineStats stats;
  stats.state = cineflow::pipeline::EngineState::Running;
  stats.ringSlots = 8;
  stats.ringOccupancy = 1;
  stats.latency.lastMs = 120.0;
  emit window.controller().statsUpdated(stats);
  const cineflow::ui::StatusIndicators& status = window.statusIndicators();
  QVERIFY2(!status.behindAlertShown(), qPrintable(status.latencyText()));
  QVERIFY2(status.latencyText().contains(QStringLiteral("1/8")), qPrintable(status.latencyText()));

  // Block mode with the ring full: the source waits and the image lags by 0.8 s.
  stats.ringOccupancy = 8;
  stats.latency.lastMs = 800.0;
  emit window.controller().statsUpdated(stats);
  QVERIFY(status.behindAlertShown());
  QVERIFY2(status.latencyText().contains(QStringLiteral("behind")) &&
               status.latencyText().contains(QStringLiteral("8/8")) &&
               status.latencyText().contains(QStringLiteral("800 ms")),
           qPrintable(status.latencyText()));
  auto* label = window.findChild<QLabel*>(QStringLiteral("latencyLabel"));
  QVERIFY(label != nullptr && label->isVisible());
}

void TestOperatorControls::imagingPanelWithoutASourceShowsBlanks() {
  cineflow::ui::EngineController controller(cineflow::compute::BackendRequest::Cpu);
  cineflow::ui::AcquisitionPanel panel(controller);
  panel.show();
  cineflow::ui::ImagingPanel& imaging = panel.modalityPanel<cineflow::ui::ImagingPanel>();
  QVERIFY(!imaging.isEnabled());
  for (const QDoubleSpinBox* box :
       {&imaging.fNumberBox(), &imaging.depthStartBox(), &imaging.depthEndBox(),
        &imaging.depthStepBox(), &imaging.lateralStartBox(), &imaging.lateralEndBox(),
        &imaging.lateralStepBox(), &imaging.iqBandwidthBox()}) {
    QVERIFY2(box->text().trimmed().isEmpty(),
             qPrintable(box->objectName() + QStringLiteral(": ") + box->text()));
  }
}

void TestOperatorControls::gainComesFromTheNewSource() {
  const std::string path = cineflow::test::datasetFile("verasonics_rotating_disk.h5");
  if (path.empty()) {
    QFAIL("data/verasonics_rotating_disk.h5 is missing from this clone (data/README.md)");
  }
  auto window = cineflow::test::openSimulatorWindow();
  QVERIFY(window);
  QTRY_VERIFY_WITH_TIMEOUT(window->view().framesDisplayed() > 0 || !window->lastError().isEmpty(),
                           kOpenTimeoutMs);
  QVERIFY2(window->lastError().isEmpty(), qPrintable(window->lastError()));
  const double simulatorGain = window->displayControls().gainDb();

  // The simulator runs on while the file opens: the gain must come from the file's frames.
  window->openSource(QString::fromStdString(path));
  const auto fromFile = [&window] {
    const auto& frame = window->view().displayedFrame();
    return frame && frame->geometry.nx == window->controller().imagingParams().grid.nx() &&
           frame->geometry.nz == window->controller().imagingParams().grid.nz() &&
           window->controller().sourceDescription().contains(QStringLiteral("verasonics"));
  };
  QTRY_VERIFY_WITH_TIMEOUT(fromFile() || !window->lastError().isEmpty(), kOpenTimeoutMs);
  QVERIFY2(window->lastError().isEmpty(), qPrintable(window->lastError()));
  const double fileGain = cineflow::ui::suggestGainDb(window->view().displayedFrame()->pixels);
  qInfo("suggested gain: simulator %.1f dB, file %.1f dB, set %.1f dB", simulatorGain, fileGain,
        window->displayControls().gainDb());
  QVERIFY(std::abs(window->displayControls().gainDb() - fileGain) < 3.0);
  QCOMPARE(window->displayControls().relativeGainDb(), 0.0);
}

void TestOperatorControls::profilerPanelIsSizedFromItsText() {
  cineflow::ui::ProfilerSnapshot snapshot;
  for (const char* name : {"upload", "bandpass", "beamform", "envelope", "log"}) {
    cineflow::pipeline::StageStats stage;
    stage.name = name;
    stage.lastMs = stage.medianMs = stage.p99Ms = stage.maxMs = 123.456;
    snapshot.stages.push_back(stage);
  }
  snapshot.latency.name = "latency";
  snapshot.timeline.resize(120);
  snapshot.memoryTotalGiB = 23.5;
  snapshot.memoryUsedGiB = 3.63;
  snapshot.overlayMs = 0.12;
  snapshot.overlayRenderMs = 1.3;
  const QString longestFooter =
      QStringLiteral("last 120 frames by stage · overlay 0.12 ms/frame, 1.3 ms/update");
  for (const int areaWidth : {1920, 700, 360}) {
    QImage image(areaWidth, 600, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    const QFont font = QApplication::font();
    painter.setFont(font);
    const QRectF area(0, 24, areaWidth, 576);
    const QRectF panel = cineflow::ui::paintProfiler(painter, area, snapshot);
    QVERIFY2(area.contains(panel), qPrintable(QStringLiteral("%1 px: panel %2 wide at %3")
                                                  .arg(areaWidth)
                                                  .arg(panel.width())
                                                  .arg(panel.left())));
    if (areaWidth == 1920) {
      // The default size: nothing shrinks, so the names and the last footer line fit as they are.
      const QFontMetricsF metrics(font);
      QVERIFY2(panel.width() >= metrics.horizontalAdvance(longestFooter) + 16,
               qPrintable(QString::number(panel.width())));
      QVERIFY(panel.width() >= metrics.height() + metrics.horizontalAdvance("bandpass") + 8 +
                                   6 * metrics.horizontalAdvance(" 123.5") + 16);
      QVERIFY(panel.height() >=
              24 + (1 + 5 + 1 + 3) * metrics.height());  // every row, the last one included
    }
  }
}

void TestOperatorControls::lineProfileReadoutKeepsItsUnits() {
  cineflow::ui::LineProfile profile;
  profile.distanceM = {0.0, 1e-3, 2e-3, 3e-3};
  profile.db = {-40.0, -12.3, -20.0, -45.0};
  profile.peakDb = -12.3;
  profile.peakDistanceM = 12.34e-3;
  profile.widthM = 1.23e-3;
  QImage image(400, 400, QImage::Format_ARGB32_Premultiplied);
  QPainter painter(&image);
  painter.setFont(QApplication::font());
  const QFontMetricsF metrics(painter.font());
  // A narrow image: 60 % of it would cut "mm" off the readout.
  const QRectF imageRect(10, 10, 220, 380);
  const QRectF plot =
      cineflow::ui::paintLineProfile(painter, imageRect, {20, 20}, {200, 300}, profile);
  for (const QString& line : cineflow::ui::describeProfile(profile).split(QStringLiteral(" · "))) {
    QVERIFY2(plot.width() >= metrics.horizontalAdvance(line) + 12,
             qPrintable(QStringLiteral("%1 in %2 px").arg(line).arg(plot.width())));
  }
  QVERIFY(imageRect.contains(plot));
}

void TestOperatorControls::wheelScrollsThePanelNotTheFieldUnderIt() {
  auto window = acquiringSimulatorWindow();
  QVERIFY(window);
  window->resize(1280, 800);  // a laptop screen: the Acquisition dock scrolls
  QTest::qWait(50);
  auto* scroll =
      qobject_cast<QScrollArea*>(window->acquisitionPanel().parentWidget()->parentWidget());
  QVERIFY(scroll != nullptr);
  QVERIFY2(scroll->verticalScrollBar()->maximum() > 0, "the dock does not scroll at 1280 x 800");
  scroll->verticalScrollBar()->setValue(0);
  cineflow::ui::ImagingPanel& imaging =
      window->acquisitionPanel().modalityPanel<cineflow::ui::ImagingPanel>();
  QDoubleSpinBox& depthStart = imaging.depthStartBox();
  scroll->ensureWidgetVisible(&depthStart);
  const int scrolledTo = scroll->verticalScrollBar()->value();
  QVERIFY(scrolledTo < scroll->verticalScrollBar()->maximum());  // room left to scroll down
  window->activateWindow();
  window->view().setFocus();  // the field is not focused
  QVERIFY(!depthStart.hasFocus());

  const double before = depthStart.value();
  const auto wheelDown = [&depthStart] {
    const QPointF centre = QRectF(depthStart.rect()).center();
    QWheelEvent wheel(centre, depthStart.mapToGlobal(centre), QPoint(), QPoint(0, -120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&depthStart, &wheel);
  };
  wheelDown();
  QCOMPARE(depthStart.value(), before);                        // the field kept its value ...
  QVERIFY2(scroll->verticalScrollBar()->value() > scrolledTo,  // ... and the dock scrolled
           qPrintable(QString::number(scroll->verticalScrollBar()->value())));
  QVERIFY(!depthStart.hasFocus());

  // Clicked into, the field takes the wheel: one step down.
  depthStart.setFocus();
  QTRY_VERIFY(depthStart.hasFocus());
  wheelDown();
  QCOMPARE(depthStart.value(), before - depthStart.singleStep());
}

// The live image is what the operator came for: at 1280 x 800 and 1920 x 1080 it takes more of
// the window than any dock, and at least a quarter of it (it had a 250-pixel column at 1280 x 860
// while the volume docks took half the window).
void TestOperatorControls::theImageIsTheLargestThingAtEveryWindowSize() {
  const auto window = acquiringSimulatorWindow();
  QVERIFY(window);
  for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
    window->resize(size);
    QTest::qWait(300);  // the layout settles
    const QSize actual = window->size();
    const double windowArea = double(actual.width()) * actual.height();
    const QWidget& view = window->view();
    const double viewArea = double(view.width()) * view.height();
    for (const QDockWidget* dock : window->findChildren<QDockWidget*>()) {
      // A tabbed dock behind another's tab counts as visible but lies outside the window.
      if (!dock->isVisible() || dock->visibleRegion().isEmpty()) {
        continue;
      }
      const double dockArea = double(dock->width()) * dock->height();
      QVERIFY2(viewArea > dockArea, qPrintable(QString("%1 x %2: the %3 dock (%4 x %5) is larger "
                                                       "than the image (%6 x %7)")
                                                   .arg(size.width())
                                                   .arg(size.height())
                                                   .arg(dock->windowTitle())
                                                   .arg(dock->width())
                                                   .arg(dock->height())
                                                   .arg(view.width())
                                                   .arg(view.height())));
    }
    qInfo("%d x %d: the image has %.0f %% of the window", actual.width(), actual.height(),
          100.0 * viewArea / windowArea);
    QVERIFY2(viewArea >= 0.25 * windowArea,
             qPrintable(QString("%1 x %2: the image has %3 % of the window")
                            .arg(actual.width())
                            .arg(actual.height())
                            .arg(100.0 * viewArea / windowArea)));
  }
}

// The status bar's display rate is right from the first painted frames: it read "disp 0.0 fps"
// for the first second while frames were on screen. Every statistics update after the second
// painted frame must show a rate above zero; before that it shows a dash, never a zero.
void TestOperatorControls::displayRateShowsFromTheFirstFrames() {
  auto window = cineflow::test::openSimulatorWindow();
  QVERIFY(window);
  QStringList texts;
  int checked = 0;
  bool zeroWhileShowing = false;
  QObject::connect(&window->controller(), &cineflow::ui::EngineController::statsUpdated,
                   window.get(), [&] {
                     // After the indicators have taken this update (they connected first).
                     const QString text = window->statusIndicators().ratesText();
                     texts << text;
                     if (window->view().framesDisplayed() >= 3) {
                       ++checked;
                       zeroWhileShowing |= text.contains(QStringLiteral("disp 0.0 fps"));
                     }
                   });
  QTRY_VERIFY_WITH_TIMEOUT(checked >= 3, 60'000);
  qInfo("%s", qPrintable(texts.join(QStringLiteral(" | "))));
  QVERIFY2(!zeroWhileShowing, qPrintable(texts.join(QStringLiteral(" | "))));
  QVERIFY(window->statusIndicators().displayFps() > 0);
}

QTEST_MAIN(TestOperatorControls)
#include "test_operator_controls.moc"
