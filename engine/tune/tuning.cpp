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

DriftWatch::DriftWatch(double measuredMs, double sigmas, int frames, double factor)
    : measuredMs_(measuredMs), sigmas_(sigmas), factor_(factor), frames_(frames) {
  learning_.reserve(static_cast<std::size_t>(std::max(frames, 0)));
}

bool DriftWatch::observe(double ms) {
  if (frames_ <= 0 || drifted()) {
    return drifted();
  }
  if (baselineMs_ <= 0) {
    learning_.push_back(ms);
    if (learning_.size() < static_cast<std::size_t>(frames_)) {
      return false;
    }
    double sum = 0;
    for (const double v : learning_) {
      sum += v;
    }
    const double mean = sum / static_cast<double>(learning_.size());
    double squares = 0;
    for (const double v : learning_) {
      squares += (v - mean) * (v - mean);
    }
    const double sd = std::sqrt(squares / static_cast<double>(learning_.size()));
    baselineMs_ = mean;
    limitMs_ = sigmas_ * std::max(sd, 0.05 * mean);
    if (measuredMs_ > 0 && (mean > factor_ * measuredMs_ || mean * factor_ < measuredMs_)) {
      reason_ = Reason::FarFromMeasurement;
    }
    return drifted();
  }
  outside_ = std::abs(ms - baselineMs_) > limitMs_ ? outside_ + 1 : 0;
  if (outside_ >= frames_) {
    reason_ = Reason::ChangedWhileRunning;
  }
  return drifted();
}

}  // namespace cineflow::tune
