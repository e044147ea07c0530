#pragma once
// The tuner an application runs with (tuner.hpp): this backend's identity and Cineflow's version
// as the history's key, the history in the cache folder, the operator's pinned variants; and how
// a choice reads in reports.

#include <memory>
#include <string>

#include "compute/backend.hpp"
#include "tune/tuner.hpp"

namespace cineflow::tune {

// Loads the history from TuningHistory::defaultPath(); `message` says when the file could not
// be used (it is then replaced at the next save).
std::shared_ptr<Tuner> makeTuner(const compute::Backend& backend, VariantPins pins,
                                 std::string& message);
// `--no-tune` with pinned variants: the pins, every other stage its default; neither measures
// nor reads or writes the history. Null when `pins` is empty (no tuner at all).
std::shared_ptr<Tuner> makePinsOnlyTuner(const compute::Backend& backend, VariantPins pins);
// Saves the history when measurements were made since the last save. Returns "" or why not
// (never throws: a read-only cache folder costs only the next run's measurement).
std::string saveTuning(Tuner& tuner);
// "beamform: avx2 (measured now; avx512 1.08x, portable 1.62x its time)".
std::string describeChoice(const StageChoice& choice);

}  // namespace cineflow::tune
