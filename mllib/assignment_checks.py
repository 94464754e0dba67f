"""A failed public test of an assignment, shown as one sentence.

otter runs an assignment's public tests as doctests, and shows a failed one
as doctest's whole transcript: every statement tried, then a traceback
through ``doctest.py``. ``readable_checks()``, which the assignments' setup
cell calls, makes ``grader.check`` and ``grader.check_all`` show instead,
for each failed test, the sentence its assertion states (what it checked
and what it found), or which of the student's functions raised what. The
grader's feedback says the same (``assignments/grading/checker.py``). The
export cell does not run the tests: otter prints, rather than displays,
what they find, as doctest's transcript (``assignments/build.py`` refuses
an export cell that runs them).
"""

import ast
import html
import re

_FRAME = re.compile(r'^  File "(?P<file>[^"]*)", line \d+, in (?P<name>.+)$')
# Code a student ran in a notebook cell: ipykernel names a cell's code after
# a file in its temporary folder, plain IPython and Colab "<ipython-input-…>".
_CELL = re.compile(r"ipykernel_\d+[/\\]|^<ipython-input-")
_TRACEBACK = "Traceback (most recent call last):"
_LONGEST = 300  # characters of an exception's message, as the grader keeps
_HEADINGS = {
    "Failed example:",
    "Exception raised:",
    "Expected:",
    "Expected nothing",
    "Got:",
    "Got nothing",
}


def failure_sentence(transcript):
    """The sentence for a failed doctest, from its transcript.

    The first failure counts (later statements may fail only because of
    it): a failed assertion's message; else which of the student's
    functions (the outermost notebook frame below the test) raised which
    exception; else which statement of the test raised it."""
    lines = transcript.splitlines()
    starts = [i for i, line in enumerate(lines) if line == "Failed example:"]
    if not starts:
        return "the test failed without saying why"
    # doctest's report: each heading, then its text indented by 4 spaces.
    sections, name = {}, None
    for line in lines[starts[0] :]:
        if line in _HEADINGS:
            name = line
            sections[name] = []
        elif name and (line.startswith("    ") or not line):
            sections[name].append(line[4:])
        else:  # the next example ("Trying:") or failure ("*****")
            break
    statement = _check((sections["Failed example:"] or [""])[0])
    if "Exception raised:" in sections:
        return _exception_sentence(sections["Exception raised:"], statement)
    got = " ".join(" ".join(sections.get("Got:", [])).split())
    return f"`{statement}` printed {got[:_LONGEST]!r}, where nothing was due"


def _check(line):
    """A statement of the test as the student should read it: an assertion
    without its message (which says what it found only when it fails)."""
    try:
        (node,) = ast.parse(line.strip()).body
    except (SyntaxError, ValueError):  # the first line of a loop, say
        return line.strip()
    if isinstance(node, ast.Assert):
        node = ast.Assert(test=node.test)
    return ast.unparse(node)


def _exception_sentence(traceback, statement):
    starts = [i for i, line in enumerate(traceback) if line == _TRACEBACK]
    last = starts[-1] if starts else -1  # the last of chained exceptions
    frames, exception = [], []
    for line in traceback[last + 1 :]:
        frame = _FRAME.match(line)
        if exception or (line and not line.startswith(" ")):
            exception.append(line)
        elif frame:
            frames.append((frame["file"], frame["name"]))
    kind, _, text = " ".join(exception).partition(":")
    kind = kind.strip().rsplit(".", 1)[-1]
    text = " ".join(text.split())[:_LONGEST]
    # Below the test's own frame ("<doctest …>"), the outermost frame of
    # notebook code is the student's function that the test called.
    tested = [
        i for i, (file, _) in enumerate(frames) if file[:8] == "<doctest"
    ]
    below = frames[tested[0] + 1 :] if tested else frames
    who = next((name for file, name in below if _CELL.search(file)), None)
    if who is None:
        if kind == "AssertionError":  # the test's own assertion
            return text or f"`{statement}` failed"
        who = f"`{statement}`"
    return f"{who} raised {kind}: {text}" if text else f"{who} raised {kind}"


def _cases(test_file):
    """(name, sentence or None when passed) for each test case run."""
    return [
        (r.test_case.name, None if r.passed else failure_sentence(r.message))
        for r in test_file.test_case_results
    ]


def check_summary(test_file):
    """Plain text for otter's result of ``grader.check``."""
    if test_file.passed_all:
        return test_file.summary()
    lines = [f"{test_file.name} results:"]
    for name, sentence in _cases(test_file):
        verdict = "passed" if sentence is None else f"failed: {sentence}"
        lines.append(f"    {name}: {verdict}")
    return "\n".join(lines)


def check_html(test_file):
    """HTML for otter's result of ``grader.check``."""
    if test_file.passed_all:
        return test_file._repr_html_()
    items = "".join(
        f"<li><code>{html.escape(name)}</code> "
        + ("✅ passed" if why is None else f"❌ {html.escape(why)}")
        + "</li>"
        for name, why in _cases(test_file)
    )
    title = html.escape(test_file.name)
    return (
        f"<p><strong style='color: red;'><code>{title}</code> results:"
        f"</strong></p><ul>{items}</ul>"
    )


def results_summary(results):
    """Plain text for otter's result of ``grader.check_all``."""
    if results.has_catastrophic_failure():
        return results.summary()
    return "\n\n".join(check_summary(f) for f in results.results.values())


def readable_checks():
    """Show otter's check results as sentences in this IPython session.

    Registers display formatters for otter's result types by name, so
    nothing of otter is imported here (the grader's sandbox has only a
    stand-in for it); outside IPython this does nothing."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None:
        return
    formatters = shell.display_formatter.formatters
    results = "otter.test_files.abstract_test", "TestFile"
    formatters["text/html"].for_type_by_name(*results, check_html)
    formatters["text/plain"].for_type_by_name(
        *results, lambda obj, p, cycle: p.text(check_summary(obj))
    )
    formatters["text/plain"].for_type_by_name(
        "otter.test_files",
        "GradingResults",
        lambda obj, p, cycle: p.text(results_summary(obj)),
    )
