#include "tune/tuner.hpp"

#include "base/enum_names.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>

namespace cineflow::tune {
namespace {

class SteadyClock final : public TuneClock {
 public:
  double nowMs() override {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

std::size_t indexOf(const TunableStage& stage, const std::string& name) {
  const auto it = std::find(stage.variants.begin(), stage.variants.end(), name);
  return static_cast<std::size_t>(it - stage.variants.begin());
}

// A remembered measurement stands only for the variants it timed: a build that offers another
// set (a variant added or gone) measures afresh.
bool measuredTheSameVariants(const TuningEntry& entry, const TunableStage& stage) {
  if (entry.variants.size() != stage.variants.size()) {
    return false;
  }
  for (std::size_t i = 0; i < stage.variants.size(); ++i) {
    if (entry.variants[i].name != stage.variants[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

TuneClock& steadyClock() {
  static SteadyClock clock;
  return clock;
}

const char* toString(ChoiceSource source) noexcept {
  static constexpr base::Named<ChoiceSource> kNames[] = {{ChoiceSource::Default, "default"},
                                                         {ChoiceSource::Pinned, "pinned"},
                                                         {ChoiceSource::History, "measured before"},
                                                         {ChoiceSource::Measured, "measured now"}};
  return base::nameIn(kNames, source, "default");
}

Tuner::Tuner(std::string device, std::string driver, std::string version, TuningHistory history,
             TuneClock& clock, TuneOptions options)
    : device_(std::move(device)),
      driver_(std::move(driver)),
      version_(std::move(version)),
      clock_(clock),
      options_(options),
      history_(std::move(history)) {}

void Tuner::setPins(VariantPins pins) {
  std::lock_guard lock(mutex_);
  pins_ = std::move(pins);
}

TuningKey Tuner::keyFor(const TunableStage& stage) const {
  return {device_, driver_, version_, stage.stage, stage.problem};
}

StageChoice Tuner::choose(const TunableStage& stage, bool mayMeasure,
                          const TuneProgress& progress) {
  if (stage.variants.empty()) {
    throw std::invalid_argument("tuning " + stage.stage + ": the stage offers no variant");
  }
  StageChoice choice;
  choice.stage = stage.stage;
  std::string pinned;
  std::optional<TuningEntry> remembered;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = pins_.find(stage.stage); it != pins_.end()) {
      pinned = it->second;
    }
    if (const TuningEntry* entry = history_.find(keyFor(stage))) {
      remembered = *entry;
    }
  }
  if (!pinned.empty()) {
    if (indexOf(stage, pinned) == stage.variants.size()) {
      std::string names;
      for (const std::string& v : stage.variants) {
        names += (names.empty() ? "" : ", ") + v;
      }
      throw std::invalid_argument("the variant '" + pinned + "' pinned for " + stage.stage +
                                  " is not one of this machine's: " + names);
    }
    choice.variant = pinned;
    choice.source = ChoiceSource::Pinned;
  } else if (remembered && measuredTheSameVariants(*remembered, stage)) {
    choice.variant = remembered->chosen;
    choice.source = ChoiceSource::History;
    choice.entry = *remembered;
  } else if (mayMeasure && options_.measures) {
    choice.entry = measure(stage, progress);
    choice.variant = choice.entry.chosen;
    choice.source = ChoiceSource::Measured;
    if (remembered && remembered->chosen != choice.variant) {
      choice.replaced = remembered->chosen;
    }
    return choice;  // measure() selected it
  } else {
    choice.variant = stage.variants.front();
  }
  stage.select(indexOf(stage, choice.variant));
  return choice;
}

TuningEntry Tuner::measure(const TunableStage& stage, const TuneProgress& progress) {
  TuningEntry entry;
  entry.key = keyFor(stage);
  const int perVariant = options_.warmupRuns + options_.runs;
  const double total = static_cast<double>(stage.variants.size()) * perVariant;
  int done = 0;
  for (std::size_t v = 0; v < stage.variants.size(); ++v) {
    stage.select(v);
    std::vector<double> samples;
    for (int run = 0; run < perVariant; ++run) {
      if (progress) {
        progress(done / total, stage.stage + ": " + stage.variants[v]);
      }
      const double start = clock_.nowMs();
      stage.runOnce();
      const double ms = clock_.nowMs() - start;
      if (run >= options_.warmupRuns) {
        samples.push_back(ms);
      }
      ++done;
    }
    entry.variants.push_back(summariseRuns(stage.variants[v], std::move(samples)));
  }
  const auto fastest =
      std::min_element(entry.variants.begin(), entry.variants.end(),
                       [](const VariantTiming& a, const VariantTiming& b) { return a.ms < b.ms; });
  entry.chosen = fastest->name;
  stage.select(indexOf(stage, entry.chosen));
  if (progress) {
    progress(1.0, stage.stage + ": " + entry.chosen);
  }
  std::lock_guard lock(mutex_);
  history_.put(entry);
  unsaved_ = true;
  return entry;
}

TuningHistory Tuner::history() const {
  std::lock_guard lock(mutex_);
  return history_;
}

bool Tuner::unsaved() const {
  std::lock_guard lock(mutex_);
  return unsaved_;
}

void Tuner::markSaved() {
  std::lock_guard lock(mutex_);
  unsaved_ = false;
}

}  // namespace cineflow::tune
