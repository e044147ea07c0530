#pragma once
// The received modality's preset section (modality/modality_presets.hpp): "received" with
// "mapping" ("levels" or "db"), "black_level" and "white_level" (the pixel values shown at -60 dB
// and 0 dB).
// Qt Core only.

#include <optional>

#include "modality/modality_presets.hpp"
#include "received/received_format.hpp"

namespace cineflow::ui {

struct ReceivedPresetSection : PresetSection {
  std::optional<bool> asDb;
  std::optional<double> black, white;

  static ReceivedPresetSection captured(const received::ReceivedLevels& levels);
  // `levels` with what the section sets.
  received::ReceivedLevels applied(received::ReceivedLevels levels) const;
};

class ReceivedPresets : public ModalityPresets {
 public:
  QString name() const override;
  QString title() const override;
  std::shared_ptr<const PresetSection> parse(PresetFields* section,
                                             PresetFields* display) const override;
  QJsonObject write(const PresetSection& section, QJsonObject& display) const override;
};

}  // namespace cineflow::ui
