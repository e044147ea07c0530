// Acquisition > Record as an operator uses it under Xvfb: the OCT simulator acquires, Record
// writes its raw frames while the status bar counts them, a second recording into the same file
// is refused with the reason, stopping says what the file holds, and the recording, reopened as
// a source, shows the same frames as the simulator delivered (bit exact, frame by frame, by each
// frame's recorded sequence number); a damaged frame of the recording stops its replay with the
// frame named, or, with the acquisition panel's Damaged frame set to skip, is counted and named.

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <vector>

#include "acquisition/raw_recording.hpp"
#include "bridge/engine_controller.hpp"
#include "oct/oct_simulator.hpp"
#include "registry/source_factory.hpp"
#include "shell/main_window.hpp"
#include "sim_window.hpp"
#include "support/plain_hdf5.hpp"
#include "support/recording_fixtures.hpp"

using cineflow::ui::MainWindow;

namespace {
constexpr int kTimeoutMs = 60'000;
}

class TestRecordGui : public QObject {
  Q_OBJECT

 public:
  static void initMain() {
    cineflow::test::useFreshSettings("test_record_gui");
    qputenv("QT_QPA_PLATFORMTHEME", "");  // Qt's own file dialog, which the test drives
  }

 private slots:
  void recordStopAndReplay() {
    MainWindow window(cineflow::compute::BackendRequest::Cpu);
    window.setInteractiveErrors(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* record = window.findChild<QAction*>(QStringLiteral("recordAction"));
    QVERIFY(record != nullptr);
    QCOMPARE(record->shortcut(), QKeySequence(Qt::Key_R));
    QVERIFY(!record->isEnabled());  // nothing to record before a source is open

    window.openSource(QStringLiteral("oct-sim"));
    QTRY_VERIFY_WITH_TIMEOUT(window.controller().isRunning() || !window.lastError().isEmpty(),
                             kTimeoutMs);
    QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
    QVERIFY(record->isEnabled());

    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("live.h5"));
    QCOMPARE(window.startRecording(path), QString());
    QVERIFY(record->isChecked());
    auto* label = window.findChild<QLabel*>(QStringLiteral("recordingState"));
    QVERIFY(label != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(window.recording().stats().written >= 12, kTimeoutMs);
    QTRY_VERIFY(label->isVisible() && label->text().startsWith(QStringLiteral("REC ")));
    QVERIFY2(window.startRecording(folder.filePath(QStringLiteral("other.h5")))
                 .contains(QStringLiteral("Already recording")),
             qPrintable(window.lastError()));

    window.stopRecording();
    QVERIFY(!record->isChecked());
    QVERIFY(!label->isVisible());
    QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));

    // Never over a recording.
    QVERIFY(window.startRecording(path).contains(QStringLiteral("the file exists")));
    QVERIFY(!record->isChecked());

    // Every recorded frame is the simulator's frame sequence mod 32, as the engine read it.
    {
      std::vector<std::uint64_t> sequence;
      {
        const cineflow::test::PlainFile file(path.toStdString());
        QVERIFY(file.id >= 0);
        QCOMPARE(cineflow::test::readDouble(file.id, "recording_complete"), 1.0);
        sequence = cineflow::test::readAll<std::uint64_t>(file.id, "sequence", H5T_NATIVE_UINT64);
      }
      const auto replay = cineflow::acquire::openSource(path.toStdString());
      QVERIFY(replay->frameCount() >= 12);
      QCOMPARE(sequence.size(), std::size_t{replay->frameCount()});
      cineflow::oct::OctSimulator simulator;
      std::vector<std::byte> recorded(replay->frameBytes()), simulated(simulator.frameBytes());
      for (std::uint64_t i = 0; i < replay->frameCount(); ++i) {
        cineflow::acquire::SliceInfo slice;
        replay->readFrame(i, recorded, slice);
        simulator.readFrame(sequence[i] % simulator.frameCount(), simulated, slice);
        QVERIFY2(recorded == simulated, qPrintable(QStringLiteral("frame %1").arg(i)));
      }
    }

    // Reopened in the window, the recording images.
    window.openSource(path);
    QTRY_VERIFY_WITH_TIMEOUT(
        window.controller().sourceDescription().contains(QStringLiteral("live.h5")) ||
            !window.lastError().isEmpty(),
        kTimeoutMs);
    QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
    const auto shown = window.controller().framesDelivered();
    QTRY_VERIFY_WITH_TIMEOUT(window.controller().framesDelivered() > shown + 3, kTimeoutMs);

    // Damaged: frame 3's first LZ4 block overwritten (the recording closed first). With Damaged
    // frame "Stop the replay" the replay stops naming the frame; with "Skip the frame" it goes
    // on, and the panel counts the frames left out, the reason as the count's tooltip.
    window.openSource(QStringLiteral("oct-sim"));
    QTRY_VERIFY_WITH_TIMEOUT(
        window.controller().sourceDescription().contains(QStringLiteral("OCT")), kTimeoutMs);
    QVERIFY(cineflow::test::damageChunk(path.toStdString(), "spectra", 3, false));
    auto* damagedBox = window.findChild<QComboBox*>(QStringLiteral("damagedBox"));
    auto* damagedCount = window.findChild<QLabel*>(QStringLiteral("damagedCount"));
    QVERIFY(damagedBox != nullptr && damagedCount != nullptr);
    QCOMPARE(damagedBox->currentText(), QStringLiteral("Stop the replay"));
    window.openSource(path);
    QTRY_VERIFY_WITH_TIMEOUT(!window.lastError().isEmpty(), kTimeoutMs);
    QVERIFY2(window.lastError().contains(QStringLiteral("reading frame 3")) &&
                 window.lastError().contains(QStringLiteral("skip damaged frames")),
             qPrintable(window.lastError()));
    damagedBox->setCurrentIndex(damagedBox->findText(QStringLiteral("Skip the frame")));
    window.controller().setRunning(true);
    QTRY_VERIFY_WITH_TIMEOUT(damagedCount->text().contains(QStringLiteral("damaged")), kTimeoutMs);
    QVERIFY2(damagedCount->toolTip().contains(QStringLiteral("reading frame 3")),
             qPrintable(damagedCount->toolTip()));
    QVERIFY(window.controller().isRunning());
  }

  void theRecordDialogsFileTypeChoosesTheBlocks() {
    // Record > "HDF5 bitshuffle + LZ4 in 2 KiB blocks": the recording's chunks are in 2 KiB
    // blocks, and the dialog offers that file type again next time.
    const auto opened = cineflow::test::openWindowOn(QStringLiteral("oct-sim"),
                                                     cineflow::compute::BackendRequest::Cpu);
    QVERIFY(opened != nullptr);
    MainWindow& window = *opened;
    QTRY_VERIFY_WITH_TIMEOUT(window.controller().isRunning() || !window.lastError().isEmpty(),
                             kTimeoutMs);
    auto* record = window.findChild<QAction*>(QStringLiteral("recordAction"));
    QVERIFY(record != nullptr && record->isEnabled());
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("blocks.h5"));
    const QString blocksType =
        QStringLiteral("HDF5 bitshuffle + LZ4 in 2 KiB blocks, fastest GPU replay (*.h5)");
    const auto answer = [&](const QString& type, QString* offered) {
      QTimer::singleShot(0, [=] {
        QFileDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())));
        *offered = dialog->selectedNameFilter();
        if (type.isEmpty()) {
          dialog->reject();
          return;
        }
        dialog->selectNameFilter(type);
        auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        QVERIFY(name != nullptr);
        name->setText(path);
        QTest::keyClick(name, Qt::Key_Return);
      });
      record->trigger();
    };
    QString offered;
    answer(blocksType, &offered);
    QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
    QVERIFY(record->isChecked());
    QTRY_VERIFY_WITH_TIMEOUT(window.recording().stats().written >= 3, kTimeoutMs);
    window.stopRecording();
    {
      const cineflow::test::PlainFile file(path.toStdString());
      QCOMPARE(cineflow::test::readDouble(file.id, "recording_block_bytes"), 2048.0);
    }
    const auto replay = cineflow::acquire::openSource(path.toStdString());
    QVERIFY(replay->frameCount() >= 3);
    answer(QString(), &offered);  // cancelled: nothing recorded
    QCOMPARE(offered, blocksType);
    QVERIFY(!record->isChecked());
  }
};

QTEST_MAIN(TestRecordGui)
#include "test_record_gui.moc"
