"""Shared fixtures: seeded random data sets of several shapes."""

import numpy as np
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(0)


@pytest.fixture(params=[(50, 3), (200, 10), (30, 40)], ids=["n50d3", "n200d10", "n30d40"])
def regression_data(request):
    """A linear signal plus noise, in three shapes, including more features than samples."""
    n, d = request.param
    rng = np.random.default_rng(n * 1000 + d)
    X = rng.normal(size=(n, d))
    y = X @ rng.normal(size=d) + 0.5 + 0.1 * rng.normal(size=n)
    return X, y
