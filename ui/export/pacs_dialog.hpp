#pragma once
// File > PACS settings…: the PACS that "Send to PACS" stores to (its AE title, host and port),
// Cineflow's own AE title and the network timeout. "Test connection" sends a C-ECHO with what is
// typed, on a worker, and shows the PACS's answer or why there was none; the dialog stays usable
// meanwhile. What is typed is checked as it is typed (pacsNodeProblem), with the reason in place
// of OK while it cannot be taken. OK saves to the settings (pacs_settings.hpp).

#include <optional>

#include <QDialog>

#include "export/pacs_sender.hpp"

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace cineflow::ui {

class BackgroundJob;

class PacsDialog : public QDialog {
  Q_OBJECT

 public:
  // Starts from `current` (the saved PACS), or empty fields.
  explicit PacsDialog(const std::optional<PacsNode>& current, QWidget* parent = nullptr);
  ~PacsDialog() override;

  PacsNode node() const;  // as typed
  // The last test's answer ("" before any).
  QString testResult() const;

 signals:
  void tested(bool ok, const QString& message);

 private:
  void update();
  void test();

  QLineEdit* calledAe_ = nullptr;
  QLineEdit* host_ = nullptr;
  QSpinBox* port_ = nullptr;
  QLineEdit* callingAe_ = nullptr;
  QSpinBox* timeout_ = nullptr;
  QLabel* problem_ = nullptr;
  QLabel* result_ = nullptr;
  QPushButton* test_ = nullptr;
  QPushButton* ok_ = nullptr;
  BackgroundJob* echo_ = nullptr;
};

// The saved PACS; with none saved yet, this dialog first (saving what the operator enters). None
// when the operator cancels.
std::optional<PacsNode> pacsNodeOrAsk(QWidget* parent);

}  // namespace cineflow::ui
