#pragma once
// Measured choice of implementation (tuner.hpp): what a stage offers, what a measurement gives,
// and the statistics both the tuner and the drift watch use.
//
// A stage with several implementations of one contract ("variants", each checked against the
// CPU twin by the tests) offers them as a TunableStage; the tuner times each on the stage's own
// buffers and problem size and picks the fastest.

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace cineflow::tune {

struct TunableStage {
  std::string stage;    // "beamform": the profiler's stage name
  std::string problem;  // the problem size, as a key: "248x958 px, 128 el, 3 tx, 2240 smp"
  std::vector<std::string> variants;  // every implementation this machine can run
  // Makes variant `index` the stage's (between frames: nothing of the stage's is in flight).
  std::function<void(std::size_t index)> select;
  // Runs the stage once with its selected variant on its own buffers and returns when it has
  // completed (a measurement's unit).
  std::function<void()> runOnce;
};

// One variant's measurement: the mean of the fastest half of its runs (robust against a run
// that an interrupt or another program slowed), that half's standard deviation, and how many
// runs there were.
struct VariantTiming {
  std::string name;
  double ms = 0;
  double sdMs = 0;
  int runs = 0;
};

// The mean and standard deviation of the fastest half of `samples` (at least one sample).
VariantTiming summariseRuns(const std::string& name, std::vector<double> samples);

// Watches a chosen variant's times frame by frame against its measurement: true once `frames`
// consecutive frames lie more than `sigmas` standard deviations away (the deviation is at least
// 5 % of the mean: a measured spread of nearly nothing must not make every frame an outlier).
// Then the stage is due for a new measurement, which the engine makes between frames when the
// operator is not acquiring live (or asks for it).
class DriftWatch {
 public:
  DriftWatch() = default;
  DriftWatch(double meanMs, double sdMs, double sigmas = 4.0, int frames = 16);
  bool observe(double ms);
  bool drifted() const { return drifted_; }
  double meanMs() const { return meanMs_; }

 private:
  double meanMs_ = 0, limitMs_ = 0;
  int frames_ = 0, outside_ = 0;
  bool drifted_ = false;
};

}  // namespace cineflow::tune
