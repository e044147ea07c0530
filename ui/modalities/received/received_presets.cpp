#include "modalities/received/received_presets.hpp"

#include <stdexcept>

#include "modality/preset_fields.hpp"

namespace cineflow::ui {
namespace {

bool parseMapping(const std::string& text) {
  if (text == "db") {
    return true;
  }
  if (text == "levels") {
    return false;
  }
  throw std::invalid_argument("\"" + text + "\": expected \"levels\" or \"db\"");
}

}  // namespace

QString ReceivedPresets::name() const {
  return QStringLiteral("received");
}

QString ReceivedPresets::title() const {
  return QStringLiteral("Received images");
}

std::shared_ptr<const PresetSection> ReceivedPresets::parse(PresetFields* section,
                                                            PresetFields* display) const {
  (void)display;  // no keys of its own there
  if (section == nullptr) {
    return nullptr;
  }
  auto parsed = std::make_shared<ReceivedPresetSection>();
  parsed->asDb = section->parsed(QStringLiteral("mapping"), parseMapping);
  parsed->black = section->number(QStringLiteral("black_level"), -1e9, 1e9);
  parsed->white = section->number(QStringLiteral("white_level"), -1e9, 1e9);
  if (!parsed->asDb && !parsed->black && !parsed->white) {
    return nullptr;
  }
  return parsed;
}

ReceivedPresetSection ReceivedPresetSection::captured(const received::ReceivedLevels& levels) {
  ReceivedPresetSection section;
  section.asDb = levels.asDb;
  if (!levels.asDb) {
    section.black = levels.black;
    section.white = levels.white;
  }
  return section;
}

received::ReceivedLevels ReceivedPresetSection::applied(received::ReceivedLevels levels) const {
  levels.asDb = asDb.value_or(levels.asDb);
  levels.black = black.value_or(levels.black);
  levels.white = white.value_or(levels.white);
  return levels;
}

QJsonObject ReceivedPresets::write(const PresetSection& section, QJsonObject& display) const {
  (void)display;
  const auto& received = static_cast<const ReceivedPresetSection&>(section);
  QJsonObject written;
  if (received.asDb) {
    written[QStringLiteral("mapping")] =
        *received.asDb ? QStringLiteral("db") : QStringLiteral("levels");
  }
  if (received.black) {
    written[QStringLiteral("black_level")] = *received.black;
  }
  if (received.white) {
    written[QStringLiteral("white_level")] = *received.white;
  }
  return written;
}

}  // namespace cineflow::ui
