// The engine's statistics collaborator (pipeline/engine_statistics.hpp) on seeded random frame
// times: a row a frame did not run (a frame that arrived decoded has no "decode") adds no sample
// while the others count every frame; the medians agree with a direct computation; a chosen
// variant that runs several times slower than its measurement raises its drift watch once, with
// a note naming the stage; a new run empties the windows and the damage but keeps the rows and
// the choices.
#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

#include "pipeline/engine_statistics.hpp"
#include "support/test_random.hpp"

using namespace cineflow;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

tune::StageChoice measuredChoice(const std::string& stage, double ms) {
  tune::StageChoice choice;
  choice.stage = stage;
  choice.variant = "tiled";
  choice.source = tune::ChoiceSource::Measured;
  choice.entry.chosen = "tiled";
  choice.entry.variants = {{"plain", 2 * ms, 0.01, 10}, {"tiled", ms, 0.01, 10}};
  return choice;
}

const pipeline::StageStats* row(const pipeline::EngineStats& stats, const std::string& name) {
  for (const pipeline::StageStats& s : stats.stages) {
    if (s.name == name) {
      return &s;
    }
  }
  return nullptr;
}

}  // namespace

class TestEngineStatistics : public QObject {
  Q_OBJECT

 private slots:
  void rowsCountWhatEachFrameRan() {
    pipeline::EngineStatistics statistics;
    statistics.startRun(64);
    statistics.setStages({"upload", "decode", "beamform"});
    test::SeededRandom random(41);
    std::vector<double> upload, decode, beamform, frame;
    std::vector<std::string> drifted;
    for (int i = 0; i < 40; ++i) {
      const bool staged = i % 3 != 0;  // every third frame arrived decoded
      const std::vector<double> ms = {random.uniform(0.1, 0.3),
                                      staged ? random.uniform(0.5, 1.5) : -1.0,
                                      random.uniform(2.0, 4.0)};
      upload.push_back(ms[0]);
      if (staged) {
        decode.push_back(ms[1]);
      }
      beamform.push_back(ms[2]);
      frame.push_back(ms[0] + std::max(ms[1], 0.0) + ms[2]);
      statistics.recordFrame({static_cast<std::uint64_t>(i), ms, frame.back()}, drifted);
    }
    pipeline::EngineStats stats;
    statistics.fill(stats);
    QCOMPARE(stats.stages.size(), std::size_t{3});
    QCOMPARE(row(stats, "upload")->count, upload.size());
    QCOMPARE(row(stats, "decode")->count, decode.size());
    QCOMPARE(row(stats, "beamform")->count, beamform.size());
    // The order statistics are the samples' own (no arithmetic between them): exact.
    QCOMPARE(row(stats, "decode")->medianMs, median(decode));
    QCOMPARE(row(stats, "beamform")->medianMs, median(beamform));
    QCOMPARE(stats.frameMedianMs, median(frame));
    QVERIFY(drifted.empty());  // no choice measured: nothing watched

    std::vector<profile::FrameTiming> timeline;
    statistics.copyTimeline(5, timeline);
    QCOMPARE(timeline.size(), std::size_t{5});
    QCOMPARE(timeline.back().sequence, std::uint64_t{39});
    QCOMPARE(timeline.back().stages, 3);
    QCOMPARE(timeline.back().stageMs[2], static_cast<float>(beamform.back()));

    const std::vector<const char*> processor = {"beamform"};
    QVERIFY(statistics.stagesFrom(2, processor));
    QVERIFY(!statistics.stagesFrom(1, processor));
  }

  void aVariantFarSlowerThanMeasuredDriftsOnce() {
    pipeline::EngineStatistics statistics;
    statistics.startRun(64);
    statistics.setStages({"upload", "beamform", "envelope"});
    statistics.setChoices({measuredChoice("beamform", 1.0)});
    test::SeededRandom random(42);
    std::vector<std::string> drifted;
    // Five times the measured 1 ms, well past DriftWatch's factor of 2, from the first frames.
    for (int i = 0; i < 64; ++i) {
      const std::vector<double> ms = {0.2, random.uniform(4.5, 5.5), random.uniform(0.4, 0.6)};
      statistics.recordFrame({static_cast<std::uint64_t>(i), ms, 6.0}, drifted);
    }
    QCOMPARE(drifted, std::vector<std::string>{"beamform"});
    pipeline::EngineStats stats;
    statistics.fill(stats);
    QVERIFY2(stats.tuneNote.find("beamform") == 0, stats.tuneNote.c_str());
    QVERIFY(stats.tuneNote.find("measures it again") != std::string::npos);
    QCOMPARE(row(stats, "beamform")->variant, std::string("tiled"));
    QVERIFY(row(stats, "envelope")->variant.empty());

    // A new choice clears the note; a new run keeps rows and choices and empties the rest.
    statistics.noteDamage("frame 7: checksum");
    statistics.setChoices({measuredChoice("beamform", 5.0)});
    statistics.startRun(64);
    pipeline::EngineStats after;
    statistics.fill(after);
    QVERIFY(after.tuneNote.empty());
    QVERIFY(after.lastDamage.empty());
    QCOMPARE(after.stages.size(), std::size_t{3});
    QCOMPARE(row(after, "beamform")->count, std::size_t{0});
    QCOMPARE(row(after, "beamform")->variant, std::string("tiled"));
    // Now measured at 5 ms, the same frames are within the factor: no drift.
    drifted.clear();
    for (int i = 0; i < 64; ++i) {
      const std::vector<double> ms = {0.2, random.uniform(4.5, 5.5), 0.5};
      statistics.recordFrame({static_cast<std::uint64_t>(i), ms, 6.0}, drifted);
    }
    QVERIFY(drifted.empty());
  }
};

QTEST_APPLESS_MAIN(TestEngineStatistics)
#include "test_engine_statistics.moc"
