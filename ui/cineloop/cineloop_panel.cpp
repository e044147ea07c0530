#include "cineloop/cineloop_panel.hpp"
#include "common/media_icons.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <QAction>
#include <QSignalBlocker>
#include <QSlider>

namespace cineflow::ui {
namespace {

// Flat-out acquisitions stamp frames microseconds apart; no display shows them faster than this.
constexpr double kMinPlaybackIntervalMs = 5.0;
// A long pause in the acquisition (e.g. a freeze in between) should not stall playback.
constexpr double kMaxPlaybackIntervalMs = 2000.0;
constexpr double kFallbackFrameIntervalMs = 1000.0 / 30.0;
constexpr int kFollowIntervalMs = 250;
// Frames the views may hold at once (queued signal, current image, next image).
constexpr std::size_t kFramePoolSize = 4;

}  // namespace

CineloopPanel::CineloopPanel(const pipeline::Engine& engine, QWidget* parent)
    : QWidget(parent), engine_(engine) {
  buildControls();
  playTimer_.setSingleShot(true);
  connect(&playTimer_, &QTimer::timeout, this, &CineloopPanel::advancePlayback);
  followTimer_.setInterval(kFollowIntervalMs);
  connect(&followTimer_, &QTimer::timeout, this, &CineloopPanel::followLive);
  connect(&exportJob_, &BackgroundJob::progressed, this, &CineloopPanel::exportProgress);
  connect(&exportJob_, &BackgroundJob::finished, this, &CineloopPanel::finishExport);
  reloadEntries();
  current_ = entries_.empty() ? -1 : static_cast<int>(entries_.size()) - 1;
  updateControls();
  updatePosition();
}

CineloopPanel::~CineloopPanel() = default;  // exportJob_ cancels and waits for an export

std::optional<std::uint64_t> CineloopPanel::currentSequence() const {
  if (current_ < 0 || current_ >= entryCount()) {
    return std::nullopt;
  }
  return entries_[static_cast<std::size_t>(current_)].sequence;
}

void CineloopPanel::setLive(bool live) {
  live_ = live;
  if (live) {
    setPlaying(false);
    followTimer_.start();
    followLive();
  } else {
    followTimer_.stop();
    reloadEntries();
    current_ = -1;
    if (!entries_.empty()) {
      showIndex(entryCount() - 1);
    }
  }
  updateControls();
  updatePosition();
}

void CineloopPanel::refresh() {
  const std::optional<std::uint64_t> previous = currentSequence();
  reloadEntries();
  if (live_ || entries_.empty() || !previous) {
    current_ = entries_.empty() ? -1 : entryCount() - 1;
    if (!live_ && current_ >= 0) {
      showIndex(current_);
    }
  } else {
    showIndex(nearestIndex(*previous));
  }
  if (entries_.empty()) {
    setPlaying(false);
  }
  updateControls();
  updatePosition();
}

void CineloopPanel::setPlaying(bool playing) {
  playing = playing && !live_ && !entries_.empty();
  if (playing && !playTimer_.isActive()) {
    playTimer_.start(playbackIntervalMs(current_));
  } else if (!playing) {
    playTimer_.stop();
  }
  const QSignalBlocker blocker(playPauseAction_);
  playPauseAction_->setChecked(playing);
  playPauseAction_->setIcon(mediaIcon(playing ? MediaIcon::Pause : MediaIcon::Play));
}

void CineloopPanel::togglePlayback() {
  setPlaying(!isPlaying());
}

void CineloopPanel::stepForward() {
  setPlaying(false);
  selectIndex(current_ + 1);
}

void CineloopPanel::stepBack() {
  setPlaying(false);
  selectIndex(std::max(current_ - 1, 0));
}

void CineloopPanel::selectIndex(int index) {
  showIndex(index);
}

bool CineloopPanel::selectSequence(std::uint64_t sequence) {
  if (live_) {
    return false;
  }
  const auto it =
      std::find_if(entries_.begin(), entries_.end(),
                   [&](const acquire::FrameHeader& h) { return h.sequence == sequence; });
  if (it == entries_.end()) {
    return false;
  }
  setPlaying(false);
  showIndex(static_cast<int>(it - entries_.begin()));
  return true;
}

void CineloopPanel::reloadEntries() {
  entries_ = engine_.cineloop().headers();
  if (current_ >= entryCount()) {
    current_ = entryCount() - 1;
  }
  const QSignalBlocker blocker(timeline_);
  timeline_->setRange(0, std::max(entryCount() - 1, 0));
}

int CineloopPanel::nearestIndex(std::uint64_t sequence) const {
  const auto after = std::lower_bound(entries_.begin(), entries_.end(), sequence,
                                      [](const acquire::FrameHeader& entry, std::uint64_t wanted) {
                                        return entry.sequence < wanted;
                                      });
  if (after == entries_.end()) {
    return entryCount() - 1;
  }
  if (after != entries_.begin() &&
      sequence - std::prev(after)->sequence < after->sequence - sequence) {
    return static_cast<int>(after - entries_.begin()) - 1;
  }
  return static_cast<int>(after - entries_.begin());
}

bool CineloopPanel::showIndex(int index) {
  if (live_ || entries_.empty()) {
    return false;
  }
  index = std::clamp(index, 0, entryCount() - 1);
  std::shared_ptr<Image> frame = takeFreeFrame();
  const pipeline::Cineloop& cineloop = engine_.cineloop();
  const std::uint64_t wanted = entries_[static_cast<std::size_t>(index)].sequence;
  if (!cineloop.copyImage(wanted, frame->pixels, frame->header, frame->geometry)) {
    // The engine overwrote it since the last reload (it may still be running behind a freeze):
    // take the kept frame nearest to the one asked for.
    reloadEntries();
    if (entries_.empty()) {
      current_ = -1;
      updateControls();
      updatePosition();
      return false;
    }
    index = nearestIndex(wanted);
    const std::uint64_t nearest = entries_[static_cast<std::size_t>(index)].sequence;
    if (!cineloop.copyImage(nearest, frame->pixels, frame->header, frame->geometry)) {
      emit messageReady(tr("Cineloop frame %1 is no longer kept").arg(nearest), true);
      return false;
    }
  }
  current_ = index;
  {
    const QSignalBlocker blocker(timeline_);
    timeline_->setValue(index);
  }
  updateControls();
  updatePosition();
  emit frameSelected(std::move(frame));
  return true;
}

std::shared_ptr<Image> CineloopPanel::takeFreeFrame() {
  for (const std::shared_ptr<Image>& frame : framePool_) {
    if (frame.use_count() == 1) {
      return frame;
    }
  }
  auto frame = std::make_shared<Image>();
  if (framePool_.size() < kFramePoolSize) {
    framePool_.push_back(frame);
  }
  return frame;
}

void CineloopPanel::advancePlayback() {
  const int next = current_ + 1 < entryCount() ? current_ + 1 : 0;  // looping
  if (!showIndex(next)) {
    setPlaying(false);
    return;
  }
  playTimer_.start(playbackIntervalMs(current_));
}

int CineloopPanel::playbackIntervalMs(int fromIndex) const {
  double intervalMs = kFallbackFrameIntervalMs;
  if (entryCount() >= 2 && fromIndex >= 0) {
    // Wrapping from the newest to the oldest frame has no real interval: use the first one.
    const int from = fromIndex + 1 < entryCount() ? fromIndex : 0;
    const auto& a = entries_[static_cast<std::size_t>(from)];
    const auto& b = entries_[static_cast<std::size_t>(from + 1)];
    intervalMs = static_cast<double>(b.timestampNs - a.timestampNs) * 1e-6;
  }
  intervalMs /= playbackSpeed();
  return static_cast<int>(
      std::lround(std::clamp(intervalMs, kMinPlaybackIntervalMs, kMaxPlaybackIntervalMs)));
}

void CineloopPanel::followLive() {
  reloadEntries();
  current_ = entries_.empty() ? -1 : entryCount() - 1;
  const QSignalBlocker blocker(timeline_);
  timeline_->setValue(std::max(current_, 0));
  updatePosition();
}

}  // namespace cineflow::ui
