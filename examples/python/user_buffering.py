#!/usr/bin/env python3
"""User-managed buffering: each volume copied into the script's own buffer as it comes, then the
engine's VolumeStore for the ones to review: keep, save to HDF5, discard.

    PYTHONPATH=build/release/python python3 examples/python/user_buffering.py [OUT.h5]

The callback copies the volume it is lent into a buffer the script owns (on CUDA, with CuPy, the
same copy runs on the GPU: cupy.asarray(volume.volume) shares the memory); it keep()s every
second volume in the engine's store, which the script saves and then discards.
"""
import sys
from typing import List, Optional

import numpy as np

import cineflow

VOLUMES = 4


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "kept_volume.h5"
    mine: Optional[np.ndarray] = None  # the script's own buffer: [volume][ny][nz][nx]
    filled: List[int] = []

    def on_volume(volume):
        nonlocal mine
        if mine is None:
            mine = np.empty((VOLUMES, *volume.shape), dtype=np.float32)
        np.copyto(mine[len(filled)], volume.volume)  # the copy the script keeps
        filled.append(volume.number)
        if volume.number % 2 == 1:
            volume.keep()  # stays in the engine's store after the callback

    with cineflow.Engine("sim", backend="auto", frames=16 * VOLUMES, pace=False,
                         store_bytes=256 << 20) as engine:
        engine.on_volume(on_volume, queue=VOLUMES)
        engine.start()
        engine.wait()
        kept = engine.store.list()
        if mine is None:
            print("no volume reached the callback", file=sys.stderr)
            return 1
        print(f"own buffer: volumes {filled}, {mine.nbytes / 2**20:.1f} MiB; kept in the store:",
              [k["number"] for k in kept])
        engine.store.save(kept[0]["id"], out)
        print(f"saved volume {kept[0]['number']} to {out}")
        for k in kept:
            engine.store.discard(k["id"])
        print("store after discarding:", engine.store.list())
    return 0 if len(filled) == VOLUMES and len(kept) == VOLUMES // 2 else 1


if __name__ == "__main__":
    sys.exit(main())
