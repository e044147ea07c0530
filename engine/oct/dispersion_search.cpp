#include "oct/dispersion_search.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <vector>

#include "oct/cpu/oct_stages.hpp"

namespace cineflow::oct {
namespace {

constexpr int kGridPoints = 41;
constexpr int kGoldenSteps = 24;

// The best x in [lo, hi] for `score`: the best of a grid, then golden-section search between its
// neighbours.
double maximise(const std::function<double(double)>& score, double lo, double hi) {
  const double step = (hi - lo) / (kGridPoints - 1);
  double best = lo;
  double bestScore = score(lo);
  for (int i = 1; i < kGridPoints; ++i) {
    const double x = lo + i * step;
    if (const double s = score(x); s > bestScore) {
      best = x;
      bestScore = s;
    }
  }
  const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
  double a = best - step, b = best + step;
  double c = b - ratio * (b - a), d = a + ratio * (b - a);
  double sc = score(c), sd = score(d);
  for (int i = 0; i < kGoldenSteps; ++i) {
    if (sc > sd) {
      b = d;
      d = c;
      sd = sc;
      c = b - ratio * (b - a);
      sc = score(c);
    } else {
      a = c;
      c = d;
      sc = sd;
      d = a + ratio * (b - a);
      sd = score(d);
    }
  }
  const double refined = 0.5 * (a + b);
  return score(refined) >= bestScore ? refined : best;
}

}  // namespace

DispersionEstimate searchDispersion(const OctAcquisition& acquisition, const OctParams& base,
                                    std::span<const std::uint16_t> bscan, double a2Range,
                                    double a3Range, int ascanStep) {
  acquisition.validate();
  base.validate(acquisition);
  if (bscan.size() != acquisition.samplesPerFrame()) {
    throw std::invalid_argument("dispersion search: the B-scan holds " +
                                std::to_string(bscan.size()) + " samples, expected " +
                                std::to_string(acquisition.samplesPerFrame()));
  }
  // Every ascanStep-th imaged A-scan, as a smaller acquisition without flyback.
  const auto samples = static_cast<std::size_t>(acquisition.samples);
  OctAcquisition sub = acquisition;
  sub.flybackAscans = 0;
  sub.ascans = (acquisition.imagedAscans() + ascanStep - 1) / std::max(ascanStep, 1);
  std::vector<std::uint16_t> raw(static_cast<std::size_t>(sub.ascans) * samples);
  for (int a = 0; a < sub.ascans; ++a) {
    std::copy_n(bscan.data() + static_cast<std::size_t>(a * ascanStep) * samples, samples,
                raw.data() + static_cast<std::size_t>(a) * samples);
  }
  std::vector<float> background(samples);
  if (base.background == Background::Reference) {
    background = base.reference;
  } else {
    cpu::meanSpectrum(raw.data(), sub.ascans, acquisition.samples, background.data());
  }
  OctParams params = base;
  std::vector<float> image(params.geometry(sub).pixels());
  cpu::OctCpuChain chain;
  const auto sharpness = [&](double a2, double a3) {
    params.a2 = a2;
    params.a3 = a3;
    chain.configure(sub, params);
    chain.transform(raw.data(), background.data(), image.data(), false);
    double sum = 0, squares = 0;
    for (const float db : image) {
      const double intensity = std::pow(10.0, db / 10.0);
      sum += intensity;
      squares += intensity * intensity;
    }
    return sum > 0 ? squares / (sum * sum) : 0.0;
  };
  const DispersionLimits limits = dispersionLimits(acquisition.samples);
  a2Range = std::min(a2Range, limits.a2);
  a3Range = std::min(a3Range, limits.a3);
  DispersionEstimate estimate;
  estimate.a2 = maximise([&](double a2) { return sharpness(a2, 0.0); }, -a2Range, a2Range);
  estimate.a3 = maximise([&](double a3) { return sharpness(estimate.a2, a3); }, -a3Range, a3Range);
  estimate.sharpness = sharpness(estimate.a2, estimate.a3);
  return estimate;
}

std::vector<std::uint16_t> middleBscan(acquire::FrameSource& source) {
  std::vector<std::uint16_t> bscan(source.frameBytes() / sizeof(std::uint16_t));
  acquire::SliceInfo slice;
  source.readFrame(source.frameCount() / 2, std::as_writable_bytes(std::span(bscan)), slice);
  return bscan;
}

}  // namespace cineflow::oct
