#pragma once
// Volume3dPanel: the "3-D view" dock. A VolumeView of the newest complete volume (Live) or of the
// volume selected in the Volumes dock (Review), with its controls: the rendering mode (maximum
// intensity, volume rendering, iso-surface), the transfer function (the opacity curve, edited by
// its points: opacity_curve_editor.hpp), the iso level, the six clipping planes (a low and a high
// plane along x, depth and elevation), the slice plane, reset, a PNG of the view, and an MP4
// turntable, both at the export size chosen beside them ("As shown": the view's own; or a fixed
// size, drawn offscreen with the view's camera, the framing fitted to its aspect). Dynamic range
// and the colour map follow the display controls; the white level is each volume's own, moved by
// the gain slider's relative gain (MainWindow connects them: VolumeView::setOwnLevel).

#include <cstdint>
#include <memory>
#include <optional>

#include <QElapsedTimer>
#include <QSize>
#include <QTimer>
#include <QWidget>

#include "volumes/volume_data.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QSlider;
class QPushButton;

namespace cineflow::ui {

class OpacityCurveEditor;
class TurntableRecorder;
class VolumeView;

class Volume3dPanel : public QWidget {
  Q_OBJECT

 public:
  enum class Showing { Live, Review };

  explicit Volume3dPanel(QWidget* parent = nullptr);

  VolumeView& view() { return *view_; }
  Showing showing() const;
  // The newest live volume, shown when Live is chosen; the selected one, when Review is.
  void setLiveVolume(std::shared_ptr<const VolumeData> volume);
  void setReviewVolume(std::shared_ptr<const VolumeData> volume);

  // The exports' size: "As shown" (an empty size) or one of kExportSizes.
  static constexpr QSize kExportSizes[] = {{1280, 720}, {1920, 1080}, {1080, 1080}};
  void setExportSize(QSize size);
  // The size the PNG is written at; the turntable's has even sides (H.264 4:2:0).
  QSize pngSize() const;
  QSize videoSize() const;

  // Writes the view as a PNG at the export size; returns an empty string or the reason it failed.
  QString savePng(const QString& path);
  // Starts writing a turntable (one full turn about the vertical axis, `seconds` long at 30
  // frames/s, at videoSize()) as H.264 MP4 without holding the GUI thread (turntable_recorder.hpp),
  // its progress shown beside the button, which cancels it meanwhile; turntableFinished() says how
  // it ended. False, starting nothing, while one is written or with no volume shown
  // (turntableFinished() then says why).
  bool startTurntable(const QString& path, double seconds = 6.0);
  TurntableRecorder& turntable() { return *turntable_; }

 signals:
  void framesPerSecondChanged(double fps);
  // "Open in slice view": elevation slice `slice` of the volume shown, for the Volumes dock's
  // slice view (Live: the newest volume is buffered first).
  void openSliceRequested(int slice);
  // Live was chosen again: the owner shows the newest volume (it may have come by the device).
  void liveChosen();
  void messageReady(const QString& message, bool isError);
  void turntableFinished(bool ok, const QString& message);

 private:
  void applyClip();
  void showChosen();
  void updateSliceRange();

  VolumeView* view_ = nullptr;
  TurntableRecorder* turntable_ = nullptr;
  QProgressBar* turntableProgress_ = nullptr;
  QComboBox* showing_ = nullptr;
  QComboBox* mode_ = nullptr;
  QComboBox* exportSize_ = nullptr;
  OpacityCurveEditor* curve_ = nullptr;
  QPushButton* resetCurve_ = nullptr;
  QSlider* iso_ = nullptr;
  QSlider* clip_[6] = {};
  QCheckBox* showPlane_ = nullptr;
  QSlider* slice_ = nullptr;
  QLabel* sliceLabel_ =
      nullptr;  // x low, x high, depth low, depth high, elevation low, elevation high
  // Live volumes are shown at most as often as keeps the view's drawing under a quarter of the
  // GUI thread's time (4 x the last picture's time apart): on a slow OpenGL (software, no GPU)
  // the 2-D views keep their pace; a volume arriving sooner waits, and a newer one replaces it.
  QTimer* liveThrottle_ = nullptr;
  QElapsedTimer sinceLiveShown_;
  std::shared_ptr<const VolumeData> live_;
  std::shared_ptr<const VolumeData> review_;
};

}  // namespace cineflow::ui
