#!/usr/bin/env python3
"""Times Cineflow's Python module: cineflow.beamform against PyMUST on one recording, on the
same grid, on the CPU (both in this one run), and the Python layer's overhead against the
command line for whole frames.

    PYTHONPATH=build/release/python python3 tools/bench_python.py [--input FILE] [--frames N]
        [--repeat K] [--app build/release/app/cineflow] [--grid MM]

* Beamforming: `cineflow.beamform(rf, acq, mode="iq", grid=...)` (demodulation and delay-and-sum
  of every transmit, tuned variants) against PyMUST's rf2iq + dasmtx + the sparse product for
  each transmit, summed (PyMUST's documented use); the median of K runs each. PyMUST is imported
  if the Python running this has it (`pip install pymust`); otherwise that half says so.
* Overhead: `cineflow.Engine(INPUT, frames=N, pace=False)` with a callback that receives every
  image (Block), against `cineflow --headless --input INPUT --frames N`, which writes every image
  to HDF5; frames/s as the command line counts them (frames processed / seconds from start to the
  last image), alternating the two K times; the overhead is 1 - Python / command line, medians.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import cineflow

HERE = os.path.dirname(os.path.abspath(__file__))


def time_cineflow_beamform(rf, acq, grid, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        cineflow.beamform(rf, acq, mode="iq", grid=grid, backend="cpu")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_pymust_beamform(rf, acq, grid, repeat):
    """PyMUST on the same frame and grid: per transmit, rf2iq then dasmtx and the sparse
    product (its examples' sequence), summed over the transmits."""
    import pymust  # noqa: only where the Python running this has it
    x0, x1, dx, z0, z1, dz = [float(v) * 1e-3 for v in re.split("[:,]", grid)]
    x, z = np.meshgrid(np.arange(x0, x1 + dx / 2, dx), np.arange(z0, z1 + dz / 2, dz))
    param = pymust.utils.Param()
    param.fs, param.fc, param.c, param.t0 = acq.fs, acq.f0, acq.c, acq.t0
    param.pitch = acq.element_x[1] - acq.element_x[0]
    param.Nelements = acq.elements
    param.bandwidth = acq.bandwidth * 100 if acq.bandwidth > 0 else 75
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        summed = 0
        for t, angle in enumerate(acq.angles):
            param.TXdelay = pymust.txdelay(param, angle)
            iq = pymust.rf2iq(rf[t].T.astype(float), param)  # [samples][elements]
            matrix = pymust.dasmtx(iq, x, z, param)
            summed = summed + (matrix @ iq.reshape(-1, order="F")).reshape(x.shape, order="F")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cli_frames_per_second(app, source, frames, output):
    done = subprocess.run([app, "--headless", "--backend", "cpu", "--input", source, "--frames",
                           str(frames), "--output", output], capture_output=True, text=True,
                          check=True)
    match = re.search(r"frames: (\d+) processed, \d+ dropped in ([\d.]+) s", done.stdout)
    return int(match.group(1)) / float(match.group(2))


def python_frames_per_second(source, frames):
    seen = []
    with cineflow.Engine(source, backend="cpu", frames=frames, pace=False) as engine:
        engine.on_frame(lambda frame: seen.append(frame.sequence), queue=8)
        start = time.perf_counter()
        engine.start()
        engine.wait()
        seconds = time.perf_counter() - start
        processed = engine.stats()["processed"]
    assert len(seen) == processed == frames, (len(seen), processed, frames)
    return processed / seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--input", default=os.path.join(HERE, "..", "..", "shared", "data",
                                                        "field2_pw3_points.h5"))
    parser.add_argument("--grid", default="-19:19:0.2,5:50:0.05")
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--app", default=os.path.join(HERE, "..", "build", "release", "app",
                                                      "cineflow"))
    args = parser.parse_args()
    source = cineflow.Source(args.input)
    rf, acq = source.read(0), source.acquisition
    print(f"{args.input}: {acq}; grid {args.grid} mm; CPU: {cineflow.backend_info('cpu')['device']}")

    ours = time_cineflow_beamform(rf, acq, args.grid, args.repeat)
    print(f"cineflow.beamform (I/Q): {ours * 1e3:.1f} ms (median of {args.repeat})")
    try:
        theirs = time_pymust_beamform(rf, acq, args.grid, args.repeat)
        print(f"PyMUST rf2iq + dasmtx: {theirs * 1e3:.1f} ms: Cineflow {theirs / ours:.1f}x faster")
    except ImportError as error:
        print(f"PyMUST: not run ({error}; pip install pymust where PyPI is reachable)")

    engine_source = "sim"  # a whole frame as the engine images it, many frames of it
    cli, python = [], []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.repeat):
            cli.append(cli_frames_per_second(args.app, engine_source, args.frames,
                                             os.path.join(folder, "out.h5")))
            python.append(python_frames_per_second(engine_source, args.frames))
    c, p = statistics.median(cli), statistics.median(python)
    print(f"whole frames ({engine_source}, {args.frames} frames, CPU, tuned): command line "
          f"{c:.2f} frames/s ({min(cli):.2f}-{max(cli):.2f}), Python {p:.2f} frames/s "
          f"({min(python):.2f}-{max(python):.2f}): overhead {100 * (1 - p / c):+.1f} % (goal < 5 %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
