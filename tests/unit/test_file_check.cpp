// Reading a file from outside in a separate process first (registry/file_check.hpp): a reader
// that crashes or loops there takes only the child down and the file is refused with a message
// that says so; a refusal passes on the reader's own message; a file that reads opens as before.
// The child's ends are produced by a stand-in program (a shell script that crashes, loops, refuses
// or reads, as the file's name says), then by Cineflow's own `cineflow check-file` on real files.
#include <hdf5.h>
#include <signal.h>

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "acquire/child_process.hpp"
#include "registry/file_check.hpp"
#include "registry/source_factory.hpp"
#include "support/refusal.hpp"
#include "support/rf_file_fixture.hpp"
#include "support/run_app.hpp"

using namespace cineflow;
using namespace std::chrono_literals;

namespace {

// Ends as the file's name says: "crash" by SIGSEGV, "loop" never, "refuse" with a message and exit
// code 1, "other" with exit code 3, anything else reads (exit 0). Writes its pid next to the file
// and adds a line to "<file>.count".
constexpr const char* kStandIn = R"sh(#!/bin/sh
[ "$1" = check-file ] || exit 2
echo $$ > "$2.pid"
echo x >> "$2.count"
case "$2" in
  *crash*) kill -SEGV $$ ;;
  *loop*) while :; do sleep 1; done ;;
  *refuse*) echo "$(basename "$2"): not a recording (stand-in refusal)" >&2; exit 1 ;;
  *other*) exit 3 ;;
esac
exit 0
)sh";

}  // namespace

class TestFileCheck : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::string standIn_;

  std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

  // The pid the stand-in wrote for `file`, and whether that process still exists.
  bool childStillExists(const std::string& file) const {
    std::ifstream in(file + ".pid");
    pid_t pid = 0;
    in >> pid;
    return pid > 0 && ::kill(pid, 0) == 0;
  }

 private slots:
  // How many times the stand-in checked `file`.
  int checks(const std::string& file) const {
    std::ifstream in(file + ".count");
    int lines = 0;
    for (std::string line; std::getline(in, line);) {
      ++lines;
    }
    return lines;
  }

  void initTestCase() {
    QVERIFY(dir_.isValid());
    qputenv("CINEFLOW_CACHE_DIR", dir_.filePath("cache").toUtf8());  // the memo of passed checks
    standIn_ = path("stand-in.sh");
    std::ofstream(standIn_) << kStandIn;
    std::filesystem::permissions(standIn_, std::filesystem::perms::owner_all);
  }

  void cleanup() { acquire::enableFileChecks({}); }

  void aFileTheChildReadsIsLeftToOpen() {
    acquire::enableFileChecks(standIn_, 10s);
    acquire::checkFileInChildProcess(path("good.h5"));  // throws on failure
  }

  void aCrashInTheChildRefusesTheFile() {
    acquire::enableFileChecks(standIn_, 10s);
    const QString message =
        test::refusal([&] { acquire::checkFileInChildProcess(path("crash.h5")); });
    QVERIFY2(message.contains("crash.h5") && message.contains("crashed") &&
                 message.contains("signal 11") && message.contains("did not open it"),
             qPrintable(message));
  }

  void aChildPastItsTimeIsKilledAndTheFileRefused() {
    acquire::enableFileChecks(standIn_, 700ms);
    const QString message =
        test::refusal([&] { acquire::checkFileInChildProcess(path("loop.h5")); });
    QVERIFY2(message.contains("loop.h5") && message.contains("did not end within 0.7 s"),
             qPrintable(message));
    QVERIFY2(!childStillExists(path("loop.h5")), "the looping child was left running");
  }

  void aRefusalPassesOnTheReadersMessage() {
    acquire::enableFileChecks(standIn_, 10s);
    const QString message =
        test::refusal([&] { acquire::checkFileInChildProcess(path("refuse.h5")); });
    QCOMPARE(message, QStringLiteral("refuse.h5: not a recording (stand-in refusal)"));
  }

  void anEndTheCheckCannotReadOpensAsBefore() {
    acquire::enableFileChecks(standIn_, 10s);
    acquire::checkFileInChildProcess(path("other.h5"));
    acquire::enableFileChecks(path("no-such-program"), 10s);
    acquire::checkFileInChildProcess(path("crash.h5"));  // no child could start
  }

  void checksOffReadNothing() {
    acquire::enableFileChecks({});
    acquire::checkFileInChildProcess(path("crash-unchecked.h5"));
    QVERIFY(!std::filesystem::exists(path("crash-unchecked.h5.pid")));
  }

  // The operator's cancel (the progress callback throws) ends the wait and the child with it.
  void aCancelKillsTheChild() {
    acquire::enableFileChecks(standIn_, 60s);
    int ticks = 0;
    const acquire::ProgressFn cancelSoon = [&](double, const std::string& what) {
      QVERIFY(what.find("checking loop-cancel.h5") != std::string::npos);
      if (++ticks == 5) {
        throw std::runtime_error("cancelled by the operator");
      }
    };
    QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                             acquire::checkFileInChildProcess(path("loop-cancel.h5"), cancelSoon));
    QCOMPARE(ticks, 5);
    QVERIFY2(!childStillExists(path("loop-cancel.h5")), "the cancelled child was left running");
  }

  // A file that passed is not checked again until it changes; a refused one is checked each time.
  void aPassedCheckIsRememberedUntilTheFileChanges() {
    acquire::enableFileChecks(standIn_, 10s);
    const std::string file = path("memo.h5");
    std::ofstream(file) << "first";
    acquire::checkFileInChildProcess(file);
    acquire::checkFileInChildProcess(file);
    QCOMPARE(checks(file), 1);
    std::ofstream(file, std::ios::app) << " and more";
    acquire::checkFileInChildProcess(file);
    QCOMPARE(checks(file), 2);
    const std::string refused = path("refuse-memo.h5");
    std::ofstream(refused) << "bad";
    for (int attempt = 0; attempt < 2; ++attempt) {
      QVERIFY(!test::refusal([&] { acquire::checkFileInChildProcess(refused); }).isEmpty());
    }
    QCOMPARE(checks(refused), 2);
  }

  // A check started ahead runs while the caller sets up; opening takes its verdict, once.
  void aCheckStartedAheadGivesItsVerdictToTheOpen() {
    acquire::enableFileChecks(standIn_, 10s);
    const std::string good = path("ahead.h5"), crash = path("crash-ahead.h5");
    std::ofstream(good) << "good";
    std::ofstream(crash) << "crash";
    {
      const acquire::FileCheckAhead ahead(good);
      acquire::checkFileInChildProcess(good);
      QCOMPARE(checks(good), 1);
    }
    {
      const acquire::FileCheckAhead ahead(crash);
      const QString message = test::refusal([&] { acquire::checkFileInChildProcess(crash); });
      QVERIFY2(message.contains("crashed") && message.contains("crash-ahead.h5"),
               qPrintable(message));
      QCOMPARE(checks(crash), 1);
    }
    // Not a file: nothing starts.
    { const acquire::FileCheckAhead simulator("sim"); }
    QVERIFY(!std::filesystem::exists(path("sim.count")));
  }

  // A check started ahead and never taken (the run ended first) is abandoned: its child killed.
  void anAbandonedCheckAheadKillsItsChild() {
    acquire::enableFileChecks(standIn_, 60s);
    const std::string file = path("loop-ahead.h5");
    std::ofstream(file) << "loop";
    {
      const acquire::FileCheckAhead ahead(file);
      for (int wait = 0; wait < 100 && checks(file) == 0; ++wait) {
        std::this_thread::sleep_for(20ms);  // until the child runs
      }
      QCOMPARE(checks(file), 1);
    }
    QVERIFY2(!childStillExists(file), "the abandoned child was left running");
  }

  // Output past the limit is dropped while the child still runs to its end (never blocked on a
  // full pipe).
  void outputPastTheLimitIsDroppedNotBlocking() {
    const acquire::ProcessEnd end = acquire::runProcessCaptured(
        {"/bin/sh", "-c", "head -c 1000000 /dev/zero | tr '\\0' x; exit 7"}, 30s, {}, 1000);
    QCOMPARE(end.exitCode, 7);
    QVERIFY(!end.timedOut);
    QCOMPARE(end.output.size(), std::size_t{1000});
  }

  // Cineflow's own child, on real recordings: one that reads opens; one whose reader refuses it is
  // refused with the message the reader gives in Cineflow's own process.
  void cineflowsChildOnRealFiles() {
    const std::string good = path("recording.h5");
    test::writeRfFile(good, test::RfFileSpec{});
    test::RfFileSpec damaged;
    damaged.defect = test::RfDefect::MissingAttribute;
    const std::string bad = path("missing-attribute.h5");
    test::writeRfFile(bad, damaged);
    const QString inProcess = test::refusal([&] { acquire::openSource(bad); });
    QVERIFY(inProcess.contains("sampling_frequency_hz"));

    acquire::enableFileChecks(CINEFLOW_APP_PATH, 60s);
    const auto source = acquire::openSource(good);
    QCOMPARE(source->frameCount(), std::uint64_t{3});
    QCOMPARE(test::refusal([&] { acquire::openSource(bad); }), inProcess);
    const QString notThere = test::refusal([&] { acquire::openSource(path("absent.h5")); });
    QVERIFY2(notThere.contains("absent.h5"), qPrintable(notThere));
  }

  // Two recordings the fuzzers damaged (tests/data/fuzz): reading the first crashes HDF5 1.10.8
  // (a segmentation fault inside the library), reading the second never ends. Opened without the
  // check, either would take this test program down or hang it; with it, each is refused.
  void damageInsideHdf5IsContained() {
    const std::string data = std::string(CINEFLOW_TEST_SOURCE_DIR) + "/data/fuzz/";
    acquire::enableFileChecks(CINEFLOW_APP_PATH, 5s);
    // Whether a reader following a damaged pointer faults depends on what the process's memory
    // holds (the check process poisons it to make that likely: acquire::prepareCheckProcess, 297
    // of 300 runs faulted): every attempt must refuse the file, and one of three must show the
    // crash contained in the check process.
    QStringList refusals;
    QString crashes;
    for (int attempt = 0; attempt < 3; ++attempt) {
      crashes = test::refusal([&] { acquire::openSource(data + "rf_hdf5_crashes.h5"); });
      QVERIFY2(crashes.contains("rf_hdf5_crashes.h5"), qPrintable(crashes));
      refusals << crashes;
      if (crashes.contains("signal ")) {
        break;
      }
    }
    const QString loops = test::refusal([&] { acquire::openSource(data + "rf_hdf5_loops.h5"); });
    unsigned major = 0, minor = 0, release = 0;
    H5get_libversion(&major, &minor, &release);
    if (major == 1 && minor == 10 && release == 8) {  // Debian 12's, where they were found
      // SIGSEGV in a plain build; under AddressSanitizer the child stops at the bad read (SIGABRT).
      QVERIFY2(crashes.contains("rf_hdf5_crashes.h5: the file is damaged: reading it crashed the "
                                "reader (HDF5) in a separate check process (signal ") &&
                   (crashes.contains("signal 11") || crashes.contains("signal 6")),
               qPrintable(refusals.join(" / ")));
      QVERIFY2(loops.contains("rf_hdf5_loops.h5: reading the file did not end within 5 s"),
               qPrintable(loops));
    } else {  // another HDF5 may read them differently; it must still refuse them
      QVERIFY2(!crashes.isEmpty() && !loops.isEmpty(), qPrintable(crashes + " / " + loops));
    }
  }

  // The command line checks the files it opens too: a headless run on the crashing recording ends
  // with a message and exit code 1, not a crash.
  void aHeadlessRunRefusesTheCrashingFile() {
    const QString input =
        QString::fromUtf8(CINEFLOW_TEST_SOURCE_DIR) + "/data/fuzz/rf_hdf5_crashes.h5";
    const test::AppRun run =
        test::runApp({"--headless", "--input", input, "--output", dir_.filePath("out.h5")});
    QVERIFY2(run.exitCode == 1, qPrintable(QString::number(run.exitCode) + ": " + run.err));
    QVERIFY2(run.err.contains("rf_hdf5_crashes.h5") && run.err.contains("did not open it"),
             qPrintable(run.err));
    QVERIFY(!QFileInfo::exists(dir_.filePath("out.h5")));
  }
};

QTEST_GUILESS_MAIN(TestFileCheck)
#include "test_file_check.moc"
