#include "ultrasound/cpu/flow_estimate.hpp"

#include <algorithm>

#include "compute/cpu/parallel_for.hpp"

namespace cineflow::ultrasound::cpu {
namespace {
// Box pixels per parallelFor chunk: large enough that a chunk's scratch set-up is negligible.
constexpr std::size_t kGrain = 256;
}  // namespace

void enqueueFlowEstimate(compute::Stream& stream, const FlowLaunch& launch) {
  stream.enqueueHost([f = &launch] {
    const std::size_t count = f->boxPixels();
    auto autocorrelation = [f](std::size_t begin, std::size_t end) {
      float2 scratch[kMaxEnsemble];
      for (std::size_t i = begin; i < end; ++i) {
        flowAutocorrelationPixel(*f, i, scratch);
      }
    };
    compute::cpu::parallelFor(count, kGrain, autocorrelation);
    auto estimate = [f](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        flowEstimatePixel(*f, i);
      }
    };
    compute::cpu::parallelFor(count, kGrain, estimate);
  });
}

std::size_t svdWorkDoubles(int n) {
  const std::size_t m = 2 * static_cast<std::size_t>(n);
  const std::size_t entries = 2 * static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  return 2 * m * m + compute::cpu::parallelism() * entries;
}

void enqueueSvdBasis(compute::Stream& stream, const FlowLaunch& flow, int rank, double* correlation,
                     double* work, float* basis) {
  stream.enqueueHost([f = &flow, rank, correlation, work, basis] {
    const FlowLaunch& launch = *f;
    const std::size_t m = 2 * static_cast<std::size_t>(launch.n);
    const std::size_t entries = 2 * static_cast<std::size_t>(launch.n) * launch.n;
    const std::size_t stripes = compute::cpu::parallelism();
    double* partials = work + 2 * m * m;
    // Stripe s sums the box pixels s, s + stripes, ... into its own partial matrix; the partials
    // are then added in stripe order, so the result does not depend on scheduling.
    auto sum = [&](std::size_t begin, std::size_t end) {
      float2 scratch[kMaxEnsemble];
      for (std::size_t stripe = begin; stripe < end; ++stripe) {
        double* partial = partials + stripe * entries;
        std::fill(partial, partial + entries, 0.0);
        for (std::size_t i = stripe; i < launch.boxPixels(); i += stripes) {
          addPixelCorrelation(launch, i, partial, scratch);
        }
      }
    };
    compute::cpu::parallelFor(stripes, 1, sum);
    std::fill(correlation, correlation + entries, 0.0);
    for (std::size_t stripe = 0; stripe < stripes; ++stripe) {
      for (std::size_t k = 0; k < entries; ++k) {
        correlation[k] += partials[stripe * entries + k];
      }
    }
    svdClutterBasis(correlation, launch.n, rank, work, basis);
  });
}

}  // namespace cineflow::ultrasound::cpu
