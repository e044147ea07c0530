// `cineflow bench --preset disk`: colour Doppler of the Verasonics disk's acquisition, run as a
// user runs it; the report and the JSON give the Doppler estimates (ensembles) per second. Apart
// from test_cli_bench, whose runs already fill most of a sanitizer build's time limit.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "support/run_app.hpp"

namespace {

using Run = cineflow::test::AppRun;
using cineflow::test::runApp;

}  // namespace

class TestCliBenchDoppler : public QObject {
  Q_OBJECT

 private slots:
  void dopplerReportsEnsemblesPerSecond() {
    QTemporaryDir dir;
    const QString jsonPath = dir.filePath("d.json");
    const Run run = runApp({"bench", "--backend", "cpu", "--preset", "disk", "--frames", "3",
                            "--no-tune", "--json", jsonPath});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("ensembles/s (32 frames, sliding, wall filter none, 251 x 251"),
             qPrintable(run.out));
    QVERIFY2(run.out.contains("doppler "), qPrintable(run.out));  // its stage's time
    QFile file(jsonPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(json.value("mode").toString(), QString("doppler"));
    QCOMPARE(json.value("doppler_ensemble").toInt(), 32);
    QVERIFY(json.value("doppler_ensembles_per_s").toDouble() > 0);
  }
};

QTEST_GUILESS_MAIN(TestCliBenchDoppler)
#include "test_cli_bench_doppler.moc"
