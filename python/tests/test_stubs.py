"""The type stubs (python/stubs/cineflow-stubs) say what the module is: the same public names, the
same methods and properties on each class, the same parameters (names, order, keyword-only marker
and defaults) as the signatures pybind11 writes into each docstring; and mypy, reading them,
finds no error in the examples a user starts from."""
import ast
import inspect
import os
import pathlib
import re
import subprocess

import pytest

import cineflow

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUB = ROOT / "python" / "stubs" / "cineflow-stubs" / "__init__.pyi"


def stub_tree():
    return ast.parse(STUB.read_text(encoding="utf-8"))


def public(names):
    return {n for n in names if not n.startswith("_") or n == "__version__"}


def stub_top_level():
    found = {}
    for node in stub_tree().body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found[node.name] = node
        elif isinstance(node, ast.AnnAssign):
            found[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                found[target.id] = node
    return found


def pybind_parameters(obj):
    """[(name, default text or None, keyword-only)] of the first signature in the docstring."""
    first = inspect.cleandoc(obj.__doc__ or "").split("\n")[0]
    match = re.match(r"^\w+\((.*)\) -> .*$", first)
    assert match, f"{obj!r}: no pybind11 signature in {first!r}"
    params, depth, current = [], 0, ""
    for c in match.group(1):
        depth += c in "([{" and 1 or 0
        depth -= c in ")]}" and 1 or 0
        if c == "," and depth == 0:
            params.append(current.strip())
            current = ""
        else:
            current += c
    if current.strip():
        params.append(current.strip())
    out, keyword_only = [], False
    for param in params:
        if param == "*":
            keyword_only = True
            continue
        name, _, rest = param.partition(":")
        default = rest.split(" = ", 1)[1] if " = " in rest else None
        if name.strip() != "self":
            out.append((name.strip(), default, keyword_only))
    return out


def stub_parameters(function):
    args = function.args
    positional = [a for a in args.posonlyargs + args.args if a.arg != "self"]
    defaults = [None] * (len(args.posonlyargs + args.args) - len(args.defaults)) + args.defaults
    defaults = defaults[-len(positional):] if positional else []
    out = [(a.arg, d, False) for a, d in zip(positional, defaults)]
    out += [(a.arg, d, True) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    return [(n, None if d is None else ast.literal_eval(d), k) for n, d, k in out]


def same_default(pybind_text, stub_value):
    if pybind_text is None or stub_value is None:
        return pybind_text in (None, "None") and stub_value is None
    return ast.literal_eval(pybind_text) == stub_value


def check_signature(where, obj, function):
    expected = pybind_parameters(obj)
    actual = stub_parameters(function)
    assert [(n, k) for n, _, k in expected] == [(n, k) for n, _, k in actual], where
    for (name, pybind_default, _), (_, stub_default, _) in zip(expected, actual):
        assert same_default(pybind_default, stub_default), f"{where}({name}=...)"


def test_the_stubs_name_what_the_module_has():
    stub = stub_top_level()
    assert public(dir(cineflow)) == {n for n in stub if not n.startswith("_") or n == "__version__"}
    for name, node in stub.items():
        obj = getattr(cineflow, name, None)
        if inspect.isroutine(obj):
            check_signature(f"cineflow.{name}", obj, node)
        elif inspect.isclass(obj) and not issubclass(obj, BaseException):
            members = {m.name: m for m in node.body if isinstance(m, ast.FunctionDef)}
            wanted = {n for n in vars(obj) if not n.startswith("_")} | {
                n for n in ("__init__", "__getitem__", "__iter__", "__len__", "__enter__",
                            "__exit__", "__dlpack__", "__dlpack_device__", "__array_interface__",
                            "__cuda_array_interface__") if n in vars(obj)}
            if "__init__" in wanted and "__init__" not in members:
                wanted.discard("__init__")  # not constructed by scripts: no constructor stub
            assert wanted == set(members), f"cineflow.{name}: {wanted ^ set(members)}"
            for member, function in members.items():
                attribute = vars(obj)[member]
                if isinstance(attribute, property) or not callable(attribute) or member in (
                        "__exit__", "__getitem__"):
                    continue  # properties have no parameters; overloads are checked by mypy
                check_signature(f"cineflow.{name}.{member}", attribute, function)


def test_mypy_finds_no_error_in_the_examples(tmp_path):
    mypy = subprocess.run(["mypy", "--version"], capture_output=True, text=True)
    if mypy.returncode != 0:
        pytest.fail("mypy is not installed (packaging/install-deps.sh installs it)")
    # mypy finds a stub package on the interpreter's path, as it finds the installed one in
    # dist-packages; only the third-party modules the examples may use are allowed to be missing.
    env = dict(os.environ, PYTHONPATH=str(STUB.parent.parent))
    env.pop("MYPYPATH", None)
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\ncheck_untyped_defs = True\n"
                      "[mypy-h5py.*,pymust.*,cupy.*,zmq.*]\nignore_missing_imports = True\n")
    examples = sorted(str(p) for p in (ROOT / "examples" / "python").glob("*.py"))
    done = subprocess.run(["mypy", "--config-file", str(config), "--no-incremental",
                           "--cache-dir", "/dev/null", *examples],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
