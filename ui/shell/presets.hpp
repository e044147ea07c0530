#pragma once
// Named imaging and display presets: what an operator switches between for a phantom, a probe or
// an OCT system. A preset names only what it changes; everything else stays as it is.
//
// File: one JSON object per file, *.json in presetFolder() (the settings folder's "presets"):
//   {
//     "name": "Verasonics L7-4",          required, unique (a file's preset replaces a shipped
//                                         one of the same name)
//     "modality": "ultrasound",           a modality's name ("ultrasound" | "oct") | absent (any)
//     "display": {"gain_db": 0, "dynamic_range_db": 50, "colour_map": "grey",
//                 "tgc_db": "0 0 0 2 4 6 8 8"},  time-gain compensation, shallow to deep
//                                         colour_map: "grey" | "sepia" | "viridis"
//     "ultrasound": {"mode": "rf", "f_number": 1.5, "apodisation": "hann",
//                    "grid_mm": "-19:19:0.1,5:40:0.05", "iq_bandwidth_percent": 60},
//     "oct": {"window": "hann", "refractive_index": 1.38}
//   }
//   plus "doppler_ensemble", "doppler_ensemble_mode", "wall_filter", "doppler_average" in
//   "ultrasound", "flow_threshold_db" and "flow_priority" in "display".
// The neutral fields (name, modality, gain, range, colour map) are read and written here; each
// modality's section, and its keys of "display", by its ModalityPresets
// (modality/modality_presets.hpp). A file that is not such an object, or has a field of the wrong
// type, range or name, is refused with the file, the field and the reason (PresetError); the other
// presets still load.
// The operator writes presets from the GUI (Save as preset…, preset_files.hpp): the display in
// effect and the open source's whole modality section, as writePreset() writes them; a file
// written by hand is read the same way.

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "common/colour_maps.hpp"
#include "modality/preset_fields.hpp"
#include "view2d/depth_gain.hpp"

namespace cineflow::ui {

class PresetSection;

struct Preset {
  QString name;
  QString modality;  // a modality's name (ModalityUi::name()) or empty (any)
  std::optional<double> gainDb, dynamicRangeDb;
  std::optional<ColourMap> colourMap;
  std::optional<DepthGain> depthGain;  // "tgc_db": "0 0 2 4 6 8 8 8", shallow to deep
  // What it sets of each modality, by the modality's name (ModalityPresets::parse), in
  // modalityPresets()' order.
  std::vector<std::pair<QString, std::shared_ptr<const PresetSection>>> sections;
  QString origin;  // "shipped" or the file it came from

  bool shipped() const { return origin == QLatin1String("shipped"); }

  // Its section of the modality named `modality`, or null.
  const PresetSection* section(const QString& modality) const;
};

// Parses one preset; `origin` names it in errors. Throws PresetError.
Preset parsePreset(const QByteArray& json, const QString& origin);
// The inverse: `preset` as a preset file (indented JSON) that parsePreset() reads back to the same
// values; its origin is not written.
QByteArray writePreset(const Preset& preset);
// The presets Cineflow ships: "Phantom" (the simulator's), "Verasonics L7-4" (the rotating-disk
// recording's probe), two colour Doppler presets and "OCT (skin)".
std::vector<Preset> shippedPresets();

// The folder of the operator's preset files: "presets" beside the settings file.
QString presetFolder();

struct LoadedPresets {
  std::vector<Preset> presets;  // shipped first, then the folder's by file name
  QStringList refused;          // one line per refused file: "<file>: <reason>"
};
LoadedPresets loadPresets(const QString& folder);

// Whether `preset` applies to a source of `modality` (its ModalityUi::name(); empty: no source
// is open, and every preset is offered).
bool presetFits(const Preset& preset, const QString& modality);

}  // namespace cineflow::ui
