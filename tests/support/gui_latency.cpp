#include "support/gui_latency.hpp"

#include <algorithm>

#include <QElapsedTimer>
#include <QTest>
#include <QTimer>

namespace cineflow::test {

qint64 worstTimerLatencyMs(int attempts) {
  qint64 worst = 0;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    QElapsedTimer clock;
    qint64 firedAfterMs = -1;
    clock.start();
    QTimer::singleShot(10, [&] { firedAfterMs = clock.elapsed(); });
    while (firedAfterMs < 0 && clock.elapsed() < 1000) {
      QTest::qWait(1);
    }
    if (firedAfterMs < 0) {
      return -1;
    }
    worst = std::max(worst, firedAfterMs);
  }
  return worst;
}

}  // namespace cineflow::test
