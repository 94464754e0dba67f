"""Plain data: the only thing that crosses between the checker and a sandbox.

The checker sends a student's function its arguments, and the sandbox sends
back what the function returned, as one line of strict JSON each way. Both
sides rebuild values from JSON alone, so no object defined by a student
ever exists on the checker's side (no pickle, no ``allow_pickle``), and
every tag, dtype and size is checked on the way in.

Encoded forms (every JSON object is one of these tags)::

    {"array": [dtype, shape, base64 bytes]}   numeric, boolean or text arrays
    {"scalar": [dtype, base64 bytes]}          numpy scalars (np.float64(1.0))
    {"complex": [re, im]}   {"tuple": [...]}   {"dict": [[key, value], ...]}
    {"global": name}   (arguments only: an object that is not data, such as
                        a fitted estimator the master defines, stands for the
                        notebook's own object of that name)

plus JSON's own null, booleans, numbers, strings and lists.
"""

import base64
import binascii
import json
import math

import numpy as np

# Kinds of numpy data that may cross: booleans, integers, floats, complex
# numbers and fixed-width text; never objects, records or void.
ALLOWED_KINDS = "biufcU"
MAX_DEPTH = 20
MAX_ITEMS = 4_000_000  # elements in one array: 32 MB of float64
MAX_BYTES = 8 * MAX_ITEMS  # bytes in one array
MAX_TEXT = 100_000  # characters in one string


class Unsupported(TypeError):
    """A value that cannot be sent as plain data (and the reason)."""


def encode(value, names=None, _depth=0):
    """JSON-able data for ``value``; raise Unsupported for other objects.

    ``names`` (for arguments only) maps ``id(object)`` to the name of an
    object that is not data in the test's namespace: it travels as
    ``{"global": name}``.
    """
    if _depth > MAX_DEPTH:
        raise Unsupported("nested too deeply")
    kind = type(value)
    if value is None or kind is bool:
        return value
    if kind is str:
        if len(value) > MAX_TEXT:
            raise Unsupported(f"a string of {len(value)} characters")
        return value
    if kind is int:
        if abs(value) < 2**63:
            return value
        try:
            return float(value)
        except OverflowError:
            raise Unsupported("an integer too large for a float") from None
    if kind is float:
        return value if math.isfinite(value) else {"scalar": _scalar(value)}
    if kind is complex:
        return {"complex": [encode(value.real), encode(value.imag)]}
    if isinstance(value, np.generic) and value.dtype.kind in ALLOWED_KINDS:
        return {"scalar": _scalar(value)}
    if isinstance(value, np.ndarray) and value.dtype.kind in ALLOWED_KINDS:
        if value.size > MAX_ITEMS or value.nbytes > MAX_BYTES:
            raise Unsupported(
                f"an array of shape {value.shape}, larger than the grader "
                f"accepts ({MAX_ITEMS} numbers)"
            )
        array = np.ascontiguousarray(np.asarray(value).view(np.ndarray))
        return {
            "array": [
                array.dtype.str,
                list(array.shape),
                base64.b64encode(array.tobytes()).decode("ascii"),
            ]
        }
    if kind in (tuple, list):
        items = [encode(v, names, _depth + 1) for v in value]
        return {"tuple": items} if kind is tuple else items
    if kind is dict and all(type(k) is str for k in value):
        return {
            "dict": [
                [k, encode(v, names, _depth + 1)] for k, v in value.items()
            ]
        }
    if names is not None and id(value) in names:
        return {"global": names[id(value)]}
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
    module = getattr(kind, "__module__", "")
    name = getattr(kind, "__qualname__", "object")
    return name if module == "builtins" else f"{module}.{name}"


def dumps(message):
    """One line of JSON (NaN and infinities are tagged: the JSON is strict)."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False)


def loads(line):
    """Parse one line of JSON from the other side; reject NaN literals."""
    return json.loads(line, parse_constant=_reject_constant)


def _reject_constant(name):
    raise ValueError(f"not strict JSON: {name}")


class Global:
    """An argument that is not data: the receiver's own object ``name``."""

    def __init__(self, name):
        self.name = name


def decode(data, globals_allowed=False, _depth=0):
    """Rebuild numbers, strings, arrays, tuples, lists and dicts from JSON.

    Raises ValueError for anything else: the data come from the other side
    of the sandbox, so every tag, dtype and size is checked. ``{"global":
    name}`` becomes a ``Global`` only where ``globals_allowed`` (arguments
    received by the sandbox, never results received by the checker).
    """
    if _depth > MAX_DEPTH:
        raise ValueError("nested too deeply")
    kind = type(data)
    if data is None or kind in (bool, int, float):
        return data
    if kind is str:
        if len(data) > MAX_TEXT:
            raise ValueError("a string that is too long")
        return data
    if kind is list:
        return [decode(v, globals_allowed, _depth + 1) for v in data]
    if kind is not dict or len(data) != 1:
        raise ValueError("unknown encoded value")
    ((tag, body),) = data.items()
    if tag == "array":
        dtype_name, shape, payload = _fields(body, 3)
        return _array(dtype_name, shape, payload)
    if tag == "scalar":
        dtype_name, payload = _fields(body, 2)
        return _array(dtype_name, [], payload)[()]
    if tag == "complex":
        real, imag = (decode(v, False, _depth + 1) for v in _fields(body, 2))
        if not all(
            type(v) in (int, float) or isinstance(v, np.floating)
            for v in (real, imag)
        ):
            raise ValueError("bad complex number")
        return complex(real, imag)
    if tag == "tuple" and type(body) is list:
        return tuple(decode(v, globals_allowed, _depth + 1) for v in body)
    if tag == "dict" and type(body) is list:
        items = [_fields(pair, 2) for pair in body]
        if not all(type(k) is str for k, _ in items):
            raise ValueError("dictionary keys must be strings")
        return {k: decode(v, globals_allowed, _depth + 1) for k, v in items}
    if tag == "global" and globals_allowed and type(body) is str:
        if not body.isidentifier():
            raise ValueError("a global that is not a name")
        return Global(body)
    raise ValueError(f"unknown encoded value {str(tag)[:40]!r}")


def _fields(body, count):
    if type(body) is not list or len(body) != count:
        raise ValueError("malformed encoded value")
    return body


def _array(dtype_name, shape, payload):
    if type(dtype_name) is not str or type(payload) is not str:
        raise ValueError("malformed array")
    if len(dtype_name) > 16:
        raise ValueError("malformed dtype")
    try:
        dtype = np.dtype(dtype_name)
    except TypeError as error:
        raise ValueError("unknown dtype") from error
    if dtype.kind not in ALLOWED_KINDS or dtype.hasobject or dtype.names:
        raise ValueError(f"arrays of {dtype} are not data")
    if (
        type(shape) is not list
        or len(shape) > 32
        or not all(type(n) is int and 0 <= n <= MAX_ITEMS for n in shape)
    ):
        raise ValueError("bad array shape")
    size = math.prod(shape)
    if size > MAX_ITEMS or size * dtype.itemsize > MAX_BYTES:
        raise ValueError("an array larger than the grader accepts")
    if len(payload) > 4 * (size * dtype.itemsize + 2) // 3 + 4:
        raise ValueError("array data do not match its shape")
    try:
        raw = base64.b64decode(payload, validate=True)
    except binascii.Error as error:
        raise ValueError("array data are not base64") from error
    if len(raw) != size * dtype.itemsize:
        raise ValueError("array data do not match its shape")
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
