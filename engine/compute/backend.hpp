#pragma once
// The execution model (docs/development.md, Execution model and backends): a small mirror of CUDA
// that the pipeline is written against once. CUDA backend: cudaStream_t / cudaEvent_t / cudaMalloc
// / cudaHostAlloc. CPU backend: a worker thread per stream running tasks in order, host-side
// events, aligned host memory.
//
// Threading contract: a Stream may be used (enqueued to) from one host thread at a time; Events
// may be queried and synchronised from any thread. Work enqueued on a Stream runs in order;
// work on different Streams is ordered only through record()/wait().

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "compute/device_budget.hpp"
#include "compute/host_task.hpp"

namespace cineflow::compute {

enum class BackendKind { Cpu, Cuda };
enum class MemorySpace { Device, Pinned, Host };

const char* toString(BackendKind kind) noexcept;
const char* toString(MemorySpace space) noexcept;

class Event {
 public:
  virtual ~Event() = default;
  // The backend that made this event, fixed at construction: a backend's stream takes its own
  // events without asking their dynamic type.
  BackendKind kind() const { return kind_; }
  // True when the work captured by the most recent record() has completed, or if never recorded.
  virtual bool query() const = 0;
  // Blocks the calling host thread until query() would return true.
  virtual void synchronize() const = 0;
  // Milliseconds between the completion of `start` and of this event; both must have completed
  // and both must be timed (Backend::createEvent, not createSyncEvent): std::logic_error otherwise.
  virtual double elapsedMsSince(const Event& start) const = 0;

 protected:
  explicit Event(BackendKind kind) : kind_(kind) {}

 private:
  BackendKind kind_;
};

class Stream {
 public:
  virtual ~Stream() = default;  // Waits for all enqueued work to finish, then releases the stream.
  // The backend that made this stream, fixed at construction: a stage's kernel of that backend
  // takes the stream's native handle without asking its dynamic type (cuda/cuda_stream.hpp).
  BackendKind kind() const { return kind_; }
  virtual const std::string& name() const = 0;
  // Captures the work enqueued so far; the event completes when that work has run.
  virtual void record(Event& event) = 0;
  // Later work on this stream starts only after `event`'s most recent record has completed.
  virtual void wait(const Event& event) = 0;
  // Runs `task` on a host thread after earlier work on this stream (cudaLaunchHostFunc). The task
  // must be quick and must not enqueue work on any stream or synchronise.
  virtual void enqueueHost(HostTask task) = 0;
  // Copies `bytes` between any two memory spaces of this backend, in stream order.
  virtual void copyAsync(void* dst, const void* src, std::size_t bytes) = 0;
  // Blocks the calling host thread until all work enqueued so far has completed.
  virtual void synchronize() = 0;
  // Returns and clears the first error raised by work on this stream (an exception thrown by a
  // CPU task, an asynchronous kernel fault); empty when there was none.
  virtual std::string takeError() = 0;

 protected:
  explicit Stream(BackendKind kind) : kind_(kind) {}

 private:
  BackendKind kind_;
};

struct DeviceMemoryInfo {
  std::size_t freeBytes = 0;
  std::size_t totalBytes = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendKind kind() const = 0;
  // Human-readable device name ("CPU (16 threads)", "NVIDIA H100 80GB HBM3").
  virtual std::string deviceName() const = 0;
  // What a timing on this backend depends on besides the device's name, for the tuner's history
  // (tune/tuning_history.hpp): the CPU's model, or the NVIDIA driver's version.
  virtual std::string hardwareIdentity() const { return {}; }
  virtual std::unique_ptr<Stream> createStream(const std::string& name) = 0;
  // A timed event: elapsedMsSince() works between two of them (stage times, frame times).
  virtual std::unique_ptr<Event> createEvent() = 0;
  // An event for ordering and waiting only (a slot's release, a volume's readiness): on CUDA it
  // records without a timestamp (cudaEventDisableTiming), which costs less. The default makes a
  // timed one.
  virtual std::unique_ptr<Event> createSyncEvent() { return createEvent(); }
  // Throws std::runtime_error naming the space and size when the allocation fails, or when
  // device memory would pass the budget (setDeviceMemoryBudget()).
  void* allocate(MemorySpace space, std::size_t bytes);
  void deallocate(MemorySpace space, void* ptr) noexcept;
  // The most MemorySpace::Device memory this backend hands out at once; 0: no budget (the
  // default). Device memory is the GPU's on the CUDA backend, host memory on the CPU backend.
  void setDeviceMemoryBudget(std::size_t bytes) { budget_.setLimit(bytes); }
  const DeviceMemoryBudget& deviceMemoryBudget() const { return budget_; }
  // A blocking copy outside any stream's order, for readers (display, review) that must not queue
  // behind the pipeline's streams. The caller guarantees nothing writes `src` meanwhile, or checks
  // afterwards (the cineloop's seqlock).
  virtual void copyBlocking(void* dst, const void* src, std::size_t bytes) const = 0;
  // Sets `bytes` of device memory at `dst` to zero, outside any stream's order (configuration
  // time only). On the CPU backend this also commits the pages, so a buffer the frame loop writes
  // costs no page faults there (and a shortage of memory shows when it is configured, not as a
  // fault in the middle of an acquisition).
  virtual void zeroBlocking(void* dst, std::size_t bytes) const = 0;
  virtual DeviceMemoryInfo memoryInfo() const = 0;

 protected:
  // The backend's own allocation, behind allocate()'s budget.
  virtual void* allocateMemory(MemorySpace space, std::size_t bytes) = 0;
  virtual void deallocateMemory(MemorySpace space, void* ptr) noexcept = 0;

 private:
  DeviceMemoryBudget budget_;
};

enum class BackendRequest { Auto, Cpu, Cuda };

// Parses "auto" / "cpu" / "cuda"; throws std::invalid_argument otherwise.
BackendRequest parseBackendRequest(const std::string& text);

// Creates the requested backend. Auto picks CUDA when a usable device exists and otherwise the
// CPU, writing why into `message` (never empty on fallback): "CUDA unavailable: <reason>", the
// reason naming what failed and what to do (compute/cuda_diagnosis.hpp: no driver, a driver
// older than this build's runtime, no device, no code in this build for the device's
// architecture, ...). Cuda throws std::runtime_error with the same text instead. The device is
// CINEFLOW_CUDA_DEVICE (default 0).
std::unique_ptr<Backend> createBackend(BackendRequest request, std::string* message = nullptr);

}  // namespace cineflow::compute
