#pragma once
// Volumes (docs/development.md, The pipeline; docs/volumes.md): every elevation sweep of K frames
// becomes a volume [y][z][x] in device memory, and its three maximum-intensity projections are
// computed on the engine's endpoint stream as soon as the sweep's last frame is dispatched.
//
// The volume is not a copy: the engine lays the cineloop out in blocks of K slots and writes each
// frame of a sweep straight into the slot of its slice, so a block of the cineloop is the volume.
// A block is reused (overwritten by a later sweep) only after every reader has let go of it: the
// engine's endpoint work and whatever the callback chained onto the endpoint stream (a GPU-side
// wait, never a host stall), and every VolumeLock (the engine thread waits for those, so hold one
// only as long as it takes to enqueue work).

#include <cstdint>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "process/image_geometry.hpp"
#include "process/mip.hpp"

namespace cineflow::process {

struct VolumeInfo {
  std::uint64_t number = 0;  // complete volumes since start(): 0, 1, 2, ...
  process::VolumeShape shape;
  process::ImageGeometry slice;           // the x and z axes, shared by every slice
  std::vector<double> elevationM;         // [ny]: y of each slice
  std::vector<std::uint64_t> sequence;    // [ny]: each slice's frame sequence number
  std::vector<std::int64_t> timestampNs;  // [ny]: each slice's acquisition time
};

// Device memory (host memory on the CPU backend) behind one complete volume.
struct VolumeView {
  compute::DeviceSpan<const float> volume;  // [ny][nz][nx], dB
  compute::DeviceSpan<const float> alongY;  // [nz][nx]
  compute::DeviceSpan<const float> alongZ;  // [ny][nx]
  compute::DeviceSpan<const float> alongX;  // [ny][nz]
};

// What a volume callback receives, on the engine thread, right after the MIPs are dispatched (not
// completed). Work the callback enqueues on `stream` runs after the MIPs and before the engine
// reuses the buffers; `done` completes when the MIPs have. The references are valid during the
// call only. The callback must not block: the engine thread waits for it.
struct VolumeEndpoint {
  const VolumeInfo& info;
  VolumeView view;
  compute::Stream& stream;
  const compute::Event& done;
};
using VolumeCallback = std::function<void(const VolumeEndpoint&)>;

// RAII shared lock on a complete volume (Engine::lockLatestVolume): while it lives the engine does
// not reuse the volume's buffers (the engine thread waits for it when it comes round to them, so
// hold one only while enqueuing work; stop() while one is held ends the run as Failed, naming
// the volume). Its contents are final once done() has completed (wait on it on your stream, or
// synchronise it). Move-only; an empty lock (no volume yet) converts to false.
class VolumeLock {
 public:
  VolumeLock() = default;
  // `storage` keeps the memory behind the view alive; `lock` is held on its block.
  VolumeLock(std::shared_ptr<const void> storage, std::shared_lock<std::shared_mutex> lock,
             const VolumeInfo* info, VolumeView view, const compute::Event* done)
      : storage_(std::move(storage)),
        lock_(std::move(lock)),
        info_(info),
        view_(view),
        done_(done) {}

  explicit operator bool() const { return info_ != nullptr; }
  const VolumeInfo& info() const { return *info_; }
  const VolumeView& view() const { return view_; }
  const compute::Event& done() const { return *done_; }

 private:
  std::shared_ptr<const void> storage_;  // before lock_: the mutex lives in it
  std::shared_lock<std::shared_mutex> lock_;
  const VolumeInfo* info_ = nullptr;
  VolumeView view_;
  const compute::Event* done_ = nullptr;
};

}  // namespace cineflow::process
