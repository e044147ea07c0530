#!/usr/bin/env python3
"""The manual's Python API reference, written from the built module's own docstrings, so that the
reference says what `help(cineflow.X)` says.

    python_api.py OUT.md        (PYTHONPATH: the built module, build/release/python)
"""

import inspect
import re
import sys

import cineflow


def _escape(text):
    return re.sub(r"([\\*_<>\[\]#|])", r"\\\1", text)


def _docstring(obj):
    """(signature lines, prose): pybind puts `name(args) -> result` lines (one per overload,
    numbered when there are several) before the prose."""
    doc = inspect.cleandoc(obj.__doc__ or "")
    signatures, prose = [], []
    for line in doc.split("\n"):
        if not prose and (re.match(r"^(\d+\. )?\w+\(.*\)( -> .*)?$", line) or
                          line == "Overloaded function."):
            if line != "Overloaded function.":
                signatures.append(re.sub(r"^\d+\. ", "", line))
        else:
            prose.append(line)
    while prose and not prose[0].strip():
        prose.pop(0)
    return signatures, "\n".join(prose).strip()


def _block(out, obj):
    signatures, prose = _docstring(obj)
    if signatures:
        out += ["```python", *signatures, "```", ""]
    if prose:
        for paragraph in re.split(r"\n\s*\n", prose):
            lines = paragraph.split("\n")
            if any(line.startswith("    ") for line in lines):
                out += ["```text", *lines, "```", ""]
            else:
                out += [_escape(" ".join(line.strip() for line in lines)), ""]
    elif not signatures:
        raise SystemExit(f"python_api: {getattr(obj, '__qualname__', obj)} has no docstring")


def _members(cls):
    """The class's own public methods and properties, in name order (special methods that a
    user calls through syntax, such as __getitem__ and __enter__, included)."""
    wanted = {"__init__", "__getitem__", "__len__", "__iter__", "__enter__", "__exit__",
              "__array__"}
    for name, member in sorted(vars(cls).items()):
        if name.startswith("_") and name not in wanted:
            continue
        if isinstance(member, property) or callable(member) or hasattr(member, "__get__"):
            yield name, member


def render():
    out = ["# Python API reference", "",
           f"Generated from the docstrings of the `cineflow` module {cineflow.__version__} "
           "(`help(cineflow.Source)` prints the same). The guide is [Python](python.md).", ""]
    _block(out, cineflow)
    names = sorted(n for n in dir(cineflow) if not n.startswith("_"))
    functions = [n for n in names if inspect.isroutine(getattr(cineflow, n))]
    classes = [n for n in names if inspect.isclass(getattr(cineflow, n))]
    out += ["## Functions", ""]
    for name in functions:
        out += [f"### cineflow.{name}", ""]
        _block(out, getattr(cineflow, name))
    out += ["## Classes", ""]
    for name in classes:
        cls = getattr(cineflow, name)
        out += [f"### cineflow.{name}", ""]
        _block(out, cls)
        if issubclass(cls, BaseException):
            continue
        for member_name, member in _members(cls):
            out += [f"#### {name}.{member_name}", ""]
            target = member.fget if isinstance(member, property) and member.fget else member
            signatures, prose = _docstring(target)
            if not signatures and not prose and isinstance(member, property):
                _, prose = _docstring(member)
            if not signatures and not prose:
                raise SystemExit(f"python_api: cineflow.{name}.{member_name} has no docstring")
            _block(out, target if (signatures or _docstring(target)[1]) else member)
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        f.write(render())
