"""Arrays in, images out: cineflow.bmode and cineflow.beamform on NumPy channel data.

Checked against the command line (the same frame imaged by `cineflow --headless`: equal bit for
bit), against the Field II phantom's known scatterer positions (an independent reference), and
for the errors a script meets (each a clear Python exception carrying the command line's message).
"""
import inspect

import h5py
import numpy as np
import pytest

import cineflow


def test_source_reads_the_recordings_samples(datasets):
    path = datasets / "field2_pw3_points.h5"
    with h5py.File(path, "r") as f:  # an independent reader (before Cineflow holds the file)
        expected = f["rf"][0]
    source = cineflow.Source(str(path))
    assert source.modality == "ultrasound"
    assert source.frame_shape == (3, 192, 2313) and source.dtype == np.int16
    assert np.array_equal(source.read(0), expected)
    acq = source.acquisition
    assert (acq.transmits, acq.elements, acq.samples) == (3, 192, 2313)
    assert acq.fs == 20e6 and abs(acq.element_x[1] - acq.element_x[0] - 0.23e-3) < 1e-9
    with pytest.raises(IndexError):
        source.read(1)


def write_received(path, images, x0_m):
    """A recording of uint8 received images (cineflow.received/1) written by h5py, not by
    Cineflow, as a peer's tool would; returns its path."""
    with h5py.File(path, "w") as f:
        f.attrs.update({"schema": "cineflow.received/1", "modality": "received",
                        "rows": images.shape[1], "cols": images.shape[2], "pixel_type": "uint8",
                        "dx_m": 2e-4, "dz_m": 1e-4, "x0_m": x0_m, "z0_m": 5e-3,
                        "device": "Image_Reference"})
        f["images"] = images
    return path


def test_received_images_a_peer_wrote_read_as_they_were_written(tmp_path):
    rng = np.random.default_rng(3)
    images = rng.integers(0, 256, size=(3, 16, 24), dtype=np.uint8)
    path = write_received(tmp_path / "received.h5", images, x0_m=-2.3e-3)
    source = cineflow.Source(str(path))
    assert source.modality == "received" and len(source) == 3
    assert source.frame_shape == (16, 24) and source.dtype == np.uint8
    assert np.array_equal(source.read(1), images[1]) and np.array_equal(source[-1], images[2])


def test_received_images_are_shown_through_the_levels_a_script_sets(tmp_path):
    """The levels keyword maps a received recording's values onto the image as the manual's
    formula says, computed here independently: dB = 60 (v - white) / (white - black); "db" takes
    the values as dB; a live set() changes them; what cannot be levels is refused by name."""
    rng = np.random.default_rng(11)
    images = rng.integers(0, 256, size=(4, 12, 20), dtype=np.uint8)
    path = write_received(tmp_path / "received.h5", images, x0_m=0.0)

    def shown(levels):
        seen = {}
        with cineflow.Engine(str(path), backend="cpu", tune=False, pace=False,
                             levels=levels) as engine:
            engine.on_frame(lambda frame: seen.setdefault(frame.source_index, frame.image.copy()))
            engine.start()
            assert engine.wait(timeout=60) == "finished"
        return seen

    v = images.astype(np.float64)
    for levels, expected in (((10, 200.5), 60 * (v - 200.5) / (200.5 - 10)),
                             ((255, 0), 60 * (v - 0) / (0 - 255)),  # inverted
                             ("full", 60 * (v - 255) / 255),
                             ("db", v)):
        seen = shown(levels)
        assert sorted(seen) == [0, 1, 2, 3], levels
        for index, image in seen.items():
            # float32 rounding of a value of at most 60 * 255 / 190 dB: 1e-5 relative
            np.testing.assert_allclose(image, expected[index], rtol=1e-5, atol=1e-4,
                                       err_msg=str(levels))

    for bad, error, words in (((5, 5), ValueError, "must be finite and differ"),
                              ((0, float("nan")), ValueError, "not a finite number"),
                              ("bright", ValueError, "expected full, db or BLACK,WHITE"),
                              ((1, "a"), TypeError, "expected"),
                              ((1, 2, 3), TypeError, "expected")):
        with pytest.raises(error, match=words):
            cineflow.Engine(str(path), backend="cpu", levels=bad)
    with pytest.raises(ValueError, match="levels apply to received images"):
        cineflow.Engine("sim", backend="cpu", levels="db")
    engine = cineflow.Engine(str(path), backend="cpu", tune=False, levels="db")
    with pytest.raises(ValueError, match="must be finite and differ"):
        engine.set(levels=(3, 3))
    engine.set(levels=(0, 100))  # kept: the next start uses them
    seen = {}
    engine.on_frame(lambda frame: seen.setdefault(frame.source_index, frame.image.copy()))
    engine.start()
    engine.wait(timeout=60)
    np.testing.assert_allclose(seen[0], 60 * (v[0] - 100) / 100, rtol=1e-5, atol=1e-4)


def test_a_source_indexes_slices_and_iterates_like_a_sequence(datasets):
    path = datasets / "verasonics_rotating_disk.h5"
    with h5py.File(path, "r") as f:  # the independent reader's frames, before Cineflow opens it
        rf = f["rf"][:]
    source = cineflow.Source(str(path))
    assert len(source) == rf.shape[0] == 32
    assert np.array_equal(source[-1], rf[-1]) and np.array_equal(source.read(-32), rf[0])
    for key in (slice(2, 5), slice(None, None, -8), slice(30, 40), slice(5, 2)):
        assert np.array_equal(source[key], rf[key]), key
    assert source[3:3].shape == (0,) + source.frame_shape
    assert all(np.array_equal(frame, rf[i]) for i, frame in enumerate(source))
    assert sum(1 for _ in source) == 32
    for index in (32, -33):
        with pytest.raises(IndexError, match="of a source with 32 frames"):
            source[index]


def test_demodulated_iq_input_images_like_pymust(datasets):
    """complex64 I/Q demodulated outside Cineflow (here by NumPy: mixed down at the true sample
    times, a Hamming-windowed sinc low-pass over PyMUST's 15 % band) takes the I/Q chain without
    its demodulator; its B-mode correlates with PyMUST's own at 0.99 or better, as the demodulating
    chain's does (data/README.md: 0.995 for an exact I/Q beamformer)."""
    path = datasets / "verasonics_rotating_disk.h5"
    with h5py.File(path, "r") as f:  # PyMUST's answer, read before Cineflow opens the file
        reference = f["reference/bmode_u8"]
        x, z = reference.attrs["x_m"], reference.attrs["z_m"]
        expected = reference[0].astype(np.float64)
    source = cineflow.Source(str(path))
    acq = source.acquisition
    t = acq.t0 + np.arange(acq.samples) / acq.fs
    mixed = source[0].astype(np.float64) * np.exp(-2j * np.pi * acq.f0 * t)
    cutoff = 0.5 * 0.15 * acq.f0 / acq.fs
    taps = np.arange(-32, 33)
    lowpass = 2 * cutoff * np.sinc(2 * cutoff * taps) * np.hamming(taps.size)
    lowpass /= lowpass.sum()
    iq = np.apply_along_axis(lambda trace: np.convolve(trace, lowpass, mode="same"), -1, mixed)
    iq = (2 * iq).astype(np.complex64)
    grid = (f"{x[0] * 1e3:g}:{x[-1] * 1e3:g}:{(x[1] - x[0]) * 1e3:g},"
            f"{z[0] * 1e3:g}:{z[-1] * 1e3:g}:{(z[1] - z[0]) * 1e3:g}")
    image = cineflow.bmode(iq, acq, grid=grid, fnumber=1.125, apodisation="rect", backend="cpu",
                           tune=False)
    db = image - image.max()
    shown = np.clip(255 * (db + 30) / 30, 0, 255)  # PyMUST's bmode(): 30 dB to 0..255
    assert np.corrcoef(shown.ravel(), expected.ravel())[0, 1] >= 0.99
    summed = cineflow.beamform(iq, acq, grid=grid, fnumber=1.125, apodisation="rect",
                               backend="cpu")
    assert summed.dtype == np.complex64 and summed.shape == image.shape
    assert np.allclose(20 * np.log10(np.abs(summed) + 1e-30), image, atol=1e-3)
    with pytest.raises(ValueError, match="already demodulated"):
        cineflow.bmode(iq, acq, iq_bandwidth=15, backend="cpu")
    with pytest.raises(ValueError, match="beamform has no variant 'nope'"):  # pins still apply
        cineflow.bmode(iq, acq, variants={"beamform": "nope"}, backend="cpu")
    for mode in ("rf", "doppler"):
        with pytest.raises(ValueError, match="complex64 input is I/Q: mode must be 'iq'"):
            cineflow.bmode(iq, acq, mode=mode, backend="cpu")


def test_bmode_equals_the_command_line_bit_for_bit(datasets, run_app, tmp_path, no_history):
    path = str(datasets / "verasonics_rotating_disk.h5")
    grid = "-12.5:12.5:0.1,10:35:0.1"
    out = tmp_path / "out.h5"
    code, _, err = run_app("--headless", "--backend", "cpu", "--no-tune", "--input", path,
                           "--grid", grid, "--frames", "3", "--output", str(out))
    assert code == 0, err
    with h5py.File(out, "r") as f:
        expected = f["bmode_db"][:]
    source = cineflow.Source(path)
    for index in range(3):
        image = cineflow.bmode(source.read(index), source.acquisition, grid=grid, backend="cpu")
        assert image.dtype == np.float32 and image.shape == expected[index].shape
        assert np.array_equal(image, expected[index]), f"frame {index} differs"


def test_isolated_points_peak_where_field_ii_put_them(datasets):
    """In I/Q mode each isolated point on the axis peaks within 0.03 mm of its true depth
    (data/README.md); 0.05 mm allowed here, half the 0.1 mm lateral step."""
    source = cineflow.Source(str(datasets / "field2_pw3_points.h5"))
    image = cineflow.bmode(source.read(0), source.acquisition, mode="iq", backend="cpu",
                           grid="-0.5:0.5:0.1,9:47:0.01")
    z = 9e-3 + 0.01e-3 * np.arange(image.shape[0])
    centre = image[:, image.shape[1] // 2]
    for depth in (10.35e-3, 22.18e-3, 34.00e-3, 45.83e-3):
        near = np.abs(z - depth) < 0.5e-3
        peak = z[near][np.argmax(centre[near])]
        assert abs(peak - depth) < 0.05e-3, f"point at {depth * 1e3:.2f} mm peaks at {peak * 1e3:.3f} mm"


def test_beamform_before_detection(datasets):
    """The I/Q sum's magnitude is the envelope bmode compresses: 20 log10 |sum| equals bmode's
    dB image (float32 rounding)."""
    source = cineflow.Source(str(datasets / "field2_pw3_points.h5"))
    rf, acq = source.read(0), source.acquisition
    grid = "-5:5:0.2,20:25:0.05"
    summed = cineflow.beamform(rf, acq, mode="iq", grid=grid, backend="cpu")
    image = cineflow.bmode(rf, acq, mode="iq", grid=grid, backend="cpu")
    assert summed.dtype == np.complex64 and summed.shape == image.shape
    db = 20 * np.log10(np.maximum(np.abs(summed.astype(np.complex128)), 1e-10))
    assert np.max(np.abs(db - image)) < 1e-3
    real = cineflow.beamform(rf, acq, mode="rf", grid=grid, backend="cpu")
    assert real.dtype == np.float32 and real.shape == image.shape and np.abs(real).max() > 0


def synthetic_acquisition(rng):
    transmits, elements, samples = 2, 32, 512
    acq = cineflow.Acquisition(fs=20e6, f0=5e6, angles=[-0.1, 0.1],
                               element_x=list((np.arange(elements) - 15.5) * 0.3e-3),
                               samples=samples, t0=0.0)
    rf = rng.integers(-2000, 2000, size=(transmits, elements, samples), dtype=np.int16)
    return acq, rf


class FakeGpuArray:
    """What CuPy and PyTorch arrays on a GPU show."""
    __cuda_array_interface__ = {"shape": (2, 32, 512), "typestr": "<i2", "data": (0, False),
                                "version": 3}


def test_bad_arrays_raise_clear_errors():
    rng = np.random.default_rng(7)
    acq, rf = synthetic_acquisition(rng)
    assert cineflow.bmode(rf, acq, backend="cpu").shape[0] > 0  # the good one images
    with pytest.raises(TypeError, match="dtype float64.*astype\\(numpy.float32\\)"):
        cineflow.bmode(rf.astype(np.float64), acq, backend="cpu")
    with pytest.raises(ValueError, match="not C-contiguous"):
        cineflow.bmode(np.asfortranarray(rf), acq, backend="cpu")
    with pytest.raises(ValueError, match=r"shape \(2, 32, 511\).*\(2, 32, 512\)"):
        cineflow.bmode(np.ascontiguousarray(rf[:, :, :511]), acq, backend="cpu")
    with pytest.raises(TypeError, match="GPU array.*cpu backend"):
        cineflow.bmode(FakeGpuArray(), acq, backend="cpu")
    with pytest.raises(TypeError, match="not list"):
        cineflow.bmode(rf.tolist(), acq, backend="cpu")
    with pytest.raises(ValueError, match="no variant 'nonesuch'"):
        cineflow.beamform(rf, acq, backend="cpu", variants={"beamform": "nonesuch"})
    with pytest.raises(ValueError):
        cineflow.Acquisition(fs=20e6, f0=5e6, angles=[0.0], element_x=[0.0, -1e-3], samples=64)


@pytest.mark.parametrize("bandwidth,shown", [(60.0, "60"), (2.0, "2"), (-0.5, "-0.5"),
                                             (float("nan"), "nan")])
def test_a_bandwidth_outside_0_to_2_is_refused_naming_its_unit(bandwidth, shown):
    def acquisition(value):
        return cineflow.Acquisition(fs=20e6, f0=5e6, angles=[0.0], element_x=[-1e-3, 1e-3],
                                    samples=64, bandwidth=value)

    with pytest.raises(ValueError, match=rf"bandwidth={shown} is outside \(0, 2\): it is the "
                                         r"-6 dB band as a fraction of the centre frequency f0"):
        acquisition(bandwidth)
    assert acquisition(0.6).bandwidth == 0.6  # 60 %
    assert acquisition(0.0).bandwidth == 0.0  # unknown: Cineflow's defaults


@pytest.mark.parametrize("option,value", [("--grid", "1:2"), ("--fnumber", "-1"),
                                          ("--apodisation", "gauss"), ("--mode", "colour")])
def test_errors_carry_the_command_lines_messages(datasets, run_app, tmp_path, option, value):
    path = str(datasets / "field2_pw3_points.h5")
    code, _, err = run_app("--headless", "--backend", "cpu", "--input", path, option, value,
                           "--output", str(tmp_path / "out.h5"))
    assert code == 2  # a bad value of a known option
    keyword = {"--grid": "grid", "--fnumber": "fnumber", "--apodisation": "apodisation",
               "--mode": "mode"}[option]
    source = cineflow.Source(path)
    with pytest.raises(ValueError) as raised:
        cineflow.bmode(source.read(0), source.acquisition, backend="cpu",
                       **{keyword: float(value) if keyword == "fnumber" else value})
    assert str(raised.value) in err, f"python: {raised.value!r}\ncommand line: {err!r}"


def test_a_call_the_module_cannot_match_is_refused_in_one_line(datasets):
    """A misspelt keyword or an argument of the wrong type: one line naming what was wrong, never
    the arrays' values (pybind11 alone prints every argument, whole arrays included)."""
    source = cineflow.Source(str(datasets / "field2_pw3_points.h5"))
    rf = source[0]
    with pytest.raises(TypeError) as raised:
        cineflow.bmode(rf, source.acquisition, fnumbr=1.5)
    text = str(raised.value)
    assert text.startswith("bmode() got an unexpected keyword argument 'fnumbr'; it takes rf, "
                           "acquisition, grid, fnumber,")
    with pytest.raises(TypeError) as raised:
        cineflow.beamform(rf, "not an acquisition")
    text = str(raised.value)
    assert "beamform() cannot take (ndarray int16 (3, 192, 2313), str)" in text
    for refused in (text, str(raised.value)):
        assert "\n" not in refused and "[[" not in refused and len(refused) < 600
    assert cineflow.bmode.__doc__.startswith("bmode(rf: ")  # the reference unchanged
    shown = inspect.signature(cineflow.bmode).parameters  # what help() shows
    assert list(shown)[:4] == ["rf", "acquisition", "grid", "fnumber"]
    assert shown["grid"].kind is inspect.Parameter.KEYWORD_ONLY
    assert shown["backend"].default == "auto"


def test_an_image_carries_its_axes(datasets):
    """bmode's and beamform's NumPy results are cineflow.Image arrays with the grid's pixel
    centres (x_m, z_m in metres, as the command line's output file stores them); arithmetic keeps
    them, a slice drops them rather than mislabel, a reduction is a plain scalar."""
    source = cineflow.Source(str(datasets / "field2_pw3_points.h5"))
    image = cineflow.bmode(source[0], source.acquisition, grid="-5:5:0.1,10:20:0.05",
                           backend="cpu", tune=False)
    assert isinstance(image, cineflow.Image) and isinstance(image, np.ndarray)
    assert image.shape == (201, 101) == (image.z_m.size, image.x_m.size)
    assert np.allclose(image.x_m, np.linspace(-5e-3, 5e-3, 101), atol=1e-12)
    assert np.allclose(image.z_m, np.linspace(10e-3, 20e-3, 201), atol=1e-12)
    assert (image - image.max()).x_m is image.x_m
    assert image[10:].x_m is None and image[10:].z_m is None
    assert type(image.max()) is np.float32
    summed = cineflow.beamform(source[0], source.acquisition, grid="-5:5:0.1,10:20:0.05",
                               mode="iq", backend="cpu")
    assert np.array_equal(summed.x_m, image.x_m) and np.array_equal(summed.z_m, image.z_m)
