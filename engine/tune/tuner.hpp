#pragma once
// Tuner: picks each tunable stage's implementation (tuning.hpp) on this machine. A pinned
// variant wins; else the history's choice for this device, driver, version, stage and problem
// size (tuning_history.hpp); else, when measuring is allowed, every variant is timed (warm-up
// runs, then timed runs; the mean of the fastest half) and the fastest chosen and remembered;
// else the stage keeps its first variant. Thread-safe (one engine thread tunes at a time; the
// application saves the history).

#include <functional>
#include <mutex>
#include <string>

#include "tune/tuning.hpp"
#include "tune/tuning_history.hpp"
#include "tune/variant_pins.hpp"

namespace cineflow::tune {

// Milliseconds from an arbitrary origin. The tests drive a fake one.
class TuneClock {
 public:
  virtual ~TuneClock() = default;
  virtual double nowMs() = 0;
};
TuneClock& steadyClock();  // the host's steady clock

struct TuneOptions {
  int warmupRuns = 2;
  int runs = 8;
  // false: choose() never measures (pins, else the history, else the default): a run with
  // `--no-tune` and pinned variants.
  bool measures = true;
};

enum class ChoiceSource { Default, Pinned, History, Measured };
const char* toString(ChoiceSource source) noexcept;  // "default", "pinned", ...

struct StageChoice {
  std::string stage, variant;
  ChoiceSource source = ChoiceSource::Default;
  TuningEntry entry;  // the measurement behind it (empty for Default and Pinned)
  // Measured: the variant the history had chosen before, when this measurement picked another
  // (images may then differ from earlier runs' in their last bits); empty otherwise.
  std::string replaced;
};

// (fraction done in [0, 1], what is being timed)
using TuneProgress = std::function<void(double, const std::string&)>;

class Tuner {
 public:
  // `device` and `driver` as the backend names them, `version` Cineflow's.
  Tuner(std::string device, std::string driver, std::string version, TuningHistory history,
        TuneClock& clock = steadyClock(), TuneOptions options = {});

  void setPins(VariantPins pins);
  // Picks `stage`'s variant as above and selects it. Throws std::invalid_argument when a pin
  // names a variant the stage does not have (the message lists those it has).
  StageChoice choose(const TunableStage& stage, bool mayMeasure, const TuneProgress& progress = {});
  // Times every variant, remembers the measurement, selects and returns the fastest.
  TuningEntry measure(const TunableStage& stage, const TuneProgress& progress = {});

  TuningKey keyFor(const TunableStage& stage) const;
  TuningHistory history() const;
  bool unsaved() const;  // measurements since markSaved()
  bool measures() const { return options_.measures; }
  void markSaved();

 private:
  std::string device_, driver_, version_;
  TuneClock& clock_;
  TuneOptions options_;
  mutable std::mutex mutex_;
  TuningHistory history_;  // mutex_
  VariantPins pins_;       // mutex_
  bool unsaved_ = false;   // mutex_
};

}  // namespace cineflow::tune
