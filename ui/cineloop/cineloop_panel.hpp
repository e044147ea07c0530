#pragma once
// CineloopPanel: review of the last M frames kept by the engine's cineloop (docs/development.md,
// The pipeline). While acquiring, the timeline follows the newest frame and the controls are
// disabled; when frozen or stopped, the operator plays, pauses, steps and scrubs through the kept
// frames (sequence numbers and timestamps on the timeline), sets the playback speed, and exports
// the loop as PNG frames. It reads the cineloop through the engine's const reader API only (never
// blocks the engine).
//
// Keyboard: the panel registers no shortcut itself. The owner adds the actions below to its window
// (QWidget::addAction) and gives them shortcuts, conventionally:
//   stepBackAction()     Left     one frame older (pauses playback)
//   stepForwardAction()  Right    one frame newer (pauses playback)
//   playPauseAction()    P        toggles looping playback
// The actions are disabled while live or while the cineloop is empty.
//
// Export (cineloop_export_dialog.hpp) draws pictures as the display does: connect
// DisplayControls::gainChanged, dynamicRangeChanged and colourMapChanged to setGainDb(),
// setDynamicRangeDb() and setColourMap(), and the source's description to setRecording() (it
// names the exports). With setStudy(), exports carry the study being scanned: the DICOM fields
// start from it, HDF5 exports have its /study group. With setPacsUpload(), a DICOM export the
// operator asked to send is handed to it once written (export/pacs_upload.hpp).

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <QString>
#include <QTimer>
#include <QWidget>

#include "common/background_job.hpp"
#include "common/colour_maps.hpp"
#include "common/image.hpp"
#include "export/cineloop_export_dialog.hpp"
#include "pipeline/engine.hpp"
#include "study/current_study.hpp"

class QAction;
class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace cineflow::ui {

class MeasurementList;
class PacsUpload;

class CineloopPanel : public QWidget {
  Q_OBJECT

 public:
  explicit CineloopPanel(const pipeline::Engine& engine, QWidget* parent = nullptr);
  ~CineloopPanel() override;

  QAction* playPauseAction() const { return playPauseAction_; }
  QAction* stepBackAction() const { return stepBackAction_; }
  QAction* stepForwardAction() const { return stepForwardAction_; }

  // The request for an export to `target` (a folder to create for PNG, a file for HDF5) from what
  // the panel knows: the display's look for pictures, the engine's acquisition and processing
  // parameters and the recording's description for data.
  CineloopExportRequest exportRequest(CineloopExportFormat format, const QString& target,
                                      bool annotations = true) const;
  // Starts the export (cineloop_export.hpp) on a background thread, so the window stays live
  // meanwhile. Returns false (with a message) when an export is already running.
  // exportProgress() follows it; exportFinished() and messageReady() report the outcome.
  // Destroying the panel cancels it.
  bool startExport(const CineloopExportRequest& request);
  bool isExporting() const { return exportJob_.running(); }

  // State, for the owner and tests.
  bool isLive() const { return live_; }
  bool isPlaying() const { return playTimer_.isActive(); }
  int entryCount() const { return static_cast<int>(entries_.size()); }
  int currentIndex() const { return current_; }  // -1 when empty
  std::optional<std::uint64_t> currentSequence() const;
  double playbackSpeed() const;
  QSlider* timeline() const { return timeline_; }
  QString positionText() const;

 public slots:
  // live = acquiring: controls disabled, no frames emitted. Leaving live mode reloads the
  // cineloop's entries and selects the newest one.
  void setLive(bool live);
  // Reloads the entries (e.g. after a reconfiguration).
  void refresh();

  void setPlaying(bool playing);
  void togglePlayback();
  void stepForward();
  void stepBack();
  // Selects and emits entry `index` (0: oldest); clamped. Ignored while live.
  void selectIndex(int index);
  // Selects the entry of frame `sequence`; false when the cineloop no longer holds it (or live).
  bool selectSequence(std::uint64_t sequence);
  // One of 0.25, 0.5, 1, 2, 4 (the nearest is taken).
  void setPlaybackSpeed(double speed);
  void setGainDb(double gainDb) { gainDb_ = gainDb; }
  void setDynamicRangeDb(double dynamicRangeDb) { dynamicRangeDb_ = dynamicRangeDb; }
  void setColourMap(cineflow::ui::ColourMap map) { colourMap_ = map; }
  void setFlowLook(const cineflow::ui::FlowLook& look) { flowLook_ = look; }
  void setDepthGain(const cineflow::ui::DepthGain& gain) { depthGain_ = gain; }
  void setRecording(const QString& description) { recording_ = description; }
  // Where exports find the measurements and annotations of the live view's frames (null: none).
  void setMeasurements(const MeasurementList* list, const QString& view) {
    measurements_ = list;
    measurementView_ = view;
  }
  // The patient and study exports carry (null: none); it must outlive the panel.
  void setStudy(const CurrentStudy* study) { study_ = study; }
  // Where DICOM exports go to the PACS (null: the choice does nothing); it must outlive the panel.
  void setPacsUpload(PacsUpload* upload) { pacsUpload_ = upload; }

 signals:
  // The frame to display (review mode only).
  void frameSelected(std::shared_ptr<const cineflow::ui::Image> frame);
  // A non-fatal problem (export failed, ...), for the status bar.
  void messageReady(const QString& message, bool isError);
  void exportProgress(int framesDone, int framesTotal);
  void exportFinished(bool ok, const QString& message);

 private:
  void buildControls();
  void reloadEntries();
  int nearestIndex(std::uint64_t sequence) const;
  bool showIndex(int index);
  std::shared_ptr<Image> takeFreeFrame();
  void advancePlayback();
  int playbackIntervalMs(int fromIndex) const;
  void followLive();
  void updateControls();
  void updatePosition();
  void chooseExport();
  void finishExport(bool ok, const QString& message);

  const pipeline::Engine& engine_;
  std::vector<acquire::FrameHeader> entries_;
  const MeasurementList* measurements_ = nullptr;
  const CurrentStudy* study_ = nullptr;
  PacsUpload* pacsUpload_ = nullptr;
  QString pacsFile_;         // the running export's file, to send once written ("" for none)
  QString measurementView_;  // oldest first, as of the last reload
  int current_ = -1;
  bool live_ = false;
  double gainDb_ = 0.0;
  double dynamicRangeDb_ = 60.0;
  ColourMap colourMap_ = ColourMap::Grey;
  FlowLook flowLook_;
  DepthGain depthGain_;
  QString recording_;
  CineloopExportChoice lastExport_;       // the dialog's choices, offered again next time
  BackgroundJob exportJob_{"cf-export"};  // cancelled and waited for by the destructor

  QSlider* timeline_ = nullptr;
  QLabel* position_ = nullptr;
  QToolButton* stepBackButton_ = nullptr;
  QToolButton* playButton_ = nullptr;
  QToolButton* stepForwardButton_ = nullptr;
  QComboBox* speed_ = nullptr;
  QToolButton* exportButton_ = nullptr;
  QAction* playPauseAction_ = nullptr;
  QAction* stepBackAction_ = nullptr;
  QAction* stepForwardAction_ = nullptr;

  QTimer playTimer_;    // single shot, re-armed with the next frame's real interval
  QTimer followTimer_;  // while live: keeps the timeline on the newest frame
  // Frames handed out; one only the pool still owns is free to refill (no steady allocation).
  std::vector<std::shared_ptr<Image>> framePool_;
};

}  // namespace cineflow::ui
