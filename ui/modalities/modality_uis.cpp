// The modalities the GUI offers, in the acquisition dock's order: the one place in the GUI that
// lists them (modality/modality_ui.hpp).
#include "modalities/oct/oct_ui.hpp"
#include "modalities/received/received_ui.hpp"
#include "modalities/ultrasound/ultrasound_ui.hpp"
#include "modality/modality_ui.hpp"

namespace cineflow::ui {

const std::vector<const ModalityUi*>& modalityUis() {
  static const UltrasoundUi ultrasound;
  static const OctUi oct;
  static const ReceivedUi received;
  static const std::vector<const ModalityUi*> all = {&ultrasound, &oct, &received};
  return all;
}

}  // namespace cineflow::ui
