"""Shared fixtures: seeded random data sets of several shapes, and the built website."""

import os
import shutil
import subprocess
import sys
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
def site():
    """The built HTML: BOOK_HTML if given, else one clean build for this session."""
    given = os.environ.get("BOOK_HTML")
    if given:
        html = Path(given).resolve()
        assert (html / "index.html").is_file(), (
            f"BOOK_HTML={given} holds no built book (index.html is missing)"
        )
        return html
    out = ROOT / "_build" / "test-site"
    shutil.rmtree(out, ignore_errors=True)
    jupyter_book = Path(sys.executable).parent / "jupyter-book"
    result = subprocess.run(
        [
            str(jupyter_book),
            "build",
            str(ROOT),
            "--path-output",
            str(out),
            "-W",
            "-n",
            "--keep-going",
        ],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert result.returncode == 0, (result.stdout + result.stderr)[-5000:]
    return out / "_build" / "html"
