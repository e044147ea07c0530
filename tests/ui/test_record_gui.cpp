// Acquisition > Record as an operator uses it under Xvfb: the OCT simulator acquires, Record
// writes its raw frames while the status bar counts them, a second recording into the same file
// is refused with the reason, stopping says what the file holds, and the recording, reopened as
// a source, shows the same frames as the simulator delivered (bit exact, frame by frame, by each
// frame's recorded sequence number).

#include <QAction>
#include <QLabel>
#include <QTemporaryDir>
#include <QtTest>

#include <vector>

#include "engine_controller.hpp"
#include "main_window.hpp"
#include "modality/source_factory.hpp"
#include "oct/oct_simulator.hpp"
#include "raw_recording.hpp"
#include "sim_window.hpp"
#include "support/plain_hdf5.hpp"

using cineflow::ui::MainWindow;

namespace {
constexpr int kTimeoutMs = 60'000;
}

class TestRecordGui : public QObject {
  Q_OBJECT

 public:
  static void initMain() { cineflow::test::useFreshSettings("test_record_gui"); }

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
  }
};

QTEST_MAIN(TestRecordGui)
#include "test_record_gui.moc"
