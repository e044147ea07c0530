#pragma once
// The received modality's GUI (modality/modality_ui.hpp): images another system formed, shown
// display-only. Its source button "OpenIGTLink…" asks for the server (host, port and, when the
// server streams several, the image device; the last one is remembered) and opens
// "igtl://HOST:PORT#DEVICE"; its panel (received_panel.hpp) shows what arrives and the levels.

#include "modality/modality_ui.hpp"

namespace cineflow::ui {

class ReceivedUi : public ModalityUi {
 public:
  QString name() const override;
  std::vector<SourceButton> sourceButtons() const override;
  std::unique_ptr<ModalityPanels> createPanels(EngineController& controller,
                                               QWidget& parent) const override;
  // "igtl://" alone (the button): asks for the server, then opens it.
  bool takeOpenRequest(const QString& spec, EngineController& controller,
                       QWidget* parent) const override;
};

}  // namespace cineflow::ui
