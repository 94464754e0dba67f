"""mllib.linear_model.Perceptron: against scikit-learn, Novikoff's bound, cycling, bad input."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import Perceptron as SkPerceptron

from mllib.base import clone
from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.linear_model import Perceptron
from mllib.online import make_separable


def separable_sets(shift=(3.0, -1.0)):
    """Three separable problems: planted margins in 2 and 10 dimensions, and iris setosa vs rest.

    The 2-D set is moved off the origin by ``shift``, so that it needs the intercept.
    """
    X2, y2, _ = make_separable(60, 2, 0.05, random_state=1)
    X10, y10, _ = make_separable(300, 10, 0.02, random_state=2)
    iris = load_iris()
    return {
        "planted-2d": (X2 + np.asarray(shift), y2),
        "planted-10d": (X10, y10),
        "iris-setosa": (
            iris.data,
            np.where(iris.target == 0, "setosa", "other"),
        ),
    }


def sklearn_perceptron(**params):
    # the same algorithm: no penalty, unit steps; tol=None runs all passes (extra passes
    # after a mistake-free one change nothing)
    return SkPerceptron(penalty=None, alpha=0.0, eta0=1.0, tol=None, **params)


@pytest.mark.parametrize("name", ["planted-2d", "planted-10d", "iris-setosa"])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_matches_sklearn_exactly_in_a_fixed_order(name, fit_intercept):
    X, y = separable_sets(shift=(3.0, -1.0) if fit_intercept else (0.0, 0.0))[
        name
    ]
    ours = Perceptron(fit_intercept=fit_intercept, shuffle=False).fit(X, y)
    theirs = sklearn_perceptron(
        fit_intercept=fit_intercept, shuffle=False, max_iter=ours.n_iter_ + 2
    ).fit(X, y)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        ours.intercept_, theirs.intercept_, rtol=0, atol=1e-12
    )
    np.testing.assert_allclose(
        ours.decision_function(X), theirs.decision_function(X), atol=1e-10
    )
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


@pytest.mark.parametrize("name", ["planted-2d", "planted-10d", "iris-setosa"])
def test_shuffled_runs_reach_zero_training_error_like_sklearn(name):
    # visiting orders differ (scikit-learn shuffles with its own generator), so the weights
    # differ; what both guarantee on separable data is a consistent hyperplane
    X, y = separable_sets()[name]
    for seed in range(3):
        ours = Perceptron(random_state=seed).fit(X, y)
        theirs = sklearn_perceptron(random_state=seed, max_iter=1000).fit(X, y)
        assert ours.score(X, y) == 1.0 and theirs.score(X, y) == 1.0
        assert ours.mistakes_per_epoch_[-1] == 0 and np.all(
            ours.mistakes_per_epoch_[:-1] > 0
        )


def test_a_zero_decision_value_predicts_the_first_class_like_sklearn():
    # on the hyperplane the score is exactly 0: both libraries predict classes_[0] there
    X, y = np.array([[1.0, 2.0], [-1.0, -1.5]]), np.array(["a", "b"])
    ours = Perceptron(fit_intercept=False, shuffle=False).fit(X, y)
    theirs = sklearn_perceptron(
        fit_intercept=False, shuffle=False, max_iter=5
    ).fit(X, y)
    on_the_hyperplane = np.array(
        [[0.0, 0.0], [-ours.coef_[0, 1], ours.coef_[0, 0]]]
    )
    np.testing.assert_array_equal(
        ours.decision_function(on_the_hyperplane), 0.0
    )
    np.testing.assert_array_equal(ours.predict(on_the_hyperplane), ["a", "a"])
    np.testing.assert_array_equal(
        ours.predict(on_the_hyperplane), theirs.predict(on_the_hyperplane)
    )


def test_strict_test_would_never_move_from_zero():
    # with w = 0 every functional margin is exactly 0: "<= 0" must count it as a mistake
    X, y = np.array([[1.0, 2.0], [-1.0, -1.5]]), np.array([1, -1])
    model = Perceptron(fit_intercept=False, shuffle=False).fit(X, y)
    assert model.mistake_indices_[0] == 0 and model.n_updates_ == 1
    np.testing.assert_array_equal(model.coef_[0], X[0])
    assert model.score(X, y) == 1.0


@pytest.mark.parametrize("seed", range(40))
def test_novikoff_bound_on_random_separable_streams(seed):
    rng = np.random.default_rng(seed)
    n_features, margin = (
        int(rng.integers(2, 12)),
        float(rng.uniform(0.01, 0.3)),
    )
    X, y, u = make_separable(
        int(rng.integers(20, 300)), n_features, margin, random_state=seed
    )
    model = Perceptron(fit_intercept=False, random_state=seed).fit(X, y)
    R, gamma = np.linalg.norm(X, axis=1).max(), np.min(y * (X @ u))
    assert gamma >= margin
    assert model.n_updates_ <= (R / gamma) ** 2
    assert model.score(X, y) == 1.0
    # the proof's two invariants along the run, t = 1..M
    iterates = np.cumsum(
        y[model.mistake_indices_, None] * X[model.mistake_indices_], axis=0
    )
    t = np.arange(1, model.n_updates_ + 1)
    assert np.all(iterates @ u >= t * gamma - 1e-12)
    assert np.all(np.sum(iterates**2, axis=1) <= t * R**2 + 1e-12)


def test_novikoff_with_intercept_uses_augmented_vectors():
    X, y, u = make_separable(200, 3, 0.1, random_state=5)
    X = (
        X + 0.5 * u
    )  # shift along u: separable by an affine hyperplane, not through 0
    offset = -0.5  # u^T x - 0.5 separates with the planted margin
    model = Perceptron(random_state=0).fit(X, y)
    augmented, v = np.c_[X, np.ones(len(X))], np.r_[u, offset]
    R, gamma = (
        np.linalg.norm(augmented, axis=1).max(),
        np.min(y * (augmented @ v)) / np.linalg.norm(v),
    )
    assert gamma > 0 and model.n_updates_ <= (R / gamma) ** 2


def test_weights_are_the_sum_of_the_corrected_samples():
    X, y = separable_sets()["planted-2d"]
    model = Perceptron(random_state=3).fit(X, y)
    idx = model.mistake_indices_
    np.testing.assert_allclose(
        model.coef_[0], (y[idx, None] * X[idx]).sum(axis=0), atol=1e-12
    )
    np.testing.assert_allclose(model.intercept_[0], y[idx].sum())
    assert model.mistakes_per_epoch_.sum() == model.n_updates_ == len(idx)
    assert len(model.mistakes_per_epoch_) == model.n_iter_


def test_xor_warns_and_iterates_stay_bounded_and_cycle():
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = np.array([-1, 1, 1, -1])
    with pytest.warns(ConvergenceWarning, match="not separable"):
        model = Perceptron(shuffle=False, max_iter=50).fit(X, y)
    assert model.n_iter_ == 50 and np.all(model.mistakes_per_epoch_ > 0)
    idx = model.mistake_indices_
    states = np.cumsum(np.c_[y[idx, None] * X[idx], y[idx]], axis=0)
    assert np.abs(states).max() <= 3  # bounded
    # in a fixed order the state at the end of each pass repeats: eventually periodic
    ends = np.cumsum(model.mistakes_per_epoch_) - 1
    end_states = [tuple(s) for s in states[ends]]
    assert len(set(end_states[10:])) < len(end_states[10:])


def test_same_seed_same_run_and_clone():
    X, y = separable_sets()["planted-10d"]
    a = Perceptron(random_state=7).fit(X, y)
    b = clone(a).fit(X, y)
    np.testing.assert_array_equal(a.mistake_indices_, b.mistake_indices_)
    c = Perceptron(random_state=8).fit(X, y)
    assert not np.array_equal(a.mistake_indices_, c.mistake_indices_)


def test_labels_are_mapped_and_inputs_untouched():
    X, y = separable_sets()["iris-setosa"]
    X_copy, y_copy = X.copy(), y.copy()
    model = Perceptron(random_state=0).fit(X, y)
    np.testing.assert_array_equal(model.classes_, ["other", "setosa"])
    assert set(model.predict(X)) == {"other", "setosa"}
    np.testing.assert_array_equal(X, X_copy)
    np.testing.assert_array_equal(y, y_copy)


def test_breast_cancer_is_not_separable_and_warns():
    data = load_breast_cancer()
    with pytest.warns(ConvergenceWarning):
        model = Perceptron(max_iter=5, random_state=0).fit(
            data.data, data.target
        )
    assert model.n_iter_ == 5


@pytest.mark.parametrize(
    "X, y, match",
    [
        (np.zeros((4, 2)), [0, 1, 2, 0], "Only binary classification"),
        (np.zeros((4, 2)), [1, 1, 1, 1], "only one class"),
        (np.zeros((4, 2)), [0.5, 1.0, 0.0, 1.0], "continuous"),
        (np.zeros((4, 2)), [0, 1, 0], "inconsistent numbers of samples"),
        ([[0.0, np.nan], [1.0, 1.0]], [0, 1], "NaN"),
        (np.zeros(4), [0, 1, 0, 1], "Expected 2D array"),
    ],
)
def test_bad_input(X, y, match):
    with pytest.raises(ValueError, match=match):
        Perceptron().fit(X, y)


@pytest.mark.parametrize("max_iter", [0, -1, 2.5, True])
def test_bad_max_iter(max_iter):
    with pytest.raises(ValueError, match="max_iter"):
        Perceptron(max_iter=max_iter).fit([[0.0], [1.0]], [0, 1])


def test_not_fitted_and_wrong_width():
    with pytest.raises(NotFittedError):
        Perceptron().predict([[0.0, 1.0]])
    model = Perceptron().fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])
    with pytest.raises(ValueError, match="features"):
        model.decision_function([[0.0, 1.0, 2.0]])
