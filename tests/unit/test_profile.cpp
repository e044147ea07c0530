// Profiling statistics (engine/profile): RollingStats against a direct computation on seeded
// random samples (count, last, min, median, p99, max, mean, standard deviation), across the
// window's wrap; FrameTimeline's order and wrap; and the engine's statistics on a run with a
// processor of known cost: every stage counted, the end-to-end latency no shorter than the
// frame's own processing, and the timeline holding the newest frames in order. A recorded trace
// parses as JSON, has the acquire / upload / compute tracks, a flow per frame, and stage durations
// that agree with the statistics; a full recorder drops and says so.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <vector>

#include "compute/backend.hpp"
#include "pipeline/engine.hpp"
#include "profile/frame_timeline.hpp"
#include "profile/rolling_stats.hpp"
#include "profile/trace_recorder.hpp"
#include "support/pipeline_checks.hpp"
#include "support/test_random.hpp"

using namespace cineflow;

namespace {

// The statistics straight from their definitions.
profile::Summary direct(std::vector<double> v) {
  profile::Summary s;
  s.count = v.size();
  s.last = v.back();
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  const std::size_t n = v.size();
  s.median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  // p99: the smallest sample with at least 99 % of the samples at or below it.
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<double>(i + 1) >= 0.99 * static_cast<double>(n)) {
      s.p99 = v[i];
      break;
    }
  }
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(n);
  double squares = 0;
  for (const double x : v) {
    squares += (x - s.mean) * (x - s.mean);
  }
  s.stddev = std::sqrt(squares / static_cast<double>(n));
  return s;
}

}  // namespace

class TestProfile : public QObject {
  Q_OBJECT

  std::unique_ptr<compute::Backend> backend_ = compute::createBackend(compute::BackendRequest::Cpu);

  // Runs `frames` tagged frames flat out with `work` per frame (recorded into `trace` when
  // given); null unless the run finished.
  std::unique_ptr<pipeline::Engine> runTagged(std::uint64_t frames, int window,
                                              std::chrono::microseconds work,
                                              std::shared_ptr<profile::TraceRecorder> trace = {}) {
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = frames;
    config.statsWindow = window;
    auto engine = test::makeTaggedEngine(*backend_, config, nullptr, work);
    engine->setTraceRecorder(trace);
    engine->start();
    const pipeline::EngineState state = engine->waitUntilFinished();
    engine->stop();
    return state == pipeline::EngineState::Finished ? std::move(engine) : nullptr;
  }

 private slots:
  void rollingStatsMatchTheDefinitions_data() {
    QTest::addColumn<int>("window");
    QTest::addColumn<int>("samples");
    QTest::newRow("partly filled") << 120 << 37;
    QTest::newRow("exactly full") << 120 << 120;
    QTest::newRow("wrapped") << 120 << 1000;
    QTest::newRow("even, wrapped") << 64 << 301;
    QTest::newRow("one") << 10 << 1;
  }

  void rollingStatsMatchTheDefinitions() {
    QFETCH(int, window);
    QFETCH(int, samples);
    std::vector<float> values(static_cast<std::size_t>(samples));
    test::fillUniform(values, 1234 + static_cast<std::uint64_t>(samples), 0.05, 3.0);
    profile::RollingStats stats(static_cast<std::size_t>(window));
    for (const float v : values) {
      stats.add(v);
    }
    const std::size_t kept = std::min<std::size_t>(values.size(), static_cast<std::size_t>(window));
    const std::vector<double> last(values.end() - static_cast<std::ptrdiff_t>(kept), values.end());
    const profile::Summary got = stats.summary();
    const profile::Summary want = direct(last);
    QCOMPARE(got.count, want.count);
    // Exact for order statistics; sums to 1e-12 relative.
    QCOMPARE(got.last, want.last);
    QCOMPARE(got.min, want.min);
    QCOMPARE(got.median, want.median);
    QCOMPARE(got.p99, want.p99);
    QCOMPARE(got.max, want.max);
    QVERIFY(std::abs(got.mean - want.mean) <= 1e-12 * want.mean);
    QVERIFY(std::abs(got.stddev - want.stddev) <= 1e-12 * std::max(want.stddev, 1.0));
  }

  void knownSamplesGiveKnownStatistics() {
    profile::RollingStats stats(8);
    for (const double v : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) {
      stats.add(v);
    }
    const profile::Summary s = stats.summary();
    QCOMPARE(s.mean, 5.0);
    QCOMPARE(s.stddev, 2.0);  // the textbook population example
    QCOMPARE(s.median, 4.5);
    QCOMPARE(s.p99, 9.0);
    QCOMPARE(s.last, 9.0);
    stats.clear();
    QCOMPARE(stats.summary().count, std::size_t{0});
  }

  void timelineKeepsTheNewestInOrder() {
    profile::FrameTimeline timeline(5);
    std::vector<profile::FrameTiming> out;
    timeline.copyLast(3, out);
    QVERIFY(out.empty());
    for (std::uint64_t s = 0; s < 12; ++s) {
      profile::FrameTiming t;
      t.sequence = s;
      t.stages = 1;
      t.stageMs[0] = static_cast<float>(s) * 0.5f;
      timeline.add(t);
    }
    QCOMPARE(timeline.size(), std::size_t{5});
    timeline.copyLast(3, out);
    QCOMPARE(out.size(), std::size_t{3});
    QCOMPARE(out[0].sequence, std::uint64_t{9});
    QCOMPARE(out[2].sequence, std::uint64_t{11});
    QCOMPARE(out[2].stageMs[0], 5.5f);
    timeline.copyLast(50, out);
    QCOMPARE(out.size(), std::size_t{5});
    QCOMPARE(out.front().sequence, std::uint64_t{7});
  }

  void engineTimesEveryStageAndTheLatency() {
    // The tagged processor spends 200 us per frame in its one stage.
    const auto engine = runTagged(300, 100, std::chrono::microseconds(200));
    QVERIFY(engine);
    const pipeline::EngineStats stats = engine->stats();
    QVERIFY(stats.stages.size() >= 2);
    for (const pipeline::StageStats& stage : stats.stages) {
      QCOMPARE(stage.count, std::size_t{100});
      QVERIFY2(stage.minMs <= stage.medianMs && stage.medianMs <= stage.p99Ms &&
                   stage.p99Ms <= stage.maxMs,
               stage.name.c_str());
      QVERIFY2(stage.meanMs >= stage.minMs && stage.meanMs <= stage.maxMs, stage.name.c_str());
      QVERIFY2(stage.stdMs >= 0, stage.name.c_str());
    }
    const pipeline::StageStats& work = stats.stages[1];
    QVERIFY2(work.minMs >= 0.19, qPrintable(QString::number(work.minMs)));  // 200 us, 5 % slack
    QCOMPARE(stats.latency.name, std::string("latency"));
    QCOMPARE(stats.latency.count, std::size_t{100});
    // From acquisition to displayable takes at least the frame's own processing.
    QVERIFY2(stats.latency.medianMs >= stats.frameMedianMs,
             qPrintable(QString("%1 < %2").arg(stats.latency.medianMs).arg(stats.frameMedianMs)));

    std::vector<profile::FrameTiming> timeline;
    engine->copyTimeline(120, timeline);
    QCOMPARE(timeline.size(), std::size_t{120});
    QCOMPARE(timeline.back().sequence, std::uint64_t{299});
    for (std::size_t i = 1; i < timeline.size(); ++i) {
      QCOMPARE(timeline[i].sequence, timeline[i - 1].sequence + 1);
    }
    QCOMPARE(timeline.back().stages, static_cast<int>(stats.stages.size()));
    QVERIFY(timeline.back().stageMs[1] >= 0.19f);
    QVERIFY(timeline.back().frameMs >= timeline.back().stageMs[1]);
  }

  void traceParsesWithTracksFlowsAndTheStatisticsDurations() {
    const auto recorder = std::make_shared<profile::TraceRecorder>();
    profile::TraceRecorder& trace = *recorder;
    const auto engine = runTagged(60, 60, std::chrono::microseconds(300), recorder);
    QVERIFY(engine);
    const pipeline::EngineStats stats = engine->stats();

    QJsonParseError error;
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray::fromStdString(trace.chromeJson()), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonArray events = document.object().value("traceEvents").toArray();

    QMap<int, QString> tracks;
    QMap<QString, std::vector<double>> durations;  // span name -> microseconds
    QMap<QString, int> flows;                      // phase -> count
    for (const QJsonValue& value : events) {
      const QJsonObject event = value.toObject();
      const QString phase = event.value("ph").toString();
      if (phase == "M" && event.value("name").toString() == "thread_name") {
        tracks[event.value("tid").toInt()] =
            event.value("args").toObject().value("name").toString();
      } else if (phase == "X") {
        QVERIFY(event.value("dur").toDouble() >= 0);
        QVERIFY(event.value("args").toObject().contains("frame"));
        durations[event.value("name").toString()].push_back(event.value("dur").toDouble());
      } else if (phase == "s" || phase == "t" || phase == "f") {
        ++flows[phase];
      }
    }
    for (const char* name : {"cf-acquire", "upload stream", "compute stream"}) {
      QVERIFY2(tracks.values().contains(name), name);
    }
    // Every frame read, uploaded and processed; one flow from the read to the last stage.
    QCOMPARE(durations["acquire"].size(), std::size_t{60});
    QCOMPARE(durations["upload"].size(), std::size_t{60});
    QCOMPARE(durations["tag"].size(), std::size_t{60});
    QCOMPARE(flows["s"], 60);
    QCOMPARE(flows["f"], 60);
    QCOMPARE(trace.dropped(), std::size_t{0});
    // The trace's stage durations are the statistics' samples (to the microsecond rounding).
    std::vector<double> tag = durations["tag"];
    std::sort(tag.begin(), tag.end());
    const double medianMs = (tag[29] + tag[30]) / 2 * 1e-3;
    QVERIFY2(std::abs(medianMs - stats.stages[1].medianMs) <= 0.002,
             qPrintable(QString("%1 vs %2").arg(medianMs).arg(stats.stages[1].medianMs)));
    QVERIFY(medianMs >= 0.29);  // 300 us of work, less 10 us of rounding
  }

  void traceAttachesAndDetachesWhileRunning() {
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 3000;
    auto engine =
        test::makeTaggedEngine(*backend_, config, nullptr, std::chrono::microseconds(200));
    const auto recorder = std::make_shared<profile::TraceRecorder>();
    engine->start();
    QTRY_VERIFY_WITH_TIMEOUT(engine->stats().processed >= 300, 10'000);
    engine->setTraceRecorder(recorder);
    QTRY_VERIFY_WITH_TIMEOUT(recorder->size() >= 600, 10'000);
    engine->setTraceRecorder(nullptr);
    const std::uint64_t detachedAt = engine->stats().acquired;
    QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
    engine->stop();
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray::fromStdString(recorder->chromeJson()));
    std::int64_t first = -1, last = -1;
    int stages = 0;
    for (const QJsonValue& value : document.object().value("traceEvents").toArray()) {
      const QJsonObject event = value.toObject();
      if (event.value("ph").toString() != "X") {
        continue;
      }
      const auto frame =
          static_cast<std::int64_t>(event.value("args").toObject().value("frame").toDouble());
      first = first < 0 ? frame : std::min(first, frame);
      last = std::max(last, frame);
      stages += event.value("name").toString() == "tag" ? 1 : 0;
    }
    qInfo("recorded frames %lld..%lld (%d stage spans); detached when %llu were acquired",
          static_cast<long long>(first), static_cast<long long>(last), stages,
          static_cast<unsigned long long>(detachedAt));
    QVERIFY(stages >= 100);
    QVERIFY(first >= 250);  // nothing from before the recorder was attached (a few in flight)
    // Nothing long after it was detached: at most the frames then in the ring and in flight.
    QVERIFY(last <= static_cast<std::int64_t>(detachedAt) + 16);
    QVERIFY(last < 2900);
  }

  void fullRecorderDropsAndSaysSo() {
    profile::TraceRecorder trace(2);
    const int track = trace.track("t");
    QCOMPARE(trace.track("t"), track);
    for (int i = 0; i < 5; ++i) {
      trace.add(track, "a span with a name longer than the limit", i * 1000, i * 1000 + 500, i);
    }
    QCOMPARE(trace.size(), std::size_t{2});
    QCOMPARE(trace.dropped(), std::size_t{3});
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray::fromStdString(trace.chromeJson()));
    QCOMPARE(document.object().value("otherData").toObject().value("dropped_spans").toInt(), 3);
  }
};

QTEST_GUILESS_MAIN(TestProfile)
#include "test_profile.moc"
