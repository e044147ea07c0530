"""cineflow.PushSource: frames a script pushes from its own loop into an Engine (CPU backend).
Pushed frames are imaged exactly as cineflow.bmode images the same frames; under "block" nothing
is lost, under "drop" every frame is accounted for (imaged, or let go and counted); what cannot
be pushed is refused with a message that says why."""
import json
import os
import subprocess
import sys
import threading
import pathlib

import numpy as np
import pytest

import cineflow

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"


@pytest.fixture(scope="module")
def field2(datasets):
    return cineflow.Source(str(datasets / "field2_pw3_points.h5"))


def test_pushed_frames_are_imaged_as_bmode_images_them(field2):
    """A real Field II acquisition pushed frame by frame from an SDK-like thread: every frame
    imaged, in order, each image what cineflow.bmode makes of the same frame (the same chain on
    the same backend: equal to float rounding, 1e-4 dB)."""
    frames = [field2.read(i % field2.frame_count) for i in range(6)]
    images = []
    source = cineflow.PushSource(field2.acquisition, dtype=str(field2.dtype))
    assert source.shape == frames[0].shape and source.dtype == frames[0].dtype

    with cineflow.Engine(source, backend="cpu", tune=False) as engine:
        engine.on_frame(lambda frame: images.append((frame.sequence, np.array(frame.image))))
        engine.start()
        sdk = threading.Thread(target=lambda: [source.push(f) for f in frames])
        sdk.start()
        sdk.join()
        source.close()
        assert engine.wait(timeout=120) == "finished"
        stats = engine.stats()
    assert stats["processed"] == 6 and stats["dropped"] == 0 and stats["lost"] == 0
    assert [s for s, _ in images] == list(range(6))
    for (sequence, image), frame in zip(images, frames):
        reference = np.asarray(cineflow.bmode(frame, field2.acquisition, backend="cpu",
                                              tune=False))
        assert image.shape == reference.shape
        assert np.max(np.abs(image - reference)) < 1e-4, f"frame {sequence}"


def test_drop_accounts_for_every_pushed_frame(field2):
    """Pushed as fast as Python can, far faster than the CPU chain: frames the engine has no
    slot for are let go (push returns False) and counted; imaged + dropped is exactly what was
    pushed."""
    frame = field2.read(0)
    source = cineflow.PushSource(field2.acquisition, dtype=str(field2.dtype))
    with cineflow.Engine(source, backend="cpu", tune=False, policy="drop") as engine:
        engine.start()
        taken = [source.push(frame) for _ in range(200)]
        source.close()
        assert engine.wait(timeout=120) == "finished"
        stats = engine.stats()
    assert source.pushed == 200
    assert taken.count(False) == source.dropped == stats["dropped"] > 0
    assert taken.count(True) == stats["processed"]
    assert stats["processed"] + stats["dropped"] == 200 and stats["lost"] == 0


def test_oct_bscans_pushed_with_a_description():
    """An OCT spectrometer's B-scans, described with the keys of cineflow convert --describe."""
    oct_sim = cineflow.Source("oct-sim")
    acquisition = oct_sim.acquisition
    wavelengths = acquisition.wavelength_m
    description = {"samples": acquisition.samples, "ascans": acquisition.ascans, "bit_depth": 12,
                   "wavelength_first_m": wavelengths[0], "wavelength_last_m": wavelengths[-1],
                   "centre_wavelength_m": 840e-9, "bscans_per_volume": 4,
                   "bidirectional": False, "flyback_ascans": 0, "lateral_step_m": 10e-6,
                   "elevation_step_m": 150e-6}
    source = cineflow.PushSource(description)
    assert source.shape == (acquisition.ascans, acquisition.samples)
    assert source.dtype == np.uint16
    slices = []
    with cineflow.Engine(source, backend="cpu", tune=False) as engine:
        engine.on_frame(lambda frame: slices.append(frame.slice_index))
        engine.start()
        for i in range(8):
            assert source.push(oct_sim.read(i)) is True
        source.close()
        assert engine.wait(timeout=120) == "finished"
        stats = engine.stats()
    assert stats["processed"] == 8 and stats["volumes"] == 2
    assert slices == [0, 1, 2, 3, 0, 1, 2, 3]
    # The same description as JSON text.
    assert cineflow.PushSource(json.dumps(description)).shape == source.shape


def images_of_pushed(field2, frames, backend, convert=lambda frame: frame):
    """The images an Engine on `backend` makes of `frames` pushed as convert(frame) makes them."""
    images = []
    source = cineflow.PushSource(field2.acquisition, dtype=str(field2.dtype))
    with cineflow.Engine(source, backend=backend, tune=False) as engine:
        engine.on_frame(lambda frame: images.append(np.array(frame.image)))
        engine.start()
        pushed = [convert(f) for f in frames]  # made first: each push is then the one copy
        sdk = threading.Thread(target=lambda: [source.push(f) for f in pushed])
        sdk.start()
        sdk.join()
        source.close()
        assert engine.wait(timeout=120) == "finished"
    return images


def test_a_device_array_is_pushed_as_its_numpy_twin(field2):
    """A cineflow.DeviceArray (the cpu backend's memory here) pushed instead of NumPy: the same
    bytes reach the engine, so the images are identical (bit for bit: the same chain)."""
    rng = np.random.default_rng(42)  # three different frames: the real one, seeded noise added
    first = field2.read(0)
    frames = [first] + [(first + rng.integers(-64, 64, first.shape)).astype(first.dtype)
                        for _ in range(2)]
    from_numpy = images_of_pushed(field2, frames, "cpu")
    from_device = images_of_pushed(field2, frames, "cpu",
                                   lambda f: cineflow.push(f, backend="cpu"))
    assert len(from_device) == 3
    for a, b in zip(from_numpy, from_device):
        assert np.array_equal(a, b)


def test_gpu_frames_are_pushed_from_the_device():
    """On CUDA: a DeviceArray and a CuPy array (when CuPy is installed) pushed from GPU memory
    are imaged as the same frames pushed from NumPy."""
    if cineflow.backend_info("auto")["kind"] != "cuda":
        pytest.skip("no CUDA device: " + cineflow.backend_info("auto")["fallback"])
    source = cineflow.Source("sim")
    frames = [source.read(i) for i in range(3)]

    class Field:  # what images_of_pushed reads of a source
        acquisition, dtype = source.acquisition, source.dtype
    expected = images_of_pushed(Field, frames, "cuda")
    got = images_of_pushed(Field, frames, "cuda", lambda f: cineflow.push(f, backend="cuda"))
    for a, b in zip(expected, got):
        assert np.array_equal(a, b)
    try:
        import cupy  # type: ignore[import-not-found]
    except ImportError:
        return
    got = images_of_pushed(Field, frames, "cuda", cupy.asarray)
    for a, b in zip(expected, got):
        assert np.array_equal(a, b)


class _ForeignGpuArray:
    """What another library's GPU array offers: the CUDA array interface (pointer never read)."""
    def __init__(self, shape, typestr):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "version": 3,
                                         "data": (0x1000, False), "strides": None, "stream": None}


def test_what_cannot_be_pushed_is_refused_clearly(field2):
    source = cineflow.PushSource(field2.acquisition, dtype=str(field2.dtype))
    frame = field2.read(0)
    with pytest.raises(RuntimeError, match="no engine is running"):
        source.push(frame, timeout=1)
    with cineflow.Engine(source, backend="cpu", tune=False) as engine:
        engine.start()
        with pytest.raises(ValueError, match="shape"):
            source.push(frame[:, :, :-1].copy())
        with pytest.raises(ValueError, match="float64"):
            source.push(frame.astype(np.float64))
        with pytest.raises(ValueError, match="C-contiguous"):
            source.push(np.asfortranarray(frame))
        assert source.push(frame, timeout=30) is True
        with pytest.raises(ValueError, match="this source.s frames are"):
            source.push("a frame")
        with pytest.raises(ValueError, match="shape"):
            source.push(cineflow.push(frame[:, :, :-1].copy(), backend="cpu"))
        if cineflow.backend_info("auto")["kind"] != "cuda":
            with pytest.raises(TypeError, match="GPU array.*cannot read it.*NumPy"):
                source.push(_ForeignGpuArray(frame.shape, frame.dtype.str))
        engine.stop()
    with pytest.raises(RuntimeError, match="no engine is running"):
        source.push(frame, timeout=1)
    with pytest.raises(ValueError, match="wavelength"):
        cineflow.PushSource({"samples": 64, "ascans": 8, "bit_depth": 12})
    with pytest.raises(TypeError, match="Acquisition"):
        cineflow.PushSource(42)
    with pytest.raises(ValueError, match="int16"):
        cineflow.PushSource(field2.acquisition, dtype="uint8")


def test_a_push_that_waits_too_long_times_out(field2):
    """Nothing takes frames while the engine is held by a callback that has not returned: a push
    with a timeout raises TimeoutError instead of waiting for ever."""
    source = cineflow.PushSource(field2.acquisition, dtype=str(field2.dtype))
    frame = field2.read(0)
    release = threading.Event()
    with cineflow.Engine(source, backend="cpu", tune=False) as engine:
        engine.on_frame(lambda f: release.wait(60), queue=1)
        engine.start()
        with pytest.raises(TimeoutError):
            for _ in range(64):  # the callback's queue, the host ring: then nothing is taken
                source.push(frame, timeout=2)
        release.set()
        engine.stop()


def test_the_scanner_example_runs():
    done = subprocess.run([sys.executable, str(EXAMPLES / "scanner_push.py"), "sim", "24"],
                          capture_output=True, text=True, timeout=600, env=dict(os.environ))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pushed 24, imaged 24, dropped 0" in done.stdout
