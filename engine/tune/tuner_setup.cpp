#include "tune/tuner_setup.hpp"

#include <cstdio>

namespace cineflow::tune {

std::shared_ptr<Tuner> makeTuner(const compute::Backend& backend, VariantPins pins,
                                 std::string& message) {
  auto tuner =
      std::make_shared<Tuner>(backend.deviceName(), backend.hardwareIdentity(), CINEFLOW_VERSION,
                              TuningHistory::load(TuningHistory::defaultPath(), message));
  tuner->setPins(std::move(pins));
  return tuner;
}

std::shared_ptr<Tuner> makePinsOnlyTuner(const compute::Backend& backend, VariantPins pins) {
  if (pins.empty()) {
    return nullptr;
  }
  TuneOptions options;
  options.measures = false;
  auto tuner = std::make_shared<Tuner>(backend.deviceName(), backend.hardwareIdentity(),
                                       CINEFLOW_VERSION, TuningHistory{}, steadyClock(), options);
  tuner->setPins(std::move(pins));
  return tuner;
}

std::string saveTuning(Tuner& tuner) {
  if (!tuner.unsaved()) {
    return {};
  }
  try {
    tuner.history().save(TuningHistory::defaultPath());
    tuner.markSaved();
  } catch (const std::exception& e) {
    return std::string("the tuning measurements were not saved: ") + e.what();
  }
  return {};
}

std::string describeChoice(const StageChoice& choice) {
  std::string text = choice.stage + ": " + choice.variant + " (" + toString(choice.source);
  const VariantTiming* chosen = choice.entry.timing(choice.variant);
  if (chosen != nullptr && chosen->ms > 0) {
    char number[64];
    std::snprintf(number, sizeof number, ", %.3g ms", chosen->ms);
    text += number;
    for (const VariantTiming& other : choice.entry.variants) {
      if (other.name != choice.variant) {
        std::snprintf(number, sizeof number, "; %s %.2fx", other.name.c_str(),
                      other.ms / chosen->ms);
        text += number;
      }
    }
  }
  return text + ")";
}

}  // namespace cineflow::tune
