"""cineflow.gui(): the operator workstation on a script's PushSource, in the script's process.
The scanner example (examples/python/scanner_gui.py) runs under Xvfb as a lab's script would:
its SDK thread pushes frames while the window images and shows them; Ctrl+C sent to the script
closes the window and reaches the script as KeyboardInterrupt; what cannot work is refused with
a message that says why."""
import os
import pathlib
import signal
import struct
import subprocess
import sys
import threading

import pytest

import cineflow

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "scanner_gui.py"
XVFB = ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24"]


def example_env(tmp_path):
    env = dict(os.environ, HOME=str(tmp_path), CINEFLOW_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return env


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def figure(stdout, word):
    """The number after `word` in the example's report ("imaged 12, displayed 10, ...")."""
    for line in stdout.splitlines():
        parts = line.replace(",", " ").replace(";", " ").split()
        for i, part in enumerate(parts[:-1]):
            if part == word:
                return int(parts[i + 1])
    raise AssertionError(f"no '{word} N' in:\n{stdout}")


def test_the_window_images_a_scripts_pushed_frames(tmp_path):
    """The example's SDK thread pushes simulator frames at 30/s; the window, started on the
    PushSource, images them until 8 were displayed, saves itself and closes. Its policy is Block:
    nothing was dropped, and at least the 8 frames shown were imaged."""
    shot = tmp_path / "window.png"
    done = subprocess.run(
        [*XVFB, sys.executable, str(EXAMPLE), "sim", "--backend", "cpu", "--no-tune",
         "--screenshot", str(shot), "--after-frames", "8"],
        capture_output=True, text=True, timeout=300, env=example_env(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    width, height = png_size(shot)
    assert width >= 800 and height >= 500
    imaged, displayed = figure(done.stdout, "imaged"), figure(done.stdout, "displayed")
    assert displayed >= 8 and imaged >= displayed
    assert figure(done.stdout, "dropped") == 0
    # Frames the SDK delivered before the window's engine ran, or after it closed, were refused
    # and counted by the example; those imaged were all pushed.
    assert figure(done.stdout, "pushed") >= imaged


def test_ctrl_c_closes_the_window_and_reaches_the_script(tmp_path):
    """SIGINT to the script while the window images: the window closes within the poll, the
    script sees KeyboardInterrupt (the example says so and exits 130), and its SDK thread ends."""
    run = subprocess.Popen(
        [*XVFB, sys.executable, str(EXAMPLE), "sim", "--backend", "cpu", "--no-tune"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=example_env(tmp_path))
    lines = []
    try:
        for line in run.stdout:
            lines.append(line)
            if line.startswith("imaging:"):
                pid = int(line.rsplit("pid ", 1)[1].rstrip(")\n"))
                os.kill(pid, signal.SIGINT)
                break
        rest, _ = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
    output = "".join(lines) + rest
    assert run.returncode == 130, output
    assert "closed by Ctrl+C" in output
    assert figure(output, "taken") >= 1


def test_what_cannot_open_a_window_is_refused_clearly(tmp_path):
    with pytest.raises(TypeError, match="PushSource or what --input takes"):
        cineflow.gui(42)  # type: ignore[arg-type]
    # From a thread other than the main one: the event loop belongs to the main thread.
    caught = []
    worker = threading.Thread(target=lambda: caught.append(_raised(cineflow.gui, "sim")))
    worker.start()
    worker.join()
    assert isinstance(caught[0], RuntimeError) and "main thread" in str(caught[0])
    # No display: the window cannot open, and the message says how to image without one.
    done = subprocess.run(
        [sys.executable, "-c", "import cineflow; cineflow.gui('sim')"],
        capture_output=True, text=True, timeout=120, env=example_env(tmp_path))
    assert done.returncode != 0
    assert "cannot open the operator window" in done.stderr and "xvfb-run" in done.stderr


def test_a_push_source_is_offered_by_name_while_the_script_keeps_it():
    acquisition = cineflow.Source("sim").acquisition
    source = cineflow.PushSource(acquisition, dtype=str(cineflow.Source("sim").dtype))
    spec = source.spec
    assert spec.startswith("push://")
    # What the window opens: an Engine opened by the name reads the frames pushed into it.
    frame = cineflow.Source("sim").read(0)
    with cineflow.Engine(spec, backend="cpu", tune=False) as engine:
        engine.start()
        pusher = threading.Thread(target=lambda: [source.push(frame) for _ in range(3)])
        pusher.start()
        pusher.join()
        source.close()
        assert engine.wait(timeout=120) == "finished"
        assert engine.stats()["processed"] == 3
    del source
    with pytest.raises(cineflow.SourceError, match="no source is offered"):
        cineflow.Engine(spec, backend="cpu", tune=False)


def _raised(call, *args):
    try:
        call(*args)
    except Exception as error:  # noqa: BLE001 - the test looks at what was raised
        return error
    return None
