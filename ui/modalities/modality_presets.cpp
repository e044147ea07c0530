// The modalities' preset readers, in the acquisition dock's order (modality/modality_presets.hpp);
// with modality_uis.cpp, the only places in the GUI that list the modalities. Qt Core only.
#include "modality/modality_presets.hpp"
#include "modalities/oct/oct_presets.hpp"
#include "modalities/received/received_presets.hpp"
#include "modalities/ultrasound/ultrasound_presets.hpp"

namespace cineflow::ui {

const std::vector<const ModalityPresets*>& modalityPresets() {
  static const UltrasoundPresets ultrasound;
  static const OctPresets oct;
  static const ReceivedPresets received;
  static const std::vector<const ModalityPresets*> all = {&ultrasound, &oct, &received};
  return all;
}

}  // namespace cineflow::ui
