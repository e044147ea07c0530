#include "shell/presets.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "common/app_settings.hpp"
#include "modality/modality_presets.hpp"

namespace cineflow::ui {
namespace {

// A colour map's name in a preset file.
constexpr std::pair<const char*, ColourMap> kColourMapNames[] = {
    {"grey", ColourMap::Grey}, {"sepia", ColourMap::Sepia}, {"viridis", ColourMap::Viridis}};

ColourMap parseColourMap(const std::string& text) {
  for (const auto& [name, map] : kColourMapNames) {
    if (text == name) {
      return map;
    }
  }
  throw std::invalid_argument("expected grey, sepia or viridis, not \"" + text + "\"");
}

QString colourMapKey(ColourMap map) {
  for (const auto& [name, known] : kColourMapNames) {
    if (known == map) {
      return QString::fromLatin1(name);
    }
  }
  return QStringLiteral("grey");
}

// The neutral keys of "display" (the modalities add theirs).
QJsonObject writeDisplay(const Preset& preset) {
  QJsonObject display;
  if (preset.gainDb) {
    display[QStringLiteral("gain_db")] = *preset.gainDb;
  }
  if (preset.dynamicRangeDb) {
    display[QStringLiteral("dynamic_range_db")] = *preset.dynamicRangeDb;
  }
  if (preset.depthGain) {
    display[QStringLiteral("tgc_db")] = preset.depthGain->toText();
  }
  if (preset.colourMap) {
    display[QStringLiteral("colour_map")] = colourMapKey(*preset.colourMap);
  }
  return display;
}

}  // namespace

Preset parsePreset(const QByteArray& json, const QString& origin) {
  QJsonParseError error;
  const QJsonDocument document = QJsonDocument::fromJson(json, &error);
  if (error.error != QJsonParseError::NoError) {
    throw PresetError(QStringLiteral("%1: not JSON: %2 at byte %3")
                          .arg(origin, error.errorString())
                          .arg(error.offset)
                          .toStdString());
  }
  if (!document.isObject()) {
    throw PresetError(QStringLiteral("%1: expected one JSON object").arg(origin).toStdString());
  }
  PresetFields root(document.object(), QString(), origin);
  Preset preset;
  preset.origin = origin;
  preset.name = root.text(QStringLiteral("name")).value_or(QString()).trimmed();
  if (preset.name.isEmpty()) {
    root.fail(QStringLiteral("name"), QStringLiteral("required, not empty"));
  }
  preset.modality = root.text(QStringLiteral("modality")).value_or(QString());
  QStringList names;
  for (const ModalityPresets* modality : modalityPresets()) {
    names << modality->name();
  }
  if (!preset.modality.isEmpty() && !names.contains(preset.modality)) {
    root.fail(QStringLiteral("modality"), QStringLiteral("expected %1").arg(names.join(" or ")));
  }
  std::optional<PresetFields> display = root.object(QStringLiteral("display"));
  if (display) {
    preset.gainDb = display->number(QStringLiteral("gain_db"), -200, 200);
    preset.dynamicRangeDb = display->number(QStringLiteral("dynamic_range_db"), 1, 200);
    preset.colourMap = display->parsed(QStringLiteral("colour_map"), parseColourMap);
    preset.depthGain = display->parsed(QStringLiteral("tgc_db"), [](const std::string& text) {
      const std::optional<DepthGain> gain = DepthGain::fromText(QString::fromStdString(text));
      if (!gain) {
        throw std::invalid_argument("expected " + std::to_string(kDepthGainBands) +
                                    " gains in dB, shallow to deep, each within +-20, separated "
                                    "by spaces");
      }
      return *gain;
    });
  }
  for (const ModalityPresets* modality : modalityPresets()) {
    std::optional<PresetFields> section = root.object(modality->name());
    if (auto parsed =
            modality->parse(section ? &*section : nullptr, display ? &*display : nullptr)) {
      preset.sections.emplace_back(modality->name(), std::move(parsed));
    }
    if (section) {
      section->refuseOthers();
    }
  }
  if (display) {
    display->refuseOthers();
  }
  root.refuseOthers();
  return preset;
}

QByteArray writePreset(const Preset& preset) {
  QJsonObject root;
  root[QStringLiteral("name")] = preset.name;
  if (!preset.modality.isEmpty()) {
    root[QStringLiteral("modality")] = preset.modality;
  }
  QJsonObject display = writeDisplay(preset);
  for (const ModalityPresets* modality : modalityPresets()) {
    if (const PresetSection* section = preset.section(modality->name())) {
      const QJsonObject written = modality->write(*section, display);
      if (!written.isEmpty()) {
        root[modality->name()] = written;
      }
    }
  }
  if (!display.isEmpty()) {
    root[QStringLiteral("display")] = display;
  }
  return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

const PresetSection* Preset::section(const QString& modality) const {
  for (const auto& [name, parsed] : sections) {
    if (name == modality) {
      return parsed.get();
    }
  }
  return nullptr;
}

std::vector<Preset> shippedPresets() {
  const char* shipped[] = {
      R"json({"name": "Phantom", "modality": "ultrasound",
          "display": {"dynamic_range_db": 60, "colour_map": "grey"},
          "ultrasound": {"mode": "rf", "f_number": 1.5, "apodisation": "hann"}})json",
      R"json({"name": "Verasonics L7-4", "modality": "ultrasound",
          "display": {"dynamic_range_db": 50, "colour_map": "grey"},
          "ultrasound": {"f_number": 1.0, "apodisation": "hann"}})json",
      R"json({"name": "Colour Doppler (flow phantom)", "modality": "ultrasound",
          "display": {"dynamic_range_db": 60, "colour_map": "grey", "flow_threshold_db": 10,
                      "flow_priority": 1.0},
          "ultrasound": {"mode": "doppler", "doppler_ensemble": 16,
                         "doppler_ensemble_mode": "sliding", "wall_filter": "regression:1",
                         "doppler_average": "3x3"}})json",
      R"json({"name": "Verasonics disk Doppler", "modality": "ultrasound",
          "display": {"dynamic_range_db": 40, "colour_map": "grey", "flow_threshold_db": 5,
                      "flow_priority": 1.0},
          "ultrasound": {"mode": "doppler", "f_number": 1.125, "apodisation": "rect",
                         "grid_mm": "-12.5:12.5:0.1,10:35:0.1",
                         "iq_bandwidth_percent": 15, "doppler_ensemble": 32,
                         "doppler_ensemble_mode": "block", "wall_filter": "none",
                         "doppler_average": "3x3"}})json",
      R"json({"name": "OCT (skin)", "modality": "oct",
          "display": {"dynamic_range_db": 40, "colour_map": "sepia"},
          "oct": {"window": "hann", "refractive_index": 1.38}})json",
  };
  std::vector<Preset> presets;
  for (const char* json : shipped) {
    presets.push_back(parsePreset(QByteArray(json), QStringLiteral("shipped")));
  }
  return presets;
}

QString presetFolder() {
  return QFileInfo(openAppSettings()->fileName()).dir().filePath(QStringLiteral("presets"));
}

LoadedPresets loadPresets(const QString& folder) {
  LoadedPresets loaded;
  loaded.presets = shippedPresets();
  const QDir dir(folder);
  for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
      loaded.refused << QStringLiteral("%1: cannot read: %2").arg(path, file.errorString());
      continue;
    }
    try {
      Preset preset = parsePreset(file.read(64 * 1024), path);
      std::erase_if(loaded.presets, [&](const Preset& p) { return p.name == preset.name; });
      loaded.presets.push_back(std::move(preset));
    } catch (const PresetError& e) {
      loaded.refused << QString::fromStdString(e.what());
    }
  }
  return loaded;
}

bool presetFits(const Preset& preset, const QString& modality) {
  return preset.modality.isEmpty() || modality.isEmpty() || preset.modality == modality;
}

}  // namespace cineflow::ui
