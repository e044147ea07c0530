#pragma once
// The live B-mode image: shows the newest frame handed to setFrame() in an OpenGL widget, with the
// physical aspect ratio kept (letterboxed) and depth increasing downward. Gain and dynamic range
// are applied by the fragment shader, so changing them costs one repaint.
//
// Frames are a mailbox, not a queue: setFrame() replaces any frame not yet painted, so a slow
// display skips frames instead of falling behind (DESIGN.md §3).

#include <cstdint>
#include <memory>

#include <QOpenGLWidget>
#include <QPointF>
#include <QRect>
#include <QString>

#include "frame.hpp"

namespace cineflow::ui {

class BmodeRenderer;

class BmodeView : public QOpenGLWidget {
  Q_OBJECT

 public:
  static constexpr double kDefaultDynamicRangeDb = 60.0;

  explicit BmodeView(QWidget* parent = nullptr);
  ~BmodeView() override;

  double gainDb() const { return gainDb_; }
  double dynamicRangeDb() const { return dynamicRangeDb_; }
  // Frames painted so far (each new frame counts once, however often it is repainted).
  std::uint64_t framesDisplayed() const { return framesDisplayed_; }
  // The frame currently on screen (null before the first paint of a frame).
  const std::shared_ptr<const Frame>& displayedFrame() const { return displayed_; }
  // Empty unless OpenGL could not be initialised; then the reason.
  const QString& renderingError() const { return renderingError_; }

  // Where the physical point (lateral x, depth z, metres) of the displayed image lands, in widget
  // coordinates (logical pixels; multiply by devicePixelRatioF() for framebuffer pixels).
  // Returns (-1, -1) while no frame is displayed.
  QPointF physicalToWidget(double xM, double zM) const;
  // The letterboxed image rectangle in framebuffer (device) pixels; empty before the first frame.
  QRect imageRectInFramebuffer() const;

  QSize minimumSizeHint() const override { return {320, 240}; }

 public slots:
  void setFrame(std::shared_ptr<const Frame> frame);
  void setGainDb(double gainDb);
  void setDynamicRangeDb(double dynamicRangeDb);  // clamped to >= 1 dB

 signals:
  void frameDisplayed(quint64 sequence);
  void renderingFailed(const QString& reason);

 protected:
  void initializeGL() override;
  void paintGL() override;

 private:
  // Deletes the GL objects while their context still exists (DESIGN.md §6 rule 7).
  void onContextAboutToBeDestroyed();

  std::unique_ptr<BmodeRenderer> renderer_;
  std::shared_ptr<const Frame> pending_;  // arrived, not yet uploaded
  std::shared_ptr<const Frame>
      displayed_;  // in the texture (kept to re-upload after a context loss)
  double gainDb_ = 0.0;
  double dynamicRangeDb_ = kDefaultDynamicRangeDb;
  std::uint64_t framesDisplayed_ = 0;
  QString renderingError_;
};

}  // namespace cineflow::ui
