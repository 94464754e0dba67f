"""The process inside a submission's sandbox: run the notebook, report answers.

    python -m grading.harness      (started by grading.sandbox, never by hand)

Everything here runs next to the student's code and is treated as
compromised: the student's code can rewrite any of it. The harness therefore
decides nothing. It runs the notebook's code cells, then calls the student's
functions from the tests' code and reports, as plain data (grading.codec),
what they returned; a clean process replays those values into the tests and
decides (grading.checker).

The conversation is one JSON object per line on stdin and stdout:

    <- {"cells": [[index, source], ...], "answers": [names],
        "cell_timeout": seconds, "max_processes": n or null}
    -> {"cell": index}  before each cell;  -> {"cells_done": {...}}
    <- {"tests": [[id, code], ...]}   (public tests, then hidden ones)
    -> {"test": [id, [calls...]]}  per test;  -> {"phase_done": {...}}

The grader sends the hidden tests only after it has read every public result,
so no public feedback can carry them out.
"""

import ast
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
    """A cell or test ran past its time (BaseException: `except Exception`
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
# Hints for the `flags` column, gathered while student code runs. The
# student's code can tamper with them too; the checker's static scan of the
# notebook's source does not depend on them, and no score does.

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


def _own_folders():
    """The folders the student's code may use: its work folder and home."""
    return (os.environ.get("GRADING_WORKDIR", "/tmp/work"), os.environ["HOME"])


def _audit(event, args):
    if not _watching or len(_events) >= MAX_EVENTS:
        return
    try:
        _classify(event, args)
    except Exception:  # noqa: S110  (never break the audited operation)
        pass


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


# ------------------------------------------------------------------- tests --


class _Recorder:
    """Calls a student's function and records its arguments and result."""

    def __init__(self, name, function, calls):
        self.name, self.function, self.calls = name, function, calls

    def __call__(self, *args, **kwargs):
        record = {"name": self.name}
        try:
            record["args"] = codec.encode([list(args), kwargs], lenient=True)
        except codec.Unsupported as error:
            record["args"] = {"opaque": str(error)}
        self.calls.append(record)
        try:
            result = self.function(*args, **kwargs)
        except Timeout:
            record["timeout"] = True
            raise
        except BaseException as error:
            record["raised"] = [type(error).__name__, str(error)[:500]]
            raise
        try:
            record["result"] = codec.encode(result)
        except codec.Unsupported as error:
            record["unsupported"] = str(error)
        except BaseException:  # a hostile __array__ or the like
            record["unsupported"] = "a value that could not be read"
        return result


class _NeutraliseAsserts(ast.NodeTransformer):
    """`assert test, msg` -> evaluate `test` (its calls get recorded) and go
    on: the decision is the checker's, not this process's."""

    def visit_Assert(self, node):
        guarded = ast.Try(
            body=[ast.Expr(node.test)],
            handlers=[
                ast.ExceptHandler(
                    type=ast.Name("Exception", ast.Load()),
                    name=None,
                    body=[ast.Pass()],
                )
            ],
            orelse=[],
            finalbody=[],
        )
        return ast.copy_location(guarded, node)


def _probe(code):
    tree = _NeutraliseAsserts().visit(ast.parse(code))
    return compile(ast.fix_missing_locations(tree), "<test>", "exec")


def run_test(namespace, answers, code, seconds):
    calls = []
    scope = dict(namespace)
    for name in answers:
        if callable(scope.get(name)):
            scope[name] = _Recorder(name, scope[name], calls)
    try:
        compiled = _probe(code)
        run_with_timeout(lambda: exec(compiled, scope), seconds)
    except BaseException:  # noqa: S110  (the checker sees the same failure)
        pass
    return calls


def describe_answers(namespace, answers):
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
        tests = receive()["tests"]
        for test_id, code in tests:
            _watching = True
            calls = run_test(namespace, answers, code, cell_timeout)
            _watching = False
            send({"test": [test_id, calls]})
        send(
            {
                "phase_done": {
                    "patched": _patched(originals),
                    "events": list(_events),
                }
            }
        )


if __name__ == "__main__":
    main()
