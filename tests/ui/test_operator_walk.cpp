// What an operator tripped over on the second walk, checked as an operator meets it under Xvfb:
// the toolbar holds the preset picker at 1280 px; the transport keys work after a click on Stop
// (which leaves no box focused), after a click on the image, and not while a value is being typed;
// the MIP panels give their pixels to the projections (no rulers, thin ones stretched on request)
// at levels of their own.

#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QPushButton>
#include <QSlider>
#include <QStandardItemModel>
#include <QToolBar>
#include <QtTest>

#include "acquisition/acquisition_panel.hpp"
#include "bridge/engine_controller.hpp"
#include "cineloop/cineloop_panel.hpp"
#include "common/display_geometry.hpp"
#include "export/frame_picture.hpp"
#include "modalities/ultrasound/imaging_panel.hpp"
#include "modality/modality.hpp"
#include "pipeline/engine.hpp"
#include "shell/main_window.hpp"
#include "shell/presets.hpp"
#include "sim_window.hpp"
#include "ultrasound/flow_phantom.hpp"
#include "ultrasound/imaging_params.hpp"
#include "view2d/depth_gain_controls.hpp"
#include "view2d/display_controls.hpp"
#include "view2d/flow_display.hpp"
#include "view2d/image_view.hpp"
#include "volumes/mip_triptych.hpp"
#include "volumes/volume_review_panel.hpp"

using cineflow::ui::MainWindow;
using cineflow::ui::MipTriptych;

namespace {

constexpr int kTimeoutMs = 60'000;

bool running(MainWindow& window) {
  return window.controller().isRunning();
}

// The window acquiring from the simulator; null (with a failed check) when it does not.
std::unique_ptr<MainWindow> acquiringWindow() {
  auto window = cineflow::test::openSimulatorWindow();
  if (window == nullptr) {
    return nullptr;
  }
  // Window-wide shortcuts need the window to be the active one; Xvfb has no window manager to
  // activate it.
  window->activateWindow();
  QApplication::setActiveWindow(window.get());
  if (!QTest::qWaitFor([&] { return QApplication::activeWindow() == window.get(); })) {
    QTest::qFail("the window did not become active", __FILE__, __LINE__);
    return nullptr;
  }
  if (!QTest::qWaitFor([&] { return window->view().framesDisplayed() >= 2; }, kTimeoutMs)) {
    QTest::qFail("the simulator showed no frame", __FILE__, __LINE__);
    return nullptr;
  }
  return window;
}

// A key as the operator types it: to whatever has the focus, through the window's shortcuts.
void type(Qt::Key key) {
  QWidget* focus = QApplication::focusWidget();
  QVERIFY(focus != nullptr);
  QTest::keyClick(focus, key);
}

}  // namespace

class TestOperatorWalk : public QObject {
  Q_OBJECT

 public:
  static void initMain() { cineflow::test::useFreshSettings("test_operator_walk"); }

 private slots:
  void theToolbarHoldsThePresetPickerAt1280();
  void transportKeysWorkWhereverTheFocusWasLeft();
  void aValueBeingTypedKeepsItsKeys();
  void mipPanelsGiveTheirPixelsToTheProjections();
  void aVolumeKeepsItsLevelsWhileAnotherModalityIsLive();
  void aLiveSourceStaysLiveAReplayImagesEveryFrame();
  void aSavedLayoutThatLeavesTheImageACornerGivesWay();
  void dopplerIsOfferedWhereItRunsAndShowsTheVessel();
  void aPointTargetInAnEmptyFieldIsNotClipped();
  void depthGainBrightensTheDeepRowsOnlyOnScreenInExportsAndInPresets();
};

void TestOperatorWalk::theToolbarHoldsThePresetPickerAt1280() {
  auto window = std::make_unique<MainWindow>(cineflow::test::guiTestBackend());
  window->resize(1280, 800);
  window->show();
  QVERIFY(QTest::qWaitForWindowExposed(window.get()));
  auto* preset = window->findChild<QComboBox*>(QStringLiteral("presetBox"));
  QVERIFY(preset != nullptr);
  QTRY_VERIFY(preset->isVisible());
  auto* toolBar = qobject_cast<QToolBar*>(preset->parentWidget());
  QVERIFY(toolBar != nullptr);
  const QRect box(preset->mapTo(window.get(), QPoint(0, 0)), preset->size());
  QVERIFY2(box.right() < window->width(),
           qPrintable(QStringLiteral("the preset picker ends at x %1 in a window %2 px wide")
                          .arg(box.right())
                          .arg(window->width())));
  QVERIFY(preset->width() >= preset->fontMetrics().horizontalAdvance(QStringLiteral("Carotid")));
}

void TestOperatorWalk::transportKeysWorkWhereverTheFocusWasLeft() {
  auto window = acquiringWindow();
  QVERIFY(window != nullptr);
  QTRY_VERIFY_WITH_TIMEOUT(running(*window), kTimeoutMs);
  // Clicking Stop leaves the focus where it was, never in the box after the button, and Space
  // starts again.
  window->view().setFocus();
  auto* stop = window->acquisitionPanel().findChild<QPushButton*>(QStringLiteral("stopButton"));
  QVERIFY(stop != nullptr);
  QTest::mouseClick(stop, Qt::LeftButton);
  QTRY_VERIFY(!running(*window));
  QVERIFY(qobject_cast<QAbstractSpinBox*>(QApplication::focusWidget()) == nullptr);
  type(Qt::Key_Space);
  QTRY_VERIFY_WITH_TIMEOUT(running(*window), kTimeoutMs);

  // A box left focused by a click, with nothing typed, does not swallow the keys: F freezes, Left
  // steps the cineloop back.
  auto* rate =
      window->acquisitionPanel().findChild<QDoubleSpinBox*>(QStringLiteral("frameRateBox"));
  QVERIFY(rate != nullptr);
  QTest::mouseClick(rate, Qt::LeftButton, Qt::NoModifier, QPoint(10, rate->height() / 2));
  QTRY_COMPARE(QApplication::focusWidget(), rate);
  QTRY_VERIFY(window->controller().engine().stats().processed >= 4);  // of this run
  type(Qt::Key_F);
  // Frozen: the review shows the newest kept frame.
  cineflow::ui::CineloopPanel& review = window->cineloopPanel();
  QTRY_VERIFY(!running(*window) && window->view().isFrozen() && review.currentSequence() &&
              window->view().displayedFrame()->header.sequence == *review.currentSequence());
  const auto before = *review.currentSequence();
  QVERIFY(before >= 1);
  type(Qt::Key_Left);
  QTRY_VERIFY(window->view().displayedFrame()->header.sequence < before);

  // A click on the image takes the focus; Space there toggles too (F unfreezes, Space stops).
  QTest::mouseClick(&window->view(), Qt::LeftButton, Qt::NoModifier,
                    window->view().rect().center());
  QTRY_COMPARE(QApplication::focusWidget(), &window->view());
  type(Qt::Key_F);
  QTRY_VERIFY_WITH_TIMEOUT(running(*window), kTimeoutMs);
  type(Qt::Key_Space);
  QTRY_VERIFY(!running(*window));
}

void TestOperatorWalk::aValueBeingTypedKeepsItsKeys() {
  auto window = acquiringWindow();
  QVERIFY(window != nullptr);
  QTRY_VERIFY_WITH_TIMEOUT(running(*window), kTimeoutMs);
  auto* rate =
      window->acquisitionPanel().findChild<QDoubleSpinBox*>(QStringLiteral("frameRateBox"));
  QVERIFY(rate != nullptr);
  rate->setFocus();
  rate->selectAll();
  QTest::keyClick(rate, Qt::Key_1);
  QTest::keyClick(rate, Qt::Key_Left);  // moves the text cursor: the cineloop is not stepped  //
                                        // moves the text cursor: the cineloop is not stepped
  QTest::keyClick(rate, Qt::Key_Space);
  QVERIFY(running(*window));  // Space went to the box, not to Start / Stop
  QCOMPARE(QApplication::focusWidget(), rate);
  // Return takes the value: the box no longer keeps the keys, and Space stops.
  QTest::keyClick(rate, Qt::Key_Return);
  type(Qt::Key_Space);
  QTRY_VERIFY(!running(*window));
}

void TestOperatorWalk::mipPanelsGiveTheirPixelsToTheProjections() {
  auto window = cineflow::test::openSimulatorWindow();
  QVERIFY(window != nullptr);
  QVERIFY(cineflow::test::waitForFirstVolume(*window, kTimeoutMs));
  MipTriptych& mips = window->liveMips();
  cineflow::ui::ImageView& enFace = mips.view(MipTriptych::Axis::Z);
  QTRY_VERIFY_WITH_TIMEOUT(enFace.displayedFrame() != nullptr, kTimeoutMs);
  QVERIFY(enFace.compact());
  const cineflow::process::ImageGeometry geometry = enFace.displayedFrame()->geometry;
  const double aspect = (geometry.nx * geometry.dx) / (geometry.nz * geometry.dz);
  QVERIFY2(aspect > cineflow::ui::ImageView::kThinAspect,
           "the simulator's sweep is thin: its en-face projection is a strip");
  // Physical proportions: the image's aspect is the projection's, to a pixel.
  QRectF image = enFace.imageRectInWidget();
  QVERIFY(!image.isEmpty());
  QVERIFY(std::abs(image.width() / image.height() - aspect) < aspect / image.height() + 0.05);
  // No rulers: the image spans the panel's width but for the compact margins.
  QVERIFY(image.width() >= enFace.width() - 16 || image.height() >= enFace.height() - 30);
  // Stretched: it fills the panel.
  mips.stretchBox().setChecked(true);
  image = enFace.imageRectInWidget();
  QVERIFY(image.height() >= enFace.height() - 30);
  QVERIFY(image.width() >= enFace.width() - 10);
  // The projection through the slab (not thin) keeps its proportions even so.
  cineflow::ui::ImageView& slab = mips.view(MipTriptych::Axis::Y);
  QTRY_VERIFY(slab.displayedFrame() != nullptr);
  const auto& g = slab.displayedFrame()->geometry;
  const QRectF slabImage = slab.imageRectInWidget();
  QVERIFY(std::abs(slabImage.width() / slabImage.height() - (g.nx * g.dx) / (g.nz * g.dz)) < 0.05);

  // Own levels: a projection's white level is its own suggestion, moved by the operator's
  // relative gain, not the live image's absolute level.
  QTRY_VERIFY(!enFace.displayedFrame()->pixels.empty());
  const auto ownWhite = [&] {
    return cineflow::ui::suggestGainDb(enFace.displayedFrame()->pixels) -
           window->displayControls().relativeGainDb();
  };
  QTRY_COMPARE(enFace.gainDb(), ownWhite());
  window->displayControls().setGainDb(window->displayControls().gainDb() - 6);  // 6 dB brighter
  QTRY_COMPARE(enFace.gainDb(), ownWhite());
  QVERIFY(enFace.ownLevel() && !window->view().ownLevel());
}

// The share of `frame`'s pixels at or above `whiteDb` (white) and at or above whiteDb - rangeDb
// (anything but black).
std::pair<double, double> whiteAndLit(const cineflow::ui::Image& frame, double whiteDb,
                                      double rangeDb) {
  std::size_t white = 0, lit = 0;
  for (const float db : frame.pixels) {
    white += db >= whiteDb ? 1 : 0;
    lit += db >= whiteDb - rangeDb ? 1 : 0;
  }
  const auto n = static_cast<double>(frame.pixels.size());
  return {static_cast<double>(white) / n, static_cast<double>(lit) / n};
}

void TestOperatorWalk::aVolumeKeepsItsLevelsWhileAnotherModalityIsLive() {
  auto window = cineflow::test::openSimulatorWindow();
  QVERIFY(window != nullptr);
  QVERIFY(cineflow::test::waitForFirstVolume(*window, kTimeoutMs));
  cineflow::ui::VolumeReviewPanel& panel = window->volumeReviewPanel();
  auto* buffer = panel.findChild<QPushButton*>(QStringLiteral("bufferButton"));
  QVERIFY(buffer != nullptr);
  QTest::mouseClick(buffer, Qt::LeftButton);
  QTRY_COMPARE(panel.list().count(), 1);
  const double ultrasoundWhite = window->view().gainDb();

  // An OCT source goes live: the live view takes OCT's levels.
  window->openSource(QStringLiteral("oct-sim"));
  QTRY_VERIFY_WITH_TIMEOUT(
      window->controller().source() != nullptr &&
          QString::fromLatin1(window->controller().source()->modality().name()) ==
              QStringLiteral("oct") &&
          window->view().framesDisplayed() > 0,
      kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(std::abs(window->view().gainDb() - ultrasoundWhite) > 1, kTimeoutMs);
  QVERIFY(panel.select(*panel.selectedId()));
  // The ultrasound volume's slice and projection are shown at their own levels: neither white
  // nor black, whatever OCT's levels are.
  for (cineflow::ui::ImageView* view : {&panel.view(), &panel.mips().view(MipTriptych::Axis::Y)}) {
    QTRY_VERIFY(view->displayedFrame() != nullptr && !view->displayedFrame()->pixels.empty());
    QVERIFY(view->ownLevel());
    const auto [white, lit] =
        whiteAndLit(*view->displayedFrame(), view->gainDb(), view->dynamicRangeDb());
    QVERIFY2(white < 0.5 && lit > 0.2, qPrintable(QStringLiteral("%1: %2 % white, %3 % lit")
                                                      .arg(view->objectName())
                                                      .arg(white * 100)
                                                      .arg(lit * 100)));
  }
  // So is its thumbnail in the list.
  const QImage icon = panel.list().item(0)->icon().pixmap(64, 64).toImage().convertToFormat(
      QImage::Format_Grayscale8);
  QVERIFY(!icon.isNull());
  double sum = 0;
  for (int y = 0; y < icon.height(); ++y) {
    for (int x = 0; x < icon.width(); ++x) {
      sum += qGray(icon.pixel(x, y));
    }
  }
  const double mean = sum / (icon.width() * icon.height());
  QVERIFY2(mean > 10 && mean < 200, qPrintable(QStringLiteral("thumbnail mean %1").arg(mean)));
}

void TestOperatorWalk::aLiveSourceStaysLiveAReplayImagesEveryFrame() {
  using cineflow::pipeline::OverflowPolicy;
  auto window = cineflow::test::openSimulatorWindow();  // fresh settings: the policy is Auto
  QVERIFY(window != nullptr);
  cineflow::ui::EngineController& controller = window->controller();
  QTRY_VERIFY_WITH_TIMEOUT(controller.source() != nullptr, kTimeoutMs);
  QVERIFY(controller.overflowAuto() && controller.sourceIsLive());
  QCOMPARE(controller.config().overflow, OverflowPolicy::Latest);
  auto& box = window->acquisitionPanel().overflowBox();
  QCOMPARE(box.currentText(), QStringLiteral("Auto"));
  // Under way, the display keeps up: the newest frames are imaged, the others counted as not
  // imaged, nothing dropped (every frame reached the raw-frame tap, a recording).
  QTRY_VERIFY_WITH_TIMEOUT(controller.engine().stats().processed >= 10, kTimeoutMs);
  QCOMPARE(controller.engine().stats().dropped, std::uint64_t(0));

  // A replay: every frame imaged.
  window->openSource(QString::fromStdString(cineflow::test::datasetFile("field2_pw3_points.h5")));
  QTRY_VERIFY_WITH_TIMEOUT(!controller.sourceIsLive() && controller.source() != nullptr,
                           kTimeoutMs);
  QCOMPARE(controller.config().overflow, OverflowPolicy::Block);

  // The operator's own choice holds whatever opens next.
  box.setCurrentIndex(box.findData(static_cast<int>(OverflowPolicy::Drop)));
  QVERIFY(!controller.overflowAuto());
  window->openSource(QStringLiteral("sim"));
  QTRY_VERIFY_WITH_TIMEOUT(controller.sourceIsLive(), kTimeoutMs);
  QCOMPARE(controller.config().overflow, OverflowPolicy::Drop);
  // And Auto again follows the source.
  box.setCurrentIndex(0);
  QCOMPARE(controller.config().overflow, OverflowPolicy::Latest);
}

void TestOperatorWalk::aSavedLayoutThatLeavesTheImageACornerGivesWay() {
  {
    // Docks sized on a larger screen, saved as the window closes.
    MainWindow first(cineflow::test::guiTestBackend());
    first.resize(1400, 900);
    first.show();
    QVERIFY(QTest::qWaitForWindowExposed(&first));
    auto* acquisition = first.findChild<QDockWidget*>(QStringLiteral("acquisitionDock"));
    QVERIFY(acquisition != nullptr);
    first.resizeDocks({acquisition}, {1100}, Qt::Horizontal);
    QTRY_VERIFY2(first.view().width() < first.width() / 3,
                 qPrintable(QStringLiteral("view %1 px wide").arg(first.view().width())));
    first.close();
  }
  MainWindow second(cineflow::test::guiTestBackend());
  second.show();
  QVERIFY(QTest::qWaitForWindowExposed(&second));
  const QRect available = second.screen()->availableGeometry();
  QTRY_VERIFY(second.view().height() >= second.height() / 3 &&
              second.view().width() >= second.width() / 3);
  QVERIFY(second.width() <= available.width() && second.height() <= available.height());
}

// The volume simulator's frames are a sweep's slices: the Doppler modes are greyed, saying why, not
// offered and then refused. The flow simulator offers them, and colour Doppler at the defaults
// (suggested gain, 60 dB range, the default threshold) shows the vessel: flow over at least 80 %
// of its core (half its radius around the axis, where blood moves at 0.3-0.4 m/s) and over at
// most 5 % of the static tissue (1.5 mm clear of the vessel and the disk). Regions from the
// phantom's own geometry (FlowPhantomConfig), not from the image.
void TestOperatorWalk::dopplerIsOfferedWhereItRunsAndShowsTheVessel() {
  using cineflow::ultrasound::ImagingMode;
  auto window = acquiringWindow();
  QVERIFY(window);
  auto& imaging = window->acquisitionPanel().modalityPanel<cineflow::ui::ImagingPanel>();
  auto* model = qobject_cast<QStandardItemModel*>(imaging.modeBox().model());
  QVERIFY(model != nullptr);
  const auto item = [&](ImagingMode mode) {
    return model->item(imaging.modeBox().findData(static_cast<int>(mode)));
  };
  for (const ImagingMode mode : {ImagingMode::ColourDoppler, ImagingMode::PowerDoppler}) {
    QVERIFY(!item(mode)->isEnabled());
    QVERIFY2(item(mode)->toolTip().contains(QStringLiteral("volume sweep")),
             qPrintable(item(mode)->toolTip()));
  }

  window->controller().open(QStringLiteral("sim-flow"));
  QTRY_VERIFY_WITH_TIMEOUT(window->controller().engine().framesPerVolume() == 0, kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(running(*window), kTimeoutMs);
  for (const ImagingMode mode : {ImagingMode::ColourDoppler, ImagingMode::PowerDoppler}) {
    QTRY_VERIFY2(item(mode)->isEnabled(), qPrintable(item(mode)->toolTip()));
  }
  imaging.modeBox().setCurrentIndex(
      imaging.modeBox().findData(static_cast<int>(ImagingMode::ColourDoppler)));
  QVERIFY2(imaging.imagingError().isEmpty(), qPrintable(imaging.imagingError()));
  cineflow::ui::ImageView& view = window->view();
  // A frame whose flow layers come from a full ensemble: power estimated at the vessel's centre.
  const cineflow::ultrasound::FlowPhantomConfig phantom;
  const auto estimatedInTheVessel = [&] {
    const auto& shown = view.displayedFrame();
    if (!shown || !shown->geometry.hasFlow() || shown->pixels.empty()) {
      return false;
    }
    const auto& sg = shown->geometry;
    const auto ix = static_cast<std::size_t>(std::lround((phantom.vesselCentreXM - sg.x0) / sg.dx));
    const auto iz = static_cast<std::size_t>(std::lround((phantom.vesselCentreZM - sg.z0) / sg.dz));
    return std::isfinite(shown->pixels[cineflow::process::kPowerLayer * sg.pixels() +
                                       iz * static_cast<std::size_t>(sg.nx) + ix]);
  };
  QTRY_VERIFY_WITH_TIMEOUT(estimatedInTheVessel(), kTimeoutMs);
  // Stay live (the default for the live simulator) images every frame in the Doppler modes: a
  // skipped frame would break every ensemble, and flow would never show on a busy machine.
  QCOMPARE(window->controller().config().overflow, cineflow::pipeline::OverflowPolicy::Latest);
  const std::uint64_t skipped = window->controller().engine().stats().skipped;
  QTest::qWait(2000);
  QCOMPARE(window->controller().engine().stats().skipped, skipped);
  const cineflow::ui::Image& frame = *view.displayedFrame();
  const auto& g = frame.geometry;
  const auto layer = [&](int index, int ix, int iz) {
    return frame.pixels[static_cast<std::size_t>(index) * g.pixels() +
                        static_cast<std::size_t>(iz) * static_cast<std::size_t>(g.nx) +
                        static_cast<std::size_t>(ix)];
  };
  const double black = view.gainDb() - view.dynamicRangeDb();
  const double angle = phantom.vesselAngleDeg * M_PI / 180.0;
  int core = 0, coreShown = 0, tissue = 0, tissueShown = 0;
  for (int iz = 0; iz < g.nz; ++iz) {
    for (int ix = 0; ix < g.nx; ++ix) {
      const double x = g.x0 + ix * g.dx, z = g.z0 + iz * g.dz;
      const double rx = x - phantom.vesselCentreXM, rz = z - phantom.vesselCentreZM;
      // Distance from the axis, which rises (z falls) towards +x.
      const double fromAxis = std::abs(rx * std::sin(angle) + rz * std::cos(angle));
      const double fromDisk = std::hypot(x - phantom.diskCentreXM, z - phantom.diskCentreZM);
      const double level = std::clamp(
          (static_cast<double>(layer(cineflow::process::kIntensityLayer, ix, iz)) - black) /
              view.dynamicRangeDb(),
          0.0, 1.0);
      const bool shown = cineflow::ui::flowShows(
          view.flowLook(), layer(cineflow::process::kPowerLayer, ix, iz), level, black);
      if (fromAxis < phantom.vesselRadiusM / 2 && z > phantom.zMinM + 2e-3) {
        ++core;
        coreShown += shown ? 1 : 0;
      } else if (fromAxis > phantom.vesselRadiusM + 1.5e-3 &&
                 fromDisk > phantom.diskRadiusM + 1.5e-3 && z > phantom.zMinM &&
                 z < phantom.zMaxM) {
        ++tissue;
        tissueShown += shown ? 1 : 0;
      }
    }
  }
  QVERIFY(core > 1000 && tissue > 10000);
  const double coreFraction = static_cast<double>(coreShown) / core;
  const double tissueFraction = static_cast<double>(tissueShown) / tissue;
  qInfo(
      "flow shown over %.1f %% of the vessel's core, %.1f %% of the static tissue (white %.0f dB, "
      "threshold %.0f dB)",
      100 * coreFraction, 100 * tissueFraction, view.gainDb(), view.flowLook().powerThresholdDb);
  QVERIFY(coreFraction >= 0.8);
  QVERIFY(tissueFraction <= 0.05);
}

// The template plugin's noise-free point target (its brightest echo 144 dB above the empty
// field's median): the suggested gain puts the brightest echo at white, not 100 dB over it, so
// the point and its side lobes show at the default 60 dB range.
void TestOperatorWalk::aPointTargetInAnEmptyFieldIsNotClipped() {
  auto window = acquiringWindow();
  QVERIFY(window);
  window->controller().open(QStringLiteral("plugin:Template point target"));
  QTRY_VERIFY_WITH_TIMEOUT(window->controller().engine().framesPerVolume() == 0, kTimeoutMs);
  cineflow::ui::ImageView& view = window->view();
  const auto shown = view.framesDisplayed();
  QTRY_VERIFY_WITH_TIMEOUT(view.framesDisplayed() > shown + 2, kTimeoutMs);
  const std::vector<float>& pixels = view.displayedFrame()->pixels;
  float peak = -std::numeric_limits<float>::infinity();
  for (const float value : pixels) {
    peak = std::isfinite(value) ? std::max(peak, value) : peak;
  }
  qInfo("point target: brightest %.1f dB, white %.1f dB", static_cast<double>(peak), view.gainDb());
  QVERIFY(peak <= view.gainDb() + 3.0);   // a frame's peak moves a little as the target swings
  QVERIFY(peak >= view.gainDb() - 10.0);  // and it is bright
}

// Time-gain compensation: +15 dB on the two deepest of the eight bands brightens the image's
// deepest rows by 15 dB of the 60 dB range (255 x 15 / 60 grey levels, short of white) and leaves
// the upper rows (where every band in reach is 0) as they were: on screen, in a picture drawn for
// an export, and through a preset, which keeps the sliders.
void TestOperatorWalk::depthGainBrightensTheDeepRowsOnlyOnScreenInExportsAndInPresets() {
  auto window = acquiringWindow();
  QVERIFY(window);
  window->freeze();  // one frame to compare
  QTRY_VERIFY_WITH_TIMEOUT(!running(*window), kTimeoutMs);
  QTest::qWait(200);
  cineflow::ui::ImageView& view = window->view();
  QVERIFY(view.displayedFrame() != nullptr);
  const cineflow::ui::Image frame = *view.displayedFrame();
  const auto& g = frame.geometry;
  // Mean grey of a band of rows (fractions of the depth) on screen, inside the image.
  const auto screenMean = [&](double from, double to) {
    const QImage grab = view.grabFramebuffer();
    const qreal ratio = view.devicePixelRatioF();
    const double x0 = g.x0, x1 = g.x0 + (g.nx - 1) * g.dx;
    const double zSpan = (g.nz - 1) * g.dz;
    const QPointF a = view.physicalToWidget(x0 + 0.1 * (x1 - x0), g.z0 + from * zSpan) * ratio;
    const QPointF b = view.physicalToWidget(x1 - 0.1 * (x1 - x0), g.z0 + to * zSpan) * ratio;
    double sum = 0;
    int count = 0;
    for (int y = qRound(a.y()); y < qRound(b.y()); ++y) {
      for (int x = qRound(a.x()); x < qRound(b.x()); ++x) {
        sum += qGray(grab.pixel(x, y));
        ++count;
      }
    }
    return count > 0 ? sum / count : -1.0;
  };
  const double topBefore = screenMean(0.05, 0.5), deepBefore = screenMean(0.85, 0.98);
  cineflow::ui::DisplayLook look{view.gainDb(), view.dynamicRangeDb(), view.colourMap(), {}, {}};
  cineflow::ui::FramePicture flat({look, false});
  const QImage before = flat.draw(frame).copy();

  auto* deepest = window->findChild<QSlider*>(QStringLiteral("depthGainSlider7"));
  auto* deeper = window->findChild<QSlider*>(QStringLiteral("depthGainSlider6"));
  QVERIFY(deepest != nullptr && deeper != nullptr);
  deepest->setValue(15);
  deeper->setValue(15);
  QCOMPARE(view.depthGain().db[7], 15.0);
  QTest::qWait(200);
  const double topAfter = screenMean(0.05, 0.5), deepAfter = screenMean(0.85, 0.98);
  qInfo("on screen: upper rows %.1f -> %.1f, deepest rows %.1f -> %.1f grey", topBefore, topAfter,
        deepBefore, deepAfter);
  QVERIFY(std::abs(topAfter - topBefore) < 1.0);
  QVERIFY(deepAfter > deepBefore + 20.0);

  // The export's picture: each pixel of the deepest rows (past the sixth band's centre, 13/16 of
  // the depth, where the gain is the full 15 dB) up by 255 x 15 / 60 grey levels, short of white;
  // rows above the fifth band's centre (11/16) unchanged.
  look.depthGain = view.depthGain();
  cineflow::ui::FramePicture compensated({look, false});
  const QImage after = compensated.draw(frame);
  QCOMPARE(after.size(), before.size());
  const double step = 255.0 * 15.0 / look.dynamicRangeDb;
  double worstDeep = 0, worstTop = 0;
  for (int y = 0; y < after.height(); ++y) {
    const double fraction = (y + 0.5) / after.height();
    for (int x = 0; x < after.width(); ++x) {
      const int was = qGray(before.pixel(x, y)), now = qGray(after.pixel(x, y));
      if (fraction > 13.5 / 16 && was > 0) {  // black was clipped (or no echo): any level up to
                                              // the step is right
        worstDeep = std::max(worstDeep, std::abs(now - std::min(255.0, was + step)));
      } else if (fraction < 10.5 / 16) {
        worstTop = std::max(worstTop, std::abs(static_cast<double>(now - was)));
      }
    }
  }
  qInfo("picture: deepest rows off the expected +%.1f grey by at most %.1f, upper rows by %.1f",
        step, worstDeep, worstTop);
  QVERIFY(worstDeep <= 1.5);  // one colour-table entry, rounded twice
  QCOMPARE(worstTop, 0.0);

  // Presets keep the curve.
  const cineflow::ui::Preset read = cineflow::ui::parsePreset(
      cineflow::ui::writePreset(window->capturePreset(QStringLiteral("TGC"))), QStringLiteral("t"));
  QVERIFY(read.depthGain.has_value());
  QCOMPARE(*read.depthGain, view.depthGain());
  window->findChild<QPushButton*>(QStringLiteral("depthGainReset"))->click();
  QVERIFY(view.depthGain().isFlat());
  QVERIFY2(window->applyPreset(read).isEmpty(), "the preset applies");
  QCOMPARE(deepest->value(), 15);
  QCOMPARE(view.depthGain(), *read.depthGain);
}

QTEST_MAIN(TestOperatorWalk)
#include "test_operator_walk.moc"
