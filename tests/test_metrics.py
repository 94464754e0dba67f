import numpy as np
import pytest
from sklearn import metrics as sk

from mllib.metrics import accuracy_score, mean_squared_error, r2_score


def test_r2_matches_sklearn_including_negative_values(rng):
    y = rng.normal(size=30)
    for pred in (
        y + 0.1 * rng.normal(size=30),
        rng.normal(size=30) * 3,
        np.full(30, y.mean()),
    ):
        assert r2_score(y, pred) == pytest.approx(
            sk.r2_score(y, pred), abs=1e-12
        )
    assert r2_score(y, -y) < 0


def test_r2_constant_target_follows_sklearn():
    assert (
        r2_score([2.0, 2.0], [2.0, 2.0])
        == sk.r2_score([2.0, 2.0], [2.0, 2.0])
        == 1.0
    )
    assert (
        r2_score([2.0, 2.0], [1.0, 2.0])
        == sk.r2_score([2.0, 2.0], [1.0, 2.0])
        == 0.0
    )


def test_accuracy_matches_sklearn_on_strings(rng):
    y = rng.choice(["a", "b", "c"], size=50)
    pred = rng.choice(["a", "b", "c"], size=50)
    assert accuracy_score(y, pred) == pytest.approx(sk.accuracy_score(y, pred))


def test_mean_squared_error_matches_sklearn(rng):
    y, pred = rng.normal(size=40), rng.normal(size=40)
    assert mean_squared_error(y, pred) == pytest.approx(
        sk.mean_squared_error(y, pred), rel=1e-14
    )
    assert mean_squared_error([1.0, 2.0], [1.0, 4.0]) == 2.0
    with pytest.raises(ValueError, match="finite"):
        mean_squared_error([1.0, np.nan], [1.0, 2.0])


@pytest.mark.parametrize(
    "metric", [r2_score, accuracy_score, mean_squared_error]
)
def test_metrics_reject_mismatched_and_empty_inputs(metric):
    with pytest.raises(ValueError, match="different lengths"):
        metric([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="empty"):
        metric([], [])
    with pytest.raises(ValueError, match="1-D"):
        metric(np.ones((2, 2)), np.ones((2, 2)))
