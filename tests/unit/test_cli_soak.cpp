// `cineflow soak`: its goals on hand-made counts (soak/soak_report.hpp: counts that do not add up
// must be flagged), then two runs as a user makes them, half a minute each in Drop and in Block
// mode (CI runs the Drop run three times, in release and under both sanitizers: it is kept short),
// whose --report this test checks itself: every count identity exactly, whatever the program's own
// verdict says. No wall-clock figure is judged (the sanitizer builds run slower; the
// calibration makes the overload relative to what the build sustains).
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "soak/soak_report.hpp"
#include "support/run_app.hpp"

namespace {

using cineflow::app::checkCounts;
using cineflow::app::checkMemory;
using cineflow::app::MemoryRule;
using cineflow::app::SequenceTally;
using cineflow::app::SoakCheck;
using cineflow::app::SoakEnd;
using cineflow::app::SoakRow;
using cineflow::pipeline::OverflowPolicy;
using Run = cineflow::test::AppRun;
using cineflow::test::runApp;

SequenceTally tallyOf(std::initializer_list<std::uint64_t> sequences) {
  SequenceTally tally;
  for (const std::uint64_t sequence : sequences) {
    tally.see(sequence);
  }
  return tally;
}

// A Drop run of 10 frames as it should end: 3 dropped at the host ring (2, 5, 6), one of the 7
// admitted not recorded (8), 4 of the 7 processed displayed.
SoakEnd consistentDropEnd() {
  SoakEnd end;
  end.produced = 10;
  end.processed = 7;
  end.dropped = 3;
  end.sequenceEnd = 10;
  end.observed = tallyOf({0, 1, 3, 4, 7, 8, 9});
  end.displayed = tallyOf({0, 3, 7, 9});
  end.recorderOffered = 7;
  end.recorderAccepted = 6;
  end.recorded = 6;
  end.recorderDropped = 1;
  end.fileFrames = 6;
  end.file = tallyOf({0, 1, 3, 4, 7, 9});
  return end;
}

// A Block run of 5 frames as it should end.
SoakEnd consistentBlockEnd() {
  SoakEnd end;
  end.produced = end.processed = end.sequenceEnd = 5;
  end.observed = tallyOf({0, 1, 2, 3, 4});
  end.displayed = tallyOf({1, 4});
  end.recorderOffered = end.recorderAccepted = end.recorded = end.fileFrames = 5;
  end.file = tallyOf({0, 1, 2, 3, 4});
  return end;
}

QStringList failed(const std::vector<SoakCheck>& checks) {
  QStringList names;
  for (const SoakCheck& check : checks) {
    if (!check.passed) {
      names << QString::fromStdString(check.name + ": " + check.detail);
    }
  }
  return names;
}

qint64 integer(const QJsonObject& object, const char* key) {
  const QJsonValue value = object.value(key);
  if (!value.isDouble()) {
    qWarning("missing number: %s", key);
    return -1;
  }
  return value.toInteger();
}

// The report of `cineflow soak ARGS --report ...` with the recording in a folder of our own
// (which must be empty again afterwards), after checking that it exited with 0.
QJsonObject runSoak(const QStringList& args, QString& failure) {
  QTemporaryDir dir;
  const QString report = dir.filePath("soak.json");
  const QString recordings = dir.filePath("recordings");
  QDir().mkpath(recordings);
  // Without HDF5's filter plugins (as test_cli_record): Debian's bitshuffle plugin leaves 8
  // bytes that the AddressSanitizer build reports as a leak at exit.
  const QString noPlugins = dir.filePath("no-plugins");
  QDir().mkpath(noPlugins);
  const Run run = runApp(
      QStringList{"soak", "--backend", "cpu", "--report", report, "--record-dir", recordings} +
          args,
      280000, {"HDF5_PLUGIN_PATH=" + noPlugins});
  if (run.exitCode != 0) {
    failure = "exit " + QString::number(run.exitCode) + "\n" + run.out + run.err;
    return {};
  }
  if (!QDir(recordings).isEmpty()) {
    failure = "the recording folder was left behind: " +
              QDir(recordings).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).join(", ");
    return {};
  }
  QFile file(report);
  if (!file.open(QIODevice::ReadOnly)) {
    failure = "no report\n" + run.out + run.err;
    return {};
  }
  QJsonParseError error;
  const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
  if (error.error != QJsonParseError::NoError) {
    failure = error.errorString();
    return {};
  }
  qInfo().noquote() << run.out;
  return document.object();
}

// What both policies share: every row's counts only grow, each row has its memory, the engine
// and the recorder had no error, every path is in order, the observer saw every image, the
// display was fed, and the recorder's file holds exactly what it wrote.
void checkCommonIdentities(const QJsonObject& json, const QString& policy) {
  QCOMPARE(json.value("schema").toString(), QString("cineflow.soak/1"));
  QCOMPARE(json.value("policy").toString(), policy);
  QVERIFY(json.value("calibration").toObject().value("frames_per_second").toDouble() > 0);
  const QJsonArray rows = json.value("rows").toArray();
  QVERIFY2(rows.size() >= 3, "a baseline row, the last minute's and the end's");
  QCOMPARE(rows.last().toObject().value("label").toString(), QString("end"));
  qint64 previousProduced = 0, previousProcessed = 0, previousRecorded = 0;
  for (const QJsonValue& value : rows) {
    const QJsonObject row = value.toObject();
    QVERIFY(integer(row, "produced") >= previousProduced);
    QVERIFY(integer(row, "processed") >= previousProcessed);
    QVERIFY(integer(row, "recorded") >= previousRecorded);
    QVERIFY(integer(row, "processed") <= integer(row, "produced"));
    QVERIFY(integer(row, "rss_bytes") > 0);
    previousProduced = integer(row, "produced");
    previousProcessed = integer(row, "processed");
    previousRecorded = integer(row, "recorded");
  }
  const QJsonObject end = json.value("end").toObject();
  QCOMPARE(end.value("engine_failed").toBool(), false);
  QCOMPARE(end.value("recorder_error").toString(), QString());
  QCOMPARE(integer(end, "produced"), previousProduced);
  QCOMPARE(integer(end, "processed"), previousProcessed);
  QVERIFY(integer(end, "produced") > 0);
  QCOMPARE(integer(end, "damaged"), qint64{0});  // the simulator's frames are never damaged
  QCOMPARE(integer(end, "sequence_end"), integer(end, "produced") + integer(end, "lost"));
  const QJsonObject observed = end.value("observed").toObject();
  const QJsonObject displayed = end.value("displayed").toObject();
  const QJsonObject file = end.value("file").toObject();
  QCOMPARE(integer(observed, "count"), integer(end, "processed"));
  for (const QJsonObject& path : {observed, displayed, file}) {
    QCOMPARE(integer(path, "out_of_order"), qint64{0});
  }
  QVERIFY(integer(displayed, "count") > 0);
  QVERIFY(integer(displayed, "count") <= integer(end, "processed"));
  QCOMPARE(integer(end, "recorder_offered"), integer(end, "produced") - integer(end, "dropped"));
  QCOMPARE(integer(end, "recorded") + integer(end, "not_recorded"),
           integer(end, "recorder_offered"));
  QCOMPARE(integer(end, "recorder_accepted"), integer(end, "recorded"));
  QCOMPARE(integer(end, "file_frames"), integer(end, "recorded"));
  QCOMPARE(integer(file, "count"), integer(end, "recorded"));
}

// `cineflow soak --minutes MINUTES --overload 2 --policy POLICY`, its exit status, its recording
// folder and its report checked; `json` is the report.
void runAndCheckCommon(const char* minutes, const QString& policy, QJsonObject& json) {
  QString failure;
  json = runSoak({"--minutes", minutes, "--overload", "2", "--policy", policy}, failure);
  QVERIFY2(failure.isEmpty(), qPrintable(failure));
  checkCommonIdentities(json, policy);
}

}  // namespace

class TestCliSoak : public QObject {
  Q_OBJECT

 private slots:
  void helpDocumentsEveryOption() {
    const Run run = runApp({"soak", "--help"});
    QCOMPARE(run.exitCode, 0);
    for (const char* option : {"--minutes", "--overload", "--policy", "--backend", "--report",
                               "--record-dir", "--keep-recording", "--record-compression",
                               "--calibrate-seconds", "--rate", "--display-hz", "64 elements"}) {
      QVERIFY2(run.out.contains(option), option);
    }
    QVERIFY(runApp({"--help"}).out.contains("cineflow soak"));
  }

  void badCommandLinesExitWithTwo() {
    const QList<QStringList> cases = {{"soak", "--minutes", "0"},
                                      {"soak", "--minutes", "-1"},
                                      {"soak", "--minutes", "ten"},
                                      {"soak", "--overload", "0"},
                                      {"soak", "--policy", "sometimes"},
                                      {"soak", "--backend", "quantum"},
                                      {"soak", "--record-compression", "zip"},
                                      {"soak", "--calibrate-seconds", "0.5"},
                                      {"soak", "--report"},
                                      {"soak", "--keep-recording=yes"},
                                      {"soak", "--frobnicate"}};
    for (const QStringList& args : cases) {
      const Run run = runApp(args);
      QVERIFY2(run.exitCode == 2, qPrintable(args.join(' ') + ": " + run.err));
      QVERIFY2(run.err.startsWith("cineflow: "), qPrintable(run.err));
    }
  }

  void sequenceTallyCountsGapsAndDisorder() {
    const SequenceTally tally = tallyOf({2, 3, 7, 6, 8, 8});
    QCOMPARE(tally.count, std::uint64_t{6});
    QCOMPARE(tally.gaps, std::uint64_t{2 + 3});  // 0, 1 before; 4, 5, 6 between (6 came late)
    QCOMPARE(tally.disorder, std::uint64_t{2});  // 6 after 7, 8 again
    QCOMPARE(tally.missingBefore(12), std::uint64_t{5 + 3});  // 9, 10, 11 after
    QCOMPARE(SequenceTally{}.missingBefore(4), std::uint64_t{4});
  }

  void consistentCountsPass() {
    QCOMPARE(failed(checkCounts(consistentDropEnd(), OverflowPolicy::Drop)), QStringList{});
    QCOMPARE(failed(checkCounts(consistentBlockEnd(), OverflowPolicy::Block)), QStringList{});
  }

  void dropCountsThatDoNotAddUpFail() {
    SoakEnd end = consistentDropEnd();
    end.produced = 11;  // a frame neither processed nor dropped
    end.sequenceEnd = 11;
    QStringList failures = failed(checkCounts(end, OverflowPolicy::Drop));
    QVERIFY2(!failures.filter("produced == processed + dropped").isEmpty(),
             qPrintable(failures.join('\n')));

    end = consistentDropEnd();
    end.file = tallyOf({0, 1, 4, 7, 9});  // the file lost frame 3 without saying so
    end.fileFrames = 5;
    failures = failed(checkCounts(end, OverflowPolicy::Drop));
    QVERIFY2(!failures.filter("recorded gaps").isEmpty(), qPrintable(failures.join('\n')));
    QVERIFY2(!failures.filter("recording holds every frame").isEmpty(),
             qPrintable(failures.join('\n')));

    end = consistentDropEnd();
    end.observed = tallyOf({0, 1, 3, 4, 8, 7, 9});  // out of order
    failures = failed(checkCounts(end, OverflowPolicy::Drop));
    QVERIFY2(!failures.filter("processed in order").isEmpty(), qPrintable(failures.join('\n')));

    end = consistentDropEnd();
    end.recorderOffered = 8;  // the recorder's counts do not reach what it was offered
    failures = failed(checkCounts(end, OverflowPolicy::Drop));
    QVERIFY2(!failures.filter("recorder counts add up").isEmpty(), qPrintable(failures.join('\n')));

    end = consistentDropEnd();
    end.displayed = {};  // the display never took an image
    failures = failed(checkCounts(end, OverflowPolicy::Drop));
    QVERIFY2(!failures.filter("display fed").isEmpty(), qPrintable(failures.join('\n')));
  }

  void blockRunThatDroppedOrLostFails() {
    SoakEnd end = consistentDropEnd();  // consistent for Drop, but Block may drop nothing
    QStringList failures = failed(checkCounts(end, OverflowPolicy::Block));
    QVERIFY2(!failures.filter("nothing dropped").isEmpty(), qPrintable(failures.join('\n')));
    QVERIFY2(!failures.filter("processed gap-free").isEmpty(), qPrintable(failures.join('\n')));
    QVERIFY2(!failures.filter("recorder dropped nothing").isEmpty(),
             qPrintable(failures.join('\n')));

    end = consistentBlockEnd();
    end.recorded = end.fileFrames = end.recorderAccepted = 4;
    end.file = tallyOf({0, 1, 2, 4});
    end.recorderDropped = 1;
    failures = failed(checkCounts(end, OverflowPolicy::Block));
    QVERIFY2(!failures.filter("recorded == produced").isEmpty(), qPrintable(failures.join('\n')));
    QVERIFY2(!failures.filter("recorded gap-free").isEmpty(), qPrintable(failures.join('\n')));

    end = consistentBlockEnd();
    end.engineFailed = true;
    end.engineError = "acquisition stopped";
    failures = failed(checkCounts(end, OverflowPolicy::Block));
    QVERIFY2(!failures.filter("acquisition stopped").isEmpty(), qPrintable(failures.join('\n')));
  }

  void memoryGrowthBeyondTheAllowanceFails() {
    const MemoryRule rule;  // 128 KiB per thread, 80 B per frame recorded, the index at most 8 MiB
    auto row = [](const char* label, double seconds, std::uint64_t kib, std::uint64_t recorded) {
      SoakRow r;
      r.label = label;
      r.seconds = seconds;
      r.rssBytes = kib << 10;
      r.recorded = recorded;
      r.threads = 16;  // 2 MiB for the allocator
      return r;
    };
    // Growth up to the first minute is warm-up. After it: 2 MiB + 10 000 x 80 B = 2829.25 KiB.
    std::vector<SoakRow> rows = {row("1", 60, 300000, 5000), row("2", 120, 301000, 10000),
                                 row("3", 180, 302829, 15000), row("end", 181, 100000, 15000)};
    QVERIFY2(checkMemory(rows, {}, rule).passed, checkMemory(rows, {}, rule).detail.c_str());
    rows[2].rssBytes = std::uint64_t{302830} << 10;
    const SoakCheck grown = checkMemory(rows, {}, rule);
    QVERIFY(!grown.passed);
    QVERIFY2(grown.detail.find("> 292.97 MiB at minute 1") != std::string::npos,
             grown.detail.c_str());
    // The recording index's share stops at 8 MiB: 10 MiB in all after a million frames.
    rows[2].recorded = 1005000;
    rows[2].rssBytes = std::uint64_t{300000 + 2048 + 8192} << 10;
    QVERIFY(checkMemory(rows, {}, rule).passed);
    rows[2].rssBytes += 4096;
    QVERIFY(!checkMemory(rows, {}, rule).passed);
    // The "end" row (after the engine stopped) is not judged; a run too short to reach its
    // baseline cannot pass.
    QVERIFY(!checkMemory({row("0.5", 30, 300000, 10), row("end", 31, 1, 10)}, {}, rule).passed);
    QCOMPARE(cineflow::app::memoryBaselineSeconds(600), 60.0);
    QCOMPARE(cineflow::app::memoryBaselineSeconds(60), 30.0);
  }

  void tableLinesLineUpWithTheHeader() {
    SoakRow row;
    row.label = "10";
    row.produced = 123456789;
    row.rssBytes = 250u << 20;
    row.ringSlots = 8;
    row.recorderSlots = 16;
    QCOMPARE(cineflow::app::tableLine(row).size(), cineflow::app::tableHeader().size());
    const cineflow::app::ProcessStatus status = cineflow::app::parseProcessStatus(
        "Name:\tx\nVmRSS:\t  2048 kB\nVmSwap: 0 kB\nThreads:\t12\n");
    QCOMPARE(status.rssBytes, std::uint64_t{2048} * 1024);
    QCOMPARE(status.threads, 12);
    QCOMPARE(cineflow::app::parseProcessStatus("Name:\tx\n").rssBytes, std::uint64_t{0});
  }

  void dropRunOfHalfAMinuteAccountsForEveryFrame() {
    QJsonObject json;
    runAndCheckCommon("0.5", "drop", json);
    if (QTest::currentTestFailed()) {
      return;
    }
    const QJsonObject end = json.value("end").toObject();
    const qint64 dropped = integer(end, "dropped");
    QCOMPARE(integer(end, "produced"),
             integer(end, "processed") + dropped + integer(end, "damaged"));
    QCOMPARE(integer(end.value("observed").toObject(), "gaps"), dropped + integer(end, "lost"));
    QCOMPARE(integer(end.value("file").toObject(), "gaps"),
             dropped + integer(end, "lost") + integer(end, "not_recorded"));
    // The memory baseline of a run shorter than two minutes is half-way through it.
    QCOMPARE(json.value("memory").toObject().value("baseline_seconds").toDouble(), 15.0);
    QCOMPARE(json.value("passed").toBool(), true);
  }

  void blockRunOfHalfAMinuteLosesNothing() {
    QJsonObject json;
    runAndCheckCommon("0.5", "block", json);
    if (QTest::currentTestFailed()) {
      return;
    }
    const QJsonObject end = json.value("end").toObject();
    for (const char* key : {"dropped", "lost", "damaged", "not_recorded"}) {
      QVERIFY2(integer(end, key) == 0, key);
    }
    const qint64 produced = integer(end, "produced");
    QCOMPARE(integer(end, "processed"), produced);
    QCOMPARE(integer(end, "recorded"), produced);
    QCOMPARE(integer(end.value("observed").toObject(), "gaps"), qint64{0});
    QCOMPARE(integer(end.value("file").toObject(), "gaps"), qint64{0});
    QCOMPARE(json.value("passed").toBool(), true);
  }
};

QTEST_GUILESS_MAIN(TestCliSoak)
#include "test_cli_soak.moc"
