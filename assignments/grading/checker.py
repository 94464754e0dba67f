"""The clean side: run every test here, with the student's code kept away.

No student code ever runs in this process. The checker executes the master's
own code (``reference_cells``: data, imports, the solutions) once, then runs
each test's code in a fresh copy of that namespace in which the student's
answers are replaced: a variable by the value the sandbox reported after the
notebook ran, a function by a ``Remote`` that sends the function's name and
its arguments (plain data) to the sandbox and returns what came back (plain
data). The tests' assertions, numpy, mllib and every reference value are
this process's own, and none of them is ever sent to the sandbox: whatever a
notebook patches, it can only change its own answers.

The public tests run first; their messages may reach the student. Then the
hidden tests run: from then on nothing the sandbox does reaches the student
but each hidden test's pass or fail. The sandbox sees the arguments of the
hidden calls (the inputs a test gives the student's functions), and the
order of the calls; assertions never stop a test here (a failed one is
recorded and the test goes on), so the calls it sees do not tell it which
assertion failed.
"""

import ast
import builtins
import copy
import sys
import types

import numpy as np

from grading import codec
from grading.autograder import all_answers
from grading.sandbox import SessionEnded

HIDDEN_STOPPED = (
    "the notebook's process stopped answering during the hidden tests"
)


class AnswerError(Exception):
    """A test failed because of how the student's answer behaved."""


class _Lost(BaseException):
    """The sandbox ended during a test (BaseException: a test's own
    `except Exception` does not catch it)."""

    def __init__(self, ended):
        super().__init__(ended.reason)
        self.ended = ended


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


def _raised(name, kind, message):
    """The exception a student's function raised, rebuilt here (a builtin
    type where there is one, so a test's own `except` catches it), and
    marked with the function's name for the test's message."""
    cls = _RAISABLE.get(kind)
    try:
        error = cls(message) if cls else AnswerError(message)
    except Exception:
        error = AnswerError(message)
    error.answer, error.kind = name, kind
    return error


class Remote:
    """Stands for a student's function: each call is made in the sandbox."""

    def __init__(self, name, session, names, cell_timeout):
        self.name, self.session = name, session
        self.names, self.cell_timeout = names, cell_timeout

    def __call__(self, *args, **kwargs):
        try:
            reply = self.session.call(self.name, args, kwargs, self.names)
        except codec.Unsupported as error:
            raise AnswerError(
                f"this test passes {self.name} an argument that is not data "
                f"({error}): the master must pass numbers, arrays or a name "
                "the notebook defines"
            ) from None
        except SessionEnded as ended:
            raise _Lost(ended) from None
        if reply[0] == "returned":
            return reply[1]
        if reply[0] == "raised":
            raise _raised(self.name, reply[1], reply[2])
        if reply[0] == "timeout":
            raise TimeoutError(
                f"{self.name} did not return within {self.cell_timeout:g} s"
            )
        raise AnswerError(f"{self.name} returned {reply[1]}")


class _Checks(ast.NodeTransformer):
    """`assert test, message` -> `if not test: __failed__(lambda: message,
    line)`: a failed assertion is recorded and the test goes on, so what
    the test does next never depends on whether it held."""

    def visit_Assert(self, node):
        message = node.msg or ast.Constant(None)
        call = ast.Call(
            func=ast.Name("__failed__", ast.Load()),
            args=[
                ast.Lambda(
                    args=ast.arguments(
                        posonlyargs=[], args=[], kwonlyargs=[],
                        kw_defaults=[], defaults=[],
                    ),
                    body=message,
                ),
                ast.Constant(node.lineno),
            ],
            keywords=[],
        )  # fmt: skip
        check = ast.If(
            test=ast.UnaryOp(ast.Not(), node.test),
            body=[ast.Expr(call)],
            orelse=[],
        )
        return ast.copy_location(check, node)


def compile_test(code):
    tree = _Checks().visit(ast.parse(code))
    return compile(ast.fix_missing_locations(tree), "<test>", "exec")


def _names(code):
    return {n.id for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Name)}


def _statement(code, number):
    """The test's statement at line ``number``, on one line as otter's copy
    in the student notebook shows it (the first line of a loop)."""
    for node in ast.parse(code).body:
        if node.lineno <= (number or 0) <= node.end_lineno:
            if isinstance(node, ast.Assert):  # the check, not its message
                node = ast.Assert(test=node.test)
            return ast.unparse(node).splitlines()[0]
    return ""


def _failing_statement(code, error):
    tb = error.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<test>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return _statement(code, line)


def stopped(code, error):
    """One sentence for a test that an exception ended: which of the
    student's functions raised what, or at which statement of the test.
    The student notebook's checks say the same (mllib.assignment_checks)."""
    if isinstance(error, (AnswerError, TimeoutError)) and not hasattr(
        error, "kind"
    ):
        return str(error)  # already a sentence about the answer
    kind = getattr(error, "kind", type(error).__name__)
    text = " ".join(str(error).split())[:300]
    who = getattr(error, "answer", None)
    if who is None:
        who = f"`{_failing_statement(code, error)}`"
    return f"{who} raised {kind}: {text}" if text else f"{who} raised {kind}"


def _data_names(scope):
    """id -> name for the objects of a test's namespace that are not data
    (a fitted estimator, say): a test may pass one to a student's function,
    which then receives the notebook's own object of that name."""
    found = {}
    for name, value in scope.items():
        if name.startswith("__") or isinstance(
            value, (types.ModuleType, type, int, float, str, bool)
        ):
            continue
        found.setdefault(id(value), name)
    return found


class Checker:
    """Runs an autograder's tests against one session."""

    def __init__(self, autograder, namespace, cell_timeout):
        self.autograder, self.namespace = autograder, namespace
        self.cell_timeout = cell_timeout
        self.answers = all_answers(autograder)
        self.tests = [
            dict(test, question=question["name"])
            for question in autograder["questions"]
            for test in question["tests"]
        ]
        self.compiled = {t["id"]: compile_test(t["code"]) for t in self.tests}

    def run(self, session, reported, hidden):
        """Results of the public (``hidden=False``) or hidden tests, in
        order; and the SessionEnded that stopped them, if one did."""
        reported = reported if type(reported) is dict else {}
        results, ended = [], None
        for test in self.tests:
            if test["hidden"] != hidden:
                continue
            if ended is not None:
                passed, message = (
                    False,
                    "not run: " + (HIDDEN_STOPPED if hidden else ended.reason),
                )
            else:
                try:
                    passed, message = self._run(test, session, reported)
                except _Lost as lost:
                    ended = lost.ended
                    passed, message = (
                        False,
                        (HIDDEN_STOPPED if hidden else ended.reason),
                    )
            results.append(
                {
                    "id": test["id"],
                    "question": test["question"],
                    "hidden": test["hidden"],
                    "points": test["points"],
                    "passed": passed,
                    "message": message,
                }
            )
        return results, ended

    def _run(self, test, session, reported):
        needed = [n for n in self.answers if n in _names(test["code"])]
        scope = _fresh(self.namespace)
        names = _data_names(scope)
        for name in needed:
            info = reported.get(name)
            info = info if type(info) is dict else {}
            if "function" in info:
                scope[name] = Remote(name, session, names, self.cell_timeout)
            elif "value" in info:
                try:
                    scope[name] = codec.decode(info["value"])
                except ValueError:
                    return False, f"the value of {name} could not be read"
            elif "unsupported" in info:
                return False, f"{name} is {str(info['unsupported'])[:200]}"
            else:
                return False, f"{name} is not defined in the notebook"
        for name in needed:  # a test may pass one answer to another
            if isinstance(scope[name], Remote):
                names[id(scope[name])] = name
        failures = []

        def failed(message, line):
            """The first failed assertion's message, evaluated at once (as
            in the student notebook: a loop's variables have their values
            of that turn); later failures add nothing."""
            if failures:
                return
            try:
                text = message()
            except _Lost:
                raise
            except Exception as error:
                text = f"{type(error).__name__} in the test's message"
            if text is None:
                text = f"`{_statement(test['code'], line)}` failed"
            failures.append(str(text))

        scope["__failed__"] = failed
        try:
            exec(self.compiled[test["id"]], scope)
        except _Lost:
            raise
        except Exception as error:
            failures.append(stopped(test["code"], error))
        if not failures:
            return True, ""
        return False, failures[0]
