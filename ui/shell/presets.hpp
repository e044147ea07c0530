#pragma once
// Named imaging and display presets: what an operator switches between for a phantom, a probe or
// an OCT system. A preset names only what it changes; everything else stays as it is.
//
// File: one JSON object per file, *.json in presetFolder() (the settings folder's "presets"):
//   {
//     "name": "Verasonics L7-4",          required, unique (a file's preset replaces a shipped
//                                         one of the same name)
//     "modality": "ultrasound",           "ultrasound" | "oct" | absent (either)
//     "display": {"gain_db": 0, "dynamic_range_db": 50, "colour_map": "grey"},
//                                         colour_map: "grey" | "sepia" | "viridis"
//     "ultrasound": {"mode": "rf", "f_number": 1.5, "apodisation": "hann",
//                    "grid_mm": "-19:19:0.1,5:40:0.05", "iq_bandwidth_percent": 60},
//     "oct": {"window": "hann", "refractive_index": 1.38}
//   }
// A file that is not such an object, or has a field of the wrong type, range or name, is refused
// with the file, the field and the reason (PresetError); the other presets still load.

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <QString>
#include <QStringList>

#include "common/colour_maps.hpp"
#include "oct/oct_params.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::ui {

class PresetError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Preset {
  QString name;
  QString modality;  // "ultrasound", "oct" or empty (either)
  std::optional<double> gainDb, dynamicRangeDb;
  std::optional<ColourMap> colourMap;
  std::optional<process::ImagingMode> mode;
  std::optional<double> fNumber;
  std::optional<process::Apodisation> apodisation;
  std::optional<process::ImagingGrid> grid;  // metres
  std::optional<double> iqBandwidthPercent;
  // Colour and power Doppler: the ensemble, the wall filter ("regression:1", ...), the averaging
  // window ("3x3"), and how flow is shown (threshold over the black level, B-mode priority).
  std::optional<int> dopplerEnsemble;
  std::optional<process::EnsembleMode> dopplerEnsembleMode;
  std::optional<std::string> wallFilter;
  std::optional<std::string> dopplerAverage;
  std::optional<double> flowThresholdDb, flowPriority;
  std::optional<oct::SpectralWindow> octWindow;
  std::optional<double> refractiveIndex;
  QString origin;  // "shipped" or the file it came from
};

// Parses one preset; `origin` names it in errors. Throws PresetError.
Preset parsePreset(const QByteArray& json, const QString& origin);
// The presets Cineflow ships: "Phantom" (the simulator's), "Verasonics L7-4" (the rotating-disk
// recording's probe) and "OCT (skin)".
std::vector<Preset> shippedPresets();

// The folder of the operator's preset files: "presets" beside the settings file.
QString presetFolder();

struct LoadedPresets {
  std::vector<Preset> presets;  // shipped first, then the folder's by file name
  QStringList refused;          // one line per refused file: "<file>: <reason>"
};
LoadedPresets loadPresets(const QString& folder);

// Whether `preset` applies to a source of `modality` ("ultrasound", "oct").
bool presetFits(const Preset& preset, const QString& modality);

}  // namespace cineflow::ui
