// VolumeReviewPanel's DICOM export: the selected volume's slices drawn as shown (no rulers, each
// slice's measurements burnt in) into one DICOM file on a worker thread: an OCT volume as an
// Ophthalmic Tomography Image with the acquisition's wavelength, any other as an Ultrasound
// Multi-frame Image; then, when asked, to the PACS.

#include <QDateTime>
#include <QDir>
#include <QInputDialog>
#include <QPushButton>
#include <algorithm>
#include <exception>
#include <utility>

#include "common/file_dialogs.hpp"
#include "export/frame_picture.hpp"
#include "export/pacs_upload.hpp"
#include "measure/measurement_list.hpp"
#include "view2d/image_view.hpp"
#include "volumes/volume_review_panel.hpp"

namespace cineflow::ui {
namespace {

double numberAttribute(const store::FileMetadata& metadata, const char* name) {
  const auto found = metadata.attributes.find(name);
  if (found == metadata.attributes.end()) {
    return 0;
  }
  if (const auto* value = std::get_if<double>(&found->second)) {
    return *value;
  }
  if (const auto* value = std::get_if<std::int64_t>(&found->second)) {
    return static_cast<double>(*value);
  }
  return 0;
}

}  // namespace

void VolumeReviewPanel::chooseDicomFile(bool sendToPacs) {
  const auto id = selectedId();
  if (!id || isWritingDicom()) {
    return;
  }
  Laterality laterality = Laterality::Right;
  if (volumes_.originOf(*id).modality == QLatin1String("oct")) {
    const QStringList eyes = {tr("Right eye"), tr("Left eye"), tr("Both eyes")};
    bool ok = false;
    const QString eye =
        QInputDialog::getItem(this, tr("DICOM of an OCT volume"),
                              tr("The eye imaged (DICOM's laterality):"), eyes, 0, false, &ok);
    if (!ok) {
      return;
    }
    laterality = eye == eyes[1]   ? Laterality::Left
                 : eye == eyes[2] ? Laterality::Both
                                  : Laterality::Right;
  }
  const QString path =
      askSaveFile(this, file_kinds::kExports, tr("DICOM of the volume"),
                  QStringLiteral("volume_%1.dcm").arg(shown_.info.number, 6, 10, QLatin1Char('0')),
                  tr("DICOM (*.dcm)"));
  if (!path.isEmpty()) {
    exportDicom(path, laterality, sendToPacs);
  }
}

bool VolumeReviewPanel::exportDicom(const QString& path, Laterality laterality, bool sendToPacs) {
  const auto id = selectedId();
  if (isWritingDicom() || !id || shown_.slices.empty()) {
    return false;
  }
  // What the thread needs, copied: the slices are shared, immutable frames.
  const std::vector<std::shared_ptr<const Image>> slices = shown_.slices;
  const process::VolumeInfo info = shown_.info;
  const VolumeOrigin origin = volumes_.originOf(*id);
  const bool oct = origin.modality == QLatin1String("oct");
  // OCT in grey (its DICOM is MONOCHROME2), ultrasound in the view's colour map.
  const PictureOptions options{{view_->gainDb(),
                                view_->dynamicRangeDb(),
                                oct ? ColourMap::Grey : view_->colourMap(),
                                {},
                                {}},
                               false,
                               true};
  const std::vector<Measurement> marks = measurements_ != nullptr
                                             ? measurements_->ofView(view_->measurementViewName())
                                             : std::vector<Measurement>{};
  const DicomPatient patient = origin.study ? dicomPatientOf(*origin.study) : DicomPatient{};
  const double seconds =
      info.timestampNs.size() > 1
          ? 1e-9 * static_cast<double>(info.timestampNs.back() - info.timestampNs.front())
          : 0.0;
  // When the volume came into the store (wall clock), less its sweep: its acquisition's start.
  const QDateTime listed = origin.listedAt.isValid()
                               ? QDateTime(QDate::currentDate(), origin.listedAt)
                               : QDateTime::currentDateTime();
  const std::int64_t acquiredNs =
      (listed.toMSecsSinceEpoch() - static_cast<std::int64_t>(seconds * 1000)) * 1'000'000;
  dicomToSend_ = sendToPacs ? path : QString();
  dicomButton_->setEnabled(false);
  dicomJob_.start([=](BackgroundJob& job) {
    try {
      FramePicture picture(options);
      std::vector<QImage> drawn;
      for (const auto& slice : slices) {
        if (job.cancelled()) {
          return BackgroundJob::Result{false, tr("DICOM of volume %1 cancelled").arg(info.number)};
        }
        drawn.push_back(picture.draw(*slice, {}, marks).copy());
      }
      const process::ImageGeometry& g = info.slice;
      const bool burned = !marks.empty();
      if (oct) {
        OctDicomVolume volume;
        volume.bscans = std::move(drawn);
        volume.columnSpacingMm = g.nx * g.dx * 1e3 / volume.bscans.front().width();
        volume.rowSpacingMm = g.nz * g.dz * 1e3 / volume.bscans.front().height();
        for (const double y : info.elevationM) {
          volume.elevationMm.push_back(y * 1e3);
        }
        volume.centreWavelengthNm = numberAttribute(origin.metadata, "centre_wavelength_m") * 1e9;
        volume.bandwidthNm = numberAttribute(origin.metadata, "bandwidth_m") * 1e9;
        volume.laterality = laterality;
        volume.burnedInAnnotation = burned;
        volume.acquiredAtNs = acquiredNs;
        volume.acquisitionSeconds = seconds;
        writeOctDicom(path.toStdString(), volume, patient);
      } else {
        DicomPictures pictures;
        pictures.frames = std::move(drawn);
        pictures.geometry = g;
        pictures.frameTimeMs =
            pictures.frames.size() > 1 ? seconds * 1e3 / double(pictures.frames.size() - 1) : 0;
        pictures.burnedInAnnotation = burned;
        writeUltrasoundDicom(path.toStdString(), pictures, patient);
      }
      return BackgroundJob::Result{true, tr("Volume %1 written as DICOM (%2, %3 slices) to %4")
                                             .arg(info.number)
                                             .arg(oct ? tr("Ophthalmic Tomography Image")
                                                      : tr("Ultrasound Multi-frame Image"))
                                             .arg(slices.size())
                                             .arg(QDir::toNativeSeparators(path))};
    } catch (const std::exception& error) {
      return BackgroundJob::Result{
          false, tr("DICOM of volume %1 not written: %2").arg(info.number).arg(error.what())};
    }
  });
  return true;
}

void VolumeReviewPanel::finishDicom(bool ok, const QString& message) {
  updateButtons();
  emit dicomFinished(ok, message);
  const QString toSend = std::exchange(dicomToSend_, QString());
  if (ok && !toSend.isEmpty() && pacsUpload_ != nullptr) {
    pacsUpload_->sendToSavedPacs({toSend});
  }
}

}  // namespace cineflow::ui
