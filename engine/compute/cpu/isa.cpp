#include "compute/cpu/isa.hpp"

#include "base/enum_names.hpp"

namespace cineflow::compute::cpu {

const char* toString(Isa isa) noexcept {
  static constexpr base::Named<Isa> kNames[] = {
      {Isa::Avx512, "avx512"}, {Isa::Avx2, "avx2"}, {Isa::Portable, "portable"}};
  return base::nameIn(kNames, isa, "portable");
}

const std::vector<Isa>& availableIsas() {
  static const std::vector<Isa> isas = [] {
    std::vector<Isa> list;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) {
      list.push_back(Isa::Avx512);
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
      list.push_back(Isa::Avx2);
    }
#endif
    list.push_back(Isa::Portable);
    return list;
  }();
  return isas;
}

}  // namespace cineflow::compute::cpu
