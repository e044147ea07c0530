// Cineloop review on the simulator with the CPU backend: after a finished 40-frame acquisition
// with a 16-frame cineloop, the panel selects the newest frame when leaving live mode, steps and
// scrubs to the expected sequence numbers, hands out pixels identical to the cineloop's, plays in
// sequence order, and exports on a background thread (one export at a time): 16 PNG pictures in
// the frames' physical proportions drawn with the display's colour map (every pixel one of its
// entries), with rulers and scale bar when asked, plus index.csv; or the dB values bit for bit in
// one HDF5 file read back with the plain HDF5 C API. An export never writes into a folder that
// holds files or onto an existing file, and fails cleanly (a message, no files, no folder left
// behind) when its folder cannot exist or the panel is closed during an export.

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>

#include "cineloop/cineloop_panel.hpp"
#include "common/colour_maps.hpp"
#include "compute/backend.hpp"
#include "export/cineloop_export.hpp"
#include "export/frame_picture.hpp"
#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "support/plain_hdf5.hpp"
#include "view2d/view_overlay.hpp"

using cineflow::ui::CineloopExportFormat;
using cineflow::ui::CineloopPanel;
using cineflow::ui::Image;

namespace {

constexpr std::uint64_t kFramesAcquired = 40;
constexpr int kCineloopFrames = 16;
constexpr std::uint64_t kNewest = kFramesAcquired - 1;
constexpr std::uint64_t kOldest = kFramesAcquired - kCineloopFrames;
constexpr int kPlaybackMs = 300;
constexpr double kDynamicRangeDb = 60.0;

// Images are absolute dB: like the main window's automatic gain, put white near the brightest
// echoes (the 99th percentile) so the grey levels span the speckle.
double gainFor(const cineflow::pipeline::Engine& engine) {
  std::vector<float> pixels;
  cineflow::acquire::FrameHeader header;
  cineflow::process::ImageGeometry geometry;
  if (!engine.cineloop().copyImage(std::nullopt, pixels, header, geometry) || pixels.empty()) {
    return 0.0;
  }
  const auto percentile = pixels.begin() + static_cast<std::ptrdiff_t>(pixels.size() * 99 / 100);
  std::nth_element(pixels.begin(), percentile, pixels.end());
  return *percentile;
}

}  // namespace

class CineloopReviewTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void cleanupTestCase();
  void init();

  void leavingLiveSelectsTheNewestFrame();
  void stepsAndScrubsToTheExpectedSequences();
  void playbackAdvancesInSequenceOrder();
  void liveModeDisablesTheControls();
  void exportsPicturesAsTheDisplayShowsThem();
  void annotatedPicturesCarryTheRulers();
  void exportsTheDataAsHdf5();
  void neverWritesOverAnything();
  void exportIntoAnImpossibleFolderFailsCleanly();
  void closingDuringAnExportLeavesNoFiles();  // last: destroys the panel

 private:
  // The frames emitted since init(); each must equal the cineloop's copy bit for bit.
  void verifyMatchesCineloop(const Image& frame) const;
  std::uint64_t lastSequence() const { return received_.back()->header.sequence; }

  std::unique_ptr<cineflow::compute::Backend> backend_;
  std::unique_ptr<cineflow::pipeline::Engine> engine_;
  std::unique_ptr<CineloopPanel> panel_;
  std::vector<std::shared_ptr<const Image>> received_;
  std::vector<QString> messages_;
  bool lastMessageWasError_ = false;
};

void CineloopReviewTest::initTestCase() {
  QVERIFY2(qEnvironmentVariableIsSet("CINEFLOW_CACHE_DIR"),
           "CTest sets CINEFLOW_CACHE_DIR so the simulator's frames are cached between runs");
  backend_ = cineflow::compute::createBackend(cineflow::compute::BackendRequest::Cpu);
  cineflow::pipeline::EngineConfig config;
  config.pace = false;
  config.maxFrames = kFramesAcquired;
  config.cineloopFrames = kCineloopFrames;
  config.framesPerVolume = 0;  // exactly kCineloopFrames kept (volumes round up to whole sweeps)
  engine_ = std::make_unique<cineflow::pipeline::Engine>(*backend_, config);
  engine_->setSource(cineflow::acquire::openSource("sim"));
  engine_->start();
  QCOMPARE(engine_->waitUntilFinished(), cineflow::pipeline::EngineState::Finished);
  engine_->stop();
  QCOMPARE(static_cast<int>(engine_->cineloop().headers().size()), kCineloopFrames);

  panel_ = std::make_unique<CineloopPanel>(*engine_);
  connect(panel_.get(), &CineloopPanel::frameSelected, this,
          [this](std::shared_ptr<const Image> frame) { received_.push_back(std::move(frame)); });
  connect(panel_.get(), &CineloopPanel::messageReady, this,
          [this](const QString& message, bool isError) {
            messages_.push_back(message);
            lastMessageWasError_ = isError;
          });
  panel_->show();
  QVERIFY(QTest::qWaitForWindowExposed(panel_.get()));
}

void CineloopReviewTest::cleanupTestCase() {
  panel_.reset();  // before the engine it reads
  engine_.reset();
}

void CineloopReviewTest::init() {
  QVERIFY(panel_);
  panel_->setPlaying(false);
  received_.clear();
  messages_.clear();
}

void CineloopReviewTest::verifyMatchesCineloop(const Image& frame) const {
  std::vector<float> pixels;
  cineflow::acquire::FrameHeader header;
  cineflow::process::ImageGeometry geometry;
  QVERIFY(engine_->cineloop().copyImage(frame.header.sequence, pixels, header, geometry));
  QCOMPARE(header.sequence, frame.header.sequence);
  QCOMPARE(header.timestampNs, frame.header.timestampNs);
  QVERIFY(geometry == frame.geometry);
  QCOMPARE(frame.pixels.size(), geometry.pixels());
  QVERIFY(std::equal(pixels.begin(), pixels.end(), frame.pixels.begin()));  // bit-exact copy
}

void CineloopReviewTest::leavingLiveSelectsTheNewestFrame() {
  panel_->setLive(true);
  QVERIFY(received_.empty());
  panel_->setLive(false);
  QCOMPARE(received_.size(), std::size_t{1});
  QCOMPARE(lastSequence(), kNewest);
  verifyMatchesCineloop(*received_.back());
  QCOMPARE(panel_->entryCount(), kCineloopFrames);
  QCOMPARE(panel_->currentIndex(), kCineloopFrames - 1);
  QVERIFY2(panel_->positionText().startsWith(QStringLiteral("seq 39 \u00b7 t = +")),
           qPrintable(panel_->positionText()));
  QVERIFY2(panel_->positionText().endsWith(QStringLiteral("16 / 16")),
           qPrintable(panel_->positionText()));
}

void CineloopReviewTest::stepsAndScrubsToTheExpectedSequences() {
  panel_->setLive(false);
  received_.clear();

  panel_->stepBackAction()->trigger();
  QCOMPARE(received_.size(), std::size_t{1});
  QCOMPARE(lastSequence(), kNewest - 1);
  verifyMatchesCineloop(*received_.back());

  panel_->stepForward();
  QCOMPARE(lastSequence(), kNewest);
  QVERIFY(!panel_->stepForwardAction()->isEnabled());  // nothing newer

  panel_->timeline()->setValue(0);  // scrub to the oldest
  QCOMPARE(lastSequence(), kOldest);
  QCOMPARE(panel_->currentIndex(), 0);
  verifyMatchesCineloop(*received_.back());
  QVERIFY2(panel_->positionText().startsWith(QStringLiteral("seq 24 \u00b7 t = +0.000 s")),
           qPrintable(panel_->positionText()));
  QVERIFY(!panel_->stepBackAction()->isEnabled());  // nothing older

  panel_->timeline()->setValue(7);
  QCOMPARE(lastSequence(), kOldest + 7);
  verifyMatchesCineloop(*received_.back());
}

void CineloopReviewTest::playbackAdvancesInSequenceOrder() {
  panel_->setLive(false);
  panel_->timeline()->setValue(0);
  received_.clear();
  panel_->setPlaybackSpeed(4.0);
  QCOMPARE(panel_->playbackSpeed(), 4.0);

  panel_->playPauseAction()->trigger();
  QVERIFY(panel_->isPlaying());
  QTest::qWait(kPlaybackMs);
  panel_->togglePlayback();
  QVERIFY(!panel_->isPlaying());
  QVERIFY(!panel_->playPauseAction()->isChecked());

  QVERIFY2(received_.size() >= 3, qPrintable(QString::number(received_.size())));
  for (std::size_t i = 1; i < received_.size(); ++i) {
    const std::uint64_t previous = received_[i - 1]->header.sequence;
    const std::uint64_t current = received_[i]->header.sequence;
    const bool wrapped = previous == kNewest && current == kOldest;
    QVERIFY2(current == previous + 1 || wrapped,
             qPrintable(QStringLiteral("%1 after %2").arg(current).arg(previous)));
  }
  QCOMPARE(received_.front()->header.sequence, kOldest + 1);
  for (const auto& frame : received_) {
    verifyMatchesCineloop(*frame);
  }

  const std::size_t afterPause = received_.size();
  QTest::qWait(50);
  QCOMPARE(received_.size(), afterPause);  // paused means paused
}

void CineloopReviewTest::liveModeDisablesTheControls() {
  panel_->setLive(false);
  panel_->setPlaying(true);
  received_.clear();
  panel_->setLive(true);
  QVERIFY(!panel_->isPlaying());
  QVERIFY(!panel_->timeline()->isEnabled());
  QVERIFY(!panel_->playPauseAction()->isEnabled());
  QVERIFY(!panel_->stepBackAction()->isEnabled());
  QVERIFY(!panel_->stepForwardAction()->isEnabled());
  panel_->stepBack();
  panel_->selectIndex(0);
  panel_->setPlaying(true);
  QVERIFY(!panel_->isPlaying());
  QTest::qWait(50);
  QVERIFY(received_.empty());
  panel_->setLive(false);
  QCOMPARE(lastSequence(), kNewest);
  QVERIFY(panel_->timeline()->isEnabled());
}

// Waits for the panel's export to finish; its (ok, message).
static bool writeFile(const QString& path, const QByteArray& content) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

static std::pair<bool, QString> waitForExport(QSignalSpy& finished) {
  if (finished.isEmpty() && !finished.wait(60'000)) {
    return {false, QStringLiteral("the export did not finish")};
  }
  const QList<QVariant> last = finished.takeFirst();
  return {last.at(0).toBool(), last.at(1).toString()};
}

void CineloopReviewTest::exportsPicturesAsTheDisplayShowsThem() {
  QTemporaryDir parent;
  QVERIFY(parent.isValid());
  const QString folder = QDir(parent.path()).filePath(QStringLiteral("new export"));
  const auto geometry = engine_->cineloop().geometry();

  QElapsedTimer timer;
  timer.start();
  const double gainDb = gainFor(*engine_);
  panel_->setGainDb(gainDb);
  panel_->setDynamicRangeDb(kDynamicRangeDb);
  panel_->setColourMap(cineflow::ui::ColourMap::Viridis);
  QSignalSpy finished(panel_.get(), &cineflow::ui::CineloopPanel::exportFinished);
  QSignalSpy progress(panel_.get(), &cineflow::ui::CineloopPanel::exportProgress);
  const auto request = panel_->exportRequest(CineloopExportFormat::Png, folder, false);
  QVERIFY(panel_->startExport(request));
  QVERIFY(panel_->isExporting());
  QVERIFY(!panel_->startExport(request));  // one at a time
  QVERIFY(lastMessageWasError_);
  messages_.clear();
  const auto [ok, message] = waitForExport(finished);
  QVERIFY2(ok, qPrintable(message));
  QVERIFY(!panel_->isExporting());
  QCOMPARE(progress.size(), kCineloopFrames);
  QCOMPARE(progress.back().at(1).toInt(), kCineloopFrames);
  qInfo("exported %d frames of %d x %d in %lld ms", kCineloopFrames, geometry.nx, geometry.nz,
        static_cast<long long>(timer.elapsed()));
  QVERIFY(!lastMessageWasError_);

  // The colours: every pixel is an entry of the Viridis table (the export maps dB through it, as
  // the display's shader does), and the entries used span the speckle.
  const cineflow::ui::ColourTable table = colourTable(cineflow::ui::ColourMap::Viridis);
  std::map<QRgb, int> entryOf;
  for (int entry = 0; entry < cineflow::ui::kColourTableSize; ++entry) {
    const auto at = static_cast<std::size_t>(3 * entry);
    entryOf.emplace(qRgb(table[at], table[at + 1], table[at + 2]), entry);
  }
  // The proportions: the picture's width to height is the field's nx*dx to nz*dz, to within the
  // rounding of either side to whole pixels.
  const double fieldAspect = (geometry.nx * geometry.dx) / (geometry.nz * geometry.dz);
  const QDir dir(folder);
  const QStringList pngs = dir.entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
  QCOMPARE(pngs.size(), kCineloopFrames);
  QCOMPARE(dir.entryList(QDir::Files | QDir::Hidden).size(), kCineloopFrames + 1);  // no leftovers
  for (std::uint64_t sequence = kOldest; sequence <= kNewest; ++sequence) {
    const QString name = cineflow::ui::cineloopFrameFileName(sequence);
    QCOMPARE(pngs.at(static_cast<int>(sequence - kOldest)), name);
    const QImage image = QImage(dir.filePath(name)).convertToFormat(QImage::Format_RGB32);
    QVERIFY2(!image.isNull(), qPrintable(name));
    QVERIFY(std::max(image.width(), image.height()) >= cineflow::ui::kMinPictureSide);
    const double aspect = double(image.width()) / image.height();
    const double aspectTolerance = fieldAspect * (1.0 / image.width() + 1.0 / image.height());
    QVERIFY2(std::abs(aspect - fieldAspect) <= aspectTolerance,
             qPrintable(QStringLiteral("%1 x %2 for a field of aspect %3")
                            .arg(image.width())
                            .arg(image.height())
                            .arg(fieldAspect)));
    std::vector<int> histogram(cineflow::ui::kColourTableSize, 0);
    for (int y = 0; y < image.height(); ++y) {
      const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
      for (int x = 0; x < image.width(); ++x) {
        const auto entry = entryOf.find(row[x] | 0xff000000u);
        QVERIFY2(
            entry != entryOf.end(),
            qPrintable(
                QStringLiteral("%1 (%2, %3) is not a Viridis colour").arg(name).arg(x).arg(y)));
        ++histogram[static_cast<std::size_t>(entry->second)];
      }
    }
    const int levelsUsed = static_cast<int>(
        std::count_if(histogram.begin(), histogram.end(), [](int count) { return count > 0; }));
    const int mostCommon = *std::max_element(histogram.begin(), histogram.end());
    QVERIFY2(levelsUsed > 64, qPrintable(QString::number(levelsUsed)));  // speckle, not flat
    QVERIFY(mostCommon < image.width() * image.height() / 2);            // not saturated
  }

  QFile index(dir.filePath(QStringLiteral("index.csv")));
  QVERIFY(index.open(QIODevice::ReadOnly | QIODevice::Text));
  const QStringList lines =
      QString::fromUtf8(index.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), kCineloopFrames + 1);
  QCOMPARE(lines.front(), QStringLiteral("sequence,timestamp_ns,elevation_m,file"));
  const auto headers = engine_->cineloop().headers();
  for (int row = 0; row < kCineloopFrames; ++row) {
    const QStringList fields = lines.at(row + 1).split(QLatin1Char(','));
    QCOMPARE(fields.size(), 4);
    const auto& header = headers[static_cast<std::size_t>(row)];
    QCOMPARE(fields.at(0).toULongLong(), header.sequence);
    QCOMPARE(fields.at(1).toLongLong(), header.timestampNs);
    QCOMPARE(fields.at(3), cineflow::ui::cineloopFrameFileName(header.sequence));
  }
  panel_->setColourMap(cineflow::ui::ColourMap::Grey);
}

void CineloopReviewTest::annotatedPicturesCarryTheRulers() {
  QTemporaryDir parent;
  QVERIFY(parent.isValid());
  const QString folder = QDir(parent.path()).filePath(QStringLiteral("annotated"));
  panel_->setGainDb(gainFor(*engine_));
  QSignalSpy finished(panel_.get(), &cineflow::ui::CineloopPanel::exportFinished);
  QVERIFY(panel_->startExport(panel_->exportRequest(CineloopExportFormat::Png, folder, true)));
  const auto [ok, message] = waitForExport(finished);
  QVERIFY2(ok, qPrintable(message));

  const QImage image = QImage(QDir(folder).filePath(cineflow::ui::cineloopFrameFileName(kNewest)))
                           .convertToFormat(QImage::Format_RGB32);
  const QSize picture = cineflow::ui::pictureImageSize(engine_->cineloop().geometry());
  const QMargins margins = cineflow::ui::kOverlayMargins;
  QCOMPARE(image.size(), picture.grownBy(margins));
  // The left margin holds the depth ruler's ticks and labels, the bottom one the scale bar: light
  // pixels (the overlay's text and bar colours) on the near-black background.
  const auto lightPixels = [&image](const QRect& area) {
    int light = 0;
    for (int y = area.top(); y <= area.bottom(); ++y) {
      for (int x = area.left(); x <= area.right(); ++x) {
        light += qGray(image.pixel(x, y)) > 128 ? 1 : 0;
      }
    }
    return light;
  };
  const QRect leftMargin(0, margins.top(), margins.left(), picture.height());
  const QRect bottomMargin(margins.left(), margins.top() + picture.height(), picture.width(),
                           margins.bottom());
  QVERIFY2(lightPixels(leftMargin) > 50, qPrintable(QString::number(lightPixels(leftMargin))));
  QVERIFY2(lightPixels(bottomMargin) > 50, qPrintable(QString::number(lightPixels(bottomMargin))));
  QCOMPARE(lightPixels(QRect(image.width() - margins.right(), 0, margins.right(), 4)), 0);
}

void CineloopReviewTest::exportsTheDataAsHdf5() {
  QTemporaryDir parent;
  QVERIFY(parent.isValid());
  const QString file = QDir(parent.path()).filePath(QStringLiteral("loop.h5"));
  panel_->setRecording(QStringLiteral("simulator seed 1 (test)"));
  QSignalSpy finished(panel_.get(), &cineflow::ui::CineloopPanel::exportFinished);
  QVERIFY(panel_->startExport(panel_->exportRequest(CineloopExportFormat::Hdf5, file)));
  const auto [ok, message] = waitForExport(finished);
  QVERIFY2(ok, qPrintable(message));
  QVERIFY2(message.contains(file), qPrintable(message));

  using namespace cineflow::test;
  const PlainFile h5(file.toStdString());
  QVERIFY(h5.id >= 0);
  QCOMPARE(readString(h5.id, "schema"), std::string("cineflow.bmode/1"));
  QCOMPARE(readString(h5.id, "source"), std::string("simulator seed 1 (test)"));
  QCOMPARE(readString(h5.id, "imaging_mode"), std::string("rf"));
  const auto geometry = engine_->cineloop().geometry();
  const std::vector<hsize_t> shape = shapeOf(h5.id, "bmode_db");
  QCOMPARE(shape, (std::vector<hsize_t>{hsize_t(kCineloopFrames), hsize_t(geometry.nz),
                                        hsize_t(geometry.nx)}));
  const auto values = readAll<float>(h5.id, "bmode_db", H5T_NATIVE_FLOAT);
  const auto sequences = readAll<std::uint64_t>(h5.id, "sequence", H5T_NATIVE_UINT64);
  QCOMPARE(sequences.size(), std::size_t(kCineloopFrames));
  std::vector<float> pixels;
  cineflow::acquire::FrameHeader header;
  cineflow::process::ImageGeometry copied;
  for (int frame = 0; frame < kCineloopFrames; ++frame) {
    QCOMPARE(sequences[std::size_t(frame)], kOldest + std::uint64_t(frame));
    QVERIFY(engine_->cineloop().copyImage(sequences[std::size_t(frame)], pixels, header, copied));
    QVERIFY(std::equal(pixels.begin(), pixels.end(),
                       values.begin() + std::ptrdiff_t(frame) * std::ptrdiff_t(pixels.size())));
  }
}

void CineloopReviewTest::neverWritesOverAnything() {
  QTemporaryDir folder;
  QVERIFY(folder.isValid());
  const QString ownFile = QDir(folder.path()).filePath(QStringLiteral("index.csv"));
  QVERIFY(writeFile(ownFile, "the operator's own index\n"));
  QSignalSpy finished(panel_.get(), &cineflow::ui::CineloopPanel::exportFinished);
  messages_.clear();
  QVERIFY(panel_->startExport(panel_->exportRequest(CineloopExportFormat::Png, folder.path())));
  auto [ok, message] = waitForExport(finished);
  QVERIFY(!ok);
  QVERIFY2(message.contains(QStringLiteral("already holds files")), qPrintable(message));
  QVERIFY(lastMessageWasError_);
  QVERIFY(panel_->startExport(panel_->exportRequest(CineloopExportFormat::Hdf5, ownFile)));
  std::tie(ok, message) = waitForExport(finished);
  QVERIFY(!ok);
  QVERIFY2(message.contains(QStringLiteral("exists already")), qPrintable(message));

  QCOMPARE(QDir(folder.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
           QStringList{QStringLiteral("index.csv")});
  QFile file(ownFile);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QCOMPARE(file.readAll(), QByteArray("the operator's own index\n"));
}

void CineloopReviewTest::exportIntoAnImpossibleFolderFailsCleanly() {
  QTemporaryDir folder;
  QVERIFY(folder.isValid());
  const QString blocker = QDir(folder.path()).filePath(QStringLiteral("not-a-folder"));
  QVERIFY(writeFile(blocker, "a regular file where a folder would have to be\n"));
  const QString impossible = blocker + QStringLiteral("/export");

  QSignalSpy finished(panel_.get(), &cineflow::ui::CineloopPanel::exportFinished);
  QVERIFY(panel_->startExport(panel_->exportRequest(CineloopExportFormat::Png, impossible)));
  QVERIFY(finished.wait(10'000));
  QVERIFY(!finished.at(0).at(0).toBool());
  QCOMPARE(messages_.size(), std::size_t{1});
  QVERIFY(lastMessageWasError_);
  QVERIFY2(messages_.back().contains(impossible), qPrintable(messages_.back()));
  const QStringList left =
      QDir(folder.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
  QCOMPARE(left, QStringList{QStringLiteral("not-a-folder")});
  QVERIFY(panel_->startExport(panel_->exportRequest(CineloopExportFormat::Png, QString())));
  QVERIFY(finished.wait(10'000));
  QVERIFY(!finished.at(1).at(0).toBool());
}

void CineloopReviewTest::closingDuringAnExportLeavesNoFiles() {
  QTemporaryDir folder;
  QVERIFY(folder.isValid());
  const QString target = QDir(folder.path()).filePath(QStringLiteral("export"));
  QVERIFY(panel_->startExport(panel_->exportRequest(CineloopExportFormat::Png, target)));
  panel_.reset();  // cancels and joins the export thread; its temporaries are removed
  const QStringList left =
      QDir(folder.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
  QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
}

QTEST_MAIN(CineloopReviewTest)
#include "test_cineloop_review.moc"
