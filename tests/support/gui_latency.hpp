#pragma once
// Event-loop latency for the GUI tests: how late 10 ms single-shot timers fire while the engine
// runs. The GUI thread never waits for the engine (docs/development.md, The pipeline), so every
// timer fires; how late depends on the machine's load (Xvfb's software OpenGL shares its cores), so
// tests assert that the timers fire, and report the delays rather than bound them.

#include <QtGlobal>

namespace cineflow::test {

struct TimerLatency {
  int fired = 0;       // timers that fired before the hang limit
  qint64 worstMs = 0;  // the latest of them, from arming to firing
};

// Arms `attempts` timers one after another; stops at the first that has not fired after
// `hangLimitMs` (a GUI thread that waits on something).
TimerLatency measureTimerLatency(int attempts, qint64 hangLimitMs = 30'000);

// The worst of `attempts` tries, -1 when a timer did not fire within a second.
qint64 worstTimerLatencyMs(int attempts);

}  // namespace cineflow::test
