"""cineflow.doppler against PyMUST's colour Doppler of the rotating disk, and cineflow.oct_bscan
against the command line."""
import h5py
import numpy as np
import pytest

import cineflow


def test_doppler_velocity_matches_pymust(datasets):
    """PyMUST's choices (data/README.md): 15 % demodulation bandwidth, f-number 1.125,
    no apodisation window, the whole 32-frame ensemble, no wall filter. Inside the disk (mean
    B-mode above 64 of 255) the velocity correlates with PyMUST's at 0.99 or better (an
    independent implementation with linear interpolation measured 0.9989); the disk turns so that
    its left side comes towards the probe (positive) and its right side goes away."""
    with h5py.File(datasets / "verasonics_disk_doppler_reference.h5", "r") as f:
        reference = f["velocity_m_s"][:]
        inside = f["bmode_u8"][:].mean(axis=0) > 64
        x = f["x_m"][:]
        nyquist = f.attrs["nyquist_velocity_m_s"]
    source = cineflow.Source(str(datasets / "verasonics_rotating_disk.h5"))
    frames = np.stack([source.read(i) for i in range(32)])
    flow = cineflow.doppler(frames, source.acquisition, grid="-12.5:12.5:0.1,10:35:0.1",
                            fnumber=1.125, apodisation="rect", iq_bandwidth=15, ensemble=32,
                            ensemble_mode="block", wall_filter="none", backend="cpu")
    assert abs(flow["aliasing_velocity"] - nyquist) < 1e-3 * nyquist
    velocity = flow["velocity"]
    assert velocity.shape == reference.shape and velocity.dtype == np.float32
    assert np.all(np.isfinite(velocity[inside]))
    assert np.corrcoef(velocity[inside], reference[inside])[0, 1] >= 0.99
    columns = np.broadcast_to(x, velocity.shape)
    assert velocity[inside & (columns < -5e-3)].mean() > 0.1
    assert velocity[inside & (columns > 5e-3)].mean() < -0.1
    for layer in ("bmode", "variance", "power"):
        assert flow[layer].shape == reference.shape


def test_doppler_of_demodulated_iq_matches_pymust(datasets):
    """The same 32 frames demodulated outside Cineflow (NumPy: mixed down at the true sample
    times, a Hamming-windowed sinc low-pass over PyMUST's 15 % band), given as complex64: the I/Q
    chain without its demodulator. The velocity inside the disk correlates with PyMUST's at 0.99
    or better, as the demodulating chain's does, with the disk's sense of rotation."""
    with h5py.File(datasets / "verasonics_disk_doppler_reference.h5", "r") as f:
        reference = f["velocity_m_s"][:]
        inside = f["bmode_u8"][:].mean(axis=0) > 64
        x = f["x_m"][:]
    source = cineflow.Source(str(datasets / "verasonics_rotating_disk.h5"))
    acq = source.acquisition
    t = acq.t0 + np.arange(acq.samples) / acq.fs
    mixed = source[:].astype(np.float64) * np.exp(-2j * np.pi * acq.f0 * t)
    cutoff = 0.5 * 0.15 * acq.f0 / acq.fs
    taps = np.arange(-32, 33)
    lowpass = 2 * cutoff * np.sinc(2 * cutoff * taps) * np.hamming(taps.size)
    lowpass /= lowpass.sum()
    iq = np.apply_along_axis(lambda trace: np.convolve(trace, lowpass, mode="same"), -1, mixed)
    flow = cineflow.doppler((2 * iq).astype(np.complex64), acq, grid="-12.5:12.5:0.1,10:35:0.1",
                            fnumber=1.125, apodisation="rect", ensemble=32,
                            ensemble_mode="block", wall_filter="none", backend="cpu")
    velocity = flow["velocity"]
    assert velocity.shape == reference.shape and np.all(np.isfinite(velocity[inside]))
    assert np.corrcoef(velocity[inside], reference[inside])[0, 1] >= 0.99
    columns = np.broadcast_to(x, velocity.shape)
    assert velocity[inside & (columns < -5e-3)].mean() > 0.1
    assert velocity[inside & (columns > 5e-3)].mean() < -0.1
    with pytest.raises(ValueError, match="already demodulated"):
        cineflow.doppler(iq.astype(np.complex64), acq, iq_bandwidth=15, backend="cpu")


def test_doppler_needs_an_ensemble(datasets):
    source = cineflow.Source(str(datasets / "verasonics_rotating_disk.h5"))
    frames = np.stack([source.read(i) for i in range(4)])
    with pytest.raises(ValueError, match="ensemble of 16"):
        cineflow.doppler(frames, source.acquisition, backend="cpu")
    with pytest.raises(ValueError, match=r"\(frames, 1, 128, 334\)"):
        cineflow.doppler(frames[0], source.acquisition, backend="cpu")
    with pytest.raises(ValueError, match="mode='doppler' or 'power-doppler'"):
        cineflow.doppler(frames, source.acquisition, mode="iq", backend="cpu")


def test_oct_bscan_equals_the_command_line(run_app, tmp_path):
    """Both with their default variants (--no-tune, tune=False). Not bit for bit: the CPU chain
    plans its FFT with FFTW_MEASURE, which picks an algorithm by timing it in each process, so two
    command-line runs differ in the last bits too. The bound is float32 FFT rounding: each pixel's
    amplitude within 1e-5 of the B-scan's largest (2048-point transforms: 11 stages of rounding
    at 6e-8, with margin)."""
    out = tmp_path / "oct.h5"
    code, _, err = run_app("--headless", "--backend", "cpu", "--no-tune", "--input", "oct-sim",
                           "--frames", "2", "--output", str(out), shared_cache=True)
    assert code == 0, err
    with h5py.File(out, "r") as f:
        expected = f["bmode_db"][:]
    source = cineflow.Source("oct-sim")
    acquisition = source.acquisition
    assert isinstance(acquisition, cineflow.OctAcquisition)
    for index in range(2):
        image = cineflow.oct_bscan(source.read(index), acquisition, index=index, backend="cpu",
                                   tune=False)
        assert image.shape == expected[index].shape and image.dtype == np.float32
        ours, theirs = 10 ** (image / 20.0), 10 ** (expected[index] / 20.0)
        assert np.max(np.abs(ours - theirs)) <= 1e-5 * theirs.max(), f"B-scan {index} differs"
    with pytest.raises(TypeError, match="uint16"):
        cineflow.oct_bscan(source.read(0).astype(np.float32), acquisition, backend="cpu")


def test_oct_dispersion_search_finds_the_simulated_dispersion():
    """The OCT simulator states a2 = 60, a3 = 20 rad about its 840 nm centre; the search on its
    middle B-scan finds a2 within 10 % (as the engine's test of the search asks), about 840 nm."""
    source = cineflow.Source("oct-sim")
    acquisition = source.acquisition
    found = cineflow.oct_dispersion_search(source.read(16), acquisition)
    assert abs(found["a2"] - 60.0) <= 6.0, found
    assert abs(found["centre_wavelength_m"] - 840e-9) < 1e-12
    assert acquisition.dispersion_centre_wavelength_m == found["centre_wavelength_m"]
    image = cineflow.oct_bscan(source.read(16), acquisition, dispersion=(found["a2"], found["a3"]),
                               backend="cpu", tune=False)
    assert image.shape[1] == acquisition.ascans
