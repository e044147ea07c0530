#pragma once
// The PACS "Send to PACS" stores to, kept in the GUI's settings (common/app_settings.hpp, keys
// pacs/*). Nothing is configured until the operator enters it (File > PACS settings…).

#include <optional>

#include "export/pacs_sender.hpp"

namespace cineflow::ui {

// The saved PACS; none while no PACS was ever saved (no AE title or host).
std::optional<PacsNode> savedPacsNode();
void savePacsNode(const PacsNode& node);

}  // namespace cineflow::ui
