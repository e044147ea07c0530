#include "shell/presets.hpp"

#include <cmath>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "common/app_settings.hpp"

namespace cineflow::ui {
namespace {

// Reads one JSON object's fields, each checked, and refuses names it does not know.
class Fields {
 public:
  Fields(const QJsonObject& object, QString where, QString origin)
      : object_(object), where_(std::move(where)), origin_(std::move(origin)) {}

  [[noreturn]] void fail(const QString& field, const QString& why) const {
    throw PresetError(
        QStringLiteral("%1: %2%3: %4").arg(origin_, where_, field, why).toStdString());
  }
  std::optional<double> number(const QString& field, double lo, double hi) {
    used_ << field;
    if (!object_.contains(field)) {
      return std::nullopt;
    }
    const QJsonValue v = object_.value(field);
    if (!v.isDouble() || !(v.toDouble() >= lo && v.toDouble() <= hi)) {
      fail(field, QStringLiteral("expected a number from %1 to %2").arg(lo).arg(hi));
    }
    return v.toDouble();
  }
  std::optional<QString> text(const QString& field) {
    used_ << field;
    if (!object_.contains(field)) {
      return std::nullopt;
    }
    if (!object_.value(field).isString()) {
      fail(field, QStringLiteral("expected text"));
    }
    return object_.value(field).toString();
  }
  // A field whose text `parse` turns into a value or throws std::invalid_argument.
  template <class Parse>
  auto parsed(const QString& field, Parse parse) -> std::optional<decltype(parse(std::string()))> {
    const std::optional<QString> t = text(field);
    if (!t) {
      return std::nullopt;
    }
    try {
      return parse(t->toStdString());
    } catch (const std::invalid_argument& e) {
      fail(field, QString::fromStdString(e.what()));
    }
  }
  std::optional<Fields> object(const QString& field) {
    used_ << field;
    if (!object_.contains(field)) {
      return std::nullopt;
    }
    if (!object_.value(field).isObject()) {
      fail(field, QStringLiteral("expected an object"));
    }
    return Fields(object_.value(field).toObject(), where_ + field + QLatin1Char('.'), origin_);
  }
  void refuseOthers() const {
    for (const QString& key : object_.keys()) {
      if (!used_.contains(key)) {
        fail(key, QStringLiteral("not a preset field (misspelt?)"));
      }
    }
  }

 private:
  QJsonObject object_;
  QString where_, origin_;
  QStringList used_;
};

ColourMap parseColourMap(const std::string& text) {
  const std::pair<const char*, ColourMap> names[] = {
      {"grey", ColourMap::Grey}, {"sepia", ColourMap::Sepia}, {"viridis", ColourMap::Viridis}};
  for (const auto& [name, map] : names) {
    if (text == name) {
      return map;
    }
  }
  throw std::invalid_argument("expected grey, sepia or viridis, not \"" + text + "\"");
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
  Fields root(document.object(), QString(), origin);
  Preset preset;
  preset.origin = origin;
  preset.name = root.text(QStringLiteral("name")).value_or(QString()).trimmed();
  if (preset.name.isEmpty()) {
    root.fail(QStringLiteral("name"), QStringLiteral("required, not empty"));
  }
  preset.modality = root.text(QStringLiteral("modality")).value_or(QString());
  if (!preset.modality.isEmpty() && preset.modality != QStringLiteral("ultrasound") &&
      preset.modality != QStringLiteral("oct")) {
    root.fail(QStringLiteral("modality"), QStringLiteral("expected ultrasound or oct"));
  }
  if (auto display = root.object(QStringLiteral("display"))) {
    preset.gainDb = display->number(QStringLiteral("gain_db"), -200, 200);
    preset.dynamicRangeDb = display->number(QStringLiteral("dynamic_range_db"), 1, 200);
    preset.colourMap = display->parsed(QStringLiteral("colour_map"), parseColourMap);
    preset.flowThresholdDb = display->number(QStringLiteral("flow_threshold_db"), 0, 60);
    preset.flowPriority = display->number(QStringLiteral("flow_priority"), 0, 1);
    display->refuseOthers();
  }
  if (auto us = root.object(QStringLiteral("ultrasound"))) {
    preset.mode = us->parsed(QStringLiteral("mode"), process::parseImagingMode);
    preset.fNumber = us->number(QStringLiteral("f_number"), 0.1, 20);
    preset.apodisation = us->parsed(QStringLiteral("apodisation"), process::parseApodisation);
    preset.grid = us->parsed(QStringLiteral("grid_mm"), process::ImagingGrid::parseMillimetres);
    preset.iqBandwidthPercent = us->number(QStringLiteral("iq_bandwidth_percent"), 1, 200);
    if (const auto n = us->number(QStringLiteral("doppler_ensemble"), process::kMinEnsemble,
                                  process::kMaxEnsemble)) {
      if (*n != std::floor(*n)) {
        us->fail(QStringLiteral("doppler_ensemble"), QStringLiteral("expected a whole number"));
      }
      preset.dopplerEnsemble = static_cast<int>(*n);
    }
    preset.dopplerEnsembleMode =
        us->parsed(QStringLiteral("doppler_ensemble_mode"), process::parseEnsembleMode);
    preset.wallFilter = us->parsed(QStringLiteral("wall_filter"), [](const std::string& spec) {
      process::DopplerParams().applyWallFilterSpec(spec);  // throws for a bad one
      return spec;
    });
    preset.dopplerAverage = us->parsed(QStringLiteral("doppler_average"), [](const std::string& s) {
      process::DopplerParams().applyAveragingSpec(s);
      return s;
    });
    us->refuseOthers();
  }
  if (auto o = root.object(QStringLiteral("oct"))) {
    preset.octWindow = o->parsed(QStringLiteral("window"), oct::parseSpectralWindow);
    preset.refractiveIndex = o->number(QStringLiteral("refractive_index"), 1.0, 4.0);
    o->refuseOthers();
  }
  root.refuseOthers();
  return preset;
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
  return preset.modality.isEmpty() || preset.modality == modality;
}

}  // namespace cineflow::ui
