#pragma once
// HostTask: a move-only callable with inline storage, so enqueuing work never allocates
// (house style rule 5 (docs/development.md): no allocation in the frame loop). Callables larger
// than the inline capacity are rejected at compile time.

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace cineflow::compute {

// What a stream reports when a task throws something other than a std::exception.
inline constexpr const char* kUnknownTaskException =
    "a host task threw an exception that is not a std::exception";

class HostTask {
 public:
  static constexpr std::size_t kCapacity = 96;

  HostTask() noexcept = default;

  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, HostTask>>>
  HostTask(F&& fn) {  // NOLINT(google-explicit-constructor): used like std::function
    using Fn = std::decay_t<F>;
    static_assert(sizeof(Fn) <= kCapacity,
                  "HostTask callable too large: capture less or by pointer");
    static_assert(alignof(Fn) <= alignof(std::max_align_t), "HostTask callable over-aligned");
    static_assert(std::is_nothrow_move_constructible_v<Fn>, "HostTask callable must move noexcept");
    ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(fn));
    ops_ = &opsFor<Fn>;
  }

  HostTask(HostTask&& other) noexcept { moveFrom(other); }
  HostTask& operator=(HostTask&& other) noexcept {
    if (this != &other) {
      reset();
      moveFrom(other);
    }
    return *this;
  }
  HostTask(const HostTask&) = delete;
  HostTask& operator=(const HostTask&) = delete;
  ~HostTask() { reset(); }

  explicit operator bool() const noexcept { return ops_ != nullptr; }
  void operator()() { ops_->invoke(storage_); }

  void reset() noexcept {
    if (ops_ != nullptr) {
      ops_->destroy(storage_);
      ops_ = nullptr;
    }
  }

 private:
  struct Ops {
    void (*invoke)(void*);
    void (*move)(void* dst, void* src) noexcept;
    void (*destroy)(void*) noexcept;
  };
  template <class Fn>
  static constexpr Ops opsFor = {[](void* self) { (*static_cast<Fn*>(self))(); },
                                 [](void* dst, void* src) noexcept {
                                   ::new (dst) Fn(std::move(*static_cast<Fn*>(src)));
                                   static_cast<Fn*>(src)->~Fn();
                                 },
                                 [](void* self) noexcept { static_cast<Fn*>(self)->~Fn(); }};

  void moveFrom(HostTask& other) noexcept {
    if (other.ops_ != nullptr) {
      other.ops_->move(storage_, other.storage_);
      ops_ = other.ops_;
      other.ops_ = nullptr;
    }
  }

  alignas(std::max_align_t) std::byte storage_[kCapacity];
  const Ops* ops_ = nullptr;
};

}  // namespace cineflow::compute
