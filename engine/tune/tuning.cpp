#include "tune/tuning.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "compute/backend.hpp"

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

void finishTuningRun(compute::Stream& stream, const std::string& what) {
  stream.synchronize();
  if (const std::string error = stream.takeError(); !error.empty()) {
    throw std::runtime_error("tuning " + what + ": " + error);
  }
}

DriftWatch::DriftWatch(double measuredMs, double sigmas, int frames, double factor)
    : measuredMs_(measuredMs), sigmas_(sigmas), factor_(factor), frames_(frames) {}

bool DriftWatch::observe(double ms) {
  if (frames_ <= 0 || drifted()) {
    return drifted();
  }
  if (baselineMs_ <= 0) {
    ++learned_;
    const double delta = ms - learningMean_;
    learningMean_ += delta / learned_;
    learningSquares_ += delta * (ms - learningMean_);
    if (learned_ < frames_) {
      return false;
    }
    const double mean = learningMean_;
    const double sd = std::sqrt(learningSquares_ / learned_);
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
