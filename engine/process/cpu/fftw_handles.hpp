#pragma once
// RAII owners for FFTW single-precision resources (house style rule 2, docs/development.md): plans
// are destroyed under the planner mutex, arrays come from fftwf_malloc (SIMD-aligned, so one plan
// can execute on every array of the same kind through the new-array interface).

#include <fftw3.h>

#include <cstddef>
#include <new>
#include <utility>

#include "process/cpu/fftw_lock.hpp"

namespace cineflow::process::cpu {

template <class T>
class FftwArray {
 public:
  FftwArray() = default;
  explicit FftwArray(std::size_t count)
      : data_(static_cast<T*>(fftwf_malloc(count * sizeof(T)))), size_(count) {
    if (data_ == nullptr) {
      throw std::bad_alloc();
    }
  }
  FftwArray(FftwArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  FftwArray& operator=(FftwArray&& other) noexcept {
    if (this != &other) {
      fftwf_free(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  FftwArray(const FftwArray&) = delete;
  FftwArray& operator=(const FftwArray&) = delete;
  ~FftwArray() { fftwf_free(data_); }

  T* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

class FftwPlan {
 public:
  FftwPlan() = default;
  // Takes ownership of a plan made by the caller under fftwPlannerMutex().
  explicit FftwPlan(fftwf_plan plan) : plan_(plan) {}
  FftwPlan(FftwPlan&& other) noexcept : plan_(std::exchange(other.plan_, nullptr)) {}
  FftwPlan& operator=(FftwPlan&& other) noexcept {
    if (this != &other) {
      reset();
      plan_ = std::exchange(other.plan_, nullptr);
    }
    return *this;
  }
  FftwPlan(const FftwPlan&) = delete;
  FftwPlan& operator=(const FftwPlan&) = delete;
  ~FftwPlan() { reset(); }

  fftwf_plan get() const { return plan_; }

 private:
  void reset() noexcept {
    if (plan_ != nullptr) {
      std::lock_guard lock(fftwPlannerMutex());
      fftwf_destroy_plan(plan_);
      plan_ = nullptr;
    }
  }

  fftwf_plan plan_ = nullptr;
};

}  // namespace cineflow::process::cpu
