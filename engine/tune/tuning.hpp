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

namespace cineflow::compute {
class Stream;
}

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

// The end of one timed run of a tunable stage (its runOnce): waits for `stream`, and throws
// std::runtime_error("tuning <what>: <the stream's error>") when the stream reported a fault.
void finishTuningRun(compute::Stream& stream, const std::string& what);

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

// Watches a chosen variant's times frame by frame in the pipeline. Its first `frames` frames
// set a baseline (mean and standard deviation, the deviation at least 5 % of the mean: a spread
// of nearly nothing must not make every frame an outlier). The stage has drifted when
//   - that baseline lies more than `factor` times away from the variant's isolated measurement
//     (the pipeline's own overhead, other streams and a window's drawing on the same cores stay
//     well within it; a clock that halved or a device shared with another program does not), or
//   - later, `frames` consecutive frames lie more than `sigmas` deviations from the baseline:
//     the conditions changed while it ran.
// Then the stage is due for a new measurement, which the engine makes between frames when the
// operator is not acquiring live (or asks for it).
class DriftWatch {
 public:
  enum class Reason { None, FarFromMeasurement, ChangedWhileRunning };

  DriftWatch() = default;
  DriftWatch(double measuredMs, double sigmas = 4.0, int frames = 16, double factor = 2.0);
  bool observe(double ms);
  bool drifted() const { return reason_ != Reason::None; }
  Reason reason() const { return reason_; }
  double measuredMs() const { return measuredMs_; }
  double baselineMs() const { return baselineMs_; }  // 0 until the first `frames` frames

 private:
  double measuredMs_ = 0, sigmas_ = 4, factor_ = 2;
  int frames_ = 0;
  // The first frames, until the baseline is set: count, mean and sum of squared deviations
  // (Welford's running form).
  int learned_ = 0;
  double learningMean_ = 0, learningSquares_ = 0;
  double baselineMs_ = 0, limitMs_ = 0;
  int outside_ = 0;
  Reason reason_ = Reason::None;
};

}  // namespace cineflow::tune
