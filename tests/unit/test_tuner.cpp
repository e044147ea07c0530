// Measured choice of implementation (tune/): the choice logic on a fake clock, where each
// variant's run advances the clock by its own seeded duration, so the outcome is known:
//   - the fastest variant is chosen, one slow run (an interrupt) does not change that, and the
//     choice is remembered: a second tuner with the saved history picks it without running;
//   - a pin wins without measuring, and a pin of a variant the stage lacks names those it has;
//   - another driver or version measures afresh;
//   - a corrupt, foreign or old history file is ignored with a message naming it;
//   - the drift watch fires after its frames of outliers, not for ordinary noise;
//   - the engine (CPU backend, the real B-mode chain) measures at start, reuses the history at
//     the next start, reports its choices in its statistics, and measures again when asked.

#include <QtTest>

#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "compute/backend.hpp"
#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "support/test_random.hpp"
#include "tune/tuner.hpp"
#include "tune/tuning_history.hpp"
#include "ultrasound/beamform.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;

namespace {

class FakeClock final : public tune::TuneClock {
 public:
  double nowMs() override { return now; }
  double now = 1000.0;
};

// Three variants whose runs take `ms` each, plus seeded noise of +-2 %, and run `slowRun` (one
// interrupted run) 10 times as long.
struct FakeStage {
  FakeClock& clock;
  std::map<std::string, double> ms{{"a", 3.0}, {"b", 1.0}, {"c", 2.0}};
  std::string selected = "a";
  int runs = 0;
  int slowRun = -1;
  test::SeededRandom random{17};

  tune::TunableStage stage() {
    tune::TunableStage s;
    s.stage = "beamform";
    s.problem = "64 x 64 px";
    s.variants = {"a", "b", "c"};
    s.select = [this, names = s.variants](std::size_t i) { selected = names.at(i); };
    s.runOnce = [this] {
      const double factor = runs == slowRun ? 10.0 : 1.0;
      clock.now += factor * ms.at(selected) * (1.0 + random.uniform(-0.02, 0.02));
      ++runs;
    };
    return s;
  }
};

tune::Tuner makeTuner(FakeClock& clock, tune::TuningHistory history = {},
                      const std::string& driver = "driver 1") {
  return tune::Tuner("test device", driver, "9.9.9", std::move(history), clock);
}

}  // namespace

class TestTuner : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

 private slots:
  void theFastestIsChosenAndRemembered() {
    FakeClock clock;
    FakeStage fake{clock};
    fake.slowRun = 13;  // one of b's timed runs (a takes runs 0-9, b 10-19)
    tune::Tuner tuner = makeTuner(clock);
    const tune::StageChoice choice = tuner.choose(fake.stage(), true);
    QCOMPARE(choice.source, tune::ChoiceSource::Measured);
    QCOMPARE(QString::fromStdString(choice.variant), QString("b"));
    QCOMPARE(QString::fromStdString(fake.selected), QString("b"));
    QCOMPARE(fake.runs, 3 * 10);  // 2 warm-up + 8 timed runs each
    const tune::VariantTiming* b = choice.entry.timing("b");
    QVERIFY(b != nullptr);
    QVERIFY2(std::abs(b->ms - 1.0) < 0.03, qPrintable(QString::number(b->ms)));  // the outlier
    QVERIFY(tuner.unsaved());

    const std::string path = dir_.filePath("tuning.json").toStdString();
    tuner.history().save(path);
    std::string message;
    const tune::TuningHistory loaded = tune::TuningHistory::load(path, message);
    QVERIFY2(message.empty(), message.c_str());
    FakeStage again{clock};
    tune::Tuner second = makeTuner(clock, loaded);
    const tune::StageChoice reused = second.choose(again.stage(), true);
    QCOMPARE(reused.source, tune::ChoiceSource::History);
    QCOMPARE(QString::fromStdString(again.selected), QString("b"));
    QCOMPARE(again.runs, 0);  // nothing measured

    // A build that offers another set of variants (one added): measured afresh.
    FakeStage grown{clock};
    grown.ms["d"] = 0.5;
    tune::TunableStage grownStage = grown.stage();
    grownStage.variants.push_back("d");
    grownStage.select = [&grown, names = grownStage.variants](std::size_t i) {
      grown.selected = names.at(i);
    };
    tune::Tuner fifth = makeTuner(clock, loaded);
    const tune::StageChoice regrown = fifth.choose(grownStage, true);
    QCOMPARE(regrown.source, tune::ChoiceSource::Measured);
    QCOMPARE(QString::fromStdString(regrown.variant), QString("d"));
    QCOMPARE(grown.runs, 40);

    // Another driver: measured afresh.
    FakeStage other{clock};
    tune::Tuner third = makeTuner(clock, loaded, "driver 2");
    QCOMPARE(third.choose(other.stage(), true).source, tune::ChoiceSource::Measured);
    QCOMPARE(other.runs, 30);
    // Measuring not allowed and nothing remembered: the default, nothing run.
    FakeStage idle{clock};
    tune::Tuner fourth = makeTuner(clock, {}, "driver 3");
    QCOMPARE(fourth.choose(idle.stage(), false).source, tune::ChoiceSource::Default);
    QCOMPARE(QString::fromStdString(idle.selected), QString("a"));
    QCOMPARE(idle.runs, 0);
  }

  void aPinWinsWithoutMeasuring() {
    FakeClock clock;
    FakeStage fake{clock};
    tune::Tuner tuner = makeTuner(clock);
    tune::VariantPins pins;
    tune::addPin(pins, "beamform = c");
    tuner.setPins(pins);
    const tune::StageChoice choice = tuner.choose(fake.stage(), true);
    QCOMPARE(choice.source, tune::ChoiceSource::Pinned);
    QCOMPARE(QString::fromStdString(fake.selected), QString("c"));
    QCOMPARE(fake.runs, 0);
    tune::addPin(pins, "beamform=avx9000");
    tuner.setPins(pins);
    try {
      tuner.choose(fake.stage(), true);
      QFAIL("a pin of a variant the stage lacks was taken");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("avx9000") && QString(e.what()).contains("a, b, c"),
               e.what());
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tune::addPin(pins, "beamform"));

    const QString table = dir_.filePath("pins.txt");
    {
      std::ofstream out(table.toStdString());
      out << tune::pinsText({{"beamform", "b"}, {"envelope", "fir"}}) << "# a comment\n\n";
    }
    const tune::VariantPins read = tune::readPins(table.toStdString());
    QCOMPARE(read.size(), std::size_t{2});
    QCOMPARE(QString::fromStdString(read.at("envelope")), QString("fir"));
  }

  void aDamagedOrForeignHistoryIsIgnoredWithAMessage_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("not JSON") << "{ this is not json";
    QTest::newRow("another format") << R"({"format": "cineflow.tuning/0", "entries": []})";
    QTest::newRow("an entry without its fields")
        << R"({"format": "cineflow.tuning/1", "entries": [{"device": "x"}]})";
    QTest::newRow("a choice it did not measure")
        << R"({"format": "cineflow.tuning/1", "entries": [{"device": "d", "driver": "r",
              "version": "v", "stage": "s", "problem": "p", "chosen": "z", "variants": []}]})";
  }

  void aDamagedOrForeignHistoryIsIgnoredWithAMessage() {
    QFETCH(QString, text);
    const std::string path = dir_.filePath("bad.json").toStdString();
    {
      std::ofstream out(path);
      out << text.toStdString();
    }
    std::string message;
    const tune::TuningHistory history = tune::TuningHistory::load(path, message);
    QVERIFY(history.entries().empty());
    QVERIFY2(message.find("bad.json") != std::string::npos &&
                 message.find("measuring afresh") != std::string::npos,
             message.c_str());
    // A missing file is simply an empty history.
    tune::TuningHistory::load(dir_.filePath("none.json").toStdString(), message);
    QVERIFY(message.empty());
  }

  void driftIsAStreakOfOutliers() {
    // Measured alone at 8 ms; in the pipeline 10 ms (within 2 x): the first 16 frames set the
    // baseline, 10 +- 0.1 ms, so the limit is 4 x max(sd, 5 % of 10) = 2 ms.
    tune::DriftWatch watch(8.0);
    test::SeededRandom random(5);
    for (int i = 0; i < 16; ++i) {
      QVERIFY(!watch.observe(10.0 + random.uniform(-0.1, 0.1)));
    }
    QVERIFY2(std::abs(watch.baselineMs() - 10.0) < 0.1,
             qPrintable(QString::number(watch.baselineMs())));
    for (int i = 0; i < 200; ++i) {
      QVERIFY(!watch.observe(10.0 + random.uniform(-1.5, 1.5)));  // ordinary noise
    }
    for (int i = 0; i < 15; ++i) {
      QVERIFY(!watch.observe(13.0));
    }
    QVERIFY(!watch.observe(10.0));  // the streak is broken
    for (int i = 0; i < 15; ++i) {
      QVERIFY(!watch.observe(13.0));
    }
    QVERIFY(watch.observe(13.0));  // 16 in a row
    QVERIFY(watch.drifted());
    QCOMPARE(watch.reason(), tune::DriftWatch::Reason::ChangedWhileRunning);
  }

  // A pipeline baseline more than twice the isolated measurement, either way, is drift at once;
  // 1.5 times (a window's drawing sharing the cores) is not.
  void aBaselineFarFromTheMeasurementIsDrift() {
    for (const auto& [measured, running, drifts] :
         {std::tuple{10.0, 25.0, true}, std::tuple{10.0, 4.0, true},
          std::tuple{10.0, 15.0, false}}) {
      tune::DriftWatch watch(measured);
      test::SeededRandom random(6);
      bool drifted = false;
      for (int i = 0; i < 16; ++i) {
        drifted = watch.observe(running * (1.0 + random.uniform(-0.02, 0.02)));
        QVERIFY(!drifted || i == 15);  // decided with the baseline, at the 16th frame
      }
      QCOMPARE(drifted, drifts);
      QCOMPARE(watch.reason(), drifts ? tune::DriftWatch::Reason::FarFromMeasurement
                                      : tune::DriftWatch::Reason::None);
    }
  }

  void theEngineTunesAtStartAndReusesTheChoice() {
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    // One timed run per variant: the engine's use of the tuner, not the statistics, is tested
    // here (and a small cost under the sanitizers).
    auto tuner = std::make_shared<tune::Tuner>("cpu", "test", "9.9.9", tune::TuningHistory{},
                                               tune::steadyClock(), tune::TuneOptions{0, 1});
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 3;
    config.tuningPaybackFrames = 0;  // measures however short the run
    config.framesPerVolume = 0;
    const auto run = [&](bool retune = false) {
      pipeline::Engine engine(*backend, config);
      engine.setTuner(tuner);
      engine.setSource(acquire::openSource("sim"));
      if (retune) {
        engine.requestRetune();  // taken up between frames, before the first
      }
      engine.start();
      engine.waitUntilFinished();
      engine.stop();
      return engine.stats();
    };
    pipeline::EngineStats stats = run();
    QCOMPARE(stats.state, pipeline::EngineState::Finished);
    // RF mode's tunable stages: the beamformer and the envelope.
    QCOMPARE(stats.variants.size(), std::size_t{2});
    QCOMPARE(QString::fromStdString(stats.variants[0].stage), QString("beamform"));
    QCOMPARE(QString::fromStdString(stats.variants[1].stage), QString("envelope"));
    QCOMPARE(stats.variants[1].source, tune::ChoiceSource::Measured);
    QCOMPARE(stats.variants[0].source, tune::ChoiceSource::Measured);
    const std::string measured = stats.variants[0].variant;
    QCOMPARE(stats.variants[0].entry.variants.size(),
             ultrasound::DasBeamformer().variants().size());
    bool shown = false;
    for (const pipeline::StageStats& stage : stats.stages) {
      shown = shown || (stage.name == "beamform" && stage.variant == measured);
    }
    QVERIFY(shown);
    stats = run();
    QCOMPARE(stats.variants[0].source, tune::ChoiceSource::History);
    QCOMPARE(stats.variants[0].variant, measured);
    stats = run(true);
    QCOMPARE(stats.state, pipeline::EngineState::Finished);
    QCOMPARE(stats.variants[0].source, tune::ChoiceSource::Measured);
    QCOMPARE(stats.processed, std::uint64_t{3});
  }
};

QTEST_GUILESS_MAIN(TestTuner)
#include "test_tuner.moc"
