// CUDA twin of process/cpu/beamform.cpp: delay-and-sum of plane-wave RF with coherent
// compounding, one thread per pixel. Threads of a warp cover consecutive depths of one column, so
// their samples of a given element row lie close together (cached, nearly coalesced reads).
// The receive distance and apodisation of a pixel-element pair are computed once and reused for
// every transmit.

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "ultrasound/cuda/das_device.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"

namespace cineflow::ultrasound::cuda {
namespace {

// Enough threads to fill the device several times over (132 SMs x 2048 threads on an H100).
constexpr std::size_t kTargetThreads = 1u << 19;

// The variants (DasKernel::variantNames): threads per block, lanes per pixel (0: as many as
// fill the device, the default; 1: a thread per pixel; more: the aperture split across lanes),
// and the delays in double or split float (rfDasAccumulateSplit, with the per-row tables), or
// split float with every pixel-element pair's receive terms read from a table made once per
// geometry (rfDasAccumulateTabled; within kReceiveTableBytes, else the split-float kernel).
enum class Delays { Double, SplitFloat, Tabled };
struct DasLaunch {
  const char* name;
  int blockThreads;
  int lanes;
  Delays delays;
};
// The receive table's largest size (the default preset's is 243 MB: 248 x 958 pixels x 128
// elements x 8 bytes).
constexpr std::size_t kReceiveTableBytes = std::size_t{1} << 30;
constexpr DasLaunch kDasLaunches[] = {
    {"auto lanes, 256 threads", 256, 0, Delays::Double},
    {"thread per pixel, 128 threads", 128, 1, Delays::Double},
    {"thread per pixel, 256 threads", 256, 1, Delays::Double},
    {"thread per pixel, 512 threads", 512, 1, Delays::Double},
    {"4 lanes per pixel, 256 threads", 256, 4, Delays::Double},
    {"8 lanes per pixel, 256 threads", 256, 8, Delays::Double},
    {"split float, auto lanes, 256 threads", 256, 0, Delays::SplitFloat},
    {"split float, thread per pixel, 256 threads", 256, 1, Delays::SplitFloat},
    {"tabled receive delays, auto lanes, 256 threads", 256, 0, Delays::Tabled},
    {"tabled receive delays, thread per pixel, 256 threads", 256, 1, Delays::Tabled},
};

// One pixel per group of `lanes` consecutive threads (a power of two <= 32, so a group never
// spans two warps): lane l of the group sums elements first + l, first + l + lanes, ... and the
// group reduces with warp shuffles. Large grids use lanes = 1 (one thread per pixel); small grids
// split the aperture so that the device still fills. Pixels are numbered with z fastest, so the
// threads of a warp cover consecutive depths of one column and read nearby samples of each row.
template <int kBlockThreads, Delays kDelays>
__global__ void __launch_bounds__(kBlockThreads)
    dasKernel(const float* __restrict__ rf, float* __restrict__ image, int lanes,
              const int* __restrict__ splitBase, const float* __restrict__ splitOffset,
              const float2* __restrict__ table, const DasParams p) {
  const int thread = blockIdx.x * kBlockThreads + threadIdx.x;
  const int pixel = thread / lanes;
  const int lane = thread % lanes;
  const bool valid = pixel < p.nx * p.nz;
  const int iz = valid ? pixel % p.nz : 0;
  const int ix = valid ? pixel / p.nz : 0;
  DasPixel px;  // no elements for threads past the last pixel (they still join the shuffles)
  if (valid) {
    px = dasPixel(p, ix, iz);
  }
  float sum = 0.0f;
  for (int e = px.first + lane; e <= px.last; e += lanes) {
    if constexpr (kDelays == Delays::Tabled) {
      sum = rfDasAccumulateTabled(rf, p, px, table, splitBase, splitOffset, ix, iz, e, sum);
    } else if constexpr (kDelays == Delays::SplitFloat) {
      sum = rfDasAccumulateSplit(rf, p, px, splitBase, splitOffset, iz, e, sum);
    } else {
      sum = rfDasAccumulate(rf, p, px, e, sum);
    }
  }
  for (int offset = lanes / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset, lanes);
  }
  if (valid && lane == 0) {
    image[static_cast<std::size_t>(iz) * p.nx + ix] = sum / static_cast<float>(p.transmits);
  }
}

// The receive table (receiveTableEntry): one thread per entry, depth fastest.
__global__ void receiveTableKernel(const DasParams p, float2* __restrict__ table) {
  const std::size_t count = static_cast<std::size_t>(p.nx) * p.elements * p.nz;
  for (std::size_t index = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       index < count; index += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const int iz = static_cast<int>(index % p.nz);
    const int e = static_cast<int>(index / p.nz % p.elements);
    const int ix = static_cast<int>(index / p.nz / p.elements);
    table[index] = receiveTableEntry(p, ix, iz, e);
  }
}

}  // namespace

DasKernel::DasKernel(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                     const ImagingParams& imaging, double sampleRateHz, std::size_t samples)
    : backend_(&backend),
      params_(std::make_unique<DasParams>(
          makeDasParams(acq, imaging, sampleRateHz, static_cast<int>(samples)))) {
  // The split-float variants' per-row delays: made once for this geometry, reused every frame.
  std::vector<int> base;
  std::vector<float> offset;
  makeTransmitSplitTables(*params_, base, offset);
  splitBase_ = compute::DeviceBuffer<int>(backend, base.size());
  splitOffset_ = compute::DeviceBuffer<float>(backend, offset.size());
  compute::cuda::check(
      cudaMemcpy(splitBase_.data(), base.data(), splitBase_.bytes(), cudaMemcpyHostToDevice),
      "uploading the split delays", splitBase_.bytes());
  compute::cuda::check(
      cudaMemcpy(splitOffset_.data(), offset.data(), splitOffset_.bytes(), cudaMemcpyHostToDevice),
      "uploading the split delays", splitOffset_.bytes());
}

std::vector<std::string> DasKernel::variantNames() {
  std::vector<std::string> names;
  for (const DasLaunch& launch : kDasLaunches) {
    names.emplace_back(launch.name);
  }
  return names;
}

void DasKernel::selectVariant(std::size_t index) {
  if (index >= std::size(kDasLaunches)) {
    throw std::invalid_argument("beamform: no CUDA variant " + std::to_string(index));
  }
  if (kDasLaunches[index].delays != Delays::Tabled) {
    receiveTable_ = {};  // device memory only while a tabled variant runs
  } else if (receiveTable_.size() == 0) {
    makeReceiveTable();
  }
  variant_ = index;
}

void DasKernel::makeReceiveTable() {
  const DasParams& p = *params_;
  const std::size_t entries = static_cast<std::size_t>(p.nx) * p.elements * p.nz;
  if (entries * sizeof(float2) > kReceiveTableBytes) {
    return;  // the tabled variants run the split-float kernel
  }
  compute::DeviceBuffer<float> table;
  try {
    table = compute::DeviceBuffer<float>(*backend_, 2 * entries);
  } catch (const std::runtime_error&) {
    return;  // past the device memory budget, or out of memory: the split-float kernel instead
  }
  // On this thread's own stream, waited for alone: the engine's streams keep running.
  const unsigned blocks =
      static_cast<unsigned>(std::min<std::size_t>((entries + 255) / 256, 65535));
  receiveTableKernel<<<blocks, 256, 0, cudaStreamPerThread>>>(
      p, reinterpret_cast<float2*>(table.data()));
  compute::cuda::checkLaunch("receiveTableKernel", cudaStreamPerThread);
  compute::cuda::check(cudaStreamSynchronize(cudaStreamPerThread), "making the receive table");
  receiveTable_ = std::move(table);
}

void DasKernel::enqueue(compute::Stream& stream, const float* rf, float* image) const {
  const compute::ScopedRange range("beamform");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  const DasParams& p = *params_;
  const DasLaunch& launch = kDasLaunches[variant_];
  const std::size_t pixels = static_cast<std::size_t>(p.nx) * static_cast<std::size_t>(p.nz);
  int lanes = launch.lanes;
  if (lanes == 0) {
    lanes = 1;
    while (lanes < 32 && pixels * lanes < kTargetThreads && lanes * 2 <= p.elements) {
      lanes *= 2;
    }
  }
  const std::size_t threads = pixels * static_cast<std::size_t>(lanes);
  const auto blocks = [&](int perBlock) {
    return static_cast<unsigned>((threads + perBlock - 1) / perBlock);
  };
  const int* base = splitBase_.data();
  const float* offset = splitOffset_.data();
  const auto* table = reinterpret_cast<const float2*>(receiveTable_.data());
  if (launch.delays == Delays::Tabled && table != nullptr) {
    dasKernel<256, Delays::Tabled>
        <<<blocks(256), 256, 0, s>>>(rf, image, lanes, base, offset, table, p);
  } else if (launch.delays != Delays::Double) {
    dasKernel<256, Delays::SplitFloat>
        <<<blocks(256), 256, 0, s>>>(rf, image, lanes, base, offset, table, p);
  } else {
    switch (launch.blockThreads) {
      case 128:
        dasKernel<128, Delays::Double>
            <<<blocks(128), 128, 0, s>>>(rf, image, lanes, base, offset, table, p);
        break;
      case 512:
        dasKernel<512, Delays::Double>
            <<<blocks(512), 512, 0, s>>>(rf, image, lanes, base, offset, table, p);
        break;
      default:
        dasKernel<256, Delays::Double>
            <<<blocks(256), 256, 0, s>>>(rf, image, lanes, base, offset, table, p);
        break;
    }
  }
  compute::cuda::checkLaunch("dasKernel", s);
}

}  // namespace cineflow::ultrasound::cuda
