// Fuzzes the preset reader (ui/shell/presets.hpp: the operator's preset files, JSON): any bytes as
// a preset file. PresetError naming the file and the field is the right answer to a bad one;
// anything else is a defect.
#include <cstddef>
#include <cstdint>

#include <QByteArray>
#include <QString>

#include "shell/presets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
  try {
    (void)cineflow::ui::parsePreset(json, QStringLiteral("fuzzed.json"));
  } catch (const cineflow::ui::PresetError&) {
  }
  return 0;
}
