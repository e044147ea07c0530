// Where exports go (export_target.hpp) and the export dialog that chooses it: system folders, a
// missing (half-typed) folder and a file are refused with a reason and Export stays disabled; a
// good folder gets a new entry named after the recording and the time, "-2" when that exists, and
// ".h5" for data; Return in the folder field exports only when the folder can take it.

#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTemporaryDir>
#include <QtTest>

#include "export/cineloop_export_dialog.hpp"
#include "export/export_target.hpp"

using cineflow::ui::CineloopExportChoice;
using cineflow::ui::CineloopExportDialog;
using cineflow::ui::CineloopExportFormat;

namespace {

const QDateTime kTime(QDate(2026, 11, 25), QTime(14, 3, 7));

}  // namespace

class ExportTargetTest : public QObject {
  Q_OBJECT

 private slots:
  void systemFoldersAreRefused();
  void missingFoldersAndFilesAreRefused();
  void stemsNameTheRecordingAndTheTime();
  void pathsInUseGetANumber();
  void dialogOffersANewFolderInsideTheChosenOne();
  void dialogRefusesWhatCannotTakeAnExport();
  void returnExportsOnlyAGoodFolder();
  void theFrameCountFollowsOnlyTheFrameOnScreen();
};

void ExportTargetTest::systemFoldersAreRefused() {
  for (const char* folder :
       {"/", "/usr", "/usr/share", "/etc", "/var/lib", "/proc", "/sys/class", "/boot", "/dev"}) {
    QVERIFY2(cineflow::ui::isSystemFolder(QString::fromLatin1(folder)), folder);
  }
  QVERIFY(cineflow::ui::exportFolderProblem(QStringLiteral("/"))
              .contains(QStringLiteral("system folder")));
  // "/./usr/../etc" is /etc; "//" is /.
  QVERIFY(cineflow::ui::isSystemFolder(QStringLiteral("/./usr/../etc")));
  QVERIFY(cineflow::ui::isSystemFolder(QStringLiteral("//")));
  for (const char* folder : {"/tmp", "/home/operator", "/mnt/data", "/media/usb",
                             "/run/media/operator/disk", "/var/tmp", "/usrdata"}) {
    QVERIFY2(!cineflow::ui::isSystemFolder(QString::fromLatin1(folder)), folder);
  }
  QTemporaryDir own;
  QVERIFY(own.isValid());
  QVERIFY(!cineflow::ui::isSystemFolder(own.path()));
  QCOMPARE(cineflow::ui::exportFolderProblem(own.path()), QString());
}

void ExportTargetTest::missingFoldersAndFilesAreRefused() {
  QTemporaryDir own;
  QVERIFY(own.isValid());
  const QString halfTyped = own.path() + QStringLiteral("/Expo");
  QVERIFY(cineflow::ui::exportFolderProblem(halfTyped).contains(QStringLiteral("does not exist")));
  const QString file = QDir(own.path()).filePath(QStringLiteral("notes.txt"));
  {
    QFile notes(file);
    QVERIFY(notes.open(QIODevice::WriteOnly));
  }
  QVERIFY(cineflow::ui::exportFolderProblem(file).contains(QStringLiteral("not a folder")));
  QVERIFY(!cineflow::ui::exportFolderProblem(QString()).isEmpty());
}

void ExportTargetTest::stemsNameTheRecordingAndTheTime() {
  using cineflow::ui::exportStem;
  QCOMPARE(exportStem(QStringLiteral("PWI_disk.h5 (20 frames, 1 x 128 x 2048 int16)"), kTime),
           QStringLiteral("PWI_disk_cineloop_2026-11-25_14-03-07"));
  QCOMPARE(exportStem(QStringLiteral("PWI_disk.mat (20 frames, MATLAB import)"), kTime),
           QStringLiteral("PWI_disk_cineloop_2026-11-25_14-03-07"));
  QCOMPARE(exportStem(QStringLiteral("simulator seed 1 (8 slices)"), kTime),
           QStringLiteral("simulator_cineloop_2026-11-25_14-03-07"));
  QCOMPARE(exportStem(QStringLiteral("..sc\u00e4n:1.h5"), kTime),
           QStringLiteral("sc_n_1_cineloop_2026-11-25_14-03-07"));
  QCOMPARE(exportStem(QString(), kTime), QStringLiteral("cineloop_2026-11-25_14-03-07"));
}

void ExportTargetTest::pathsInUseGetANumber() {
  QTemporaryDir own;
  QVERIFY(own.isValid());
  const QDir dir(own.path());
  QCOMPARE(cineflow::ui::unusedExportPath(own.path(), QStringLiteral("loop")),
           dir.filePath(QStringLiteral("loop")));
  QVERIFY(dir.mkdir(QStringLiteral("loop")));
  QCOMPARE(cineflow::ui::unusedExportPath(own.path(), QStringLiteral("loop")),
           dir.filePath(QStringLiteral("loop-2")));
  QVERIFY(dir.mkdir(QStringLiteral("loop-2")));
  QCOMPARE(cineflow::ui::unusedExportPath(own.path(), QStringLiteral("loop")),
           dir.filePath(QStringLiteral("loop-3")));
  // A file of the data export's name takes its name too.
  QCOMPARE(
      cineflow::ui::unusedExportPath(own.path(), QStringLiteral("loop"), QStringLiteral(".h5")),
      dir.filePath(QStringLiteral("loop.h5")));
}

// Pictures with rulers into `folder`: the dialog's first choice.
static CineloopExportChoice pngInto(const QString& folder) {
  CineloopExportChoice choice;
  choice.format = CineloopExportFormat::Png;
  choice.annotations = true;
  choice.folder = folder;
  return choice;
}

void ExportTargetTest::dialogOffersANewFolderInsideTheChosenOne() {
  QTemporaryDir own;
  QVERIFY(own.isValid());
  const QString stem = QStringLiteral("PWI_disk_cineloop_2026-11-25_14-03-07");
  CineloopExportDialog dialog(16, stem, pngInto(own.path()));
  dialog.show();
  QVERIFY(QTest::qWaitForWindowExposed(&dialog));
  auto* exportButton = dialog.findChild<QPushButton*>(QStringLiteral("exportButton"));
  auto* destination = dialog.findChild<QLabel*>(QStringLiteral("exportDestination"));
  QVERIFY(exportButton && destination);
  QVERIFY(exportButton->isEnabled());
  QCOMPARE(dialog.problem(), QString());
  const QString expected = QDir(own.path()).filePath(stem);
  QCOMPARE(dialog.target(), expected);
  QVERIFY2(destination->text().contains(stem), qPrintable(destination->text()));
  // The title fits: the dialog is at least as wide as its title needs.
  QVERIFY(dialog.width() >= dialog.fontMetrics().horizontalAdvance(dialog.windowTitle()));

  QVERIFY(QDir(own.path()).mkdir(stem));  // an earlier export in the same second
  QCOMPARE(dialog.target(), expected + QStringLiteral("-2"));

  dialog.setFormat(CineloopExportFormat::Hdf5);
  QCOMPARE(dialog.target(), expected + QStringLiteral(".h5"));
  QVERIFY(!dialog.findChild<QCheckBox*>(QStringLiteral("exportAnnotations"))->isEnabled());
  QCOMPARE(dialog.choice().format, CineloopExportFormat::Hdf5);
  QCOMPARE(dialog.choice().folder, own.path());
}

void ExportTargetTest::dialogRefusesWhatCannotTakeAnExport() {
  QTemporaryDir own;
  QVERIFY(own.isValid());
  CineloopExportDialog dialog(16, QStringLiteral("loop"), pngInto(own.path()));
  dialog.show();
  QVERIFY(QTest::qWaitForWindowExposed(&dialog));
  auto* exportButton = dialog.findChild<QPushButton*>(QStringLiteral("exportButton"));
  auto* destination = dialog.findChild<QLabel*>(QStringLiteral("exportDestination"));
  auto* folder = dialog.findChild<QLineEdit*>(QStringLiteral("exportFolder"));
  QVERIFY(exportButton && destination && folder);
  for (const QString& bad :
       {QStringLiteral("/"), QStringLiteral("/usr"), QStringLiteral("/ho"), QString()}) {
    folder->setText(bad);
    QVERIFY2(!exportButton->isEnabled(), qPrintable(bad));
    QVERIFY2(!dialog.problem().isEmpty(), qPrintable(bad));
    QCOMPARE(dialog.target(), QString());
    QVERIFY2(destination->text().contains(dialog.problem().toHtmlEscaped()),
             qPrintable(destination->text()));
  }
  folder->setText(own.path());
  QVERIFY(exportButton->isEnabled());
}

void ExportTargetTest::returnExportsOnlyAGoodFolder() {
  QTemporaryDir own;
  QVERIFY(own.isValid());
  CineloopExportDialog dialog(16, QStringLiteral("loop"), pngInto(QString()));
  dialog.show();
  QVERIFY(QTest::qWaitForWindowExposed(&dialog));
  auto* folder = dialog.findChild<QLineEdit*>(QStringLiteral("exportFolder"));
  folder->setFocus();
  QTest::keyClicks(folder, QStringLiteral("/"));  // the first keystroke of a path
  QTest::keyClick(folder, Qt::Key_Return);
  QVERIFY(dialog.isVisible());  // "/" is refused: nothing happened
  QCOMPARE(dialog.result(), int(QDialog::Rejected));
  folder->clear();
  QTest::keyClicks(folder, own.path());
  QTest::keyClick(folder, Qt::Key_Return);
  QVERIFY(!dialog.isVisible());
  QCOMPARE(dialog.result(), int(QDialog::Accepted));
  QCOMPARE(dialog.target(), QDir(own.path()).filePath(QStringLiteral("loop")));
}

void ExportTargetTest::theFrameCountFollowsOnlyTheFrameOnScreen() {
  QTemporaryDir own;
  QVERIFY(own.isValid());
  CineloopExportDialog dialog(256, QStringLiteral("loop"), pngInto(own.path()), 0, 42);
  auto* count = dialog.findChild<QLabel*>(QStringLiteral("exportFrameCount"));
  auto* only = dialog.findChild<QCheckBox*>(QStringLiteral("exportOnlyShownFrame"));
  QVERIFY(count && only && only->isEnabled());
  only->setChecked(false);
  QCOMPARE(count->text(), QStringLiteral("Export 256 frames as"));
  only->setChecked(true);
  QCOMPARE(count->text(), QStringLiteral("Export 1 frame as"));
  only->setChecked(false);
  QCOMPARE(count->text(), QStringLiteral("Export 256 frames as"));
}

QTEST_MAIN(ExportTargetTest)
#include "test_export_target.moc"
