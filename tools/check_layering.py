#!/usr/bin/env python3
"""Cineflow's layering check: reads the #include lines of engine/, ui/, app/ and python/ and fails
on any include that runs against the declared order of their rooms, and on any cycle between
rooms, naming the file and line.

The order (docs/development.md, The engine's layers): a room may include its own files and those
of the rooms listed below it; rooms on one line are peers that must not include each other.
"""
import argparse
import os
import re
import sys

# Lowest first. Each entry: room -> rooms it may include (besides itself).
ENGINE = [
    ("base", []),
    ("compute", ["base"]),
    ("profile", ["compute", "base"]),
    ("tune", ["compute", "base"]),
    ("acquire", ["profile", "compute", "base"]),
    ("process", ["acquire", "tune", "profile", "compute", "base"]),
    ("store", ["process", "acquire", "tune", "profile", "compute", "base"]),
    ("modality", ["store", "process", "acquire", "tune", "profile", "compute", "base"]),
    ("ultrasound", ["modality", "store", "process", "acquire", "tune", "profile", "compute", "base"]),
    ("oct", ["modality", "store", "process", "acquire", "tune", "profile", "compute", "base"]),
    ("received", ["modality", "store", "process", "acquire", "tune", "profile", "compute", "base"]),
    ("pipeline", ["modality", "store", "process", "acquire", "tune", "profile", "compute", "base"]),
    ("registry", ["pipeline", "ultrasound", "oct", "received", "modality", "store", "process", "acquire", "tune",
                  "profile", "compute", "base"]),
    ("link", ["pipeline", "modality", "store", "process", "acquire", "tune", "profile", "compute",
              "base"]),
]
ENGINE_ROOMS = [name for name, _ in ENGINE]
# The engine's rooms that know a modality: of the GUI's rooms only the bridge to the engine, the
# modalities' own rooms and their list (ui/modalities/, which registers them behind the seam in
# ui/modality/) may name them; the rooms above (the acquisition dock, the shell) reach a modality
# only through the seam.
MODALITY_ROOMS = ["ultrasound", "oct", "received"]
NEUTRAL_ENGINE = [room for room in ENGINE_ROOMS if room not in MODALITY_ROOMS]
# The GUI's rooms (ui/<room>/), lowest first, by level: a room may include the rooms of lower
# levels, never a peer of its own level.
UI_LEVELS = [
    ["common"],
    ["bridge", "measure", "study"],
    ["view2d"],
    ["export", "profiler"],
    ["cineloop", "volumes"],
    ["view3d"],
    ["modality"],
    ["modalities/ultrasound", "modalities/oct", "modalities/received"],
    ["modalities"],
    ["acquisition"],
    ["shell"],
]
UI_MODALITY_ROOMS = ["modalities/ultrasound", "modalities/oct", "modalities/received", "modalities"]
UI_KNOWS_MODALITIES = {"bridge", *UI_MODALITY_ROOMS}
UI = []
for level, rooms in enumerate(UI_LEVELS):
    below = ["ui/" + room for lower in UI_LEVELS[:level] for room in lower]
    for room in rooms:
        knows = room in UI_KNOWS_MODALITIES
        engine = ENGINE_ROOMS if knows else NEUTRAL_ENGINE
        reach = below if knows else [r for r in below if r[len("ui/"):] not in UI_MODALITY_ROOMS]
        UI.append(("ui/" + room, reach + engine))
UI_ROOMS = [name for name, _ in UI]
# Outside the engine and the GUI: the command line and the Python module, a room each. The module
# reaches the GUI only through its shell (cineflow.gui(): shell/workstation.hpp).
OUTER = {
    "app": UI_ROOMS + ENGINE_ROOMS,
    "python": ["ui/shell"] + ENGINE_ROOMS,
}
SOURCES = (".cpp", ".hpp", ".h", ".cu", ".cuh")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def allowed_map():
    allowed = {name: set(deps) for name, deps in ENGINE + UI}
    allowed.update({name: set(deps) for name, deps in OUTER.items()})
    return allowed


def room_of_file(root, path):
    """The room a source file belongs to: engine/<room>/..., ui/<room>/... (ui/modalities/<name>/...),
    or app, python."""
    rel = os.path.relpath(path, root).split(os.sep)
    if rel[0] == "engine" and len(rel) > 2:
        return rel[1]
    if rel[0] == "ui":
        if len(rel) > 3 and rel[1] == "modalities":
            return "ui/modalities/" + rel[2]
        return "ui/" + rel[1] if len(rel) > 2 else "ui"
    if rel[0] in OUTER:
        return rel[0]
    return None


def room_of_include(root, including, target):
    """The room an include names: engine rooms by their first path part; a path relative to the
    including file's folder stays in that file's room; app/ and ui/ headers by where they are."""
    first = target.split("/")[0]
    here = os.path.dirname(including)
    if os.path.exists(os.path.join(here, target)):
        return room_of_file(root, os.path.normpath(os.path.join(here, target)))
    # Outside the engine, the GUI's folder comes first on the include path (cineflow_ui's own).
    outside_engine = os.path.relpath(including, root).split(os.sep)[0] != "engine"
    if outside_engine and os.path.exists(os.path.join(root, "ui", target)):
        return room_of_file(root, os.path.join(root, "ui", target))
    if first in ENGINE_ROOMS and os.path.isdir(os.path.join(root, "engine", first)):
        return first
    for outer in OUTER:
        if os.path.exists(os.path.join(root, outer, target)):
            return outer
    return None  # a system or generated header


def scan(root):
    edges = {}  # (from, to) -> first (file, line)
    wrong = []
    allowed = allowed_map()
    for top in ["engine", "ui"] + list(OUTER):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(folder, name)
                room = room_of_file(root, path)
                if room is None:
                    continue
                if room not in allowed:
                    wrong.append(f"{os.path.relpath(path, root)}: folder {room} is in no layer "
                                 "(declare it in tools/check_layering.py and docs/development.md)")
                    continue
                with open(path, encoding="utf-8", errors="replace") as text:
                    for number, line in enumerate(text, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        target = room_of_include(root, path, match.group(1))
                        if target is None or target == room:
                            continue
                        where = f"{os.path.relpath(path, root)}:{number}"
                        edges.setdefault((room, target), where)
                        if target not in allowed[room]:
                            wrong.append(f"{where}: {room} includes \"{match.group(1)}\" of "
                                         f"{target}, which {room} may not include")
    return edges, wrong


def cycles(edges):
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    found, state, stack = [], {}, []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(__file__), ".."))
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    edges, wrong = scan(root)
    loops = cycles(edges)
    for message in wrong:
        print(message)
    for loop in loops:
        steps = [f"{a} -> {b} ({edges[(a, b)]})" for a, b in zip(loop, loop[1:])]
        print("cycle: " + "; ".join(steps))
    if wrong or loops:
        print(f"layering: {len(wrong)} include(s) against the order, {len(loops)} cycle(s)")
        return 1
    print(f"layering: {len(edges)} edges between rooms, all in the declared order, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
