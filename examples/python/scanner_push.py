#!/usr/bin/env python3
"""A scanner script's frames into Cineflow: the SDK's callback pushes each frame into an Engine.

    PYTHONPATH=build/release/python python3 examples/python/scanner_push.py [SOURCE] [FRAMES]

A research scanner's SDK (us4us ARRUS, a Verasonics bridge, a camera vendor's) hands each
acquired frame to a callback on its own thread. Here `ImitatedSdk` plays that part: it reads
channel data from SOURCE (anything `cineflow --input` takes; default the built-in simulator)
and calls the callback at the scanner's frame rate. The callback pushes each frame into a
cineflow.PushSource; the Engine images it (one copy, straight into its host ring). With the
default policy "block" a push waits while the engine is behind and no frame is lost; with
"drop" a frame the engine has no room for is let go and counted.

Prints what was pushed, imaged and dropped; exits 1 unless every pushed frame is accounted for.
"""
import sys
import threading
import time
from typing import Callable

import numpy as np

import cineflow


class ImitatedSdk:
    """Stands for a scanner SDK: acquires frames on its own thread and calls back with each,
    `frames` of them (0: until stop())."""

    def __init__(self, source, frames, rate_hz):
        self.source, self.frames, self.period = source, frames, 1.0 / rate_hz
        self.callback: Callable[[np.ndarray], object] = lambda frame: None
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._acquire, name="sdk")

    def register(self, callback: Callable[[np.ndarray], object]) -> None:
        self.callback = callback

    def start(self):
        self.thread.start()

    def stop(self):
        self.stopped.set()
        self.join()

    def join(self):
        self.thread.join()

    def _acquire(self):
        i = 0
        while (self.frames == 0 or i < self.frames) and not self.stopped.wait(self.period):
            self.callback(self.source.read(i % self.source.frame_count))
            i += 1


def main():
    spec = sys.argv[1] if len(sys.argv) > 1 else "sim"
    frames = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    source = cineflow.Source(spec)
    if not isinstance(source.acquisition, cineflow.Acquisition):
        print(f"{spec} is not plane-wave channel data; this example pushes those")
        return 2
    pushed = cineflow.PushSource(source.acquisition, dtype=str(source.dtype))
    sdk = ImitatedSdk(source, frames, rate_hz=100.0)
    imaged = []

    # The SDK's callback: one push per frame, on the SDK's thread.
    sdk.register(lambda frame: pushed.push(frame))

    with cineflow.Engine(pushed, backend="auto") as engine:
        engine.on_frame(lambda frame: imaged.append(frame.sequence))
        engine.start()
        sdk.start()
        sdk.join()
        pushed.close()  # no more frames: the engine finishes with those it has
        engine.wait()
        stats = engine.stats()
    print(f"pushed {pushed.pushed}, imaged {stats['processed']}, dropped {stats['dropped']}, "
          f"delivered to the callback {len(imaged)}")
    print(f"acquired {stats['acquisition_fps']:.1f} frames/s, processed "
          f"{stats['processing_fps']:.1f} frames/s")
    accounted = stats["processed"] + stats["dropped"] == pushed.pushed == frames
    return 0 if accounted and len(imaged) == stats["processed"] else 1


if __name__ == "__main__":
    sys.exit(main())
