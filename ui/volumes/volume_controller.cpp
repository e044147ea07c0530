#include "volumes/volume_controller.hpp"

#include <algorithm>

#include <QDir>
#include <QFileInfo>

#include "measure/measurement_list.hpp"
#include "volumes/volume_file_names.hpp"

namespace cineflow::ui {
namespace {

constexpr int kPollMs = 200;

// "oct" -> "OCT", "ultrasound" -> "Ultrasound": short modality names are acronyms.
QString modalityTitle(const QString& modality) {
  return modality.size() <= 3 ? modality.toUpper() : modality.left(1).toUpper() + modality.mid(1);
}

// The key of a file promised to a queued save: absolute and clean, as freeVolumePath() makes them.
QString fileKey(const QString& path) {
  return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

std::shared_ptr<const Image> frameFrom(const compute::Backend& backend,
                                       compute::DeviceSpan<const float> pixels,
                                       const process::ImageGeometry& geometry,
                                       const acquire::FrameHeader& header) {
  auto frame = std::make_shared<Image>();
  frame->header = header;
  frame->geometry = geometry;
  frame->pixels.resize(pixels.size());
  backend.copyBlocking(frame->pixels.data(), pixels.data(), pixels.bytes());
  return frame;
}

// Host copies of a volume's slices and projections, with geometries naming their own axes.
VolumeImages imagesFrom(const compute::Backend& backend, const process::VolumeInfo& info,
                        const process::VolumeView& view, bool withSlices) {
  VolumeImages images;
  images.info = info;
  const process::ImageGeometry& slice = info.slice;
  const int ny = info.shape.ny;
  const double y0 = info.elevationM.empty() ? 0.0 : info.elevationM.front();
  double dy = ny > 1 ? (info.elevationM.back() - y0) / (ny - 1) : 0.0;
  if (!(dy > 0)) {
    dy = slice.dx;  // no elevation spacing known: square pixels
  }
  acquire::FrameHeader header;
  for (int y = 0; y < (withSlices ? ny : 0); ++y) {
    const auto index = static_cast<std::size_t>(y);
    header.sequence = info.sequence[index];
    header.timestampNs = info.timestampNs[index];
    header.slice = {y, info.elevationM[index]};
    images.slices.push_back(frameFrom(
        backend, view.volume.subspan(index * slice.pixels(), slice.pixels()), slice, header));
  }
  header = {};
  header.sequence = info.sequence.empty() ? 0 : info.sequence.back();
  images.alongY = frameFrom(backend, view.alongY, slice, header);
  const process::ImageGeometry enFace{slice.nx, ny, slice.x0, slice.dx, y0, dy};
  images.alongZ = frameFrom(backend, view.alongZ, enFace, header);
  const process::ImageGeometry side{slice.nz, ny, slice.z0, slice.dz, y0, dy};
  images.alongX = frameFrom(backend, view.alongX, side, header);
  return images;
}

// The elevation step of a volume's slices (the slice's dx when unknown: square voxels).
double elevationStep(const process::VolumeInfo& info) {
  const int ny = info.shape.ny;
  const double y0 = info.elevationM.empty() ? 0.0 : info.elevationM.front();
  const double dy =
      ny > 1 && !info.elevationM.empty() ? (info.elevationM.back() - y0) / (ny - 1) : 0.0;
  return dy > 0 ? dy : info.slice.dx;
}

std::shared_ptr<VolumeData> volumeFrom(const compute::Backend& backend,
                                       const process::VolumeInfo& info,
                                       const process::VolumeView& view) {
  auto data = std::make_shared<VolumeData>(VolumeController::describe(info));
  data->voxels.resize(view.volume.size());  // the GUI thread, once per volume shown
  backend.copyBlocking(data->voxels.data(), view.volume.data(), view.volume.bytes());
  return data;
}

}  // namespace

VolumeData VolumeController::describe(const process::VolumeInfo& info) {
  VolumeData data;
  const process::ImageGeometry& slice = info.slice;
  data.nx = slice.nx;
  data.nz = slice.nz;
  data.ny = info.shape.ny;
  data.voxelMm = QVector3D(static_cast<float>(slice.dx * 1e3), static_cast<float>(slice.dz * 1e3),
                           static_cast<float>(elevationStep(info) * 1e3));
  data.number = info.number;
  return data;
}

std::shared_ptr<VolumeData> VolumeController::latestVolume() const {
  const process::VolumeLock volume = engine_.engine().lockLatestVolume();
  if (!volume || !volume.done().query()) {
    return {};
  }
  return volumeFrom(engine_.engine().backend(), volume.info(), volume.view());
}

std::shared_ptr<VolumeData> VolumeController::bufferedVolume(std::uint64_t id) const {
  const auto access = store_->access(id);
  if (!access || !access.ready().query()) {
    return {};
  }
  return volumeFrom(engine_.engine().backend(), access.info(), access.view());
}

VolumeController::VolumeController(EngineController& engine, QObject* parent)
    : QObject(parent), engine_(engine) {
  compute::Backend& backend = engine_.backend();
  store_ = std::make_unique<store::VolumeStore>(backend);
  const QString refused = setCapacity(store::VolumeStore::suggestedCapacity(backend));
  if (!refused.isEmpty()) {
    emit messageReady(refused, true);
  }
  saver_ = std::make_unique<store::VolumeSaver>(backend, *store_);
  engine_.setVolumeCallback([store = store_.get()](const process::VolumeEndpoint& endpoint) {
    store->onVolume(endpoint);
  });
  // Volumes not yet seen were acquired with the source and settings in place until now.
  currentOrigin_ = describeSource();
  const auto sourceOrSettingsChanged = [this] {
    noteOrigins();
    currentOrigin_ = describeSource();
  };
  connect(&engine_, &EngineController::sourceChanged, this, sourceOrSettingsChanged);
  connect(&engine_, &EngineController::settingsChanged, this, sourceOrSettingsChanged);
  // The engine numbers volumes from 0 at each start: a new run's first volume may carry the number
  // of the last one shown, and must still be announced.
  const auto forgetLatest = [this] { latestNumber_ = ~std::uint64_t{0}; };
  connect(&engine_, &EngineController::sourceOpened, this, forgetLatest);
  connect(&engine_, &EngineController::runningChanged, this, [forgetLatest](bool running) {
    if (running) {
      forgetLatest();
    }
  });
  pollTimer_.setInterval(kPollMs);
  connect(&pollTimer_, &QTimer::timeout, this, &VolumeController::poll);
  pollTimer_.start();
}

VolumeController::~VolumeController() {
  pollTimer_.stop();
  saver_.reset();  // finishes the save in progress
  try {
    engine_.setVolumeCallback({});   // the store goes next; the engine is stopped by now
  } catch (const std::exception&) {  // still running: the engine's owner stops it first
  }
}

int VolumeController::unsavedCount() const {
  int unsaved = 0;
  for (const auto& volume : store_->list()) {
    unsaved += volume.saved ? 0 : 1;
  }
  return unsaved;
}

std::optional<std::uint64_t> VolumeController::numberOf(std::uint64_t id) const {
  for (const auto& volume : store_->list()) {
    if (volume.id == id) {
      return volume.info.number;
    }
  }
  return std::nullopt;
}

VolumeOrigin VolumeController::originOf(std::uint64_t id) const {
  const auto found = origins_.find(id);
  return found != origins_.end() ? found->second : VolumeOrigin{};
}

QString VolumeController::labelOf(const store::BufferedSummary& volume) const {
  const VolumeOrigin origin = originOf(volume.id);
  const std::uint64_t number = volume.info.number;
  if (origin.known && !origin.modality.isEmpty()) {
    return tr("%1 volume %2").arg(modalityTitle(origin.modality)).arg(number);
  }
  if (!origin.known && !origin.source.isEmpty()) {
    return tr("Volume %1 (from %2)").arg(number).arg(QFileInfo(origin.source).fileName());
  }
  return tr("Volume %1").arg(number);
}

QString VolumeController::fileNameOf(const store::BufferedSummary& volume) const {
  const VolumeOrigin origin = originOf(volume.id);
  return volumeFileName(origin.known ? origin.modality : QString(), volume.info.number);
}

VolumeOrigin VolumeController::describeSource() const {
  const acquire::FrameSource* source = engine_.engine().source();
  const auto settings = engine_.engine().settings();
  if (source == nullptr || settings == nullptr) {
    return {};
  }
  return {QString::fromLatin1(source->modality().name()),
          engine_.sourceDescription(),
          source->modality().describe(*source, *settings),
          true,
          QTime(),
          std::nullopt};
}

void VolumeController::noteOrigins() {
  const auto volumes = store_->list();
  std::erase_if(origins_, [&volumes](const auto& noted) {
    return std::none_of(volumes.begin(), volumes.end(),
                        [&noted](const auto& volume) { return volume.id == noted.first; });
  });
  for (const store::BufferedSummary& volume : volumes) {
    if (origins_.count(volume.id) == 0) {
      // Buffered volumes are seen before any save of theirs can be asked for: one that is
      // already saved was opened from its file.
      VolumeOrigin opened;
      opened.source = QString::fromStdString(volume.savedPath);
      VolumeOrigin acquired = currentOrigin_;
      acquired.study = studyOf(study_);
      VolumeOrigin& origin = origins_[volume.id] = volume.saved ? opened : acquired;
      origin.listedAt = QTime::currentTime();
    }
  }
}

VolumeImages VolumeController::buffered(std::uint64_t id) const {
  const store::VolumeStore::Access access = store_->access(id);
  if (!access || !access.ready().query()) {
    return {};  // gone, or its copy into the store is still running: ask again later
  }
  return imagesFrom(engine_.engine().backend(), access.info(), access.view(), true);
}

VolumeImages VolumeController::latest() const {
  const process::VolumeLock volume = engine_.engine().lockLatestVolume();
  // Never wait for the engine's endpoint work on the GUI thread: a volume whose MIPs are still
  // running is shown at a later poll.
  if (!volume || !volume.done().query()) {
    return {};
  }
  return imagesFrom(engine_.engine().backend(), volume.info(), volume.view(), false);
}

bool VolumeController::bufferLatest() {
  std::string why;
  try {
    const auto id = store_->bufferLatest(engine_.engine().lockLatestVolume(), why);
    if (!id) {
      emit messageReady(tr("Cannot buffer: %1").arg(QString::fromStdString(why)), true);
      return false;
    }
    noteOrigins();
    emit messageReady(tr("Buffered volume %1").arg(store_->access(*id).info().number), false);
  } catch (const std::exception& error) {
    emit messageReady(tr("Cannot buffer: %1").arg(QString::fromStdString(error.what())), true);
    return false;
  }
  emit volumesChanged();
  return true;
}

void VolumeController::setAutoBuffer(bool enabled) {
  if (enabled != store_->autoBuffer()) {
    store_->setAutoBuffer(enabled);
    autoBufferShown_ = enabled;
    emit autoBufferChanged(enabled);
  }
}

QString VolumeController::setCapacity(std::size_t bytes) {
  const std::string refused = store_->setCapacity(bytes);
  if (refused.empty()) {
    preparedShape_ = {};  // the next volume readies spares for the new capacity
    emit volumesChanged();
  }
  return QString::fromStdString(refused);
}

void VolumeController::save(std::uint64_t id, const QString& path, ExistingFile existing) {
  noteOrigins();
  // A volume opened from a file keeps its file's description; one without any (a file written
  // before volumes kept theirs) gets the open source's.
  const VolumeOrigin noted = originOf(id);
  const VolumeOrigin origin =
      noted.known || !noted.metadata.attributes.empty() ? noted : describeSource();
  store::SaveRequest request;
  request.id = id;
  request.path = path.toStdString();
  request.mayReplace = existing == ExistingFile::Replace;
  request.metadata = origin.metadata;
  request.metadata.study = noted.study;
  request.attributes["backend"] = engine_.backendDescription().toStdString();
  request.attributes["source"] = origin.source.toStdString();
  const std::optional<std::uint64_t> number = numberOf(id);
  if (measurements_ != nullptr && number) {
    std::vector<Measurement> marks;
    for (const Measurement& m : measurements_->all()) {
      if (belongsToVolume(m, *number)) {
        marks.push_back(m);
      }
    }
    if (!marks.empty()) {
      request.attributes["measurements_csv"] = measurementsCsv(marks).toStdString();
    }
  }
  request.compression = compression_;
  ++queuedPaths_[fileKey(path)];
  saver_->save(std::move(request));
  emit messageReady(tr("Saving volume to %1…").arg(path), false);
  announcePending();
}

void VolumeController::announcePending() {
  pendingShown_ = saver_->pending();
  emit savingChanged(static_cast<int>(pendingShown_));
}

void VolumeController::saveAll(const QString& folder) {
  noteOrigins();
  const auto queued = [this](const QString& path) { return queuedPaths_.count(path) > 0; };
  for (const auto& volume : store_->list()) {
    if (!volume.saved) {
      save(volume.id, freeVolumePath(folder, fileNameOf(volume), queued));
    }
  }
}

void VolumeController::openFile(const QString& path) {
  saver_->open(path.toStdString());
  emit messageReady(tr("Opening %1…").arg(path), false);
  announcePending();
}

bool VolumeController::discard(std::uint64_t id) {
  const std::string refused = store_->discard(id);
  if (!refused.empty()) {
    emit messageReady(tr("Cannot discard: %1").arg(QString::fromStdString(refused)), true);
    return false;
  }
  emit volumesChanged();
  return true;
}

void VolumeController::discardAll() {
  for (const auto& volume : store_->list()) {
    discard(volume.id);
  }
}

void VolumeController::poll() {
  noteOrigins();
  if (const std::string notice = store_->takeNotice(); !notice.empty()) {
    emit messageReady(QString::fromStdString(notice), true);
  }
  if (autoBufferShown_ != store_->autoBuffer()) {
    autoBufferShown_ = store_->autoBuffer();
    emit autoBufferChanged(autoBufferShown_);
  }
  bool changed = false;
  std::vector<std::uint64_t> opened;
  for (const store::SaveOutcome& outcome : saver_->takeOutcomes()) {
    emit messageReady(QString::fromStdString(outcome.message), !outcome.ok);
    if (outcome.opened && outcome.ok) {
      opened.push_back(outcome.id);
      // Its file's study, which a save of it writes again.
      VolumeOrigin origin;
      origin.source = QString::fromStdString(outcome.path.string());
      origin.study = outcome.study;
      // Its file's description of the acquisition, which a save or an export writes again.
      origin.metadata = outcome.metadata;
      if (const auto found = outcome.metadata.attributes.find("modality");
          found != outcome.metadata.attributes.end()) {
        if (const auto* name = std::get_if<std::string>(&found->second)) {
          origin.modality = QString::fromStdString(*name);
        }
      }
      origins_[outcome.id] = origin;
    }
    if (!outcome.opened) {
      const auto queued = queuedPaths_.find(fileKey(QString::fromStdString(outcome.path.string())));
      if (queued != queuedPaths_.end() && --queued->second == 0) {
        queuedPaths_.erase(queued);
      }
    }
    changed = true;
  }
  if (saver_->pending() != pendingShown_) {
    announcePending();
  }
  const store::SaveProgress progress = saver_->progress();
  const int percent = progress.active ? static_cast<int>(100.0 * progress.fraction) : -1;
  if (percent != percentShown_) {
    percentShown_ = percent;
    if (progress.active) {
      emit saveProgress(percent, progress.id);
    }
  }
  const auto volumes = store_->list();
  std::size_t copying = 0;  // buffered volumes whose copy into the store is still running
  for (const auto& volume : volumes) {
    const store::VolumeStore::Access access = store_->access(volume.id);
    copying += access && !access.ready().query() ? 1 : 0;
  }
  if (volumes.size() != lastVolumeCount_ || copying != copyingShown_) {
    lastVolumeCount_ = volumes.size();
    copyingShown_ = copying;
    changed = true;
  }
  if (changed) {
    emit volumesChanged();
  }
  for (const std::uint64_t id : opened) {
    emit volumeOpened(id);
  }
  // A new volume is announced once its MIPs have completed (checked, never waited for).
  const process::VolumeLock volume = engine_.engine().lockLatestVolume();
  if (volume && volume.info().number != latestNumber_ && volume.done().query()) {
    latestNumber_ = volume.info().number;
    if (volume.info().shape != preparedShape_) {
      // Spare entries here, on the GUI thread, so that auto-buffer allocates nothing on the
      // engine thread.
      store_->prepareFor(volume.info().shape);
      preparedShape_ = volume.info().shape;
    }
    emit latestVolumeChanged(latestNumber_);
  }
}

}  // namespace cineflow::ui
