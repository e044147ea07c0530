// Short argument errors: pybind11's own refusal of a call it cannot match ("incompatible function
// arguments") lists every overload and prints every argument, whole arrays included. Each of the
// module's functions is wrapped once, at import, so that such a refusal says in one line what was
// wrong: the keyword the function does not take (and the ones it does), or the arguments' types,
// dtypes and shapes against the signature. The wrapper keeps the function's name and docstring
// (functools.wraps) and states the signature pybind11 wrote (inspect.signature, help()), so the
// generated reference is unchanged; every other error passes through as it was raised.
#include <pybind11/eval.h>

#include "py_modules.hpp"

namespace cineflow::python {

void shortenArgumentErrors(pybind11::module_& m) {
  pybind11::dict scope;
  pybind11::exec(R"py(
import ast
import functools
import inspect
import re


def _described(value):
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None:
        return f"{type(value).__name__} {dtype} {tuple(shape)}"
    return type(value).__name__


def _parameters(signature):
    """[(name, default text or None, keyword-only)] of pybind11's signature line."""
    inner = signature[signature.index("(") + 1:signature.rindex(") ->")]
    found, depth, current, keyword_only = [], 0, "", False
    for c in inner + ",":
        depth += c in "([{"
        depth -= c in ")]}"
        if c == "," and depth == 0:
            name, _, rest = current.partition(":")
            name = name.strip()
            if name == "*":
                keyword_only = True
            elif name and name != "self":
                default = rest.split(" = ", 1)[1].strip() if " = " in rest else None
                found.append((name, default, keyword_only))
            current = ""
        else:
            current += c
    return found


def _signature(parameters):
    """The signature help() and inspect show: names, keyword-only marker and defaults."""
    shown = []
    for name, default, keyword_only in parameters:
        kind = (inspect.Parameter.KEYWORD_ONLY if keyword_only
                else inspect.Parameter.POSITIONAL_OR_KEYWORD)
        try:
            value = inspect.Parameter.empty if default is None else ast.literal_eval(default)
        except (ValueError, SyntaxError):
            value = inspect.Parameter.empty
        shown.append(inspect.Parameter(name, kind, default=value))
    return inspect.Signature(shown)


def shorten(function):
    signature = (function.__doc__ or "").strip().split("\n")[0]
    parameters = _parameters(signature) if re.match(r"^\w+\(.*\) -> ", signature) else []
    taken = [name for name, _, _ in parameters]

    @functools.wraps(function)
    def call(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except TypeError as error:
            if "incompatible function arguments" not in str(error):
                raise
            name = function.__name__
            unknown = [k for k in kwargs if taken and k not in taken]
            if unknown:
                message = (f"{name}() got an unexpected keyword argument '{unknown[0]}'; it takes "
                           + ", ".join(taken))
            else:
                given = [_described(a) for a in args]
                given += [f"{k}={_described(v)}" for k, v in kwargs.items()]
                message = (f"{name}() cannot take ({', '.join(given)}): the call is {signature}")
            raise TypeError(message) from None
    if parameters:
        call.__signature__ = _signature(parameters)
    return call
)py",
                 scope);
  const pybind11::object shorten = scope["shorten"];
  const pybind11::object isBuiltin = pybind11::module_::import("inspect").attr("isbuiltin");
  const pybind11::list names = m.attr("__dict__").attr("keys")();
  for (const pybind11::handle name : names) {
    const pybind11::object function = m.attr(name);
    if (isBuiltin(function).cast<bool>()) {
      m.attr(name) = shorten(function);
    }
  }
}

}  // namespace cineflow::python
