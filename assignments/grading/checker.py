"""The clean side: decide every test from what a sandbox reported.

No student code ever runs here. The checker executes the master's own code
(``reference_cells``: data, imports, the solutions) once, then runs each
test's code in a fresh copy of that namespace in which the student's answers
are replaced: a variable by the value the sandbox reported, a function by a
*replay* that, call after call, checks it receives the same inputs as in the
sandbox and returns what the student's function returned there. The tests'
assertions, numpy, mllib and every reference value are this process's own,
so patching them inside the notebook changes nothing, and a returned object
cannot pretend to equal anything: only plain data cross over.
"""

import ast
import builtins
import copy
import sys
import types

import numpy as np
from grading import codec
from grading.autograder import all_answers


class AnswerError(Exception):
    """A test failed because of how the student's answer behaved."""


class _OtterStub(types.ModuleType):
    def __init__(self):
        super().__init__("otter")
        self.Notebook = lambda *args, **kwargs: None


def reference_namespace(autograder):
    """Run the master's code (no tests) and return its global names."""
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    saved = sys.modules.get("otter")
    sys.modules["otter"] = _OtterStub()
    try:
        for source in autograder["reference_cells"]:
            exec(compile(source, "<master>", "exec"), namespace)
    finally:
        if saved is None:
            sys.modules.pop("otter", None)
        else:
            sys.modules["otter"] = saved
    return namespace


def _fresh(namespace):
    copied = {}
    for name, value in namespace.items():
        if isinstance(value, (types.ModuleType, types.FunctionType, type)):
            copied[name] = value
            continue
        try:
            copied[name] = copy.deepcopy(value)
        except Exception:  # an object that cannot be copied is shared
            copied[name] = value
    return copied


_RAISABLE = {
    name: value
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, Exception)
}
_RAISABLE["LinAlgError"] = np.linalg.LinAlgError


def _raised(name, record):
    kind, message = record
    cls = _RAISABLE.get(kind) if type(kind) is str else None
    text = str(message)[:500]
    try:
        return (
            cls(text) if cls else AnswerError(f"{name} raised {kind}: {text}")
        )
    except Exception:
        return AnswerError(f"{name} raised {kind}: {text}")


class _Replay:
    """Stands for a student's function: answers from the sandbox's record."""

    def __init__(self, name, queue, cell_timeout):
        self.name, self.queue, self.cell_timeout = name, queue, cell_timeout

    def __call__(self, *args, **kwargs):
        if not self.queue or self.queue[0].get("name") != self.name:
            raise AnswerError(
                f"{self.name} was not called here when your notebook ran the "
                "test (an earlier step failed, or the notebook changed the "
                "libraries the test uses)"
            )
        record = self.queue.pop(0)
        try:
            recorded = codec.decode(record.get("args"))
        except ValueError as error:
            raise AnswerError(f"unreadable record of {self.name}") from error
        given = codec.decode(codec.encode([list(args), kwargs], lenient=True))
        if not codec.same(recorded, given):
            raise AnswerError(
                f"{self.name} received other inputs in your notebook than in "
                "the test: does it modify its arguments in place, or does "
                "the notebook change numpy?"
            )
        if record.get("timeout"):
            raise TimeoutError(
                f"{self.name} did not return within {self.cell_timeout:g} s"
            )
        if "raised" in record:
            raise _raised(self.name, record["raised"])
        if "unsupported" in record:
            raise AnswerError(
                f"{self.name} returned {str(record['unsupported'])[:200]}"
            )
        if "result" not in record:
            raise AnswerError(f"no result recorded for {self.name}")
        try:
            return codec.decode(record["result"])
        except ValueError as error:
            raise AnswerError(f"unreadable result of {self.name}") from error


def _names(code):
    return {n.id for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Name)}


def _failing_line(code, error):
    tb = error.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<test>":
            line = tb.tb_lineno
        tb = tb.tb_next
    lines = code.splitlines()
    return lines[line - 1].strip() if line and line <= len(lines) else ""


def check(autograder, namespace, transcript, cell_timeout):
    """One result per test: id, question, hidden, points, passed, message."""
    answers = all_answers(autograder)
    reported = (transcript.cells_done or {}).get("answers")
    reported = reported if type(reported) is dict else {}
    results = []
    for question in autograder["questions"]:
        for test in question["tests"]:
            passed, message = _run_test(
                test, answers, reported, transcript, namespace, cell_timeout
            )
            results.append(
                {
                    "id": test["id"],
                    "question": question["name"],
                    "hidden": test["hidden"],
                    "points": test["points"],
                    "passed": passed,
                    "message": message,
                }
            )
    return results


def _run_test(test, answers, reported, transcript, namespace, cell_timeout):
    if transcript.cells_done is None:
        return False, "the notebook could not be run"
    needed = [n for n in answers if n in _names(test["code"])]
    scope = _fresh(namespace)
    calls = transcript.calls.get(test["id"])
    if calls is None:
        return False, "the notebook's process did not run this test"
    queue = [c for c in calls if type(c) is dict]
    for name in needed:
        info = reported.get(name)
        info = info if type(info) is dict else {}
        if "function" in info:
            scope[name] = _Replay(name, queue, cell_timeout)
        elif "value" in info:
            try:
                scope[name] = codec.decode(info["value"])
            except ValueError:
                return False, f"the value of {name} could not be read"
        elif "unsupported" in info:
            return False, f"{name} is {str(info['unsupported'])[:200]}"
        else:
            return False, f"{name} is not defined in the notebook"
    try:
        exec(compile(test["code"], "<test>", "exec"), scope)
    except AssertionError as error:
        text = str(error) or f"failed: {_failing_line(test['code'], error)}"
        return False, text
    except Exception as error:
        return False, f"{type(error).__name__}: {str(error)[:300]}"
    return True, ""
