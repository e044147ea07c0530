#!/usr/bin/env python3
"""A PyMUST B-mode script with its beamforming call swapped for Cineflow's.

    PYTHONPATH=build/release/python python3 examples/python/pymust_swap.py [DISK.h5] [--backend B]

PyMUST's example images the Verasonics rotating disk (data/verasonics_rotating_disk.h5,
PyMUST's PWI_disk.mat) like this:

    IQ = pymust.rf2iq(RF, param)                    # demodulate
    M = pymust.dasmtx(IQ, x, z, param)              # the delay-and-sum matrix
    IQb = (M @ IQ.reshape(-1, order="F")).reshape(x.shape, order="F")
    I = pymust.bmode(IQb, 30)                       # 30 dB, uint8

Here the first three lines are one call, cineflow.beamform, with PyMUST's own choices (15 %
demodulation bandwidth, f-number 1.125, no apodisation window, its 0.1 mm grid); everything
after it is unchanged. PyMUST's bmode is used where PyMUST is installed; otherwise the same
formula in NumPy (20 log10 of the envelope over its maximum, 30 dB to 0..255). Each frame is
compared with the B-mode PyMUST itself made of it (the file's /reference/bmode_u8): the Pearson
correlation must reach 0.99 in every frame (0.995 is what an exact I/Q beamformer reaches:
data/README.md). Pass a NumPy frame for NumPy out, or cineflow.push(frame) (or a CuPy
array, on the cuda backend) to keep the image in the backend's memory.
"""
import argparse
import os
import sys

import h5py
import numpy as np

import cineflow

HERE = os.path.dirname(os.path.abspath(__file__))


def pymust_bmode(iq, dynamic_range_db):
    """PyMUST's bmode where PyMUST is installed, else its formula."""
    try:
        import pymust  # noqa: only where the Python running this has it
        return np.asarray(pymust.bmode(iq, dynamic_range_db))
    except ImportError:
        envelope = np.abs(iq.astype(np.complex128))
        db = 20 * np.log10(np.maximum(envelope / envelope.max(), 1e-12)) + dynamic_range_db
        return np.round(np.clip(255 * db / dynamic_range_db, 0, 255)).astype(np.uint8)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input", nargs="?", default=os.path.join(
        HERE, "..", "..", "data", "verasonics_rotating_disk.h5"))
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--frames", type=int, default=32)
    args = parser.parse_args()

    with h5py.File(args.input, "r") as f:  # PyMUST's answers, read before Cineflow opens the file
        reference = f["reference/bmode_u8"]
        x, z = reference.attrs["x_m"], reference.attrs["z_m"]
        reference = reference[:]
    grid = (f"{x[0] * 1e3:g}:{x[-1] * 1e3:g}:{(x[1] - x[0]) * 1e3:g},"
            f"{z[0] * 1e3:g}:{z[-1] * 1e3:g}:{(z[1] - z[0]) * 1e3:g}")
    source = cineflow.Source(args.input)
    acq = source.acquisition
    if not isinstance(acq, cineflow.Acquisition):
        sys.exit(f"{args.input} is not plane-wave ultrasound ({source.modality})")
    print(f"{args.input}: {acq}; grid {grid} mm; backend {cineflow.backend_info(args.backend)['device']}")

    worst = 1.0
    for index in range(min(args.frames, source.frame_count)):
        rf = source.read(index)
        # The swapped call: PyMUST's rf2iq + dasmtx + product.
        summed = cineflow.beamform(rf, acq, mode="iq", grid=grid, fnumber=1.125,
                                   apodisation="rect", iq_bandwidth=15, backend=args.backend)
        iq = cineflow.pull(summed) if isinstance(summed, cineflow.DeviceArray) else summed
        image = pymust_bmode(iq, 30)
        r = np.corrcoef(image.ravel().astype(float), reference[index].ravel().astype(float))[0, 1]
        worst = min(worst, r)
        print(f"frame {index:2d}: Pearson with PyMUST's B-mode {r:.4f}")
    print(f"worst frame: {worst:.4f} (0.99 required)")
    return 0 if worst >= 0.99 else 1


if __name__ == "__main__":
    sys.exit(main())
