// `cineflow tune` on the CPU with the default preset (the live GUI's workload): every variant of
// the beamformer, the envelope and the MIPs this CPU has is timed and listed with its time, one per
// stage is chosen, the history file is written, and --export writes the variant table; `--variants
// TABLE` then pins that choice in headless mode (reported as pinned), and a pin of a variant the
// stage lacks is an error naming the variants it has. `--modality oct` times the OCT transform.

#include <QtTest>

#include <string>

#include "oct/cpu/oct_stages.hpp"
#include "support/run_app.hpp"
#include "ultrasound/beamform.hpp"
#include "ultrasound/envelope.hpp"

using namespace cineflow;

class TestCliTune : public QObject {
  Q_OBJECT

 private slots:
  void tuneListsEveryVariantAndExportsTheChoice() {
    QTemporaryDir dir;
    const QString table = dir.filePath("variants.txt");
    const test::AppRun run = test::runApp({"tune", "--backend", "cpu", "--export", table});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    // RF mode's tunable stages, each with every variant and one choice.
    QVERIFY2(run.out.contains("beamform (") && run.out.contains("envelope (") &&
                 run.out.contains("mip ("),
             qPrintable(run.out));
    std::vector<std::string> variants = ultrasound::DasBeamformer().variants();
    for (const std::string& variant : ultrasound::EnvelopeDetector().variants()) {
      variants.push_back(variant);
    }
    variants.insert(variants.end(), {"two-pass", "one-pass"});  // the MIPs on the CPU
    for (const std::string& variant : variants) {
      const QString name = QString::fromStdString(variant);
      QVERIFY2(run.out.contains(QStringLiteral("  ") + name + QStringLiteral(" ")),
               qPrintable(name + " missing in:\n" + run.out));
    }
    QCOMPARE(run.out.count(QStringLiteral("chosen")), 3);
    QVERIFY2(run.out.contains("remembered in") && run.out.contains("tuning.json"),
             qPrintable(run.out));
    QFile file(table);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY2(text.contains("beamform="), qPrintable(text));
    const QString chosen = text.section(QStringLiteral("beamform="), 1).section('\n', 0, 0);

    const test::AppRun pinned =
        test::runApp({"--headless", "--input", "sim", "--backend", "cpu", "--frames", "2",
                      "--output", dir.filePath("o.h5"), "--variants", table});
    QVERIFY2(pinned.exitCode == 0, qPrintable(pinned.err + pinned.out));
    QVERIFY2(pinned.out.contains("variant beamform: " + chosen + " (pinned)"),
             qPrintable(pinned.out));

    const test::AppRun unknown =
        test::runApp({"--headless", "--input", "sim", "--backend", "cpu", "--frames", "1",
                      "--output", dir.filePath("p.h5"), "--variant", "beamform=avx9000"});
    QCOMPARE(unknown.exitCode, 2);  // a bad value of a known option
    QVERIFY2(unknown.err.contains("avx9000") && unknown.err.contains("portable"),
             qPrintable(unknown.err));
  }

  void tuneTimesTheOctTransform() {
    const test::AppRun run = test::runApp({"tune", "--backend", "cpu", "--modality", "oct"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("transform (1024 A-scans of 2048 samples)"), qPrintable(run.out));
    for (const std::string& variant : oct::cpu::OctCpuChain::variantNames()) {
      const QString name = QString::fromStdString(variant);
      QVERIFY2(run.out.contains(QStringLiteral("  ") + name + QStringLiteral(" ")),
               qPrintable(name + " missing in:\n" + run.out));
    }
    QCOMPARE(run.out.count(QStringLiteral("chosen")), 1);
  }

  void badTuneCommandLinesExitWithTwo() {
    for (const QStringList& args :
         {QStringList{"tune", "--preset", "nosuch"}, QStringList{"tune", "--frobnicate"},
          QStringList{"tune", "--modality", "xray"},
          QStringList{"--headless", "--input", "sim", "--output", "o.h5", "--variant",
                      "beamform"}}) {
      const test::AppRun run = test::runApp(args);
      QVERIFY2(run.exitCode == 2, qPrintable(args.join(' ') + ": " + run.err));
    }
  }
};

QTEST_GUILESS_MAIN(TestCliTune)
#include "test_cli_tune.moc"
