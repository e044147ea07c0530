#include "tune/tuning.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cineflow::tune {

VariantTiming summariseRuns(const std::string& name, std::vector<double> samples) {
  if (samples.empty()) {
    throw std::invalid_argument("tuning " + name + ": no runs to summarise");
  }
  std::sort(samples.begin(), samples.end());
  const std::size_t half = std::max<std::size_t>(1, (samples.size() + 1) / 2);
  double sum = 0;
  for (std::size_t i = 0; i < half; ++i) {
    sum += samples[i];
  }
  const double mean = sum / static_cast<double>(half);
  double squares = 0;
  for (std::size_t i = 0; i < half; ++i) {
    squares += (samples[i] - mean) * (samples[i] - mean);
  }
  VariantTiming timing;
  timing.name = name;
  timing.ms = mean;
  timing.sdMs = half > 1 ? std::sqrt(squares / static_cast<double>(half - 1)) : 0.0;
  timing.runs = static_cast<int>(samples.size());
  return timing;
}

DriftWatch::DriftWatch(double meanMs, double sdMs, double sigmas, int frames)
    : meanMs_(meanMs), limitMs_(sigmas * std::max(sdMs, 0.05 * meanMs)), frames_(frames) {}

bool DriftWatch::observe(double ms) {
  if (frames_ <= 0 || drifted_) {
    return drifted_;
  }
  outside_ = std::abs(ms - meanMs_) > limitMs_ ? outside_ + 1 : 0;
  drifted_ = outside_ >= frames_;
  return drifted_;
}

}  // namespace cineflow::tune
