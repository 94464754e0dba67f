"""MAE, MSE and RMSE against scikit-learn."""

import numpy as np
import pytest
from sklearn import metrics as sk

from mllib.metrics import (
    mean_absolute_error,
    mean_squared_error,
    r2_score,
    root_mean_squared_error,
)

METRICS = [
    (mean_absolute_error, sk.mean_absolute_error),
    (mean_squared_error, sk.mean_squared_error),
    (root_mean_squared_error, sk.root_mean_squared_error),
]


@pytest.mark.parametrize(
    "ours, theirs", METRICS, ids=lambda f: getattr(f, "__name__", "")
)
def test_regression_metrics_match_sklearn(rng, ours, theirs):
    y = rng.normal(size=40)
    for pred in (y + 0.1 * rng.normal(size=40), 5 * rng.normal(size=40), y):
        assert ours(y, pred) == pytest.approx(
            theirs(y, pred), rel=1e-12, abs=1e-15
        )
    assert ours([1, 2, 3], [1, 2, 3]) == 0.0


def test_metrics_relations(rng):
    y, pred = rng.normal(size=50), rng.normal(size=50)
    mse = mean_squared_error(y, pred)
    assert root_mean_squared_error(y, pred) == pytest.approx(np.sqrt(mse))
    assert r2_score(y, pred) == pytest.approx(1 - mse / np.var(y))
    # RMSE ≥ MAE (Jensen / Cauchy–Schwarz), with equality for equal-sized errors
    assert root_mean_squared_error(y, pred) >= mean_absolute_error(y, pred)
    assert (
        root_mean_squared_error([0, 0], [1, -1])
        == mean_absolute_error([0, 0], [1, -1])
        == 1.0
    )


@pytest.mark.parametrize("metric", [m for m, _ in METRICS])
def test_regression_metrics_reject_bad_input(metric):
    with pytest.raises(ValueError, match="different lengths"):
        metric([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="finite"):
        metric([1.0, np.nan], [1.0, 2.0])
    with pytest.raises(ValueError, match="1-D"):
        metric(np.ones((2, 2)), np.ones((2, 2)))


def test_weighted_r2_matches_sklearn_and_repeated_rows(rng):
    y = rng.normal(size=30)
    pred = y + rng.normal(scale=0.5, size=30)
    counts = rng.integers(0, 4, size=30)
    weighted = r2_score(y, pred, sample_weight=counts)
    assert weighted == pytest.approx(
        sk.r2_score(y, pred, sample_weight=counts), rel=1e-12
    )
    assert weighted == pytest.approx(
        r2_score(np.repeat(y, counts), np.repeat(pred, counts)), rel=1e-12
    )
    assert weighted != pytest.approx(r2_score(y, pred), rel=1e-3)
    with pytest.raises(ValueError, match="non-negative"):
        r2_score(y, pred, sample_weight=-np.ones(30))
