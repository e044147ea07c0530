#include "profiler/status_indicators.hpp"

#include <algorithm>

#include <QFontMetrics>
#include <QLabel>
#include <QStatusBar>
#include <QStringList>

#include "bridge/engine_controller.hpp"
#include "view2d/image_view.hpp"

namespace cineflow::ui {
namespace {

constexpr qint64 kDisplayRateWindowMs = 1000;
constexpr int kMemoryPollMs = 1000;
constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;
constexpr int kBackendFieldChars = 72;  // the backend field's width at most, in average characters
// Behind: the host ring more than half full (it holds a frame or two when processing keeps up),
// or an image this late after its acquisition.
constexpr double kBehindRingFraction = 0.5;
constexpr double kBehindLatencyMs = 500.0;
const QString kAlertStyle = QStringLiteral("color: #ff6060; font-weight: bold;");

QLabel* addLabel(QStatusBar& statusBar, const QString& objectName, const QString& text) {
  auto* label = new QLabel(text, &statusBar);
  label->setObjectName(objectName);
  statusBar.addPermanentWidget(label);
  return label;
}

}  // namespace

StatusIndicators::StatusIndicators(QStatusBar& statusBar, EngineController& controller,
                                   const ImageView& view)
    : QObject(&statusBar), controller_(controller), view_(view) {
  backendLabel_ = addLabel(statusBar, QStringLiteral("backendLabel"), QString());
  showBackend(view_.displayPath(), false);
  connect(&view_, &ImageView::frameDisplayed, this, [this] { onFrameDisplayed(); });
  connect(&view_, &ImageView::displayPathChanged, this,
          [this](bool deviceUpload, const QString& description) {
            showBackend(description, deviceUpload);
          });
  ratesLabel_ = addLabel(statusBar, QStringLiteral("statsLabel"), tr("stopped"));
  ratesLabel_->setToolTip(tr("Frames per second: acquired · processed · displayed"));
  droppedLabel_ = addLabel(statusBar, QStringLiteral("droppedLabel"), tr("dropped 0"));
  sourceLabel_ = addLabel(statusBar, QStringLiteral("sourceCountersLabel"), QString());
  sourceLabel_->hide();
  latencyLabel_ = addLabel(statusBar, QStringLiteral("latencyLabel"), QString());
  latencyLabel_->setToolTip(
      tr("Host ring: frames waiting for processing / slots; latency: from acquisition to the "
         "image. A filling ring means processing cannot keep up: in Block mode the source waits "
         "and the image lags; in Drop mode frames are dropped."));
  memoryLabel_ = addLabel(statusBar, QStringLiteral("memoryLabel"), QString());
  memoryLabel_->setToolTip(tr("Compute device memory: used / total"));

  connect(&controller_, &EngineController::statsUpdated, this, &StatusIndicators::onStatsUpdated);
  connect(&controller_, &EngineController::runningChanged, this,
          &StatusIndicators::onRunningChanged);
  memoryTimer_.setInterval(kMemoryPollMs);
  connect(&memoryTimer_, &QTimer::timeout, this, &StatusIndicators::refreshMemory);
  memoryTimer_.start();
  refreshMemory();
}

void StatusIndicators::showBackend(const QString& displayPath, bool deviceUpload) {
  const QString notice = controller_.backendNotice();  // why CUDA is not used; empty when it is
  QString text;
  if (!notice.isEmpty()) {
    text = tr("CPU backend: %1").arg(notice);
  } else {
    text = deviceUpload ? tr("%1 · GL interop").arg(controller_.backendDescription())
                        : controller_.backendDescription();
  }
  const QFontMetrics metrics = backendLabel_->fontMetrics();
  backendLabel_->setText(
      metrics.elidedText(text, Qt::ElideRight, kBackendFieldChars * metrics.averageCharWidth()));
  QString toolTip = tr("Compute backend: %1").arg(controller_.backendDescription());
  if (!notice.isEmpty()) {
    toolTip += QLatin1Char('\n') + notice;
  }
  backendLabel_->setToolTip(toolTip + QLatin1Char('\n') + tr("Display path: %1").arg(displayPath));
}

QString StatusIndicators::backendText() const {
  return backendLabel_->text();
}
QString StatusIndicators::backendToolTip() const {
  return backendLabel_->toolTip();
}
QString StatusIndicators::ratesText() const {
  return ratesLabel_->text();
}
QString StatusIndicators::droppedText() const {
  return droppedLabel_->text();
}
QString StatusIndicators::latencyText() const {
  return latencyLabel_->text();
}
QString StatusIndicators::memoryText() const {
  return memoryLabel_->text();
}

void StatusIndicators::onStatsUpdated(const pipeline::EngineStats& stats) {
  const std::uint64_t displayed = view_.framesDisplayed();
  // Counted over a second or more: a few frames per statistics update would quantise the rate.
  if (displayClock_.isValid() && displayClock_.elapsed() >= kDisplayRateWindowMs) {
    displayFps_ = 1000.0 * static_cast<double>(displayed - displayedAtClockStart_) /
                  static_cast<double>(displayClock_.restart());
    displayedAtClockStart_ = displayed;
    lastFrameMs_ = 0;
    displayWindowClosed_ = true;
  } else if (displayClock_.isValid() && !displayWindowClosed_ && lastFrameMs_ > 0) {
    // The first second: the intervals between the frames painted so far.
    displayFps_ = 1000.0 * static_cast<double>(displayed - displayedAtClockStart_) /
                  static_cast<double>(lastFrameMs_);
  }
  const bool known = displayWindowClosed_ || lastFrameMs_ > 0;
  ratesLabel_->setText(tr("acq %1 · proc %2 · disp %3 fps")
                           .arg(stats.acquisitionFps, 0, 'f', 1)
                           .arg(stats.processingFps, 0, 'f', 1)
                           .arg(known ? QString::number(displayFps_, 'f', 1) : tr("–")));
  QString dropped = stats.lost == 0 ? tr("dropped %1").arg(stats.dropped)
                                    : tr("dropped %1 · lost %2").arg(stats.dropped).arg(stats.lost);
  if (stats.skipped > 0) {  // by design (Stay live): said, not alarmed
    dropped += tr(" · not imaged %1").arg(stats.skipped);
  }
  droppedLabel_->setText(dropped);
  droppedLabel_->setStyleSheet(stats.dropped + stats.lost > 0 ? kAlertStyle : QString());
  showSourceCounters(stats);
  showLatency(stats);
}

void StatusIndicators::showSourceCounters(const pipeline::EngineStats& stats) {
  // A camera's stream, where the source has a transport of its own: its whole deliveries, and
  // any trouble counter above 0 (in alert colour); every counter in the tooltip.
  QStringList shown;
  QStringList all;
  bool trouble = false;
  for (std::size_t i = 0; i < stats.sourceCounters.size(); ++i) {
    const auto& [name, value] = stats.sourceCounters[i];
    const QString text = QStringLiteral("%1 %2").arg(value).arg(QString::fromStdString(name));
    all << text;
    if (i == 0 || value > 0) {
      shown << text;
      trouble = trouble || i > 0;
    }
  }
  sourceLabel_->setText(shown.join(QStringLiteral(" · ")));
  sourceLabel_->setToolTip(tr("The camera's stream since the run started: %1. Buffers filled "
                              "whole; incomplete (lost frames); underruns: frames sent while no "
                              "buffer was free (lost); network packets asked for again.")
                               .arg(all.join(QStringLiteral(", "))));
  sourceLabel_->setStyleSheet(trouble ? kAlertStyle : QString());
  sourceLabel_->setVisible(!shown.isEmpty());
}

QString StatusIndicators::sourceCountersText() const {
  return sourceLabel_->isVisible() ? sourceLabel_->text() : QString();
}

void StatusIndicators::onFrameDisplayed() {
  if (!displayClock_.isValid()) {
    displayClock_.start();
    displayedAtClockStart_ = view_.framesDisplayed();
    lastFrameMs_ = 0;
    return;
  }
  lastFrameMs_ = std::max<qint64>(displayClock_.elapsed(), 1);
}

void StatusIndicators::showLatency(const pipeline::EngineStats& stats) {
  const double latencyMs = stats.latency.lastMs;
  behind_ = (stats.ringSlots > 0 &&
             stats.ringOccupancy > kBehindRingFraction * static_cast<double>(stats.ringSlots)) ||
            latencyMs > kBehindLatencyMs;
  const QString latency = latencyMs >= 1000.0 ? tr("%1 s").arg(latencyMs / 1000.0, 0, 'f', 2)
                                              : tr("%1 ms").arg(latencyMs, 0, 'f', 0);
  const QString text =
      tr("ring %1/%2 · latency %3").arg(stats.ringOccupancy).arg(stats.ringSlots).arg(latency);
  latencyLabel_->setText(behind_ ? tr("⚠ behind: %1").arg(text) : text);
  latencyLabel_->setStyleSheet(behind_ ? kAlertStyle : QString());
}

void StatusIndicators::onRunningChanged(bool running) {
  if (running) {
    displayClock_.invalidate();  // restarted by the first frame painted
    displayFps_ = 0.0;
    lastFrameMs_ = 0;
    displayWindowClosed_ = false;
  } else {
    ratesLabel_->setText(tr("stopped"));
    // Nothing waits and nothing lags once stopped.
    behind_ = false;
    latencyLabel_->clear();
    latencyLabel_->setStyleSheet(QString());
  }
}

void StatusIndicators::refreshMemory() {
  const compute::DeviceMemoryInfo memory = controller_.memoryInfo();
  if (memory.totalBytes == 0) {
    memoryLabel_->setText(tr("memory n/a"));
    memoryUsedGiB_ = memoryTotalGiB_ = 0.0;
    return;
  }
  const std::size_t usedBytes = memory.totalBytes - std::min(memory.freeBytes, memory.totalBytes);
  const double used = static_cast<double>(usedBytes) / kBytesPerGiB;
  const double total = static_cast<double>(memory.totalBytes) / kBytesPerGiB;
  memoryUsedGiB_ = used;
  memoryTotalGiB_ = total;
  memoryLabel_->setText(tr("memory %1 / %2 GiB").arg(used, 0, 'f', 2).arg(total, 0, 'f', 1));
}

}  // namespace cineflow::ui
