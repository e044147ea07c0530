#include "view3d/volume_3d_panel.hpp"

#include <algorithm>
#include <exception>
#include <vector>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTabWidget>
#include <QVBoxLayout>

#include "common/colour_maps.hpp"
#include "common/file_dialogs.hpp"
#include "view3d/opacity_curve_editor.hpp"
#include "view3d/turntable_recorder.hpp"
#include "view3d/volume_view.hpp"

namespace cineflow::ui {

namespace {

QSlider* percentSlider(int value, QWidget* parent) {
  auto* slider = new QSlider(Qt::Horizontal, parent);
  slider->setRange(0, 100);
  slider->setValue(value);
  return slider;
}

}  // namespace

Volume3dPanel::Volume3dPanel(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("volume3dPanel"));
  liveThrottle_ = new QTimer(this);
  liveThrottle_->setSingleShot(true);
  connect(liveThrottle_, &QTimer::timeout, this, [this] {
    if (showing() == Showing::Live) {
      sinceLiveShown_.start();
      showChosen();
    }
  });
  view_ = new VolumeView(this);
  connect(view_, &VolumeView::framesPerSecondChanged, this, &Volume3dPanel::framesPerSecondChanged);
  connect(view_, &VolumeView::renderingFailed, this, [this](const QString& message) {
    emit messageReady(tr("3-D view: %1").arg(message), true);
  });

  showing_ = new QComboBox(this);
  showing_->setObjectName(QStringLiteral("volume3dShowing"));
  showing_->addItems({tr("Live: the newest volume"), tr("Review: the selected volume")});
  connect(showing_, &QComboBox::currentIndexChanged, this, [this] {
    showChosen();
    if (showing() == Showing::Live) {
      emit liveChosen();  // the newest volume may have come by the device, not through live_
    }
  });
  mode_ = new QComboBox(this);
  mode_->setObjectName(QStringLiteral("volume3dMode"));
  mode_->addItems({tr("Maximum intensity"), tr("Volume rendering"), tr("Iso-surface")});
  connect(mode_, &QComboBox::currentIndexChanged, this, [this](int index) {
    view_->setMode(static_cast<VolumeRenderMode>(index));
    const bool composite = index == 1;
    curve_->setEnabled(composite);
    resetCurve_->setEnabled(composite);
    iso_->setEnabled(index == 2);
  });

  curve_ = new OpacityCurveEditor(this);
  connect(curve_, &OpacityCurveEditor::curveChanged, view_, &VolumeView::setOpacityCurve);
  resetCurve_ = new QPushButton(tr("Reset curve"), this);
  connect(resetCurve_, &QPushButton::clicked, this,
          [this] { curve_->setPoints(OpacityCurveEditor::defaultPoints()); });
  iso_ = percentSlider(70, this);
  iso_->setObjectName(QStringLiteral("volume3dIso"));
  iso_->setToolTip(tr("The iso-surface's display level"));
  connect(iso_, &QSlider::valueChanged, this,
          [this](int value) { view_->setIsoLevel(static_cast<float>(value) / 100.0f); });

  auto* clipBox = new QWidget(this);
  auto* clipForm = new QFormLayout(clipBox);
  const QString axes[3] = {tr("x"), tr("Depth"), tr("Elevation")};
  for (int axis = 0; axis < 3; ++axis) {
    auto* row = new QHBoxLayout;
    clip_[2 * axis] = percentSlider(0, clipBox);
    clip_[2 * axis + 1] = percentSlider(100, clipBox);
    clip_[2 * axis]->setObjectName(QStringLiteral("volume3dClipLow%1").arg(axis));
    clip_[2 * axis + 1]->setObjectName(QStringLiteral("volume3dClipHigh%1").arg(axis));
    for (QSlider* slider : {clip_[2 * axis], clip_[2 * axis + 1]}) {
      connect(slider, &QSlider::valueChanged, this, &Volume3dPanel::applyClip);
      row->addWidget(slider);
    }
    clipForm->addRow(axes[axis], row);
  }

  auto* sliceBox = new QWidget(this);
  auto* sliceRows = new QVBoxLayout(sliceBox);
  auto* sliceRow = new QHBoxLayout;
  showPlane_ = new QCheckBox(tr("Show"), sliceBox);
  showPlane_->setObjectName(QStringLiteral("volume3dShowPlane"));
  slice_ = new QSlider(Qt::Horizontal, sliceBox);
  slice_->setObjectName(QStringLiteral("volume3dSlice"));
  slice_->setToolTip(tr("The elevation slice the plane cuts"));
  slice_->setMinimumWidth(80);
  sliceLabel_ = new QLabel(sliceBox);
  sliceLabel_->setMinimumWidth(
      sliceLabel_->fontMetrics().horizontalAdvance(QStringLiteral("000/000")));
  auto* openSlice = new QPushButton(tr("Open in slice view"), sliceBox);
  openSlice->setObjectName(QStringLiteral("volume3dOpenSlice"));
  openSlice->setToolTip(
      tr("Show this slice in the Volumes dock's slice view, where it can be "
         "measured (a live volume is buffered first)"));
  sliceRow->addWidget(showPlane_);
  sliceRow->addWidget(slice_, 1);
  sliceRow->addWidget(sliceLabel_);
  sliceRows->addLayout(sliceRow);
  auto* openRow = new QHBoxLayout;
  openRow->addStretch(1);
  openRow->addWidget(openSlice);
  sliceRows->addLayout(openRow);
  const auto showPlane = [this] {
    sliceLabel_->setText(
        QStringLiteral("%1/%2").arg(slice_->value() + 1).arg(slice_->maximum() + 1));
    view_->setSlicePlane(showPlane_->isChecked() ? std::optional<int>(slice_->value())
                                                 : std::nullopt);
  };
  connect(showPlane_, &QCheckBox::toggled, this, showPlane);
  connect(slice_, &QSlider::valueChanged, this, [this, showPlane] {
    showPlane_->setChecked(true);  // moving the plane shows it
    showPlane();
  });
  connect(openSlice, &QPushButton::clicked, this, [this] {
    if (!view_->volume()) {
      emit messageReady(tr("No volume in the 3-D view"), true);
      return;
    }
    emit openSliceRequested(slice_->value());
  });

  auto* reset = new QPushButton(tr("Reset view"), this);
  reset->setToolTip(
      tr("Back to the view along elevation, unzoomed, unclipped (or double-click "
         "the view)"));
  connect(reset, &QPushButton::clicked, this, [this] {
    view_->resetView();
    for (int i = 0; i < 6; ++i) {
      clip_[i]->setValue(i % 2 == 0 ? 0 : 100);
    }
  });
  exportSize_ = new QComboBox(this);
  exportSize_->setObjectName(QStringLiteral("volume3dExportSize"));
  exportSize_->setToolTip(
      tr("The size of the PNG and of the turntable: as the view is shown, or a fixed size drawn "
         "apart from the view, with its camera"));
  exportSize_->addItem(tr("Export as shown"), QSize());
  for (const QSize size : kExportSizes) {
    exportSize_->addItem(tr("Export at %1 x %2").arg(size.width()).arg(size.height()), size);
  }
  auto* png = new QPushButton(tr("Save PNG…"), this);
  connect(png, &QPushButton::clicked, this, [this] {
    const QString path = askSaveFile(this, file_kinds::kExports, tr("Save the 3-D view"),
                                     QStringLiteral("volume_3d.png"), tr("PNG images (*.png)"));
    if (!path.isEmpty()) {
      const QString failed = savePng(path);
      emit messageReady(failed.isEmpty() ? tr("Saved %1").arg(path) : failed, !failed.isEmpty());
    }
  });
  auto* turntable = new QPushButton(tr("Turntable MP4…"), this);
  turntable->setObjectName(QStringLiteral("turntableButton"));
  turntable->setToolTip(tr("One full turn about the vertical axis, 6 s at 30 frames/s"));
  turntableProgress_ = new QProgressBar(this);
  turntableProgress_->setObjectName(QStringLiteral("turntableProgress"));
  turntableProgress_->setMaximumWidth(120);
  turntableProgress_->hide();
  turntable_ = new TurntableRecorder(*view_, this);
  connect(turntable, &QPushButton::clicked, this, [this, turntable] {
    if (turntable_->running()) {
      turntable_->cancel();
      return;
    }
    const QString path = askSaveFile(this, file_kinds::kExports, tr("Save a turntable video"),
                                     QStringLiteral("volume_3d.mp4"), tr("MP4 video (*.mp4)"));
    if (!path.isEmpty() && startTurntable(path)) {
      turntable->setText(tr("Cancel turntable"));
    }
  });
  connect(turntable_, &TurntableRecorder::progressed, this, [this](int done, int total) {
    turntableProgress_->setRange(0, total);
    turntableProgress_->setValue(done);
  });
  connect(turntable_, &TurntableRecorder::finished, this,
          [this, turntable](bool ok, const QString& message) {
            turntable->setText(tr("Turntable MP4…"));
            turntableProgress_->hide();
            emit messageReady(message, !ok);
            emit turntableFinished(ok, message);
          });

  // Show and Mode always in sight; the rest on tabs, so that the view keeps most of the dock.
  auto* form = new QFormLayout;
  form->addRow(tr("Show"), showing_);
  form->addRow(tr("Mode"), mode_);
  auto* look = new QWidget(this);
  auto* lookForm = new QFormLayout(look);
  auto* opacityRow = new QHBoxLayout;
  opacityRow->addWidget(curve_, 1);
  opacityRow->addWidget(resetCurve_, 0, Qt::AlignBottom);
  lookForm->addRow(tr("Curve"), opacityRow);
  lookForm->addRow(tr("Iso level"), iso_);
  auto* tabs = new QTabWidget(this);
  tabs->setObjectName(QStringLiteral("volume3dTabs"));
  tabs->setDocumentMode(true);
  tabs->addTab(look, tr("Opacity"));
  tabs->addTab(clipBox, tr("Clip"));
  tabs->addTab(sliceBox, tr("Slice"));
  // Two rows, so that the export size does not widen the side column: the actions, then the
  // size they export at and a turntable's progress.
  auto* buttons = new QGridLayout;
  buttons->addWidget(reset, 0, 0);
  buttons->addWidget(png, 0, 1);
  buttons->addWidget(turntable, 0, 2);
  buttons->addWidget(exportSize_, 1, 0, 1, 2);
  buttons->addWidget(turntableProgress_, 1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(view_, 1);
  layout->addLayout(form);
  layout->addWidget(tabs);
  layout->addLayout(buttons);
  mode_->setCurrentIndex(1);
  mode_->setCurrentIndex(0);  // maximum intensity, with the other modes' controls disabled
  view_->setOpacityCurve(curve_->table());
}

Volume3dPanel::Showing Volume3dPanel::showing() const {
  return showing_->currentIndex() == 0 ? Showing::Live : Showing::Review;
}

void Volume3dPanel::setLiveVolume(std::shared_ptr<const VolumeData> volume) {
  live_ = std::move(volume);
  if (showing() != Showing::Live) {
    return;
  }
  const qint64 interval = static_cast<qint64>(4.0 * view_->lastDrawMs());
  const qint64 waited = sinceLiveShown_.isValid() ? sinceLiveShown_.elapsed() : interval;
  if (live_ && waited < interval) {
    if (!liveThrottle_->isActive()) {
      liveThrottle_->start(static_cast<int>(interval - waited));
    }
    return;  // the timer shows the newest one then
  }
  sinceLiveShown_.start();
  showChosen();
}

void Volume3dPanel::setReviewVolume(std::shared_ptr<const VolumeData> volume) {
  review_ = std::move(volume);
  if (showing() == Showing::Review) {
    showChosen();
  }
}

void Volume3dPanel::showChosen() {
  const auto& chosen = showing() == Showing::Live ? live_ : review_;
  if (chosen) {
    view_->setVolume(chosen);
  } else {
    view_->clearVolume();
  }
  updateSliceRange();
}

void Volume3dPanel::updateSliceRange() {
  const int slices = view_->volume() ? view_->volume()->ny : 1;
  if (slice_->maximum() != slices - 1) {
    const QSignalBlocker quiet(slice_);
    slice_->setRange(0, std::max(0, slices - 1));
    slice_->setValue(slices / 2);
  }
  sliceLabel_->setText(QStringLiteral("%1/%2").arg(slice_->value() + 1).arg(slices));
  if (showPlane_->isChecked()) {
    view_->setSlicePlane(slice_->value());
  }
}

void Volume3dPanel::applyClip() {
  QVector3D low, high;
  for (int axis = 0; axis < 3; ++axis) {
    const float a = static_cast<float>(clip_[2 * axis]->value()) / 100.0f;
    const float b = static_cast<float>(clip_[2 * axis + 1]->value()) / 100.0f;
    low[axis] = std::min(a, b);
    high[axis] = std::max(a, b);
  }
  view_->setClipBox(low, high);
}

void Volume3dPanel::setExportSize(QSize size) {
  const int index = exportSize_->findData(size);
  exportSize_->setCurrentIndex(std::max(index, 0));
}

QSize Volume3dPanel::pngSize() const {
  const QSize chosen = exportSize_->currentData().toSize();
  return chosen.isEmpty() ? view_->framebufferSize() : chosen;
}

QSize Volume3dPanel::videoSize() const {
  const QSize size = pngSize();
  return {(size.width() + 1) & ~1, (size.height() + 1) & ~1};
}

QString Volume3dPanel::savePng(const QString& path) {
  QString error;
  const QImage image = view_->renderImage(pngSize(), &error);
  if (image.isNull()) {
    return tr("Cannot draw the 3-D view: %1").arg(error);
  }
  if (!image.save(path, "PNG")) {
    return tr("Cannot write %1 (the folder is not writable, or the disk is full)").arg(path);
  }
  return {};
}

bool Volume3dPanel::startTurntable(const QString& path, double seconds) {
  if (!turntable_->start(path, seconds, videoSize())) {
    return false;
  }
  turntableProgress_->setRange(0, 0);  // busy until the first frame is encoded
  turntableProgress_->show();
  return true;
}

}  // namespace cineflow::ui
