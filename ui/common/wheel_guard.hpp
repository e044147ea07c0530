#pragma once
// In a panel that scrolls, the mouse wheel scrolls the panel. Qt's spin boxes, combo boxes and
// sliders otherwise take every wheel step that passes over them: an operator scrolling down the
// Acquisition dock changed "Depth from" from 7.36 to 2.36 mm on the way to the Apply button. With
// the guard they take wheel steps only once they have the focus (clicked or tabbed into); an
// unfocused one passes the wheel on to the nearest scroll area, and no longer takes the focus from
// it.

class QWidget;

namespace cineflow::ui {

// Guards every spin box, combo box and slider inside `panel` that exists when this is called
// (call it once the panel is built). The guard is a child of `panel` and dies with it.
void guardWheelInside(QWidget& panel);

}  // namespace cineflow::ui
