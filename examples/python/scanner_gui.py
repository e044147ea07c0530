#!/usr/bin/env python3
"""A scanner script with the whole workstation beside it: the SDK's callback pushes each frame,
cineflow.gui() images and shows them.

    PYTHONPATH=build/release/python python3 examples/python/scanner_gui.py [SOURCE]
        [--rate HZ] [--backend auto|cpu|cuda] [--no-tune] [--screenshot PNG [--after-frames N]]

As in scanner_push.py, `ImitatedSdk` stands for a scanner's SDK (us4us ARRUS, a Verasonics
bridge): it reads channel data from SOURCE (anything `cineflow --input` takes; default the
built-in simulator) and calls back on its own thread at the scanner's rate. The callback pushes
into a cineflow.PushSource; cineflow.gui() opens the operator window on it and runs until the
operator closes it (or Ctrl+C). Frames the SDK delivers while no engine runs (before the window
has started its engine, while the operator has stopped it) are refused by push() and counted
here as not shown; under the window's policies no frame that was taken is lost unnoticed.

With --screenshot the window images N frames, saves itself there and closes (how the test suite
runs this example). Prints what was pushed and imaged; exits 1 when the window could not open or
nothing was imaged, 130 after Ctrl+C.
"""
import argparse
import os
import sys
import threading

import cineflow
from scanner_push import ImitatedSdk


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", default="sim")
    parser.add_argument("--rate", type=float, default=30.0, help="the scanner's frames/s")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--no-tune", action="store_true",
                        help="each stage's default implementation, none measured at start")
    parser.add_argument("--screenshot")
    parser.add_argument("--after-frames", type=int, default=10)
    args = parser.parse_args()

    source = cineflow.Source(args.source)
    if not isinstance(source.acquisition, cineflow.Acquisition):
        print(f"{args.source} is not plane-wave channel data; this example pushes those")
        return 2
    pushed = cineflow.PushSource(source.acquisition, dtype=str(source.dtype))
    sdk = ImitatedSdk(source, 0, rate_hz=args.rate)
    counts = {"taken": 0, "not shown": 0}
    first = threading.Event()

    def deliver(frame):  # the SDK's callback, on the SDK's thread
        try:
            taken = pushed.push(frame)
        except RuntimeError:  # no engine runs on the source now: the frame is not shown
            counts["not shown"] += 1
            return
        counts["taken"] += taken
        if taken and not first.is_set():
            first.set()
            print(f"imaging: the first frame went to the window (pid {os.getpid()})", flush=True)

    sdk.register(deliver)
    sdk.start()
    status = 0
    try:
        stats = cineflow.gui(pushed, backend=args.backend, tune=not args.no_tune,
                             screenshot=args.screenshot, after_frames=args.after_frames)
    except KeyboardInterrupt:
        print("closed by Ctrl+C")
        stats, status = None, 130
    except RuntimeError as error:
        print(error)
        stats, status = None, 1
    finally:
        sdk.stop()
    print(f"pushed {pushed.pushed}, taken {counts['taken']}, not shown {counts['not shown']}")
    if stats is not None:
        print(f"imaged {stats['processed']}, displayed {stats['frames_displayed']}, dropped "
              f"{stats['dropped']}; acquired {stats['acquisition_fps']:.1f} frames/s, processed "
              f"{stats['processing_fps']:.1f} frames/s")
        if stats["processed"] == 0:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
