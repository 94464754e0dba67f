"""mllib.validation: what mllib checks beyond scikit-learn's validate_data."""

import numpy as np
import pytest
import sklearn.exceptions

from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.validation import (
    check_int,
    check_random_state,
    check_sample_weight,
    check_scalar,
    encode_classes,
)


def test_encode_classes_round_trips_any_labels():
    y = np.array(["b", "a", "b", "c"])
    classes, index = encode_classes(y)
    np.testing.assert_array_equal(classes, ["a", "b", "c"])
    np.testing.assert_array_equal(classes[index], y)
    # whole-number floats are labels, not a continuous target
    classes, _ = encode_classes(np.array([0.0, 1.0, 1.0]))
    np.testing.assert_array_equal(classes, [0.0, 1.0])


def test_encode_classes_refuses_in_scikit_learns_words():
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        encode_classes(np.array([0.5, 1.0]))
    with pytest.raises(
        ValueError, match="Only binary classification is supported"
    ):
        encode_classes(np.array([0, 1, 2]), binary_only=True)
    with pytest.raises(ValueError, match="only one class"):
        encode_classes(np.array([1, 1, 1]))


def test_encode_classes_names_the_estimator_and_may_allow_one_class():
    from mllib.svm import SVC

    with pytest.raises(ValueError, match="wrap SVC in"):
        encode_classes(np.array([0, 1, 2]), binary_only=True, estimator=SVC())
    classes, index = encode_classes(np.array([7, 7]), allow_one_class=True)
    np.testing.assert_array_equal(classes, [7])
    np.testing.assert_array_equal(index, [0, 0])


def test_check_sample_weight():
    np.testing.assert_array_equal(check_sample_weight(None, 3), np.ones(3))
    weights = [1, 0, 2]
    out = check_sample_weight(weights, 3)
    assert out.dtype == np.float64 and list(out) == [1.0, 0.0, 2.0]
    # a number is that weight for every sample, as in scikit-learn
    np.testing.assert_array_equal(check_sample_weight(2.5, 3), [2.5] * 3)
    with pytest.raises(ValueError, match="non-negative"):
        check_sample_weight(-1, 3)
    signed = check_sample_weight([1.0, -1.0, 0.0], 3, non_negative=False)
    assert list(signed) == [1.0, -1.0, 0.0]
    with pytest.raises(ValueError, match="weight.*zero"):
        check_sample_weight(np.zeros(3), 3, non_negative=False)
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        check_sample_weight(np.ones(4), 3)
    with pytest.raises(ValueError, match="non-negative"):
        check_sample_weight([1.0, -1.0, 1.0], 3)
    with pytest.raises(ValueError, match="weight.*zero"):
        check_sample_weight(np.zeros(3), 3)
    with pytest.raises(ValueError, match="NaN"):
        check_sample_weight([1.0, np.nan, 1.0], 3)


def test_check_random_state_is_reproducible_and_local():
    a = check_random_state(3).normal(size=5)
    b = check_random_state(3).normal(size=5)
    np.testing.assert_array_equal(a, b)
    g = np.random.default_rng(1)
    assert check_random_state(g) is g
    with pytest.raises(ValueError, match="random_state"):
        check_random_state("seed")


def test_none_and_random_state_follow_numpys_seeds_as_scikit_learn():
    """None draws from numpy's global RandomState and an instance from
    itself, as scikit-learn's random_state does: np.random.seed makes a
    script repeat, and two draws in a row differ."""
    saved = np.random.get_state()
    try:
        np.random.seed(0)
        first = check_random_state(None).normal(size=3)
        second = check_random_state(None).normal(size=3)
        np.random.seed(0)
        np.testing.assert_array_equal(
            check_random_state(None).normal(size=3), first
        )
    finally:
        np.random.set_state(saved)
    assert not np.array_equal(first, second)
    draws = [
        check_random_state(np.random.RandomState(5)).normal(size=3)
        for _ in range(2)
    ]
    np.testing.assert_array_equal(*draws)
    shared = np.random.RandomState(5)
    assert not np.array_equal(
        check_random_state(shared).normal(size=3),
        check_random_state(shared).normal(size=3),
    )


def test_check_scalar_bounds():
    assert check_scalar(2, "alpha", low=0, low_inclusive=False) == 2.0
    assert check_scalar(np.inf, "C", low=0, low_inclusive=False) == np.inf
    with pytest.raises(
        ValueError, match=r"alpha must be in \(0, inf\]; got 0"
    ):
        check_scalar(0, "alpha", low=0, low_inclusive=False)
    for bad in ("1", True, np.nan):  # scikit-learn's check_scalar takes
        with pytest.raises(ValueError, match="real number"):  # the last two
            check_scalar(bad, "alpha")


def test_check_int_rejects_bools_floats_and_small_values():
    assert check_int(np.int64(3), "k", low=1) == 3
    assert type(check_int(np.int64(3), "k")) is int
    for bad in (True, 2.0, "3", None):
        with pytest.raises(ValueError, match="k must be an integer"):
            check_int(bad, "k")
    with pytest.raises(ValueError, match="k must be at least 1; got 0"):
        check_int(0, "k", low=1)


def test_exceptions_are_scikit_learns():
    assert NotFittedError is sklearn.exceptions.NotFittedError
    assert ConvergenceWarning is sklearn.exceptions.ConvergenceWarning
    assert issubclass(NotFittedError, ValueError)
    assert issubclass(NotFittedError, AttributeError)
