"""Volumes from an engine to a script: the volume endpoint (cineflow.Volume from a bounded queue),
zero-copy views (DLPack, the array interfaces), the VolumeStore's keep, save and discard, and the
examples in examples/python, each run as a script. On the built-in simulator, whose elevation
sweep makes a volume of 16 frames; CPU backend."""
import gc
import os
import pathlib
import subprocess
import sys
import time

import h5py
import numpy as np
import pytest

import cineflow

FRAMES_PER_VOLUME = 16
STORE = 256 << 20
EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"


def engine(volumes, **options):
    return cineflow.Engine("sim", backend="cpu", tune=False, pace=False,
                           frames=FRAMES_PER_VOLUME * volumes, store_bytes=STORE, **options)


def test_every_volume_and_its_mips_reach_the_callback():
    seen = []

    def on_volume(volume):
        v = volume.volume
        assert v.shape == volume.shape and v.dtype == np.float32
        # The MIPs against NumPy's own maxima of the same volume.
        assert np.array_equal(volume.mip_y, v.max(axis=0))
        assert np.array_equal(volume.mip_z, v.max(axis=1))
        assert np.array_equal(volume.mip_x, v.max(axis=2))
        assert volume.sequence == sorted(volume.sequence) and len(volume.sequence) == v.shape[0]
        seen.append(volume.number)

    with engine(3) as e:
        e.on_volume(on_volume, queue=3)
        e.start()
        assert e.wait() == "finished"
        stats = e.stats()
        assert e.store.list() == []  # none kept: each went back after its callback
    assert seen == [0, 1, 2]
    assert stats["volumes"] == 3 and stats["volume_delivered"] == 3
    assert stats["volume_errors"] == 0 and stats["volume_dropped"] == 0


def test_keep_save_discard(tmp_path):
    copies = {}

    def on_volume(volume):
        copies[volume.number] = volume.volume.copy()
        if volume.number == 1:
            volume.keep()

    with engine(2) as e:
        e.on_volume(on_volume)
        e.start()
        e.wait()
        kept = e.store.list()
        assert [k["number"] for k in kept] == [1] and not kept[0]["saved"]
        path = tmp_path / "kept.h5"
        e.store.save(kept[0]["id"], str(path))
        assert e.store.list()[0]["saved"] and e.store.list()[0]["path"] == str(path)
        e.store.discard(kept[0]["id"])
        assert e.store.list() == []
        with pytest.raises(RuntimeError):
            e.store.discard(kept[0]["id"])
        with pytest.raises(RuntimeError, match="no longer buffered"):
            e.store.save(kept[0]["id"], str(tmp_path / "again.h5"))
    with h5py.File(path, "r") as f:  # an independent reader
        assert np.array_equal(f["volume"][:], copies[1])


def test_views_share_the_engines_memory_and_expire():
    with engine(1) as e:
        e.on_volume(lambda v: v.keep())
        e.start()
        e.wait()
        volume_id = e.store.list()[0]["id"]
        with e.store.volume(volume_id) as volume:
            views = volume.views()
            view = views["volume"]
            assert view.__dlpack_device__() == (1, 0)  # kDLCPU on the CPU backend
            through_dlpack = np.from_dlpack(view)
            through_interface = np.asarray(view)
            for array in (through_dlpack, through_interface):
                assert array.__array_interface__["data"][0] == view.ptr  # no copy
            assert np.array_equal(np.asarray(views["mip_z"]), through_dlpack.max(axis=1))
            # NumPy from the Volume itself: the script's own copy, equal.
            assert volume.volume.__array_interface__["data"][0] != view.ptr
            assert np.array_equal(volume.volume, through_interface)
            with pytest.raises(AttributeError, match="host memory"):
                view.__cuda_array_interface__
        with pytest.raises(RuntimeError, match="went back to Cineflow"):
            np.asarray(view)
        with pytest.raises(RuntimeError, match="went back to Cineflow"):
            volume.volume
        # The store still holds it (a `with` block lends, it does not discard).
        assert [k["id"] for k in e.store.list()] == [volume_id]


def test_arrays_kept_from_callbacks_outlive_the_store_and_the_engine():
    """NumPy arrays kept from volume callbacks stay what the callback saw, after the store reused
    the memory for other volumes and after the engine is deleted and the memory reused (new
    arrays of 7.0). A DeviceArray view kept instead raises on every access but repr."""
    kept, seen, views = [], [], []

    def on_volume(volume):
        kept.append((volume.volume, volume.mip_y))
        seen.append((volume.volume.copy(), volume.mip_y.copy()))
        views.append(volume.views()["mip_x"])

    e = engine(3)
    e.on_volume(on_volume, queue=3)
    for fnumber in (1.5, 3.0):  # the simulator repeats its volumes: two runs make two kinds
        e.set(fnumber=fnumber)
        e.start()
        assert e.wait() == "finished"
        assert e.stats()["volume_delivered"] == 3, e.stats()["volume_last_error"]
    # The second run's volumes went where the store held the first's, handed back.
    assert len(seen) == 6 and not np.array_equal(seen[0][0], seen[3][0])
    assert all(np.array_equal(a, b) for pair in zip(kept, seen) for a, b in zip(*pair))
    del e
    gc.collect()
    filler = [np.full(seen[0][0].shape, 7.0, np.float32) for _ in range(8)]
    assert all(np.array_equal(a, b) for pair in zip(kept, seen) for a, b in zip(*pair))
    assert filler[-1].flat[0] == 7.0
    view = views[0]
    assert "handed back" in repr(view)
    for access in (lambda: view.shape, lambda: view.dtype, lambda: view.nbytes, lambda: len(view),
                   lambda: view.ptr, lambda: view.__array_interface__, lambda: view.__dlpack__(),
                   lambda: view.__dlpack_device__(), lambda: np.asarray(view),
                   lambda: cineflow.pull(view)):
        with pytest.raises(RuntimeError, match="went back to Cineflow"):
            access()


def test_a_slow_callback_drops_volumes_and_counts_them():
    """The first call lasts until the engine has finished all four volumes: the second waits in the
    queue of one, the third and fourth find it full and are dropped; the engine never waits."""
    calls = []
    with engine(4) as e:
        def slow(volume):
            calls.append(volume.number)
            while e.stats()["state"] == "running":
                time.sleep(0.02)
            raise RuntimeError("script bug")
        e.on_volume(slow, queue=1)
        e.start()
        e.wait()
        stats = e.stats()
    assert stats["volumes"] == 4 and stats["state"] == "finished"
    assert calls == [0, 1]
    assert stats["volume_errors"] == 2 and stats["volume_delivered"] == 0
    assert stats["volume_dropped"] == 2 and "already wait" in stats["volume_last_drop"]
    assert "script bug" in stats["volume_last_error"]


@pytest.mark.parametrize("script,args", [("mip_endpoint.py", ["sim", "2"]),
                                         ("user_buffering.py", None)])
def test_the_examples_run(script, args, tmp_path):
    arguments = args if args is not None else [str(tmp_path / "kept.h5")]
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *arguments],
                          capture_output=True, text=True, timeout=600, env=dict(os.environ))
    assert done.returncode == 0, done.stdout + done.stderr
    if script == "user_buffering.py":
        with h5py.File(tmp_path / "kept.h5", "r") as f:
            assert f["volume"].shape[0] == FRAMES_PER_VOLUME


def test_the_pymust_example_matches_pymusts_bmode(datasets):
    """examples/python/pymust_swap.py: PyMUST's B-mode script with cineflow.beamform swapped in;
    it fails unless every frame correlates with PyMUST's own B-mode at 0.99 or better."""
    done = subprocess.run([sys.executable, str(EXAMPLES / "pymust_swap.py"),
                           str(datasets / "verasonics_rotating_disk.h5"), "--backend", "cpu",
                           "--frames", "4"], capture_output=True, text=True, timeout=600,
                          env=dict(os.environ))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("Pearson with PyMUST's B-mode") == 4
