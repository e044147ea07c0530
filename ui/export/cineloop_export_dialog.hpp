#pragma once
// The dialog behind "Export…" in the cineloop panel: the form (pictures as on screen, a video of
// them, or the dB data as HDF5), whether pictures carry the rulers and scale bar, the video's
// frame rate (the acquisition's or a chosen one), and the folder the export goes into. It shows the
// exact new folder or file the export will create there (export_target.hpp) and keeps Export
// disabled, with the reason in place of that path, while the folder cannot take it (missing, a
// system folder, not writable), so a half-typed path can never become the target. The DICOM
// patient fields show the initial choice's (the study being scanned) for the operator to edit for
// this export; the rest of the study goes into the choice unchanged.

#include <QDateTime>
#include <QDialog>
#include <QString>
#include <cstdint>
#include <optional>

#include "export/cineloop_export.hpp"

class QCheckBox;
class QDoubleSpinBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;

namespace cineflow::ui {

struct CineloopExportChoice {
  CineloopExportFormat format = CineloopExportFormat::Png;
  bool annotations = true;          // rulers and scale bar
  bool measurements = true;         // measurements and labels burnt in
  double videoFramesPerSecond = 0;  // 0: the acquisition's
  QString folder;                   // where the new folder or file goes
  DicomPatient patient;             // DICOM
  bool onlyShownFrame = false;      // the frame on screen instead of the whole cineloop
  bool sendToPacs = false;          // DICOM: sent to the PACS once written (export/pacs_upload.hpp)
};

class CineloopExportDialog : public QDialog {
  Q_OBJECT

 public:
  // `frames`: how many the export will write; `stem`: exportStem() of the recording and now;
  // `acquisitionRateHz`: the video's default frame rate (0: unknown); `shownFrame`: the frame on
  // screen, which the export may take alone (none: the whole cineloop only).
  CineloopExportDialog(int frames, const QString& stem, const CineloopExportChoice& initial,
                       double acquisitionRateHz = 0,
                       std::optional<std::uint64_t> shownFrame = std::nullopt,
                       QWidget* parent = nullptr);

  CineloopExportChoice choice() const;
  // The folder (PNG) or file (HDF5) to create: a name not in use when this is called; empty while
  // the folder cannot take an export.
  QString target() const;
  // Why Export is disabled; empty when it is enabled.
  QString problem() const { return problem_; }

  void setFolder(const QString& folder);
  void setFormat(CineloopExportFormat format);

 private:
  void browse();
  void update();

  QString stem_;
  QString problem_;
  store::StudyInfo study_;  // the initial patient's exam, carried into choice()
  QRadioButton* pictures_ = nullptr;
  QRadioButton* data_ = nullptr;
  QRadioButton* video_ = nullptr;
  QRadioButton* dicom_ = nullptr;
  QLineEdit* patientName_ = nullptr;
  QLineEdit* patientId_ = nullptr;
  QLineEdit* studyDescription_ = nullptr;
  QCheckBox* sendToPacs_ = nullptr;
  QCheckBox* onlyShown_ = nullptr;
  QDoubleSpinBox* videoRate_ = nullptr;
  QCheckBox* annotations_ = nullptr;
  QCheckBox* measurements_ = nullptr;
  QLineEdit* folder_ = nullptr;
  QPushButton* browse_ = nullptr;
  QLabel* destination_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
  QPushButton* export_ = nullptr;
};

}  // namespace cineflow::ui
