"""How `python -m pytest` shares the work between its xdist workers.

pyproject.toml runs the suite with ``-n auto --dist loadscope
--no-loadscope-reorder``, and the scheduler below replaces xdist's notion of
a scope: every test is a unit of its own that goes to whichever worker is
free next, except the tests that must stay together, in order, on one
worker:

- the cells of one notebook (nbval runs them top to bottom in one kernel);
- the tests of a module whose module-scoped fixtures do minutes of work once
  (grading the hostile batches, building and grading every assignment, a
  JupyterLab session), so that no second worker repeats that work; a test
  class in such a module is a unit of its own (test_jupyterlab.py runs half
  of the chapters in each of two classes);
- the tests of one website page, which share one visit of the page.

(xdist's own ``--dist loadgroup`` would say the same with marks, but with
pytest 9.2 it silently stops grouping: pytest-dev/pytest-xdist#1386.)

The queue is ordered longest first, the usual rule for sharing jobs between
machines (a long unit that started last would leave the other worker idle
while it finished): the units of `LONG_UNITS`, then the notebooks, then the
short unit tests. The book is built in the background from the start of the run
(tests/conftest.py), beside all of that, so the tests that read the website
come last: by then it is built, or there is nothing else left to do.

This file sits at the root so that it also applies when only notebooks are
run (``python -m pytest chapters/05-perceptron-online.ipynb``).
"""

import re

import pytest
from xdist.scheduler import LoadScopeScheduling

# Modules whose module-scoped fixtures must run once, on one worker (a test
# class in them is a unit of its own: its fixtures are class-scoped).
WHOLE_MODULES = (
    "tests/test_jupyterlab.py",
    "tests/test_grading.py",
    "tests/test_assignments.py",
)
# The units that take minutes, queued first, in this order. The two halves of
# JupyterLab's every-quiz check are apart: each runs beside the grading,
# which mostly waits out hung submissions, or beside the assignments, never
# beside the other half. Two browsers, two JupyterLabs and their kernels at
# once, with the book building, crowd two cores: the run took 2452 s that
# way, against 2079 s with all of JupyterLab on one worker beside the rest
# (benchmarks/TEST_SUITE.md).
LONG_UNITS = (
    "tests/test_jupyterlab.py::TestQuizzesDrawInEvenChapters",
    "tests/test_grading.py",
    "tests/test_assignments.py",
    "tests/test_jupyterlab.py::TestQuizzesDrawInOddChapters",
    "tests/test_jupyterlab.py",
)
# pytest-timeout's limit for a test of a `LONG_UNITS` unit, whose first test
# also sets up the unit's minutes of shared work (about 16 min for a half of
# the quizzes on a quiet machine); every other test has pyproject.toml's.
LONG_UNIT_TIMEOUT_S = 3000
# The module whose tests share one visit of a page (its `page` parameter).
PAGE_MODULE = "tests/test_website.py"
# Fixtures that need the built book: such tests wait for the background
# build, so they are queued last.
BOOK_FIXTURES = {"site", "server", "visit"}
THEME_SUFFIX = re.compile(r"-(light|dark)$")


def unit_of(nodeid):
    """The unit of work a test belongs to, from its node id alone (the
    controller, which schedules, sees only ids)."""
    module, *inside = nodeid.split("::")
    if module in WHOLE_MODULES and inside and inside[0].startswith("Test"):
        return f"{module}::{inside[0]}"  # a class: its fixtures are its own
    if module.endswith(".ipynb") or module in WHOLE_MODULES:
        return module
    if module == PAGE_MODULE and nodeid.endswith("]"):
        parameters = nodeid[nodeid.index("[") + 1 : -1]
        page = THEME_SUFFIX.sub("", parameters).rsplit("/", 1)[-1]
        return f"{module}::{page}"
    return nodeid


def rank_of(item):
    """Where a test's unit goes in the queue: lower is earlier."""
    unit = unit_of(item.nodeid)
    if unit in LONG_UNITS:
        return LONG_UNITS.index(unit)
    if item.path.suffix == ".ipynb":
        return len(LONG_UNITS)
    if BOOK_FIXTURES & set(getattr(item, "fixturenames", ())):
        return len(LONG_UNITS) + 2
    return len(LONG_UNITS) + 1


class UnitScheduling(LoadScopeScheduling):
    """xdist's load-by-scope scheduling, with the units of `unit_of`."""

    def _split_scope(self, nodeid):
        return unit_of(nodeid)


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which would answer
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "loadscope":
        return UnitScheduling(config, log)
    return None


def pytest_collection_modifyitems(config, items):
    """Queue the units longest first; a unit's tests stay together and in
    their order, with or without xdist."""
    order, first = {}, {}
    timeouts = config.pluginmanager.hasplugin("timeout")
    for index, item in enumerate(items):
        unit = first.setdefault(unit_of(item.nodeid), index)
        order[item.nodeid] = (rank_of(item), unit, index)
        if timeouts and unit_of(item.nodeid) in LONG_UNITS:
            item.add_marker(pytest.mark.timeout(LONG_UNIT_TIMEOUT_S))
    items.sort(key=lambda item: order[item.nodeid])
