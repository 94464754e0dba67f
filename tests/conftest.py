"""Shared fixtures: seeded random data sets, the built website, and the system's
Chromium for the browser tests; the `book` marker and the `--reuse-site` option
of the contributor's inner loop (CONTRIBUTING.md, "Running the tests")."""

import os
import subprocess
import sys
import threading
import uuid
from pathlib import Path

# `pytest -n auto` runs one worker per core, and each worker's notebook kernels inherit this
# environment. BLAS threads on top of that oversubscribe the cores, and OpenBLAS's threaded
# small solves then slow down by orders of magnitude (OpenMathLib/OpenBLAS#536): one BLAS
# thread per worker. (The worker's own numpy is limited below, as it may already be loaded.)
if os.environ.get("PYTEST_XDIST_WORKER"):
    for variable in (
        "OPENBLAS_NUM_THREADS",
        "OMP_NUM_THREADS",
        "MKL_NUM_THREADS",
    ):
        os.environ.setdefault(variable, "1")

import chromium  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from book_build import (  # noqa: E402
    BookBuildError,
    build_once,
    build_succeeded,
)
from threadpoolctl import threadpool_limits  # noqa: E402

if os.environ.get("PYTEST_XDIST_WORKER"):
    threadpool_limits(limits=1)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def rng():
    return np.random.default_rng(0)


@pytest.fixture(
    params=[(50, 3), (200, 10), (30, 40)], ids=["n50d3", "n200d10", "n30d40"]
)
def regression_data(request):
    """A linear signal plus noise, in three shapes, including more features than samples."""
    n, d = request.param
    rng = np.random.default_rng(n * 1000 + d)
    X = rng.normal(size=(n, d))
    y = X @ rng.normal(size=d) + 0.5 + 0.1 * rng.normal(size=n)
    return X, y


SITE = ROOT / "_build" / "test-site"
_RUN = uuid.uuid4().hex  # without xdist: one id for this process's run
# Tests that need the built book, a browser or JupyterLab (minutes, not seconds).
BOOK_FIXTURES = {"site", "browser", "lab"}


def pytest_addoption(parser):
    parser.addoption(
        "--reuse-site",
        action="store_true",
        help="test the book an earlier run built into _build/test-site "
        "instead of building it afresh (when only tests changed)",
    )


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "book: needs the built book, a browser or JupyterLab "
        '(`-m "not book"` leaves them out while editing mllib)',
    )


def pytest_collection_modifyitems(config, items):
    """Mark the `book` tests. (Which worker runs what, and in which order,
    is conftest.py's at the root: a page's tests run together there.)"""
    for item in items:
        if BOOK_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.book)


def run_id(config):
    """xdist's id of this test run (the same in every worker), or ours."""
    return getattr(config, "workerinput", {}).get("testrunuid") or _RUN


def pytest_collection_finish(session):
    """Start building the book at once, in the background, if the tests to
    run read it: the build (minutes of notebooks executing) then overlaps
    the tests that come before the website's in the queue (conftest.py at
    the root) instead of holding up a worker. One worker starts it; the
    `site` fixture waits for it in every worker (book_build.py)."""
    config = session.config
    if config.option.collectonly or config.getoption("--reuse-site"):
        return
    if os.environ.get("PYTEST_XDIST_WORKER", "gw0") != "gw0":
        return
    if any(
        "site" in getattr(item, "fixturenames", ()) for item in session.items
    ):
        threading.Thread(
            target=_build_in_background,
            args=(run_id(config),),
            name="book build",
        ).start()


def _build_in_background(run):
    try:
        build_once(SITE, run, build_book)
    except BookBuildError:
        pass  # every test that needs the book raises it, with the build's log


@pytest.fixture(scope="session")
def site(request):
    """The website, built from clean once per test run into _build/test-site.

    Every xdist worker that asks gets the same build (see book_build.py),
    usually the one started in the background at the start of the run; the
    build is the reader's own command, with warnings as errors. With
    --reuse-site, an earlier run's successful build is tested instead.
    """
    if request.config.getoption("--reuse-site"):
        return reuse(SITE)
    out = build_once(SITE, run_id(request.config), build_book)
    return out / "_build" / "html"


def reuse(out):
    """The html folder of an earlier successful build into ``out``."""
    html = out / "_build" / "html"
    if not (build_succeeded(out) and (html / "index.html").is_file()):
        pytest.exit(
            f"--reuse-site: no successful build in {out}; run once without it",
            returncode=1,
        )
    return html


def build_book(out):
    jupyter_book = Path(sys.executable).parent / "jupyter-book"
    command = [
        str(jupyter_book),
        "build",
        ".",
        "-W",
        "-n",
        "--keep-going",
        "--path-output",
        str(out),
    ]
    try:
        result = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=3600
        )
    except subprocess.TimeoutExpired:
        return False, f"{' '.join(command)} timed out after 3600 s"
    return result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="session")
def browser():
    executable = chromium.executable()
    if not executable:
        pytest.skip(
            "no Chromium found (install Debian's `chromium` package or set CHROMIUM=/path/to/chrome)"
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip(
            "Playwright for Python is not installed (pip install -r requirements.txt)"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, args=chromium.FLAGS
        )
        yield browser
        browser.close()
