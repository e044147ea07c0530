#include "oct_dispersion_option.hpp"

#include <cstdio>
#include <stdexcept>

#include "oct/dispersion_search.hpp"
#include "oct/k_table_file.hpp"

namespace cineflow::app {

DispersionOption parseDispersionOption(const std::string& text) {
  DispersionOption option;
  if (text == "auto") {
    option.automatic = true;
    return option;
  }
  const std::vector<double> values = oct::parseKPolynomial(text);  // the same number list
  if (values.size() != 2 && values.size() != 3) {
    throw std::invalid_argument(
        "--oct-dispersion needs two numbers, a2,a3 (radians), a third for the centre wavelength "
        "in nm they are stated about, or auto; not '" +
        text + "'");
  }
  option.a2 = values[0];
  option.a3 = values[1];
  if (values.size() == 3) {
    if (!(values[2] >= 200 && values[2] <= 3000)) {
      throw std::invalid_argument("--oct-dispersion: the centre wavelength " +
                                  text.substr(text.rfind(',') + 1) +
                                  " is not in nanometres (200 to 3000)");
    }
    option.centreM = values[2] * 1e-9;
  }
  return option;
}

void applyDispersion(const DispersionOption& option, oct::OctParams& params,
                     const oct::OctAcquisition& acquisition,
                     const std::function<std::vector<std::uint16_t>()>& bscan,
                     const std::string& context) {
  params.dispersionCentreM = option.centreM;
  if (!option.automatic) {
    params.a2 = option.a2;
    params.a3 = option.a3;
    return;
  }
  const oct::DispersionEstimate estimate = oct::searchDispersion(acquisition, params, bscan());
  params.a2 = estimate.a2;
  params.a3 = estimate.a3;
  std::printf("cineflow%s: --oct-dispersion auto: a2 = %.2f rad, a3 = %.2f rad about %.1f nm\n",
              context.c_str(), estimate.a2, estimate.a3,
              params.dispersionCentre(acquisition) * 1e9);
  std::fflush(stdout);
}

}  // namespace cineflow::app
