"""The Python module's zero-copy path with a foreign GPU array, without CuPy (tools/gpu_sweep.sh).

A small object exposes __cuda_array_interface__ v3 over memory allocated through the CUDA runtime
with ctypes, filled on a stream of its own: that stream is first kept busy (memsets of a scratch
buffer), then the RF frame is copied in from pinned memory, and cineflow.beamform is called at
once. Cineflow must wait for the array's stream (else it reads the zeros the buffer held before
the copy landed), read the array in place (the object offers no host copy: no __array__, no
__array_interface__, no DLPack) and return a cineflow.DeviceArray in device memory, equal to the
result of the same frame given as NumPy. A control call names no stream while the stream is busy
again: its result is printed, not judged (it shows whether the busy stream really races).

    python3 gpu_foreign_array.py           the check: exit 0 passed, 1 failed, 77 skipped
    python3 gpu_foreign_array.py --count   cudaGetDeviceCount: exit 0 when a device answers
"""
import ctypes
import glob
import sys
import time

SKIPPED = 77
CUDA_MEMCPY_HOST_TO_DEVICE = 1
CUDA_STREAM_NON_BLOCKING = 1
CUDA_MEMORY_TYPE_DEVICE = 2


def load_cudart():
    """The CUDA runtime the module loaded (dlopen by name finds it), else the toolkit's."""
    candidates = ["libcudart.so.13", "libcudart.so.12", "libcudart.so"]
    candidates += sorted(glob.glob("/usr/local/cuda*/lib64/libcudart.so*"), reverse=True)
    errors = []
    for name in candidates:
        try:
            cudart = ctypes.CDLL(name)
        except OSError as e:
            errors.append(str(e))
            continue
        cudart.cudaGetErrorString.restype = ctypes.c_char_p
        return cudart, ""
    return None, "; ".join(errors[:2]) or "no libcudart"


def device_count():
    cudart, why = load_cudart()
    if cudart is None:
        return 0, "cudaGetDeviceCount: the CUDA runtime did not load: " + why
    count = ctypes.c_int(0)
    error = cudart.cudaGetDeviceCount(ctypes.byref(count))
    if error != 0:
        return 0, "cudaGetDeviceCount: error %d (%s)" % (
            error, cudart.cudaGetErrorString(error).decode())
    return count.value, "cudaGetDeviceCount: %d" % count.value


class Cuda:
    """The few runtime calls the check makes, each checked."""

    def __init__(self, cudart):
        self.rt = cudart

    def __call__(self, name, *args):
        error = getattr(self.rt, name)(*args)
        if error != 0:
            raise RuntimeError("%s: error %d (%s)" % (
                name, error, self.rt.cudaGetErrorString(error).decode()))

    def malloc(self, nbytes):
        pointer = ctypes.c_void_p()
        self("cudaMalloc", ctypes.byref(pointer), ctypes.c_size_t(nbytes))
        return pointer.value

    def memory_type(self, address):
        class Attributes(ctypes.Structure):  # cudaPointerAttributes (driver_types.h, CUDA 12+)
            # The reserved words are part of the struct the runtime writes: without them it
            # wrote 64 bytes past a 24-byte object and the interpreter crashed later.
            _fields_ = [("type", ctypes.c_int), ("device", ctypes.c_int),
                        ("devicePointer", ctypes.c_void_p), ("hostPointer", ctypes.c_void_p),
                        ("reserved", ctypes.c_long * 8)]
        attributes = Attributes()
        self("cudaPointerGetAttributes", ctypes.byref(attributes), ctypes.c_void_p(address))
        return attributes.type


class ForeignArray:
    """A GPU array as another library lends it: the CUDA array interface v3 and nothing else."""

    def __init__(self, pointer, shape, typestr, stream):
        self.pointer, self.shape, self.typestr, self.stream = pointer, shape, typestr, stream
        self.reads = 0

    @property
    def __cuda_array_interface__(self):
        self.reads += 1
        return {"version": 3, "shape": self.shape, "typestr": self.typestr,
                "data": (self.pointer, False), "strides": None, "stream": self.stream}


def main():
    if "--count" in sys.argv:
        count, text = device_count()
        print(text)
        return 0 if count > 0 else 1
    import numpy as np
    import cineflow

    info = cineflow.backend_info("auto")
    if info["kind"] != "cuda":
        print("skipped: no CUDA device (%s)" % info["fallback"])
        return SKIPPED
    cudart, why = load_cudart()
    if cudart is None:
        print("failed: the CUDA runtime did not load: " + why)
        return 1
    cuda = Cuda(cudart)
    print("device:", info["device"])

    rng = np.random.default_rng(29)
    transmits, elements, samples = 3, 128, 2048
    acq = cineflow.Acquisition(fs=20e6, f0=5e6, angles=[-0.1, 0.0, 0.1],
                               element_x=list((np.arange(elements) - 63.5) * 0.3e-3),
                               samples=samples, t0=0.0)
    rf = np.ascontiguousarray(
        rng.integers(-2000, 2000, size=(transmits, elements, samples), dtype=np.int16))
    keywords = dict(grid="-15:15:0.2,5:40:0.2", backend="cuda")
    expected = cineflow.beamform(rf, acq, **keywords)
    assert isinstance(expected, np.ndarray) and np.abs(expected).max() > 0

    nbytes = rf.nbytes
    device = cuda.malloc(nbytes)
    host = ctypes.c_void_p()
    cuda("cudaMallocHost", ctypes.byref(host), ctypes.c_size_t(nbytes))
    ctypes.memmove(host.value, rf.ctypes.data, nbytes)
    scratch_bytes = 2 << 30
    scratch = cuda.malloc(scratch_bytes)
    stream = ctypes.c_void_p()
    cuda("cudaStreamCreateWithFlags", ctypes.byref(stream), ctypes.c_uint(CUDA_STREAM_NON_BLOCKING))
    done = ctypes.c_void_p()
    cuda("cudaEventCreate", ctypes.byref(done))

    def fill_late(busy_memsets):
        """Zeros in the array now; the frame lands on the stream after the busy work."""
        cuda("cudaMemset", ctypes.c_void_p(device), 0, ctypes.c_size_t(nbytes))
        cuda("cudaDeviceSynchronize")
        for i in range(busy_memsets):
            cuda("cudaMemsetAsync", ctypes.c_void_p(scratch), i & 0xff,
                 ctypes.c_size_t(scratch_bytes), stream)
        cuda("cudaMemcpyAsync", ctypes.c_void_p(device), host, ctypes.c_size_t(nbytes),
             CUDA_MEMCPY_HOST_TO_DEVICE, stream)
        cuda("cudaEventRecord", done, stream)

    # How long the busy work takes, so the report can say how far behind the frame lands.
    fill_late(64)
    begin = time.perf_counter()
    cuda("cudaStreamSynchronize", stream)
    busy_ms = (time.perf_counter() - begin) * 1e3
    print("busy stream: 64 memsets of 2 GiB then the copy, %.1f ms after enqueueing" % busy_ms)

    checks = []
    fill_late(64)
    foreign = ForeignArray(device, rf.shape, "<i2", stream.value)
    begin = time.perf_counter()
    result = cineflow.beamform(foreign, acq, **keywords)
    call_ms = (time.perf_counter() - begin) * 1e3
    stream_done = cudart.cudaEventQuery(done) == 0
    print("cineflow.beamform on the foreign array: %.1f ms" % call_ms)
    checks.append(("the stream's work was complete when the call returned", stream_done))
    checks.append(("the array was read through __cuda_array_interface__ (%d reads)" % foreign.reads,
                   foreign.reads >= 1))
    is_device_array = isinstance(result, cineflow.DeviceArray) and result.backend == "cuda"
    checks.append(("a cineflow.DeviceArray on the cuda backend came back (in-place input)",
                   is_device_array))
    if is_device_array:
        pointer = result.__cuda_array_interface__["data"][0]
        memory_type = cuda.memory_type(pointer)
        checks.append(("the result is device memory (cudaPointerGetAttributes type %d)"
                       % memory_type, memory_type == CUDA_MEMORY_TYPE_DEVICE))
        values = cineflow.pull(result)
        same = values.shape == expected.shape and np.array_equal(values, expected)
        if not same and values.shape == expected.shape:
            difference = (values - expected).astype(np.float64)
            error = np.sqrt(np.sum(difference ** 2) / np.sum(expected.astype(np.float64) ** 2))
            print("relative L2 difference from the NumPy input's result: %.3g" % error)
        checks.append(("equal to the NumPy input's result, bit for bit", same))

    # Control: the same race with no stream named (v3: None means ready to read).
    fill_late(64)
    unsynchronised = cineflow.beamform(ForeignArray(device, rf.shape, "<i2", None), acq,
                                       **keywords)
    cuda("cudaStreamSynchronize", stream)
    raced = not np.array_equal(cineflow.pull(unsynchronised), expected)
    print("control, no stream named: %s (not judged)" % (
        "read the array before the copy landed, so the busy stream does race" if raced
        else "read the finished copy anyway"))

    for text, ok in checks:
        print("%s: %s" % ("ok" if ok else "FAILED", text))
    failed = [text for text, ok in checks if not ok]
    print("foreign GPU array: %s" % ("passed" if not failed else "failed"))
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
