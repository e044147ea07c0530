// The measuring tools as an operator uses them on the simulator under Xvfb: a caliper dragged on
// the live image freezes it and reads the physical distance the mouse travelled (within the
// physical size of the pixels the positions were rounded to); an ellipse reports its area and the
// pixels it holds; a contrast takes two drags; text and arrow labels; the list's Delete, Clear
// and CSV export; double-clicking a row shows its frame again; shapes are drawn on the image.
#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>
#include <cmath>

#include <hdf5.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#include "dcmtk/config/osconfig.h"
#include "dcmtk/dcmdata/dctk.h"
#pragma GCC diagnostic pop
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "bridge/engine_controller.hpp"
#include "cineloop/cineloop_panel.hpp"
#include "dciodvfy.hpp"
#include "export/cineloop_export.hpp"
#include "export/dicom_export.hpp"
#include "measure/measurement_list.hpp"
#include "measure/measurements_panel.hpp"
#include "mp4_decode.hpp"
#include "shell/main_window.hpp"
#include "sim_window.hpp"
#include "store/hdf5_handle.hpp"
#include "support/test_paths.hpp"
#include "view2d/image_view.hpp"
#include "view2d/view_overlay.hpp"

using namespace cineflow;
using test::dciodvfyFindings;
using ui::MeasureTool;

class TestMeasurementsGui : public QObject {
  Q_OBJECT

  std::unique_ptr<ui::MainWindow> window_;

  ui::ImageView& view() { return window_->view(); }
  ui::MeasurementList& list() { return window_->measurements(); }

  // The widget position of a physical point (mm), rounded as a mouse position is.
  QPoint at(double xMm, double zMm) {
    return view().physicalToWidget(xMm * 1e-3, zMm * 1e-3).toPoint();
  }
  void drag(QPoint from, QPoint to) {
    QTest::mousePress(&view(), Qt::LeftButton, Qt::NoModifier, from);
    QTest::mouseMove(&view(), (from + to) / 2);
    QTest::mouseMove(&view(), to);
    QTest::mouseRelease(&view(), Qt::LeftButton, Qt::NoModifier, to);
  }
  void useTool(MeasureTool tool) { window_->measurementsPanel().toolAction(tool)->trigger(); }
  // The physical size of one widget pixel (mm), the larger of the two axes.
  double pixelMm() {
    const QPointF a = view().physicalToWidget(0, 20e-3);
    const QPointF b = view().physicalToWidget(1e-3, 21e-3);
    return 1.0 / std::min(std::abs(b.x() - a.x()), std::abs(b.y() - a.y()));
  }
  // Whether the view shows pixels of the measurements' yellow within `radius` of `centre`.
  bool accentNear(QPoint centre, int radius) {
    const QImage image = view().grabFramebuffer();
    const qreal ratio = view().devicePixelRatioF();
    for (int dy = -radius; dy <= radius; ++dy) {
      for (int dx = -radius; dx <= radius; ++dx) {
        const QPoint p = ((centre + QPoint(dx, dy)) * ratio);
        if (image.rect().contains(p)) {
          const QColor c = image.pixelColor(p);
          if (c.red() > 200 && c.green() > 170 && c.blue() < 80) {
            return true;
          }
        }
      }
    }
    return false;
  }

 private slots:
  void initTestCase() {
    window_ = test::openSimulatorWindow();
    QVERIFY(window_);
    QVERIFY(QTest::qWaitFor([this] { return view().framesDisplayed() > 2; }, 60'000));
  }

  void caliperFreezesAndReadsTheDistance() {
    QVERIFY(window_->controller().isRunning());
    useTool(MeasureTool::Caliper);
    QCOMPARE(view().measureTool(), MeasureTool::Caliper);
    QVERIFY(window_->measurementsDock().isVisible());
    const QPoint from = at(-5, 15), to = at(5, 25);
    drag(from, to);
    QVERIFY(!window_->controller().isRunning());  // frozen for measuring
    QCOMPARE(list().all().size(), std::size_t{1});
    const ui::Measurement& m = list().all().front();
    QCOMPARE(m.tool, MeasureTool::Caliper);
    QVERIFY(m.valid);
    QCOMPARE(m.view, QStringLiteral("Live"));
    QCOMPARE(m.frame, view().displayedFrame()->header.sequence);
    // sqrt(10^2 + 10^2) mm; each end rounded to a widget pixel.
    const double error = std::abs(m.distanceM * 1e3 - std::sqrt(200.0));
    qInfo("caliper %.3f mm, one widget pixel %.3f mm", m.distanceM * 1e3, pixelMm());
    QVERIFY(error <= 2 * pixelMm());
    QTest::qWait(100);
    QVERIFY(accentNear((from + to) / 2, 3));  // the line is drawn on the frozen frame
    QCOMPARE(window_->measurementsPanel().table().rowCount(), 1);
    QVERIFY(
        window_->measurementsPanel().table().item(0, 3)->text().endsWith(QStringLiteral(" mm")));
  }

  void ellipseReportsAreaAndPixels() {
    useTool(MeasureTool::Ellipse);
    drag(at(-8, 20), at(-4, 26));  // semi-axes 2 and 3 mm
    const ui::Measurement& m = list().all().back();
    QCOMPARE(m.tool, MeasureTool::Ellipse);
    QVERIFY(m.valid);
    const double area = M_PI * 2.0 * 3.0;  // mm^2
    // Rounding each corner moves each semi-axis by up to a pixel.
    QVERIFY2(std::abs(m.areaM2 * 1e6 - area) <= M_PI * (2.0 + 3.0) * pixelMm(),
             qPrintable(QString::number(m.areaM2 * 1e6)));
    const auto& g = view().displayedFrame()->geometry;
    const double pixelsExpected = m.areaM2 / (g.dx * g.dz);
    const double outline = m.perimeterM / std::min(g.dx, g.dz);
    QVERIFY(std::abs(static_cast<double>(m.stats.pixels) - pixelsExpected) < outline);
    QVERIFY(m.stats.stdDb > 0);
  }

  void contrastTakesTwoDrags() {
    useTool(MeasureTool::Contrast);
    const std::size_t before = list().all().size();
    drag(at(4.5, 21.5), at(7.5, 24.5));
    QCOMPARE(list().all().size(), before);  // the target alone measures nothing yet
    drag(at(-2, 21), at(2, 25));
    QCOMPARE(list().all().size(), before + 1);
    const ui::Measurement& m = list().all().back();
    QCOMPARE(m.tool, MeasureTool::Contrast);
    QVERIFY(m.valid);
    QVERIFY(m.contrast.target.pixels > 0 && m.contrast.background.pixels > 0);
    QVERIFY(m.contrast.gcnr >= 0 && m.contrast.gcnr <= 1);
  }

  void textAndArrowLabels() {
    view().setTextPrompt([](MeasureTool tool) {
      return tool == MeasureTool::Text ? QStringLiteral("speckle") : QStringLiteral("cyst");
    });
    useTool(MeasureTool::Text);
    QTest::mouseClick(&view(), Qt::LeftButton, Qt::NoModifier, at(10, 35));
    QCOMPARE(list().all().back().tool, MeasureTool::Text);
    QCOMPARE(list().all().back().text, QStringLiteral("speckle"));
    useTool(MeasureTool::Arrow);
    drag(at(-12, 12), at(-7, 20));
    QCOMPARE(list().all().back().tool, MeasureTool::Arrow);
    QCOMPARE(list().all().back().text, QStringLiteral("cyst"));
    // A Text label with no text is not added.
    view().setTextPrompt([](MeasureTool) { return QString(); });
    const std::size_t before = list().all().size();
    useTool(MeasureTool::Text);
    QTest::mouseClick(&view(), Qt::LeftButton, Qt::NoModifier, at(0, 30));
    QCOMPARE(list().all().size(), before);
    useTool(MeasureTool::None);
    QCOMPARE(view().measureTool(), MeasureTool::None);
    // The window with every kind of measurement on the image, for people to look at (the
    // manual's picture: tools/docs/screenshots.sh).
    const QString artefact =
        QString::fromStdString(test::artefactPath("test_measurements_gui.png"));
    QVERIFY2(window_->grab().toImage().save(artefact), qPrintable(artefact));
  }

  void doubleClickingARowShowsItsFrame() {
    ui::CineloopPanel& cineloop = window_->cineloopPanel();
    const std::uint64_t frame = list().all().front().frame;
    cineloop.stepBack();
    cineloop.stepBack();
    QVERIFY(cineloop.currentSequence() != frame);
    QTableWidget& table = window_->measurementsPanel().table();
    const QRect cell = table.visualItemRect(table.item(0, 0));
    // A double-click: the first click's press, then the second's (as the window system sends).
    QTest::mouseClick(table.viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());
    QTest::mouseDClick(table.viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());
    QCOMPARE(cineloop.currentSequence(), std::optional<std::uint64_t>(frame));
  }

  // The cineloop's exports carry the live view's measurements: burnt into the PNG of their frame
  // (and no other), listed in measurements.csv beside the pictures, and recorded as the HDF5
  // file's measurements_csv attribute.
  void exportsCarryTheMeasurements() {
    ui::CineloopPanel& cineloop = window_->cineloopPanel();
    QTemporaryDir parent;
    QVERIFY(parent.isValid());
    const std::uint64_t frame = list().all().front().frame;
    const QString folder = QDir(parent.path()).filePath(QStringLiteral("pictures"));
    QSignalSpy finished(&cineloop, &ui::CineloopPanel::exportFinished);
    QVERIFY(cineloop.startExport(cineloop.exportRequest(ui::CineloopExportFormat::Png, folder)));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60'000);
    QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
    const auto accentPixels = [](const QImage& image) {
      int count = 0;
      for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
          const QColor c = image.pixelColor(x, y);
          count += c.red() > 200 && c.green() > 170 && c.blue() < 80 ? 1 : 0;
        }
      }
      return count;
    };
    const QImage measured(QDir(folder).filePath(ui::cineloopFrameFileName(frame)));
    QVERIFY(!measured.isNull());
    QVERIFY(accentPixels(measured) > 100);  // the caliper, ellipse and contrast, in yellow
    QVERIFY(cineloop.entryCount() > 1);
    const QStringList pictures = QDir(folder).entryList({QStringLiteral("frame_*.png")});
    const QString other =
        pictures.front() == ui::cineloopFrameFileName(frame) ? pictures.back() : pictures.front();
    QCOMPARE(accentPixels(QImage(QDir(folder).filePath(other))), 0);
    // Unticked "Measurements and labels": the same frame without them.
    const QString plain = QDir(parent.path()).filePath(QStringLiteral("plain"));
    ui::CineloopExportRequest withoutMarks =
        cineloop.exportRequest(ui::CineloopExportFormat::Png, plain);
    withoutMarks.picture.measurements = false;
    withoutMarks.onlyFrame = frame;
    QVERIFY(cineloop.startExport(withoutMarks));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, 60'000);
    QVERIFY2(finished.back().at(0).toBool(), qPrintable(finished.back().at(1).toString()));
    QCOMPARE(accentPixels(QImage(QDir(plain).filePath(ui::cineloopFrameFileName(frame)))), 0);
    finished.clear();
    QFile csv(QDir(folder).filePath(QStringLiteral("measurements.csv")));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(csv.readAll()).count('\n'),
             static_cast<int>(list().ofView(QStringLiteral("Live")).size()) + 1);

    // The video: every frame, the pictures' size made even, the first frame as its PNG.
    const QString video = QDir(parent.path()).filePath(QStringLiteral("loop.mp4"));
    ui::CineloopExportRequest request =
        cineloop.exportRequest(ui::CineloopExportFormat::Mp4, video);
    request.videoFramesPerSecond = 10.0;
    QVERIFY(cineloop.startExport(request));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60'000);
    QVERIFY2(finished.back().at(0).toBool(), qPrintable(finished.back().at(1).toString()));
    const test::DecodedVideo decoded = test::decodeMp4(video.toStdString());
    QVERIFY2(decoded.error.isEmpty(), qPrintable(decoded.error));
    QCOMPARE(decoded.frames, static_cast<int>(pictures.size()));
    const QImage firstPicture =
        QImage(QDir(folder).filePath(pictures.front())).convertToFormat(QImage::Format_RGB32);
    QCOMPARE(decoded.width, (firstPicture.width() + 1) & ~1);
    QCOMPARE(decoded.height, (firstPicture.height() + 1) & ~1);
    QVERIFY(std::abs(decoded.seconds - pictures.size() / 10.0) < 0.15);
    const double difference = test::meanAbsoluteDifference(firstPicture, decoded.first);
    qInfo("MP4 of %d frames: first frame differs from its PNG by %.2f of 255 on average",
          decoded.frames, difference);
    QVERIFY(difference < 6.0);

    // As acquired: real time at the source's rate, whatever share of its frames was imaged. The
    // video lasts as long as the frames took to acquire (first to last, plus the last frame's
    // own period), to within a video frame.
    const auto headers = window_->controller().engine().cineloop().headers();
    QVERIFY(headers.size() >= 2);
    request.videoFramesPerSecond = 0.0;
    request.target = QDir(parent.path()).filePath(QStringLiteral("loop_real_time.mp4"));
    finished.clear();
    QVERIFY(cineloop.startExport(request));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60'000);
    QVERIFY2(finished.back().at(0).toBool(), qPrintable(finished.back().at(1).toString()));
    const test::DecodedVideo realTime = test::decodeMp4(request.target.toStdString());
    QVERIFY2(realTime.error.isEmpty(), qPrintable(realTime.error));
    const double span =
        1e-9 * static_cast<double>(headers.back().timestampNs - headers.front().timestampNs);
    const double sourceRate =
        static_cast<double>(headers.back().sequence - headers.front().sequence) / span;
    const double videoRate = std::min(sourceRate, ui::kMaxVideoRateHz);
    qInfo(
        "as acquired: %zu frames imaged over %.2f s from a %.1f Hz source; video %d frames, "
        "%.2f s",
        headers.size(), span, sourceRate, realTime.frames, realTime.seconds);
    QVERIFY(realTime.frames >= static_cast<int>(headers.size()));
    QVERIFY(std::abs(realTime.seconds - (span + 1.0 / videoRate)) <= 1.0 / videoRate + 1e-3);

    // DICOM: every frame as an Ultrasound Multi-frame Image, each the PNG's image part exactly
    // (the PNG adds rulers around it), with the physical pixel spacing; one frame alone as an
    // Ultrasound Image.
    const QString dicom = QDir(parent.path()).filePath(QStringLiteral("loop.dcm"));
    QVERIFY(cineloop.startExport(cineloop.exportRequest(ui::CineloopExportFormat::Dicom, dicom)));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, 60'000);
    QVERIFY2(finished.back().at(0).toBool(), qPrintable(finished.back().at(1).toString()));
    // Kept among the test artefacts, for dcmdump and a PACS viewer.
    const QString kept = QString::fromStdString(test::artefactPath("cineloop.dcm"));
    QFile::remove(kept);
    QFile::copy(dicom, kept);
    DcmFileFormat format;
    QVERIFY(format.loadFile(dicom.toLocal8Bit().constData()).good());
    DcmDataset& data = *format.getDataset();
    const auto text = [&data](const DcmTagKey& tag) {
      OFString value;
      data.findAndGetOFStringArray(tag, value);
      return QString::fromLatin1(value.c_str());
    };
    QCOMPARE(text(DCM_SOPClassUID), QString::fromLatin1(ui::kUltrasoundMultiframeImageStorage));
    QCOMPARE(text(DCM_Modality), QStringLiteral("US"));
    QCOMPARE(text(DCM_PatientName), QString());  // anonymous: Type 2, empty
    QCOMPARE(text(DCM_ImageLaterality), QStringLiteral("U"));
    const QStringList findings = dciodvfyFindings(dicom);
    QVERIFY2(findings.isEmpty(), qPrintable(findings.join(QLatin1Char('\n'))));
    QCOMPARE(text(DCM_BurnedInAnnotation), QStringLiteral("YES"));
    QCOMPARE(text(DCM_NumberOfFrames).toInt(), static_cast<int>(pictures.size()));
    QVERIFY(text(DCM_FrameTime).toDouble() > 0);
    Uint16 rows = 0, columns = 0;
    data.findAndGetUint16(DCM_Rows, rows);
    data.findAndGetUint16(DCM_Columns, columns);
    const QMargins margins = ui::kOverlayMargins;
    QCOMPARE(int(columns), firstPicture.width() - margins.left() - margins.right());
    QCOMPARE(int(rows), firstPicture.height() - margins.top() - margins.bottom());
    DcmItem* region = nullptr;
    QVERIFY(data.findAndGetSequenceItem(DCM_SequenceOfUltrasoundRegions, region, 0).good());
    Float64 deltaX = 0, deltaY = 0;
    region->findAndGetFloat64(DCM_PhysicalDeltaX, deltaX);
    region->findAndGetFloat64(DCM_PhysicalDeltaY, deltaY);
    const process::ImageGeometry& g = view().displayedFrame()->geometry;
    QVERIFY(std::abs(deltaX - g.nx * g.dx * 100.0 / columns) < 1e-9);  // cm per pixel
    QVERIFY(std::abs(deltaY - g.nz * g.dz * 100.0 / rows) < 1e-9);
    const Uint8* pixels = nullptr;
    unsigned long count = 0;
    QVERIFY(data.findAndGetUint8Array(DCM_PixelData, pixels, &count).good());
    QCOMPARE(count, static_cast<unsigned long>(rows) * columns * 3 * pictures.size());
    const int otherIndex = static_cast<int>(pictures.indexOf(other));
    const QImage otherPicture = QImage(QDir(folder).filePath(other))
                                    .convertToFormat(QImage::Format_RGB32)
                                    .copy(margins.left(), margins.top(), columns, rows);
    const Uint8* frameStart = pixels + static_cast<std::size_t>(otherIndex) * rows * columns * 3;
    int differing = 0;
    for (int y = 0; y < rows; ++y) {
      for (int x = 0; x < columns; ++x) {
        const Uint8* p = frameStart + (static_cast<std::size_t>(y) * columns + x) * 3;
        differing += otherPicture.pixel(x, y) != qRgb(p[0], p[1], p[2]) ? 1 : 0;
      }
    }
    QCOMPARE(differing, 0);
    ui::CineloopExportRequest single = cineloop.exportRequest(
        ui::CineloopExportFormat::Dicom, QDir(parent.path()).filePath(QStringLiteral("frame.dcm")));
    single.onlyFrame = frame;
    single.patient.name = QStringLiteral("Smith John");  // typed without a caret
    QVERIFY(cineloop.startExport(single));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 3, 60'000);
    QVERIFY2(finished.back().at(0).toBool(), qPrintable(finished.back().at(1).toString()));
    DcmFileFormat one;
    QVERIFY(one.loadFile(single.target.toLocal8Bit().constData()).good());
    OFString sopClass, frames;
    one.getDataset()->findAndGetOFString(DCM_SOPClassUID, sopClass);
    QCOMPARE(QString::fromLatin1(sopClass.c_str()),
             QString::fromLatin1(ui::kUltrasoundImageStorage));
    QVERIFY(one.getDataset()->findAndGetOFString(DCM_NumberOfFrames, frames).bad());
    OFString name;
    one.getDataset()->findAndGetOFString(DCM_PatientName, name);
    QCOMPARE(QString::fromUtf8(name.c_str()), QStringLiteral("Smith John^"));  // the family name
    const QStringList singleFindings = dciodvfyFindings(single.target);
    QVERIFY2(singleFindings.isEmpty(), qPrintable(singleFindings.join(QLatin1Char('\n'))));

    const QString file = QDir(parent.path()).filePath(QStringLiteral("loop.h5"));
    QVERIFY(cineloop.startExport(cineloop.exportRequest(ui::CineloopExportFormat::Hdf5, file)));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 4, 60'000);
    QVERIFY2(finished.back().at(0).toBool(), qPrintable(finished.back().at(1).toString()));
    const hid_t h5 = H5Fopen(file.toLocal8Bit().constData(), H5F_ACC_RDONLY, H5P_DEFAULT);
    QVERIFY(h5 >= 0);
    const std::string attribute = store::readStringAttribute(h5, "measurements_csv");
    H5Fclose(h5);
    QCOMPARE(QString::fromStdString(attribute), list().csv());
  }

  void csvExportDeleteAndClear() {
    const QString path = QString::fromStdString(test::artefactPath("measurements.csv"));
    QFile::remove(path);
    QVERIFY(window_->measurementsPanel().exportCsv(path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), static_cast<int>(list().all().size()) + 1);
    QCOMPARE(lines.front(), ui::MeasurementList::csvHeader());
    // The caliper's row: its distance in mm in the fifth column.
    const QStringList caliper = lines[1].split(',');
    QCOMPARE(caliper[1], QStringLiteral("Caliper"));
    QVERIFY(std::abs(caliper[4].toDouble() - list().all().front().distanceM * 1e3) < 1e-3);
    // An unwritable place: refused with the reason, the program goes on.
    QVERIFY(!window_->measurementsPanel().exportCsv(QStringLiteral("/proc/no/such/dir/m.csv")));

    QTableWidget& table = window_->measurementsPanel().table();
    const std::size_t before = list().all().size();
    table.selectRow(0);
    window_->measurementsPanel()
        .findChild<QPushButton*>(QStringLiteral("deleteMeasurement"))
        ->click();
    QCOMPARE(list().all().size(), before - 1);
    QCOMPARE(table.rowCount(), static_cast<int>(before - 1));
    window_->measurementsPanel()
        .findChild<QPushButton*>(QStringLiteral("clearMeasurements"))
        ->click();
    QVERIFY(list().all().empty());
    QCOMPARE(table.rowCount(), 0);
  }

  // Unfreezing starts a new cineloop: the reviewed frames' measurements stay listed with their
  // values, under "Earlier cineloop", and the live image draws none of them.
  void unfreezingKeepsMeasurementsOffTheNewFrames() {
    if (!window_->controller().isRunning()) {
      window_->freeze();  // frozen by the earlier cases: live again first
      QTRY_VERIFY_WITH_TIMEOUT(window_->controller().isRunning(), 30'000);
    }
    useTool(MeasureTool::Caliper);
    const QPoint from = at(-4, 14), to = at(4, 22);
    drag(from, to);
    QVERIFY(!window_->controller().isRunning());
    QCOMPARE(list().ofView(QStringLiteral("Live")).size(), std::size_t{1});
    const double distance = list().all().back().distanceM;
    window_->freeze();  // unfreeze
    QTRY_VERIFY_WITH_TIMEOUT(window_->controller().isRunning(), 30'000);
    QVERIFY(list().ofView(QStringLiteral("Live")).empty());
    QCOMPARE(list().all().size(), std::size_t{1});
    QCOMPARE(list().all().back().view, QStringLiteral("Earlier cineloop"));
    QCOMPARE(list().all().back().distanceM, distance);
    const auto shown = view().framesDisplayed();
    QVERIFY(QTest::qWaitFor([&] { return view().framesDisplayed() > shown + 2; }, 30'000));
    QTest::qWait(100);
    QVERIFY(!accentNear((from + to) / 2, 3));  // not drawn on the new frames
  }

  void cleanupTestCase() { window_.reset(); }
};

int main(int argc, char** argv) {
  test::useFreshSettings("test_measurements_gui");
  QApplication app(argc, argv);
  TestMeasurementsGui test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_measurements_gui.moc"
