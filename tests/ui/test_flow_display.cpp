// Colour and power Doppler on screen (flow_display.hpp, shaders/bmode.frag, ImageView): a
// synthetic frame with flow layers (60 x 40 pixels of 0.1 mm; B-mode speckle 30-50 dB below the
// gain; flow in four quadrants: +0.3 m/s, -0.3 m/s, a weak flow under the threshold, and NaN) is
// drawn by the shader as the CPU compositing (which exports use) says, to within 3 of 255 per
// channel, and the B-mode without flow (weak or NaN) stays grey; the colour bar states the aliasing
// velocity; the readout gives the velocity; power mode maps the power; priority hands bright tissue
// back to the B-mode; dragging the colour box's edge and inside it resizes and moves it, and says
// so.
#include <cmath>
#include <memory>
#include <random>

#include <QImage>
#include <QSignalSpy>
#include <QtTest>

#include "common/gl_format.hpp"
#include "view2d/flow_colour_bar.hpp"
#include "view2d/flow_display.hpp"
#include "view2d/image_view.hpp"
#include "view2d/profile_plot.hpp"

using namespace cineflow;
using ui::FlowLook;
using ui::FlowMap;

namespace {

constexpr int kNx = 60, kNz = 40;
constexpr double kAliasing = 0.5;
constexpr double kGain = 0.0, kRange = 60.0;
constexpr float kStrongPowerDb = -20.0f;  // 40 dB above the black level (-60 dB)
constexpr float kWeakPowerDb = -55.0f;    // 5 dB above it: under a 15 dB threshold
constexpr int kColourTolerance = 3;       // of 255: the GPU's float rounding and 8-bit output

std::shared_ptr<ui::Image> flowFrame() {
  auto frame = std::make_shared<ui::Image>();
  frame->header.sequence = 3;
  frame->geometry = {kNx, kNz, 0.0, 0.1e-3, 10e-3, 0.1e-3, process::kFlowImageLayers, kAliasing};
  const std::size_t pixels = frame->geometry.pixels();
  frame->pixels.assign(frame->geometry.values(), NAN);
  std::mt19937 random(99);
  std::uniform_real_distribution<float> speckle(-50.0f, -30.0f);
  for (std::size_t p = 0; p < pixels; ++p) {
    frame->pixels[p] = speckle(random);
    const int ix = static_cast<int>(p % kNx), iz = static_cast<int>(p / kNx);
    const bool left = ix < kNx / 2, top = iz < kNz / 2;
    if (left && top) {
      frame->pixels[pixels + p] = 0.3f;
      frame->pixels[3 * pixels + p] = kStrongPowerDb;
    } else if (!left && top) {
      frame->pixels[pixels + p] = -0.3f;
      frame->pixels[3 * pixels + p] = kStrongPowerDb;
    } else if (left) {
      frame->pixels[pixels + p] = 0.3f;
      frame->pixels[3 * pixels + p] = kWeakPowerDb;
    }  // bottom right: NaN, no estimate
  }
  return frame;
}

int channelDifference(QRgb a, QRgb b) {
  return std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)),
                   std::abs(qBlue(a) - qBlue(b))});
}

}  // namespace

class TestFlowDisplay : public QObject {
  Q_OBJECT

 public:
  static void initMain() { ui::setDefaultSurfaceFormat(); }

 private slots:
  void initTestCase() {
    view_ = std::make_unique<ui::ImageView>();
    view_->resize(700, 560);
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    QVERIFY2(view_->renderingError().isEmpty(), qPrintable(view_->renderingError()));
    view_->setGainDb(kGain);
    view_->setDynamicRangeDb(kRange);
    view_->setOverlayVisible(false);  // the colour bar and box still show
    frame_ = flowFrame();
    view_->setFrame(frame_);
    QTRY_VERIFY_WITH_TIMEOUT(view_->framesDisplayed() > 0, 5000);
  }

  void theMapsAndRulesReadAsStated() {
    // Towards the probe: reds to yellow; away: blues to cyan; zero speed is dark.
    QVERIFY(qRed(ui::velocityColour(1.0)) > 240 && qGreen(ui::velocityColour(1.0)) > 200);
    QVERIFY(qRed(ui::velocityColour(0.5)) > 240 && qBlue(ui::velocityColour(0.5)) < 20);
    QVERIFY(qBlue(ui::velocityColour(-0.5)) > 240 && qRed(ui::velocityColour(-0.5)) < 40);
    QVERIFY(qGreen(ui::velocityColour(-1.0)) > 200 && qBlue(ui::velocityColour(-1.0)) > 240);
    QCOMPARE(ui::velocityColour(3.0), ui::velocityColour(1.0));  // clamped, never wrapped
    FlowLook look;
    look.map = FlowMap::Velocity;
    look.powerThresholdDb = 15;
    look.priority = 0.8;
    QVERIFY(ui::flowShows(look, -44.0, 0.5, -60.0));
    QVERIFY(!ui::flowShows(look, -46.0, 0.5, -60.0));  // under the threshold
    QVERIFY(!ui::flowShows(look, -20.0, 0.9, -60.0));  // bright tissue wins
    QVERIFY(!ui::flowShows(look, NAN, 0.1, -60.0));
    look.map = FlowMap::Off;
    QVERIFY(!ui::flowShows(look, -20.0, 0.1, -60.0));
  }

  void theShaderCompositesAsTheCpuDoes() {
    FlowLook look;
    look.map = FlowMap::Velocity;
    look.powerThresholdDb = 15;
    view_->setFlowLook(look);
    const QImage image = grab();
    QVERIFY(image.save(QStringLiteral(CINEFLOW_TEST_BINARY_DIR "/test_flow_display.png")));
    // Pixel centres well inside each quadrant, away from the colour bar (top right).
    const struct {
      int ix, iz;
      bool flow;
    } probes[] = {{8, 8, true}, {40, 14, true}, {8, 30, false}, {50, 32, false}};
    for (const auto& probe : probes) {
      const std::size_t p = static_cast<std::size_t>(probe.iz) * kNx + probe.ix;
      const QRgb onScreen = pixelAt(probe.ix, probe.iz);
      const double level = std::clamp((frame_->pixels[p] - (kGain - kRange)) / kRange, 0.0, 1.0);
      const int grey = static_cast<int>(std::lround(level * 255));
      const QRgb expected =
          ui::compositeFlow(look, qRgb(grey, grey, grey), level, kGain - kRange,
                            frame_->pixels[frame_->geometry.pixels() + p],
                            frame_->pixels[3 * frame_->geometry.pixels() + p], kAliasing);
      if (!probe.flow) {
        // The B-mode is sampled linearly between pixel centres on screen: grey, its level
        // depending on where the framebuffer pixel falls; the flow, at the nearest pixel: exact.
        QVERIFY(qRed(onScreen) == qBlue(onScreen) && qRed(onScreen) == qGreen(onScreen));
        continue;
      }
      QVERIFY2(channelDifference(onScreen, expected) <= kColourTolerance,
               qPrintable(QString("pixel (%1, %2): screen %3, CPU %4")
                              .arg(probe.ix)
                              .arg(probe.iz)
                              .arg(QColor(onScreen).name(), QColor(expected).name())));
    }
    // The readout gives the velocity under the cursor.
    const auto readout = view_->readoutAt(widgetAt(8, 8));
    QVERIFY(readout && readout->velocity);
    QCOMPARE(*readout->velocity, 0.3f);
    QVERIFY(!view_->readoutAt(widgetAt(50, 32))->velocity);  // NaN: none
  }

  void theLineProfileCarriesTheVelocity() {
    // Across the top half: +0.3 m/s on the left, -0.3 m/s on the right; the dB profile as before.
    view_->setProfileLine({0.5e-3, 11e-3}, {5.5e-3, 11e-3});
    QTRY_VERIFY(!view_->lineProfile().empty());
    const ui::LineProfile& profile = view_->lineProfile();
    QCOMPARE(profile.velocity.size(), profile.db.size());
    QCOMPARE(profile.aliasingVelocity, kAliasing);
    QCOMPARE(profile.velocity.front(), 0.3f);
    QCOMPARE(profile.velocity.back(), -0.3f);
    QVERIFY(ui::describeProfile(profile).contains(QStringLiteral("velocity -0.300 to 0.300 m/s")));
    view_->clearProfileLine();
  }

  void powerModeAndPriority() {
    FlowLook look;
    look.map = FlowMap::Power;
    look.powerThresholdDb = 15;
    view_->setFlowLook(look);
    const QRgb power = pixelAt(8, 8);
    // Strong flow 25 dB above the threshold over a 30 dB range.
    QVERIFY(channelDifference(power, ui::powerColour(25.0 / 30.0)) <= kColourTolerance);
    look.priority = 0.0;  // every B-mode pixel is brighter than that: tissue wins everywhere
    view_->setFlowLook(look);
    const QRgb tissue = pixelAt(8, 8);
    QCOMPARE(qRed(tissue), qBlue(tissue));
  }

  void theColourBoxIsDraggedAndResized() {
    FlowLook look;
    look.map = FlowMap::Velocity;
    view_->setFlowLook(look);
    view_->setColourBox({1e-3, 4e-3, 11e-3, 13e-3});
    QSignalSpy changed(view_.get(), &ui::ImageView::colourBoxChanged);
    // Drag the right edge 1 mm to the right.
    const QPointF edge = view_->physicalToWidget(4e-3, 12e-3);
    const QPointF moved = view_->physicalToWidget(5e-3, 12e-3);
    QTest::mousePress(view_.get(), Qt::LeftButton, {}, edge.toPoint());
    QTest::mouseMove(view_.get(), moved.toPoint());
    QTest::mouseRelease(view_.get(), Qt::LeftButton, {}, moved.toPoint());
    QCOMPARE(changed.count(), 1);
    auto box = changed.takeFirst().at(0).value<process::ColourBox>();
    const double pixel = 0.1e-3 * 1.5;  // a widget pixel is under a tenth of a millimetre here
    QVERIFY2(std::abs(box.x1 - 5e-3) < pixel && std::abs(box.x0 - 1e-3) < 1e-9,
             qPrintable(QString("x %1..%2 mm").arg(box.x0 * 1e3).arg(box.x1 * 1e3)));
    // Drag from inside: the whole box moves down 1 mm.
    const QPointF inside = view_->physicalToWidget(2.5e-3, 12e-3);
    const QPointF down = view_->physicalToWidget(2.5e-3, 13e-3);
    QTest::mousePress(view_.get(), Qt::LeftButton, {}, inside.toPoint());
    QTest::mouseMove(view_.get(), down.toPoint());
    QTest::mouseRelease(view_.get(), Qt::LeftButton, {}, down.toPoint());
    QCOMPARE(changed.count(), 1);
    box = changed.takeFirst().at(0).value<process::ColourBox>();
    QVERIFY(std::abs(box.z0 - 12e-3) < pixel && std::abs(box.z1 - 14e-3) < pixel);
    QVERIFY(std::abs((box.x1 - box.x0) - 4e-3) < 2 * pixel);
  }

  void cleanupTestCase() { view_.reset(); }

 private:
  QImage grab() { return view_->grabFramebuffer().convertToFormat(QImage::Format_RGB32); }
  QPointF widgetAt(int ix, int iz) const {
    const auto& g = frame_->geometry;
    return view_->physicalToWidget(g.x0 + ix * g.dx, g.z0 + iz * g.dz);
  }
  QRgb pixelAt(int ix, int iz) {
    const QImage image = grab();
    return image.pixel((widgetAt(ix, iz) * view_->devicePixelRatioF()).toPoint());
  }

  std::unique_ptr<ui::ImageView> view_;
  std::shared_ptr<ui::Image> frame_;
};

QTEST_MAIN(TestFlowDisplay)
#include "test_flow_display.moc"
