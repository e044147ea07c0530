#pragma once
// RollingStats: the last N samples of one quantity (a stage's milliseconds) and their order
// statistics. Storage is sized once; add() never allocates. Not thread-safe: guard it.

#include <atomic>
#include <cstddef>
#include <vector>

namespace cineflow::profile {

struct Summary {
  std::size_t count = 0;  // samples in the window
  double last = 0, min = 0, median = 0, p99 = 0, max = 0, mean = 0;
  double stddev = 0;  // population standard deviation over the window
};

class RollingStats {
 public:
  explicit RollingStats(std::size_t window = 120);
  void add(double value);
  void clear();
  // Allocates a sorted copy: call it off the frame loop (statistics polling). The median of an
  // even count is the mean of the middle two; p99 is the smallest sample with at least 99 % of
  // the window at or below it.
  Summary summary() const;

 private:
  std::vector<double> ring_;
  std::size_t next_ = 0;
  std::size_t count_ = 0;
  double last_ = 0;
};

// Events per second over a sliding window of the most recent timestamps.
class RateMeter {
 public:
  explicit RateMeter(std::size_t window = 32);
  void tick(double seconds);
  double ratePerSecond(double nowSeconds) const;  // 0 when stale (no tick for 2 s)

 private:
  std::vector<double> times_;
  std::size_t next_ = 0;
  std::size_t count_ = 0;
};

// A RateMeter written by one thread and read by any without a lock (a frame loop's rate, read by
// statistics polling): after each tick the writer publishes the rate and the tick's time. A
// reader sees the rate of some recent tick, never a torn window.
class PublishedRateMeter {
 public:
  explicit PublishedRateMeter(std::size_t window = 32) : meter_(window), window_(window) {}
  void tick(double seconds);                      // the writer's thread only
  double ratePerSecond(double nowSeconds) const;  // any thread; 0 when stale (no tick for 2 s)
  void reset();                                   // while nothing ticks

 private:
  RateMeter meter_;
  std::size_t window_;
  std::atomic<double> rate_{0}, newest_{0};
};

}  // namespace cineflow::profile
