#include "shell/preset_files.hpp"

#include <stdexcept>

#include <QDir>
#include <QFile>
#include <QObject>

#include "base/text_file.hpp"
#include "modality/preset_fields.hpp"

namespace cineflow::ui {

QString presetNameRefusal(const QString& name) {
  const QString trimmed = name.trimmed();
  if (trimmed.isEmpty()) {
    return QObject::tr("A preset needs a name");
  }
  for (const Preset& shipped : shippedPresets()) {
    if (shipped.name == trimmed) {
      return QObject::tr("\"%1\" is a shipped preset: choose another name").arg(trimmed);
    }
  }
  return {};
}

const Preset* ownPresetNamed(const std::vector<Preset>& presets, const QString& name) {
  for (const Preset& preset : presets) {
    if (!preset.shipped() && preset.name == name.trimmed()) {
      return &preset;
    }
  }
  return nullptr;
}

QString presetFileNameFor(const QString& name, const QString& folder) {
  constexpr int kMaxStemLength = 48;
  QString stem;
  for (const QChar c : name.trimmed()) {
    if (c.unicode() < 0x80 && c.isLetterOrNumber()) {  // a name any file system takes
      stem += c.toLower();
    } else if (!stem.isEmpty() && !stem.endsWith(QLatin1Char('-'))) {
      stem += QLatin1Char('-');
    }
  }
  stem = stem.left(kMaxStemLength);
  while (stem.endsWith(QLatin1Char('-'))) {
    stem.chop(1);
  }
  if (stem.isEmpty()) {
    stem = QStringLiteral("preset");
  }
  const QDir dir(folder);
  QString fileName = stem + QStringLiteral(".json");
  for (int n = 2; dir.exists(fileName); ++n) {
    fileName = QStringLiteral("%1-%2.json").arg(stem).arg(n);
  }
  return fileName;
}

SavedPreset savePresetFile(const Preset& preset, const std::vector<Preset>& presets,
                           const QString& folder) {
  if (const QString refusal = presetNameRefusal(preset.name); !refusal.isEmpty()) {
    return {{}, refusal};
  }
  const QByteArray json = writePreset(preset);
  try {
    parsePreset(json, preset.name);  // what is saved must load again
  } catch (const PresetError& e) {
    return {{}, QObject::tr("it would not load again: %1").arg(QString::fromStdString(e.what()))};
  }
  if (!QDir().mkpath(folder)) {
    return {{}, QObject::tr("cannot make the folder %1").arg(folder)};
  }
  const Preset* own = ownPresetNamed(presets, preset.name);
  const QString path =
      own != nullptr ? own->origin : QDir(folder).filePath(presetFileNameFor(preset.name, folder));
  try {
    base::writeFileAtomically(QFile::encodeName(path).toStdString(), json.toStdString());
  } catch (const std::runtime_error& e) {
    return {{}, QString::fromLocal8Bit(e.what())};
  }
  return {path, {}};
}

QString deletePresetFile(const Preset& preset) {
  if (preset.shipped()) {
    return QObject::tr("\"%1\" is a shipped preset").arg(preset.name);
  }
  QFile file(preset.origin);
  if (!file.remove()) {
    return QObject::tr("cannot remove %1: %2").arg(preset.origin, file.errorString());
  }
  return {};
}

}  // namespace cineflow::ui
