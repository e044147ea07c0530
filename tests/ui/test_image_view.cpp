// ImageView on a synthetic frame (200 x 400 pixels, 0.1 x 0.05 mm, from 5 mm deep: 20 x 20 mm)
// of seeded random speckle levels with one bright 2x2-pixel spot: the spot shows where
// physicalToWidget() says, the pixel mapping inverts, wheel zoom keeps the spot under the cursor,
// a drag pans by the drag distance, a double-click resets, the readout reports the frame's value,
// colour maps colour and grey stays grey, and the overlay draws its ruler and scale bar.

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include <QImage>
#include <QWheelEvent>
#include <QtTest>

#include "common/gl_format.hpp"
#include "view2d/display_controls.hpp"
#include "view2d/image_view.hpp"
#include "view2d/view_overlay.hpp"

using cineflow::ui::ColourMap;
using cineflow::ui::Image;
using cineflow::ui::ImageView;

namespace {

constexpr int kSpotColumn = 120;  // the spot covers columns 120..121 and rows 250..251
constexpr int kSpotRow = 250;
constexpr double kSpotDb = 0.0;  // the gain: white; the speckle lies 30-60 dB below
constexpr int kPositionTolerancePx = 2;

std::shared_ptr<const Image> syntheticFrame() {
  auto frame = std::make_shared<Image>();
  frame->header.sequence = 7;
  frame->geometry = {200, 400, -9.95e-3, 0.1e-3, 5e-3, 0.05e-3};
  std::mt19937 random(20240605);
  std::uniform_real_distribution<float> speckle(-60.0f, -30.0f);
  frame->pixels.resize(frame->geometry.pixels());
  for (float& value : frame->pixels) {
    value = speckle(random);
  }
  for (const int row : {kSpotRow, kSpotRow + 1}) {
    for (const int column : {kSpotColumn, kSpotColumn + 1}) {
      frame->pixels[static_cast<std::size_t>(row) * 200 + column] = static_cast<float>(kSpotDb);
    }
  }
  return frame;
}

// Bright pixels (grey > 200) near `centre` (framebuffer pixels): how many, and their centroid.
struct Blob {
  int count = 0;
  QPointF centroid;
};

Blob brightBlob(const QImage& image, QPoint centre, int radius) {
  Blob blob;
  QPointF sum;
  for (int y = centre.y() - radius; y <= centre.y() + radius; ++y) {
    for (int x = centre.x() - radius; x <= centre.x() + radius; ++x) {
      if (image.rect().contains(x, y) && qGray(image.pixel(x, y)) > 200) {
        ++blob.count;
        sum += QPointF(x + 0.5, y + 0.5);
      }
    }
  }
  if (blob.count > 0) {
    blob.centroid = sum / blob.count;
  }
  return blob;
}

}  // namespace

class TestImageView : public QObject {
  Q_OBJECT

 public:
  static void initMain() { cineflow::ui::setDefaultSurfaceFormat(); }

 private slots:
  void initTestCase();
  void spotAppearsWherePredicted();
  void widgetToPhysicalInvertsPhysicalToWidget();
  void wheelZoomKeepsTheSpotUnderTheCursor();
  void dragPansByTheDragDistance();
  void doubleClickResets();
  void readoutReportsTheFramesValue();
  void colourMapsColourAndGreyStaysGrey();
  void overlayDrawsRulerAndScaleBar();
  void cleanupTestCase() { view_.reset(); }

 private:
  QImage grab() { return view_->grabFramebuffer().convertToFormat(QImage::Format_RGB32); }
  QPointF spotWidget() const {
    const auto& g = frame_->geometry;
    return view_->physicalToWidget(g.x0 + (kSpotColumn + 0.5) * g.dx,
                                   g.z0 + (kSpotRow + 0.5) * g.dz);
  }
  QPoint toDevice(QPointF widget) const { return (widget * view_->devicePixelRatioF()).toPoint(); }

  std::unique_ptr<ImageView> view_;
  std::shared_ptr<const Image> frame_;
  int blobAtZoom1_ = 0;
};

void TestImageView::initTestCase() {
  view_ = std::make_unique<ImageView>();
  view_->resize(800, 600);
  view_->show();
  QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
  QVERIFY2(view_->renderingError().isEmpty(), qPrintable(view_->renderingError()));
  view_->setGainDb(0.0);
  view_->setDynamicRangeDb(60.0);
  frame_ = syntheticFrame();
  view_->setFrame(frame_);
  QTRY_VERIFY_WITH_TIMEOUT(view_->framesDisplayed() > 0, 5000);
  QCOMPARE(view_->displayedFrame(), frame_);
}

void TestImageView::spotAppearsWherePredicted() {
  const QImage image = grab();
  QVERIFY(image.save(QStringLiteral(CINEFLOW_TEST_BINARY_DIR "/test_image_view.png")));
  const QRect rect = view_->imageRectInFramebuffer();
  // The physical aspect ratio (20 x 20 mm) is kept, and the default mapping is the letterbox one.
  QVERIFY(std::abs(rect.width() - rect.height()) <= 1);
  const QPointF spot = spotWidget();
  const QPointF expected = cineflow::ui::mapPhysicalToRect(
      frame_->geometry, rect, frame_->geometry.x0 + (kSpotColumn + 0.5) * frame_->geometry.dx,
      frame_->geometry.z0 + (kSpotRow + 0.5) * frame_->geometry.dz);
  QCOMPARE(spot * view_->devicePixelRatioF(), expected);

  const QPoint centre = toDevice(spot);
  std::vector<int> around;
  for (int y = centre.y() - 20; y <= centre.y() + 20; ++y) {
    for (int x = centre.x() - 20; x <= centre.x() + 20; ++x) {
      around.push_back(qGray(image.pixel(x, y)));
    }
  }
  std::nth_element(around.begin(), around.begin() + around.size() / 2, around.end());
  const int median = around[around.size() / 2];
  const int peak = qGray(image.pixel(centre));
  qInfo("spot at (%d, %d) px: %d, local median %d", centre.x(), centre.y(), peak, median);
  QVERIFY(peak >= median + 100);
  const Blob blob = brightBlob(image, centre, 10);
  QVERIFY(blob.count > 0);
  QVERIFY((blob.centroid - QPointF(centre)).manhattanLength() <= 2 * kPositionTolerancePx);
  blobAtZoom1_ = blob.count;
}

void TestImageView::widgetToPhysicalInvertsPhysicalToWidget() {
  std::mt19937 random(5);
  std::uniform_real_distribution<double> xs(-10e-3, 10e-3), zs(5e-3, 25e-3);
  for (const double zoom : {1.0, 3.7}) {
    view_->setZoom(zoom, QPointF(300, 250));
    for (int trial = 0; trial < 50; ++trial) {
      const double x = xs(random), z = zs(random);
      const auto back = view_->widgetToPhysical(view_->physicalToWidget(x, z));
      QVERIFY(back);
      QVERIFY(std::abs(back->xM - x) < 1e-9 && std::abs(back->zM - z) < 1e-9);
    }
  }
  view_->resetView();
  QCOMPARE(view_->zoom(), 1.0);
}

void TestImageView::wheelZoomKeepsTheSpotUnderTheCursor() {
  const QPointF anchor = spotWidget();
  // Eight notches: four double the zoom.
  QWheelEvent wheel(anchor, view_->mapToGlobal(anchor), QPoint(), QPoint(0, 8 * 120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(view_.get(), &wheel);
  QVERIFY(std::abs(view_->zoom() - 4.0) < 1e-9);
  QVERIFY((spotWidget() - anchor).manhattanLength() <= kPositionTolerancePx);
  const QImage image = grab();
  const Blob blob = brightBlob(image, toDevice(anchor), 30);
  qInfo("zoom 4: %d bright pixels (zoom 1: %d), centroid offset (%.1f, %.1f) px", blob.count,
        blobAtZoom1_, blob.centroid.x() - toDevice(anchor).x(),
        blob.centroid.y() - toDevice(anchor).y());
  QVERIFY(blob.count > 4 * blobAtZoom1_);
  QVERIFY((blob.centroid - QPointF(toDevice(anchor))).manhattanLength() <=
          2 * kPositionTolerancePx);
}

void TestImageView::dragPansByTheDragDistance() {
  QVERIFY(view_->zoom() > 1.0);  // at zoom 1 the whole image shows and there is nothing to pan
  const QPointF before = spotWidget();
  const QPoint from(400, 300), to(370, 325);
  QTest::mousePress(view_.get(), Qt::LeftButton, Qt::NoModifier, from);
  QTest::mouseMove(view_.get(), QPoint(385, 312));
  QTest::mouseMove(view_.get(), to);
  QTest::mouseRelease(view_.get(), Qt::LeftButton, Qt::NoModifier, to);
  const QPointF after = spotWidget();
  qInfo("drag by (-30, 25) moved the spot by (%.2f, %.2f)", after.x() - before.x(),
        after.y() - before.y());
  QVERIFY((after - before - QPointF(to - from)).manhattanLength() <= kPositionTolerancePx);
  const Blob blob = brightBlob(grab(), toDevice(after), 30);
  QVERIFY((blob.centroid - QPointF(toDevice(after))).manhattanLength() <= 2 * kPositionTolerancePx);
}

void TestImageView::doubleClickResets() {
  QTest::mouseDClick(view_.get(), Qt::LeftButton, Qt::NoModifier, QPoint(420, 280));
  QCOMPARE(view_->zoom(), 1.0);
  QCOMPARE(view_->viewWindow(), cineflow::ui::ViewWindow{});
  const Blob blob = brightBlob(grab(), toDevice(spotWidget()), 10);
  QCOMPARE(blob.count, blobAtZoom1_);
}

void TestImageView::readoutReportsTheFramesValue() {
  const auto& g = frame_->geometry;
  const double x = g.x0 + kSpotColumn * g.dx, z = g.z0 + kSpotRow * g.dz;
  const QPointF at = view_->physicalToWidget(x, z);
  const auto readout = view_->readoutAt(at);
  QVERIFY(readout);
  QVERIFY(std::abs(readout->position.xM - x) <= 0.5 * g.dx);
  QVERIFY(std::abs(readout->position.zM - z) <= 0.5 * g.dz);
  QCOMPARE(readout->column, kSpotColumn);
  QCOMPARE(readout->row, kSpotRow);
  QCOMPARE(readout->db, kSpotDb);
  // A speckle pixel: the value is the frame's own.
  const QPointF speckle = view_->physicalToWidget(g.x0 + 30 * g.dx, g.z0 + 77 * g.dz);
  QCOMPARE(*view_->valueAt(speckle), double(frame_->pixels[77 * 200 + 30]));
  QVERIFY(!view_->valueAt(QPointF(2, 2)));  // in the margin

  // Hovering shows the same in the overlay text.
  QTest::mouseMove(view_.get(), at.toPoint());
  QTRY_VERIFY(!view_->readoutText().isEmpty());
  qInfo("readout: %s", qPrintable(view_->readoutText()));
  QVERIFY(view_->readoutText().contains(QStringLiteral("dB")));
}

void TestImageView::colourMapsColourAndGreyStaysGrey() {
  cineflow::ui::DisplayControls controls;
  QObject::connect(&controls, &cineflow::ui::DisplayControls::colourMapChanged, view_.get(),
                   &ImageView::setColourMap);
  const QRect rect = view_->imageRectInFramebuffer();
  const auto colouredPixels = [&] {
    const QImage image = grab();
    int coloured = 0;
    for (int y = rect.top(); y <= rect.bottom(); y += 3) {
      for (int x = rect.left(); x <= rect.right(); x += 3) {
        const QRgb p = image.pixel(x, y);
        coloured += (qRed(p) != qGreen(p) || qGreen(p) != qBlue(p)) ? 1 : 0;
      }
    }
    return coloured;
  };
  QCOMPARE(colouredPixels(), 0);
  for (const ColourMap map : {ColourMap::Sepia, ColourMap::Viridis}) {
    controls.setColourMap(map);
    QCOMPARE(view_->colourMap(), map);
    QVERIFY(colouredPixels() > 1000);
    QVERIFY(grab().save(QStringLiteral(CINEFLOW_TEST_BINARY_DIR "/test_image_view_%1.png")
                            .arg(cineflow::ui::colourMapName(map).toLower())));
  }
  controls.setColourMap(ColourMap::Grey);
  QCOMPARE(view_->colourMap(), ColourMap::Grey);
  QCOMPARE(colouredPixels(), 0);
}

void TestImageView::overlayDrawsRulerAndScaleBar() {
  const QRect rect = view_->imageRectInFramebuffer();
  // The strip of the left margin where the depth labels go.
  const QRect strip(rect.left() - 40, rect.top(), 36, rect.height());
  const auto inkPixels = [&](const QImage& image) {
    const QRgb background = image.pixel(1, image.height() / 2);
    int ink = 0;
    for (int y = strip.top(); y <= strip.bottom(); ++y) {
      for (int x = strip.left(); x <= strip.right(); ++x) {
        ink += image.pixel(x, y) != background ? 1 : 0;
      }
    }
    return ink;
  };
  view_->setOverlayVisible(false);
  QCOMPARE(inkPixels(grab()), 0);
  view_->setOverlayVisible(true);
  const QImage image = grab();
  const int ink = inkPixels(image);
  qInfo("depth labels: %d non-background pixels in the left margin", ink);
  QVERIFY(ink > 50);

  const QRect bar = view_->scaleBarRect();
  QVERIFY(!bar.isEmpty());
  QVERIFY(bar.top() > rect.bottom() / view_->devicePixelRatioF());  // under the image
  const qreal ratio = view_->devicePixelRatioF();
  const int column = qRound(bar.center().x() * ratio);
  for (int y = qCeil(bar.top() * ratio); y < qFloor((bar.bottom() + 1) * ratio); ++y) {
    QCOMPARE(image.pixel(column, y) & 0xffffff, cineflow::ui::kScaleBarColour & 0xffffff);
  }
}

QTEST_MAIN(TestImageView)
#include "test_image_view.moc"
