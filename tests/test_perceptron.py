"""mllib.linear_model.Perceptron: scikit-learn's Perceptron step for step
(penalties, weights, one-vs-rest, stopping), Novikoff's bound, cycling, bad
input, and scikit-learn's tools on it."""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_digits, load_iris
from sklearn.inspection import DecisionBoundaryDisplay
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    cross_val_score,
    learning_curve,
    validation_curve,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

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


def _standardised(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


def comparison_sets():
    """Two and more classes, separable or not."""
    iris = load_iris()
    cancer = load_breast_cancer()
    digits = load_digits()
    return {
        "iris (3 classes)": (iris.data, iris.target),
        "iris (names)": (
            iris.data,
            np.array(["setosa", "versicolor", "virginica"])[iris.target],
        ),
        "cancer (2 classes)": (_standardised(cancer.data), cancer.target),
        "digits (10 classes)": (digits.data[:500] / 16, digits.target[:500]),
        "planted-2d": separable_sets()["planted-2d"],
    }


SETTINGS = [
    {},
    {"penalty": "l2", "alpha": 0.01},
    {"penalty": "l1", "alpha": 0.001},
    {"penalty": "elasticnet", "alpha": 0.001, "l1_ratio": 0.5},
    {"class_weight": "balanced"},
    {"tol": None, "max_iter": 15},
    {"tol": 0.0, "max_iter": 15},
    {"eta0": 0.1, "fit_intercept": False},
    {"n_iter_no_change": 2, "tol": 0.05},
]


def _fit_both(X, y, **params):
    """Ours and scikit-learn's, in a fixed order (scikit-learn shuffles
    with its own generator), warnings silenced alike."""
    fits = []
    for make in (Perceptron, SkPerceptron):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fits.append(make(shuffle=False, **params).fit(X, y))
    return fits


@pytest.mark.parametrize("name", list(comparison_sets()))
@pytest.mark.parametrize(
    "params", SETTINGS, ids=[str(s) or "defaults" for s in SETTINGS]
)
def test_matches_sklearn_step_for_step(name, params):
    # the same steps in the same order, the same stopping epoch: equal up
    # to the order of the sums in a dot product
    X, y = comparison_sets()[name]
    ours, theirs = _fit_both(X, y, **params)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    assert ours.coef_.shape == theirs.coef_.shape
    assert ours.intercept_.shape == theirs.intercept_.shape
    assert ours.n_iter_ == theirs.n_iter_ and ours.t_ == theirs.t_
    scale = max(1.0, np.abs(theirs.coef_).max())
    np.testing.assert_allclose(
        ours.coef_, theirs.coef_, rtol=0, atol=1e-12 * scale
    )
    np.testing.assert_allclose(
        ours.intercept_, theirs.intercept_, rtol=0, atol=1e-12 * scale
    )
    np.testing.assert_allclose(
        ours.decision_function(X),
        theirs.decision_function(X),
        atol=1e-10 * scale,
    )
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_sample_weights_match_sklearn():
    X, y = comparison_sets()["iris (3 classes)"]
    weight = np.random.default_rng(0).uniform(0.2, 2.0, size=len(y))
    for params in ({}, {"penalty": "l2", "alpha": 0.01}):
        fits = []
        for make in (Perceptron, SkPerceptron):
            model = make(shuffle=False, **params)
            fits.append(model.fit(X, y, sample_weight=weight))
        ours, theirs = fits
        assert ours.n_iter_ == theirs.n_iter_
        np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-10)
        np.testing.assert_allclose(
            ours.intercept_, theirs.intercept_, atol=1e-10
        )


def test_one_vs_rest_is_one_binary_perceptron_per_class():
    # class c against the rest, weight class_weight[c] on the positives
    # and 1 on the others, as scikit-learn
    X, y = comparison_sets()["iris (3 classes)"]
    class_weight = {0: 2.0, 1: 0.5, 2: 1.0}
    model = Perceptron(shuffle=False, class_weight=class_weight).fit(X, y)
    for c in range(3):
        binary = Perceptron(shuffle=False, class_weight={1: class_weight[c]})
        binary.fit(X, (y == c).astype(int))
        np.testing.assert_allclose(model.coef_[c], binary.coef_[0])
        np.testing.assert_allclose(model.intercept_[c], binary.intercept_[0])
        np.testing.assert_array_equal(
            model.mistake_indices_[c], binary.mistake_indices_
        )
    assert model.n_iter_ == max(len(m) for m in model.mistakes_per_epoch_)
    np.testing.assert_array_equal(
        model.n_updates_, [len(m) for m in model.mistake_indices_]
    )


def test_ties_go_to_the_first_class_like_sklearn():
    # at x = 0 without intercepts every score is exactly 0
    X, y = comparison_sets()["iris (names)"]
    zero = np.zeros((1, X.shape[1]))
    for labels in (y, np.where(y == "setosa", "setosa", "other")):
        ours, theirs = _fit_both(X, labels, fit_intercept=False)
        np.testing.assert_array_equal(ours.decision_function(zero), 0.0)
        np.testing.assert_array_equal(ours.predict(zero), theirs.predict(zero))
        np.testing.assert_array_equal(ours.predict(zero), ours.classes_[:1])


def test_the_stopping_rule():
    # the average training objective of an epoch must beat the best so far
    # by tol; n_iter_no_change epochs without that stop the run
    X, y = comparison_sets()["cancer (2 classes)"]
    losses = []
    model = Perceptron(shuffle=False, verbose=1)
    import contextlib
    import io

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        model.fit(X, y)
    for line in printed.getvalue().splitlines():
        losses.append(float(line.rsplit(" ", 1)[1]))
    assert len(losses) == model.n_iter_
    best, stalled = np.inf, []
    for loss in losses:
        stalled.append(loss > best - model.tol)
        best = min(best, loss)
    # the last n_iter_no_change epochs stalled, and the run stopped there
    assert all(stalled[-model.n_iter_no_change :])
    assert not all(stalled[-model.n_iter_no_change - 1 :])


def test_separable_data_stop_after_a_mistake_free_epoch():
    # once an epoch makes no mistake nothing changes; tol=None runs all
    # max_iter epochs (cheaply) and reaches the same weights as sklearn
    X, y = separable_sets()["planted-10d"]
    ours, theirs = _fit_both(X, y, tol=None, max_iter=200)
    assert ours.n_iter_ == theirs.n_iter_ == 200
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-12)
    first_free = np.flatnonzero(ours.mistakes_per_epoch_ == 0)[0]
    assert np.all(ours.mistakes_per_epoch_[first_free:] == 0)
    assert np.all(ours.mistakes_per_epoch_[:first_free] > 0)
    assert ours.score(X, y) == 1.0
    # with the default tol, n_iter_no_change more epochs after it, or fewer
    default = Perceptron(shuffle=False).fit(X, y)
    assert default.n_iter_ <= first_free + 1 + default.n_iter_no_change


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
    model = Perceptron(fit_intercept=False, tol=None, random_state=seed)
    model.fit(X, y)
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
    X = X + 0.5 * u  # separable by an affine hyperplane, not through 0
    offset = -0.5  # u^T x - 0.5 separates with the planted margin
    model = Perceptron(tol=None, random_state=0).fit(X, y)
    augmented, v = np.c_[X, np.ones(len(X))], np.r_[u, offset]
    R, gamma = (
        np.linalg.norm(augmented, axis=1).max(),
        np.min(y * (augmented @ v)) / np.linalg.norm(v),
    )
    assert gamma > 0 and model.n_updates_ <= (R / gamma) ** 2


def test_weights_are_eta0_times_the_sum_of_the_corrected_samples():
    X, y = separable_sets()["planted-2d"]
    model = Perceptron(eta0=0.5, random_state=3).fit(X, y)
    idx = model.mistake_indices_
    np.testing.assert_allclose(
        model.coef_[0], 0.5 * (y[idx, None] * X[idx]).sum(axis=0), atol=1e-12
    )
    np.testing.assert_allclose(model.intercept_[0], 0.5 * y[idx].sum())
    assert model.mistakes_per_epoch_.sum() == model.n_updates_ == len(idx)
    assert len(model.mistakes_per_epoch_) == model.n_iter_
    assert model.t_ == model.n_iter_ * len(y) + 1


def test_xor_cycles_and_stops_like_sklearn():
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = np.array([-1, 1, 1, -1])
    # the objective repeats each epoch: scikit-learn's rule stops after
    # n_iter_no_change epochs, without a warning
    ours, theirs = _fit_both(X, y)
    assert ours.n_iter_ == theirs.n_iter_ == 1 + ours.n_iter_no_change
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Perceptron(shuffle=False).fit(X, y)
    # tol=None: all max_iter epochs; in a fixed order every pass errs on
    # every point and brings the weights back to 0
    model = Perceptron(shuffle=False, tol=None, max_iter=30).fit(X, y)
    assert np.all(model.mistakes_per_epoch_ == 4)
    idx = model.mistake_indices_
    states = np.cumsum(np.c_[y[idx, None] * X[idx], y[idx]], axis=0)
    ends = np.cumsum(model.mistakes_per_epoch_) - 1
    np.testing.assert_array_equal(states[ends], 0.0)


def test_max_iter_warns_like_sklearn():
    X, y = comparison_sets()["cancer (2 classes)"]
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        model = Perceptron(max_iter=2).fit(X, y)
    assert model.n_iter_ == 2


def test_early_stopping_holds_out_a_stratified_validation_set():
    X, y = comparison_sets()["iris (3 classes)"]
    model = Perceptron(
        early_stopping=True, validation_fraction=0.2, random_state=0
    ).fit(X, y)
    trained = np.unique(np.concatenate(model.mistake_indices_))
    held_out = np.setdiff1d(np.arange(len(y)), trained)
    # 20 % of 150, 10 per class, never updated on
    assert len(held_out) >= 30
    # it stopped on the validation accuracy, n_iter_no_change epochs after
    # its last improvement by tol
    assert model.n_iter_no_change < model.n_iter_ < model.max_iter
    again = Perceptron(
        early_stopping=True, validation_fraction=0.2, random_state=0
    ).fit(X, y)
    np.testing.assert_array_equal(model.coef_, again.coef_)


def test_warm_start_and_initial_weights():
    X, y = comparison_sets()["iris (3 classes)"]
    first = Perceptron(shuffle=False, max_iter=3, tol=None).fit(X, y)
    start = {"coef_init": first.coef_, "intercept_init": first.intercept_}
    before = first.coef_.copy()
    ours = Perceptron(shuffle=False).fit(X, y, **start)
    np.testing.assert_array_equal(first.coef_, before)  # left untouched
    # (scikit-learn writes its steps into the coef_init it is given: copies)
    theirs = SkPerceptron(shuffle=False).fit(
        X, y, **{key: value.copy() for key, value in start.items()}
    )
    assert ours.n_iter_ == theirs.n_iter_
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-10)
    warm = Perceptron(shuffle=False, max_iter=3, tol=None, warm_start=True)
    warm.fit(X, y)
    np.testing.assert_array_equal(warm.coef_, first.coef_)
    warm.fit(X, y)  # three more epochs from where it stopped
    resumed = Perceptron(shuffle=False, max_iter=3, tol=None).fit(
        X, y, coef_init=first.coef_, intercept_init=first.intercept_
    )
    np.testing.assert_array_equal(warm.coef_, resumed.coef_)
    with pytest.raises(ValueError, match="coef_init"):
        Perceptron().fit(X, y, coef_init=np.zeros((2, 4)))


def test_same_seed_same_run_and_clone():
    X, y = separable_sets()["planted-10d"]
    a = Perceptron(random_state=7).fit(X, y)
    b = clone(a).fit(X, y)
    np.testing.assert_array_equal(a.mistake_indices_, b.mistake_indices_)
    c = Perceptron(random_state=8).fit(X, y)
    assert not np.array_equal(a.mistake_indices_, c.mistake_indices_)
    assert Perceptron().random_state == SkPerceptron().random_state == 0


def test_labels_are_mapped_and_inputs_untouched():
    X, y = separable_sets()["iris-setosa"]
    X_copy, y_copy = X.copy(), y.copy()
    model = Perceptron(random_state=0).fit(X, y)
    np.testing.assert_array_equal(model.classes_, ["other", "setosa"])
    assert set(model.predict(X)) == {"other", "setosa"}
    np.testing.assert_array_equal(X, X_copy)
    np.testing.assert_array_equal(y, y_copy)


@pytest.mark.parametrize(
    "X, y, match",
    [
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


@pytest.mark.parametrize(
    "params, match",
    [
        ({"max_iter": 0}, "max_iter"),
        ({"max_iter": 2.5}, "max_iter"),
        ({"max_iter": True}, "max_iter"),
        ({"penalty": "l3"}, "penalty"),
        ({"alpha": -1.0}, "alpha"),
        ({"l1_ratio": 1.5}, "l1_ratio"),
        ({"eta0": 0.0}, "eta0"),
        ({"tol": -1.0}, "tol"),
        ({"n_iter_no_change": 0}, "n_iter_no_change"),
        ({"class_weight": {7: 1.0}}, "class_weight"),
        (
            {"early_stopping": True, "validation_fraction": 1.0},
            "validation_fraction",
        ),
    ],
)
def test_bad_parameters(params, match):
    with pytest.raises(ValueError, match=match):
        Perceptron(**params).fit([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])


def test_not_fitted_and_wrong_width():
    with pytest.raises(NotFittedError):
        Perceptron().predict([[0.0, 1.0]])
    model = Perceptron().fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])
    with pytest.raises(ValueError, match="features"):
        model.decision_function([[0.0, 1.0, 2.0]])


# --- scikit-learn's tools, as in its example gallery -------------------------


def test_pipeline_grid_search_curves_and_nested_cv():
    X, y = load_iris(return_X_y=True)
    grid = {
        "perceptron__penalty": [None, "l2"],
        "perceptron__alpha": [1e-4, 1e-2],
    }
    searches = [
        GridSearchCV(
            make_pipeline(StandardScaler(), model(shuffle=False)), grid, cv=3
        ).fit(X, y)
        for model in (Perceptron, SkPerceptron)
    ]
    assert searches[0].best_params_ == searches[1].best_params_
    np.testing.assert_allclose(
        searches[0].cv_results_["mean_test_score"],
        searches[1].cv_results_["mean_test_score"],
    )
    curves = [
        validation_curve(
            make_pipeline(
                StandardScaler(), model(penalty="l2", shuffle=False)
            ),
            X,
            y,
            param_name="perceptron__alpha",
            param_range=[1e-4, 1e-3, 1e-2, 1e-1],
            cv=3,
        )
        for model in (Perceptron, SkPerceptron)
    ]
    for train, test in curves:
        assert np.all(np.isfinite(train)) and np.all(np.isfinite(test))
    np.testing.assert_allclose(curves[0][1], curves[1][1])
    _, train, test = learning_curve(
        Perceptron(), X, y, cv=3, train_sizes=[0.5, 1.0]
    )
    assert np.all(np.isfinite(test))
    outer = KFold(4, shuffle=True, random_state=0)
    nested = cross_val_score(searches[0], X, y, cv=outer)
    assert np.all(np.isfinite(nested)) and nested.mean() > 0.5  # 3 classes


def test_decision_boundary_display():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X, y = load_iris(return_X_y=True)
    model = Perceptron(random_state=0).fit(X[:, :2], y)
    for method in ("predict", "decision_function"):
        display = DecisionBoundaryDisplay.from_estimator(
            model, X[:, :2], response_method=method, grid_resolution=40
        )
        assert np.all(np.isfinite(display.response))
    plt.close("all")
