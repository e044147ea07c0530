#pragma once
// Where an export goes. The operator picks a folder; the export never writes into it directly but
// creates a new entry in it named after the recording and the time
// ("PWI_disk_cineloop_2026-11-25_14-03-07", with "-2", "-3", ... when that exists already), so it
// can neither scatter files among the operator's own nor overwrite an earlier export. Folders that
// belong to the operating system (/, /usr, /etc, ...) and folders the program cannot write to are
// refused with a reason before anything is written.

#include <QDateTime>
#include <QString>

namespace cineflow::ui {

// Why `folder` cannot receive an export ("… is a system folder", "… does not exist", "… is not
// writable"); empty when it can.
QString exportFolderProblem(const QString& folder);

// True for the file system root and the operating system's own trees (/bin, /boot, /dev, /etc,
// /lib*, /proc, /run, /sbin, /srv, /sys, /usr, /var; /run/media, /var/tmp and the like, where
// removable drives and scratch space live, are not system folders).
bool isSystemFolder(const QString& folder);

// "<recording>_cineloop_<yyyy-MM-dd_HH-mm-ss>" with the recording name made safe for any file
// system: its source description's first word ("PWI_disk.h5 (...)" -> "PWI_disk"), characters
// other than letters, digits, '-', '_' and '.' replaced by '_'; "cineloop_<time>" without one.
QString exportStem(const QString& recordingDescription, const QDateTime& time);

// `folder`/`stem``suffix`, or `folder`/`stem`-2`suffix`, -3, ..., the first that does not exist.
QString unusedExportPath(const QString& folder, const QString& stem, const QString& suffix = {});

}  // namespace cineflow::ui
