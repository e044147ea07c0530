#pragma once
// Names of saved volume files. The engine numbers volumes from 0 at each start and every source
// shares the numbering, so a number alone names different volumes across sources and across runs
// of Cineflow: a name carries the volume's modality, and a save into a folder takes the first name
// not already there (nor promised to a save still queued), so that no file is ever replaced
// without the operator's yes.

#include <cstdint>
#include <functional>

#include <QString>

namespace cineflow::ui {

// "<modality>_volume_<number, 6 digits>.h5" ("ultrasound_volume_000011.h5"); "volume_..." when
// the modality is not known (a volume opened from a file).
QString volumeFileName(const QString& modality, std::uint64_t number);

// `fileName` in `folder`, or, when that path exists or `taken` says it is promised, the first free
// one of "<stem>_2.h5", "<stem>_3.h5", ... An absolute, clean path.
QString freeVolumePath(const QString& folder, const QString& fileName,
                       const std::function<bool(const QString&)>& taken);

}  // namespace cineflow::ui
