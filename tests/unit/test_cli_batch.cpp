// `cineflow batch PLAN.json` run locally: a plan of two recordings (seeded random RF written with
// the plain HDF5 API) x two modes x two f-numbers is eight jobs, each a headless run in its own
// process whose output is bit for bit what `cineflow --headless` writes with the same options;
// every job leaves a record with its report, and results.csv holds one row per job; the same
// command again skips every job; a job killed mid-run (SIGKILL) is retried and done; a recording
// that cannot be read fails twice and is listed as failed with its reader's message; a plan with a
// typo, a bad value or a glob that names nothing is refused before any job runs.

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/plain_hdf5.hpp"
#include "support/point_phantom.hpp"
#include "support/process_lookup.hpp"
#include "support/rf_file_fixture.hpp"
#include "support/run_app.hpp"
#include "support/test_paths.hpp"
#include "ultrasound/rf_writer.hpp"

using namespace cineflow;
using test::runApp;

namespace {

nlohmann::json readJson(const QString& path) {
  std::ifstream stream(path.toStdString());
  return nlohmann::json::parse(stream, nullptr, false);
}

using Json = nlohmann::ordered_json;

void writeText(const QString& path, const std::string& text) {
  std::ofstream(path.toStdString()) << text;
}

void writeJson(const QString& path, const Json& json) {
  writeText(path, json.dump(2));
}

std::vector<float> bmodeOf(const QString& path) {
  test::PlainFile file(path.toStdString());
  return test::readAll<float>(file.id, "/bmode_db", H5T_NATIVE_FLOAT);
}

// The records in `folder` (one per job).
QStringList records(const QString& folder) {
  QStringList names = QDir(folder).entryList({"*.json"}, QDir::Files, QDir::Name);
  names.removeAll("results.json");
  return names;
}

}  // namespace

class TestCliBatch : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QDir().mkpath(dir_.filePath("recordings"));
    test::RfFileSpec spec;
    spec.frames = 3;
    spec.transmits = 2;
    spec.elements = 32;
    spec.samples = 512;
    spec.seed = 221;
    test::writeRfFile(dir_.filePath("recordings/first.h5").toStdString(), spec);
    spec.seed = 222;
    test::writeRfFile(dir_.filePath("recordings/second.h5").toStdString(), spec);
  }

  void aPlanRunsEveryCombinationAndResumes() {
    writeJson(dir_.filePath("study.json"),
              {{"schema", "cineflow.batch/1"},
               {"inputs", {"recordings/*.h5"}},
               {"output", "results"},
               {"parameters",
                {{"mode", {"rf", "iq"}}, {"fnumber", {1, 1.5}}, {"grid", "-4:4:0.2,5:15:0.1"}}}});
    const auto run = runApp({"batch", dir_.filePath("study.json"), "--jobs", "2"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.err.contains("8 jobs to run, 0 already done, 2 at a time"), qPrintable(run.err));
    QVERIFY2(run.out.contains("8 jobs: 8 done, 0 failed, 0 pending"), qPrintable(run.out));
    const QString results = dir_.filePath("results");
    const QStringList names = records(results);
    QCOMPARE(names.size(), 8);
    for (const QString& name : names) {
      const nlohmann::json record = readJson(results + "/" + name);
      QCOMPARE(QString::fromStdString(record["schema"]), QString("cineflow.batch-record/1"));
      QCOMPARE(QString::fromStdString(record["status"]), QString("done"));
      QCOMPARE(record["attempts"].get<int>(), 1);
      QCOMPARE(record["report"]["frames_processed"].get<int>(), 3);
      QVERIFY(record["report"]["frames_per_second"].get<double>() > 0);
      QVERIFY(record["report"]["stages"].contains("beamform"));
      QVERIFY(QFile::exists(results + "/" + QString::fromStdString(record["output"])));
    }
    // One job's output against the same headless run by hand: the same B-mode, bit for bit.
    nlohmann::json chosen;
    for (const QString& name : names) {
      const nlohmann::json record = readJson(results + "/" + name);
      if (record["parameters"]["mode"] == "iq" && record["parameters"]["fnumber"] == "1.5" &&
          QString::fromStdString(record["input"]).endsWith("second.h5")) {
        chosen = record;
      }
    }
    QVERIFY(chosen.is_object());
    const QString byHand = dir_.filePath("by-hand.h5");
    const auto direct = runApp({"--headless", "--input", dir_.filePath("recordings/second.h5"),
                                "--output", byHand, "--backend", "cpu", "--no-tune", "--mode", "iq",
                                "--fnumber", "1.5", "--grid", "-4:4:0.2,5:15:0.1"});
    QVERIFY2(direct.exitCode == 0, qPrintable(direct.err));
    const std::vector<float> batchImage =
        bmodeOf(results + "/" + QString::fromStdString(chosen["output"]));
    QVERIFY(!batchImage.empty());
    QVERIFY(batchImage == bmodeOf(byHand));

    // One row per job; the options and the measurements as columns.
    QFile csv(results + "/results.csv");
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList rows = QString::fromUtf8(csv.readAll()).split("\r\n", Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 9);
    QVERIFY2(rows[0].startsWith("id,input,status,attempts,mode,fnumber,grid,frames_processed,"
                                "frames_per_second,seconds,frame_median_ms,"),
             qPrintable(rows[0]));
    QVERIFY(rows[0].contains("beamform_median_ms"));
    QVERIFY2(rows[1].contains(",done,1,rf,1,\"-4:4:0.2,5:15:0.1\",3,"), qPrintable(rows[1]));

    // Again: nothing left to do.
    const auto again = runApp({"batch", dir_.filePath("study.json")});
    QCOMPARE(again.exitCode, 0);
    QVERIFY2(again.err.contains("0 jobs to run, 8 already done"), qPrintable(again.err));
  }

  void aKilledJobIsRetriedAndAnUnreadableOneFails() {
    QFile::copy(dir_.filePath("recordings/first.h5"), dir_.filePath("long.h5"));
    test::writeRandomBytes(dir_.filePath("broken.h5").toStdString(), 4096, 7);
    writeJson(dir_.filePath("retry.json"), {{"schema", "cineflow.batch/1"},
                                            {"inputs", {"long.h5", "broken.h5"}},
                                            {"output", "retry-results"},
                                            {"frames", 800},
                                            {"parameters", {{"grid", "-4:4:0.1,5:15:0.05"}}}});
    QProcess batch;
    batch.setProcessChannelMode(QProcess::MergedChannels);
    batch.start(QString::fromStdString(test::appPath()),
                {"batch", dir_.filePath("retry.json"), "--jobs", "1"});
    QVERIFY(batch.waitForStarted());
    // The long job's first attempt: killed as soon as it runs.
    pid_t victim = 0;
    for (int k = 0; k < 3000 && victim == 0; ++k) {
      victim = test::headlessProcessMentioning(dir_.filePath("retry-results/long-").toStdString());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    QVERIFY2(victim != 0, "the long job never started");
    ::kill(victim, SIGKILL);
    QVERIFY(batch.waitForFinished(280000));
    const QString output = QString::fromUtf8(batch.readAll());
    QCOMPARE(batch.exitCode(), 1);  // the broken recording failed
    QVERIFY2(output.contains("2 jobs: 1 done, 1 failed, 0 pending"), qPrintable(output));
    const QString results = dir_.filePath("retry-results");
    nlohmann::json longRecord, brokenRecord;
    for (const QString& name : records(results)) {
      const nlohmann::json record = readJson(results + "/" + name);
      (name.startsWith("long-") ? longRecord : brokenRecord) = record;
    }
    QCOMPARE(QString::fromStdString(longRecord["status"]), QString("done"));
    QCOMPARE(longRecord["attempts"].get<int>(), 2);
    QCOMPARE(longRecord["report"]["frames_processed"].get<int>(), 800);
    QFile log(results + "/" + QString::fromStdString(longRecord["id"]) + ".log");
    QVERIFY(log.open(QIODevice::ReadOnly));
    QVERIFY(log.readAll().contains("attempt 1 failed (killed by signal 9"));
    QCOMPARE(QString::fromStdString(brokenRecord["status"]), QString("failed"));
    QCOMPARE(brokenRecord["attempts"].get<int>(), 2);
    const QString error = QString::fromStdString(brokenRecord["error"]);
    QVERIFY2(error.startsWith("exit code 1: cineflow: ") && error.contains("broken.h5"),
             qPrintable(error));
    // No temporary output of the killed attempt is left behind.
    QCOMPARE(QDir(results).entryList({"*.partial-*"}, QDir::Files).size(), 0);
  }

  void aRecordingWithKnownPointsGetsItsAccuracyMeasured() {
    // Three isolated points synthesised independently of the engine (support/point_phantom.hpp),
    // their true positions kept in the recording as the Field II file keeps its scatterers.
    const test::PointPhantom phantom = test::makePointPhantom(2207, 3, true);
    ultrasound::ImportedRecording recording;
    recording.acq = phantom.acq;
    recording.sampleType = acquire::SampleType::Float32;
    recording.frames = 1;
    recording.float32Samples = phantom.rf;
    const QString path = dir_.filePath("points.h5");
    ultrasound::writeRfRecording(path.toStdString(), recording);
    {
      const hid_t file = H5Fopen(path.toLocal8Bit().constData(), H5F_ACC_RDWR, H5P_DEFAULT);
      QVERIFY(file >= 0);
      std::vector<double> xyz;
      for (const auto& point : phantom.points) {
        xyz.insert(xyz.end(), {point[0], 0.0, point[1]});
      }
      const hsize_t shape[2] = {phantom.points.size(), 3};
      const hid_t group = H5Gcreate2(file, "/reference", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      const hid_t space = H5Screate_simple(2, shape, nullptr);
      const hid_t dataset = H5Dcreate2(group, "scatterers_m", H5T_IEEE_F64LE, space, H5P_DEFAULT,
                                       H5P_DEFAULT, H5P_DEFAULT);
      QVERIFY(H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, xyz.data()) >= 0);
      H5Dclose(dataset);
      H5Sclose(space);
      H5Gclose(group);
      H5Fclose(file);
    }
    constexpr double kDxMm = 0.1, kDzMm = 0.05;
    writeJson(dir_.filePath("accuracy.json"),
              {{"schema", "cineflow.batch/1"},
               {"inputs", {"points.h5"}},
               {"output", "accuracy-results"},
               {"parameters", {{"mode", "iq"}, {"grid", "-20:20:0.1,5:45:0.05"}}}});
    const auto run = runApp({"batch", dir_.filePath("accuracy.json")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    const QString results = dir_.filePath("accuracy-results");
    const QStringList names = records(results);
    QCOMPARE(names.size(), 1);
    const nlohmann::json accuracy = readJson(results + "/" + names[0])["accuracy"];
    QVERIFY2(accuracy.contains("points"), accuracy.dump().c_str());
    QCOMPARE(accuracy["points"].get<int>(), 3);
    // A beamformer that follows the delay convention puts each peak on its point up to its own
    // interpolation (0.03 mm, data/README.md) and the sub-pixel peak's: at most half a
    // pixel along each axis.
    const double bound = 0.03 + 0.5 * std::hypot(kDxMm, kDzMm);
    qInfo("3 points: largest error %.4f mm, mean %.4f mm (bound %.4f mm)",
          accuracy["point_error_max_mm"].get<double>(),
          accuracy["point_error_mean_mm"].get<double>(), bound);
    QVERIFY2(accuracy["point_error_max_mm"].get<double>() <= bound, accuracy.dump().c_str());
    QVERIFY(accuracy["point_error_mean_mm"].get<double>() <=
            accuracy["point_error_max_mm"].get<double>());
    QVERIFY2(run.out.contains("points within "), qPrintable(run.out));
  }

  void aBadPlanIsRefusedBeforeAnyJobRuns() {
    // (Plans built as JSON values: a glob's "/*" inside a raw string literal confuses moc.)
    const Json schema = {"schema", "cineflow.batch/1"};
    const Json recordings = {"inputs", {"recordings/*.h5"}};
    const std::pair<std::string, const char*> cases[] = {
        {Json{schema, recordings, {"parameters", {{"fnumbr", {1, 2}}}}}.dump(),
         "parameters: 'fnumbr' is not a headless processing option a plan may vary"},
        {Json{schema, recordings, {"parameters", {{"mode", {"rf", "xyz"}}}}}.dump(),
         "parameters: mode=xyz: "},
        {Json{schema, {"inputs", {"nowhere/*.h5"}}}.dump(), "inputs: 'nowhere/*.h5' names no file"},
        {Json{{"schema", "cineflow.batch/2"}, recordings}.dump(),
         "schema: expected \"cineflow.batch/1\""},
        {Json{schema, recordings, {"fames", 3}}.dump(), "unknown field 'fames'"},
        {"not json", "is not a JSON object"},
    };
    for (const auto& [plan, reason] : cases) {
      writeText(dir_.filePath("bad.json"), plan);
      const auto run = runApp({"batch", dir_.filePath("bad.json")});
      QCOMPARE(run.exitCode, 2);
      QVERIFY2(run.err.contains(reason), qPrintable(run.err));
      QVERIFY(!QDir(dir_.filePath("bad-results")).exists());
    }
    const auto noPlan = runApp({"batch"});
    QCOMPARE(noPlan.exitCode, 2);
    QVERIFY(noPlan.err.contains("which plan?"));
  }
};

QTEST_GUILESS_MAIN(TestCliBatch)
#include "test_cli_batch.moc"
