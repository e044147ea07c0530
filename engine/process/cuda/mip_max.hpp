#pragma once
// The maximum every maximum-intensity projection takes, on the CPU and on the GPU alike
// (process/mip.hpp): IEEE 754-2019 maximumNumber. A NaN is ignored unless both values are NaN,
// and +0 counts above -0. With the zeros ordered, the maximum of a line does not depend on the
// order in which it meets its values, so the CPU's lane loops, the GPU's shuffle trees, atomics
// and multi-pass reductions agree bit for bit (fmax leaves the sign of a zero tie unspecified).

#include "process/cuda/device_code.hpp"

namespace cineflow::process::cuda {

CINEFLOW_HD inline bool signBitSet(float x) {
#ifdef __CUDA_ARCH__
  return __float_as_int(x) < 0;
#else
  return std::signbit(x);
#endif
}

// b when it is larger, when a is NaN, or when both are zeros and a is -0; else a. A compare and a
// select, which the CPU's loops vectorise.
CINEFLOW_HD inline float mipMax(float a, float b) {
  return (a < b || a != a || (a == b && signBitSet(a))) ? b : a;
}

}  // namespace cineflow::process::cuda
