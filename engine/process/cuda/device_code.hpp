#pragma once
// Device code that is also host code: functions marked CINEFLOW_HD compile for the GPU under nvcc
// and for the CPU under a C++ compiler, so that a test on a machine without a GPU runs the very
// arithmetic and indexing of a kernel's thread (tests/unit/test_device_code.cpp). The few
// intrinsics they use go through the wrappers below, which take the device's instruction on the
// GPU and the nearest standard function on the host. With CUDA, float2 and float4 come from the
// CUDA headers; a build without the CUDA toolkit gets the same types here, so that the host
// test runs in every build.

#if defined(__CUDACC__) || CINEFLOW_HAVE_CUDA
#include <cuda_runtime.h>
#else
struct alignas(8) float2 {
  float x, y;
};
inline float2 make_float2(float x, float y) {
  return {x, y};
}
struct alignas(16) float4 {
  float x, y, z, w;
};
inline float4 make_float4(float x, float y, float z, float w) {
  return {x, y, z, w};
}
#endif

#include <cmath>
#include <numbers>

#ifdef __CUDACC__
#define CINEFLOW_HD __host__ __device__
#else
#define CINEFLOW_HD
#endif

namespace cineflow::process::cuda {

// A read through the read-only data cache on the device.
template <class T>
CINEFLOW_HD inline T loadReadOnly(const T* p) {
#ifdef __CUDA_ARCH__
  return __ldg(p);
#else
  return *p;
#endif
}

// sin(pi x) and cos(pi x).
CINEFLOW_HD inline void sinCosPi(float x, float* sine, float* cosine) {
#ifdef __CUDA_ARCH__
  sincospif(x, sine, cosine);
#else
  *sine = static_cast<float>(std::sin(std::numbers::pi * x));
  *cosine = static_cast<float>(std::cos(std::numbers::pi * x));
#endif
}

CINEFLOW_HD inline float cosPi(float x) {
#ifdef __CUDA_ARCH__
  return cospif(x);
#else
  return static_cast<float>(std::cos(std::numbers::pi * x));
#endif
}

// a + b * c rounded twice, as the host computes it: nvcc would fuse it into one FMA, and the
// pixel positions would then differ from the CPU twin's in the last bit (deciding aperture edges
// differently on regular grids, where exact ties are common).
CINEFLOW_HD inline double addProduct(double a, double b, double c) {
#ifdef __CUDA_ARCH__
  return __dadd_rn(a, __dmul_rn(b, c));
#else
  return a + b * c;
#endif
}

CINEFLOW_HD inline int minInt(int a, int b) {
  return a < b ? a : b;
}
CINEFLOW_HD inline int maxInt(int a, int b) {
  return a > b ? a : b;
}

}  // namespace cineflow::process::cuda
