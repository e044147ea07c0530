#pragma once
// The --oct-dispersion value that the headless run and `cineflow convert` share:
//   A2,A3      radians at u = 1 (oct_params.hpp), stated about the recording's centre wavelength
//   A2,A3,NM   the same stated about NM nanometres
//   auto       the sharpest a2 and a3 for one B-scan (dispersion_search.hpp), printed

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "oct/oct_params.hpp"

namespace cineflow::app {

struct DispersionOption {
  bool automatic = false;
  double a2 = 0, a3 = 0;
  double centreM = 0;  // 0: the recording's centre wavelength
};

// Throws std::invalid_argument naming the expected forms.
DispersionOption parseDispersionOption(const std::string& text);

// Sets `params`' dispersion from `option`. With "auto", searches the B-scan `bscan()` returns
// (raw frame of `acquisition`) with `params`' other settings and prints the values found on
// stdout, as "cineflow<context>: --oct-dispersion auto: a2 = ..., a3 = ... rad about ... nm".
void applyDispersion(const DispersionOption& option, oct::OctParams& params,
                     const oct::OctAcquisition& acquisition,
                     const std::function<std::vector<std::uint16_t>()>& bscan,
                     const std::string& context = "");

}  // namespace cineflow::app
