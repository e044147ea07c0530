// The line profile: on a synthetic Gaussian spot (amplitude exp(-r^2 / 2 sigma^2), in dB) the -6 dB
// width matches the analytic 2 sigma sqrt(0.6 ln 10) within 2 %, along x, z and a diagonal; a flat
// profile has no width and a segment off the image has no samples. In a ImageView, Shift + drag
// draws the segment, the plot appears over the image, the profile follows the next frame (a spot
// twice as wide), and Shift + double-click removes it. On the simulator, the central point target
// is the peak of its lateral and axial profiles, with widths of a fraction of a millimetre.
#include <QImage>
#include <QtTest>
#include <cmath>
#include <memory>

#include "common/gl_format.hpp"
#include "compute/backend.hpp"
#include "support/image_analysis.hpp"
#include "ultrasound/simulator.hpp"
#include "view2d/image_view.hpp"
#include "view2d/line_profile.hpp"
#include "view2d/profile_plot.hpp"

using cineflow::ui::Image;
using cineflow::ui::ImageView;
using cineflow::ui::LineProfile;
using cineflow::ui::PhysicalPoint;

namespace {

constexpr double kSigmaM = 0.3e-3;
constexpr double kCentreXM = 0.0;
constexpr double kCentreZM = 10e-3;
constexpr double kTolerance = 0.02;  // the 2 %

// The -6 dB width of exp(-r^2 / 2 sigma^2): 10^(-6/20) = exp(-w^2 / 8 sigma^2).
double analyticWidth(double sigma) {
  return 2.0 * sigma * std::sqrt(2.0 * 0.3 * std::log(10.0));
}

std::shared_ptr<Image> gaussianFrame(double sigma, std::uint64_t sequence) {
  auto frame = std::make_shared<Image>();
  frame->header.sequence = sequence;
  frame->geometry = {300, 300, -7.475e-3, 0.05e-3, 2.525e-3, 0.05e-3};
  const auto& g = frame->geometry;
  frame->pixels.resize(g.pixels());
  for (int row = 0; row < g.nz; ++row) {
    for (int column = 0; column < g.nx; ++column) {
      const double x = g.x0 + column * g.dx - kCentreXM;
      const double z = g.z0 + row * g.dz - kCentreZM;
      const double amplitude = std::exp(-(x * x + z * z) / (2 * sigma * sigma));
      frame->pixels[static_cast<std::size_t>(row) * g.nx + column] =
          static_cast<float>(std::max(-80.0, 20.0 * std::log10(amplitude)));
    }
  }
  return frame;
}

void expectWidth(const LineProfile& profile, double sigma, const char* what) {
  QVERIFY2(profile.widthM.has_value(), what);
  const double expected = analyticWidth(sigma);
  const double error = std::abs(*profile.widthM - expected) / expected;
  qInfo("%s: -6 dB width %.4f mm, analytic %.4f mm (%.2f %%)", what, *profile.widthM * 1e3,
        expected * 1e3, 100 * error);
  QVERIFY2(error <= kTolerance, what);
  QVERIFY2(std::abs(profile.peakDb) < 0.1, what);  // the peak is the spot's 0 dB
}

}  // namespace

class TestLineProfile : public QObject {
  Q_OBJECT

 public:
  static void initMain() { cineflow::ui::setDefaultSurfaceFormat(); }

 private slots:
  void gaussianWidthWithinTwoPercent() {
    const auto frame = gaussianFrame(kSigmaM, 1);
    const auto& g = frame->geometry;
    expectWidth(cineflow::ui::sampleLine(frame->pixels, g, {-3e-3, kCentreZM}, {3e-3, kCentreZM}),
                kSigmaM, "lateral");
    expectWidth(cineflow::ui::sampleLine(frame->pixels, g, {kCentreXM, 7e-3}, {kCentreXM, 13e-3}),
                kSigmaM, "axial");
    expectWidth(cineflow::ui::sampleLine(frame->pixels, g, {-2e-3, 8e-3}, {2e-3, 12e-3}), kSigmaM,
                "diagonal");
    // Reversed, the same width, the peak measured from the other end.
    const LineProfile back =
        cineflow::ui::sampleLine(frame->pixels, g, {3e-3, kCentreZM}, {-2e-3, kCentreZM});
    expectWidth(back, kSigmaM, "reversed");
    QVERIFY(std::abs(back.peakDistanceM - 3e-3) < 0.05e-3);
    QVERIFY(cineflow::ui::describeProfile(back).contains(QStringLiteral("-6 dB width 0.7")));
    // An OCT reflector's micrometres are not rounded away to "0.01 mm".
    LineProfile thin = back;
    thin.widthM = 9.74e-6;
    thin.peakDistanceM = 0.271e-3;
    const QString text = cineflow::ui::describeProfile(thin);
    QVERIFY2(text.contains(QStringLiteral("at 0.271 mm")) &&
                 text.contains(QStringLiteral("-6 dB width 9.7 µm")),
             qPrintable(text));
  }

  void flatOrMissedProfilesHaveNoWidth() {
    auto frame = gaussianFrame(kSigmaM, 2);
    std::fill(frame->pixels.begin(), frame->pixels.end(), -20.0f);
    const auto flat =
        cineflow::ui::sampleLine(frame->pixels, frame->geometry, {-3e-3, 5e-3}, {3e-3, 5e-3});
    QVERIFY(!flat.empty());
    QVERIFY(!flat.widthM);
    QVERIFY(cineflow::ui::describeProfile(flat).contains(QStringLiteral("n/a")));
    const auto missed =
        cineflow::ui::sampleLine(frame->pixels, frame->geometry, {20e-3, 5e-3}, {30e-3, 5e-3});
    QVERIFY(missed.empty());
    QVERIFY(cineflow::ui::sampleLine({}, frame->geometry, {-1e-3, 5e-3}, {1e-3, 5e-3}).empty());
  }

  void simulatorPointTargetHasAPlausibleWidth() {
    // The simulator's slice nearest the point targets' plane (y = 0), through the CPU chain.
    const cineflow::ultrasound::SimulatorConfig config;
    cineflow::ultrasound::Simulator simulator(config);
    const auto imaging = cineflow::ultrasound::ImagingParams::defaultsFor(simulator.params());
    const auto geometry = imaging.geometry();
    const int slice = config.slicesPerVolume / 2 - 1;  // y = -0.27 mm of the 16 slices over +-4 mm
    auto cpu = cineflow::compute::createBackend(cineflow::compute::BackendRequest::Cpu);
    const std::vector<float> image =
        cineflow::test::bmodeOfFrame(*cpu, simulator, static_cast<std::uint64_t>(slice), imaging);
    const double x = config.phantom.pointTargetXM[1];  // the central target at 18 mm
    const double z = config.phantom.pointTargetZM[1];
    const LineProfile lateral =
        cineflow::ui::sampleLine(image, geometry, {x - 3e-3, z}, {x + 3e-3, z});
    const LineProfile axial =
        cineflow::ui::sampleLine(image, geometry, {x, z - 2e-3}, {x, z + 2e-3});
    for (const LineProfile* p : {&lateral, &axial}) {
      QVERIFY(p->widthM.has_value());
      qInfo("point target at (%.1f, %.1f) mm: %s", x * 1e3, z * 1e3,
            qPrintable(cineflow::ui::describeProfile(*p)));
    }
    // The target is the peak, where the phantom puts it (within a pixel or two).
    QVERIFY(std::abs(lateral.peakDistanceM - 3e-3) <= 0.3e-3);
    QVERIFY(std::abs(axial.peakDistanceM - 2e-3) <= 0.3e-3);
    // Lateral resolution about wavelength x f-number, axial about the pulse: both under a
    // millimetre here and well over a pixel.
    QVERIFY(*lateral.widthM > 0.1e-3 && *lateral.widthM < 2e-3);
    QVERIFY(*axial.widthM > 0.05e-3 && *axial.widthM < 2e-3);
  }

  void shiftDragDrawsAProfileThatFollowsFrames() {
    ImageView view;
    view.resize(700, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setGainDb(0.0);
    view.setDynamicRangeDb(60.0);
    view.setFrame(gaussianFrame(kSigmaM, 3));
    QTRY_VERIFY_WITH_TIMEOUT(view.framesDisplayed() > 0, 5000);
    const QImage before = view.grabFramebuffer().convertToFormat(QImage::Format_RGB32);

    const QPoint from = view.physicalToWidget(-3e-3, kCentreZM).toPoint();
    const QPoint to = view.physicalToWidget(3e-3, kCentreZM).toPoint();
    QTest::mousePress(&view, Qt::LeftButton, Qt::ShiftModifier, from);
    QTest::mouseMove(&view, (from + to) / 2);
    QTest::mouseMove(&view, to);
    QTest::mouseRelease(&view, Qt::LeftButton, Qt::ShiftModifier, to);
    QVERIFY(view.hasProfileLine());
    QCOMPARE(view.zoom(), 1.0);  // Shift + drag draws; it does not pan
    expectWidth(view.lineProfile(), kSigmaM, "dragged");

    // The plot sits over the image's bottom-left corner.
    QTRY_VERIFY_WITH_TIMEOUT(view.grabFramebuffer().convertToFormat(QImage::Format_RGB32) != before,
                             5000);
    const QImage with = view.grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    const QRect image = view.imageRectInFramebuffer();  // device pixels, like the grab
    const QPoint plotCorner(image.left() + 20, image.bottom() - 20);
    QVERIFY(with.pixel(plotCorner) != before.pixel(plotCorner));

    // A new frame: a spot twice as wide; the profile follows it.
    view.setFrame(gaussianFrame(2 * kSigmaM, 4));
    QTRY_VERIFY_WITH_TIMEOUT(view.displayedFrame() && view.displayedFrame()->header.sequence == 4,
                             5000);
    expectWidth(view.lineProfile(), 2 * kSigmaM, "next frame");

    QTest::mouseDClick(&view, Qt::LeftButton, Qt::ShiftModifier, from);
    QVERIFY(!view.hasProfileLine());
    QVERIFY(view.lineProfile().empty());
  }
};

QTEST_MAIN(TestLineProfile)
#include "test_line_profile.moc"
