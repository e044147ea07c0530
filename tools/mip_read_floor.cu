// cineflow-mip-floor: how fast the MIPs of one volume could possibly be on this device. Times,
// on volumes that rotate through 256 MiB (as `cineflow bench` does), MipProjector against a
// kernel that only reads every voxel once with all its reads in flight and computes nothing, and
// a device-to-device copy of one volume. Usage: cineflow-mip-floor [ny nz nx] (default: the
// simulator's 16 x 958 x 248 volume on the live grid).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "process/mip.hpp"

namespace {

using namespace cineflow;

constexpr int kInFlight = 16;  // float4 reads per thread

__global__ void readOnce(const float4* __restrict__ data, std::size_t count, float* sink) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  float4 v[kInFlight];
#pragma unroll
  for (int k = 0; k < kInFlight; ++k) {
    const std::size_t i = first + k * stride;
    v[k] = i < count ? __ldg(data + i) : make_float4(0, 0, 0, 0);
  }
  float m = 0;
#pragma unroll
  for (int k = 0; k < kInFlight; ++k) {
    m = fmaxf(m, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
  }
  if (m == 12345.0f) {  // never, but the reads cannot be dropped
    *sink = m;
  }
}

double msPerRun(cudaStream_t stream, int runs, const std::function<void(int)>& enqueue) {
  cudaEvent_t start, stop;
  compute::cuda::check(cudaEventCreate(&start), "cudaEventCreate");
  compute::cuda::check(cudaEventCreate(&stop), "cudaEventCreate");
  for (int i = 0; i < 20; ++i) {
    enqueue(i);
  }
  compute::cuda::check(cudaEventRecord(start, stream), "cudaEventRecord");
  for (int i = 0; i < runs; ++i) {
    enqueue(i);
  }
  compute::cuda::check(cudaEventRecord(stop, stream), "cudaEventRecord");
  compute::cuda::check(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  compute::cuda::check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / runs;
}

}  // namespace

int main(int argc, char** argv) {
  process::VolumeShape shape{16, 958, 248};
  if (argc == 4) {
    shape = {std::atoi(argv[1]), std::atoi(argv[2]), std::atoi(argv[3])};
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: cineflow-mip-floor [ny nz nx]\n");
    return 2;
  }
  try {
    // Throws "CUDA unavailable: <reason>" without a usable device (reported below).
    auto backend = compute::createBackend(compute::BackendRequest::Cuda);
    const std::size_t voxels = shape.voxels();
    const std::size_t bytes = voxels * sizeof(float);
    const std::size_t count = std::max<std::size_t>(2, ((256u << 20) + bytes - 1) / bytes);
    compute::DeviceBuffer<float> volumes(*backend, (count + 1) * voxels);
    compute::DeviceBuffer<float> y(*backend, shape.alongY()), z(*backend, shape.alongZ()),
        x(*backend, shape.alongX()), sink(*backend, 1);
    auto stream = backend->createStream("mip-floor");
    const cudaStream_t s = compute::cuda::asCudaStream(*stream).get();
    std::vector<float> pattern(voxels);
    for (std::size_t i = 0; i < voxels; ++i) {
      pattern[i] = -60.0f + static_cast<float>((i * 131) % 600) * 0.1f;
    }
    for (std::size_t c = 0; c <= count; ++c) {
      compute::cuda::check(
          cudaMemcpy(volumes.data() + c * voxels, pattern.data(), bytes, cudaMemcpyHostToDevice),
          "uploading a volume", bytes);
    }
    process::MipProjector projector;
    projector.configure(*backend, shape);
    const auto volume = [&](int i) { return volumes.data() + (i % count) * voxels; };
    const int runs = 200;
    const double mip = msPerRun(s, runs, [&](int i) {
      projector.enqueue(*stream, compute::DeviceSpan<const float>(volume(i), voxels), y.view(),
                        z.view(), x.view());
    });
    int sms = 0;
    compute::cuda::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0),
                         "querying the multiprocessor count");
    const std::size_t float4s = voxels / 4;
    double read = 1e30;
    for (int threads : {128, 256, 512}) {
      const std::size_t blocks = (float4s + threads * kInFlight - 1) / (threads * kInFlight);
      read = std::min(read, msPerRun(s, runs, [&](int i) {
                        readOnce<<<static_cast<unsigned>(blocks), threads, 0, s>>>(
                            reinterpret_cast<const float4*>(volume(i)), float4s, sink.data());
                      }));
    }
    const double copy = msPerRun(s, runs, [&](int i) {
      cudaMemcpyAsync(volumes.data() + count * voxels, volume(i), bytes, cudaMemcpyDeviceToDevice,
                      s);
    });
    compute::cuda::check(cudaGetLastError(), "the timed work");
    const auto gbps = [&](double ms, double factor) { return factor * bytes / (ms * 1e-3) / 1e9; };
    std::printf("volume %d x %d x %d (%.1f MB) on %s\n", shape.ny, shape.nz, shape.nx, bytes / 1e6,
                backend->deviceName().c_str());
    std::printf("MIPs (MipProjector)     %.4f ms  %7.1f GB/s  (one read of the volume)\n", mip,
                gbps(mip, 1));
    std::printf("read once, no compute   %.4f ms  %7.1f GB/s  (the floor for any MIP)\n", read,
                gbps(read, 1));
    std::printf("copy of one volume      %.4f ms  %7.1f GB/s  (read + write)\n", copy,
                gbps(copy, 2));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cineflow-mip-floor: %s\n", e.what());
    return 1;
  }
}
