"""cineflow.Engine: start, stop, live changes, statistics, and frames handed to a callable from a
bounded queue, on the built-in simulator (CPU backend). tune=False: every stage its default
variant, as cineflow.bmode(tune=False) runs them, whatever a tuning history says."""
import gc
import threading
import time

import numpy as np
import pytest

import cineflow


def test_every_frame_reaches_the_callback_in_order_in_block_mode():
    seen = []

    def slow(frame):
        seen.append(frame.sequence)
        assert frame.image.shape == (frame.geometry["nz"], frame.geometry["nx"])
        time.sleep(0.02)  # slower than the engine: Block holds the source back, loses nothing

    with cineflow.Engine("sim", backend="cpu", tune=False, frames=16, pace=False, policy="block") as engine:
        engine.on_frame(slow, queue=2)
        engine.start()
        assert engine.wait() == "finished"
        stats = engine.stats()
    assert seen == list(range(16))
    assert stats["processed"] == 16 and stats["callback_delivered"] == 16
    assert stats["callback_dropped"] == 0 and stats["dropped"] == 0


def test_the_image_is_the_frame_the_engine_made():
    """What the callback sees is the engine's image: the simulator's first frame, imaged by
    cineflow.bmode from the same source on the same backend, equal bit for bit."""
    images = {}
    with cineflow.Engine("sim", backend="cpu", tune=False, frames=2, pace=False) as engine:
        engine.on_frame(lambda f: images.setdefault(f.source_index, f.image.copy()))
        engine.start()
        engine.wait()
    source = cineflow.Source("sim")
    expected = cineflow.bmode(source.read(0), source.acquisition, backend="cpu", tune=False)
    assert np.array_equal(images[0], expected)


def test_a_failing_or_slow_callback_never_holds_the_engine():
    """The first call lasts until the engine has finished all its frames (a callback far slower
    than the engine, whatever this machine's speed): the engine never waits for it, the queue of
    two (the image in the callback and one waiting) drops the rest, and every image is accounted
    for: raised in the callback or dropped by its queue."""
    calls = []
    with cineflow.Engine("sim", backend="cpu", tune=False, frames=30, rate=10.0,
                         policy="drop") as engine:
        def failing(frame):
            calls.append(frame.sequence)
            while engine.stats()["state"] == "running":
                time.sleep(0.02)
            raise ValueError(f"script bug at frame {frame.sequence}")
        engine.on_frame(failing, queue=2)
        engine.start()
        assert engine.wait() == "finished"
        stats = engine.stats()
    assert stats["acquired"] == 30 and stats["processed"] > 2
    assert len(calls) == 2 and stats["callback_errors"] == 2 and stats["callback_delivered"] == 0
    assert stats["callback_dropped"] == stats["processed"] - 2
    assert "script bug at frame" in stats["callback_last_error"]


def test_the_buffer_is_handed_back_after_the_callback():
    kept = []
    with cineflow.Engine("sim", backend="cpu", tune=False, frames=1, pace=False) as engine:
        def keep(frame):
            kept.append(frame)
            assert frame.image is frame.image  # one copy per frame, however often it is read
            with pytest.raises(ValueError):
                frame.image[0, 0] = 1  # read-only: the engine's image
        engine.on_frame(keep)
        engine.start()
        engine.wait()
        assert engine.stats()["callback_errors"] == 0, engine.stats()["callback_last_error"]
    with pytest.raises(RuntimeError, match="went back to the queue"):
        kept[0].image
    assert kept[0].sequence == 0  # the header is the frame's own


@pytest.mark.parametrize("keep_every", [1, 3])
def test_images_kept_from_callbacks_outlive_the_queue_and_the_engine(datasets, keep_every):
    """An image kept from a callback (queue of 2, so each slot holds many frames in turn) stays
    the image its callback saw, after later frames, after the engine is deleted and its memory
    reused (new arrays of 7.0). Keeping every third image, the ones dropped give their buffers to
    later frames: those, too, must not show through. The rotating disk: every frame differs."""
    kept, seen = [], []

    def keep(frame):
        if frame.sequence % keep_every == 0:
            kept.append(frame.image)
            seen.append(frame.image.copy())
        else:
            assert frame.image.shape == seen[-1].shape

    engine = cineflow.Engine(str(datasets / "verasonics_rotating_disk.h5"), backend="cpu",
                             tune=False, frames=12, pace=False, policy="block", mode="iq")
    engine.on_frame(keep, queue=2)
    engine.start()
    assert engine.wait() == "finished"
    assert engine.stats()["callback_delivered"] == 12, engine.stats()["callback_last_error"]
    assert len(kept) == len(range(0, 12, keep_every))
    assert not np.array_equal(seen[0], seen[1])  # distinct frames, or the test proves nothing
    for image, copy in zip(kept, seen):
        assert np.array_equal(image, copy)
    del engine
    gc.collect()
    filler = [np.full(seen[0].shape, 7.0, np.float32) for _ in range(64)]
    for image, copy in zip(kept, seen):
        assert np.array_equal(image, copy)
    assert filler[-1][0, 0] == 7.0


def test_an_engine_on_a_file_stops_at_its_end_with_the_keywords_bmode_takes(datasets):
    """As the command line: a recording's 32 frames and no more, unless frames says otherwise;
    the I/Q keywords reach the engine (its image equals bmode's with the same keywords, and
    differs from the default's); wait() raises on a timeout and on a refused value."""
    path = str(datasets / "verasonics_rotating_disk.h5")
    source = cineflow.Source(path)
    images = {}
    engine = cineflow.Engine(path, backend="cpu", tune=False, pace=False, iq_bandwidth=30,
                             iq_decimation=2)
    engine.on_frame(lambda f: images.setdefault(f.source_index, f.image.copy()), queue=4)
    engine.start()
    assert engine.wait(120) == "finished"
    assert sorted(images) == list(range(32))
    same = cineflow.bmode(source[0], source.acquisition, iq_bandwidth=30, iq_decimation=2,
                          backend="cpu", tune=False)
    default = cineflow.bmode(source[0], source.acquisition, backend="cpu", tune=False)
    assert np.array_equal(images[0], same)
    assert images[0].shape != default.shape or not np.array_equal(images[0], default)
    with pytest.raises(ValueError, match="I/Q bandwidth 500 % of f0"):
        cineflow.Engine(path, backend="cpu", iq_bandwidth=500)
    pinned = cineflow.Engine(path, backend="cpu", tune=False, pace=False, frames=2,
                             variants={"beamform": "portable"})
    pinned.start()
    assert pinned.wait(120) == "finished"
    assert {s["name"]: s["variant"] for s in pinned.stats()["stages"]}["beamform"] == "portable"
    with pytest.raises(ValueError, match="'nope' pinned for beamform"):
        cineflow.Engine(path, backend="cpu", variants={"beamform": "nope"}).start()
    with cineflow.Engine("sim", backend="cpu", tune=False, rate=20.0) as live:
        live.start()
        with pytest.raises(TimeoutError, match="still running after 0.2 s"):
            live.wait(0.2)
        live.stop()
        assert live.wait() == "stopped"


def test_frames_say_whether_their_flow_layers_are_fresh():
    """Doppler's flow layers hold no estimate before the first full ensemble (16 frames by
    default): those frames are not fresh, every later one (sliding ensembles) is; a B-mode frame
    is always fresh."""
    fresh = []
    engine = cineflow.Engine("sim-flow", backend="cpu", tune=False, frames=18, pace=False,
                             policy="block", mode="doppler")
    engine.on_frame(lambda frame: fresh.append(frame.fresh), queue=2)
    engine.start()
    assert engine.wait() == "finished"
    assert fresh == [False] * 15 + [True] * 3
    fresh.clear()
    with cineflow.Engine("sim", backend="cpu", tune=False, frames=2, pace=False,
                         policy="block") as bmode:
        bmode.on_frame(lambda frame: fresh.append(frame.fresh), queue=2)
        bmode.start()
        assert bmode.wait() == "finished"
    assert fresh == [True, True]


def test_live_changes_and_statistics():
    shapes = []
    with cineflow.Engine("sim", backend="cpu", tune=False, rate=10.0) as engine:
        engine.on_frame(lambda f: shapes.append(f.image.shape), queue=4)
        engine.start()
        while len(shapes) < 2:
            time.sleep(0.05)
        engine.set(fnumber=2.5)  # live, same image size
        engine.set(grid="-5:5:0.2,10:20:0.2")  # a new size: the queue is remade
        count = len(shapes)
        deadline = time.monotonic() + 60
        while len(shapes) < count + 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        stats = engine.stats()
        assert stats["state"] == "running"
        names = [stage["name"] for stage in stats["stages"]]
        assert names[:2] == ["upload", "bandpass"] and "beamform" in names
        assert all(stage["median_ms"] > 0 for stage in stats["stages"] if stage["count"])
    assert shapes[-1] == (51, 51)
    assert engine.stats()["state"] in ("stopped", "finished")


def test_bad_engine_arguments():
    with pytest.raises(ValueError, match="block.*drop|drop.*block"):
        cineflow.Engine("sim", backend="cpu", tune=False, policy="sometimes")
    with pytest.raises(RuntimeError):
        cineflow.Engine("/no/such/recording.h5", backend="cpu")
    with pytest.raises(ValueError, match="apply to ultrasound"):
        cineflow.Engine("oct-sim", backend="cpu", fnumber=2.0)
    engine = cineflow.Engine("sim", backend="cpu")
    with pytest.raises(ValueError, match="at least 1"):
        engine.on_frame(print, queue=0)
