#include "volumes/volume_review_panel.hpp"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "common/display_geometry.hpp"
#include "common/file_dialogs.hpp"
#include "export/frame_picture.hpp"
#include "view2d/image_view.hpp"
#include "volumes/mip_triptych.hpp"

namespace cineflow::ui {
namespace {

constexpr int kThumbnailPx = 56;
constexpr int kRowPaddingPx = 6;  // a list row's margin around its thumbnail
constexpr int kIdRole = Qt::UserRole + 1;

QString megabytes(std::size_t bytes) {
  const double value = static_cast<double>(bytes);
  return value >= 1e9 ? QStringLiteral("%1 GB").arg(value / 1e9, 0, 'f', 1)
                      : QStringLiteral("%1 MB").arg(value / 1e6, 0, 'f', 1);
}

// At the projection's own level (as the MIP views show it), whatever the live source's levels:
// a volume of another modality is not white or black in the list.
QIcon thumbnail(const Image& frame, double dynamicRangeDb) {
  FramePicture picture(
      {{suggestGainDb(frame.pixels), dynamicRangeDb, ColourMap::Grey, {}, {}}, false});
  return QIcon(QPixmap::fromImage(picture.draw(frame).scaled(
      kThumbnailPx, kThumbnailPx, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
}

}  // namespace

VolumeReviewPanel::VolumeReviewPanel(VolumeController& volumes, QWidget* parent)
    : QWidget(parent), volumes_(volumes) {
  setObjectName(QStringLiteral("volumeReviewPanel"));
  buildLayout();
  connect(&volumes_, &VolumeController::volumesChanged, this, &VolumeReviewPanel::refresh);
  connect(&volumes_, &VolumeController::autoBufferChanged, autoBuffer_, &QCheckBox::setChecked);
  connect(&videoJob_, &BackgroundJob::progressed, this, &VolumeReviewPanel::videoProgress);
  connect(&videoJob_, &BackgroundJob::finished, this, &VolumeReviewPanel::finishVideo);
  refresh();
}

void VolumeReviewPanel::buildLayout() {
  auto* layout = new QVBoxLayout(this);
  auto* top = new QHBoxLayout;
  bufferButton_ = new QPushButton(tr("Buffer"), this);
  bufferButton_->setObjectName(QStringLiteral("bufferButton"));
  bufferButton_->setToolTip(tr("Keep the newest complete volume on the device (B)"));
  bufferButton_->setShortcut(QKeySequence(Qt::Key_B));
  connect(bufferButton_, &QPushButton::clicked, &volumes_, &VolumeController::bufferLatest);
  autoBuffer_ = new QCheckBox(tr("Auto-buffer"), this);
  autoBuffer_->setObjectName(QStringLiteral("autoBufferBox"));
  autoBuffer_->setToolTip(tr("Keep every volume until the store is full"));
  connect(autoBuffer_, &QCheckBox::toggled, &volumes_, &VolumeController::setAutoBuffer);
  capacity_ = new QProgressBar(this);
  capacity_->setObjectName(QStringLiteral("capacityBar"));
  capacity_->setTextVisible(true);
  top->addWidget(bufferButton_);
  top->addWidget(autoBuffer_);
  top->addWidget(capacity_, 1);
  layout->addLayout(top);

  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("volumeList"));
  list_->setIconSize(QSize(kThumbnailPx, kThumbnailPx));
  list_->setSelectionMode(QAbstractItemView::SingleSelection);
  // Room for two volumes at least, whatever the dock's split gives the views.
  list_->setMinimumHeight(2 * (kThumbnailPx + kRowPaddingPx) + 2 * list_->frameWidth());
  list_->setWordWrap(true);
  connect(list_, &QListWidget::currentRowChanged, this, [this] { showSelection(); });
  layout->addWidget(list_, 1);

  // Two rows, so that the panel stays narrow: keep or export, then let go.
  auto* actions = new QGridLayout;
  saveButton_ = new QPushButton(tr("Save…"), this);
  saveAllButton_ = new QPushButton(tr("Save all…"), this);
  discardButton_ = new QPushButton(tr("Discard"), this);
  discardButton_->setObjectName(QStringLiteral("discardButton"));
  discardAllButton_ = new QPushButton(tr("Discard all"), this);
  discardAllButton_->setObjectName(QStringLiteral("discardAllButton"));
  videoButton_ = new QPushButton(tr("Video…"), this);
  videoButton_->setObjectName(QStringLiteral("sliceVideoButton"));
  videoButton_->setToolTip(
      tr("An MP4 video of the selected volume's slices as shown, with their measurements"));
  connect(videoButton_, &QPushButton::clicked, this, &VolumeReviewPanel::chooseVideoFile);
  actions->addWidget(saveButton_, 0, 0);
  actions->addWidget(saveAllButton_, 0, 1);
  actions->addWidget(videoButton_, 0, 2);
  dicomButton_ = new QPushButton(tr("DICOM…"), this);
  dicomButton_->setObjectName(QStringLiteral("volumeDicomButton"));
  dicomButton_->setToolTip(
      tr("The selected volume as one DICOM file for a PACS: OCT as an Ophthalmic Tomography "
         "Image, ultrasound as a multi-frame image of its slices, as shown"));
  auto* dicomMenu = new QMenu(dicomButton_);
  QAction* dicomOnly = dicomMenu->addAction(tr("Export as DICOM…"));
  dicomOnly->setObjectName(QStringLiteral("volumeDicomExport"));
  connect(dicomOnly, &QAction::triggered, this, [this] { chooseDicomFile(false); });
  QAction* dicomAndSend = dicomMenu->addAction(tr("Export as DICOM and send to PACS…"));
  dicomAndSend->setObjectName(QStringLiteral("volumeDicomSend"));
  connect(dicomAndSend, &QAction::triggered, this, [this] { chooseDicomFile(true); });
  dicomButton_->setMenu(dicomMenu);
  connect(&dicomJob_, &BackgroundJob::finished, this, &VolumeReviewPanel::finishDicom);
  actions->addWidget(discardButton_, 1, 0);
  actions->addWidget(discardAllButton_, 1, 1);
  actions->addWidget(dicomButton_, 1, 2);
  connect(saveButton_, &QPushButton::clicked, this, [this] {
    const auto id = selectedId();
    if (!id) {
      return;
    }
    QString name;
    for (const store::BufferedSummary& volume : volumes_.volumes()) {
      name = volume.id == *id ? volumes_.fileNameOf(volume) : name;
    }
    // The dialog asks before replacing a file: its path comes back only with the operator's yes.
    const QString path =
        askSaveFile(this, file_kinds::kVolumes, tr("Save volume"), name, tr("HDF5 volume (*.h5)"));
    if (!path.isEmpty()) {
      saveSelected(path);
    }
  });
  connect(saveAllButton_, &QPushButton::clicked, this, [this] {
    const QString folder = askFolder(this, file_kinds::kVolumes, tr("Save every volume into"));
    if (!folder.isEmpty()) {
      saveAll(folder);
    }
  });
  connect(discardButton_, &QPushButton::clicked, this, &VolumeReviewPanel::discardSelected);
  connect(discardAllButton_, &QPushButton::clicked, this, &VolumeReviewPanel::discardAll);
  layout->addLayout(actions);
  saving_ = new QProgressBar(this);
  saving_->setObjectName(QStringLiteral("savingBar"));
  saving_->setRange(0, 100);
  saving_->hide();
  // Saving: the compression of saved files, and the running save's progress beside it.
  auto* savingRow = new QHBoxLayout;
  savingRow->addWidget(new QLabel(tr("Save as"), this));
  savingRow->addWidget(buildCompressionBox());
  savingRow->addWidget(saving_, 1);
  savingRow->addStretch();
  layout->addLayout(savingRow);
  connect(&volumes_, &VolumeController::savingChanged, this, [this](int pending) {
    saving_->setVisible(pending > 0);
    if (pending == 0) {
      saving_->setValue(0);
    }
    pendingJobs_ = pending;
  });
  connect(&volumes_, &VolumeController::saveProgress, this, [this](int percent, quint64 volumeId) {
    const std::optional<std::uint64_t> number = volumes_.numberOf(volumeId);
    const QString job = volumeId == 0 ? tr("Opening a saved volume")
                        : number      ? tr("Saving volume %1").arg(*number)
                                      : tr("Saving a volume");
    const QString queued =
        pendingJobs_ > 1 ? tr(" · %n more queued", nullptr, pendingJobs_ - 1) : QString();
    saving_->setValue(percent);
    saving_->setFormat(job + QStringLiteral(" · %p%") + queued);
  });
  connect(&volumes_, &VolumeController::volumeOpened, this, [this](quint64 id) {
    refresh();
    select(id);
  });

  auto* viewControls = new QHBoxLayout;
  slice_ = new QSlider(Qt::Horizontal, this);
  slice_->setObjectName(QStringLiteral("sliceSlider"));
  slice_->setToolTip(tr("Slice through the slab (elevation)"));
  connect(slice_, &QSlider::valueChanged, this, [this] { showSelection(); });
  sliceLabel_ = new QLabel(this);
  viewControls->addWidget(new QLabel(tr("Slice"), this));
  viewControls->addWidget(slice_, 1);
  viewControls->addWidget(sliceLabel_);
  layout->addLayout(viewControls);

  // The slice view shares a 2 x 2 grid with the projections.
  view_ = new ImageView(this);
  view_->setObjectName(QStringLiteral("volumeView"));
  view_->setMinimumSize(80, 48);  // the docks share the window with the live view
  mips_ = new MipTriptych(QStringLiteral("volumeMip"), this, view_);
  layout->addWidget(mips_, 4);
}

// Every codec; those whose HDF5 plugin is missing are listed but disabled, with the package to
// install as their tooltip.
QComboBox* VolumeReviewPanel::buildCompressionBox() {
  auto* box = new QComboBox(this);
  box->setObjectName(QStringLiteral("compressionBox"));
  box->setToolTip(tr("How saved volumes are compressed"));
  auto* model = qobject_cast<QStandardItemModel*>(box->model());
  for (const store::Codec codec : store::allCodecs()) {
    const store::Compression compression{codec, 4};
    box->addItem(QString::fromStdString(store::describe(compression)),
                 QString::fromLatin1(store::codecName(codec)));
    std::string why;
    if (!store::codecAvailable(codec, &why) && model != nullptr) {
      QStandardItem* item = model->item(box->count() - 1);
      item->setEnabled(false);
      item->setToolTip(QString::fromStdString(why));
    }
    if (compression.codec == volumes_.compression().codec) {
      box->setCurrentIndex(box->count() - 1);
    }
  }
  connect(box, &QComboBox::currentIndexChanged, this, [this, box] {
    volumes_.setCompression(store::parseCompression(box->currentData().toString().toStdString()));
  });
  return box;
}

std::optional<std::uint64_t> VolumeReviewPanel::selectedId() const {
  const QListWidgetItem* item = list_->currentItem();
  if (item == nullptr) {
    return std::nullopt;
  }
  return item->data(kIdRole).toULongLong();
}

bool VolumeReviewPanel::select(std::uint64_t id) {
  for (int row = 0; row < list_->count(); ++row) {
    if (list_->item(row)->data(kIdRole).toULongLong() == id) {
      list_->setCurrentRow(row);
      return true;
    }
  }
  return false;
}

void VolumeReviewPanel::setSlice(int slice) {
  slice_->setValue(slice);
}

QString VolumeReviewPanel::capacityText() const {
  return capacity_->text();
}

void VolumeReviewPanel::saveSelected(const QString& path) {
  if (const auto id = selectedId()) {
    volumes_.save(*id, path, VolumeController::ExistingFile::Replace);
  }
}

void VolumeReviewPanel::saveAll(const QString& folder) {
  volumes_.saveAll(folder);
}

void VolumeReviewPanel::discardSelected() {
  const std::optional<std::uint64_t> id = selectedId();
  if (!id) {
    return;
  }
  auto volumes = volumes_.volumes();
  std::erase_if(volumes, [id](const store::BufferedSummary& volume) { return volume.id != *id; });
  if (askBeforeLosing(volumes)) {
    volumes_.discard(*id);
  }
}

void VolumeReviewPanel::discardAll() {
  // Only the volumes the question named: auto-buffer may add more while it is open.
  const auto going = volumes_.volumes();
  if (askBeforeLosing(going)) {
    for (const store::BufferedSummary& volume : going) {
      volumes_.discard(volume.id);
    }
  }
}

bool VolumeReviewPanel::askBeforeLosing(const std::vector<store::BufferedSummary>& going) {
  int unsaved = 0;
  std::size_t bytes = 0;
  std::uint64_t number = 0;
  for (const store::BufferedSummary& volume : going) {
    if (!volume.saved) {
      ++unsaved;
      bytes += volume.bytes;
      number = volume.info.number;
    }
  }
  if (unsaved == 0 || !askBeforeDiscard_) {
    return true;
  }
  QMessageBox box(QMessageBox::Warning, tr("Discard unsaved volumes"),
                  unsaved == 1
                      ? tr("Discard unsaved volume %1 (%2)?").arg(number).arg(megabytes(bytes))
                      : tr("Discard %1 unsaved volumes (%2)?").arg(unsaved).arg(megabytes(bytes)),
                  QMessageBox::Discard | QMessageBox::Cancel, this);
  box.setObjectName(QStringLiteral("discardQuestion"));
  box.setInformativeText(unsaved == 1
                             ? tr("It is not saved: once discarded it cannot be recovered.")
                             : tr("They are not saved: once discarded they cannot be recovered."));
  box.setDefaultButton(QMessageBox::Cancel);
  auto* dontAsk = new QCheckBox(tr("Don't ask again"), &box);
  dontAsk->setObjectName(QStringLiteral("dontAskAgainBox"));
  dontAsk->setToolTip(tr("Until Cineflow is restarted"));
  box.setCheckBox(dontAsk);
  if (box.exec() != QMessageBox::Discard) {
    return false;
  }
  askBeforeDiscard_ = !dontAsk->isChecked();
  return true;
}

void VolumeReviewPanel::setGainDb(double gainDb) {
  view_->setGainDb(gainDb);
}

void VolumeReviewPanel::setDynamicRangeDb(double dynamicRangeDb) {
  view_->setDynamicRangeDb(dynamicRangeDb);
}

void VolumeReviewPanel::setColourMap(ColourMap map) {
  view_->setColourMap(map);
}

void VolumeReviewPanel::refresh() {
  const std::optional<std::uint64_t> previous = selectedId();
  const auto volumes = volumes_.volumes();
  const QSignalBlocker blocker(list_);
  // Rebuild only what changed: thumbnails cost a host copy each.
  std::vector<std::uint64_t> listed;
  for (int row = 0; row < list_->count(); ++row) {
    listed.push_back(list_->item(row)->data(kIdRole).toULongLong());
  }
  for (int row = list_->count() - 1; row >= 0; --row) {
    const std::uint64_t id = listed[static_cast<std::size_t>(row)];
    if (std::none_of(volumes.begin(), volumes.end(), [id](const auto& v) { return v.id == id; })) {
      delete list_->takeItem(row);
    }
  }
  for (const store::BufferedSummary& volume : volumes) {
    QListWidgetItem* item = nullptr;
    for (int row = 0; row < list_->count(); ++row) {
      if (list_->item(row)->data(kIdRole).toULongLong() == volume.id) {
        item = list_->item(row);
      }
    }
    if (item == nullptr) {
      item = new QListWidgetItem(list_);
      item->setData(kIdRole, QVariant::fromValue<qulonglong>(volume.id));
    }
    if (item->icon().isNull()) {  // made once the volume's copy into the store has completed
      const VolumeImages images = volumes_.buffered(volume.id);
      if (images.alongY) {
        item->setIcon(thumbnail(*images.alongY, view_->dynamicRangeDb()));
      }
    }
    const auto& info = volume.info;
    // The timestamps come from a steady clock with an arbitrary origin: show the sweep's duration.
    const double seconds =
        info.timestampNs.empty()
            ? 0.0
            : static_cast<double>(info.timestampNs.back() - info.timestampNs.front()) * 1e-9;
    // Two lines beside the thumbnail: which volume (numbers restart with each source, so the
    // time it came in tells two "volume 1" apart), then its frames, size and whether it is saved.
    item->setText(
        tr("%1 · %2\nseq %3–%4 · sweep %5 s · %6 · %7")
            .arg(volumes_.labelOf(volume))
            .arg(volumes_.originOf(volume.id).listedAt.toString(QStringLiteral("HH:mm:ss")))
            .arg(info.sequence.empty() ? 0 : info.sequence.front())
            .arg(info.sequence.empty() ? 0 : info.sequence.back())
            .arg(seconds, 0, 'f', 2)
            .arg(megabytes(volume.bytes))
            .arg(volume.saved
                     ? tr("saved as %1")
                           .arg(QFileInfo(QString::fromStdString(volume.savedPath)).fileName())
                     : tr("unsaved")));
    item->setToolTip(volume.saved ? QString::fromStdString(volume.savedPath) : tr("Not saved yet"));
  }
  const std::size_t capacity = volumes_.store().capacity();
  const std::size_t used = volumes_.store().used();
  capacity_->setRange(0, 1000);
  capacity_->setValue(capacity > 0 ? static_cast<int>(1000.0 * used / capacity) : 0);
  capacity_->setFormat(tr("%1 of %2 used · %n volume(s)", nullptr, static_cast<int>(volumes.size()))
                           .arg(megabytes(used), megabytes(capacity)));
  if (previous && !select(*previous)) {
    list_->setCurrentRow(list_->count() - 1);
  } else if (!previous && list_->count() > 0) {
    list_->setCurrentRow(list_->count() - 1);
  }
  updateButtons();
  showSelection();
}

void VolumeReviewPanel::showSelection() {
  const std::optional<std::uint64_t> id = selectedId();
  if (!id) {
    if (shownId_) {
      emit selectionChanged(false, 0);
    }
    clearSelection();
    return;
  }
  if (shownId_ != id || shown_.slices.empty()) {
    shown_ = volumes_.buffered(*id);
    shownId_ = id;
    if (!shown_.slices.empty()) {
      emit selectionChanged(true, *id);
    }
  }
  if (shown_.slices.empty()) {
    return;
  }
  slice_->setRange(0, static_cast<int>(shown_.slices.size()) - 1);
  const int y = std::clamp(slice_->value(), 0, static_cast<int>(shown_.slices.size()) - 1);
  view_->setFrame(shown_.slices[static_cast<std::size_t>(y)]);
  sliceLabel_->setText(
      tr("%1 / %2 · y %3 mm")
          .arg(y + 1)
          .arg(shown_.slices.size())
          .arg(shown_.info.elevationM[static_cast<std::size_t>(y)] * 1e3, 0, 'f', 2));
  if (mipsShownId_ != shownId_) {
    mips_->setImages(shown_);
    mipsShownId_ = shownId_;
    nameMeasurementViews();
  }
  updateButtons();
}

void VolumeReviewPanel::clearSelection() {
  shown_ = {};
  shownId_.reset();
  mipsShownId_.reset();
  sliceLabel_->clear();
  mips_->clear(list_->count() == 0 ? tr("No volume buffered: Buffer (B) keeps the newest one")
                                   : tr("No volume selected"));
  updateButtons();
}

void VolumeReviewPanel::updateButtons() {
  const bool selected = selectedId().has_value();
  saveButton_->setEnabled(selected);
  videoButton_->setEnabled(selected || isWritingVideo());
  dicomButton_->setEnabled(selected && !isWritingDicom());
  discardButton_->setEnabled(selected);
  saveAllButton_->setEnabled(volumes_.unsavedCount() > 0);
  discardAllButton_->setEnabled(list_->count() > 0);
}

}  // namespace cineflow::ui
