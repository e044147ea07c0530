#pragma once
// Event-loop latency for the GUI tests: how late a 10 ms single-shot timer fires, the worst of
// `attempts` tries (DESIGN.md: the engine never blocks the GUI thread). -1 when a timer did not
// fire within a second.

#include <QtGlobal>

namespace cineflow::test {

qint64 worstTimerLatencyMs(int attempts);

}  // namespace cineflow::test
