"""Answers as plain data: the only thing that leaves a submission's sandbox.

A student's function may return anything, including objects whose ``__eq__``
always says yes. The sandbox therefore sends the checker numbers, strings and
arrays only, as JSON: ``encode`` turns a value into JSON-able data, and
``decode`` rebuilds it on the checker's side from JSON alone, so no object
defined by a student ever exists there (no pickle, no ``allow_pickle``).

Encoded forms (every JSON object is one of these tags)::

    {"array": [dtype, shape, base64 bytes]}   numeric, boolean or text arrays
    {"scalar": [dtype, base64 bytes]}          numpy scalars (np.float64(1.0))
    {"complex": [re, im]}   {"tuple": [...]}   {"dict": [[key, value], ...]}
    {"opaque": type name}   (arguments only: a callable, a random generator)

plus JSON's own null, booleans, numbers, strings and lists.
"""

import base64
import json
import math

import numpy as np

# Kinds of numpy data a checker may receive: booleans, integers, floats,
# complex numbers and fixed-width text; never objects.
ALLOWED_KINDS = "biufcU"
MAX_DEPTH = 20
MAX_ITEMS = 50_000_000  # elements in one array: 400 MB of float64


class Unsupported(TypeError):
    """A value that cannot be sent as plain data (and the reason)."""


def encode(value, lenient=False, _depth=0):
    """JSON-able data for ``value``; raise Unsupported for other objects.

    With ``lenient`` (for the arguments a test passes to a student's
    function), an object that is not data becomes ``{"opaque": type name}``
    instead: functions and random generators are compared by type only.
    """
    if _depth > MAX_DEPTH:
        raise Unsupported("nested too deeply")
    kind = type(value)
    if value is None or kind in (bool, str):
        return value
    if kind is int:
        return value if abs(value) < 2**63 else float(value)
    if kind is float:
        return value if math.isfinite(value) else {"scalar": _scalar(value)}
    if kind is complex:
        return {"complex": [encode(value.real), encode(value.imag)]}
    if isinstance(value, np.generic) and value.dtype.kind in ALLOWED_KINDS:
        return {"scalar": _scalar(value)}
    if isinstance(value, np.ndarray) and value.dtype.kind in ALLOWED_KINDS:
        array = np.ascontiguousarray(np.asarray(value).view(np.ndarray))
        return {
            "array": [
                array.dtype.str,
                list(array.shape),
                base64.b64encode(array.tobytes()).decode("ascii"),
            ]
        }
    if kind in (tuple, list):
        items = [encode(v, lenient, _depth + 1) for v in value]
        return {"tuple": items} if kind is tuple else items
    if kind is dict and all(type(k) is str for k in value):
        return {
            "dict": [
                [k, encode(v, lenient, _depth + 1)] for k, v in value.items()
            ]
        }
    if lenient:
        return {"opaque": _type_name(value)}
    if value is Ellipsis:
        raise Unsupported("`...`: not answered yet")
    raise Unsupported(f"a {_type_name(value)}, not numbers or arrays")


def _scalar(value):
    scalar = np.asarray(value)
    return [
        scalar.dtype.str,
        base64.b64encode(scalar.tobytes()).decode("ascii"),
    ]


def _type_name(value):
    kind = type(value)
    module = kind.__module__
    return (
        kind.__qualname__
        if module == "builtins"
        else f"{module}.{kind.__qualname__}"
    )


def dumps(message):
    """One line of JSON (NaN and infinities are tagged: the JSON is strict)."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False)


def loads(line):
    """Parse one line of JSON from a sandbox; reject NaN literals."""
    return json.loads(line, parse_constant=_reject_constant)


def _reject_constant(name):
    raise ValueError(f"not strict JSON: {name}")


class Opaque:
    """An argument that is not data, known only by its type's name."""

    def __init__(self, type_name):
        self.type_name = type_name

    def __repr__(self):
        return f"<{self.type_name}>"


def decode(data, _depth=0):
    """Rebuild numbers, strings, arrays, tuples, lists and dicts from JSON.

    Raises ValueError for anything else: the data come from an untrusted
    process, so every tag, dtype and size is checked.
    """
    if _depth > MAX_DEPTH:
        raise ValueError("nested too deeply")
    if data is None or type(data) in (bool, int, float, str):
        return data
    if type(data) is list:
        return [decode(v, _depth + 1) for v in data]
    if type(data) is not dict or len(data) != 1:
        raise ValueError("unknown encoded value")
    ((tag, body),) = data.items()
    if tag == "array":
        dtype_name, shape, payload = _fields(body, 3)
        return _array(dtype_name, shape, payload)
    if tag == "scalar":
        dtype_name, payload = _fields(body, 2)
        return _array(dtype_name, [], payload)[()]
    if tag == "complex":
        real, imag = (decode(v, _depth + 1) for v in _fields(body, 2))
        if not all(
            type(v) in (int, float) or isinstance(v, np.floating)
            for v in (real, imag)
        ):
            raise ValueError("bad complex number")
        return complex(real, imag)
    if tag == "tuple" and type(body) is list:
        return tuple(decode(v, _depth + 1) for v in body)
    if tag == "dict" and type(body) is list:
        items = [_fields(pair, 2) for pair in body]
        if not all(type(k) is str for k, _ in items):
            raise ValueError("dictionary keys must be strings")
        return {k: decode(v, _depth + 1) for k, v in items}
    if tag == "opaque" and type(body) is str:
        return Opaque(body[:200])
    raise ValueError(f"unknown encoded value {tag!r}")


def _fields(body, count):
    if type(body) is not list or len(body) != count:
        raise ValueError("malformed encoded value")
    return body


def _array(dtype_name, shape, payload):
    if type(dtype_name) is not str or type(payload) is not str:
        raise ValueError("malformed array")
    dtype = np.dtype(dtype_name)
    if dtype.kind not in ALLOWED_KINDS or dtype.hasobject or dtype.names:
        raise ValueError(f"arrays of {dtype} are not data")
    if type(shape) is not list or not all(
        type(n) is int and 0 <= n <= MAX_ITEMS for n in shape
    ):
        raise ValueError("bad array shape")
    size = math.prod(shape)
    raw = base64.b64decode(payload, validate=True)
    if size > MAX_ITEMS or len(raw) != size * dtype.itemsize:
        raise ValueError("array data do not match its shape")
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()


def same(a, b):
    """Whether two decoded argument lists agree (arrays to rounding error)."""
    if isinstance(a, Opaque) or isinstance(b, Opaque):
        return (
            isinstance(a, Opaque)
            and isinstance(b, Opaque)
            and a.type_name == b.type_name
        )
    if isinstance(a, (np.ndarray, np.generic)) or isinstance(
        b, (np.ndarray, np.generic)
    ):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape or (a.dtype.kind == "U") != (
            b.dtype.kind == "U"
        ):
            return False
        if a.dtype.kind in "biufc" and b.dtype.kind in "biufc":
            return bool(
                np.allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True)
            )
        return bool(np.array_equal(a, b))
    if type(a) is not type(b):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) or (
            math.isnan(a) and math.isnan(b)
        )
    return a == b
