// Short argument errors: pybind11's own refusal of a call it cannot match ("incompatible function
// arguments") lists every overload and prints every argument, whole arrays included. Each of the
// module's functions is wrapped once, at import, so that such a refusal says in one line what was
// wrong: the keyword the function does not take (and the ones it does), or the arguments' types,
// dtypes and shapes against the signature. The wrapper keeps the function's name, docstring and
// signature text (functools.wraps), so help() and the generated reference are unchanged; every
// other error passes through as it was raised.
#include <pybind11/eval.h>

#include "py_modules.hpp"

namespace cineflow::python {

void shortenArgumentErrors(pybind11::module_& m) {
  pybind11::dict scope;
  pybind11::exec(R"py(
import functools
import re


def _described(value):
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None:
        return f"{type(value).__name__} {dtype} {tuple(shape)}"
    return type(value).__name__


def _parameters(signature):
    inner = signature[signature.index("(") + 1:signature.rindex(") ->")]
    names, depth, current = [], 0, ""
    for c in inner + ",":
        depth += c in "([{"
        depth -= c in ")]}"
        if c == "," and depth == 0:
            name = current.split(":")[0].split("=")[0].strip()
            if name and name not in ("*", "self"):
                names.append(name)
            current = ""
        else:
            current += c
    return names


def shorten(function):
    signature = (function.__doc__ or "").strip().split("\n")[0]
    taken = _parameters(signature) if re.match(r"^\w+\(.*\) -> ", signature) else []

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
