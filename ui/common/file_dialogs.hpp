#pragma once
// File and folder dialogs that start where the operator last was: each kind of file (recordings,
// volumes, exports, ...) remembers the folder its dialog last returned, in the settings
// (app_settings.hpp, "folders/<kind>"); a kind not used yet starts in the folder any dialog last
// returned, then the home folder. A suggested name without a folder is put into that folder; one
// with a folder is taken as it is. Cancel returns an empty string and remembers nothing.

#include <QFileDialog>
#include <QString>

class QWidget;

namespace cineflow::ui {

// The kinds of file that keep a folder of their own.
namespace file_kinds {
inline constexpr const char* kRecordings = "recordings";  // raw recordings opened
inline constexpr const char* kVolumes = "volumes";        // volumes saved and opened
inline constexpr const char* kExports = "exports";        // videos, pictures, tables, DICOM
inline constexpr const char* kTraces = "traces";          // profiler traces
inline constexpr const char* kTables = "tables";  // k-linearisation tables, camera descriptions
}  // namespace file_kinds

// The folder a dialog for `kind` starts in.
QString rememberedFolder(const char* kind);
// Remembers the folder of `path` (a file) or `path` itself (a folder) for `kind`.
void rememberFolder(const char* kind, const QString& path, bool isFolder = false);

QString askOpenFile(QWidget* parent, const char* kind, const QString& caption,
                    const QString& filter);
QString askSaveFile(QWidget* parent, const char* kind, const QString& caption,
                    const QString& suggestedName, const QString& filter,
                    QString* selectedFilter = nullptr, QFileDialog::Options options = {});
// `start`, if not empty, overrides the remembered folder (a folder already chosen in a form).
QString askFolder(QWidget* parent, const char* kind, const QString& caption,
                  const QString& start = {});

}  // namespace cineflow::ui
