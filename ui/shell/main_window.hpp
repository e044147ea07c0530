#pragma once
// The operator's main window: the live B-mode image in the centre, display controls (gain,
// dynamic range) in a toolbar, the acquisition panel docked on the left, the cineloop review
// docked at the bottom, the engine's health (backend, rates, drops, device memory) in the status
// bar with the patient being scanned, and the File / Acquisition / View / Help menus. It owns the
// EngineController; nothing else in the GUI talks to the engine.
//
// Window geometry, dock layout and the acquisition and display choices persist between runs
// (app_settings.hpp): restored on construction, saved on close and by saveSettings().

#include <memory>
#include <vector>

#include <QByteArray>
#include <QMainWindow>
#include <QString>

#include "common/image.hpp"
#include "compute/backend.hpp"
#include "shell/presets.hpp"
#include "store/raw_recorder.hpp"

class QAction;
class QComboBox;
class QToolBar;
class QDockWidget;
class QLabel;

namespace cineflow::acquire {
class FrameSource;
}

namespace cineflow::ui {

class AcquisitionPanel;
class CurrentStudy;
class DepthGainControls;
class ImageView;
class TransportKeys;
class Volume3dPanel;
class CineloopPanel;
class DisplayControls;
class EngineController;
class MeasurementList;
class MeasurementsPanel;
class MipTriptych;
class ProfilerFeed;
class PacsUpload;
class NoticeBanner;
class RawRecording;
class StatusIndicators;
class TraceCapture;
class VolumeController;
class VolumeReviewPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // Creates the backend; throws (with the reason) when the requested backend is unavailable.
  explicit MainWindow(compute::BackendRequest backend, QWidget* parent = nullptr);
  ~MainWindow() override;  // stops acquisition before any widget goes away

  // Opens a source ("sim", "oct-sim", a recording, "plugin:...", "zmq:...") in the background
  // and, if `autoStart`, acquires once open.
  void openSource(const QString& spec, bool autoStart = true);
  // Errors always go to the status bar; with interactive errors (the default) also to a
  // non-modal message box. Screenshot runs and tests turn the boxes off.
  void setInteractiveErrors(bool enabled) { interactiveErrors_ = enabled; }
  // The most recent error shown; empty if none.
  const QString& lastError() const { return lastError_; }

  EngineController& controller() { return *controller_; }
  // Acquisition > Record without its file dialog (whose file types choose the compression and
  // its blocks): starts recording the open source into `path` (a new file). Returns "" or why
  // not, also shown in the status bar.
  QString startRecording(const QString& path, store::RecordCodec codec = {});
  // Ends the recording (as unchecking Record does) and says what it holds.
  void stopRecording();
  RawRecording& recording() { return *recording_; }
  ImageView& view() { return *view_; }
  DisplayControls& displayControls() { return *displayControls_; }
  AcquisitionPanel& acquisitionPanel() { return *acquisitionPanel_; }
  CineloopPanel& cineloopPanel() { return *cineloopPanel_; }
  QDockWidget& cineloopDock() { return *cineloopDock_; }
  StatusIndicators& statusIndicators() { return *statusIndicators_; }
  TraceCapture& traceCapture() { return *traceCapture_; }
  VolumeController& volumes() { return *volumes_; }
  VolumeReviewPanel& volumeReviewPanel() { return *volumePanel_; }
  QDockWidget& volumeDock() { return *volumeDock_; }
  MipTriptych& liveMips() { return *liveMips_; }
  MeasurementList& measurements() { return *measurements_; }
  MeasurementsPanel& measurementsPanel() { return *measurementsPanel_; }
  // The patient and study being scanned (File > Patient and study…), which exports carry.
  CurrentStudy& study() { return *study_; }
  // Applies `preset` as the toolbar's picker does; returns "" or why the imaging part was refused
  // (also shown in the status bar).
  QString applyPreset(const Preset& preset);
  // Saves every unsaved volume into `folder` (as Save all), then closes the window once they are
  // all saved; stays open with the reason when one cannot be. The quit prompt's Save all.
  void saveAllThenQuit(const QString& folder);
  // The display and the open source's modality section in effect, as a preset called `name`.
  Preset capturePreset(const QString& name) const;
  const std::vector<Preset>& presets() const { return presets_; }
  // Saves what is in effect now as the operator's preset `name`, as Save as preset… does once the
  // operator named it (an own preset of that name is replaced without asking), and selects it in
  // the picker. Returns "" or why not (also shown as an error: lastError()).
  QString savePreset(const QString& name);
  // Removes the operator's own preset `name`, as Delete preset… does once the operator agreed.
  // Returns "" or why not (also shown as an error).
  QString deletePreset(const QString& name);
  QDockWidget& measurementsDock() { return *measurementsDock_; }

  // Writes the geometry, dock layout and choices to the settings store now.
  void saveSettings() const;

 public slots:
  // Acquiring: stops and switches to cineloop review (the newest kept frame on screen, the view
  // marked FROZEN). Frozen: acquires again. F and the toolbar's Freeze toggle it.
  void freeze();

 signals:
  void errorShown(const QString& message);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  // main_window_menus.cpp
  void createActions();
  void createMenus();
  // main_window.cpp
  void createToolBar();
  // Gain, dynamic range and colour map of `view` follow the toolbar's display controls.
  // `view` follows the toolbar's display controls; with `ownLevel` (the volume views) at its own
  // level moved by the relative gain (ImageView::setOwnLevel).
  void followDisplayControls(ImageView& view, bool ownLevel = false);
  void createDocks();
  void createStatusBar();
  void createRecording();  // main_window_recording.cpp
  // main_window_study.cpp: File > Patient and study…, and the patient in the status bar.
  void createStudy();
  void editStudy();
  // main_window_pacs.cpp: File > Send to PACS… and PACS settings….
  void createPacs();
  void editPacsSettings();
  void chooseFilesForPacs();
  void connectController();
  void restoreSettings();
  // Once shown: a window saved larger than this screen is fitted to it, and a saved layout that
  // leaves the image less than a third of the window either way (docks sized for a larger
  // screen) gives way to the default layout, saying so.
  void fitSavedLayout();
  bool layoutFitted_ = false;
  // main_window_volumes.cpp
  void createVolumeDocks();
  void refreshLiveMip();
  void refreshVolume3d();  // the 3-D view's live volume, when its dock shows
  // The 3-D view's slice plane into the Volumes dock's slice view (a live volume buffered first).
  void openVolumeSlice(int slice);
  // The volume docks only for a source that makes volumes (null: none).
  void showVolumeDocksFor(const acquire::FrameSource* source);
  // main_window_measure.cpp: the Measurements dock (tabbed with the acquisition panel), the
  // Measure menu, and every image view measuring into one list.
  void createMeasurementDock();
  // The time-gain compensation sliders' dock (main_window_depth_gain.cpp), feeding the live view
  // and the cineloop's exports.
  void createDepthGainDock();
  void addMeasureMenu();
  // The image name the live image's measurements move to when acquisition starts again.
  QString earlierCineloopView() const;
  // main_window_presets.cpp: the toolbar's preset picker, Save as preset… and Delete preset….
  void createPresetPicker(QToolBar& toolBar);
  void reloadPresets();
  void listPresets();  // those that fit the open source
  void selectPreset(const QString& name);
  // The neutral display in effect (gain, dynamic range, colour map, depth gain) into `preset`: what
  // every saved preset holds, whatever the source.
  void captureDisplay(Preset& preset) const;
  void askSavePreset();            // Save as preset…: the name, then savePreset()
  void askDeletePreset();          // Delete preset…: which, whether, then deletePreset()
  QString sourceModality() const;  // the open source's (ModalityUi::name()); empty: none
  // Whether closing may go on: asks first when buffered volumes are unsaved (interactive only).
  // Closing with unsaved volumes asks: Save all, then quit (a folder, then the saves, then the
  // window closes once every volume is saved, or stays with the reason), Quit without saving, or
  // Cancel. False while the window is to stay open.
  bool confirmUnsavedVolumes();
  void onSavingChanged(int pending);
  void onFrameReady(const std::shared_ptr<const Image>& frame);
  void onRunningChanged(bool running);
  void onOpenProgress(double fraction, const QString& what);
  void onError(const QString& message);
  void showMessage(const QString& text, bool isError);
  // A passing remark: the status bar's message for kPassingMessageMs, then cleared (unless
  // another message replaced it).
  void showPassingMessage(const QString& text);
  static constexpr int kPassingMessageMs = 10'000;
  // The run and freeze actions, the view's FROZEN badge and the status bar's acquisition state
  // from the engine's real state (also after a failed open, which leaves the old source running).
  void updateAcquisitionState();

  std::unique_ptr<EngineController> controller_;
  std::unique_ptr<VolumeController> volumes_;  // after controller_: destroyed before it
  ImageView* view_ = nullptr;
  DisplayControls* displayControls_ = nullptr;
  DepthGainControls* depthGainControls_ = nullptr;
  QDockWidget* depthGainDock_ = nullptr;
  AcquisitionPanel* acquisitionPanel_ = nullptr;
  CineloopPanel* cineloopPanel_ = nullptr;
  MeasurementList* measurements_ = nullptr;
  MeasurementsPanel* measurementsPanel_ = nullptr;
  QDockWidget* measurementsDock_ = nullptr;
  QComboBox* presetBox_ = nullptr;
  QAction* savePresetAction_ = nullptr;
  QAction* deletePresetAction_ = nullptr;   // on while the operator has presets of their own
  TransportKeys* transportKeys_ = nullptr;  // shell/transport_keys.hpp
  std::vector<Preset> presets_;
  QDockWidget* acquisitionDock_ = nullptr;
  QDockWidget* cineloopDock_ = nullptr;
  StatusIndicators* statusIndicators_ = nullptr;
  ProfilerFeed* profilerFeed_ = nullptr;
  TraceCapture* traceCapture_ = nullptr;
  RawRecording* recording_ = nullptr;
  CurrentStudy* study_ = nullptr;
  QAction* studyAction_ = nullptr;
  QLabel* studyLabel_ = nullptr;  // "Smith^John · ID 12345", or "No patient"
  PacsUpload* pacsUpload_ = nullptr;
  QAction* sendToPacsAction_ = nullptr;
  QAction* pacsSettingsAction_ = nullptr;
  QAction* recordAction_ = nullptr;
  QLabel* recordLabel_ = nullptr;  // "REC 123 frames · 1.6x smaller" while recording
  QAction* recordTraceAction_ = nullptr;
  QAction* profilerAction_ = nullptr;
  QAction* axialProfileAction_ = nullptr;
  QAction* clearProfileAction_ = nullptr;
  VolumeReviewPanel* volumePanel_ = nullptr;
  QDockWidget* volumeDock_ = nullptr;
  MipTriptych* liveMips_ = nullptr;
  QDockWidget* liveMipDock_ = nullptr;
  Volume3dPanel* volume3d_ = nullptr;
  QDockWidget* volume3dDock_ = nullptr;
  QLabel* volume3dRate_ = nullptr;  // "3-D 42 frames/s" while the 3-D view draws
  QByteArray defaultLayout_;        // saveState() before the stored layout was restored
  QLabel* messageLabel_ = nullptr;
  NoticeBanner* notice_ = nullptr;      // over the image: what the status line may cut off
  QLabel* acquisitionState_ = nullptr;  // "Live", "Frozen" or "Stopped"

  QAction* openFileAction_ = nullptr;
  QAction* openVolumeAction_ = nullptr;
  QAction* labSourceAction_ = nullptr;
  QAction* quitAction_ = nullptr;
  QAction* runAction_ = nullptr;
  QAction* freezeAction_ = nullptr;
  QAction* fullScreenAction_ = nullptr;
  QAction* aboutAction_ = nullptr;

  bool interactiveErrors_ = true;
  bool quitAfterSaving_ = false;  // Save all, then quit: under way
  bool frozen_ = false;           // stopped by Freeze (reviewing), not by Stop
  bool autoGainPending_ = true;   // the gain from each open source's first frame
  QString lastError_;
  // What came with the source just opened (followed after its picture changed, a recording that
  // ended with the previous one), said with "Source:" and again with the "Acquiring:" that follows.
  QString sourceNote_;
};

}  // namespace cineflow::ui
