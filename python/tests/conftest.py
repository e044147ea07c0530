"""Fixtures for the Python module's tests (CTest runs them: tests/CMakeLists.txt, `python_module`).

The environment says where things are: PYTHONPATH the built module, CINEFLOW_APP the `cineflow`
executable (the command line the module is compared with), CINEFLOW_DATA_DIR the real datasets
(the repository's data/ by default), CINEFLOW_CACHE_DIR the simulator's cache.
"""
import os
import pathlib
import subprocess

import pytest


@pytest.fixture(scope="session")
def datasets():
    default = pathlib.Path(__file__).resolve().parents[2] / "data"
    folder = pathlib.Path(os.environ.get("CINEFLOW_DATA_DIR", default))
    if not (folder / "field2_pw3_points.h5").exists():
        pytest.fail(f"no real datasets in {folder}: data/ is part of the repository (data/README.md)")
    return folder


@pytest.fixture(scope="session")
def app():
    path = os.environ.get("CINEFLOW_APP")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("CINEFLOW_APP does not name the cineflow executable")
    return path


@pytest.fixture
def run_app(app, tmp_path):
    """cineflow ARGS...: (exit code, stdout, stderr), with its own tuning history (none), or with
    this process's cache folder (shared_cache=True: the same FFT plans, FFTW's wisdom, whose
    choice of algorithm can change a float's last bit)."""
    def run(*args, shared_cache=False):
        env = dict(os.environ)
        if not shared_cache:
            env["CINEFLOW_CACHE_DIR"] = str(tmp_path / "cache")
        done = subprocess.run([app, *args], capture_output=True, text=True, env=env, timeout=600)
        return done.returncode, done.stdout, done.stderr
    return run


@pytest.fixture
def no_history(tmp_path, monkeypatch):
    """An empty tuning history: every stage runs its default variant, as with --no-tune."""
    monkeypatch.setenv("CINEFLOW_CACHE_DIR", str(tmp_path / "cache"))
