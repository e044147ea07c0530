#!/usr/bin/env python3
"""Streams a cineflow.rf/1 recording to Cineflow over ZeroMQ, the way a live scanner would.

Cineflow listens (``cineflow --input zmq:tcp://*:5555``); this sender connects a PUSH socket and
sends the cineflow.stream/1 messages described in Cineflow's manual (docs/plugins-and-streaming.md,
"Live frames over the network"): a JSON header describing the stream (sent first, then again every
--header-every seconds so that a Cineflow started later picks the stream up), then one two-part
message per frame (JSON with its sequence number and timestamp, then the frame's little-endian
samples), and an "end" message when it finishes. A lab's own acquisition script sends the same
messages.

Like a scanner, it does not wait for a Cineflow that cannot keep up: a frame Cineflow's queue has
no room for is not sent, and the gap in sequence numbers tells Cineflow it was lost. --block waits
instead (every frame arrives; nothing is lost).

Needs numpy, h5py and pyzmq (Debian: python3-numpy python3-h5py python3-zmq).
"""

import argparse
import json
import signal
import sys
import time

import h5py
import numpy as np
import zmq

SCHEMA = "cineflow.stream/1"


def attribute(rf, root, name, default=None):
    """A cineflow.rf/1 attribute, on /rf or on / (as Cineflow reads it)."""
    for holder in (rf, root):
        if name in holder.attrs:
            value = holder.attrs[name]
            return value.decode() if isinstance(value, bytes) else value
    if default is None:
        sys.exit(f"send_frames: {root.filename}: attribute {name} is missing (looked on /rf and on /)")
    return default


def header_for(path, root, rf, rate_hz):
    """The stream's header: the recording's acquisition, in cineflow.stream/1's field names."""
    schema = attribute(rf, root, "schema", "")
    if schema != "cineflow.rf/1":
        sys.exit(f"send_frames: {path}: schema is {schema!r}, expected 'cineflow.rf/1'")
    if rf.ndim != 4:
        sys.exit(f"send_frames: {path}: /rf has {rf.ndim} dimensions, expected 4 "
                 "(frames, transmits, elements, samples)")
    if rf.dtype == np.int16:
        sample_type = "int16"
    elif rf.dtype == np.float32:
        sample_type = "float32"
    else:
        sys.exit(f"send_frames: {path}: /rf holds {rf.dtype}, expected int16 or float32")
    _, transmits, elements, samples = rf.shape
    bandwidth_percent = float(attribute(rf, root, "fractional_bandwidth_percent", 0.0))
    header = {
        "type": "header",
        "schema": SCHEMA,
        "modality": "ultrasound",
        "sample_type": sample_type,
        "transmits": int(transmits),
        "elements": int(elements),
        "samples": int(samples),
        "frame_bytes": int(transmits * elements * samples * rf.dtype.itemsize),
        "sampling_frequency_hz": float(attribute(rf, root, "sampling_frequency_hz")),
        "center_frequency_hz": float(attribute(rf, root, "center_frequency_hz")),
        "sound_speed_m_s": float(attribute(rf, root, "sound_speed_m_s")),
        "t0_s": float(attribute(rf, root, "t0_s")),
        "angles_rad": [float(a) for a in root["angles_rad"][()]],
        "element_x_m": [float(x) for x in root["element_x_m"][()]],
        "pulse_repetition_frequency_hz": float(attribute(rf, root, "pulse_repetition_frequency_hz", 0.0)),
        "frame_rate_hz": float(rate_hz),
        "frames_per_volume": int(attribute(rf, root, "frames_per_volume", 0)),
        "description": f"send_frames.py: {path}",
    }
    if bandwidth_percent > 0:
        # A fraction of the centre frequency; left out when unknown, Cineflow measures it from
        # the echoes of the first frame as it does for the recording itself.
        header["fractional_bandwidth"] = bandwidth_percent / 100.0
    return header


def parse_arguments():
    parser = argparse.ArgumentParser(
        description="Stream a cineflow.rf/1 recording to Cineflow over ZeroMQ (cineflow.stream/1).")
    parser.add_argument("recording", help="a cineflow.rf/1 HDF5 file")
    parser.add_argument("--endpoint", default="tcp://127.0.0.1:5555",
                        help="where Cineflow listens (default tcp://127.0.0.1:5555)")
    parser.add_argument("--rate", type=float, default=20.0,
                        help="frames per second (default 20; 0: as fast as Cineflow takes them)")
    parser.add_argument("--frames", type=int, default=0,
                        help="frames to send, looping over the recording (default 0: until stopped)")
    parser.add_argument("--start-sequence", type=int, default=0,
                        help="the first frame's sequence number (default 0)")
    parser.add_argument("--header-every", type=float, default=1.0,
                        help="seconds between repeated headers (default 1)")
    parser.add_argument("--block", action="store_true",
                        help="wait for Cineflow instead of dropping frames it has no room for")
    parser.add_argument("--skip", type=int, action="append", default=[], metavar="SEQUENCE",
                        help="do not send this sequence number (a lost frame); repeatable")
    parser.add_argument("--malformed-before", type=int, action="append", default=[],
                        metavar="SEQUENCE",
                        help="send a malformed message before this frame (to check the receiver)")
    parser.add_argument("--truncate", type=int, action="append", default=[], metavar="SEQUENCE",
                        help="send this frame one sample short (to check the receiver); repeatable")
    arguments = parser.parse_args()
    if arguments.rate < 0 or arguments.frames < 0 or arguments.start_sequence < 0:
        parser.error("--rate, --frames and --start-sequence must not be negative")
    return arguments


def main():
    arguments = parse_arguments()
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(True))
    try:
        root = h5py.File(arguments.recording, "r")
    except OSError as error:
        sys.exit(f"send_frames: cannot open {arguments.recording}: {error}")
    with root:
        if "rf" not in root:
            sys.exit(f"send_frames: {arguments.recording}: no /rf dataset (not a cineflow.rf/1 recording)")
        rf = root["rf"]
        header = header_for(arguments.recording, root, rf, arguments.rate)
        elevations = root["elevation_m"][()] if "elevation_m" in root else None
        count = rf.shape[0]
        if count == 0:
            sys.exit(f"send_frames: {arguments.recording}: the recording holds no frames")
        little_endian = rf.dtype.newbyteorder("<")

        context = zmq.Context()
        socket = context.socket(zmq.PUSH)
        socket.setsockopt(zmq.SNDHWM, 8)
        socket.setsockopt(zmq.LINGER, 2000)
        socket.connect(arguments.endpoint)
        print(f"send_frames: {arguments.recording}: {count} frames of {header['transmits']} x "
              f"{header['elements']} x {header['samples']} {header['sample_type']} to "
              f"{arguments.endpoint} at {arguments.rate:g} Hz", file=sys.stderr, flush=True)
        header_text = json.dumps(header).encode()
        # The first header waits for Cineflow: frames before it would be skipped there.
        socket.send(header_text)
        last_header = time.monotonic()
        sent = dropped = 0
        period = 1.0 / arguments.rate if arguments.rate > 0 else 0.0
        next_tick = time.monotonic()
        frame = 0
        flags = 0 if arguments.block else zmq.NOBLOCK
        while not stopping and (arguments.frames == 0 or frame < arguments.frames):
            if period > 0:
                delay = next_tick - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                next_tick = max(next_tick + period, time.monotonic() - period)
            if time.monotonic() - last_header >= arguments.header_every:
                try:
                    socket.send(header_text, flags)
                except zmq.Again:
                    pass  # Cineflow already knows the stream: it is busy with frames
                last_header = time.monotonic()
            sequence = arguments.start_sequence + frame
            index = frame % count
            frame += 1
            if sequence in arguments.malformed_before:
                socket.send_multipart([b'{"type": "frame", "sequence": "not a number"}', b"\0"])
            if sequence in arguments.skip:
                dropped += 1
                continue
            samples = np.ascontiguousarray(rf[index], dtype=little_endian)
            if sequence in arguments.truncate:
                samples = samples.reshape(-1)[:-1]
            meta = {"type": "frame", "sequence": sequence, "timestamp_ns": time.time_ns()}
            if header["frames_per_volume"] > 0:
                meta["slice_index"] = index % header["frames_per_volume"]
            if elevations is not None:
                meta["elevation_m"] = float(elevations[index])
            try:
                socket.send_multipart([json.dumps(meta).encode(), samples], flags, copy=False)
                sent += 1
            except zmq.Again:
                dropped += 1  # Cineflow has no room: a live scanner's frame is gone
        # The end is what a receiver that ends with its sender waits for: give it a few seconds
        # of room, even when frames were dropped for want of it.
        socket.setsockopt(zmq.SNDTIMEO, 5000)
        try:
            socket.send(b'{"type": "end"}')
        except zmq.Again:
            print("send_frames: Cineflow took no \"end\" within 5 s", file=sys.stderr, flush=True)
        socket.close()
        context.term()
        print(f"send_frames: sent {sent} frames, {dropped} not sent", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
