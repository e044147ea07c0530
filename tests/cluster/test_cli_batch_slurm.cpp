// `cineflow batch --slurm` on a real Slurm: a single-node cluster started from Debian's packages
// (tests/batch/slurm_cluster.sh: munged, slurmctld and slurmd as root, no cgroups) runs a plan of
// eight jobs (the two real datasets of data/ x two f-numbers x two apodisations) as a job array;
// one job's process is killed mid-run and its retry is checked; every output equals, bit for bit,
// the same plan run locally; then the cluster is shut down. When the daemons cannot start here the
// test fails with their own words; without the packages or root it skips, saying which. A task
// cancelled with `scancel --batch` (which signals only the batch script) or plain `scancel` must
// end its job's process with it.

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/plain_hdf5.hpp"
#include "support/process_lookup.hpp"
#include "support/rf_file_fixture.hpp"
#include "support/run_app.hpp"
#include "support/test_paths.hpp"

using namespace cineflow;
using Json = nlohmann::ordered_json;

namespace {

const QString kClusterScript = QStringLiteral(CINEFLOW_TEST_SOURCE_DIR "/batch/slurm_cluster.sh");

std::vector<float> bmodeOf(const std::string& path) {
  test::PlainFile file(path);
  return test::readAll<float>(file.id, "/bmode_db", H5T_NATIVE_FLOAT);
}

Json readJson(const std::filesystem::path& path) {
  std::ifstream stream(path);
  return Json::parse(stream, nullptr, false);
}

// Whether `pid` still runs: a zombie (an orphan that nothing reaps) has ended.
bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) {
    return false;
  }
  const auto end = line.rfind(')');  // "pid (name) state ...": the name may hold spaces
  return end != std::string::npos && end + 2 < line.size() && line[end + 2] != 'Z';
}

}  // namespace

class TestCliBatchSlurm : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString cluster_;
  bool started_ = false;

  int runCluster(const QString& command, QString& output) {
    QProcess script;
    script.setProcessChannelMode(QProcess::MergedChannels);
    script.start(kClusterScript, {command, cluster_});
    script.waitForFinished(120000);
    output = QString::fromUtf8(script.readAll()).trimmed();
    return script.exitStatus() == QProcess::NormalExit ? script.exitCode() : -1;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // munged runs as the munge user and must reach its folder inside this one.
    QFile::setPermissions(dir_.path(), QFile::permissions(dir_.path()) | QFileDevice::ExeOther |
                                           QFileDevice::ReadOther | QFileDevice::ExeGroup |
                                           QFileDevice::ReadGroup);
    cluster_ = dir_.filePath("cluster");
    QString output;
    const int status = runCluster("start", output);
    if (status == 77) {
      QSKIP(qPrintable("no test cluster here: " + output));
    }
    QVERIFY2(status == 0, qPrintable("the Slurm test cluster did not start: " + output));
    started_ = true;
    qputenv("SLURM_CONF", (cluster_ + "/slurm.conf").toLocal8Bit());  // for sbatch, sinfo
  }

  void cleanupTestCase() {
    if (started_) {
      QString output;
      QCOMPARE(runCluster("stop", output), 0);
    }
  }

  void aPlanRunsOnTheClusterAsItDoesLocally() {
    // The two real datasets (data/): the Field II points and the Verasonics disk.
    QStringList inputs;
    for (const char* name : {"field2_pw3_points.h5", "verasonics_rotating_disk.h5"}) {
      const std::string path = test::datasetFile(name);
      if (path.empty()) {
        QFAIL(qPrintable(QString("data/%1 is missing from this clone (data/README.md)").arg(name)));
      }
      inputs << QString::fromStdString(path);
    }
    Json plan = {{"schema", "cineflow.batch/1"},
                 {"inputs", {inputs[0].toStdString(), inputs[1].toStdString()}},
                 {"output", "cluster-results"},
                 {"frames", 4},
                 {"parameters",
                  {{"mode", "iq"},
                   {"fnumber", {1, 1.5}},
                   {"apodisation", {"hann", "rect"}},
                   {"grid", "-10:10:0.1,12:30:0.05"}}}};
    std::ofstream(dir_.filePath("cluster.json").toStdString()) << plan.dump(2);
    plan["output"] = "local-results";
    std::ofstream(dir_.filePath("local.json").toStdString()) << plan.dump(2);

    QProcess batch;
    batch.setProcessChannelMode(QProcess::MergedChannels);
    batch.start(
        QString::fromStdString(test::appPath()),
        {"batch", dir_.filePath("cluster.json"), "--slurm", "--wait", "--time", "00:10:00"});
    QVERIFY(batch.waitForStarted());
    // Kill the first job that runs on the cluster (SIGKILL, mid-run): its task retries it.
    const std::string results = dir_.filePath("cluster-results").toStdString();
    pid_t victim = 0;
    for (int k = 0; k < 6000 && victim == 0 && batch.state() == QProcess::Running; ++k) {
      victim = test::headlessProcessMentioning("--output " + results);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    QVERIFY2(victim != 0, "no job of the array ever ran");
    ::kill(victim, SIGKILL);
    QVERIFY(batch.waitForFinished(500000));
    const QString output = QString::fromUtf8(batch.readAll());
    QVERIFY2(batch.exitCode() == 0, qPrintable(output));
    QVERIFY2(output.contains("submitted Slurm job array") &&
                 output.contains("8 jobs: 8 done, 0 failed, 0 pending"),
             qPrintable(output));
    QVERIFY(QFile::exists(QString::fromStdString(results) + "/slurm/batch.sbatch"));

    const auto local = test::runApp({"batch", dir_.filePath("local.json")});
    QVERIFY2(local.exitCode == 0, qPrintable(local.err + local.out));

    int retried = 0;
    int compared = 0;
    for (const auto& entry : std::filesystem::directory_iterator(results)) {
      if (entry.path().extension() != ".json") {
        continue;
      }
      const Json record = readJson(entry.path());
      QCOMPARE(QString::fromStdString(record["status"]), QString("done"));
      QVERIFY2(record.contains("slurm_task"), "a record of the cluster names its array task");
      retried += record["attempts"].get<int>() == 2;
      const std::string name = record["output"];
      const std::vector<float> onCluster = bmodeOf(results + "/" + name);
      QVERIFY(!onCluster.empty());
      QVERIFY2(onCluster == bmodeOf(dir_.filePath("local-results/").toStdString() + name),
               name.c_str());
      ++compared;
    }
    QCOMPARE(compared, 8);
    QCOMPARE(retried, 1);
    // The merged table names every job once.
    QFile csv(QString::fromStdString(results) + "/results.csv");
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(csv.readAll()).count("\r\n"), 9);
  }

  void aCancelledTaskEndsItsJob_data() {
    QTest::addColumn<QStringList>("scancel");
    QTest::newRow("scancel --batch") << QStringList{"--batch"};
    QTest::newRow("scancel") << QStringList{};
  }

  void aCancelledTaskEndsItsJob() {
    QFETCH(QStringList, scancel);
    // One job that would run for hours: a seeded recording replayed over and over.
    const QString name = scancel.isEmpty() ? "cancel" : "cancel-batch";
    const QString recording = dir_.filePath(name + ".h5");
    test::RfFileSpec spec;
    spec.frames = 4;
    spec.elements = 64;
    spec.samples = 1024;
    test::writeRfFile(recording.toStdString(), spec);
    const Json plan = {{"schema", "cineflow.batch/1"},
                       {"inputs", {recording.toStdString()}},
                       {"output", (name + "-results").toStdString()},
                       {"frames", 1000000000},
                       {"parameters", {{"grid", "-5:5:0.5,12:20:0.5"}}}};
    const QString planFile = dir_.filePath(name + ".json");
    std::ofstream(planFile.toStdString()) << plan.dump(2);

    const auto submitted = test::runApp({"batch", planFile, "--slurm", "--time", "00:10:00"});
    QVERIFY2(submitted.exitCode == 0, qPrintable(submitted.err + submitted.out));
    const auto id = QRegularExpression("submitted Slurm job array (\\d+)").match(submitted.err);
    QVERIFY2(id.hasMatch(), qPrintable(submitted.err));
    const std::string results = dir_.filePath(name + "-results").toStdString();
    pid_t job = 0;
    for (int k = 0; k < 600 && job == 0; ++k) {
      job = test::headlessProcessMentioning("--output " + results);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    QVERIFY2(job != 0, "the task's job never ran");

    QCOMPARE(QProcess::execute("scancel", scancel + QStringList{id.captured(1)}), 0);
    // Slurm ends a cancelled job's steps with SIGTERM and, KillWait (5 s) later, SIGKILL.
    for (int k = 0; k < 300 && running(job); ++k) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    const bool outlived = running(job);
    if (outlived) {
      ::kill(job, SIGKILL);  // this test's own job: not left behind
    }
    QVERIFY2(!outlived,
             qPrintable("the job's process outlived its cancelled task by 30 s (scancel " +
                        scancel.join(' ') + ")"));
  }
};

QTEST_GUILESS_MAIN(TestCliBatchSlurm)
#include "test_cli_batch_slurm.moc"
