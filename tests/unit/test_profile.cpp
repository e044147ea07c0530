// Profiling statistics (engine/profile): RollingStats against a direct computation on seeded
// random samples (count, last, min, median, p99, max, mean, standard deviation), across the
// window's wrap; FrameTimeline's order and wrap; and the engine's statistics on a run with a
// processor of known cost: every stage counted, the end-to-end latency no shorter than the
// frame's own processing, and the timeline holding the newest frames in order. A recorded trace
// parses as JSON, has the acquire / upload / compute tracks, a flow per frame, and stage durations
// that agree with the statistics; a full recorder drops and says so. With volumes, each volume's
// MIPs are timed (statistics and an "endpoint stream" span after the sweep's last frame); a
// StageProbe (the display copy, save I/O) times what it is given and traces it while attached.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <vector>

#include "compute/backend.hpp"
#include "pipeline/engine.hpp"
#include "profile/frame_timeline.hpp"
#include "profile/rolling_stats.hpp"
#include "profile/stage_probe.hpp"
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

// A Chrome trace as Perfetto reads it: the tracks by id, the spans (microseconds), the flows.
struct ParsedTrace {
  struct Span {
    QString name, track;
    double startUs = 0, durationUs = 0;
    std::int64_t frame = -1;
  };
  QMap<int, QString> tracks;
  std::vector<Span> spans;
  QMap<QString, int> flows;  // phase -> count
  QString error;             // the JSON parser's, when it failed

  std::vector<double> durations(const QString& name) const {
    std::vector<double> out;
    for (const Span& span : spans) {
      if (span.name == name) {
        out.push_back(span.durationUs);
      }
    }
    return out;
  }
};

ParsedTrace parseTrace(const profile::TraceRecorder& recorder) {
  ParsedTrace trace;
  QJsonParseError error;
  const QJsonDocument document =
      QJsonDocument::fromJson(QByteArray::fromStdString(recorder.chromeJson()), &error);
  if (error.error != QJsonParseError::NoError) {
    trace.error = error.errorString();
    return trace;
  }
  const QJsonArray events = document.object().value("traceEvents").toArray();
  for (const QJsonValue& value : events) {  // thread names first: spans name their track
    const QJsonObject event = value.toObject();
    if (event.value("ph").toString() == "M" && event.value("name").toString() == "thread_name") {
      trace.tracks[event.value("tid").toInt()] =
          event.value("args").toObject().value("name").toString();
    }
  }
  for (const QJsonValue& value : events) {
    const QJsonObject event = value.toObject();
    const QString phase = event.value("ph").toString();
    if (phase == "X") {
      const QJsonObject args = event.value("args").toObject();
      trace.spans.push_back(
          {event.value("name").toString(), trace.tracks.value(event.value("tid").toInt()),
           event.value("ts").toDouble(), event.value("dur").toDouble(),
           args.contains("frame") ? static_cast<std::int64_t>(args.value("frame").toDouble())
                                  : -1});
    } else if (phase == "s" || phase == "t" || phase == "f") {
      ++trace.flows[phase];
    }
  }
  return trace;
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

  // Ticks at a known spacing: the rate over the window, the same from the lock-free meter a
  // reader polls while the writer ticks; stale after 2 s without a tick; reset forgets.
  void rateMetersCountTicksPerSecond() {
    profile::RateMeter meter(8);
    profile::PublishedRateMeter published(8);
    QCOMPARE(published.ratePerSecond(0.0), 0.0);
    for (int i = 0; i < 20; ++i) {
      const double t = 10.0 + 0.025 * i;  // 40 per second
      meter.tick(t);
      published.tick(t);
    }
    const double now = 10.0 + 0.025 * 19;
    QVERIFY(std::abs(meter.ratePerSecond(now) - 40.0) < 1e-9);
    QCOMPARE(published.ratePerSecond(now), meter.ratePerSecond(now));
    QCOMPARE(published.ratePerSecond(now + 2.5), 0.0);
    QCOMPARE(meter.ratePerSecond(now + 2.5), 0.0);
    published.reset();
    QCOMPARE(published.ratePerSecond(now), 0.0);
    published.tick(now + 1.0);
    QCOMPARE(published.ratePerSecond(now + 1.0), 0.0);  // one tick is no rate yet
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

    const ParsedTrace parsed = parseTrace(trace);
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    for (const ParsedTrace::Span& span : parsed.spans) {
      QVERIFY(span.durationUs >= 0);
      QVERIFY(span.frame >= 0);
    }
    for (const char* name : {"cf-acquire", "upload stream", "compute stream"}) {
      QVERIFY2(parsed.tracks.values().contains(name), name);
    }
    // Every frame read, uploaded and processed; one flow from the read to the last stage.
    QCOMPARE(parsed.durations("acquire").size(), std::size_t{60});
    QCOMPARE(parsed.durations("upload").size(), std::size_t{60});
    QCOMPARE(parsed.durations("tag").size(), std::size_t{60});
    QCOMPARE(parsed.flows["s"], 60);
    QCOMPARE(parsed.flows["f"], 60);
    QCOMPARE(trace.dropped(), std::size_t{0});
    // The trace's stage durations are the statistics' samples (to the microsecond rounding).
    std::vector<double> tag = parsed.durations("tag");
    std::sort(tag.begin(), tag.end());
    const double medianMs = (tag[29] + tag[30]) / 2 * 1e-3;
    QVERIFY2(std::abs(medianMs - stats.stages[1].medianMs) <= 0.002,
             qPrintable(QString("%1 vs %2").arg(medianMs).arg(stats.stages[1].medianMs)));
    QVERIFY(medianMs >= 0.29);  // 300 us of work, less 10 us of rounding
  }

  void volumesMipsAreTimedAndTraced() {
    constexpr int kSlices = 4;
    constexpr std::uint64_t kFrames = 80;
    const auto recorder = std::make_shared<profile::TraceRecorder>();
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = kFrames;
    config.framesPerVolume = kSlices;
    config.cineloopFrames = 16 * kSlices;  // a block is refilled 64 frames later
    auto engine =
        test::makeTaggedEngine(*backend_, config, nullptr, std::chrono::microseconds(100));
    engine->setTraceRecorder(recorder);
    engine->start();
    QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
    engine->stop();
    const pipeline::EngineStats stats = engine->stats();
    QCOMPARE(stats.volumes, kFrames / kSlices);
    QCOMPARE(stats.mip.name, std::string("mip"));
    QCOMPARE(stats.mip.count, static_cast<std::size_t>(kFrames / kSlices));
    QVERIFY(stats.mip.minMs > 0 && stats.mip.minMs <= stats.mip.medianMs &&
            stats.mip.medianMs <= stats.mip.maxMs);

    const ParsedTrace parsed = parseTrace(*recorder);
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    QVERIFY(parsed.tracks.values().contains("endpoint stream"));
    std::map<std::int64_t, double> tagEndUs;  // frame -> end of its stage span
    for (const ParsedTrace::Span& span : parsed.spans) {
      if (span.name == "tag") {
        tagEndUs[span.frame] = span.startUs + span.durationUs;
      }
    }
    int mips = 0;
    for (const ParsedTrace::Span& span : parsed.spans) {
      if (span.name != "mip") {
        continue;
      }
      ++mips;
      QCOMPARE(span.track, QString("endpoint stream"));
      QCOMPARE(span.frame % kSlices, std::int64_t{kSlices - 1});  // the sweep's last frame
      QVERIFY(tagEndUs.count(span.frame) == 1);
      // The MIPs start once the sweep's last image is complete (1 us of rounding).
      QVERIFY2(span.startUs >= tagEndUs[span.frame] - 1.0,
               qPrintable(QString("%1 < %2").arg(span.startUs).arg(tagEndUs[span.frame])));
    }
    QCOMPARE(mips, static_cast<int>(kFrames / kSlices));
    std::vector<double> mip = parsed.durations("mip");
    std::sort(mip.begin(), mip.end());
    const double medianMs = (mip[9] + mip[10]) / 2 * 1e-3;
    QVERIFY2(std::abs(medianMs - stats.mip.medianMs) <= 0.002,
             qPrintable(QString("%1 vs %2").arg(medianMs).arg(stats.mip.medianMs)));
  }

  void probeTimesAndTracesWhatItIsGiven() {
    constexpr std::size_t kWindow = 8;
    profile::StageProbe probe("display", "gui", kWindow);
    QCOMPARE(probe.name(), std::string("display"));
    QCOMPARE(probe.summary().count, std::size_t{0});
    test::SeededRandom random(71);
    std::vector<double> ms;
    std::int64_t t = 1'000'000'000;
    const auto record = [&](std::int64_t frame) {
      const std::int64_t duration = random.integer(10'000, 5'000'000);  // 0.01 .. 5 ms
      probe.record(t, t + duration, frame);
      ms.push_back(static_cast<double>(duration) * 1e-6);
      t += duration + random.integer(0, 1'000'000);
    };
    for (int i = 0; i < 13; ++i) {
      record(-1);
    }
    const profile::Summary want =
        direct(std::vector<double>(ms.end() - static_cast<std::ptrdiff_t>(kWindow), ms.end()));
    const profile::Summary got = probe.summary();
    QCOMPARE(got.count, kWindow);
    QCOMPARE(got.last, want.last);
    QCOMPARE(got.median, want.median);
    QCOMPARE(got.max, want.max);
    QVERIFY(std::abs(got.mean - want.mean) <= 1e-12 * want.mean);

    const auto recorder = std::make_shared<profile::TraceRecorder>();
    probe.attach(recorder);
    for (std::int64_t frame = 40; frame < 43; ++frame) {
      record(frame);
    }
    probe.attach(nullptr);
    record(43);  // detached: statistics only
    QCOMPARE(recorder->size(), std::size_t{3});
    const ParsedTrace parsed = parseTrace(*recorder);
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    QCOMPARE(parsed.spans.size(), std::size_t{3});
    for (std::size_t i = 0; i < 3; ++i) {
      QCOMPARE(parsed.spans[i].name, QString("display"));
      QCOMPARE(parsed.spans[i].track, QString("gui"));
      QCOMPARE(parsed.spans[i].frame, static_cast<std::int64_t>(40 + i));
      QVERIFY(std::abs(parsed.spans[i].durationUs - ms[13 + i] * 1e3) <= 1.0);
    }
    probe.clear();
    QCOMPARE(probe.summary().count, std::size_t{0});
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
    std::int64_t first = -1, last = -1;
    int stages = 0;
    for (const ParsedTrace::Span& span : parseTrace(*recorder).spans) {
      first = first < 0 ? span.frame : std::min(first, span.frame);
      last = std::max(last, span.frame);
      stages += span.name == "tag" ? 1 : 0;
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
