// The acquisition thread and the engine thread (docs/development.md, The pipeline).
#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>

#include "base/thread_name.hpp"
#include "compute/annotate.hpp"
#include "pipeline/engine_impl.hpp"
#include "process/chunk_codec.hpp"
#include "profile/stage_probe.hpp"

namespace cineflow::pipeline {
namespace {
using Clock = std::chrono::steady_clock;
// After a damaged frame stopped a replay: what the operator can do.
constexpr const char* kSkipHint = " (skip damaged frames to replay the rest)";
}  // namespace

std::int64_t nowNs() {
  return profile::steadyNowNs();
}

void Engine::Impl::acquisitionLoop(EngineSession& run) {
  base::setCurrentThreadName("cf-acquire");
  // The pacing period, recomputed each frame: setFrameRate() changes it live.
  const auto currentPeriod = [this] {
    const double override = frameRateHz.load();
    const double rate = !config.pace ? 0.0 : (override > 0 ? override : source->frameRateHz());
    return rate > 0 ? std::chrono::duration_cast<Clock::duration>(
                          std::chrono::duration<double>(1.0 / rate))
                    : Clock::duration::zero();
  };
  const std::uint64_t frameCount = source->frameCount();
  auto nextTick = Clock::now();
  std::uint64_t sequence = 0;
  try {
    // maxFrames bounds the frames taken from the source (`acquired`, reset at start): the
    // sequence numbers run ahead of it over the frames a live source lost.
    while (!run.stopRequested && (config.maxFrames == 0 || run.acquired < config.maxFrames)) {
      const auto period = currentPeriod();
      if (period > Clock::duration::zero()) {
        // Sleep in short steps so that stop() is honoured promptly at low frame rates.
        while (!run.stopRequested && Clock::now() < nextTick) {
          std::this_thread::sleep_for(
              std::min<Clock::duration>(nextTick - Clock::now(), std::chrono::milliseconds(5)));
        }
        nextTick = std::max(nextTick + period, Clock::now() - period);
      }
      const std::uint64_t index = sequence % frameCount;
      // Block and Latest wait for a slot (Latest lets waiting frames go on the engine's side).
      const int slot = ring.acquireFree(overflow.load() != OverflowPolicy::Drop);
      if (slot < 0) {
        if (run.stopRequested) {
          break;
        }
        source->skipFrame(index);  // a live source's frame is taken and let go
        ++run.dropped;  // Drop policy: the scanner's frame is gone, counted, never silent
      } else {
        acquire::FrameHeader& header = ring.header(slot);
        header = {};
        header.sequence = sequence;
        header.timestampNs = nowNs();
        header.sourceIndex = index;
        bool read = false;
        try {
          readIntoSlot(index, slot, header);
          read = true;
        } catch (const acquire::DamagedFrameError& e) {
          if (damagedPolicy.load() == DamagedFramePolicy::Stop) {
            throw;
          }
          ring.discard(slot);
          noteDamaged(run, e.what());
          if (discardObserver) {
            discardObserver(header);
          }
        }
        if (read) {
          trace.addAcquire(header.timestampNs, nowNs(), static_cast<std::int64_t>(sequence));
          // Frames a live source lost before this one keep their place in the sequence, so that
          // what counts consecutive frames (volumes, Doppler ensembles) sees the gap.
          const std::uint64_t lostNow = source->lostFrames() - run.lostAtStart;
          if (lostNow > run.lost) {
            sequence += lostNow - run.lost;
            header.sequence = sequence;
            header.sourceIndex = sequence % frameCount;  // its place in a scan (bidirectional)
            run.lost = lostNow;
          }
          ring.publish(slot);
        }
      }
      ++run.acquired;
      ++sequence;
      statistics.tickAcquired();
    }
  } catch (const acquire::SourceStopped&) {
    // stop() ended a live source's wait: a stop, not a failure
  } catch (const acquire::SourceEnded&) {
    // the sender finished and the source was told to end with it: the run ran its frames out
  } catch (const acquire::DamagedFrameError& e) {
    fail(std::string("acquisition stopped: ") + e.what() + kSkipHint);
  } catch (const acquire::SourceChanged& e) {
    fail(std::string("acquisition stopped: ") + e.what(), e.change());
  } catch (const std::exception& e) {
    fail(std::string("acquisition stopped: ") + e.what());
  }
  source->stopAcquisition();  // the run is over (also when it ran its frames out)
  ring.close();
}

void Engine::Impl::readIntoSlot(std::uint64_t index, int hostSlot, acquire::FrameHeader& header) {
  const compute::ScopedRange range("acquire");
  process::StagedChunk& staged = ring.staged(hostSlot);
  staged = {};
  if (stored.codec != acquire::ChunkCodec::None) {
    const std::span<std::byte> room = ring.slotData(hostSlot);
    const std::size_t chunkBytes = source->readStoredFrame(index, room, header.slice);
    if (chunkBytes > 0) {
      try {
        process::stageChunk(room, chunkBytes, stored, source->frameBytes(), stageLayout, staged);
      } catch (const process::ChunkError& e) {
        throw acquire::DamagedFrameError(source->describe() + ": frame " + std::to_string(index) +
                                         ": " + e.what());
      }
    }
  }
  if (staged.bytes == 0) {
    source->readFrame(index, ring.data(hostSlot), header.slice);
  }
  try {
    rawTap.deliver(header, ring.data(hostSlot),
                   ring.slotData(hostSlot).first(staged.bytes > 0 ? staged.chunkBytes : 0));
  } catch (const process::ChunkError& e) {
    throw acquire::DamagedFrameError(source->describe() + ": frame " + std::to_string(index) +
                                     ": " + e.what());
  }
}

void Engine::Impl::noteDamaged(EngineSession& run, const std::string& why) {
  ++run.damaged;
  statistics.noteDamage(why);
}

void Engine::Impl::checkDecoded(EngineSession& run, const InFlightSlot& slot) {
  if (slot.chunk.bytes == 0 || slot.statusHost.host()[0] == 0) {
    return;
  }
  const std::string why = source->describe() + ": frame " +
                          std::to_string(slot.header.sourceIndex) + ": " +
                          process::chunkStatusText(slot.statusHost.host()[0], slot.chunk.blocks);
  if (damagedPolicy.load() == DamagedFramePolicy::Stop) {
    throw std::runtime_error(why + kSkipHint);
  }
  noteDamaged(run, why);
}

void Engine::Impl::engineLoop(EngineSession& run) {
  base::setCurrentThreadName("cf-engine");
  std::size_t next = 0;
  try {
    for (int hostSlot = takeNext(run); hostSlot >= 0; hostSlot = takeNext(run)) {
      applyPendingSettings(run);
      if (retuneRequested.exchange(false)) {
        drain(run);  // the stages' buffers are the measurement's
        tuneStages(true, true);
      }
      trace.adopt(backend, *compute);
      InFlightSlot& slot = run.inFlight[next];
      next = (next + 1) % run.inFlight.size();
      if (slot.used) {
        slot.done->synchronize();  // this slot's previous frame; the other slots keep the GPU busy
        slot.released->synchronize();  // and its callbacks, which read the slot, have run
        collect(run, slot);
      }
      dispatch(run, hostSlot, slot);
      collectMipTimings();
      throwOnStreamError();
    }
    drain(run);
  } catch (const std::exception& e) {
    fail(std::string("processing stopped: ") + e.what());
    try {
      drain(run);
    } catch (...) {  // already failed: the first error is the one reported
    }
  }
  volumes.abandonOpenSweep();  // a sweep cut short by stop() is not a volume
  setState(run.stopRequested ? EngineState::Stopped : EngineState::Finished);
}

int Engine::Impl::takeNext(EngineSession& run) {
  // Latest skips frames, which a processor whose images depend on the frames before them (Doppler)
  // cannot afford: it images every frame then.
  if (overflow.load() != OverflowPolicy::Latest ||
      (processor != nullptr && processor->needsEveryFrame())) {
    return ring.takeFilled();
  }
  for (;;) {
    run.skippedHeaders.clear();
    const int slot = ring.takeNewest(run.skippedHeaders);
    for (const acquire::FrameHeader& header : run.skippedHeaders) {
      ++run.skipped;
      if (discardObserver) {
        discardObserver(header);  // never imaged: what waits for its image stops waiting
      }
    }
    if (slot != HostRing::kRetake) {
      return slot;
    }
  }
}

void Engine::Impl::applyPendingSettings(EngineSession& run) {
  std::shared_ptr<const modality::ProcessingSettings> next;
  {
    // Left pending until applied: settings() reads the pending ones first, so that a caller
    // never sees the previous settings while these are being configured.
    std::lock_guard lock(settingsMutex);
    next = pendingSettings;
  }
  if (!next) {
    return;
  }
  drain(run);  // a parameter change reallocates: once, between frames, with nothing in flight
  processor->configure(backend, *source, *next);
  tuneStages(false, false);    // remembered or pinned variants: no measuring mid-acquisition
  volumes.abandonOpenSweep();  // a volume's slices all come from one configuration
  if (stageNamesChanged()) {
    adoptStageNames(run);
  }
  if (processor->geometry() != geometry) {
    geometry = processor->geometry();
    configureImageStorage();
    if (observer) {
      for (InFlightSlot& slot : run.inFlight) {
        slot.observed = compute::PinnedBuffer<float>(backend, geometry.values());
      }
    }
  }
  std::lock_guard lock(settingsMutex);
  if (pendingSettings == next) {
    pendingSettings.reset();  // (a newer request stays pending for the next frame)
  }
  settings = std::move(next);
}

// Host callbacks block the stream they are queued on until they have run (on CUDA, on the
// driver's one callback thread), so none is queued on the upload or compute streams: they go on
// the notify stream, which waits for the events instead. Uploads then run back to back and the
// compute stream never idles behind a callback.
void Engine::Impl::dispatch(EngineSession& run, int hostSlot, InFlightSlot& slot) {
  slot.header = ring.header(hostSlot);
  slot.chunk = ring.staged(hostSlot);
  const bool staged = slot.chunk.bytes > 0;
  const std::span<std::byte> hostFrame = ring.data(hostSlot);
  const std::span<std::byte> hostBytes =
      staged ? ring.slotData(hostSlot).first(slot.chunk.bytes) : hostFrame;
  {
    std::lock_guard lock(snapshotMutex);
    if (snapshotRequested && snapshot->size() == hostFrame.size()) {
      bool taken = true;
      if (staged) {
        try {
          process::decodeChunk(ring.slotData(hostSlot).first(slot.chunk.chunkBytes), stored.codec,
                               stored.elementBytes, *snapshot, snapshotScratch);
        } catch (const process::ChunkError&) {
          taken = false;  // damaged (the decoder reports it): the next frame answers the request
        }
      } else {
        std::copy(hostFrame.begin(), hostFrame.end(), snapshot->begin());
      }
      if (taken) {
        *snapshotHeader = slot.header;
        snapshotRequested = false;
        snapshotTaken.notify_all();
      }
    }
  }

  {
    const compute::ScopedRange range("upload");
    upload->record(*slot.uploadStart);
    upload->copyAsync(staged ? slot.staged.data() : slot.raw.data(), hostBytes.data(),
                      hostBytes.size());
    upload->record(*slot.uploaded);
  }
  notify->wait(*slot.uploaded);
  notify->enqueueHost([ringPtr = &ring, hostSlot] { ringPtr->release(hostSlot); });

  compute->wait(*slot.uploaded);
  const bool inVolume = framesPerVolume.load() > 0;
  if (staged) {
    compute->record(*slot.decodeStart);
    decoder.enqueue(*compute, slot.staged.data(), slot.chunk, slot.raw.view(), slot.status.data());
    compute->record(*slot.decoded);
    compute->copyAsync(slot.statusHost.data(), slot.status.data(), sizeof(int));
    if (inVolume) {
      // A slice joins its volume below, before its stages have run: whether it decoded must be
      // known first (a damaged slice ends its sweep, as a slice lost at the host does). This
      // waits for the compute stream, so compressed volume replay loses the overlap of
      // enqueueing with the previous frame's stages.
      compute->synchronize();
      if (slot.statusHost.host()[0] != 0) {
        checkDecoded(run, slot);  // Stop: throws; Skip: counted
        volumes.abandonOpenSweep();
        if (discardObserver) {
          discardObserver(slot.header);
        }
        return;
      }
    }
  }
  const int slice = inVolume ? sliceOf(slot.header) : 0;
  const int loopSlot = inVolume ? volumes.slotFor(slot.header, slice, *compute, run.stopRequested)
                                : cineloop.claimNextSlot();
  const compute::DeviceSpan<float> image = cineloop.slotImage(loopSlot);
  cineloop.beginWrite(loopSlot);  // readers skip the slot from now until endWrite
  processor->enqueue(*compute, slot.header, slot.raw.view(), image, slot.marks);
  slot.fresh = processor->lastImageFresh();
  compute->record(*slot.done);  // the frame's time ends with its stages, before any observer
  if (observer) {
    // The observer's copy follows the stages on the compute stream (the loop slot may be
    // written again by a later frame there); its callback runs on the notify stream.
    compute->copyAsync(slot.observed.data(), image.data(), image.bytes());
    compute->record(*slot.observedCopy);
  }
  if (inVolume) {
    volumes.frameDispatched(slot.header, slice, *slot.done, cineloop, *endpoint, volumeCallback);
  }
  notify->wait(observer ? *slot.observedCopy : *slot.done);
  if (observer) {
    notify->enqueueHost([this, &slot, staged] {
      if (staged && slot.statusHost.host()[0] != 0) {
        if (discardObserver) {  // a damaged frame is never handed on (checkDecoded reports it)
          discardObserver(slot.header);
        }
        return;
      }
      observer(CompletedFrame{slot.header, geometry, slot.observed.host(), slot.fresh});
    });
  } else if (staged && discardObserver) {
    notify->enqueueHost([this, &slot] {
      if (slot.statusHost.host()[0] != 0) {
        discardObserver(slot.header);
      }
    });
  }
  // The engine waits for `released` (recorded below) before it reuses `slot`, so the callbacks may
  // read the slot's decode status and observed copy in place.
  const int* status = staged ? slot.statusHost.data() : nullptr;
  notify->enqueueHost([this, &run, loopSlot, header = slot.header, fresh = slot.fresh, status] {
    if (status != nullptr && *status != 0) {
      cineloop.abandonWrite(loopSlot);  // damaged: never shown (checkDecoded reports it)
      return;
    }
    cineloop.endWrite(loopSlot, header, fresh);
    ++run.processed;
    statistics.recordDisplayed(static_cast<double>(nowNs() - header.timestampNs) * 1e-6);
  });
  // The callbacks above read the slot (its header, decode status and observed copy): the engine
  // waits for `released` before it reuses the slot.
  notify->record(*slot.released);
  slot.used = true;
}

void Engine::Impl::collect(EngineSession& run, InFlightSlot& slot) {
  slot.used = false;
  checkDecoded(run, slot);
  const std::size_t first = firstProcessorRow();
  std::fill(stageMs.begin(), stageMs.end(), -1.0);
  stageMs[0] = slot.uploaded->elapsedMsSince(*slot.uploadStart);
  // Row "decode" follows the upload in a compressed replay; a frame that arrived decoded (the
  // acquisition thread decoded it) adds no sample to it.
  const bool decoded = slot.chunk.bytes > 0;
  if (decoded) {
    stageMs[1] = slot.decoded->elapsedMsSince(*slot.decodeStart);
  }
  for (std::size_t i = 0; i + 1 < slot.marks.size() && i + first < stageMs.size(); ++i) {
    stageMs[i + first] = slot.marks[i + 1]->elapsedMsSince(*slot.marks[i]);
  }
  const EngineStatistics::FrameSample sample{slot.header.sequence, stageMs,
                                             slot.done->elapsedMsSince(*slot.uploadStart)};
  statistics.recordFrame(sample, driftedStages);
  if (trace.active()) {
    const auto frame = static_cast<std::int64_t>(slot.header.sequence);
    trace.add(EngineTrace::Track::Upload, "upload", *slot.uploadStart, *slot.uploaded, frame);
    if (decoded) {
      trace.add(EngineTrace::Track::Compute, "decode", *slot.decodeStart, *slot.decoded, frame);
    }
    for (std::size_t i = 0; i + 1 < slot.marks.size() && i + first < stageRows.size(); ++i) {
      trace.add(EngineTrace::Track::Compute, stageRows[i + first], *slot.marks[i],
                *slot.marks[i + 1], frame);
    }
  }
}

void Engine::Impl::collectMipTimings() {
  volumes.takeMipTimings([this](const compute::Event& start, const compute::Event& done,
                                std::uint64_t last) {
    statistics.recordMip(done.elapsedMsSince(start));
    trace.add(EngineTrace::Track::Endpoint, "mip", start, done, static_cast<std::int64_t>(last));
  });
}

void Engine::Impl::drain(EngineSession& run) {
  upload->synchronize();
  compute->synchronize();
  endpoint->synchronize();
  notify->synchronize();
  throwOnStreamError();
  for (InFlightSlot& slot : run.inFlight) {
    if (slot.used) {
      collect(run, slot);
    }
  }
  collectMipTimings();
}

void Engine::Impl::throwOnStreamError() {
  for (compute::Stream* stream : {upload.get(), compute.get(), endpoint.get(), notify.get()}) {
    const std::string message = stream->takeError();
    if (!message.empty()) {
      throw std::runtime_error(message);
    }
  }
}

}  // namespace cineflow::pipeline
