#include "profile/rolling_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cineflow::profile {

RollingStats::RollingStats(std::size_t window) : ring_(std::max<std::size_t>(1, window)) {}

void RollingStats::add(double value) {
  ring_[next_] = value;
  next_ = (next_ + 1) % ring_.size();
  count_ = std::min(count_ + 1, ring_.size());
  last_ = value;
}

void RollingStats::clear() {
  next_ = 0;
  count_ = 0;
  last_ = 0;
}

Summary RollingStats::summary() const {
  Summary s;
  s.count = count_;
  if (count_ == 0) {
    return s;
  }
  std::vector<double> sorted(ring_.begin(), ring_.begin() + static_cast<std::ptrdiff_t>(count_));
  std::sort(sorted.begin(), sorted.end());
  auto quantile = [&](double q) {
    const std::size_t index =
        static_cast<std::size_t>(std::ceil(q * static_cast<double>(count_))) - 1;
    return sorted[std::min(index, count_ - 1)];
  };
  s.last = last_;
  s.min = sorted.front();
  s.max = sorted.back();
  s.median =
      count_ % 2 == 1 ? sorted[count_ / 2] : 0.5 * (sorted[count_ / 2 - 1] + sorted[count_ / 2]);
  s.p99 = quantile(0.99);
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(count_);
  double squares = 0;
  for (const double v : sorted) {
    squares += (v - s.mean) * (v - s.mean);
  }
  s.stddev = std::sqrt(squares / static_cast<double>(count_));
  return s;
}

RateMeter::RateMeter(std::size_t window) : times_(std::max<std::size_t>(2, window)) {}

void RateMeter::tick(double seconds) {
  times_[next_] = seconds;
  next_ = (next_ + 1) % times_.size();
  count_ = std::min(count_ + 1, times_.size());
}

double RateMeter::ratePerSecond(double nowSeconds) const {
  if (count_ < 2) {
    return 0;
  }
  const std::size_t newest = (next_ + times_.size() - 1) % times_.size();
  const std::size_t oldest = (next_ + times_.size() - count_) % times_.size();
  const double span = times_[newest] - times_[oldest];
  if (span <= 0 || nowSeconds - times_[newest] > 2.0) {
    return 0;
  }
  return static_cast<double>(count_ - 1) / span;
}

void PublishedRateMeter::tick(double seconds) {
  meter_.tick(seconds);
  rate_.store(meter_.ratePerSecond(seconds), std::memory_order_relaxed);
  newest_.store(seconds, std::memory_order_relaxed);
}

double PublishedRateMeter::ratePerSecond(double nowSeconds) const {
  return nowSeconds - newest_.load(std::memory_order_relaxed) > 2.0
             ? 0.0
             : rate_.load(std::memory_order_relaxed);
}

void PublishedRateMeter::reset() {
  meter_ = RateMeter(window_);
  rate_.store(0, std::memory_order_relaxed);
  newest_.store(0, std::memory_order_relaxed);
}

}  // namespace cineflow::profile
