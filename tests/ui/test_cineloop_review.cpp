// Cineloop review on the simulator with the CPU backend: after a finished 40-frame acquisition
// with a 16-frame cineloop, the panel selects the newest frame when leaving live mode, steps and
// scrubs to the expected sequence numbers, hands out pixels identical to the cineloop's, plays in
// sequence order, exports 16 grey PNG frames with index.csv on a background thread (one export at a
// time), and fails cleanly (a message, no files) when the export folder cannot exist or the panel
// is closed during an export.

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>

#include "acquire/source_factory.hpp"
#include "cineloop_export.hpp"
#include "cineloop_panel.hpp"
#include "compute/backend.hpp"
#include "pipeline/engine.hpp"

using cineflow::ui::CineloopPanel;
using cineflow::ui::Frame;

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
  void exportsEveryFrameAsGreyPng();
  void exportIntoAnImpossibleFolderFailsCleanly();
  void closingDuringAnExportLeavesNoFiles();  // last: destroys the panel

 private:
  // The frames emitted since init(); each must equal the cineloop's copy bit for bit.
  void verifyMatchesCineloop(const Frame& frame) const;
  std::uint64_t lastSequence() const { return received_.back()->header.sequence; }

  std::unique_ptr<cineflow::compute::Backend> backend_;
  std::unique_ptr<cineflow::pipeline::Engine> engine_;
  std::unique_ptr<CineloopPanel> panel_;
  std::vector<std::shared_ptr<const Frame>> received_;
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
          [this](std::shared_ptr<const Frame> frame) { received_.push_back(std::move(frame)); });
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

void CineloopReviewTest::verifyMatchesCineloop(const Frame& frame) const {
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

void CineloopReviewTest::exportsEveryFrameAsGreyPng() {
  QTemporaryDir folder;
  QVERIFY(folder.isValid());
  const auto geometry = engine_->cineloop().geometry();

  QElapsedTimer timer;
  timer.start();
  const double gainDb = gainFor(*engine_);
  QSignalSpy finished(panel_.get(), &cineflow::ui::CineloopPanel::exportFinished);
  QSignalSpy progress(panel_.get(), &cineflow::ui::CineloopPanel::exportProgress);
  QVERIFY(panel_->startExport(folder.path(), gainDb, kDynamicRangeDb));
  QVERIFY(panel_->isExporting());
  QVERIFY(!panel_->startExport(folder.path(), gainDb, kDynamicRangeDb));  // one at a time
  QVERIFY(lastMessageWasError_);
  messages_.clear();
  QVERIFY(finished.wait(60'000));
  QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
  QVERIFY(!panel_->isExporting());
  QCOMPARE(progress.size(), kCineloopFrames);
  QCOMPARE(progress.back().at(1).toInt(), kCineloopFrames);
  qInfo("exported %d frames of %d x %d in %lld ms", kCineloopFrames, geometry.nx, geometry.nz,
        static_cast<long long>(timer.elapsed()));
  QVERIFY(!lastMessageWasError_);

  const QDir dir(folder.path());
  const QStringList pngs = dir.entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
  QCOMPARE(pngs.size(), kCineloopFrames);
  QCOMPARE(dir.entryList(QDir::Files | QDir::Hidden).size(), kCineloopFrames + 1);  // no leftovers
  for (std::uint64_t sequence = kOldest; sequence <= kNewest; ++sequence) {
    const QString name = cineflow::ui::cineloopFrameFileName(sequence);
    QCOMPARE(pngs.at(static_cast<int>(sequence - kOldest)), name);
    const QImage image(dir.filePath(name));
    QVERIFY2(!image.isNull(), qPrintable(name));
    QCOMPARE(image.width(), geometry.nx);
    QCOMPARE(image.height(), geometry.nz);
    QVERIFY(image.isGrayscale());
    std::vector<int> histogram(256, 0);
    const QImage grey = image.convertToFormat(QImage::Format_Grayscale8);
    for (int y = 0; y < grey.height(); ++y) {
      const uchar* row = grey.constScanLine(y);
      for (int x = 0; x < grey.width(); ++x) {
        ++histogram[row[x]];
      }
    }
    const int levelsUsed = static_cast<int>(
        std::count_if(histogram.begin(), histogram.end(), [](int count) { return count > 0; }));
    const int mostCommon = *std::max_element(histogram.begin(), histogram.end());
    QVERIFY2(levelsUsed > 64, qPrintable(QString::number(levelsUsed)));  // speckle, not flat
    QVERIFY(mostCommon < grey.width() * grey.height() / 2);              // not saturated
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
}

void CineloopReviewTest::exportIntoAnImpossibleFolderFailsCleanly() {
  QTemporaryDir folder;
  QVERIFY(folder.isValid());
  const QString blocker = QDir(folder.path()).filePath(QStringLiteral("not-a-folder"));
  {
    QFile file(blocker);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("a regular file where a folder would have to be\n");
  }
  const QString impossible = blocker + QStringLiteral("/export");

  QSignalSpy finished(panel_.get(), &cineflow::ui::CineloopPanel::exportFinished);
  QVERIFY(panel_->startExport(impossible, 0.0, kDynamicRangeDb));
  QVERIFY(finished.wait(10'000));
  QVERIFY(!finished.at(0).at(0).toBool());
  QCOMPARE(messages_.size(), std::size_t{1});
  QVERIFY(lastMessageWasError_);
  QVERIFY2(messages_.back().contains(impossible), qPrintable(messages_.back()));
  const QStringList left =
      QDir(folder.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
  QCOMPARE(left, QStringList{QStringLiteral("not-a-folder")});
  QVERIFY(panel_->startExport(QString(), 0.0, kDynamicRangeDb));  // no folder at all
  QVERIFY(finished.wait(10'000));
  QVERIFY(!finished.at(1).at(0).toBool());
}

void CineloopReviewTest::closingDuringAnExportLeavesNoFiles() {
  QTemporaryDir folder;
  QVERIFY(folder.isValid());
  QVERIFY(panel_->startExport(folder.path(), 0.0, kDynamicRangeDb));
  panel_.reset();  // cancels and joins the export thread; its temporaries are removed
  const QStringList left =
      QDir(folder.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
  QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
}

QTEST_MAIN(CineloopReviewTest)
#include "test_cineloop_review.moc"
