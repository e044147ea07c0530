#pragma once
// The live B-mode image: shows the newest frame handed to setFrame() in an OpenGL widget, with the
// physical aspect ratio kept (letterboxed inside margins that hold the rulers, scale bar and cursor
// readout) and depth increasing downward. Gain, dynamic range and the colour map are applied by the
// fragment shader, so changing them costs one repaint.
//
// Mouse: the wheel zooms (1x..16x) about the cursor. The view is a compositor of tools
// (view2d/tools/): a left-button press goes to the colour box (ColourBoxTool), the measurement
// shapes (ShapeTool, with a measuring or annotating tool chosen), the line profile
// (ProfileLineTool, Shift) and finally the pan (PanTool; a double-click shows the whole image
// again), the first that takes it; each draws its own overlay. The image rectangle stays put; zoom
// and pan choose what it shows.
//
// Display path: frames carrying host pixels are uploaded with glTexSubImage2D. Frames whose pixels
// stayed in the engine's cineloop (Frame::pixelsInCineloop, the CUDA backend) are copied from
// device memory into the texture through CUDA-OpenGL interop when the GL context shares the CUDA
// device (DeviceImageUpload), and through a host copy otherwise; displayPathChanged() says which.
//
// Frames are a mailbox, not a queue: setFrame() replaces any frame not yet painted, so a slow
// display skips frames instead of falling behind (docs/development.md, The pipeline).

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <QImage>
#include <QOpenGLWidget>
#include <QPointF>
#include <QRect>
#include <QString>

#include "common/colour_maps.hpp"
#include "common/display_geometry.hpp"
#include "common/image.hpp"
#include "measure/measurement.hpp"
#include "process/image_region.hpp"
#include "profile/stage_probe.hpp"
#include "view2d/depth_gain.hpp"
#include "view2d/flow_display.hpp"
#include "view2d/line_profile.hpp"
#include "view2d/tools/colour_box_tool.hpp"
#include "view2d/tools/pan_tool.hpp"
#include "view2d/tools/profile_line_tool.hpp"
#include "view2d/tools/shape_tool.hpp"

class QOpenGLPaintDevice;
class QPainter;

namespace cineflow::pipeline {
class Engine;
}

namespace cineflow::ui {

class ImageRenderer;
class DeviceImageUpload;
class MeasurementList;
struct ProfilerSnapshot;

// What the cursor points at: the physical position and the frame's value at the nearest pixel.
struct CursorReadout {
  PhysicalPoint position;
  int column = 0;  // image pixel (x index, z index)
  int row = 0;
  double db = 0.0;
  // An image with flow: the axial velocity (m/s, positive towards the probe) and the flow's power
  // (dB) there; empty where nothing was estimated.
  std::optional<double> velocity;
  std::optional<double> powerDb;
};

class ImageView : public QOpenGLWidget {
  Q_OBJECT

 public:
  static constexpr double kDefaultDynamicRangeDb = 60.0;
  static constexpr double kThinAspect = 3.0;  // setStretch()

  explicit ImageView(QWidget* parent = nullptr);
  ~ImageView() override;

  double gainDb() const { return gainDb_; }
  double dynamicRangeDb() const { return dynamicRangeDb_; }
  ColourMap colourMap() const { return colourMap_; }
  const FlowLook& flowLook() const { return flowLook_; }
  const DepthGain& depthGain() const { return depthGain_; }
  bool overlayVisible() const { return overlayVisible_; }
  bool compact() const { return compact_; }
  bool stretches() const { return stretch_; }
  bool ownLevel() const { return ownLevel_; }
  // Whether the view shows its "FROZEN" badge (acquisition stopped by Freeze, reviewing).
  bool isFrozen() const { return frozen_; }
  // The profiler overlay's panel (widget pixels; empty when it is off), what compositing it onto
  // the last frame took, and what drawing it for the last snapshot took (ms).
  QRectF profilerRect() const { return profilerRect_; }
  double profilerPaintMs() const { return profilerPaintMs_; }
  double profilerRenderMs() const { return profilerRenderMs_; }
  // The snapshot the panel shows (null when it is off).
  const std::shared_ptr<const ProfilerSnapshot>& profilerSnapshot() const { return profiler_; }
  // The line profile (line_profile.hpp) of the displayed image, recomputed for every new frame;
  // empty without a line.
  const LineProfile& lineProfile() const { return profileTool_.profile(); }
  bool hasProfileLine() const { return profileTool_.hasLine(); }
  // Frames painted so far (each new frame counts once, however often it is repainted).
  std::uint64_t framesDisplayed() const { return framesDisplayed_; }
  // The frame currently on screen (null before the first paint of a frame).
  const std::shared_ptr<const Image>& displayedFrame() const { return displayed_; }
  // Empty unless OpenGL could not be initialised; then the reason.
  const QString& renderingError() const { return renderingError_; }

  // The engine whose cineloop holds the pixels of frames marked pixelsInCineloop (null: none).
  // Chooses the display path (at once if the GL context exists, otherwise when it is created).
  // Must be reset to null before that engine is destroyed.
  void setLiveSource(const pipeline::Engine* engine);
  // Whether live frames go device-to-texture without a host copy.
  bool deviceUploadActive() const { return deviceUpload_ != nullptr; }
  // "CUDA-OpenGL interop on ..." or "host upload (why)".
  const QString& displayPath() const { return displayPath_; }
  // Time spent putting frames into the texture (host copy or device copy, and the upload), summed
  // over every frame so far: for the profiler and the display-path benchmark.
  double uploadMsTotal() const { return uploadMsTotal_; }
  std::uint64_t uploads() const { return uploads_; }
  // Host time spent in paintGL (upload, draw, overlays; not the GPU's share, nor the buffer swap),
  // summed over every paint so far: the profiler overlay's cost is the difference it makes.
  double paintMsTotal() const { return paintMsTotal_; }
  std::uint64_t paints() const { return paints_; }
  // The display copy per frame ("display" on trace track "gui", keyed by the frame's sequence
  // number): the profiler overlay's display row, and traces.
  profile::StageProbe& displayProbe() { return displayProbe_; }
  // The image texture as the GPU holds it, [z][x] (empty before the first frame). Makes the
  // context current; for tests and diagnostics.
  std::vector<float> textureContents();

  // Where the physical point (lateral x, depth z, metres) of the displayed image lands, in widget
  // coordinates (logical pixels; multiply by devicePixelRatioF() for framebuffer pixels), with the
  // current zoom and pan. Returns (-1, -1) while no frame is displayed.
  QPointF physicalToWidget(double xM, double zM) const;
  // The inverse: the physical point under a widget position; empty while no frame is displayed.
  std::optional<PhysicalPoint> widgetToPhysical(QPointF widgetPos) const;
  // The letterboxed image rectangle in framebuffer (device) pixels; empty before the first frame.
  // Zoom and pan do not move it.
  QRect imageRectInFramebuffer() const;

  double zoom() const { return window_.zoom; }
  const ViewWindow& viewWindow() const { return window_; }
  // Zooms to `factor` (clamped to 1..16) keeping the image point under `anchor` (widget
  // coordinates) in place, as far as the image edges allow.
  void setZoom(double factor, QPointF anchor);
  // Back to the whole image (zoom 1, no pan).
  void resetView();
  // Moves what the zoomed view shows by `delta` framebuffer pixels, as far as the image edges
  // allow.
  void panBy(QPointF delta);
  // The letterboxed image rectangle in widget (logical) coordinates.
  QRectF imageRectInWidget() const;
  // Whether the displayed image has flow and it is shown (the colour box and bar with it).
  bool showsFlow() const;

  // The frame's value at the image pixel under a widget position; empty outside the image.
  std::optional<CursorReadout> readoutAt(QPointF widgetPos) const;
  std::optional<double> valueAt(QPointF widgetPos) const;
  // The readout for the last cursor position over the image ("x .. mm   z .. mm   .. dB"), as
  // drawn in the overlay; empty when the cursor is elsewhere.
  QString readoutText() const;
  // The scale bar's filled rectangle in widget coordinates; empty before the first frame.
  QRect scaleBarRect() const;

  QSize minimumSizeHint() const override { return {320, 240}; }

  // Measurements: the list this view adds to and draws from (null: none), under `viewName` (the
  // image's name in the list, e.g. "Live"). Each is drawn while its frame is on screen.
  void setMeasurements(MeasurementList* list, const QString& viewName);
  const QString& measurementViewName() const { return shapeTool_.viewName(); }
  // Renames the image this view shows (a reviewed volume's slice view, when another volume is
  // selected): new measurements go under this name, and those of this name are drawn.
  void setMeasurementViewName(const QString& viewName) {
    shapeTool_.setViewName(viewName);
    update();
  }
  MeasureTool measureTool() const { return shapeTool_.tool(); }
  // Asks for an annotation's text (Text: required, Arrow: may be empty); by default a dialog.
  // Returns empty to cancel a Text label.
  void setTextPrompt(std::function<QString(MeasureTool)> prompt) {
    shapeTool_.setTextPrompt(std::move(prompt));
  }
  // The displayed frame's dB pixels in host memory (copied back from the cineloop when they stayed
  // on the device); empty when there is none or it was overwritten since it was shown.
  std::span<const float> displayedHostPixels();
  // One layer of it (process::ImageLayer); empty when the image has no such layer.
  std::span<const float> displayedHostLayer(int layer);

 public slots:
  void setFrame(std::shared_ptr<const Image> frame);
  void setGainDb(double gainDb);
  void setDynamicRangeDb(double dynamicRangeDb);  // clamped to >= 1 dB
  void setColourMap(cineflow::ui::ColourMap map);
  // How an image's flow layers are shown (flow_display.hpp); images without flow ignore it.
  void setFlowLook(const cineflow::ui::FlowLook& look);
  // Time-gain compensation (depth_gain.hpp), added at each row's depth as shown.
  void setDepthGain(const cineflow::ui::DepthGain& gain);
  // The colour box in effect (metres; empty: the whole image), drawn while flow is shown. With
  // no tool chosen, a left-button drag inside it moves it and one on its edge (or, for the whole
  // image, on the image's edge) resizes it; colourBoxChanged() says where it was let go.
  void setColourBox(const cineflow::process::ColourBox& box);
  void setOverlayVisible(bool visible);
  // A compact view (a MIP panel): no rulers, only the scale bar under the image, so a small
  // panel's pixels go to the image.
  void setCompact(bool compact);
  // Stretch (a MIP panel's option): a thin image (one side more than kThinAspect times the other:
  // a few mm of sweep across 40 mm) fills the view, each axis scaled on its own, instead of being
  // a strip; other images, and every image with it off, keep their physical proportions.
  void setStretch(bool stretch);
  // Own level (the MIP and volume views): the white level follows each frame's own echo levels
  // (suggestGainDb of its pixels) shifted by the relative gain, instead of setGainDb()'s absolute
  // level: a projection (brighter than a B-scan) or a volume of another modality than the live
  // source's is shown at its own levels.
  void setOwnLevel(bool own);
  // In own-level mode: the operator's gain relative to the suggested level (DisplayControls::
  // relativeGainDb, dB; positive brightens).
  void setRelativeGainDb(double db);
  void setFrozen(bool frozen);
  // The line profile: Shift + drag draws a segment across the image (plain drag still pans),
  // Shift + double-click removes it. With the axial profile on, the segment follows the cursor
  // down the whole depth instead.
  void setProfileLine(cineflow::ui::PhysicalPoint from, cineflow::ui::PhysicalPoint to);
  void clearProfileLine();
  void setAxialProfile(bool enabled);
  // Shows the profiler overlay (profiler_overlay.hpp) from `snapshot`; null hides it.
  void setProfiler(std::shared_ptr<const cineflow::ui::ProfilerSnapshot> snapshot);
  // The tool a left-button drag uses (None: pan); drops any shape half drawn.
  void setMeasureTool(cineflow::ui::MeasureTool tool);

 signals:
  void frameDisplayed(quint64 sequence);
  void renderingFailed(const QString& reason);
  // The display path was chosen or changed (the interop failed and the view fell back).
  void displayPathChanged(bool deviceUpload, const QString& description);
  // A measurement or annotation was added to the list (its id).
  void measurementAdded(int id);
  // Drawing started with a tool (on the live image the window then freezes, as a scanner does).
  void measuringStarted();
  // The operator moved or resized the colour box (metres, within the image).
  void colourBoxChanged(const cineflow::process::ColourBox& box);

 protected:
  void initializeGL() override;
  void paintGL() override;  // timed: paintFrame()
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  // Deletes the GL objects while their context still exists (house style rule 7,
  // docs/development.md).
  void onContextAboutToBeDestroyed();
  // Where the profiler panel may go (widget pixels): clear of the rulers.
  QRectF profilerArea() const;
  void paintFrame();
  void drawOverlay();
  void renderProfiler();
  // Picks the interop upload when the live source's backend and the context allow it.
  void chooseDisplayPath();
  void setDisplayPath(bool deviceUpload, const QString& description);
  // Puts displayed_ into the texture, through whichever path its pixels need.
  void uploadDisplayed();  // timed
  void uploadDisplayedFrame();
  bool uploadFromCineloop();

  std::unique_ptr<ImageRenderer> renderer_;
  std::unique_ptr<DeviceImageUpload> deviceUpload_;  // after renderer_: destroyed before it
  const pipeline::Engine* liveSource_ = nullptr;
  QString displayPath_;
  // The overlay paints straight into the bound framebuffer through this rather than through the
  // widget, because QWidget::grab() redirects painters opened on the widget to its pixmap.
  std::unique_ptr<QOpenGLPaintDevice> overlayDevice_;
  std::shared_ptr<const Image> pending_;  // arrived, not yet uploaded
  std::shared_ptr<const Image>
      displayed_;  // in the texture (kept to re-upload after a context loss)
  double gainDb_ = 0.0;
  double dynamicRangeDb_ = kDefaultDynamicRangeDb;
  ColourMap colourMap_ = ColourMap::Grey;
  FlowLook flowLook_;
  DepthGain depthGain_;
  bool overlayVisible_ = true;
  bool compact_ = false;
  bool stretch_ = false;
  bool ownLevel_ = false;
  double relativeGainDb_ = 0.0;
  double ownWhiteDb_ = 0.0;  // the suggested white level of the displayed frame (own level)
  bool frozen_ = false;
  std::shared_ptr<const ProfilerSnapshot> profiler_;
  QImage profilerImage_;  // the panel drawn for profiler_ at profilerImageSize_
  QSize profilerImageSize_;
  QImage profilerScratch_;  // view-sized, transparent but for the panel at profilerPixels_
  QRect profilerPixels_;
  QRectF profilerRect_;
  double profilerPaintMs_ = 0;
  double profilerRenderMs_ = 0;
  std::vector<float> hostPixels_;  // host copy when the pixels stayed on the device
  std::uint64_t hostPixelsSequence_ = ~std::uint64_t{0};  // the frame hostPixels_ holds
  // The tools, in the order a press is offered to them (tools_); each paints its overlay.
  ColourBoxTool colourBoxTool_{*this};
  ShapeTool shapeTool_{*this};
  ProfileLineTool profileTool_{*this};
  PanTool panTool_{*this};
  std::array<ViewTool*, 4> tools_{&colourBoxTool_, &shapeTool_, &profileTool_, &panTool_};
  ViewTool* dragging_ = nullptr;  // the tool that took the left button's press, until release
  ViewWindow window_;
  std::optional<QPointF> cursor_;  // widget coordinates, while over the widget
  std::uint64_t framesDisplayed_ = 0;
  double uploadMsTotal_ = 0.0;
  double paintMsTotal_ = 0.0;
  std::uint64_t paints_ = 0;
  profile::StageProbe displayProbe_{"display", "gui"};
  std::uint64_t uploads_ = 0;
  QString renderingError_;
};

}  // namespace cineflow::ui
