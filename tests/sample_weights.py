"""What every ``fit(sample_weight=...)`` test needs: integer weights with
zeros, the data set they stand for, and the weights ``fit`` must refuse."""

import numpy as np
import pytest


def integer_weights(n_samples, seed):
    """Weights in {0, 1, 2, 3}, at least two of them zero and one above 1."""
    weights = np.random.default_rng(seed).integers(0, 4, size=n_samples)
    weights[:2], weights[2] = 0, 3
    return weights


def repeated(X, y, weights):
    """Row i of ``X`` and ``y`` repeated ``weights[i]`` times: the data set
    that integer weights stand for (weight 0 drops the row)."""
    return np.repeat(X, weights, axis=0), np.repeat(y, weights)


#: {id: (weights for 5 samples, pattern of the ValueError's message)}
BAD_WEIGHTS = {
    "negative": ([1.0, -1.0, 1.0, 1.0, 1.0], "non-negative"),
    "all-zero": (np.zeros(5), "non-zero"),
    "nan": ([1.0, np.nan, 1.0, 1.0, 1.0], "NaN"),
    "infinite": ([1.0, np.inf, 1.0, 1.0, 1.0], "infinity"),
    "too-short": (np.ones(4), r"shape \(5,\)"),
    "2-d": (np.ones((5, 1)), r"shape \(5,\)"),
}


def check_bad_weights_raise(estimator, X, y=None):
    """``fit`` on the first 5 samples refuses every weight in BAD_WEIGHTS
    with a ValueError that says what is wrong, and leaves them unmodified."""
    X5 = X[:5]
    y5 = None if y is None else y[:5]
    for weights, message in BAD_WEIGHTS.values():
        original = np.array(weights, dtype=float, copy=True)
        with pytest.raises(ValueError, match=message):
            estimator.fit(X5, y5, sample_weight=weights)
        np.testing.assert_array_equal(weights, original)
