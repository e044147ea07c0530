// VolumeView (the 3-D view) on synthetic volumes of seeded random speckle, 40-60 dB below a
// bright sphere at a known voxel: in maximum-intensity mode the brightest spot lies where the
// camera projects the sphere's centre, for several view angles, also in a picture drawn offscreen
// at an export's size (the framing fitted to its aspect); at the size shown that picture is the
// view's own; at its own level the view's white level is the volume's suggested one, moved by the
// relative gain; the transfer function decides
// what volume rendering shows; clipping planes remove the sphere and give it back; anisotropic
// voxels show in their physical proportions; the iso-surface is shaded like a sphere (brightest
// where it faces the viewer). With CINEFLOW_MEASURE_3D=1 it also reports the frame rate of a
// 256^3 volume at 800 x 600, with CINEFLOW_MEASURE_3D=512 of a 512^3 volume at 1920 x 1080 (the
// goal's size, for a GPU; tools/gpu_sweep.sh): a measurement, never a limit.

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include <QElapsedTimer>
#include <QImage>
#include <QtTest>

#include "common/display_geometry.hpp"
#include "common/gl_format.hpp"
#include "compute/buffer.hpp"
#include "view3d/volume_level.hpp"
#include "view3d/volume_view.hpp"

using cineflow::ui::levelSample;
using cineflow::ui::levelSampleRows;
using cineflow::ui::levelSampleRowStride;
using cineflow::ui::VolumeData;
using cineflow::ui::VolumeRenderMode;
using cineflow::ui::VolumeView;

namespace {

constexpr int kNx = 97, kNz = 61, kNy = 45;                 // not multiples of the 8-voxel brick
constexpr int kSphereX = 62, kSphereZ = 20, kSphereY = 30;  // voxel indices
constexpr double kSphereRadius = 3.5;                       // voxels
// Where the sphere's centre projects and where the brightest pixels lie may differ by the
// sampling of a 3.5-voxel sphere drawn at 4-5 pixels per voxel: 1.5 voxels, about 7 pixels.
constexpr double kPositionTolerancePx = 7.0;

std::shared_ptr<VolumeData> speckleWithSphere(QVector3D voxelMm = {0.1f, 0.1f, 0.1f}) {
  auto volume = std::make_shared<VolumeData>();
  volume->nx = kNx;
  volume->nz = kNz;
  volume->ny = kNy;
  volume->voxelMm = voxelMm;
  volume->number = 3;
  volume->voxels.resize(static_cast<std::size_t>(kNx) * kNz * kNy);
  std::mt19937 random(20261127);
  std::uniform_real_distribution<float> speckle(-60.0f, -40.0f);
  for (int y = 0; y < kNy; ++y) {
    for (int z = 0; z < kNz; ++z) {
      for (int x = 0; x < kNx; ++x) {
        const double r = std::hypot(x - kSphereX, z - kSphereZ, y - kSphereY);
        volume->voxels[(static_cast<std::size_t>(y) * kNz + z) * kNx + x] =
            r <= kSphereRadius ? 0.0f : speckle(random);
      }
    }
  }
  return volume;
}

QVector3D sphereTexture() {
  return {(kSphereX + 0.5f) / kNx, (kSphereZ + 0.5f) / kNz, (kSphereY + 0.5f) / kNy};
}

// The centroid of the pixels within 8 grey levels of the brightest one.
QPointF brightestSpot(const QImage& image, int* brightness = nullptr) {
  int best = 0;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      best = std::max(best, qGray(image.pixel(x, y)));
    }
  }
  QPointF sum;
  int count = 0;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      if (qGray(image.pixel(x, y)) >= best - 8) {
        sum += QPointF(x + 0.5, y + 0.5);
        ++count;
      }
    }
  }
  if (brightness != nullptr) {
    *brightness = best;
  }
  return sum / std::max(count, 1);
}

// Empty when the sphere shows bright (a peak above 240) within `tolerance` pixels of `expected`;
// otherwise what is wrong.
QString sphereMisplaced(const QImage& image, QPointF expected, double tolerance) {
  int brightness = 0;
  const QPointF spot = brightestSpot(image, &brightness);
  if (brightness <= 240) {
    return QStringLiteral("the sphere's peak is %1").arg(brightness);
  }
  if (std::hypot(spot.x() - expected.x(), spot.y() - expected.y()) > tolerance) {
    return QStringLiteral("brightest at (%1, %2), the sphere projects to (%3, %4)")
        .arg(spot.x())
        .arg(spot.y())
        .arg(expected.x())
        .arg(expected.y());
  }
  return {};
}

// The bounding box of pixels brighter than `threshold`.
QRect brightBox(const QImage& image, int threshold) {
  QRect box;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      if (qGray(image.pixel(x, y)) > threshold) {
        box = box.united(QRect(x, y, 1, 1));
      }
    }
  }
  return box;
}

std::vector<float> opacityAbove(float level, float opacity) {
  std::vector<float> table(256);
  for (int i = 0; i < 256; ++i) {
    table[static_cast<std::size_t>(i)] = i / 255.0f >= level ? opacity : 0.0f;
  }
  return table;
}

}  // namespace

class TestVolumeView : public QObject {
  Q_OBJECT

 public:
  static void initMain() { cineflow::ui::setDefaultSurfaceFormat(); }

 private slots:
  void initTestCase();
  void init();
  void mipPeaksWhereTheSphereProjects_data();
  void mipPeaksWhereTheSphereProjects();
  void transferFunctionDecidesWhatIsSeen();
  void clippingRemovesTheSphere();
  void anisotropicVoxelsShowInProportion();
  void isoSurfaceIsShadedLikeASphere();
  void dragOrbitsAndRendersCoarselyWhileMoving();
  void overlayDrawsAxesAndScaleBar();
  void exportSizedPictureIsTheViewsFraming();
  void ownLevelIsTheVolumesSuggestion();
  void slicePlaneOutlinesTheChosenSlice();
  void deviceUploadDrawsWhatTheHostUploadDraws();
  void measureFrameRate();
  void cleanupTestCase() { view_.reset(); }

 private:
  QImage grab() { return view_->grabFramebuffer().convertToFormat(QImage::Format_RGB32); }
  std::unique_ptr<VolumeView> view_;
};

void TestVolumeView::initTestCase() {
  view_ = std::make_unique<VolumeView>();
  view_->resize(640, 480);
  view_->show();
  QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
  QVERIFY2(view_->renderingError().isEmpty(), qPrintable(view_->renderingError()));
  view_->setOverlayVisible(false);  // the image alone; overlayDrawsAxesAndScaleBar checks it
}

void TestVolumeView::init() {
  view_->setVolume(speckleWithSphere());
  view_->setGainDb(0);
  view_->setDynamicRangeDb(60);
  view_->setMode(VolumeRenderMode::MaximumIntensity);
  view_->setClipBox({0, 0, 0}, {1, 1, 1});
  view_->resetView();
}

void TestVolumeView::mipPeaksWhereTheSphereProjects_data() {
  QTest::addColumn<float>("yaw");
  QTest::addColumn<float>("pitch");
  QTest::newRow("front") << 0.0f << 0.0f;
  QTest::newRow("yaw 35") << 35.0f << 0.0f;
  QTest::newRow("side") << 90.0f << 0.0f;
  QTest::newRow("yaw -60 pitch 30") << -60.0f << 30.0f;
  QTest::newRow("yaw 150 pitch -45") << 150.0f << -45.0f;
}

void TestVolumeView::mipPeaksWhereTheSphereProjects() {
  QFETCH(float, yaw);
  QFETCH(float, pitch);
  view_->setAngles(yaw, pitch);
  const QImage image = grab();
  image.save(QStringLiteral(CINEFLOW_TEST_BINARY_DIR "/test_volume_view_mip_%1_%2.png")
                 .arg(yaw)
                 .arg(pitch));
  const QString misplaced =
      sphereMisplaced(image, view_->projectToFramebuffer(sphereTexture()), kPositionTolerancePx);
  QVERIFY2(misplaced.isEmpty(), qPrintable(misplaced));
}

void TestVolumeView::transferFunctionDecidesWhatIsSeen() {
  view_->setMode(VolumeRenderMode::Composite);
  view_->setAngles(20, 15);
  const QPoint sphere = view_->projectToFramebuffer(sphereTexture()).toPoint();
  const QPoint speckle = view_->projectToFramebuffer({0.2f, 0.7f, 0.5f}).toPoint();
  // Nothing opaque: only the background.
  view_->setOpacityCurve(std::vector<float>(256, 0.0f));
  QImage image = grab();
  const int background = qGray(image.pixel(2, 2));
  QVERIFY(std::abs(qGray(image.pixel(sphere)) - background) <= 2);
  QVERIFY(std::abs(qGray(image.pixel(speckle)) - background) <= 2);
  // Only the sphere's levels (above 0.9): the sphere, and background elsewhere.
  view_->setOpacityCurve(opacityAbove(0.9f, 0.8f));
  image = grab();
  image.save(QStringLiteral(CINEFLOW_TEST_BINARY_DIR "/test_volume_view_composite_sphere.png"));
  QVERIFY2(qGray(image.pixel(sphere)) > 200,
           qPrintable(QString::number(qGray(image.pixel(sphere)))));
  QVERIFY(std::abs(qGray(image.pixel(speckle)) - background) <= 2);
  // Every level a little opaque: the speckle shows as haze.
  view_->setOpacityCurve(opacityAbove(0.0f, 0.05f));
  image = grab();
  image.save(QStringLiteral(CINEFLOW_TEST_BINARY_DIR "/test_volume_view_composite_haze.png"));
  QVERIFY2(qGray(image.pixel(speckle)) > background + 20,
           qPrintable(QString::number(qGray(image.pixel(speckle)))));
}

void TestVolumeView::clippingRemovesTheSphere() {
  view_->setAngles(30, 20);
  const QPoint sphere = view_->projectToFramebuffer(sphereTexture()).toPoint();
  QVERIFY(qGray(grab().pixel(sphere)) > 200);
  // The sphere lies at x = 0.65 of the volume: a box ending at 0.5 leaves it out.
  view_->setClipBox({0, 0, 0}, {0.5f, 1, 1});
  const QImage clipped = grab();
  clipped.save(QStringLiteral(CINEFLOW_TEST_BINARY_DIR "/test_volume_view_clipped.png"));
  QVERIFY2(qGray(clipped.pixel(sphere)) < 128,
           qPrintable(QString::number(qGray(clipped.pixel(sphere)))));
  int brightness = 0;
  brightestSpot(clipped, &brightness);
  QVERIFY(brightness < 200);  // the speckle alone: at most 20 dB above the range's floor
  // Each of the other five planes, cutting just past the sphere, keeps it out too.
  const float sx = sphereTexture().x(), sz = sphereTexture().y(), sy = sphereTexture().z();
  const float past = 5.0f / kNz;
  view_->setClipBox({sx + 5.0f / kNx, 0, 0}, {1, 1, 1});
  QVERIFY(qGray(grab().pixel(sphere)) < 128);
  view_->setClipBox({0, sz + past, 0}, {1, 1, 1});
  QVERIFY(qGray(grab().pixel(sphere)) < 128);
  view_->setClipBox({0, 0, 0}, {1, sz - past, 1});
  QVERIFY(qGray(grab().pixel(sphere)) < 128);
  view_->setClipBox({0, 0, sy + 5.0f / kNy}, {1, 1, 1});
  QVERIFY(qGray(grab().pixel(sphere)) < 128);
  view_->setClipBox({0, 0, 0}, {1, 1, sy - 5.0f / kNy});
  QVERIFY(qGray(grab().pixel(sphere)) < 128);
  view_->setClipBox({0, 0, 0}, {1, 1, 1});
  QVERIFY(qGray(grab().pixel(sphere)) > 200);
}

void TestVolumeView::anisotropicVoxelsShowInProportion() {
  // A uniformly bright 64 x 64 x 16 volume of 0.1 x 0.05 x 0.2 mm voxels: 6.4 mm wide, 3.2 mm
  // deep, 3.2 mm in elevation. Seen along elevation it is twice as wide as deep; from the side
  // (along x) as deep as it is long in elevation.
  auto volume = std::make_shared<VolumeData>();
  volume->nx = 64;
  volume->nz = 64;
  volume->ny = 16;
  volume->voxelMm = {0.1f, 0.05f, 0.2f};
  volume->voxels.assign(64 * 64 * 16, -3.0f);
  view_->setVolume(volume);
  view_->setAngles(0, 0);
  QImage image = grab();
  QRect box = brightBox(image, 128);
  QVERIFY(!box.isEmpty());
  const double front = static_cast<double>(box.width()) / box.height();
  QVERIFY2(std::abs(front - 2.0) < 0.05, qPrintable(QString::number(front)));
  view_->setAngles(90, 0);
  image = grab();
  box = brightBox(image, 128);
  const double side = static_cast<double>(box.width()) / box.height();
  QVERIFY2(std::abs(side - 1.0) < 0.05, qPrintable(QString::number(side)));
  // The projected corners agree with the box drawn (within a pixel).
  view_->setAngles(0, 0);
  image = grab();
  box = brightBox(image, 128);
  const QPointF topLeft = view_->projectToFramebuffer({0, 0, 0.5f});
  const QPointF bottomRight = view_->projectToFramebuffer({1, 1, 0.5f});
  QVERIFY(std::abs(box.left() - topLeft.x()) <= 1.5 && std::abs(box.top() - topLeft.y()) <= 1.5);
  QVERIFY(std::abs(box.right() + 1 - bottomRight.x()) <= 1.5 &&
          std::abs(box.bottom() + 1 - bottomRight.y()) <= 1.5);
}

void TestVolumeView::isoSurfaceIsShadedLikeASphere() {
  view_->setMode(VolumeRenderMode::IsoSurface);
  view_->setIsoLevel(0.8f);  // -12 dB: the sphere, not the speckle (at most -40 dB)
  view_->setAngles(25, -10);
  const QImage image = grab();
  image.save(QStringLiteral(CINEFLOW_TEST_BINARY_DIR "/test_volume_view_iso.png"));
  const QPointF centre = view_->projectToFramebuffer(sphereTexture());
  const QPointF rim = view_->projectToFramebuffer(
      sphereTexture() + QVector3D(0, static_cast<float>(kSphereRadius * 0.8 / kNz), 0));
  const int background = qGray(image.pixel(2, 2));
  const int atCentre = qGray(image.pixel(centre.toPoint()));
  const int atRim = qGray(image.pixel(rim.toPoint()));
  QVERIFY2(atCentre > background + 60, qPrintable(QString::number(atCentre)));
  QVERIFY2(atRim > background && atRim < atCentre,
           qPrintable(QStringLiteral("rim %1, centre %2").arg(atRim).arg(atCentre)));
  // Far from the sphere: no surface, the background.
  QCOMPARE(qGray(image.pixel(view_->projectToFramebuffer({0.1f, 0.9f, 0.5f}).toPoint())),
           background);
}

void TestVolumeView::dragOrbitsAndRendersCoarselyWhileMoving() {
  view_->setAngles(0, 0);
  const float yaw = view_->camera().yaw();
  const QPoint start(320, 240);
  QTest::mousePress(view_.get(), Qt::LeftButton, Qt::NoModifier, start);
  QMouseEvent move(QEvent::MouseMove, QPointF(start + QPoint(50, 0)),
                   view_->mapToGlobal(QPointF(start + QPoint(50, 0))), Qt::LeftButton,
                   Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(view_.get(), &move);
  QTest::mouseRelease(view_.get(), Qt::LeftButton, Qt::NoModifier, start + QPoint(50, 0));
  QVERIFY(std::abs(view_->camera().yaw() - yaw - 20.0f) < 0.01f);  // 0.4 degrees per pixel
  QVERIFY(view_->moving());
  QCOMPARE(view_->look().stepVoxels, 2.0f);
  QCOMPARE(view_->look().resolution, 0.5f);
  // Drawn at half resolution, the sphere still peaks where it projects.
  int brightness = 0;
  const QPointF spot = brightestSpot(grab(), &brightness);
  const QPointF expected = view_->projectToFramebuffer(sphereTexture());
  QVERIFY(brightness > 200);
  QVERIFY(std::hypot(spot.x() - expected.x(), spot.y() - expected.y()) <= 2 * kPositionTolerancePx);
  QTRY_VERIFY_WITH_TIMEOUT(!view_->moving(), 5000);
  QCOMPARE(view_->look().stepVoxels, 0.5f);
  QCOMPARE(view_->look().resolution, 1.0f);
  QTest::mouseDClick(view_.get(), Qt::LeftButton, Qt::NoModifier, start);
  QCOMPARE(view_->camera().yaw(), cineflow::ui::VolumeCamera::kDefaultYaw);
  QCOMPARE(view_->camera().pitch(), cineflow::ui::VolumeCamera::kDefaultPitch);
}

void TestVolumeView::overlayDrawsAxesAndScaleBar() {
  view_->setOpacityCurve(std::vector<float>(256, 0.0f));
  view_->setMode(VolumeRenderMode::Composite);  // nothing opaque: the overlay alone stands out
  const QImage bare = grab();
  view_->setOverlayVisible(true);
  const QImage drawn = grab();
  view_->setOverlayVisible(false);
  drawn.save(QStringLiteral(CINEFLOW_TEST_BINARY_DIR "/test_volume_view_overlay.png"));
  const auto changed = [&](QRect area) {
    int count = 0;
    for (int y = area.top(); y <= area.bottom(); ++y) {
      for (int x = area.left(); x <= area.right(); ++x) {
        count += bare.pixel(x, y) != drawn.pixel(x, y) ? 1 : 0;
      }
    }
    return count;
  };
  const int w = drawn.width(), h = drawn.height();
  QVERIFY(changed(QRect(0, h - 100, 100, 100)) > 50);          // the axes, bottom left
  QVERIFY(changed(QRect(w - w / 3, h - 40, w / 3, 40)) > 50);  // the scale bar, bottom right
  QVERIFY(changed(QRect(0, 0, w / 2, 30)) > 20);               // the caption
  QVERIFY(changed(QRect(w / 3, h / 3, w / 3, h / 3)) == 0);    // and nothing over the volume
}

void TestVolumeView::exportSizedPictureIsTheViewsFraming() {
  view_->setAngles(35, 20);
  const QImage shown = grab();
  const std::uint64_t drawn = view_->framesDrawn();
  QString error;
  // At the size shown: the picture on screen.
  const QImage asShown = view_->renderImage(view_->framebufferSize(), &error);
  QVERIFY2(!asShown.isNull(), qPrintable(error));
  QCOMPARE(asShown, shown);
  // At 1280 x 720 (another aspect, larger): the sphere where the camera puts it at that size.
  const QSize size(1280, 720);
  const QImage large = view_->renderImage(size, &error);
  QVERIFY2(!large.isNull(), qPrintable(error));
  large.save(QStringLiteral(CINEFLOW_TEST_BINARY_DIR "/test_volume_view_1280x720.png"));
  QCOMPARE(large.size(), size);
  QCOMPARE(view_->framesDrawn(), drawn);  // drawn offscreen, the view on screen left alone
  // The tolerance scales with the pixels per voxel: 720 rather than 480 on the shorter side.
  const QString misplaced = sphereMisplaced(large, view_->camera().project(sphereTexture(), size),
                                            kPositionTolerancePx * 720.0 / 480.0);
  QVERIFY2(misplaced.isEmpty(), qPrintable(misplaced));
}

void TestVolumeView::ownLevelIsTheVolumesSuggestion() {
  const auto volume = speckleWithSphere();
  const cineflow::process::VolumeShape shape{kNy, kNz, kNx};
  const double suggested = cineflow::ui::suggestGainDb(levelSample(volume->voxels.data(), shape));
  view_->setGainDb(-20);
  view_->setOwnLevel(true);
  view_->setRelativeGainDb(4);
  view_->setVolume(volume);
  QCOMPARE(view_->ownWhiteDb(), std::optional<double>(suggested));
  QCOMPARE(view_->look().gainDb, static_cast<float>(suggested - 4));  // 4 dB more gain: brighter
  view_->setGainDb(-30);  // the absolute level does not move it
  QCOMPARE(view_->look().gainDb, static_cast<float>(suggested - 4));
  view_->setOwnLevel(false);
  QCOMPARE(view_->look().gainDb, -30.0f);
  view_->setRelativeGainDb(0);
  // The sample: whole rows spread over the volume, never more than kLevelSampleVoxels (and a
  // row) whatever the volume's size; a small volume whole.
  const std::size_t sampled = levelSample(volume->voxels.data(), shape).size();
  QVERIFY(sampled <= cineflow::ui::kLevelSampleVoxels + kNx);
  QVERIFY(sampled >= cineflow::ui::kLevelSampleVoxels / 2);
  const cineflow::process::VolumeShape small{8, kNz, kNx};
  QCOMPARE(levelSample(volume->voxels.data(), small).size(), small.voxels());
  const cineflow::process::VolumeShape large{512, 512, 512};
  QVERIFY(static_cast<std::size_t>(levelSampleRows(large)) * 512 <=
          cineflow::ui::kLevelSampleVoxels + 512);
  QVERIFY(static_cast<std::size_t>(levelSampleRows(large) - 1) *
              static_cast<std::size_t>(levelSampleRowStride(large)) <
          large.alongX());
}

void TestVolumeView::slicePlaneOutlinesTheChosenSlice() {
  view_->setAngles(40, 25);
  const QImage without = grab();
  view_->setSlicePlane(kSphereY);
  const QPolygonF outline = view_->slicePlaneOutline();
  QCOMPARE(outline.size(), 4);
  // Its corners are the volume's at the slice's elevation; the sphere's centre lies inside it.
  const float r = (kSphereY + 0.5f) / kNy;
  const qreal ratio = view_->devicePixelRatioF();
  QVERIFY((outline[0] * ratio - view_->projectToFramebuffer({0, 0, r})).manhattanLength() < 0.01);
  QVERIFY((outline[2] * ratio - view_->projectToFramebuffer({1, 1, r})).manhattanLength() < 0.01);
  QVERIFY(
      outline.containsPoint(view_->projectToFramebuffer(sphereTexture()) / ratio, Qt::OddEvenFill));
  const QImage with = grab();
  // The outline is drawn: the pixels along its first edge changed.
  int changed = 0;
  for (int i = 1; i < 20; ++i) {
    const QPoint p = ((outline[0] + (outline[1] - outline[0]) * (i / 20.0)) * ratio).toPoint();
    changed += with.pixel(p) != without.pixel(p) ? 1 : 0;
  }
  QVERIFY2(changed >= 15, qPrintable(QString::number(changed)));
  view_->setSlicePlane(std::nullopt);
  QVERIFY(view_->slicePlaneOutline().isEmpty());
  QCOMPARE(grab(), without);
}

void TestVolumeView::deviceUploadDrawsWhatTheHostUploadDraws() {
  // The CUDA-OpenGL interop path: the same volume from device memory (cudaMemcpy3DAsync into the
  // registered 3-D texture, brick maxima on the device) draws the same picture as its host copy.
  std::unique_ptr<cineflow::compute::Backend> cuda;
  try {
    cuda = cineflow::compute::createBackend(cineflow::compute::BackendRequest::Cuda);
  } catch (const std::exception& error) {
    QSKIP(qPrintable(QStringLiteral("no CUDA device: %1").arg(error.what())));
  }
  const auto volume = speckleWithSphere();
  view_->setAngles(35, 20);
  const QImage fromHost = grab();
  cineflow::compute::DeviceBuffer<float> onDevice(*cuda, volume->voxels.size());
  cuda->copyBlocking(onDevice.data(), volume->voxels.data(), onDevice.bytes());
  cineflow::ui::VolumeData described = *volume;
  described.voxels.clear();
  if (!view_->showDeviceVolume(*cuda, onDevice.data(), described)) {
    const QString why = view_->deviceUploadReason();
    if (qEnvironmentVariableIntValue("CINEFLOW_REQUIRE_GL_INTEROP") != 0) {
      QFAIL(
          qPrintable(QStringLiteral("CUDA-OpenGL interop required but unavailable: %1").arg(why)));
    }
    QSKIP(qPrintable(QStringLiteral("no CUDA-OpenGL interop here: %1").arg(why)));
  }
  const QImage fromDevice = grab();
  // The own level from the device's sample is the host's.
  QCOMPARE(view_->ownWhiteDb(),
           std::optional<double>(cineflow::ui::suggestGainDb(
               levelSample(volume->voxels.data(), cineflow::process::VolumeShape{kNy, kNz, kNx}))));
  fromDevice.save(QStringLiteral(CINEFLOW_TEST_BINARY_DIR "/test_volume_view_device.png"));
  QCOMPARE(fromDevice, fromHost);
  view_->setVolume(volume);  // back to the host copy before the device memory goes
  QCOMPARE(grab(), fromHost);
  // The view's uploader allocated through `cuda`: it lets go before the backend does (a view
  // that kept it crashed when it was destroyed, after the backend), and draws on without it.
  view_->releaseDevice();
  view_->setAngles(0, 0);
  view_->setAngles(35, 20);
  QCOMPARE(grab(), fromHost);
}

void TestVolumeView::measureFrameRate() {
  if (qEnvironmentVariableIntValue("CINEFLOW_MEASURE_3D") == 0) {
    QSKIP(
        "a measurement, not a check: CINEFLOW_MEASURE_3D=1 reports the frame rate of a 256^3 "
        "volume at 800 x 600");
  }
  const bool goalSize = qEnvironmentVariableIntValue("CINEFLOW_MEASURE_3D") == 512;
  const int edge = goalSize ? 512 : 256;
  const QSize viewSize = goalSize ? QSize(1920, 1080) : QSize(800, 600);
  auto volume = std::make_shared<VolumeData>();
  volume->nx = volume->nz = volume->ny = edge;
  volume->voxelMm = {0.1f, 0.1f, 0.1f};
  volume->voxels.resize(static_cast<std::size_t>(edge) * edge * edge);
  std::mt19937 random(7);
  std::uniform_real_distribution<float> speckle(-60.0f, -20.0f);
  for (float& v : volume->voxels) {
    v = speckle(random);
  }
  view_->resize(viewSize);
  view_->setVolume(volume);
  grab();  // the upload
  for (const auto mode : {VolumeRenderMode::MaximumIntensity, VolumeRenderMode::Composite,
                          VolumeRenderMode::IsoSurface}) {
    view_->setMode(mode);
    view_->setOpacityCurve(opacityAbove(0.5f, 0.1f));
    view_->setIsoLevel(0.9f);
    QElapsedTimer timer;
    timer.start();
    const int frames = goalSize ? 30 : 5;
    for (int i = 0; i < frames; ++i) {
      view_->setAngles(10.0f * i, 15);
      grab();
    }
    qInfo("%d^3 at %d x %d, mode %d: %.2f frames/s", edge, viewSize.width(), viewSize.height(),
          static_cast<int>(mode), frames * 1000.0 / static_cast<double>(timer.elapsed()));
  }
  view_->resize(640, 480);
}

QTEST_MAIN(TestVolumeView)
#include "test_volume_view.moc"
