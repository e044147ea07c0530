#pragma once
// The transport icons (start, stop, freeze, record, play, pause, step), drawn as light vector
// shapes that stay legible on the dark theme; the style's standard media icons are near-black
// there. Each icon has a dimmer variant for disabled actions.

#include <QIcon>

namespace cineflow::ui {

enum class MediaIcon { Play, Pause, Stop, StepBack, StepForward, Freeze, Record };

QIcon mediaIcon(MediaIcon kind);

}  // namespace cineflow::ui
