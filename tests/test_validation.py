import numpy as np
import pytest

from mllib.exceptions import NotFittedError
from mllib.validation import (
    check_array,
    check_classification_targets,
    check_random_state,
    check_scalar,
    check_X_y,
)


def test_check_array_converts_lists_and_ints_to_float():
    X = check_array([[1, 2], [3, 4]])
    assert X.dtype == float and X.shape == (2, 2)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_check_array_rejects_non_finite_and_says_where(bad):
    X = np.ones((4, 3))
    X[2, 1] = bad
    with pytest.raises(
        ValueError,
        match=r"NaN or infinity \(1 entries, the first at index \(2, 1\)\)",
    ):
        check_array(X)


def test_check_array_rejects_1d_with_a_reshape_hint():
    with pytest.raises(ValueError, match=r"2-D.*reshape\(-1, 1\)"):
        check_array(np.arange(5.0))


@pytest.mark.parametrize("shape", [(0, 3), (3, 0)])
def test_check_array_rejects_empty(shape):
    with pytest.raises(ValueError, match="0 (samples|features)"):
        check_array(np.zeros(shape))


def test_check_array_rejects_text():
    with pytest.raises(ValueError, match="numbers only"):
        check_array([["a", "b"]])


def test_check_array_leaves_its_input_alone():
    X = np.arange(6.0).reshape(3, 2)
    before = X.copy()
    out = check_array(X)
    np.testing.assert_array_equal(X, before)
    assert (
        out is X
    )  # already valid: no copy is made, so estimators must copy before writing


def test_check_X_y_length_mismatch():
    with pytest.raises(ValueError, match="X has 3 rows, y has 2 entries"):
        check_X_y(np.ones((3, 2)), [1, 2])


def test_check_X_y_flattens_a_column_vector_and_rejects_matrices():
    X, y = check_X_y(np.ones((3, 2)), np.ones((3, 1)))
    assert y.shape == (3,)
    with pytest.raises(ValueError, match="1-D"):
        check_X_y(np.ones((3, 2)), np.ones((3, 2)))


def test_check_X_y_rejects_nan_targets():
    with pytest.raises(ValueError, match="y contains NaN"):
        check_X_y(np.ones((2, 2)), [1.0, np.nan])


def test_check_random_state_is_reproducible_and_local():
    a = check_random_state(3).normal(size=5)
    b = check_random_state(3).normal(size=5)
    np.testing.assert_array_equal(a, b)
    g = np.random.default_rng(1)
    assert check_random_state(g) is g
    with pytest.raises(ValueError, match="random_state"):
        check_random_state("seed")


def test_check_scalar_bounds():
    assert check_scalar(2, "alpha", low=0, low_inclusive=False) == 2.0
    assert check_scalar(np.inf, "C", low=0, low_inclusive=False) == np.inf
    with pytest.raises(
        ValueError, match=r"alpha must be in \(0, inf\]; got 0"
    ):
        check_scalar(0, "alpha", low=0, low_inclusive=False)
    with pytest.raises(ValueError, match="real number"):
        check_scalar("1", "alpha")
    with pytest.raises(ValueError, match="real number"):
        check_scalar(True, "alpha")
    with pytest.raises(ValueError, match="real number"):
        check_scalar(np.nan, "alpha")


def test_check_classification_targets():
    classes, idx = check_classification_targets(np.array(["b", "a", "b"]))
    np.testing.assert_array_equal(classes[idx], ["b", "a", "b"])
    check_classification_targets(
        [0.0, 1.0, 1.0]
    )  # whole-number floats are labels
    with pytest.raises(ValueError, match="continuous"):
        check_classification_targets([0.5, 1.0])
    with pytest.raises(ValueError, match="exactly 2 classes"):
        check_classification_targets([0, 1, 2], n_classes=2)
    with pytest.raises(ValueError, match="single class"):
        check_classification_targets([1, 1, 1])


def test_not_fitted_error_is_both_value_and_attribute_error():
    assert issubclass(NotFittedError, ValueError)
    assert issubclass(NotFittedError, AttributeError)


def test_check_int_accepts_numpy_integers_and_rejects_bools_floats_and_small_values():
    from mllib.validation import check_int

    assert (
        check_int(np.int64(3), "k", low=1) == 3
        and type(check_int(np.int64(3), "k")) is int
    )
    for bad in (True, 2.0, "3", None):
        with pytest.raises(ValueError, match="k must be an integer"):
            check_int(bad, "k")
    with pytest.raises(ValueError, match="k must be at least 1; got 0"):
        check_int(0, "k", low=1)
