#pragma once
// The taps of the circular Hilbert kernel that EnvelopeDetector's contract implies, for the
// "direct" variants (CPU and CUDA): with the analytic filter H of the contract (1 at DC and at
// Nyquist, 2 for positive, 0 for negative bins), IDFT_N(DFT_N(x) H) = x + j (h (*) x), circular
// convolution with
//   h[m] = (2 / N) sum_{k=1}^{M} sin(2 pi k m / N),  M = (N - 1) / 2 (integer division)
//        = (2 / N) sin(M t / 2) sin((M + 1) t / 2) / sin(t / 2),  t = 2 pi m / N, h[0] = 0.
// For even N every even m gives 0, so half the taps vanish.

#include <cstddef>
#include <vector>

namespace cineflow::ultrasound {

struct HilbertTaps {
  std::vector<int> offsets;    // m, ascending, with h[m] != 0
  std::vector<float> weights;  // h[m]
};

// Throws std::invalid_argument for n == 0.
HilbertTaps hilbertTaps(std::size_t n);

}  // namespace cineflow::ultrasound
