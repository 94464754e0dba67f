"""Shared fixtures: seeded random data sets, and the built website."""

import os
import subprocess
import sys
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

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from book_build import build_once  # noqa: E402
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


@pytest.fixture(scope="session")
def site(request):
    """The website, built from clean once per test run into _build/test-site.

    Every xdist worker that asks gets the same build (see book_build.py);
    the build is the reader's own command, with warnings as errors.
    """
    worker = getattr(request.config, "workerinput", {})
    run_id = worker.get("testrunuid") or uuid.uuid4().hex  # xdist's, or ours
    out = build_once(ROOT / "_build" / "test-site", run_id, build_book)
    return out / "_build" / "html"


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
