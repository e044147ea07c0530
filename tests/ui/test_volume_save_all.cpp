// Saving volumes of two sources into one folder, as the operator who found the bug did (simulator,
// CPU backend, under Xvfb): ultrasound volumes auto-buffered and saved with Save all, then the OCT
// simulator's, whose numbers restart at 0, saved with Save all into the same folder. Every file
// stays, each holding its own volume, named and listed with its modality. A name already taken in
// the folder (a file from an earlier run of Cineflow) is never reused; a file is replaced only
// with the operator's yes, and the volume that was saved in it then reads "unsaved".
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <set>

#include "bridge/engine_controller.hpp"
#include "message_box_answerer.hpp"
#include "shell/main_window.hpp"
#include "sim_window.hpp"
#include "store/volume_reader.hpp"
#include "support/plain_hdf5.hpp"
#include "volumes/volume_controller.hpp"
#include "volumes/volume_review_panel.hpp"

using cineflow::store::BufferedSummary;
using cineflow::ui::MainWindow;
using cineflow::ui::VolumeController;

namespace {
constexpr int kTimeoutMs = 120'000;

// The list row of store volume `id`.
QString rowText(cineflow::ui::VolumeReviewPanel& panel, std::uint64_t id) {
  panel.refresh();
  return panel.select(id) ? panel.list().currentItem()->text() : QString();
}
}  // namespace

class TestVolumeSaveAll : public QObject {
  Q_OBJECT

 public:
  static void initMain() { cineflow::test::useFreshSettings("test_volume_save_all"); }

 private slots:
  void initTestCase() {
    QVERIFY(folder_.isValid());
    window_ = cineflow::test::openSimulatorWindow();
    QVERIFY(window_);
  }
  void cleanupTestCase() { window_.reset(); }

  // Closing with unsaved volumes asks (Save all, then quit / Quit without saving / Cancel);
  // Cancel keeps the window. Save all, then quit writes every unsaved volume and then closes.
  void quittingOffersSaveAll() {
    auto window = cineflow::test::openSimulatorWindow();
    QVERIFY(window);
    QVERIFY(cineflow::test::waitForFirstVolume(*window, kTimeoutMs));
    QVERIFY(window->volumes().bufferLatest());
    QVERIFY(window->volumes().bufferLatest());
    const int unsaved = window->volumes().unsavedCount();
    QCOMPARE(unsaved, 2);
    window->setInteractiveErrors(true);
    {
      cineflow::test::MessageBoxAnswerer answer(QMessageBox::Cancel);
      QVERIFY(!window->close());
      QVERIFY(answer.asked());
      QVERIFY2(answer.text().contains(QStringLiteral("2 buffered volume(s) are not saved")),
               qPrintable(answer.text()));
    }
    QVERIFY(window->isVisible());
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    window->saveAllThenQuit(folder.path());
    QTRY_VERIFY_WITH_TIMEOUT(!window->isVisible(), kTimeoutMs);
    QCOMPARE(window->volumes().unsavedCount(), 0);
    QCOMPARE(QDir(folder.path()).entryList({QStringLiteral("*.h5")}, QDir::Files).size(), unsaved);
  }

  void twoSourcesSavedIntoOneFolderKeepEveryFile() {
    VolumeController& volumes = window_->volumes();
    // Ultrasound, auto-buffered from its first volumes on.
    volumes.setAutoBuffer(true);
    QTRY_VERIFY_WITH_TIMEOUT(volumes.volumes().size() >= 3 || !window_->lastError().isEmpty(),
                             kTimeoutMs);
    QVERIFY2(window_->lastError().isEmpty(), qPrintable(window_->lastError()));
    volumes.setAutoBuffer(false);
    window_->controller().stop();  // the store is final
    std::set<std::uint64_t> ultrasoundNumbers;
    std::set<std::uint64_t> ultrasoundIds;
    for (const BufferedSummary& volume : volumes.volumes()) {
      ultrasoundNumbers.insert(volume.info.number);
      ultrasoundIds.insert(volume.id);
    }
    window_->volumeReviewPanel().saveAll(folder_.path());
    QTRY_VERIFY_WITH_TIMEOUT(volumes.unsavedCount() == 0 && !volumes.isSaving(), kTimeoutMs);

    // The OCT simulator numbers its volumes from 0 again: auto-buffer until one has the number of
    // an ultrasound volume.
    QSignalSpy opened(&window_->controller(), &cineflow::ui::EngineController::sourceOpened);
    auto* octButton = window_->findChild<QPushButton*>(QStringLiteral("octSimulatorButton"));
    QVERIFY(octButton != nullptr);
    QTest::mouseClick(octButton, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(opened.count() == 1 || !window_->lastError().isEmpty(), kTimeoutMs);
    volumes.setAutoBuffer(true);
    const auto sharesANumber = [&] {
      const auto listed = volumes.volumes();
      return std::any_of(listed.begin(), listed.end(), [&](const BufferedSummary& volume) {
        return !volume.saved && ultrasoundNumbers.count(volume.info.number) > 0;
      });
    };
    QTRY_VERIFY_WITH_TIMEOUT(sharesANumber() || !window_->lastError().isEmpty(), kTimeoutMs);
    QVERIFY2(window_->lastError().isEmpty(), qPrintable(window_->lastError()));
    volumes.setAutoBuffer(false);
    window_->controller().stop();  // its newest volume stays, for the tests below to buffer
    window_->volumeReviewPanel().saveAll(folder_.path());
    QTRY_VERIFY_WITH_TIMEOUT(volumes.unsavedCount() == 0 && !volumes.isSaving(), kTimeoutMs);
    QVERIFY2(window_->lastError().isEmpty(), qPrintable(window_->lastError()));

    // One file per volume, each holding its own volume and modality; the rows say so.
    const auto saved = volumes.volumes();
    std::set<QString> paths;
    for (const BufferedSummary& volume : saved) {
      const QString path = QString::fromStdString(volume.savedPath);
      paths.insert(path);
      const bool ultrasound = ultrasoundIds.count(volume.id) > 0;
      const QString modality = ultrasound ? QStringLiteral("ultrasound") : QStringLiteral("oct");
      QCOMPARE(QFileInfo(path).fileName(), QStringLiteral("%1_volume_%2.h5")
                                               .arg(modality)
                                               .arg(volume.info.number, 6, 10, QLatin1Char('0')));
      const QString row = rowText(window_->volumeReviewPanel(), volume.id);
      QVERIFY2(row.startsWith((ultrasound ? QStringLiteral("Ultrasound volume ")
                                          : QStringLiteral("OCT volume ")) +
                              QString::number(volume.info.number) + " "),
               qPrintable(row));
      QVERIFY2(row.endsWith(QStringLiteral("saved as ") + QFileInfo(path).fileName()),
               qPrintable(row));
      checkFileHolds(path, volume, modality);
    }
    QCOMPARE(paths.size(), saved.size());
    QCOMPARE(QDir(folder_.path()).entryList(QDir::Files).size(), static_cast<int>(saved.size()));
  }

  // A name taken by a file from an earlier run is skipped, never replaced.
  void saveAllSkipsNamesAlreadyTaken() {
    VolumeController& volumes = window_->volumes();
    QVERIFY(volumes.bufferLatest());  // once: each call buffers a copy
    const BufferedSummary volume = volumes.volumes().back();
    QVERIFY(!volume.saved);
    const QString taken = QDir(folder_.path()).filePath(volumes.fileNameOf(volume));
    if (!QFile::exists(taken)) {
      QVERIFY(writeText(taken, "an earlier run's file\n"));
    }
    const QByteArray before = contents(taken);
    window_->volumeReviewPanel().saveAll(folder_.path());
    QTRY_VERIFY_WITH_TIMEOUT(volumes.unsavedCount() == 0 && !volumes.isSaving(), kTimeoutMs);
    QCOMPARE(contents(taken), before);
    const auto now = volumes.volumes().back();
    QCOMPARE(now.id, volume.id);
    QCOMPARE(QFileInfo(QString::fromStdString(now.savedPath)).fileName(),
             QFileInfo(taken).completeBaseName() + QStringLiteral("_2.h5"));
    checkFileHolds(QString::fromStdString(now.savedPath), now, QStringLiteral("oct"));
  }

  // Without the operator's yes a save refuses an existing file; with it (the Save dialog's), the
  // file is replaced and the volume saved there before reads "unsaved".
  void replacingAFileNeedsAYesAndUnsavesItsVolume() {
    VolumeController& volumes = window_->volumes();
    cineflow::ui::VolumeReviewPanel& panel = window_->volumeReviewPanel();
    const BufferedSummary first = volumes.volumes().front();  // ultrasound, saved
    QVERIFY(first.saved);
    QVERIFY(volumes.bufferLatest());  // once: each call buffers a copy
    const BufferedSummary oct = volumes.volumes().back();
    const QString path = QString::fromStdString(first.savedPath);
    const QByteArray before = contents(path);

    QString refusal;
    connect(&volumes, &VolumeController::messageReady, this,
            [&refusal](const QString& message, bool isError) {
              refusal = isError ? message : refusal;
            });
    volumes.save(oct.id, path);
    QTRY_VERIFY_WITH_TIMEOUT(!volumes.isSaving() && !refusal.isEmpty(), kTimeoutMs);
    QVERIFY2(refusal.contains(path + QStringLiteral(" already exists and is not replaced")),
             qPrintable(refusal));
    QCOMPARE(contents(path), before);
    QCOMPARE(volumes.unsavedCount(), 1);

    QVERIFY(panel.select(oct.id));
    panel.saveSelected(path);
    const auto find = [&volumes](std::uint64_t id) {
      const auto now = volumes.volumes();
      return *std::find_if(now.begin(), now.end(),
                           [id](const BufferedSummary& v) { return v.id == id; });
    };
    QTRY_VERIFY_WITH_TIMEOUT(!volumes.isSaving() && find(oct.id).saved, kTimeoutMs);
    QVERIFY(!find(first.id).saved);
    QCOMPARE(volumes.unsavedCount(), 1);
    QVERIFY(rowText(panel, first.id).endsWith(QStringLiteral(" unsaved")));
    checkFileHolds(path, find(oct.id), QStringLiteral("oct"));
  }

 private:
  // The file at `path` is volume `volume` of `modality`, voxel for voxel.
  void checkFileHolds(const QString& path, const BufferedSummary& volume, const QString& modality) {
    const cineflow::store::LoadedVolume loaded =
        cineflow::store::readVolumeFile(path.toStdString());
    QCOMPARE(loaded.info.number, volume.info.number);
    QVERIFY(loaded.info.shape == volume.info.shape);
    QVERIFY(loaded.info.sequence == volume.info.sequence);
    const auto buffered = window_->volumes().bufferedVolume(volume.id);
    QVERIFY(buffered != nullptr);
    QVERIFY2(loaded.volume == buffered->voxels, qPrintable(path));
    const cineflow::test::PlainFile file(path.toStdString());
    QVERIFY(file.id >= 0);
    QCOMPARE(QString::fromStdString(cineflow::test::readString(file.id, "modality")), modality);
  }
  static QByteArray contents(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
  }
  static bool writeText(const QString& path, const char* text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) > 0;
  }

  QTemporaryDir folder_;
  std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TestVolumeSaveAll)
#include "test_volume_save_all.moc"
