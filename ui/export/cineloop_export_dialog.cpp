#include "export/cineloop_export_dialog.hpp"

#include <algorithm>

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QStyle>
#include <QVBoxLayout>

#include "common/file_dialogs.hpp"
#include "export/export_target.hpp"
#include "export/pacs_settings.hpp"

namespace cineflow::ui {
namespace {

const QString kHdf5Suffix = QStringLiteral(".h5");
const QString kMp4Suffix = QStringLiteral(".mp4");
const QString kDicomSuffix = QStringLiteral(".dcm");

}  // namespace

CineloopExportDialog::CineloopExportDialog(int frames, const QString& stem,
                                           const CineloopExportChoice& initial,
                                           double acquisitionRateHz,
                                           std::optional<std::uint64_t> shownFrame, QWidget* parent)
    : QDialog(parent), stem_(stem), study_(initial.patient.study) {
  setObjectName(QStringLiteral("cineloopExportDialog"));
  setWindowTitle(tr("Export cineloop"));

  pictures_ = new QRadioButton(tr("Pictures (PNG), as on screen"), this);
  pictures_->setObjectName(QStringLiteral("exportPictures"));
  pictures_->setToolTip(
      tr("One PNG per frame in physical proportions, with the display's gain, dynamic range and "
         "colour map, plus index.csv with each frame's sequence number and time"));
  data_ = new QRadioButton(tr("Data (HDF5), dB values"), this);
  data_->setObjectName(QStringLiteral("exportData"));
  data_->setToolTip(
      tr("The frames' dB values as computed, with the acquisition and processing "
         "parameters (cineflow.bmode/1), for analysis"));
  video_ = new QRadioButton(tr("Video (MP4, H.264), as on screen"), this);
  video_->setObjectName(QStringLiteral("exportVideo"));
  video_->setToolTip(
      tr("The same pictures as one H.264 video, with the measurements and annotations of each "
         "frame; plays in any video player"));
  videoRate_ = new QDoubleSpinBox(this);
  videoRate_->setObjectName(QStringLiteral("exportVideoRate"));
  videoRate_->setRange(0.0, 240.0);
  videoRate_->setDecimals(1);
  videoRate_->setSuffix(tr(" frames/s"));
  videoRate_->setSpecialValueText(
      acquisitionRateHz > 0 ? tr("as acquired (%1 frames/s, real time)")
                                  .arg(std::min(acquisitionRateHz, kMaxVideoRateHz), 0, 'f', 1)
                            : tr("as acquired"));
  videoRate_->setToolTip(
      tr("The video's frame rate. As acquired: the source's rate, each frame held for its real "
         "duration (real time, also when the display imaged only some of the source's frames). "
         "A chosen rate: one video frame per cineloop frame, slower or faster than real time."));
  dicom_ = new QRadioButton(tr("DICOM (ultrasound image), as on screen"), this);
  dicom_->setObjectName(QStringLiteral("exportDicom"));
  dicom_->setToolTip(
      tr("One DICOM file for a PACS: an Ultrasound Multi-frame Image (one frame: an Ultrasound "
         "Image) in the displayed colour map, with the frame time and the physical pixel spacing"));
  patientName_ = new QLineEdit(this);
  patientName_->setObjectName(QStringLiteral("dicomPatientName"));
  patientName_->setPlaceholderText(tr("Family^Given (empty: anonymous)"));
  patientId_ = new QLineEdit(this);
  patientId_->setObjectName(QStringLiteral("dicomPatientId"));
  patientId_->setPlaceholderText(tr("made up from the date and time"));
  studyDescription_ = new QLineEdit(this);
  studyDescription_->setObjectName(QStringLiteral("dicomStudyDescription"));
  sendToPacs_ = new QCheckBox(tr("Send to the PACS once written"), this);
  sendToPacs_->setObjectName(QStringLiteral("exportSendToPacs"));
  const std::optional<PacsNode> pacs = savedPacsNode();
  sendToPacs_->setToolTip(
      pacs ? tr("C-STORE to %1 (File > PACS settings…); the file is kept either way")
                 .arg(QString::fromStdString(describePacsNode(*pacs)))
           : tr("No PACS is set yet: its AE title, host and port are asked for first (File > PACS "
                "settings…); the file is kept either way"));
  sendToPacs_->setChecked(initial.sendToPacs);
  onlyShown_ = new QCheckBox(shownFrame ? tr("Only the frame on screen (seq %1)").arg(*shownFrame)
                                        : tr("Only the frame on screen"),
                             this);
  onlyShown_->setObjectName(QStringLiteral("exportOnlyShownFrame"));
  onlyShown_->setEnabled(shownFrame.has_value());
  annotations_ = new QCheckBox(tr("Rulers and scale bar"), this);
  annotations_->setObjectName(QStringLiteral("exportAnnotations"));
  measurements_ = new QCheckBox(tr("Measurements and labels"), this);
  measurements_->setObjectName(QStringLiteral("exportMeasurements"));
  measurements_->setToolTip(tr("Burn the frames' measurements and annotations into the pictures"));

  folder_ = new QLineEdit(this);
  folder_->setObjectName(QStringLiteral("exportFolder"));
  folder_->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('M')) * 28);
  browse_ = new QPushButton(tr("Browse\u2026"), this);
  browse_->setAutoDefault(false);  // Return in the folder field means Export, not Browse
  auto* folderRow = new QHBoxLayout;
  folderRow->addWidget(folder_, 1);
  folderRow->addWidget(browse_);

  destination_ = new QLabel(this);
  destination_->setObjectName(QStringLiteral("exportDestination"));
  destination_->setWordWrap(true);
  destination_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* form = new QFormLayout;
  auto* formats = new QVBoxLayout;
  formats->addWidget(pictures_);
  auto* annotationsRow = new QHBoxLayout;
  annotationsRow->addSpacing(pictures_->style()->pixelMetric(QStyle::PM_ExclusiveIndicatorWidth) +
                             6);
  annotationsRow->addWidget(annotations_);
  annotationsRow->addWidget(measurements_);
  formats->addLayout(annotationsRow);
  formats->addWidget(video_);
  auto* rateRow = new QHBoxLayout;
  rateRow->addSpacing(pictures_->style()->pixelMetric(QStyle::PM_ExclusiveIndicatorWidth) + 6);
  rateRow->addWidget(videoRate_);
  rateRow->addStretch(1);
  formats->addLayout(rateRow);
  formats->addWidget(dicom_);
  auto* patient = new QFormLayout;
  patient->addRow(tr("Patient name"), patientName_);
  patient->addRow(tr("Patient ID"), patientId_);
  patient->addRow(tr("Study"), studyDescription_);
  patient->addRow(QString(), sendToPacs_);
  auto* patientRow = new QHBoxLayout;
  patientRow->addSpacing(pictures_->style()->pixelMetric(QStyle::PM_ExclusiveIndicatorWidth) + 6);
  patientRow->addLayout(patient);
  formats->addLayout(patientRow);
  formats->addWidget(data_);
  formats->addWidget(onlyShown_);
  // Says what will be exported: one frame while "only the frame on screen" is ticked.
  auto* count = new QLabel(this);
  count->setObjectName(QStringLiteral("exportFrameCount"));
  const auto sayCount = [count, frames](bool onlyShown) {
    count->setText(onlyShown || frames == 1 ? tr("Export 1 frame as")
                                            : tr("Export %1 frames as").arg(frames));
  };
  connect(onlyShown_, &QCheckBox::toggled, count, sayCount);
  sayCount(false);
  form->addRow(count, formats);
  form->addRow(tr("Into folder"), folderRow);
  form->addRow(QString(), destination_);

  buttons_ = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
  export_ = buttons_->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
  export_->setObjectName(QStringLiteral("exportButton"));
  export_->setDefault(true);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons_);

  connect(buttons_, &QDialogButtonBox::accepted, this, [this] {
    update();  // the folder may have changed (removed, made read-only) since it was typed
    if (problem_.isEmpty()) {
      accept();
    }
  });
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(browse_, &QPushButton::clicked, this, &CineloopExportDialog::browse);
  connect(folder_, &QLineEdit::textChanged, this, &CineloopExportDialog::update);
  connect(pictures_, &QRadioButton::toggled, this, &CineloopExportDialog::update);
  connect(video_, &QRadioButton::toggled, this, &CineloopExportDialog::update);
  connect(dicom_, &QRadioButton::toggled, this, &CineloopExportDialog::update);

  setFormat(initial.format);
  annotations_->setChecked(initial.annotations);
  measurements_->setChecked(initial.measurements);
  videoRate_->setValue(initial.videoFramesPerSecond);
  patientName_->setText(initial.patient.name);
  patientId_->setText(initial.patient.id);
  studyDescription_->setText(initial.patient.studyDescription);
  onlyShown_->setChecked(initial.onlyShownFrame && shownFrame.has_value());
  folder_->setText(initial.folder);
  update();
}

CineloopExportChoice CineloopExportDialog::choice() const {
  const CineloopExportFormat format = pictures_->isChecked() ? CineloopExportFormat::Png
                                      : video_->isChecked()  ? CineloopExportFormat::Mp4
                                      : dicom_->isChecked()  ? CineloopExportFormat::Dicom
                                                             : CineloopExportFormat::Hdf5;
  DicomPatient patient;
  patient.study = study_;
  patient.name = patientName_->text().trimmed();
  patient.id = patientId_->text().trimmed();
  patient.studyDescription = studyDescription_->text().trimmed();
  return {format,
          annotations_->isChecked(),
          measurements_->isChecked(),
          videoRate_->value(),
          QDir::cleanPath(folder_->text().trimmed()),
          patient,
          onlyShown_->isChecked(),
          sendToPacs_->isChecked()};
}

QString CineloopExportDialog::target() const {
  const CineloopExportChoice current = choice();
  if (!exportFolderProblem(current.folder).isEmpty()) {
    return {};
  }
  const QString suffix = current.format == CineloopExportFormat::Png     ? QString()
                         : current.format == CineloopExportFormat::Mp4   ? kMp4Suffix
                         : current.format == CineloopExportFormat::Dicom ? kDicomSuffix
                                                                         : kHdf5Suffix;
  return unusedExportPath(current.folder, stem_, suffix);
}

void CineloopExportDialog::setFolder(const QString& folder) {
  folder_->setText(folder);
}

void CineloopExportDialog::setFormat(CineloopExportFormat format) {
  (format == CineloopExportFormat::Png     ? pictures_
   : format == CineloopExportFormat::Mp4   ? video_
   : format == CineloopExportFormat::Dicom ? dicom_
                                           : data_)
      ->setChecked(true);
}

void CineloopExportDialog::browse() {
  const QString folder =
      askFolder(this, file_kinds::kExports, tr("Export cineloop into"), choice().folder);
  if (!folder.isEmpty()) {
    folder_->setText(folder);
  }
}

void CineloopExportDialog::update() {
  annotations_->setEnabled(!data_->isChecked() && !dicom_->isChecked());
  measurements_->setEnabled(!data_->isChecked());
  videoRate_->setEnabled(video_->isChecked());
  for (QWidget* field :
       std::initializer_list<QWidget*>{patientName_, patientId_, studyDescription_, sendToPacs_}) {
    field->setEnabled(dicom_->isChecked());
  }
  const QString folder = choice().folder;
  problem_ =
      folder_->text().trimmed().isEmpty() ? tr("Choose a folder.") : exportFolderProblem(folder);
  export_->setEnabled(problem_.isEmpty());
  if (!problem_.isEmpty()) {
    destination_->setText(
        QStringLiteral("<span style='color:#e0605a'>%1</span>").arg(problem_.toHtmlEscaped()));
    return;
  }
  const QString path = QDir::toNativeSeparators(target());
  destination_->setText(
      (pictures_->isChecked() ? tr("Creates the folder %1") : tr("Creates the file %1"))
          .arg(QStringLiteral("<b>%1</b>").arg(path.toHtmlEscaped())));
}

}  // namespace cineflow::ui
