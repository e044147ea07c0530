// The file dialogs start where the operator last was (common/file_dialogs.hpp): each kind of file
// in the folder its dialog last returned, a kind not used yet in the folder any dialog last
// returned, a suggested bare name inside that folder; Cancel remembers nothing; a remembered
// folder since removed gives way to the home folder. The dialogs are Qt's own (no native dialog
// under Xvfb), driven as an operator would: read where they open, type a name, press Return.

#include <functional>

#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "common/file_dialogs.hpp"
#include "sim_window.hpp"

namespace fk = cineflow::ui::file_kinds;

namespace {

struct Seen {
  QString folder;    // where the dialog opened
  QString fileName;  // the name it suggested
};

// Runs `ask` (which shows a modal file dialog); once the dialog is up, records where it opened
// and then types `answer` and presses Return, or cancels when `answer` is empty.
QString answerDialog(const std::function<QString()>& ask, const QString& answer, Seen* seen) {
  QTimer::singleShot(0, [=] {
    QFileDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())));
    seen->folder = QDir(dialog->directory()).absolutePath();
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    QVERIFY(name != nullptr);
    seen->fileName = name->text();
    if (answer.isEmpty()) {
      dialog->reject();
      return;
    }
    name->setText(answer);
    QTest::keyClick(name, Qt::Key_Return);
  });
  return ask();
}

}  // namespace

class TestFileDialogs : public QObject {
  Q_OBJECT

 public:
  static void initMain() {
    cineflow::test::useFreshSettings("test_file_dialogs");
    qputenv("QT_QPA_PLATFORMTHEME", "");  // Qt's own dialogs, which a test can drive
  }

 private slots:
  void eachKindOpensWhereItLastWas() {
    QTemporaryDir root;
    QVERIFY(root.isValid());
    const QString volumes = root.filePath(QStringLiteral("volumes"));
    const QString exports = root.filePath(QStringLiteral("exports"));
    QVERIFY(QDir().mkpath(volumes) && QDir().mkpath(exports));

    // Nothing remembered yet: home.
    QCOMPARE(cineflow::ui::rememberedFolder(fk::kVolumes), QDir::homePath());

    // A volume saved into `volumes`: the next volume dialog opens there with its name suggested.
    Seen seen;
    QString path = answerDialog(
        [] {
          return cineflow::ui::askSaveFile(nullptr, fk::kVolumes, QStringLiteral("Save volume"),
                                           QStringLiteral("first.h5"),
                                           QStringLiteral("HDF5 volume (*.h5)"));
        },
        QDir(volumes).filePath(QStringLiteral("first.h5")), &seen);
    QCOMPARE(path, QDir(volumes).filePath(QStringLiteral("first.h5")));
    QCOMPARE(seen.folder, QDir::homePath());
    path = answerDialog(
        [] {
          return cineflow::ui::askSaveFile(nullptr, fk::kVolumes, QStringLiteral("Save volume"),
                                           QStringLiteral("second.h5"),
                                           QStringLiteral("HDF5 volume (*.h5)"));
        },
        QStringLiteral("second.h5"), &seen);
    QCOMPARE(seen.folder, volumes);
    QCOMPARE(seen.fileName, QStringLiteral("second.h5"));
    QCOMPARE(path, QDir(volumes).filePath(QStringLiteral("second.h5")));

    // Exports, never used: where any dialog last was. Choosing `exports` for them leaves the
    // volumes' folder alone.
    QCOMPARE(cineflow::ui::rememberedFolder(fk::kExports), volumes);
    path = answerDialog(
        [] {
          return cineflow::ui::askFolder(nullptr, fk::kExports, QStringLiteral("Export into"));
        },
        exports, &seen);
    QCOMPARE(seen.folder, volumes);
    QCOMPARE(path, exports);
    QCOMPARE(cineflow::ui::rememberedFolder(fk::kExports), exports);
    QCOMPARE(cineflow::ui::rememberedFolder(fk::kVolumes), volumes);

    // Cancel remembers nothing.
    path = answerDialog(
        [] {
          return cineflow::ui::askOpenFile(nullptr, fk::kVolumes, QStringLiteral("Open"),
                                           QStringLiteral("HDF5 volume (*.h5)"));
        },
        QString(), &seen);
    QVERIFY(path.isEmpty());
    QCOMPARE(seen.folder, volumes);
    QCOMPARE(cineflow::ui::rememberedFolder(fk::kVolumes), volumes);

    // A remembered folder removed since: home, not a dialog opened on nothing.
    QVERIFY(QDir(volumes).removeRecursively());
    QVERIFY(QDir(exports).removeRecursively());
    QCOMPARE(cineflow::ui::rememberedFolder(fk::kVolumes), QDir::homePath());
  }
};

QTEST_MAIN(TestFileDialogs)
#include "test_file_dialogs.moc"
