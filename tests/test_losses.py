import numpy as np
import pytest
from scipy.special import expit

from mllib.losses import (
    absolute,
    exponential,
    hinge,
    huber,
    logistic,
    multiclass_hinge,
    squared,
    zero_one,
)
from mllib.optim import numerical_gradient

REGRESSION = [squared, absolute, huber(0.5), huber(2.0)]
CLASSIFICATION = [zero_one, hinge, logistic, exponential]
KINKS = {
    "absolute": [0.0],
    "huber(delta=0.5)": [],
    "huber(delta=2)": [],
    "hinge": [1.0],
    "0-1": [0.0],
}


@pytest.mark.parametrize(
    "loss", REGRESSION + CLASSIFICATION, ids=lambda l: l.name
)
def test_derivative_matches_central_differences_away_from_kinks(loss, rng):
    z = rng.uniform(-4, 4, size=200)
    z = (
        z[
            np.all(
                [np.abs(z - k) > 1e-3 for k in KINKS.get(loss.name, [])],
                axis=0,
            )
        ]
        if KINKS.get(loss.name)
        else z
    )
    numeric = numerical_gradient(lambda v: np.sum(loss(v)), z)
    np.testing.assert_allclose(
        loss.derivative(z), numeric, rtol=1e-6, atol=1e-6
    )


@pytest.mark.parametrize("loss", [absolute, hinge], ids=lambda l: l.name)
def test_value_at_a_kink_is_a_subgradient(loss, rng):
    """g ∈ ∂ℓ(z0) iff ℓ(z) >= ℓ(z0) + g (z - z0) for every z."""
    z0 = {"absolute": 0.0, "hinge": 1.0}[loss.name]
    g = loss.derivative(z0)
    z = rng.uniform(-5, 5, size=1000)
    assert np.all(loss(z) >= loss(z0) + g * (z - z0) - 1e-12)
    for wrong in (
        g + 1.5,
        g - 1.5,
    ):  # outside the subdifferential, the inequality fails somewhere
        assert np.any(loss(z) < loss(z0) + wrong * (z - z0))


def test_closed_forms():
    r = np.array([-3.0, -0.5, 0.0, 0.5, 3.0])
    np.testing.assert_array_equal(squared(r), r**2)
    np.testing.assert_array_equal(absolute(r), np.abs(r))
    np.testing.assert_allclose(huber(1.0)(r), [2.5, 0.125, 0.0, 0.125, 2.5])
    np.testing.assert_allclose(huber(1.0).derivative(r), [-1, -0.5, 0, 0.5, 1])
    m = np.array([-2.0, 0.0, 0.5, 1.0, 3.0])
    np.testing.assert_array_equal(zero_one(m), [1, 1, 0, 0, 0])
    np.testing.assert_array_equal(hinge(m), [3, 1, 0.5, 0, 0])
    np.testing.assert_array_equal(hinge.derivative(m), [-1, -1, -1, 0, 0])
    np.testing.assert_allclose(logistic(m), np.log(1 + np.exp(-m)))
    np.testing.assert_allclose(logistic.derivative(m), -expit(-m))
    np.testing.assert_allclose(exponential(m), np.exp(-m))


def test_huber_is_continuously_differentiable_at_delta():
    for delta in (0.3, 1.0, 4.0):
        loss = huber(delta)
        below, above = delta * (1 - 1e-9), delta * (1 + 1e-9)
        assert loss(below) == pytest.approx(loss(above), rel=1e-7)
        assert loss(above) == pytest.approx(delta**2 / 2)
        assert loss.derivative(below) == pytest.approx(
            loss.derivative(above), rel=1e-7
        )
        assert loss.derivative(above) == pytest.approx(delta)


def test_logistic_is_stable_for_large_margins():
    m = np.array([-1000.0, 1000.0])
    np.testing.assert_allclose(logistic(m), [1000.0, 0.0], atol=1e-300)
    np.testing.assert_allclose(logistic.derivative(m), [-1.0, 0.0])


def test_which_losses_upper_bound_the_zero_one_loss():
    m = np.linspace(-5, 5, 10_001)
    for loss in (hinge, exponential):
        assert np.all(loss(m) >= zero_one(m))
    assert np.all(
        logistic(m) / np.log(2) >= zero_one(m)
    )  # base-2 logistic loss
    assert logistic(0.0) == pytest.approx(np.log(2))
    assert logistic(0.0) < zero_one(
        0.0
    )  # the natural-log logistic loss does not


def test_bad_input():
    with pytest.raises(ValueError, match="NaN|infinity"):
        squared([1.0, np.nan])
    with pytest.raises(ValueError, match="could not convert string to float"):
        hinge(["a"])
    with pytest.raises(ValueError, match="delta"):
        huber(0.0)


def test_inputs_are_not_modified(rng):
    z = rng.normal(size=5)
    z0 = z.copy()
    for loss in REGRESSION + CLASSIFICATION:
        loss(z), loss.derivative(z)
    np.testing.assert_array_equal(z, z0)


# --- multiclass hinge ---


def test_multiclass_hinge_equals_its_definition_and_bounds_the_cost_of_the_prediction():
    rng = np.random.default_rng(0)
    n, K = 500, 4
    scores, y = rng.normal(size=(n, K)), rng.integers(K, size=n)
    cost = rng.uniform(0.5, 2.0, size=(K, K))
    np.fill_diagonal(cost, 0.0)
    loss, argmax = multiclass_hinge(scores, y, cost, return_argmax=True)
    by_loop = [
        max(cost[y[i], c] + scores[i, c] - scores[i, y[i]] for c in range(K))
        for i in range(n)
    ]
    np.testing.assert_allclose(loss, by_loop)
    np.testing.assert_allclose(
        loss,
        cost[y, argmax]
        + scores[np.arange(n), argmax]
        - scores[np.arange(n), y],
    )
    predicted = np.argmax(scores, axis=1)
    assert np.all(loss >= cost[y, predicted] - 1e-12) and np.all(loss >= 0)
    # zero exactly when every wrong class trails the true one by at least its cost
    separated = scores.copy()
    separated[np.arange(n), y] = scores.max(axis=1) + 2.0
    np.testing.assert_array_equal(multiclass_hinge(separated, y, cost), 0.0)


def test_multiclass_hinge_with_two_classes_is_the_binary_hinge_of_the_score_difference():
    rng = np.random.default_rng(1)
    scores, y = rng.normal(size=(200, 2)), rng.integers(2, size=200)
    margin = (2 * y - 1) * (scores[:, 1] - scores[:, 0])
    np.testing.assert_allclose(multiclass_hinge(scores, y), hinge(margin))


def test_multiclass_hinge_subgradient_by_finite_differences_away_from_kinks():
    rng = np.random.default_rng(2)
    scores, y = rng.normal(size=(50, 5)), rng.integers(5, size=50)
    loss, argmax = multiclass_hinge(scores, y, return_argmax=True)
    subgradient = np.eye(5)[argmax] - np.eye(5)[y]
    eps = 1e-7
    for j in range(5):
        step = np.zeros_like(scores)
        step[:, j] = eps
        numeric = (
            multiclass_hinge(scores + step, y)
            - multiclass_hinge(scores - step, y)
        ) / (2 * eps)
        np.testing.assert_allclose(numeric, subgradient[:, j], atol=1e-6)


def test_multiclass_hinge_rejects_a_cost_on_the_true_class_and_bad_labels():
    with pytest.raises(ValueError, match="zero diagonal"):
        multiclass_hinge(
            np.zeros((3, 3)), np.array([0, 1, 2]), np.eye(3)
        )  # the notes' reversed Δ
    with pytest.raises(ValueError, match="integer class"):
        multiclass_hinge(np.zeros((3, 3)), np.array([0, 1, 3]))
