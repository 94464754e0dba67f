"""The process inside a submission's sandbox: run the notebook, answer calls.

    python -m grading.harness      (started by grading.sandbox, never by hand)

Everything here runs next to the student's code and is treated as
compromised: the student's code can rewrite any of it. The harness therefore
holds nothing worth stealing and decides nothing. It runs the notebook's
code cells, then waits: the checker, outside the sandbox, runs the tests and
sends a message each time a test calls one of the student's functions; the
harness calls it and sends back what it returned, as plain data
(grading.codec). No test's code, expected value or reference computation
ever enters the sandbox.

The conversation is one JSON object per line on stdin and stdout:

    <- {"cells": [[index, source], ...], "answers": [names],
        "cell_timeout": seconds, "max_processes": n or null}
    -> {"cell": index}  before each cell;  -> {"cells_done": {...}}
    <- {"call": [name, args, kwargs]}
    -> {"returned": value} | {"raised": [type, message]} | {"timeout": true}
       | {"unsupported": reason}
    <- {"report": true}   -> {"report": {"patched": [...], "events": [...]}}

The checker asks for the report once the public tests are done, never after
a hidden call: nothing the notebook does during the hidden tests can reach
the flags or the feedback.
"""

import os
import resource
import signal
import sys
import types

# The grader's channel is duplicated away from descriptors 0-2, which then
# point to /dev/null: prints and C-level writes by the student go nowhere.
_IN = os.fdopen(os.dup(0), "rb")
_OUT = os.fdopen(os.dup(1), "wb")
_NULL = os.open(os.devnull, os.O_RDWR)
for _fd in (0, 1, 2):
    os.dup2(_NULL, _fd)
sys.stdin = open(os.devnull)
sys.stdout = sys.stderr = open(os.devnull, "w")

# Loaded before any student code: the baseline of the check for patches.
import numpy  # noqa: E402, F401
import scipy.linalg  # noqa: E402, F401
import scipy.special  # noqa: E402, F401

from grading import codec  # noqa: E402

MAX_EVENTS = 50
WATCHED_PREFIXES = ("numpy", "scipy", "mllib", "sklearn")
WATCHED_MODULES = {"builtins", "math", "operator", "functools", "json"}


class Timeout(BaseException):
    """A cell or call ran past its time (BaseException: `except Exception`
    in the student's code does not swallow it)."""


def _on_alarm(signum, frame):
    raise Timeout


def send(message):
    _OUT.write(codec.dumps(message).encode() + b"\n")
    _OUT.flush()


def receive():
    line = _IN.readline()
    if not line:
        raise SystemExit(0)  # the grader has nothing more to ask
    return codec.loads(line)


def run_with_timeout(function, seconds):
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return function()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


# ---------------------------------------------------------------- evidence --
# Hints for the `flags` column, gathered while student code runs. Only what
# the student's own code does counts: an import or a file read that a library
# makes on its own (numpy loading ctypes, a platform module reading /proc) is
# the environment's, not the student's. The student's code can tamper with
# all of this too; the checker's static scan of the notebook's source does
# not depend on it, and no score does.

_events = []
_watching = False
_SUSPICIOUS = {
    "subprocess.Popen": "started a process",
    "os.system": "started a process",
    "os.fork": "started a process",
    "os.forkpty": "started a process",
    "os.exec": "started a process",
    "os.posix_spawn": "started a process",
    "os.spawn": "started a process",
    "os.kill": "sent a signal",
    "os.killpg": "sent a signal",
    "socket.connect": "used the network",
    "socket.bind": "used the network",
    "socket.getaddrinfo": "used the network",
    "ctypes.dlopen": "loaded native code with ctypes",
    "sys.settrace": "traced the interpreter",
    "sys.setprofile": "traced the interpreter",
    "sys.addaudithook": "installed an audit hook",
    "sys._current_frames": "inspected other threads' frames",
}
_ALLOWED_READS = ("/usr", "/etc", "/dev/null", "/dev/urandom")
# Modules through which a student's code opens, lists or imports: an event
# raised inside them is charged to whoever called them.
_PASS_THROUGH = (
    "<frozen ",
    "importlib",
    "/io.py",
    "/pathlib.py",
    "/shutil.py",
    "/os.py",
    "/glob.py",
    "/fnmatch.py",
    "/tempfile.py",
    "/codecs.py",
    "/genericpath.py",
    "/posixpath.py",
    "/subprocess.py",
    "/socket.py",
    "/ctypes/",
    "/IPython/core/interactiveshell.py",  # the `open` cells see is IPython's
)
CELL_FILES = "<ipython-input-"  # the file name IPython gives cell code


def _own_folders():
    """The folders the student's code may use: its work folder and home."""
    return (os.environ.get("GRADING_WORKDIR", "/tmp/work"), os.environ["HOME"])


def _by_student():
    """Whether the event being audited comes from the notebook's own code:
    the first frame above the audit hook that is not a pass-through module
    (importlib, io, pathlib, shutil, ...) belongs to a cell."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(CELL_FILES):
            return True
        if not any(part in name for part in _PASS_THROUGH):
            return False
        frame = frame.f_back
    return False


def _audit(event, args):
    global _watching
    if not _watching or len(_events) >= MAX_EVENTS:
        return
    _watching = False  # the hook's own events (sys._getframe) are not audited
    try:
        if _by_student():
            _classify(event, args)
    except Exception:  # noqa: S110  (never break the audited operation)
        pass
    finally:
        _watching = True


def _classify(event, args):
    if event in _SUSPICIOUS:
        _note(_SUSPICIOUS[event], "")
    elif event == "open" and isinstance(args[0], str):
        path, mode = args[0], args[1]
        writing = isinstance(mode, str) and any(c in mode for c in "wax+")
        if writing and not _inside(path, _own_folders()):
            _note("wrote", path)
        elif path.startswith("/proc/") and not _inside(
            path, ("/proc/self", f"/proc/{os.getpid()}")
        ):
            _note("read", path)
        elif not _inside(
            path, _ALLOWED_READS + _own_folders() + tuple(sys.path)
        ):
            _note("looked for", path)
    elif event in ("os.listdir", "os.scandir") and args:
        path = os.fspath(args[0]) if args[0] is not None else "."
        if isinstance(path, str) and not _inside(
            path, (*_own_folders(), *sys.path[1:])
        ):
            _note("listed", path)
    elif event in ("os.remove", "os.rename", "shutil.rmtree", "os.rmdir"):
        path = args[0]
        if isinstance(path, str) and not _inside(path, _own_folders()):
            _note("deleted or moved", path)
    elif event == "import" and args[0].split(".")[0] in (
        "otter",
        "gc",
        "ctypes",
    ):
        _note("imported", args[0])


def _inside(path, roots):
    path = os.path.normpath(os.path.join(os.getcwd(), path))
    return any(
        path == r or path.startswith(r.rstrip("/") + "/") for r in roots if r
    )


def _note(action, detail):
    event = [action, str(detail)[:200]]
    if event not in _events:
        _events.append(event)


def _snapshot():
    """The functions and classes of the libraries tests use, by identity."""
    originals = {}
    for name, module in list(sys.modules.items()):
        if module is None or not (
            name in WATCHED_MODULES or name.split(".")[0] in WATCHED_PREFIXES
        ):
            continue
        for attr, value in list(vars(module).items()):
            if callable(value) or isinstance(value, types.ModuleType):
                originals[(name, attr)] = value
    return originals


def _patched(originals):
    changed = []
    for (name, attr), value in originals.items():
        module = sys.modules.get(name)
        if module is not None and vars(module).get(attr, None) is not value:
            changed.append(f"{name}.{attr}")
    return sorted(changed)[:MAX_EVENTS]


# ------------------------------------------------------------------- otter --


class _Grader:
    """Stands in for otter.Notebook: checks and exports do nothing here, so the
    notebook's file name does not matter and otter cannot be patched."""

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def _otter_stub():
    otter = types.ModuleType("otter")
    otter.__path__ = []  # a package with no submodules: otter.* is missing
    otter.Notebook = _Grader
    return otter


# ------------------------------------------------------------------- calls --


def describe_answers(namespace, answers):
    """For each answer name: a function (called later), a value (sent now),
    missing, or a value that is not data."""
    described = {}
    for name in answers:
        if name not in namespace:
            described[name] = {"missing": True}
        elif callable(namespace[name]):
            described[name] = {"function": True}
        else:
            try:
                described[name] = {"value": codec.encode(namespace[name])}
            except codec.Unsupported as error:
                described[name] = {"unsupported": str(error)}
            except BaseException:
                described[name] = {
                    "unsupported": "a value that could not be read"
                }
    return described


def _resolve(value, namespace):
    """Arguments as decoded, with each ``Global`` replaced by the notebook's
    own object of that name."""
    if isinstance(value, codec.Global):
        if value.name not in namespace:
            raise NameError(f"the notebook defines no {value.name!r}")
        return namespace[value.name]
    if type(value) is list:
        return [_resolve(v, namespace) for v in value]
    if type(value) is tuple:
        return tuple(_resolve(v, namespace) for v in value)
    if type(value) is dict:
        return {k: _resolve(v, namespace) for k, v in value.items()}
    return value


def answer_call(namespace, answers, request, seconds):
    """Call the student's function for one ``{"call": ...}`` request and
    return the reply."""
    name, args, kwargs = request
    if name not in answers or not callable(namespace.get(name)):
        return {"raised": ["NameError", f"{name} is not a function here"]}
    try:
        args = _resolve(codec.decode(args, globals_allowed=True), namespace)
        kwargs = _resolve(
            codec.decode(kwargs, globals_allowed=True), namespace
        )
    except NameError as error:
        return {"raised": ["NameError", str(error)]}
    try:
        result = run_with_timeout(
            lambda: namespace[name](*args, **kwargs), seconds
        )
    except Timeout:
        return {"timeout": True}
    except BaseException as error:
        return {"raised": [type(error).__name__, str(error)[:2000]]}
    try:
        return {"returned": codec.encode(result)}
    except codec.Unsupported as error:
        return {"unsupported": str(error)}
    except BaseException:  # a hostile __array__ or the like
        return {"unsupported": "a value that could not be read"}


# -------------------------------------------------------------------- main --


def main():
    global _watching
    request = receive()
    cell_timeout = float(request["cell_timeout"])
    answers = list(request["answers"])
    if request["max_processes"]:
        limit = int(request["max_processes"])
        resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))
    os.makedirs("/tmp/home", exist_ok=True)
    os.chdir(os.environ.get("GRADING_WORKDIR", "/tmp/work"))

    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    import mllib  # noqa: F401  (the student's notebook imports it anyway)

    class Shell(InteractiveShell):
        def enable_gui(self, gui=None):
            """No event loop to hook: `%matplotlib inline` just works."""

    config = Config()
    config.HistoryManager.enabled = False
    shell = Shell.instance(config=config)
    sys.modules["otter"] = _otter_stub()
    signal.signal(signal.SIGALRM, _on_alarm)
    originals = _snapshot()
    sys.addaudithook(_audit)

    errors = []
    for index, source in request["cells"]:
        send({"cell": index})
        _watching = True
        try:
            result = run_with_timeout(
                lambda: shell.run_cell(
                    source, store_history=False, silent=True
                ),
                cell_timeout,
            )
            error = result.error_before_exec or result.error_in_exec
        except BaseException as raised:  # a timeout between IPython's guards
            error = raised
        finally:
            _watching = False
        if isinstance(error, Timeout):
            errors.append([index, f"stopped after {cell_timeout:g} s"])
        elif error is not None:
            errors.append(
                [index, f"{type(error).__name__}: {str(error)[:300]}"]
            )
    namespace = shell.user_ns
    send(
        {
            "cells_done": {
                "errors": errors,
                "answers": describe_answers(namespace, answers),
                "patched": _patched(originals),
                "events": list(_events),
            }
        }
    )
    while True:
        message = receive()
        if "call" in message:
            _watching = True
            try:
                reply = answer_call(
                    namespace, answers, message["call"], cell_timeout
                )
            finally:
                _watching = False
            send(reply)
        elif "report" in message:
            send(
                {
                    "report": {
                        "patched": _patched(originals),
                        "events": list(_events),
                    }
                }
            )


if __name__ == "__main__":
    main()
