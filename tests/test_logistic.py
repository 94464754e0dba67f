"""LogisticRegression: scikit-learn oracles, derivative checks, separation, bad input."""

import warnings

import numpy as np
import pytest
from sklearn import linear_model as sk
from sklearn.datasets import (
    load_breast_cancer,
    load_digits,
    load_iris,
    load_wine,
    make_classification,
)
from sklearn.preprocessing import StandardScaler

from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.linear_model import LogisticRegression
from mllib.linear_model.logistic_loss import (
    logistic_gradient,
    logistic_hessian,
    logistic_loss,
    softmax_gradient,
    softmax_hessian,
    softmax_loss,
)
from mllib.linear_model.separation import separating_direction
from mllib.optim import check_gradient, numerical_jacobian


def standardised(loader):
    X, y = loader(return_X_y=True)
    return StandardScaler().fit_transform(X), y


DATA = {
    "breast_cancer": standardised(load_breast_cancer),  # binary, 30 features
    "iris": standardised(load_iris),  # 3 classes
    "wine": standardised(load_wine),  # 3 classes, 13 features
    "noisy": make_classification(
        300, 8, n_informative=4, flip_y=0.3, random_state=0
    ),  # binary
}


def sklearn_reference(X, y, **params):
    """scikit-learn's Newton-Cholesky solver run to machine precision."""
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore"
        )  # the tiny tol may trigger its own convergence warning
        return sk.LogisticRegression(
            solver="newton-cholesky", tol=1e-14, max_iter=1000, **params
        ).fit(X, y)


@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize("C", [0.05, 1.0, 20.0])
@pytest.mark.parametrize("solver", ["newton", "lbfgs"])
def test_matches_sklearn(name, C, solver):
    X, y = DATA[name]
    ours = LogisticRegression(
        C=C, solver=solver, tol=1e-10, max_iter=2000
    ).fit(X, y)
    ref = sklearn_reference(X, y, C=C)
    # Newton converges quadratically, to machine precision. L-BFGS stops when f no longer
    # decreases measurably, with a gradient near 1e-9; the coefficient error is about
    # ‖g‖/λ_min(H) and λ_min ≈ 1/(Cn) is small for large C, hence the looser tolerance.
    tight = (
        dict(atol=1e-7) if solver == "newton" else dict(rtol=1e-4, atol=1e-5)
    )
    assert (
        ours.coef_.shape == ref.coef_.shape
        and ours.intercept_.shape == ref.intercept_.shape
    )
    np.testing.assert_allclose(ours.coef_, ref.coef_, **tight)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, **tight)
    np.testing.assert_allclose(
        ours.decision_function(X), ref.decision_function(X), **tight
    )
    # probabilities move at most half as far as the decision values (the
    # softmax's Jacobian rows have l1 norm 2 p_k (1 - p_k) <= 1/2)
    decision_slack = tight.get("atol", 0) + tight.get("rtol", 0) * np.abs(
        ref.decision_function(X)
    )
    if decision_slack.ndim == 2:
        decision_slack = decision_slack.max(axis=1)
    assert np.all(
        np.abs(ours.predict_proba(X) - ref.predict_proba(X))
        <= 0.5 * decision_slack[:, None]
    )
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


@pytest.mark.parametrize("name", DATA)
def test_default_settings_agree_with_sklearn_defaults_to_1e_5(name):
    X, y = DATA[name]
    ours = LogisticRegression(tol=1e-8).fit(X, y)
    ref = sk.LogisticRegression(tol=1e-8, max_iter=1000).fit(
        X, y
    )  # lbfgs, scikit-learn's default
    np.testing.assert_allclose(
        ours.predict_proba(X), ref.predict_proba(X), atol=1e-5
    )
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-4)


@pytest.mark.parametrize(
    "name", ["noisy", "iris"]
)  # binary (step 4n/‖X‖²) and softmax (Böhning's 2n/‖X‖²)
def test_gradient_descent_reaches_the_same_minimiser(name):
    X, y = DATA[name]
    ours = LogisticRegression(solver="gd", tol=1e-9, max_iter=20000).fit(X, y)
    ref = sklearn_reference(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-7)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-7)
    assert (
        ours.n_iter_[0]
        > 10 * LogisticRegression(tol=1e-9).fit(X, y).n_iter_[0]
    )  # Newton: far fewer steps


def test_newton_converges_quadratically():
    X, y = DATA["breast_cancer"]
    model = LogisticRegression(C=1.0, tol=1e-12, max_iter=50).fit(X, y)
    assert model.n_iter_[0] <= 12
    ref = sklearn_reference(X, y, C=1.0)
    np.testing.assert_allclose(model.coef_, ref.coef_, atol=1e-9)


@pytest.mark.parametrize("name", ["iris", "wine"])
def test_softmax_is_in_the_symmetric_parametrisation(name):
    X, y = DATA[name]
    model = LogisticRegression(C=1.0, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(
        model.coef_.sum(axis=0), 0, atol=1e-8
    )  # the penalty's choice
    assert (
        abs(model.intercept_.sum()) < 1e-12
    )  # our normalisation, also scikit-learn's


def test_unpenalised_fit_matches_sklearn_on_overlapping_classes():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 3))
    y_binary = (X[:, 0] + rng.normal(size=400) > 0).astype(int)
    y_three = rng.integers(0, 3, 400)
    for y in (y_binary, y_three):
        ours = LogisticRegression(penalty=None, tol=1e-10).fit(X, y)
        ref = sklearn_reference(X, y, C=np.inf)
        np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-7)
        np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-7)
        same = LogisticRegression(C=np.inf, tol=1e-10).fit(
            X, y
        )  # C = inf means no penalty
        np.testing.assert_allclose(same.coef_, ours.coef_, atol=1e-12)


def test_without_intercept():
    X, y = DATA["noisy"]
    ours = LogisticRegression(fit_intercept=False, tol=1e-10).fit(X, y)
    ref = sklearn_reference(X, y, fit_intercept=False)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-8)
    np.testing.assert_array_equal(ours.intercept_, [0.0])


def test_string_labels_and_the_positive_class():
    X, y = DATA["noisy"]
    labels = np.where(y == 1, "yes", "no")
    model = LogisticRegression().fit(X, labels)
    np.testing.assert_array_equal(model.classes_, ["no", "yes"])
    scores = model.decision_function(X)
    np.testing.assert_array_equal(
        model.predict(X), np.where(scores > 0, "yes", "no")
    )
    np.testing.assert_allclose(
        model.predict_proba(X)[:, 1], 1 / (1 + np.exp(-scores))
    )
    assert model.score(X, labels) == np.mean(model.predict(X) == labels)


def test_log_probabilities_stay_finite_where_probabilities_underflow():
    X, y = DATA["noisy"]
    model = LogisticRegression().fit(X, y)
    far = (
        1e4 * model.coef_ / np.linalg.norm(model.coef_)
    )  # a point far on the positive side
    proba, log_proba = model.predict_proba(far), model.predict_log_proba(far)
    assert (
        proba[0, 0] == 0.0
        and np.isfinite(log_proba).all()
        and log_proba[0, 0] < -1000
    )
    X3, y3 = DATA["iris"]
    model3 = LogisticRegression().fit(X3, y3)
    np.testing.assert_allclose(
        np.exp(model3.predict_log_proba(X3)),
        model3.predict_proba(X3),
        atol=1e-14,
    )
    np.testing.assert_allclose(model3.predict_proba(X3).sum(axis=1), 1.0)


# --- derivatives, checked against central differences (mllib.optim) ---------------------


def random_problem(rng, n=40, d=4, K=3):
    X = np.column_stack([rng.normal(size=(n, d)), np.ones(n)])
    return X, rng.integers(0, K, n)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_binary_gradient_and_hessian_match_finite_differences(
    rng, fit_intercept
):
    X, y = random_problem(rng, K=2)
    y = y.astype(float)
    theta = rng.normal(size=X.shape[1])
    args = (X, y, 0.3, fit_intercept)
    assert (
        check_gradient(
            lambda t: logistic_loss(t, *args),
            lambda t: logistic_gradient(t, *args),
            theta,
        )
        < 1e-8
    )
    numeric = numerical_jacobian(lambda t: logistic_gradient(t, *args), theta)
    np.testing.assert_allclose(
        logistic_hessian(theta, X, 0.3, fit_intercept), numeric, atol=1e-7
    )
    # the unpenalised gradient is Xᵀ(p - y)/n and the Hessian XᵀWX/n with W = diag(p(1-p))
    p = 1 / (1 + np.exp(-X @ theta))
    np.testing.assert_allclose(
        logistic_gradient(theta, X, y), X.T @ (p - y) / len(X), atol=1e-15
    )
    np.testing.assert_allclose(
        logistic_hessian(theta, X),
        X.T @ np.diag(p * (1 - p)) @ X / len(X),
        atol=1e-14,
    )
    # a Hessian with the sign dropped fails the same check
    assert not np.allclose(
        -logistic_hessian(theta, X, 0.3, fit_intercept), numeric, atol=1e-3
    )


def test_softmax_gradient_and_hessian_match_finite_differences(rng):
    X, y = random_problem(rng)
    Y = np.eye(3)[y]
    Theta = rng.normal(size=(3, X.shape[1]))
    args = (X, Y, 0.2, True)
    assert (
        check_gradient(
            lambda T: softmax_loss(T, *args),
            lambda T: softmax_gradient(T, *args),
            Theta,
        )
        < 1e-8
    )
    numeric = numerical_jacobian(
        lambda T: softmax_gradient(T, *args).ravel(), Theta
    ).reshape(Theta.size, Theta.size)
    np.testing.assert_allclose(
        softmax_hessian(Theta, X, 0.2, True), numeric, atol=1e-7
    )
    rows = [0, 2]  # a sub-block
    block = numeric.reshape(3, X.shape[1], 3, X.shape[1])[
        np.ix_(rows, range(X.shape[1]), rows, range(X.shape[1]))
    ]
    np.testing.assert_allclose(
        softmax_hessian(Theta, X, 0.2, True, rows),
        block.reshape(2 * X.shape[1], -1),
        atol=1e-7,
    )


def test_binary_loss_is_softmax_loss_with_a_zero_reference_row(rng):
    X, y = random_problem(rng, K=2)
    theta = rng.normal(size=X.shape[1])
    Theta = np.vstack([np.zeros_like(theta), theta])
    Y = np.eye(2)[y]
    assert logistic_loss(theta, X, y) == pytest.approx(
        softmax_loss(Theta, X, Y), rel=1e-12
    )
    np.testing.assert_allclose(
        logistic_gradient(theta, X, y),
        softmax_gradient(Theta, X, Y)[1],
        atol=1e-15,
    )


def test_loss_does_not_overflow_for_huge_scores():
    X = np.array([[1000.0, 1.0], [-1000.0, 1.0]])
    theta = np.array([1.0, 0.0])
    assert logistic_loss(theta, X, np.array([0.0, 1.0])) == pytest.approx(
        1000.0
    )  # log(1+e^1000) - 0
    assert logistic_loss(theta, X, np.array([1.0, 0.0])) == pytest.approx(
        0.0, abs=1e-300
    )
    assert softmax_loss(
        np.vstack([np.zeros(2), theta]), X, np.eye(2)[[0, 1]]
    ) == pytest.approx(1000.0)


# --- separation --------------------------------------------------------------------------


def test_separable_data_without_penalty_raise_and_with_penalty_fit():
    X, y = load_iris(
        return_X_y=True
    )  # setosa is linearly separable from the rest
    with pytest.raises(ValueError, match="separable.*does not exist"):
        LogisticRegression(penalty=None).fit(X, y)
    with pytest.raises(ValueError, match="separable"):
        LogisticRegression(C=np.inf).fit(X[:100], y[:100])
    LogisticRegression(C=1e4, tol=1e-8).fit(
        X[:100], y[:100]
    )  # a penalised fit always exists


def test_separating_direction_is_a_certificate():
    rng = np.random.default_rng(3)
    X = np.column_stack([rng.normal(size=(60, 2)), np.ones(60)])
    y = (X[:, 0] - 0.5 * X[:, 1] > 0.1).astype(int)
    V = separating_direction(X, y, 2)
    margins = X @ (V[1] - V[0]) * np.where(y == 1, 1, -1)
    assert np.all(margins >= -1e-9) and margins.max() > 0.5
    y_noisy = y.copy()
    y_noisy[:6] = 1 - y_noisy[:6]  # flipped labels: the classes overlap
    assert separating_direction(X, y_noisy, 2) is None


def test_quasi_complete_separation_is_detected():
    # one positive and one negative share x = 0; otherwise x < 0 negative and x > 0 positive
    x = np.array([-2.0, -1.0, 0.0, 0.0, 1.0, 2.0])
    y = np.array([0, 0, 0, 1, 1, 1])
    X = np.column_stack([x, np.ones(6)])
    V = separating_direction(X, y, 2)
    assert (
        V is not None and abs(V[1, 1]) < 1e-9
    )  # the direction moves the slope, not the intercept
    with pytest.raises(ValueError, match="separable"):
        LogisticRegression(penalty=None).fit(x[:, None], y)


def test_separation_in_the_softmax_model():
    X, y = load_iris(return_X_y=True)
    X1 = np.column_stack([X, np.ones(len(X))])
    V = separating_direction(X1, y, 3)
    scores = X1 @ V.T
    own = scores[np.arange(len(y)), y]
    assert np.all(
        own[:, None] >= scores - 1e-7
    )  # no sample's own class loses along V
    assert (
        own[:, None] - scores
    ).max() > 0.5  # and some strictly gains: V is not 0


# --- warnings and bad input --------------------------------------------------------------


def test_convergence_warnings():
    X, y = DATA["breast_cancer"]
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        LogisticRegression(max_iter=1, tol=1e-12).fit(X, y)
    with pytest.warns(ConvergenceWarning, match="L-BFGS-B"):
        LogisticRegression(solver="lbfgs", max_iter=2, tol=1e-12).fit(X, y)
    with pytest.warns(ConvergenceWarning, match="gradient descent"):
        LogisticRegression(solver="gd", max_iter=5, tol=1e-12).fit(X, y)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"C": 0}, "C must be in"),
        ({"C": -1.0}, "C must be in"),
        ({"penalty": "l1"}, "penalty"),
        ({"solver": "saga"}, "solver"),
        ({"max_iter": 0}, "max_iter"),
        ({"tol": 0}, "tol"),
    ],
)
def test_bad_parameters(params, message):
    X, y = DATA["noisy"]
    with pytest.raises(ValueError, match=message):
        LogisticRegression(**params).fit(X, y)


def test_bad_data():
    X, y = DATA["noisy"]
    with pytest.raises(ValueError, match="only one class"):
        LogisticRegression().fit(X, np.zeros(len(X)))
    with pytest.raises(ValueError, match="continuous"):
        LogisticRegression().fit(X, np.linspace(0, 1, len(X)))
    bad = X.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        LogisticRegression().fit(bad, y)
    with pytest.raises(NotFittedError):
        LogisticRegression().predict(X)
    model = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict_proba(X[:, :3])


def test_inputs_are_not_modified():
    X, y = DATA["iris"]
    X_copy, y_copy = X.copy(), y.copy()
    for solver in ("newton", "lbfgs"):
        model = LogisticRegression(solver=solver).fit(X, y)
        model.predict_proba(X)
    np.testing.assert_array_equal(X, X_copy)
    np.testing.assert_array_equal(y, y_copy)


def test_digits_ten_classes():
    X, y = load_digits(return_X_y=True)
    X = (
        X.reshape(-1, 4, 2, 4, 2).mean(axis=(2, 4)).reshape(-1, 16)[:400] / 16
    )  # 2 × 2 pixel blocks
    y = y[:400]
    ours = LogisticRegression(C=0.5, tol=1e-10).fit(X, y)
    ref = sklearn_reference(X, y, C=0.5)
    np.testing.assert_allclose(
        ours.predict_proba(X), ref.predict_proba(X), atol=1e-8
    )
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-6)
