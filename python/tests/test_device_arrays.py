"""Device arrays as pyclesperanto offers them (cineflow.push, pull, create, memory), and the array
calls on device input: read in place, a cineflow.DeviceArray out, the same numbers as NumPy in.

On the cpu backend a DeviceArray is host memory the NumPy array interface and DLPack lend; the
CUDA cases run where a device answers and skip otherwise.
"""
import gc

import numpy as np
import pytest

import cineflow

DTYPES = [np.float32, np.int16, np.uint16, np.complex64]


def random_array(rng, dtype, shape=(3, 5, 7)):
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype)
    values = rng.standard_normal(shape) * 1e3
    if np.issubdtype(dtype, np.complexfloating):
        values = values + 1j * rng.standard_normal(shape)
    return values.astype(dtype)


def cuda_or_skip():
    if cineflow.backend_info("auto")["kind"] != "cuda":
        pytest.skip("no CUDA device: " + cineflow.backend_info("auto")["fallback"])


@pytest.mark.parametrize("dtype", DTYPES)
def test_push_then_pull_returns_the_same_values(dtype):
    rng = np.random.default_rng(11)
    host = random_array(rng, dtype)
    array = cineflow.push(host, backend="cpu")
    assert isinstance(array, cineflow.DeviceArray)
    assert array.shape == host.shape and array.dtype == host.dtype
    assert array.nbytes == host.nbytes and array.backend == "cpu" and array.writable
    back = cineflow.pull(array)
    assert isinstance(back, np.ndarray) and np.array_equal(back, host)
    assert back.ctypes.data != array.ptr  # pull copies


def test_a_cpu_device_array_is_shared_with_numpy_without_a_copy():
    rng = np.random.default_rng(12)
    array = cineflow.push(random_array(rng, np.float32), backend="cpu")
    view = np.asarray(array)
    assert view.ctypes.data == array.ptr
    view[1, 2, 3] = 42.0  # the script's own memory: writable
    assert cineflow.pull(array)[1, 2, 3] == 42.0
    through_dlpack = np.from_dlpack(array)
    assert through_dlpack.ctypes.data == array.ptr and array.__dlpack_device__() == (1, 0)
    with pytest.raises(AttributeError, match="host memory"):
        array.__cuda_array_interface__


def test_push_takes_any_layout_and_makes_float64_float32():
    rng = np.random.default_rng(13)
    host = random_array(rng, np.int16, (6, 8))
    pushed = cineflow.push(host.T, backend="cpu")  # a transposed view: copied in C order
    assert pushed.shape == (8, 6) and np.array_equal(cineflow.pull(pushed), host.T)
    doubles = rng.standard_normal((4, 4))
    single = cineflow.push(doubles, backend="cpu")
    assert single.dtype == np.float32
    assert np.array_equal(cineflow.pull(single), doubles.astype(np.float32))
    assert cineflow.push(pushed, backend="cpu") is pushed  # already there
    with pytest.raises(TypeError, match="int64.*float32, int16, uint16 or complex64"):
        cineflow.push(np.arange(4), backend="cpu")
    with pytest.raises(TypeError, match="pull takes a cineflow.DeviceArray"):
        cineflow.pull([1, 2, 3])


@pytest.mark.parametrize("dtype", ["complex64", np.complex64, np.dtype("complex64")])
def test_create_takes_a_dtype_as_numpy_does(dtype):
    array = cineflow.create([2, 3], dtype=dtype, backend="cpu")
    assert array.dtype == np.complex64 and array.shape == (2, 3)
    assert np.array_equal(cineflow.pull(array), np.zeros((2, 3), np.complex64))
    with pytest.raises(TypeError, match="float16' is not one Cineflow keeps"):
        cineflow.create([2], dtype=np.float16, backend="cpu")
    with pytest.raises(TypeError, match="is not a NumPy dtype"):
        cineflow.create([2], dtype="no such type", backend="cpu")


def test_create_and_the_memory_readout():
    before = cineflow.memory("cpu")
    assert before["backend"] == "cpu" and before["total_bytes"] >= before["free_bytes"] > 0
    array = cineflow.create((64, 128, 3), dtype="complex64", backend="cpu")
    assert array.shape == (64, 128, 3) and array.dtype == np.complex64
    assert not np.any(cineflow.pull(array))  # zeroed
    held = cineflow.memory("cpu")["arrays_bytes"]
    assert held - before["arrays_bytes"] == 64 * 128 * 3 * 8
    del array
    gc.collect()
    assert cineflow.memory("cpu")["arrays_bytes"] == before["arrays_bytes"]
    with pytest.raises(TypeError, match="'float16' is not one Cineflow keeps"):
        cineflow.create((4,), dtype="float16", backend="cpu")
    with pytest.raises(ValueError, match="not negative"):
        cineflow.create((4, -1), backend="cpu")


def synthetic(rng):
    elements, samples = 32, 512
    acq = cineflow.Acquisition(fs=20e6, f0=5e6, angles=[-0.1, 0.1],
                               element_x=list((np.arange(elements) - 15.5) * 0.3e-3),
                               samples=samples, t0=0.0)
    rf = rng.integers(-2000, 2000, size=(2, elements, samples), dtype=np.int16)
    return acq, rf


@pytest.mark.parametrize("call,mode,dtype", [("bmode", "rf", np.float32),
                                             ("beamform", "rf", np.float32),
                                             ("beamform", "iq", np.complex64)])
def test_device_input_gives_a_device_array_with_the_same_values(call, mode, dtype):
    """The stages read the DeviceArray in place; the result equals NumPy input's bit for bit (the
    same stages, the same variants)."""
    rng = np.random.default_rng(14)
    acq, rf = synthetic(rng)
    function = getattr(cineflow, call)
    expected = function(rf, acq, mode=mode, backend="cpu", variants={"beamform": "portable"})
    result = function(cineflow.push(rf, backend="cpu"), acq, mode=mode, backend="cpu",
                      variants={"beamform": "portable"})
    assert isinstance(result, cineflow.DeviceArray) and result.dtype == dtype
    assert np.array_equal(cineflow.pull(result), expected)
    assert np.abs(expected).max() > 0


def test_oct_bscan_and_doppler_on_device_input(datasets):
    source = cineflow.Source("oct-sim")
    spectra = source.read(0)
    expected = cineflow.oct_bscan(spectra, source.acquisition, backend="cpu", tune=False)
    image = cineflow.oct_bscan(cineflow.push(spectra, backend="cpu"), source.acquisition,
                               backend="cpu", tune=False)
    assert isinstance(image, cineflow.DeviceArray)
    assert np.array_equal(cineflow.pull(image), expected)

    disk = cineflow.Source(str(datasets / "verasonics_rotating_disk.h5"))
    frames = np.stack([disk.read(i) for i in range(16)])
    keywords = dict(grid="-5:5:0.25,15:25:0.25", ensemble=16, backend="cpu", tune=False)
    flow = cineflow.doppler(frames, disk.acquisition, **keywords)
    on_device = cineflow.doppler(cineflow.push(frames, backend="cpu"), disk.acquisition,
                                 **keywords)
    for layer in ("bmode", "velocity", "variance", "power"):
        assert isinstance(on_device[layer], cineflow.DeviceArray)
        assert np.array_equal(cineflow.pull(on_device[layer]), flow[layer], equal_nan=True), layer


class FakeCudaDlpack:
    """A GPU array that offers only DLPack (as a JAX or PyTorch CUDA tensor may)."""
    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None):
        raise AssertionError("the cpu backend must refuse before taking the capsule")


def test_gpu_arrays_on_the_cpu_backend_are_refused():
    rng = np.random.default_rng(15)
    acq, rf = synthetic(rng)
    with pytest.raises(TypeError, match="GPU array.*cpu backend.*backend=\"cuda\""):
        cineflow.bmode(FakeCudaDlpack(), acq, backend="cpu")
    with pytest.raises(TypeError, match="dtype float32; Cineflow takes int16 or float32|"
                                        "dtype uint16; Cineflow takes int16 or float32"):
        cineflow.bmode(cineflow.push(rf.astype(np.uint16), backend="cpu"), acq, backend="cpu")


def test_cuda_push_pull_and_device_input():
    cuda_or_skip()
    rng = np.random.default_rng(16)
    acq, rf = synthetic(rng)
    array = cineflow.push(rf, backend="cuda")
    assert array.backend == "cuda" and array.__cuda_array_interface__["version"] == 3
    assert array.__dlpack_device__()[0] == 2
    assert np.array_equal(cineflow.pull(array), rf)
    expected = cineflow.bmode(rf, acq, backend="cuda", tune=False)
    result = cineflow.bmode(array, acq, backend="cuda", tune=False)
    assert isinstance(result, cineflow.DeviceArray) and result.backend == "cuda"
    assert np.array_equal(cineflow.pull(result), expected)
    with pytest.raises(TypeError, match="DeviceArray on the cuda backend.*cpu backend"):
        cineflow.bmode(array, acq, backend="cpu")
    held = cineflow.memory("cuda")
    assert held["arrays_bytes"] >= array.nbytes + result.nbytes


def test_cupy_arrays_are_read_in_place():
    cuda_or_skip()
    cupy = pytest.importorskip("cupy")
    rng = np.random.default_rng(17)
    acq, rf = synthetic(rng)
    on_gpu = cupy.asarray(rf)
    expected = cineflow.bmode(rf, acq, backend="cuda", tune=False)
    result = cineflow.bmode(on_gpu, acq, backend="cuda", tune=False)
    assert np.array_equal(cupy.asnumpy(cupy.asarray(result)), expected)
