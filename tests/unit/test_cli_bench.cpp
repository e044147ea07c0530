// `cineflow bench`, run as a user runs it: the table, the JSON file and the command-line errors.
#include <algorithm>
#include <map>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "support/run_app.hpp"
#include "support/test_paths.hpp"

namespace {

using Run = cineflow::test::AppRun;
using cineflow::test::runApp;

const char* const kStages[] = {"upload", "bandpass", "beamform", "envelope", "log"};

}  // namespace

class TestCliBench : public QObject {
  Q_OBJECT

  // The OCT chain's trace: B-scan n + 1's upload (its own stream) starts before B-scan n's stages
  // end, so the copy hides behind the computation. On the CPU backend the upload stream is a
  // thread of its own; a busy machine may serialise a few frames, so half of them must overlap.
  static void checkUploadsOverlapStages(const QJsonArray& events) {
    struct Spans {
      double uploadStart = -1, stagesStart = -1, stagesEnd = -1;
    };
    std::map<int, Spans> frames;
    for (const QJsonValue& value : events) {
      const QJsonObject event = value.toObject();
      if (event.value("ph").toString() != "X" || !event.contains("args")) {
        continue;
      }
      const int frame = event.value("args").toObject().value("frame").toInt(-1);
      const QString name = event.value("name").toString();
      const double start = event.value("ts").toDouble();
      const double end = start + event.value("dur").toDouble();
      Spans& spans = frames[frame];
      if (name == "upload") {
        spans.uploadStart = start;
      } else if (name == "background" || name == "transform") {
        spans.stagesStart = spans.stagesStart < 0 ? start : std::min(spans.stagesStart, start);
        spans.stagesEnd = std::max(spans.stagesEnd, end);
      }
    }
    int pairs = 0, overlapping = 0;
    for (const auto& [frame, spans] : frames) {
      const auto next = frames.find(frame + 1);
      if (frame < 0 || next == frames.end() || spans.stagesEnd < 0 ||
          next->second.uploadStart < 0) {
        continue;
      }
      ++pairs;
      overlapping += next->second.uploadStart < spans.stagesEnd ? 1 : 0;
    }
    QVERIFY2(pairs >= 10, qPrintable(QString("%1 pairs of B-scans traced").arg(pairs)));
    QVERIFY2(2 * overlapping >= pairs,
             qPrintable(QString("%1 of %2 uploads overlapped the previous B-scan's stages")
                            .arg(overlapping)
                            .arg(pairs)));
  }

 private slots:
  void helpDocumentsEveryOption() {
    const Run run = runApp({"bench", "--help"});
    QCOMPARE(run.exitCode, 0);
    for (const char* option :
         {"--backend", "--preset", "--frames", "--save-volumes", "--json", "course"}) {
      QVERIFY2(run.out.contains(option), option);
    }
  }

  void badCommandLinesExitWithTwo() {
    const QList<QStringList> cases = {{"bench", "--preset", "nosuch"},
                                      {"bench", "--frames", "0"},
                                      {"bench", "--frames", "ten"},
                                      {"bench", "--backend", "quantum"},
                                      {"bench", "--json"},
                                      {"bench", "--frobnicate"},
                                      {"bench", "--save-volumes"},
                                      {"bench", "--preset", "course", "--save-volumes", "d"},
                                      {"bench", "--frames=0"},
                                      {"bench", "--json="},
                                      {"bench", "--backend=quantum"},
                                      {"bench", "--frobnicate=1"}};
    for (const QStringList& args : cases) {
      const Run run = runApp(args);
      QVERIFY2(run.exitCode == 2, qPrintable(args.join(' ') + ": " + run.err));
      QVERIFY2(run.err.startsWith("cineflow: "), qPrintable(run.err));
    }
    const Run run = runApp({"bench", "--preset", "nosuch"});
    QVERIFY2(run.err.contains("nosuch"), qPrintable(run.err));
  }

  void cpuDefaultPresetPrintsTheTableAndWritesJson() {
    QTemporaryDir dir;
    const QString jsonPath = dir.filePath("b.json");
    // Values after a space and after '=' alike.
    const Run run =
        // Pinned variants: the tuner's path without a measurement (test_cli_tune times them).
        runApp({"bench", "--backend", "cpu", "--preset=default", "--frames=3", "--variant",
                "beamform=portable", "--variant", "envelope=fft", "--json", jsonPath});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("beamform: portable (pinned)"), qPrintable(run.out));
    for (const char* stage : kStages) {
      QVERIFY2(run.out.contains(stage), stage);
    }
    for (const char* text : {"points/s", "frames/s", "GB/s"}) {
      QVERIFY2(run.out.contains(text), text);
    }

    QFile file(jsonPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonObject json = document.object();
    QCOMPARE(json.value("backend").toString(), QString("cpu"));
    QCOMPARE(json.value("preset").toString(), QString("default"));
    QVERIFY(!json.value("device").toString().isEmpty());
    QCOMPARE(json.value("frames").toInt(), 3);
    QCOMPARE(json.value("transmits").toInt(), 3);
    QCOMPARE(json.value("elements").toInt(), 128);
    // The chain is timed as it runs, with no image copied to the host per frame.
    QVERIFY(json.value("frame_observer").isBool());
    QCOMPARE(json.value("frame_observer").toBool(), false);
    QVERIFY2(run.out.contains("observer: none"), qPrintable(run.out));
    for (const char* key :
         {"frame_bytes", "nx", "nz", "h2d_gbps", "d2d_gbps", "frames_per_s",
          "h2d_bound_frames_per_s", "fraction_of_h2d_bound", "beamform_points_per_s"}) {
      QVERIFY2(json.value(key).isDouble(), key);
      QVERIFY2(json.value(key).toDouble() > 0, key);
    }
    // int16 [transmits][elements][samples]
    QCOMPARE(json.value("frame_bytes").toDouble(),
             2.0 * 3 * 128 * json.value("samples").toDouble());

    const QJsonArray stages = json.value("stages").toArray();
    QCOMPARE(stages.size(), qsizetype(std::size(kStages)));
    for (qsizetype i = 0; i < stages.size(); ++i) {
      const QJsonObject stage = stages[i].toObject();
      QCOMPARE(stage.value("name").toString(), QString(kStages[i]));
      QVERIFY2(stage.value("median_ms").toDouble() > 0, kStages[i]);
      QVERIFY2(stage.value("p99_ms").toDouble() >= stage.value("median_ms").toDouble(), kStages[i]);
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"b.json"});  // no temporary
  }

  void octBenchWritesJsonAndTraceAndRefusesSaving() {
    // --modality oct takes --json and --trace as the ultrasound bench does; --save-volumes, which
    // needs volumes, is refused by name rather than ignored.
    QTemporaryDir dir;
    const QString jsonPath = dir.filePath("oct.json"), tracePath = dir.filePath("oct.trace.json");
    const Run run = runApp({"bench", "--backend", "cpu", "--modality", "oct", "--frames", "3",
                            "--no-tune", "--json", jsonPath, "--trace", tracePath});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("A-scans/s"), qPrintable(run.out));
    QFile file(jsonPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(file.readAll(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QCOMPARE(json.value("modality").toString(), QString("oct"));
    QCOMPARE(json.value("backend").toString(), QString("cpu"));
    QCOMPARE(json.value("frames").toInt(), 3);
    QCOMPARE(json.value("nx").toInt(), 1024);  // A-scans per B-scan
    QCOMPARE(json.value("samples").toInt(), 2048);
    QCOMPARE(json.value("frame_bytes").toDouble(), 2.0 * 1024 * 2048);
    for (const char* key : {"frames_per_s", "h2d_gbps", "seconds"}) {
      QVERIFY2(json.value(key).toDouble() > 0, key);
    }
    QVERIFY(!json.value("stages").toArray().isEmpty());
    QVERIFY(json.value("frame_observer").isBool());
    QCOMPARE(json.value("frame_observer").toBool(), false);
    QVERIFY2(run.out.contains("none (no image copied to the host)"), qPrintable(run.out));
    QFile trace(tracePath);
    QVERIFY(trace.open(QIODevice::ReadOnly));
    const QJsonDocument traceDocument = QJsonDocument::fromJson(trace.readAll(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVERIFY2(run.out.contains("trace spans"), qPrintable(run.out));
    checkUploadsOverlapStages(traceDocument.object().value("traceEvents").toArray());

    const Run saving = runApp({"bench", "--backend", "cpu", "--modality", "oct", "--frames", "3",
                               "--save-volumes", dir.filePath("saves")});
    QVERIFY2(saving.exitCode == 2, qPrintable(saving.err + saving.out));
    QVERIFY2(saving.err.contains("--save-volumes") && saving.err.contains("OCT"),
             qPrintable(saving.err));
  }

  void compressedReplayIsTimedWithoutAnObserver() {
    // --compressed times both replays as the other benchmarks time their runs.
    const Run run = runApp({"bench", "--backend", "cpu", "--compressed", "--frames", "2"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("frame observer: none"), qPrintable(run.out));
    QVERIFY2(run.out.contains("% of uncompressed"), qPrintable(run.out));
  }

  void savingRunReportsItsCostAndLeavesNoFiles() {
    QTemporaryDir dir;
    const QString folder = dir.filePath("saves");
    const QString jsonPath = dir.filePath("b.json");
    // 18 timed frames after the warm-up (11 frames): each run goes through 29 frames of the
    // simulator's 16-slice sweeps, so the first sweep completes inside the timed frames (Block
    // mode: none drops) and is saved. Small, so that the test stays well inside its limit under
    // ThreadSanitizer (248 s of 300 with 24 frames in a full CI run).
    const Run run = runApp({"bench", "--backend", "cpu", "--frames", "18", "--no-tune",
                            "--save-volumes", folder, "--json", jsonPath});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("while saving"), qPrintable(run.out));
    QFile file(jsonPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    QVERIFY2(json.value("volumes_saved").toDouble() >= 1, "no volume was saved");
    QVERIFY(json.value("saving_frames_per_s").toDouble() > 0);
    QVERIFY(json.value("save_mb_per_s").toDouble() > 0);
    QVERIFY(json.value("save_cost_fraction").isDouble());
    // Block mode, where the source waits and nothing can drop: the cost is the frame rate, and
    // no drop count pretends to measure anything.
    QVERIFY(!json.contains("saving_dropped"));
    // Every saved file was deleted once written; no temporary file was left either.
    QVERIFY(QDir(folder).exists());
    QVERIFY2(QDir(folder).entryList(QDir::Files).isEmpty(),
             qPrintable(QDir(folder).entryList(QDir::Files).join(", ")));
  }
};

QTEST_GUILESS_MAIN(TestCliBench)
#include "test_cli_bench.moc"
