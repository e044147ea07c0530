#pragma once
// The operator's own preset files (presets.hpp has the format): saving a preset made in the GUI
// (Save as preset…) and deleting one (Delete preset…). The shipped presets are never written or
// deleted, and nothing is half-written: a file is written whole under a temporary name and then
// renamed (base/text_file.hpp), so a failed save (a read-only folder, a full disk) leaves the
// folder as it was. Qt Core only.

#include <vector>

#include <QString>

#include "shell/presets.hpp"

namespace cineflow::ui {

// Why `name` cannot be a new preset's name, or "": it is empty, or a shipped preset's name (a file
// of that name would replace the shipped one).
QString presetNameRefusal(const QString& name);

// The operator's own preset named `name` (trimmed) among `presets`, or null.
const Preset* ownPresetNamed(const std::vector<Preset>& presets, const QString& name);

// A file name for a preset called `name`: its ASCII letters and digits in lower case, runs of
// anything else (path separators, dots, spaces, accented letters) as one '-', at most 48
// characters, ".json"; "preset.json" when nothing is left. Unique in `folder`: "-2", "-3", ...
// before ".json" when the name is taken.
QString presetFileNameFor(const QString& name, const QString& folder);

struct SavedPreset {
  QString path;   // the file written; empty when it failed
  QString error;  // why it failed, for the operator; empty when it was saved
};

// Writes `preset` into `folder` (made when missing): into the file of the operator's own preset of
// its name among `presets`, replacing it (the caller asked the operator first), else into a new
// file (presetFileNameFor). Refuses a name presetNameRefusal() refuses and a preset that would not
// read back.
SavedPreset savePresetFile(const Preset& preset, const std::vector<Preset>& presets,
                           const QString& folder);

// Removes the file of the operator's own `preset`. Returns "" or why not (a shipped preset, or
// the file could not be removed).
QString deletePresetFile(const Preset& preset);

}  // namespace cineflow::ui
