#pragma once
// The instruction sets the CPU kernels' variants are compiled for, and which this CPU has: each
// kernel compiles its row loop three times (an inlined body in functions marked
// CINEFLOW_ISA_AVX512, CINEFLOW_ISA_AVX2 and unmarked) and offers those this CPU can run as its
// variants, which the tuner (tune/tuner.hpp) times. On other compilers and architectures the
// marks are empty and only "portable" is offered.

#include <string>
#include <vector>

namespace cineflow::compute::cpu {

enum class Isa { Avx512, Avx2, Portable };

const char* toString(Isa isa) noexcept;  // "avx512" | "avx2" | "portable"
// Those this CPU can run, fastest first; Portable always, last.
const std::vector<Isa>& availableIsas();

// One of three compilations of a function, by instruction set.
template <class F>
F pickIsa(Isa isa, F avx512, F avx2, F portable) {
  return isa == Isa::Avx512 ? avx512 : isa == Isa::Avx2 ? avx2 : portable;
}

// A kernel's variant: its name (a tuner's choice) and its function.
template <class F>
struct NamedVariant {
  std::string name;
  F function;
};
// A kernel's variants this CPU runs, fastest expected first: `fusedAvx512` (hand-written for
// AVX-512; null: none) as "avx512-fused" where the CPU has AVX-512, then the three compilations
// of one loop by instruction set, named as toString().
template <class F>
std::vector<NamedVariant<F>> isaVariants(F fusedAvx512, F avx512, F avx2, F portable) {
  std::vector<NamedVariant<F>> variants;
  const std::vector<Isa>& isas = availableIsas();
  if (fusedAvx512 != nullptr && isas.front() == Isa::Avx512) {
    variants.push_back({"avx512-fused", fusedAvx512});
  }
  for (const Isa isa : isas) {
    variants.push_back({toString(isa), pickIsa(isa, avx512, avx2, portable)});
  }
  return variants;
}

}  // namespace cineflow::compute::cpu

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CINEFLOW_ISA_AVX512 __attribute__((target("arch=x86-64-v4")))
#define CINEFLOW_ISA_AVX2 __attribute__((target("arch=x86-64-v3")))
#else
#define CINEFLOW_ISA_AVX512
#define CINEFLOW_ISA_AVX2
#endif
