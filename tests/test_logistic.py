"""LogisticRegression: scikit-learn oracles, derivative checks, separation, bad input."""

import warnings

import numpy as np
import pytest
from scipy import sparse
from scipy.special import expit, logsumexp, softmax
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
from mllib.linear_model.proximal_newton import subgradient_residual
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

#: overlapping classes without collinear columns, where the unpenalised
#: maximum-likelihood estimate exists; by number of classes
OVERLAPPING = {
    K: make_classification(
        300,
        4,
        n_informative=4,
        n_redundant=0,
        n_classes=K,
        flip_y=0.3,
        random_state=1,
    )
    for K in (2, 3)
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
    # Newton converges quadratically, to machine precision. L-BFGS stops
    # when F no longer decreases by 64 eps relative, with a gradient near
    # 1e-8 that depends on the machine's rounding (1e-6 would mean another
    # objective); the fit is then within |g| / mu of the minimiser
    # (gradient_and_curvature), mu ~ 1/(Cn) small for large C. A decision
    # value x w_k + b_k moves by at most (|x| + 2) times that: the intercepts
    # are centred, which at most doubles their change.
    if solver == "newton":
        tight = dict(atol=1e-7)
    else:
        gradient_norm, mu, distance = gradient_and_curvature(
            ours, ref, X, y, C
        )
        assert gradient_norm <= 1e-6
        bound = 1.01 * gradient_norm / mu + 1e-12
        assert distance <= bound
        widest = np.linalg.norm(X, axis=1).max() + 1
        tight = dict(atol=(widest + 2) * bound)
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
def test_default_settings_agree_with_sklearn_defaults(name):
    """mllib's default (Newton) and scikit-learn's (L-BFGS) minimise one
    objective; each fit is within |grad F| / mu of the minimiser
    (gradient_and_curvature), so of the other, however a machine rounds.
    scikit-learn's L-BFGS stops on a relative decrease of 64 eps, with a
    gradient near 1e-8 (1e-6 would mean another objective)."""
    X, y = DATA[name]
    ours = LogisticRegression(tol=1e-8).fit(X, y)
    theirs = sk.LogisticRegression(tol=1e-8, max_iter=1000).fit(X, y)
    ref = sklearn_reference(X, y)
    apart = 0.0
    for model in (ours, theirs):
        gradient_norm, mu, distance = gradient_and_curvature(model, ref, X, y)
        assert gradient_norm <= 1e-6
        bound = 1.01 * gradient_norm / mu + 1e-12
        assert distance <= bound
        apart += bound
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=apart)
    # a probability moves by at most half the largest change of a decision
    # value x w_k + b_k, at most (|x| + 2) apart (the centred intercepts at
    # most double their change)
    widest = np.linalg.norm(X, axis=1).max() + 1
    np.testing.assert_allclose(
        ours.predict_proba(X),
        theirs.predict_proba(X),
        atol=0.5 * (widest + 2) * apart,
    )


def gradient_and_curvature(ours, ref, X, y, C=1.0, fit_intercept=True):
    """|grad F| at our fit, the least eigenvalue mu of F's Hessian at the
    reference minimiser, and the distance between the two fits, for F = mean
    loss + |W|^2 / 2Cn. Near the minimiser the gradient is H (theta -
    theta*) to second order, so theta is within |grad F| / mu of it (1 %
    allows for H changing over that distance): how far an iterative solver
    stops, whatever digits a machine rounds to. Only differences between the
    class rows enter the softmax, so both fits are compared where the
    solvers work: the last class's intercept subtracted from every
    intercept (without intercepts, every entry is free)."""
    n = len(X)
    X1 = np.column_stack([X, np.ones(n)]) if fit_intercept else X
    alpha = 1 / (C * n)
    shift = int(fit_intercept)  # the last intercept, fixed at 0

    def free_parameters(model):
        Theta = np.column_stack([model.coef_, model.intercept_])
        Theta = Theta if fit_intercept else Theta[:, :-1]
        if len(model.classes_) == 2:
            return Theta.ravel()
        if fit_intercept:
            Theta[:, -1] -= Theta[-1, -1]
        return Theta.ravel()[: Theta.size - shift]

    theta, theta_star = free_parameters(ours), free_parameters(ref)
    if len(ours.classes_) == 2:
        labels = (y == ours.classes_[1]).astype(float)
        gradient = logistic_gradient(theta, X1, labels, alpha, fit_intercept)
        H = logistic_hessian(theta_star, X1, alpha, fit_intercept)
    else:
        Y = (y[:, None] == ours.classes_).astype(float)
        K, d_prime = Y.shape[1], X1.shape[1]

        def full(free):
            return np.append(free, np.zeros(shift)).reshape(K, d_prime)

        keep = slice(0, K * d_prime - shift)
        gradient = softmax_gradient(
            full(theta), X1, Y, alpha, fit_intercept
        ).ravel()[keep]
        H = softmax_hessian(full(theta_star), X1, alpha, fit_intercept)
        H = H[keep, keep]
    mu = np.linalg.eigvalsh(H)[0]
    return np.linalg.norm(gradient), mu, np.linalg.norm(theta - theta_star)


@pytest.mark.parametrize(
    "name", ["noisy", "iris"]
)  # binary (step 4n/‖X‖²) and softmax (Böhning's 2n/‖X‖²)
def test_gradient_descent_reaches_the_same_minimiser(name):
    """Gradient descent stops once |grad F| <= tol; the fit is then within
    |grad F| / mu of the minimiser (gradient_and_curvature)."""
    X, y = DATA[name]
    tol = 1e-9
    ours = LogisticRegression(solver="gd", tol=tol, max_iter=20000).fit(X, y)
    ref = sklearn_reference(X, y)
    gradient_norm, mu, distance = gradient_and_curvature(ours, ref, X, y)
    assert gradient_norm <= tol
    assert distance <= 1.01 * gradient_norm / mu + 1e-12
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
        ({"penalty": "l3"}, "penalty"),
        ({"l1_ratio": 1.5}, "l1_ratio must be in"),
        ({"l1_ratio": 1.0, "solver": "lbfgs"}, 'Use solver="newton"'),
        (
            {"penalty": "l1", "l1_ratio": 1.0, "solver": "gd"},
            'Use solver="newton"',
        ),
        ({"solver": "newton-cg"}, "solver"),
        ({"solver": "sag"}, "sklearn.linear_model.LogisticRegression"),
        ({"solver": "liblinear", "C": np.inf}, "needs a penalty"),
        ({"solver": "liblinear", "l1_ratio": 0.5}, "l1_ratio 0 or 1"),
        ({"intercept_scaling": 0.0}, "intercept_scaling must be in"),
        ({"class_weight": "uniform"}, "class_weight"),
        ({"class_weight": {0: -1.0}}, "non-negative"),
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


# --- l1 and elastic-net penalties, class weights, warm starts -----------------


def penalised_objective(coef, intercept, X, y, C, l1_ratio, s=None):
    """scikit-learn's objective divided by Cn, F = (1/n)Σ s_i ℓ_i + α(1-ρ)/2
    ‖W‖² + αρ‖W‖₁ with α = 1/(Cn), written out here from its definition,
    and the minimum-norm subgradient over all of (W, b), flattened.

    ``coef`` (1, d) or (K, d), ``intercept`` (1,) or (K,), labels ``y``.
    Both are computed for any parameters, scikit-learn's included.
    """
    classes, y_index = np.unique(y, return_inverse=True)
    n = len(y)
    s = np.ones(n) if s is None else s
    alpha = 1 / (C * n)
    Z = X @ coef.T + intercept
    if len(classes) == 2:
        z, t = Z[:, 0], y_index.astype(float)
        losses = np.logaddexp(0, z) - t * z
        residual = (expit(z) - t)[:, None]  # dℓ/dz, (n, 1)
    else:
        Y = np.eye(len(classes))[y_index]
        losses = logsumexp(Z, axis=1) - np.sum(Y * Z, axis=1)
        residual = softmax(Z, axis=1) - Y
    residual *= s[:, None]
    F = (
        s @ losses / n
        + alpha * (1 - l1_ratio) / 2 * np.sum(coef**2)
        + alpha * l1_ratio * np.abs(coef).sum()
    )
    grad_coef = residual.T @ X / n + alpha * (1 - l1_ratio) * coef
    grad_intercept = residual.sum(axis=0) / n
    lam = alpha * l1_ratio
    weight_part = np.where(
        coef != 0,
        grad_coef + lam * np.sign(coef),
        np.sign(grad_coef) * np.maximum(np.abs(grad_coef) - lam, 0),
    )
    return F, np.concatenate([weight_part.ravel(), grad_intercept])


def saga_reference(X, y, **params):
    """scikit-learn's saga, its only solver for the elastic net, run long."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sk.LogisticRegression(
            solver="saga",
            tol=1e-12,
            max_iter=20_000,
            random_state=0,
            **params,
        ).fit(X, y)


def parameters(model):
    return np.concatenate([model.coef_.ravel(), model.intercept_])


@pytest.mark.parametrize(
    "name, C, l1_ratio",
    [
        ("breast_cancer", 0.05, 1.0),
        ("breast_cancer", 0.05, 0.5),
        ("breast_cancer", 1.0, 0.5),
        ("noisy", 1.0, 1.0),
        ("noisy", 0.1, 0.3),
        ("iris", 1.0, 0.5),
        ("iris", 0.05, 1.0),
        ("wine", 1.0, 0.5),
        ("wine", 0.05, 1.0),
    ],
)
def test_l1_and_elastic_net_match_sklearn_saga(name, C, l1_ratio):
    X, y = DATA[name]
    ours = LogisticRegression(C=C, l1_ratio=l1_ratio, tol=1e-10).fit(X, y)
    ref = saga_reference(X, y, C=C, l1_ratio=l1_ratio)
    F_ours, r_ours = penalised_objective(
        ours.coef_, ours.intercept_, X, y, C, l1_ratio
    )
    F_ref, r_ref = penalised_objective(
        ref.coef_, ref.intercept_, X, y, C, l1_ratio
    )
    # ours stops at a subgradient of max-norm 1e-10, saga on small changes:
    # ours is at least as good, up to rounding and ‖r‖‖Δθ‖ (convexity:
    # F(ours) - F(ref) ≤ r_oursᵀ(θ_ours - θ_ref))
    distance = np.linalg.norm(parameters(ours) - parameters(ref))
    assert F_ours <= F_ref + np.linalg.norm(r_ours) * distance + 1e-15
    assert np.max(np.abs(r_ours)) <= 1e-9
    curvatures = curvature_range(ours, X, y, C, l1_ratio)
    if curvatures[0] > 1e-6 * curvatures[1]:
        # strongly convex near the solution, with modulus μ = the smallest
        # eigenvalue of the smooth part's Hessian: two points whose
        # subgradients are r_ours and r_ref are at most (‖r_ours‖ +
        # ‖r_ref‖)/μ apart (μ halved: it is measured at one end only).
        # (Not so with collinear columns and no l2 share, as in "noisy":
        # the minimiser need not be unique.)
        bound = 2 * (np.linalg.norm(r_ours) + np.linalg.norm(r_ref))
        assert distance <= bound / curvatures[0]
    assert_same_predictions_off_the_boundary(ours, ref, X, distance)


def assert_same_predictions_off_the_boundary(ours, ref, X, distance):
    """Parameters ``distance`` apart move each score by at most ``distance``
    (‖x‖ + 1) (Cauchy-Schwarz on (w, b)·(x, 1)): predictions may differ only
    where our top two scores are within twice that."""
    margin = top_two_margin(ours.decision_function(X))
    reach = 2 * distance * (np.linalg.norm(X, axis=1) + 1)
    differ = ours.predict(X) != ref.predict(X)
    assert np.all(margin[differ] <= reach[differ])


def top_two_margin(scores):
    """How far each row's prediction is from changing: |score| for two
    classes (scores of shape (n,)), else the gap between the two largest
    scores."""
    if scores.ndim == 1:
        return np.abs(scores)
    top_two = np.sort(scores, axis=1)[:, -2:]
    return top_two[:, 1] - top_two[:, 0]


def curvature_range(model, X, y, C, l1_ratio):
    """The extreme eigenvalues of the Hessian of F's smooth part at the
    fitted parameters (binary: over (w, b); softmax: over the entries the
    solver frees, the last intercept fixed)."""
    n = len(y)
    l2 = (1 - l1_ratio) / (C * n)
    X1 = np.column_stack([X, np.ones(n)])
    if len(model.classes_) == 2:
        H = logistic_hessian(np.r_[model.coef_[0], model.intercept_], X1, l2)
    else:
        Theta = np.column_stack([model.coef_, model.intercept_])
        H = softmax_hessian(Theta, X1, l2)
        keep = np.ones(H.shape[0], dtype=bool)
        keep[-1] = False  # the last intercept: its shift leaves F unchanged
        H = H[np.ix_(keep, keep)]
    eigenvalues = np.linalg.eigvalsh(H)
    return eigenvalues[0], eigenvalues[-1]


@pytest.mark.parametrize("name", ["breast_cancer", "wine"])
@pytest.mark.parametrize("l1_ratio", [1.0, 0.5])
def test_l1_solution_satisfies_the_subgradient_conditions(name, l1_ratio):
    """0 ∈ ∇f(w) + αρ ∂‖w‖₁: ∇_j f = -αρ sign(w_j) on the support, |∇_j f|
    ≤ αρ off it, at the solver's tolerance; and exact zeros exist."""
    X, y = DATA[name]
    C, tol = 0.2, 1e-8
    model = LogisticRegression(C=C, l1_ratio=l1_ratio, tol=tol).fit(X, y)
    _, residual = penalised_objective(
        model.coef_, model.intercept_, X, y, C, l1_ratio
    )
    assert np.max(np.abs(residual)) <= tol
    assert np.any(model.coef_ == 0) and np.any(model.coef_ != 0)
    # the residual the solver stops on is the same quantity
    g = np.array([3.0, -0.5, 0.2, 0.0])
    x = np.array([1.0, 0.0, 0.0, -2.0])
    np.testing.assert_allclose(
        subgradient_residual(x, g, np.full(4, 0.4)), [3.4, -0.1, 0, -0.4]
    )


def test_all_weights_vanish_exactly_below_the_critical_C():
    """At w = 0 the intercept-only fit has p̄ = ȳ, so w = 0 is optimal iff
    ‖Xᵀ(y - ȳ)‖∞ / n ≤ αρ = ρ/(Cn), i.e. C ≤ ρ/‖Xᵀ(y - ȳ)‖∞."""
    X, y = DATA["breast_cancer"]
    l1_ratio = 1.0
    C_critical = l1_ratio / np.max(np.abs(X.T @ (y - y.mean())))
    below = LogisticRegression(
        C=0.999 * C_critical, l1_ratio=1.0, tol=1e-10
    ).fit(X, y)
    assert np.all(below.coef_ == 0)
    assert expit(below.intercept_[0]) == pytest.approx(y.mean(), abs=1e-6)
    above = LogisticRegression(
        C=1.01 * C_critical, l1_ratio=1.0, tol=1e-10
    ).fit(X, y)
    assert np.count_nonzero(above.coef_) == 1  # the most correlated enters
    assert np.argmax(np.abs(above.coef_)) == np.argmax(
        np.abs(X.T @ (y - y.mean()))
    )


def test_penalty_spellings_agree_with_l1_ratio():
    X, y = DATA["noisy"]
    fit = lambda **p: LogisticRegression(tol=1e-10, **p).fit(X, y).coef_
    np.testing.assert_array_equal(
        fit(penalty="l1", l1_ratio=1.0), fit(l1_ratio=1.0)
    )
    np.testing.assert_array_equal(
        fit(penalty="elasticnet", l1_ratio=0.3), fit(l1_ratio=0.3)
    )
    np.testing.assert_array_equal(fit(penalty="l2"), fit())
    X, y = OVERLAPPING[2]  # no collinear columns: the MLE exists
    np.testing.assert_array_equal(fit(penalty=None), fit(C=np.inf))
    with pytest.warns(UserWarning, match="Inconsistent"):
        np.testing.assert_array_equal(fit(penalty="l1"), fit(l1_ratio=1.0))
    with pytest.warns(UserWarning, match="ignores the C"):
        fit(penalty=None, C=3.0)
    with pytest.warns(FutureWarning, match="l1_ratio=None"):
        np.testing.assert_array_equal(fit(l1_ratio=None), fit())
    # l1_ratio = 0 takes the smooth path: Newton, the same iterates
    assert (
        LogisticRegression(l1_ratio=0.0).fit(X, y).n_iter_[0]
        == (LogisticRegression().fit(X, y).n_iter_[0])
    )


@pytest.mark.parametrize("name", ["noisy", "wine"])
@pytest.mark.parametrize(
    "class_weight", ["balanced", {0: 3.0}, {0: 0.5, 1: 2.0}]
)
def test_class_weight_matches_sklearn(name, class_weight):
    X, y = DATA[name]
    ours = LogisticRegression(class_weight=class_weight, tol=1e-10).fit(X, y)
    ref = sklearn_reference(X, y, class_weight=class_weight)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-7)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-7)


def test_balanced_class_weight_counts_in_sample_weights_like_sklearn():
    X, y = DATA["wine"]
    s = np.random.default_rng(0).uniform(0.2, 3.0, size=len(y))
    ours = LogisticRegression(class_weight="balanced", tol=1e-10)
    ours.fit(X, y, sample_weight=s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = sk.LogisticRegression(
            solver="newton-cholesky",
            class_weight="balanced",
            tol=1e-14,
            max_iter=1000,
        ).fit(X, y, sample_weight=s)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-7)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-7)


def test_class_weight_is_sample_duplication_and_scales_with_sample_weight():
    """An integer class weight is the same fit as repeating that class's
    samples; sample_weight multiplies it; with an l1 share as well."""
    X, y = DATA["noisy"]
    repeated = np.r_[np.arange(len(y)), np.flatnonzero(y == 1)]
    for l1_ratio in (0.0, 0.7):
        params = dict(l1_ratio=l1_ratio, C=0.3, tol=1e-10)
        weighted = LogisticRegression(class_weight={1: 2}, **params).fit(X, y)
        duplicated = LogisticRegression(**params).fit(X[repeated], y[repeated])
        np.testing.assert_allclose(weighted.coef_, duplicated.coef_, atol=1e-7)
        by_samples = LogisticRegression(**params).fit(
            X, y, sample_weight=np.where(y == 1, 2.0, 1.0)
        )
        np.testing.assert_allclose(by_samples.coef_, weighted.coef_, atol=1e-7)
    balanced = LogisticRegression(class_weight="balanced").fit(X, y)
    counts = np.bincount(y)
    explicit = {k: len(y) / (2 * counts[k]) for k in (0, 1)}
    np.testing.assert_allclose(
        balanced.coef_,
        LogisticRegression(class_weight=explicit).fit(X, y).coef_,
        rtol=1e-12,
    )


def test_class_weight_l1_matches_sklearn_saga():
    X, y = DATA["wine"]
    params = dict(C=0.5, l1_ratio=0.5, class_weight="balanced")
    ours = LogisticRegression(tol=1e-10, **params).fit(X, y)
    ref = saga_reference(X, y, **params)
    counts = np.bincount(y)
    s = (len(y) / (len(counts) * counts))[y]  # "balanced", by hand
    F_ours, r_ours = penalised_objective(
        ours.coef_, ours.intercept_, X, y, 0.5, 0.5, s
    )
    F_ref, r_ref = penalised_objective(
        ref.coef_, ref.intercept_, X, y, 0.5, 0.5, s
    )
    assert np.max(np.abs(r_ours)) <= 1e-9  # the weighted objective's KKT
    distance = np.linalg.norm(parameters(ours) - parameters(ref))
    assert F_ours <= F_ref + np.linalg.norm(r_ours) * distance + 1e-15
    assert_same_predictions_off_the_boundary(ours, ref, X, distance)


@pytest.mark.parametrize("K", [2, 3])
@pytest.mark.parametrize("params", [{}, {"l1_ratio": 0.5}, {"penalty": None}])
def test_warm_start_continues_from_the_previous_fit(K, params):
    X, y = OVERLAPPING[K]
    cold = LogisticRegression(tol=1e-10, **params).fit(X, y)
    warm = LogisticRegression(tol=1e-10, warm_start=True, **params)
    warm.fit(X, y)
    np.testing.assert_array_equal(warm.coef_, cold.coef_)
    warm.fit(X, y)  # from the solution: no step is needed
    assert warm.n_iter_[0] == 0
    np.testing.assert_allclose(warm.coef_, cold.coef_, atol=1e-12)
    np.testing.assert_allclose(warm.intercept_, cold.intercept_, atol=1e-12)
    if "penalty" in params:
        return
    # a nearby C: fewer steps than from zero, the same minimiser
    near = LogisticRegression(C=1.2, tol=1e-10, **params)
    warm.set_params(C=1.2).fit(X, y)
    near.fit(X, y)
    assert warm.n_iter_[0] < near.n_iter_[0]
    np.testing.assert_allclose(warm.coef_, near.coef_, atol=1e-8)


def test_warm_start_refuses_a_different_shape():
    X, y = DATA["iris"]
    model = LogisticRegression(warm_start=True).fit(X, y)
    with pytest.raises(ValueError, match="warm_start"):
        model.fit(X[:, :2], y)
    with pytest.raises(ValueError, match="warm_start"):
        model.fit(X, y == 0)


def degenerate_classification_problems(seed):
    """Tiny problems: ties, duplicate rows and columns, collinear and
    constant columns, separable classes, one class, three classes."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(3, 12)), int(rng.integers(1, 5))
    X = np.round(rng.normal(size=(n, d)), 1)  # ties
    K = 3 if seed % 5 == 0 else 2
    y = rng.integers(0, K, size=n)
    kind = seed % 7
    if kind == 1 and d > 1:
        X[:, 1] = X[:, 0]  # duplicate column
    elif kind == 2 and d > 2:
        X[:, 2] = X[:, 0] + X[:, 1]  # collinear
    elif kind == 3:
        X[:, 0] = 2.0  # constant column
    elif kind == 4:
        X[1:3], y[1:3] = X[0], y[0]  # duplicate rows
    elif kind == 6:
        y = (X[:, 0] > np.median(X[:, 0])).astype(int)  # separable
    return X, y


@pytest.mark.parametrize("l1_ratio", [0.0, 0.5, 1.0])
def test_many_degenerate_problems_no_crash_and_no_worse_than_sklearn(
    l1_ratio,
):
    """F(ours) ≤ F(sklearn) + r_oursᵀ(θ_ours - θ_sklearn) by convexity, for
    r_ours our subgradient: a bound from our stopping rule alone."""
    for seed in range(60):
        X, y = degenerate_classification_problems(seed)
        C = 10.0 ** np.random.default_rng(seed).uniform(-4, 2)  # tiny C too
        if len(np.unique(y)) < 2:
            with pytest.raises(ValueError, match="one class"):
                LogisticRegression(l1_ratio=l1_ratio).fit(X, y)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # convergence on separable data
            ours = LogisticRegression(C=C, l1_ratio=l1_ratio).fit(X, y)
            ref = sk.LogisticRegression(
                C=C,
                l1_ratio=l1_ratio,
                solver="saga" if l1_ratio > 0 else "lbfgs",
                max_iter=5000,
            ).fit(X, y)
        assert np.all(np.isfinite(parameters(ours)))
        F_ours, r_ours = penalised_objective(
            ours.coef_, ours.intercept_, X, y, C, l1_ratio
        )
        F_ref, _ = penalised_objective(
            ref.coef_, ref.intercept_, X, y, C, l1_ratio
        )
        distance = np.linalg.norm(parameters(ours) - parameters(ref))
        slack = np.linalg.norm(r_ours) * distance + 1e-12 * (1 + F_ref)
        assert F_ours <= F_ref + slack, seed


@pytest.mark.parametrize(
    "solver, l1_ratio",
    [("saga", 0.0), ("saga", 0.5), ("saga", 1.0), ("liblinear", 0.0)]
    + [("liblinear", 1.0)],
)
def test_saga_and_liblinear_survive_degenerate_problems(solver, l1_ratio):
    """The same tiny problems (ties, duplicates, constant and collinear
    columns, separable classes, C down to 1e-4): no crash, finite
    parameters, labels from y. (Their objectives: test_logistic_saga.py
    and test_logistic_liblinear.py.)"""
    for seed in range(60):
        X, y = degenerate_classification_problems(seed)
        C = 10.0 ** np.random.default_rng(seed).uniform(-4, 2)
        model = LogisticRegression(
            C=C, l1_ratio=l1_ratio, solver=solver, random_state=seed
        )
        if len(np.unique(y)) < 2 or (
            solver == "liblinear" and len(np.unique(y)) > 2
        ):
            with pytest.raises(ValueError):
                model.fit(X, y)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(X, y)
        assert np.all(np.isfinite(parameters(model))), seed
        assert set(model.predict(X)) <= set(y), seed


# --- sparse X ----------------------------------------------------------------------------


def sparsified(name):
    """y, and DATA[name]'s X with its entries of magnitude below 0.5 set to
    0 (about 40 % of them for standardised features), dense, CSR and CSC
    (a scipy.sparse matrix and a sparse array)."""
    X, y = DATA[name]
    X = np.where(np.abs(X) < 0.5, 0.0, X)
    return y, {
        "dense": X,
        "csr": sparse.csr_matrix(X),
        "csc": sparse.csc_array(X),
    }


@pytest.mark.parametrize(
    "name, params",
    [
        ("breast_cancer", {}),
        ("wine", {}),
        ("breast_cancer", {"solver": "lbfgs", "max_iter": 2000}),
        ("wine", {"solver": "lbfgs", "max_iter": 2000}),
        ("noisy", {"solver": "gd", "tol": 1e-7, "max_iter": 20000}),
        ("noisy", {"C": np.inf}),
        ("breast_cancer", {"fit_intercept": False}),
        ("wine", {"fit_intercept": False}),
    ],
)
def test_sparse_X_fits_the_minimiser_of_dense_X(name, params):
    """Dense, CSR and CSC X give one objective, so three fits within |grad
    F| / mu of its minimiser (gradient_and_curvature), scikit-learn's
    Newton-Cholesky run to machine precision on the dense X, and so within
    the sum of two such radii of each other, however the sparse and dense
    products round."""
    y, formats = sparsified(name)
    X = formats["dense"]
    params = {"tol": 1e-10, **params}
    C = params.get("C", 1.0)
    fit_intercept = params.get("fit_intercept", True)
    ref = sklearn_reference(X, y, C=C, fit_intercept=fit_intercept)
    radius = {}
    fits = {}
    for f, A in formats.items():
        fits[f] = LogisticRegression(**params).fit(A, y)
        gradient_norm, mu, distance = gradient_and_curvature(
            fits[f], ref, X, y, C, fit_intercept
        )
        # 1e-6 would mean another objective (as in test_matches_sklearn)
        assert gradient_norm <= 1e-6
        radius[f] = 1.01 * gradient_norm / mu + 1e-12
        assert distance <= radius[f]
    for f in ("csr", "csc"):
        apart = np.linalg.norm(parameters(fits[f]) - parameters(fits["dense"]))
        assert apart <= radius[f] + radius["dense"]


@pytest.mark.parametrize(
    "name, C, l1_ratio", [("breast_cancer", 0.2, 0.5), ("wine", 0.2, 0.5)]
)
def test_sparse_X_with_an_l1_share(name, C, l1_ratio):
    """Proximal Newton on CSR and CSC X stops at a subgradient of max-norm
    tol, as on dense X, where the objective is strongly convex with modulus
    mu (its l2 share and loss curvature): two points with subgradients r
    and r' are within (|r| + |r'|) / mu of each other (mu halved: it is
    measured at one end only, as in
    test_l1_and_elastic_net_match_sklearn_saga); and the same weights are
    exactly zero, since the soft threshold zeroes a weight whose gradient
    is inside the l1 weight by more than rounding."""
    y, formats = sparsified(name)
    X = formats["dense"]
    tol = 1e-10
    fits, residuals = {}, {}
    for f, A in formats.items():
        fits[f] = LogisticRegression(C=C, l1_ratio=l1_ratio, tol=tol).fit(A, y)
        _, residuals[f] = penalised_objective(
            fits[f].coef_, fits[f].intercept_, X, y, C, l1_ratio
        )
        assert np.max(np.abs(residuals[f])) <= tol
    mu = curvature_range(fits["dense"], X, y, C, l1_ratio)[0]
    for f in ("csr", "csc"):
        apart = np.linalg.norm(parameters(fits[f]) - parameters(fits["dense"]))
        bound = np.linalg.norm(residuals[f]) + np.linalg.norm(
            residuals["dense"]
        )
        assert apart <= 2 * bound / mu
    assert np.any(fits["dense"].coef_ == 0)


@pytest.mark.parametrize("name", ["breast_cancer", "wine"])
def test_predictions_on_sparse_X_are_those_on_dense_X(name):
    """One fitted model scores sparse X as dense X up to the order of
    summation: each of the two sums x w + b of d + 1 terms is within
    (d + 1) u Σ |x_j w_j| + |b| of the exact one (u = eps / 2, the bound
    of a sum's rounding error), so they differ by at most (d + 1) eps times
    that sum; a probability moves by at most half the largest change of a
    score (the softmax's Jacobian rows have l1 norm 2 p_k (1 - p_k) <= 1/2),
    plus its own rounding, a few eps; the predicted class changes only
    where the top two scores are closer than twice the scores' bound."""
    y, formats = sparsified(name)
    X = formats["dense"]
    model = LogisticRegression().fit(X, y)
    eps = np.finfo(float).eps
    bound = (
        (X.shape[1] + 1)
        * eps
        * (np.abs(X) @ np.abs(model.coef_).T + np.abs(model.intercept_))
    ).max(axis=1)
    scores = model.decision_function(X)
    margin = top_two_margin(scores)
    for f in ("csr", "csc"):
        A = formats[f]
        change = np.abs(model.decision_function(A) - scores)
        assert np.all(change.reshape(len(X), -1) <= bound[:, None])
        assert np.all(
            np.abs(model.predict_proba(A) - model.predict_proba(X))
            <= 0.5 * bound[:, None] + 4 * eps
        )
        differ = model.predict(A) != model.predict(X)
        assert np.all(margin[differ] <= 2 * bound[differ])
    assert sparse.issparse(formats["csr"])  # not densified by the test


def test_sparse_X_is_not_modified_and_separation_is_detected():
    """The caller's sparse X keeps its entries; the separation check (a
    sparse linear programme) refuses separable sparse data as dense."""
    X, y = load_iris(return_X_y=True)
    A = sparse.csr_matrix(X)
    copy = A.copy()
    LogisticRegression().fit(A, y).predict_proba(A)
    assert (A != copy).nnz == 0 and A.format == "csr"
    with pytest.raises(ValueError, match="separable"):
        LogisticRegression(C=np.inf).fit(sparse.csc_array(X[:100]), y[:100])
    y_noisy, formats = sparsified("noisy")
    direction = separating_direction(
        sparse.hstack([formats["csr"], np.ones((len(y_noisy), 1))]),
        y_noisy,
        2,
    )
    assert direction is None


# --- end to end, in the style of scikit-learn's gallery ------------------------


def test_gallery_l1_sparsity_with_pipeline_grid_search_and_curves():
    """plot_logistic_l1_l2_sparsity and a grid search over (C, l1_ratio) on
    bundled digits (two classes), with mllib's estimator in scikit-learn's
    Pipeline, GridSearchCV, validation_curve, learning_curve and a
    display: every score agrees with scikit-learn's saga run to 1e-10."""
    import matplotlib

    matplotlib.use("Agg")
    from sklearn.metrics import RocCurveDisplay
    from sklearn.model_selection import (
        GridSearchCV,
        learning_curve,
        validation_curve,
    )
    from sklearn.pipeline import make_pipeline

    X, y = load_digits(return_X_y=True)
    X, y = X[:300], (y[:300] > 4).astype(int)
    grid = {
        # not C so small that every weight is 0: the prediction is then the
        # sign of an intercept near 0, a tie that rounding decides
        "logisticregression__C": [0.1, 0.5],
        "logisticregression__l1_ratio": [0.5, 1.0],
    }

    def search(model):
        pipe = make_pipeline(StandardScaler(), model)
        return GridSearchCV(pipe, grid, cv=3).fit(X, y)

    ours = search(LogisticRegression(tol=1e-8, max_iter=200))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = search(
            sk.LogisticRegression(solver="saga", tol=1e-10, max_iter=10_000)
        )
    np.testing.assert_allclose(
        ours.cv_results_["mean_test_score"],
        ref.cv_results_["mean_test_score"],
        atol=1 / len(y),  # at most one sample, near the boundary, may move
    )
    model = ours.best_estimator_[-1]
    # the l1 share makes the solution sparse: the smaller C, the sparser
    sparsity = [
        np.mean(
            make_pipeline(
                StandardScaler(), LogisticRegression(C=C, l1_ratio=1.0)
            )
            .fit(X, y)[-1]
            .coef_
            == 0
        )
        for C in (0.01, 0.1, 1.0)
    ]
    assert sparsity[0] > sparsity[1] > sparsity[2]
    assert np.mean(model.coef_ == 0) > 0
    pipe = make_pipeline(StandardScaler(), LogisticRegression(l1_ratio=1.0))
    train, test = validation_curve(
        pipe,
        X,
        y,
        param_name="logisticregression__C",
        param_range=[0.01, 0.1, 1.0],
        cv=3,
    )
    assert np.all(np.isfinite(test)) and train.mean(1)[-1] >= train.mean(1)[0]
    sizes, _, test = learning_curve(pipe, X, y, cv=3, train_sizes=[0.5, 1.0])
    assert np.all(np.isfinite(test))
    display = RocCurveDisplay.from_estimator(ours, X, y)
    assert 0.5 < display.roc_auc <= 1


def test_gallery_lasso_and_elastic_net_positive_with_grid_search():
    """plot_lasso_and_elasticnet's positive variant with GridSearchCV over
    alpha: the same chosen alpha and test scores as scikit-learn's."""
    from sklearn.datasets import load_diabetes
    from sklearn.model_selection import GridSearchCV

    from mllib.linear_model import ElasticNet

    X, y = load_diabetes(return_X_y=True)
    grid = {"alpha": [1e-3, 1e-2, 1e-1], "l1_ratio": [0.5, 1.0]}
    ours = GridSearchCV(ElasticNet(positive=True, tol=1e-8), grid, cv=3)
    ref = GridSearchCV(sk.ElasticNet(positive=True, tol=1e-8), grid, cv=3)
    ours.fit(X, y), ref.fit(X, y)
    assert ours.best_params_ == ref.best_params_
    np.testing.assert_allclose(
        ours.cv_results_["mean_test_score"],
        ref.cv_results_["mean_test_score"],
        rtol=1e-6,
    )
    assert np.all(ours.best_estimator_.coef_ >= 0)
