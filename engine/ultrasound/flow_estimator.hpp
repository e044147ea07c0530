#pragma once
// Colour and power Doppler's estimation stage (issue 20): the third stage of the Doppler chain,
// after the I/Q beamformer.
//
// Contract
//   input   one beamformed I/Q frame per call, complex float32 [nz][nx] (interleaved re, im),
//           written by the caller into nextFrame() before enqueue(); the stage keeps the last N
//           (the ensemble) in a ring of its own.
//   output  flow float32 [3][nz][nx]: axial velocity (m/s, positive towards the probe), its
//           variance (m^2/s^2) and the clutter-filtered ensemble's power (dB), computed inside
//           the colour box only (NaN outside it, and before the first full ensemble).
//   formula per pixel of the box: the ensemble in time order, minus its clutter (DopplerParams::
//           wallFilter: none, polynomial regression, IIR high-pass, or the SVD's strongest
//           components over the box), its lag-0 and lag-1 autocorrelation averaged over
//           averageX x averageZ pixels, then v = v_a arg(R1) / pi, variance 2 (v_a / pi)^2
//           (1 - |R1| / R0), power 10 log10 R0 (ultrasound/doppler_math.hpp), v_a = c PRF / 4 f0.
//   ensemble sliding: an estimate at every frame once N frames are in; block: every N frames.
//           A frame that does not follow the previous one (a gap in FrameHeader::sequence, or
//           its source index not the next one: a dropped frame, a replay's loop) starts a new
//           ensemble; until it is full, `flow` repeats the last estimate.
//   stream  enqueue() only enqueues work on `stream`: it never allocates or synchronises. The
//           stage's state is shared by its enqueues, so they must be ordered (one stream).

#include <cstdint>
#include <memory>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "ultrasound/doppler_math.hpp"
#include "ultrasound/doppler_params.hpp"
#include "ultrasound/flow_launch.hpp"

namespace cineflow::ultrasound {

class FlowEstimator {
 public:
  // Sizes the ring ([N][nz][nx] complex), the autocorrelations, the estimate and the filter on
  // `grid` (one layer); `aliasingVelocity` = c PRF / (4 f0), `prfHz` the ensemble's rate (for
  // the IIR cut-off). Throws std::invalid_argument for invalid parameters.
  void configure(compute::Backend& backend, const process::ImageGeometry& grid,
                 const DopplerParams& params, double aliasingVelocity);
  // Where the caller writes the next beamformed I/Q frame: 2 nz nx floats.
  compute::DeviceSpan<float> nextFrame() const;
  // Takes the frame written into nextFrame() into the ensemble (`frame` says whether it follows
  // the previous one), estimates when the ensemble is due, and writes the latest estimate into
  // `flow` (3 nz nx floats). Throws std::invalid_argument before enqueuing anything for a span of
  // the wrong size.
  void enqueue(compute::Stream& stream, const acquire::FrameHeader& frame,
               compute::DeviceSpan<float> flow);
  // Whether the last enqueue() made a new estimate (else `flow` repeated the previous one).
  bool estimated() const { return estimated_; }

 private:
  void enqueueEstimate(compute::Stream& stream);

  compute::Backend* backend_ = nullptr;
  process::ImageGeometry grid_;
  DopplerParams params_;
  // One launch per position of the ring's oldest frame, made at configure() and unchanged after:
  // the CPU twin's host tasks read theirs when they run, after later enqueue() calls.
  std::vector<FlowLaunch> launches_;
  compute::DeviceBuffer<float> ring_;          // [N][nz][nx][2]
  compute::DeviceBuffer<float> acf_;           // [nz][nx][4]
  compute::DeviceBuffer<float> estimate_;      // [3][nz][nx], NaN outside the box
  compute::DeviceBuffer<float> basis_;         // regression [rows][N] or SVD [2 rank][2N]
  compute::DeviceBuffer<double> correlation_;  // SVD: [N][N] complex
  compute::DeviceBuffer<double> svdWork_;      // SVD: 2 (2N)^2
  int next_ = 0;                               // ring slot of the next frame
  int filled_ = 0;                             // frames in the current ensemble (since its start)
  bool haveLast_ = false;
  acquire::FrameHeader last_;
  bool estimated_ = false;
};

}  // namespace cineflow::ultrasound
