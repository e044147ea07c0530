#pragma once
// VolumeController: the GUI's side of volumes (issue: buffer, review, save or discard). It owns
// the VolumeStore (buffered volumes on the compute device) and the VolumeSaver (its I/O thread),
// feeds the store from the engine's volume callback when auto-buffer is on, and turns what
// happens into signals on the GUI thread: a timer polls the store's notices, the saver's
// outcomes and the engine's newest volume.
//
// Every method must be called on the GUI thread. Destroy it before the EngineController it was
// given (its destructor waits for the saver and releases the engine's volume callback).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <QObject>
#include <QString>
#include <QTime>
#include <QTimer>

#include "bridge/engine_controller.hpp"
#include "common/image.hpp"
#include "store/volume_saver.hpp"
#include "store/volume_store.hpp"
#include "study/current_study.hpp"
#include "volumes/volume_data.hpp"

namespace cineflow::ui {

class MeasurementList;

// A volume copied to host memory for display: the slices and the three projections, each as a
// Frame the views can show (the projections' geometry names their own axes).
struct VolumeImages {
  process::VolumeInfo info;
  std::vector<std::shared_ptr<const Image>> slices;  // [ny], each [z][x]
  std::shared_ptr<const Image> alongY;               // [z][x]: through the slab
  std::shared_ptr<const Image> alongZ;               // [y][x]: en face (rows: elevation)
  std::shared_ptr<const Image> alongX;               // [y][z]: side view (columns: depth)
};

// Where a buffered volume came from, noted when the controller first sees it: the modality and
// the source as they were then, so that a volume saved after the operator switched sources is
// still named, labelled and described as its own.
struct VolumeOrigin {
  // "ultrasound", "oct", "received" (also of a volume opened from a file that says); empty when
  // not known.
  QString modality;
  QString source;                // the source's description, or the file a volume was opened from
  store::FileMetadata metadata;  // the acquisition's, or the opened file's
  bool known = false;  // false: opened from a file, or acquired before any source was open
  QTime listedAt;      // when it came into the store (buffered or opened), wall clock
  // The patient and study current when the volume was buffered, or its file's: a save writes it
  // as /study, even when another study is current by then.
  std::optional<store::StudyInfo> study;
};

class VolumeController : public QObject {
  Q_OBJECT

 public:
  // Reserves the default capacity (VolumeStore::suggestedCapacity) and installs the volume
  // callback on the (stopped) engine.
  explicit VolumeController(EngineController& engine, QObject* parent = nullptr);
  ~VolumeController() override;

  // What a save does with a file already at its path (save()).
  enum class ExistingFile { Refuse, Replace };

  store::VolumeStore& store() { return *store_; }
  const store::VolumeStore& store() const { return *store_; }
  std::vector<store::BufferedSummary> volumes() const { return store_->list(); }
  int unsavedCount() const;
  // The engine's number of the volume with store id `id`: the one the list, the file name
  // (volume_file_names.hpp) and every message show; nullopt when it is gone.
  std::optional<std::uint64_t> numberOf(std::uint64_t id) const;
  VolumeOrigin originOf(std::uint64_t id) const;
  // How the list names the volume: "Ultrasound volume 11", "OCT volume 11", "Volume 11 (from
  // <file>)"; its file's name before any free-name choice ("ultrasound_volume_000011.h5").
  QString labelOf(const store::BufferedSummary& volume) const;
  QString fileNameOf(const store::BufferedSummary& volume) const;
  bool isSaving() const { return saver_->pending() > 0; }
  // The saver's timing of each save (profiler overlay, traces).
  profile::StageProbe& saveProbe() { return saver_->probe(); }
  std::uint64_t latestVolumeNumber() const { return latestNumber_; }

  // Host copies for display; empty (info.shape.ny == 0) when the volume is gone or its copy is
  // still running (never waited for: volumesChanged() follows when it completes).
  VolumeImages buffered(std::uint64_t id) const;
  // The engine's newest complete volume's projections (no slices).
  VolumeImages latest() const;
  // The whole volume for the 3-D view: the engine's newest complete one, or buffered volume `id`;
  // null when there is none (or its copy is still running; never waited for).
  std::shared_ptr<VolumeData> latestVolume() const;
  std::shared_ptr<VolumeData> bufferedVolume(std::uint64_t id) const;
  // A volume's size, voxel size and number, without its voxels.
  static VolumeData describe(const process::VolumeInfo& info);

 public slots:
  // Buffers the engine's newest complete volume; false (and a message) when it cannot.
  bool bufferLatest();
  void setAutoBuffer(bool enabled);
  // Returns an empty string, or why the capacity was refused (the previous one stays).
  QString setCapacity(std::size_t bytes);
  // How saves compress the volume (default gzip level 4); the caller checks availability
  // (store::codecAvailable) before choosing a plugin codec.
  void setCompression(const store::Compression& compression) { compression_ = compression; }
  const store::Compression& compression() const { return compression_; }
  // Where the volume views' measurements are: a save records those of its volume as the file's
  // measurements_csv attribute.
  void setMeasurements(const MeasurementList* list) { measurements_ = list; }
  // The study being scanned, which volumes buffered from now on belong to (null: none); it must
  // outlive the controller.
  void setStudy(const CurrentStudy* study) { study_ = study; }
  // Queues a save; the outcome arrives through messageReady() and volumesChanged(). A file
  // already at `path` is replaced only with ExistingFile::Replace (the operator said yes);
  // otherwise the save fails, naming it.
  void save(std::uint64_t id, const QString& path, ExistingFile existing = ExistingFile::Refuse);
  // Saves every unsaved volume into `folder`, each under fileNameOf() or, when that is taken (a
  // file there, or a save still queued), the next free name: nothing is replaced.
  void saveAll(const QString& folder);
  bool discard(std::uint64_t id);
  // Queues the reading of a saved volume (cineflow.volume/1) on the saver's I/O thread; it joins
  // the store for review, listed as saved, and volumeOpened() follows; or a message says what is
  // wrong with the file or why it does not fit.
  void openFile(const QString& path);
  void discardAll();

 signals:
  void volumesChanged();  // buffered, saved, discarded
  void latestVolumeChanged(quint64 number);
  void autoBufferChanged(bool enabled);
  // I/O jobs (saves, opens) queued or running (0 when idle), and how far the running one is.
  void savingChanged(int pending);
  void saveProgress(int percent, quint64 volumeId);  // volumeId 0: opening a file
  void volumeOpened(quint64 id);
  void messageReady(const QString& message, bool isError);

 private:
  void poll();
  void announcePending();  // savingChanged() with the saver's jobs now
  // Gives every volume seen for the first time an origin: the current source's, or its file's
  // when it arrives already saved (opened); forgets those of volumes gone.
  void noteOrigins();
  VolumeOrigin describeSource() const;  // the open source with its settings now

  EngineController& engine_;
  std::unique_ptr<store::VolumeStore> store_;
  std::unique_ptr<store::VolumeSaver> saver_;
  store::Compression compression_{store::Codec::Gzip, 4};
  QTimer pollTimer_;
  std::uint64_t latestNumber_ = ~std::uint64_t{0};
  bool autoBufferShown_ = false;
  std::uint64_t lastVolumeCount_ = 0;
  std::size_t pendingShown_ = 0;
  int percentShown_ = -1;
  process::VolumeShape preparedShape_;  // of the store's spare entries
  std::size_t copyingShown_ = 0;
  const MeasurementList* measurements_ = nullptr;
  const CurrentStudy* study_ = nullptr;
  std::map<std::uint64_t, VolumeOrigin> origins_;  // by store id
  VolumeOrigin currentOrigin_;                     // what a volume seen next was acquired from
  std::map<QString, int> queuedPaths_;             // files promised to saves queued or running
};

}  // namespace cineflow::ui
