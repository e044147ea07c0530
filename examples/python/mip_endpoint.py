#!/usr/bin/env python3
"""A MIP endpoint: every complete volume's three maximum-intensity projections, as they come.

    PYTHONPATH=build/release/python python3 examples/python/mip_endpoint.py [SOURCE] [VOLUMES]

SOURCE is anything `cineflow --input` takes (default: the built-in simulator, whose elevation
sweep makes volumes). Prints each volume's number, shape and brightest voxel; the MIPs are views
of the engine's own memory, valid during the callback (NumPy on the CPU backend; on CUDA objects
with __cuda_array_interface__ and DLPack, e.g. cupy.asarray(volume.mip_y)).
"""
import sys

import numpy as np

import cineflow


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "sim"
    volumes = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    frames_per_volume = 16 if source == "sim" else 0
    peaks = []

    def on_volume(volume):
        # The MIPs along y (depth x lateral), z and x; np.asarray shares memory on the host.
        mip_y = np.asarray(volume.mip_y)
        z, x = np.unravel_index(np.argmax(mip_y), mip_y.shape)
        peaks.append(float(mip_y[z, x]))
        print(f"volume {volume.number}: {volume.shape} (ny, nz, nx), brightest {mip_y[z, x]:.1f} dB"
              f" at z index {z}, x index {x}")

    frames = volumes * frames_per_volume
    with cineflow.Engine(source, backend="auto", frames=frames, pace=False,
                         store_bytes=256 << 20) as engine:
        engine.on_volume(on_volume, queue=2)
        engine.start()
        engine.wait()
        stats = engine.stats()
    print(f"{stats['volume_delivered']} volumes delivered, {stats['volume_dropped']} dropped")
    return 0 if len(peaks) == volumes else 1


if __name__ == "__main__":
    sys.exit(main())
