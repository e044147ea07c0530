#include "ultrasound/flow_estimator.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include "compute/twin.hpp"
#include "process/stage_checks.hpp"
#include "ultrasound/cpu/flow_estimate.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"
#include "ultrasound/flow_launch.hpp"

namespace cineflow::ultrasound {
namespace {
constexpr const char* kStage = "doppler";

template <class T>
void upload(compute::Backend& backend, compute::DeviceBuffer<T>& buffer,
            const std::vector<T>& values) {
  buffer = compute::DeviceBuffer<T>(backend, values.size());
  backend.copyBlocking(buffer.data(), values.data(), values.size() * sizeof(T));
}

}  // namespace

void FlowEstimator::configure(compute::Backend& backend, const process::ImageGeometry& grid,
                              const DopplerParams& params, double aliasingVelocity) {
  if (grid.nx <= 0 || grid.nz <= 0) {
    throw std::invalid_argument("doppler: image geometry " + std::to_string(grid.nz) + " x " +
                                std::to_string(grid.nx) + " must have at least one pixel");
  }
  if (!(aliasingVelocity > 0)) {
    throw std::invalid_argument("doppler: the aliasing velocity must be > 0 (a known PRF)");
  }
  if (params.ensemble < kMinEnsemble || params.ensemble > kMaxEnsemble) {
    throw std::invalid_argument("doppler: ensemble " + std::to_string(params.ensemble) +
                                " is outside [" + std::to_string(kMinEnsemble) + ", " +
                                std::to_string(kMaxEnsemble) + "]");
  }
  const process::PixelBox box = pixelBox(params.box, grid);
  if (box.empty()) {
    throw std::invalid_argument("doppler: the colour box holds no pixel of the image");
  }
  const std::size_t pixels = grid.pixels();
  const auto n = static_cast<std::size_t>(params.ensemble);
  ClutterFilter filter;
  switch (params.wallFilter) {
    case WallFilter::None:
      basis_ = {};
      break;
    case WallFilter::Regression: {
      filter.kind = ClutterFilterKind::Regression;
      filter.rows = params.regressionOrder + 1;
      upload(backend, basis_, regressionBasis(params.ensemble, params.regressionOrder));
      break;
    }
    case WallFilter::Iir:
      filter.kind = ClutterFilterKind::Iir;
      filter.iir = butterworthHighPass(params.iirCutoff);
      filter.rows = kIirStates;
      upload(backend, basis_, iirFreeResponseBasis(filter.iir, params.ensemble));
      break;
    case WallFilter::Svd:
      if (params.svdRank < 1 || params.svdRank > params.ensemble - 2) {
        throw std::invalid_argument("doppler: SVD rank " + std::to_string(params.svdRank) +
                                    " is outside [1, ensemble - 2]");
      }
      filter.kind = ClutterFilterKind::Embedded;
      filter.rows = 2 * params.svdRank;
      basis_ = compute::DeviceBuffer<float>(backend, static_cast<std::size_t>(filter.rows) * 2 * n);
      break;
  }
  if (params.wallFilter == WallFilter::Svd) {
    correlation_ = compute::DeviceBuffer<double>(backend, 2 * n * n);
    const std::size_t m = 2 * n;
    svdWork_ = compute::DeviceBuffer<double>(backend, backend.kind() == compute::BackendKind::Cpu
                                                          ? cpu::svdWorkDoubles(params.ensemble)
                                                          : 2 * m * m);
  } else {
    correlation_ = {};
    svdWork_ = {};
  }
  filter.basis = basis_.data();
  ring_ = compute::DeviceBuffer<float>(backend, n * pixels * 2);
  backend.zeroBlocking(ring_.data(), ring_.bytes());
  acf_ = compute::DeviceBuffer<float>(backend, pixels * 4);
  backend.zeroBlocking(acf_.data(), acf_.bytes());
  upload(backend, estimate_,
         std::vector<float>(3 * pixels, std::numeric_limits<float>::quiet_NaN()));
  launches_.assign(n, FlowLaunch{});
  for (std::size_t oldest = 0; oldest < n; ++oldest) {
    FlowLaunch& launch = launches_[oldest];
    launch.ring = reinterpret_cast<const float2*>(ring_.data());
    launch.n = params.ensemble;
    launch.oldest = static_cast<int>(oldest);
    launch.nx = grid.nx;
    launch.nz = grid.nz;
    launch.box = box;
    launch.filter = filter;
    launch.averageX = params.averageX;
    launch.averageZ = params.averageZ;
    launch.aliasingVelocity = static_cast<float>(aliasingVelocity);
    launch.acf = reinterpret_cast<float4*>(acf_.data());
    launch.estimate = estimate_.data();
  }

  backend_ = &backend;
  grid_ = grid;
  params_ = params;
  next_ = 0;
  filled_ = 0;
  haveLast_ = false;
  estimated_ = false;
}

compute::DeviceSpan<float> FlowEstimator::nextFrame() const {
  const std::size_t frame = grid_.pixels() * 2;
  return ring_.view().subspan(static_cast<std::size_t>(next_) * frame, frame);
}

void FlowEstimator::enqueue(compute::Stream& stream, const acquire::FrameHeader& frame,
                            compute::DeviceSpan<float> flow) {
  if (backend_ == nullptr) {
    process::detail::throwNotConfigured(kStage);
  }
  process::detail::requireSize(kStage, "flow output", flow.size(), 3 * grid_.pixels());
  process::detail::requireData(kStage, "flow output", flow.data());
  const bool follows = haveLast_ && frame.sequence == last_.sequence + 1 &&
                       frame.sourceIndex == last_.sourceIndex + 1;
  if (!follows) {
    filled_ = 0;  // the frame just written starts a new ensemble
  }
  last_ = frame;
  haveLast_ = true;
  ++filled_;
  next_ = (next_ + 1) % params_.ensemble;
  const bool full = filled_ >= params_.ensemble;
  estimated_ =
      full && (params_.ensembleMode == EnsembleMode::Sliding || filled_ % params_.ensemble == 0);
  if (estimated_) {
    enqueueEstimate(stream);
  }
  stream.copyAsync(flow.data(), estimate_.data(), estimate_.bytes());
}

void FlowEstimator::enqueueEstimate(compute::Stream& stream) {
  // The ring is full: the slot written next holds the oldest frame.
  const FlowLaunch& launch = launches_[static_cast<std::size_t>(next_)];
  const bool svd = params_.wallFilter == WallFilter::Svd;
  compute::onTwin(
      backend_->kind(),
      [&] {
        if (svd) {
          cpu::enqueueSvdBasis(stream, launch, params_.svdRank, correlation_.data(),
                               svdWork_.data(), basis_.data());
        }
        cpu::enqueueFlowEstimate(stream, launch);
      },
      [&] {
        if (svd) {
          cuda::enqueueSvdBasis(stream, launch, params_.svdRank, correlation_.data(),
                                svdWork_.data(), basis_.data());
        }
        cuda::enqueueFlowEstimate(stream, launch);
      });
}

}  // namespace cineflow::ultrasound
