#pragma once
// VolumeReviewPanel: the operator's buffered volumes (VolumeController). A capacity bar, Buffer
// (the newest complete volume) and Auto-buffer (every volume until the store is full); the list
// of volumes with a thumbnail of the projection through the slab, the volume's modality and
// number, sequence range, acquisition time, size and the file it is saved in; Save, Save all,
// Discard, Discard all, the compression of saved files, and a progress bar for the running save or
// open; and the selected volume: its slices (a slider steps through y) above its three MIPs, all
// with the live view's zoom, pan, readout, gain, dynamic range and colour map, or a placeholder
// when none is selected. Volumes are named by the engine's volume number everywhere (list,
// progress, messages, files), with their modality in the list and file names
// (VolumeController::labelOf, fileNameOf).

#include <cstdint>
#include <optional>
#include <vector>

#include <QString>
#include <QWidget>

#include "common/background_job.hpp"
#include "common/colour_maps.hpp"
#include "export/oct_dicom.hpp"
#include "volumes/volume_controller.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSlider;

namespace cineflow::ui {

class ImageView;
class MeasurementList;
class MipTriptych;
class PacsUpload;

class VolumeReviewPanel : public QWidget {
  Q_OBJECT

 public:
  explicit VolumeReviewPanel(VolumeController& volumes, QWidget* parent = nullptr);
  ~VolumeReviewPanel() override;  // cancels a video being written and waits for it

  // For the owner and tests.
  ImageView& view() { return *view_; }    // the selected volume's slices
  MipTriptych& mips() { return *mips_; }  // and its projections
  QListWidget& list() { return *list_; }
  std::optional<std::uint64_t> selectedId() const;
  // Selects the volume with store id `id` (false when it is not listed).
  bool select(std::uint64_t id);
  void setSlice(int slice);
  QString capacityText() const;
  // Non-interactive save and save all (the buttons ask for a path first). saveSelected() replaces
  // a file at `path`, as the Save button does once its dialog has the operator's yes; saveAll()
  // never replaces one (VolumeController::saveAll).
  void saveSelected(const QString& path);
  void saveAll(const QString& folder);
  // Discard and Discard all: a volume not saved goes only once the operator agrees
  // (askBeforeLosing()); saved ones go at once (their files stay). Discard all discards the
  // volumes listed when it was pressed, not those buffered while the question was open.
  void discardSelected();
  void discardAll();
  // A video (MP4) of the selected volume's slices as shown, each with its measurements burnt in,
  // at `framesPerSecond`, written on a worker thread (volume_review_video.cpp); videoFinished()
  // reports. False (and nothing started) when no volume is selected or a video is being written.
  bool exportSlicesVideo(const QString& path, double framesPerSecond = kSliceVideoRateHz);
  bool isWritingVideo() const { return videoJob_.running(); }
  // The selected volume as one DICOM file (volume_review_dicom.cpp), its slices as shown (no
  // rulers) with their measurements burnt in: an OCT volume as an Ophthalmic Tomography Image of
  // the eye `laterality` (export/oct_dicom.hpp, with the acquisition's wavelength), any other as
  // an Ultrasound Multi-frame Image (export/dicom_export.hpp). Written on a worker thread;
  // dicomFinished() reports, and with `sendToPacs` the written file then goes to the PACS through
  // setPacsUpload()'s upload. False (nothing started) when no volume is selected or a DICOM file
  // is being written.
  bool exportDicom(const QString& path, Laterality laterality = Laterality::Right,
                   bool sendToPacs = false);
  bool isWritingDicom() const { return dicomJob_.running(); }
  // Where "DICOM and send to PACS" sends (null: that choice is not offered); it must outlive the
  // panel.
  void setPacsUpload(PacsUpload* upload) { pacsUpload_ = upload; }
  // The measurements drawn on the volume views: their names follow the selected volume.
  void setMeasurements(const MeasurementList* list) { measurements_ = list; }
  static constexpr double kSliceVideoRateHz = 10.0;

 signals:
  void videoProgress(int slicesDone, int slicesTotal);
  void videoFinished(bool ok, const QString& message);
  void dicomFinished(bool ok, const QString& message);
  // The volume selected for review (0 with `selected` false: none).
  void selectionChanged(bool selected, quint64 id);

 public slots:
  void setGainDb(double gainDb);
  void setDynamicRangeDb(double dynamicRangeDb);
  void setColourMap(cineflow::ui::ColourMap map);
  void refresh();  // rebuilds the list (keeps the selection when it still exists)

 private:
  QComboBox* buildCompressionBox();
  void buildLayout();
  void showSelection();
  void updateButtons();
  // Before unsaved volumes are lost: "Discard 3 unsaved volumes (45.2 MB)?", with "Don't ask
  // again", which holds while the program runs (not saved in the settings). True: go ahead.
  bool askBeforeLosing(const std::vector<store::BufferedSummary>& going);
  void clearSelection();        // nothing selected: no volume's images stay on show
  void nameMeasurementViews();  // after the selection changed volume
  void chooseVideoFile();
  void finishVideo(bool ok, const QString& message);
  void chooseDicomFile(bool sendToPacs);
  void finishDicom(bool ok, const QString& message);

  VolumeController& volumes_;
  VolumeImages shown_;  // host copy of the selected volume
  std::optional<std::uint64_t> shownId_;
  QPushButton* bufferButton_ = nullptr;
  QCheckBox* autoBuffer_ = nullptr;
  QProgressBar* capacity_ = nullptr;
  QProgressBar* saving_ = nullptr;  // the running save (or open), while any is queued or running
  int pendingJobs_ = 0;
  QListWidget* list_ = nullptr;
  QPushButton* saveButton_ = nullptr;
  QPushButton* saveAllButton_ = nullptr;
  QPushButton* discardButton_ = nullptr;
  QPushButton* discardAllButton_ = nullptr;
  QPushButton* videoButton_ = nullptr;
  BackgroundJob videoJob_{"cf-video"};  // cancelled and waited for by the destructor
  QPushButton* dicomButton_ = nullptr;
  BackgroundJob dicomJob_{"cf-volume-dcm"};
  PacsUpload* pacsUpload_ = nullptr;
  QString dicomToSend_;  // the file being written, to send once written ("" for none)
  const MeasurementList* measurements_ = nullptr;
  QSlider* slice_ = nullptr;
  QLabel* sliceLabel_ = nullptr;
  ImageView* view_ = nullptr;
  MipTriptych* mips_ = nullptr;
  std::optional<std::uint64_t> mipsShownId_;
  bool askBeforeDiscard_ = true;
};

}  // namespace cineflow::ui
