#include "support/gui_latency.hpp"

#include <algorithm>

#include <QElapsedTimer>
#include <QTest>
#include <QTimer>

namespace cineflow::test {

TimerLatency measureTimerLatency(int attempts, qint64 hangLimitMs) {
  TimerLatency latency;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    QElapsedTimer clock;
    qint64 firedAfterMs = -1;
    clock.start();
    QTimer::singleShot(10, [&] { firedAfterMs = clock.elapsed(); });
    while (firedAfterMs < 0 && clock.elapsed() < hangLimitMs) {
      QTest::qWait(1);
    }
    if (firedAfterMs < 0) {
      break;
    }
    ++latency.fired;
    latency.worstMs = std::max(latency.worstMs, firedAfterMs);
  }
  return latency;
}

qint64 worstTimerLatencyMs(int attempts) {
  const TimerLatency latency = measureTimerLatency(attempts, 1000);
  return latency.fired == attempts ? latency.worstMs : -1;
}

}  // namespace cineflow::test
