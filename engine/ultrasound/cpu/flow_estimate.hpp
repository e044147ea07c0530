#pragma once
// CPU twin of the flow estimator's kernels (ultrasound/flow_estimator.hpp holds the contract):
// host tasks on the stream that run the per-pixel device code of ultrasound/flow_launch.hpp over
// the colour box with parallelFor.

#include "compute/backend.hpp"
#include "ultrasound/flow_launch.hpp"

namespace cineflow::ultrasound::cpu {

// The autocorrelation of every box pixel, then its averaged estimate. The host task reads
// `launch` when it runs: it must stay unchanged until the stream has passed it.
void enqueueFlowEstimate(compute::Stream& stream, const FlowLaunch& launch);
// The SVD filter's basis from the box's ensembles: the correlation matrix (n x n complex, double),
// then svdClutterBasis into `basis` ([2 rank][2n]); `work` holds svdWorkDoubles(n) doubles.
std::size_t svdWorkDoubles(int n);
void enqueueSvdBasis(compute::Stream& stream, const FlowLaunch& launch, int rank,
                     double* correlation, double* work, float* basis);

}  // namespace cineflow::ultrasound::cpu
