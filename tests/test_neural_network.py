"""MLPs: backpropagation against finite differences, the solvers' steps
against hand computations, and the fits against scikit-learn (the same
seed drawing the same weights, minibatches and validation split)."""

import warnings

import numpy as np
import pytest
from sample_weights import check_bad_weights_raise
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.linear_model import Ridge as SkRidge
from sklearn.neural_network import MLPClassifier as SkMLPClassifier
from sklearn.neural_network import MLPRegressor as SkMLPRegressor

from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.linear_model import LogisticRegression
from mllib.linear_model.logistic_loss import logistic_hessian, softmax_hessian
from mllib.neural_network import MLPClassifier, MLPRegressor
from mllib.neural_network.backprop import (
    flat_objective,
    glorot_uniform,
    pack,
    unpack,
)
from mllib.neural_network.multilayer_perceptron import validation_split
from mllib.neural_network.stochastic_optimizers import Adam, MomentumSGD
from mllib.optim import check_gradient


def blobs(n=60, d=3, k=2, seed=0, spread=1.5):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    X = rng.normal(size=(n, d)) + spread * rng.normal(size=(k, d))[y]
    return X, y


def smooth_regression(n=60, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, np.sin(X[:, 0]) + X[:, 1] * X[:, 2] + 0.1 * rng.normal(size=n)


@pytest.mark.parametrize(
    "activation", ["relu", "tanh", "logistic", "identity"]
)
@pytest.mark.parametrize(
    "loss, k",
    [
        ("squared_error", 1),
        ("squared_error", 2),
        ("binary_log_loss", 1),
        ("log_loss", 3),
        ("poisson", 2),
    ],
)
def test_backprop_matches_finite_differences(activation, loss, k):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(20, 3))
    Y = (
        np.eye(k)[rng.integers(k, size=20)]
        if loss == "log_loss"
        else rng.integers(3, size=(20, k)).astype(float)
        if loss in ("squared_error", "poisson")
        else rng.integers(2, size=(20, 1)).astype(float)
    )
    sizes = [3, 5, 4, k]
    theta = pack(*glorot_uniform(sizes, activation, rng))
    fun = lambda t: flat_objective(t, X, Y, sizes, activation, loss, 0.3)[0]  # noqa: E731
    grad = lambda t: flat_objective(t, X, Y, sizes, activation, loss, 0.3)[1]  # noqa: E731
    assert check_gradient(fun, grad, theta) < 1e-7
    # the check has teeth: dropping the penalty's gradient is detected
    wrong = lambda t: flat_objective(t, X, Y, sizes, activation, loss, 0.0)[1]  # noqa: E731
    assert check_gradient(fun, wrong, theta) > 1e-3


def test_pack_and_unpack_are_inverse():
    sizes = [3, 5, 2]
    coefs, intercepts = glorot_uniform(sizes, "relu", np.random.default_rng(0))
    back_coefs, back_intercepts = unpack(pack(coefs, intercepts), sizes)
    for a, b in zip(coefs + intercepts, back_coefs + back_intercepts):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "activation, factor",
    [("logistic", 2.0), ("tanh", 6.0), ("relu", 6.0), ("identity", 6.0)],
)
def test_glorot_bounds_as_scikit_learn(activation, factor):
    """U(-r, r) with r = sqrt(factor/(fan_in + fan_out)), weights and intercepts, every layer
    (scikit-learn's _init_coef): the largest draw lies just below r, never above."""
    sizes = [50, 30, 20]
    coefs, intercepts = glorot_uniform(
        sizes, activation, np.random.default_rng(0)
    )
    for W, b, fan_in, fan_out in zip(coefs, intercepts, sizes[:-1], sizes[1:]):
        r = np.sqrt(factor / (fan_in + fan_out))
        assert W.shape == (fan_in, fan_out) and b.shape == (fan_out,)
        assert 0.95 * r < np.abs(W).max() <= r
        assert np.abs(b).max() <= r
        assert (
            abs(W.var() / (r**2 / 3) - 1) < 0.15
        )  # the variance of U(-r, r) is r²/3


def from_sklearn_start(ours, sk, X, y, max_iter):
    """Fit both from scikit-learn's initial weights (its fit with max_iter=1), with L-BFGS."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk.set_params(max_iter=1).fit(X, y)
    ours.coefs_ = [W.copy() for W in sk.coefs_]
    ours.intercepts_ = [b.copy() for b in sk.intercepts_]
    sk.set_params(max_iter=max_iter, warm_start=True)
    ours.set_params(max_iter=max_iter, warm_start=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("ignore", UserWarning)
        sk.fit(X, y)
        ours.fit(X, y)


@pytest.mark.parametrize("activation", ["relu", "tanh", "logistic"])
@pytest.mark.parametrize("k", [2, 3])
def test_classifier_follows_scikit_learn_from_the_same_start(activation, k):
    X, y = blobs(k=k, seed=k)
    params = dict(
        hidden_layer_sizes=(6, 4),
        activation=activation,
        alpha=0.1,
        solver="lbfgs",
        random_state=0,
    )
    ours, sk = MLPClassifier(**params), SkMLPClassifier(**params)
    from_sklearn_start(ours, sk, X, y, max_iter=15)
    np.testing.assert_allclose(ours.loss_, sk.loss_, rtol=1e-8)
    np.testing.assert_allclose(
        ours.predict_proba(X), sk.predict_proba(X), atol=1e-7
    )
    assert ours.n_iter_ == sk.n_iter_


@pytest.mark.parametrize(
    "activation", ["relu", "tanh", "logistic", "identity"]
)
def test_regressor_follows_scikit_learn_from_the_same_start(activation):
    X, y = smooth_regression()
    params = dict(
        hidden_layer_sizes=(8,),
        activation=activation,
        alpha=0.5,
        solver="lbfgs",
        random_state=0,
    )
    ours, sk = MLPRegressor(**params), SkMLPRegressor(**params)
    from_sklearn_start(ours, sk, X, y, max_iter=15)
    np.testing.assert_allclose(ours.loss_, sk.loss_, rtol=1e-8)
    np.testing.assert_allclose(ours.predict(X), sk.predict(X), atol=1e-7)


def stopping_radius(J, J_star, H, quadratic=False):
    """How far from the minimiser L-BFGS-B's stopping rule can leave a fit
    of objective value J: it stops (as scikit-learn's MLP) once an iteration
    lowers J by less than ftol = 1e7 eps = 2.2e-9 times max(|J|, 1), a few
    such steps from the minimum, 10 ftol (asserted); with least curvature
    mu of the Hessian H at the minimiser, |theta - theta*| <= sqrt(2 (J -
    J*) / mu), exactly for a quadratic, and to 1 % (the curvature's change
    over so short a distance) otherwise."""
    ftol = 1e7 * np.finfo(float).eps
    assert J_star - 1e-12 <= J <= J_star + 10 * ftol * max(1, J_star)
    mu = np.linalg.eigvalsh(H)[0]
    radius = np.sqrt(2 * (max(J - J_star, 0.0) + 1e-12) / mu)
    return radius if quadratic else 1.01 * radius


@pytest.mark.parametrize("k", [2, 3])
def test_no_hidden_layer_is_logistic_regression(k):
    """Convex limit: J = (logistic objective)/(Cn) with alpha = 1/C, so the
    same minimum value. L-BFGS-B stops (as scikit-learn's MLP) once an
    iteration lowers J by less than ftol = 1e7 eps = 2.2e-9 times
    max(|J|, 1) = 1; a linearly converging method is then a few such steps
    from the minimum: 10 ftol. The references are Newton's method (mllib's
    and scikit-learn's), which ends at the minimiser to rounding."""
    X, y = blobs(k=k, seed=5)
    C = 0.5
    net = MLPClassifier(
        hidden_layer_sizes=(),
        solver="lbfgs",
        alpha=1 / C,
        tol=1e-10,
        max_iter=2000,
        random_state=0,
    ).fit(X, y)
    Y = y[:, None].astype(float) if k == 2 else np.eye(k)[y]
    loss = "binary_log_loss" if k == 2 else "log_loss"
    for reference in (
        LogisticRegression(C=C, tol=1e-10),
        SkLogisticRegression(C=C, solver="newton-cholesky", tol=1e-10),
    ):
        reference.fit(X, y)
        J_reference = flat_objective(
            pack([reference.coef_.T], [reference.intercept_]),
            X,
            Y,
            [X.shape[1], Y.shape[1]],
            "relu",
            loss,
            1 / C,
        )[0]
        # J is convex (the intercepts, which only enter through their
        # differences, compared with the last one subtracted), so the fits
        # are within stopping_radius of each other; a probability moves by
        # at most half the largest change of a decision value, |x, 1| times
        # that distance.
        theta_net = np.column_stack([net.coefs_[0].T, net.intercepts_[0]])
        theta_ref = np.column_stack([reference.coef_, reference.intercept_])
        X1 = np.column_stack([X, np.ones(len(X))])
        if k == 2:
            H = logistic_hessian(theta_ref[0], X1, alpha=1 / (C * len(X)))
        else:
            for theta in (theta_net, theta_ref):
                theta[:, -1] -= theta[-1, -1]
            H = softmax_hessian(theta_ref, X1, alpha=1 / (C * len(X)))
            H = H[:-1, :-1]  # the last intercept is held at 0
        distance = stopping_radius(net.loss_, J_reference, H)
        assert np.linalg.norm(theta_net - theta_ref) <= distance
        widest = np.linalg.norm(X1, axis=1).max()
        np.testing.assert_allclose(
            net.predict_proba(X),
            reference.predict_proba(X),
            atol=0.5 * widest * distance,
        )


def assert_minimises_ridge(net, X, Y, alpha):
    """Without hidden layer and with squared error the net's objective is
    J(W, b) = (|XW + 1b' - Y|^2 + alpha |W|^2) / 2n, ridge's objective over
    2n summed over the outputs, written out here; it is quadratic with
    Hessian H = [X 1]'[X 1]/n + diag(alpha/n, .., 0), so the fit is within
    stopping_radius of ridge's, not at fixed digits (one machine's L-BFGS-B
    stopped 1.3e-6 from ridge's)."""
    Y = Y.reshape(len(X), -1)
    n, d = X.shape
    ridge = SkRidge(alpha=alpha).fit(X, Y)

    def J(W, b):
        return (np.sum((X @ W + b - Y) ** 2) + alpha * np.sum(W**2)) / (2 * n)

    W, b = net.coefs_[0], net.intercepts_[0]
    # (scikit-learn's Ridge gives a 1-D coef_ for a one-column Y)
    W_ridge = ridge.coef_.reshape(-1, d).T
    b_ridge = np.reshape(ridge.intercept_, -1)
    J_net, J_ridge = J(W, b), J(W_ridge, b_ridge)
    np.testing.assert_allclose(net.loss_, J_net, rtol=1e-12)
    X1 = np.column_stack([X, np.ones(n)])
    H = X1.T @ X1 / n + np.diag(np.r_[np.full(d, alpha / n), 0.0])
    distance = stopping_radius(J_net, J_ridge, H, quadratic=True)
    theta = np.vstack([W, b])
    theta_ridge = np.vstack([W_ridge, b_ridge])
    assert np.linalg.norm(theta - theta_ridge) <= distance
    # the test has teeth: unpenalised least squares is much farther away
    least_squares = SkRidge(alpha=0.0).fit(X, Y)
    theta_ls = np.vstack(
        [
            least_squares.coef_.reshape(-1, d).T,
            np.reshape(least_squares.intercept_, -1),
        ]
    )
    assert np.linalg.norm(theta_ls - theta_ridge) > 100 * distance


def test_no_hidden_layer_is_ridge():
    X, y = smooth_regression(seed=2)
    net = MLPRegressor(
        hidden_layer_sizes=(),
        solver="lbfgs",
        alpha=3.0,
        tol=1e-10,
        max_iter=2000,
        random_state=0,
    ).fit(X, y)
    assert_minimises_ridge(net, X, y, alpha=3.0)


# --- The steps of Adam and of momentum, by hand ------------------------------


def linear_gradient(X, y, w, b, alpha):
    """Gradient of (1/2n)|Xw + b - y|^2 + (alpha/2n)|w|^2, written out."""
    n = len(X)
    r = X @ w + b - y
    return X.T @ r / n + alpha * w / n, np.array([r.mean()])


def linear_net_from(w, b, n, **params):
    """MLPRegressor without hidden layer, warm-started at (w, b), one
    full batch of the n samples per epoch (one step), no shuffling."""
    net = MLPRegressor(
        hidden_layer_sizes=(),
        batch_size=n,
        shuffle=False,
        warm_start=True,
        n_iter_no_change=10_000,
        **params,
    )
    net.coefs_, net.intercepts_ = [w[:, None].copy()], [b.copy()]
    return net


def test_adam_steps_by_hand():
    """Three Adam steps on a linear model, against Algorithm 1 of Kingma & Ba
    written out: bias-corrected moments m/(1-b1^t), v/(1-b2^t), and
    epsilon/sqrt(1-b2^t) (scikit-learn folds the corrections into the rate,
    which moves epsilon so)."""
    X, y = smooth_regression(n=12, seed=10)
    w, b = np.array([0.3, -0.2, 0.5]), np.array([0.1])
    eta, b1, b2, eps, alpha = 0.05, 0.8, 0.99, 1e-3, 0.7
    net = linear_net_from(
        w,
        b,
        len(X),
        solver="adam",
        learning_rate_init=eta,
        beta_1=b1,
        beta_2=b2,
        epsilon=eps,
        alpha=alpha,
        max_iter=3,
    )
    with pytest.warns(ConvergenceWarning):
        net.fit(X, y)
    theta = np.concatenate([w, b])
    m = v = np.zeros(4)
    for t in (1, 2, 3):
        g = np.concatenate(linear_gradient(X, y, theta[:3], theta[3:], alpha))
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g**2
        m_hat, v_hat = m / (1 - b1**t), v / (1 - b2**t)
        theta = theta - eta * m_hat / (
            np.sqrt(v_hat) + eps / np.sqrt(1 - b2**t)
        )
        if t == 1:  # the first step is eta against the gradient's sign
            step = np.abs(theta - np.concatenate([w, b]))
            slack = eta * eps / (np.sqrt(1 - b2) * np.abs(g).min())
            assert np.all(np.abs(step - eta) < slack)
    np.testing.assert_allclose(net.coefs_[0][:, 0], theta[:3], rtol=1e-13)
    np.testing.assert_allclose(net.intercepts_[0], theta[3:], rtol=1e-13)


@pytest.mark.parametrize("nesterov", [False, True])
def test_momentum_steps_by_hand(nesterov):
    """Four SGD steps with momentum mu. Classical: v <- mu v - eta g(theta),
    theta <- theta + v. Nesterov, as Nesterov wrote it: the gradient at the
    look-ahead point theta + mu v; the net stores that look-ahead point
    phi = theta + mu v (Bengio et al. 2013, eq. 7), a different route to
    the same iterates."""
    X, y = smooth_regression(n=12, seed=11)
    w, b = np.array([0.3, -0.2, 0.5]), np.array([0.1])
    eta, mu, alpha = 0.2, 0.9, 0.4
    net = linear_net_from(
        w,
        b,
        len(X),
        solver="sgd",
        learning_rate_init=eta,
        momentum=mu,
        nesterovs_momentum=nesterov,
        alpha=alpha,
        max_iter=4,
    )
    with pytest.warns(ConvergenceWarning):
        net.fit(X, y)
    theta, velocity = np.concatenate([w, b]), np.zeros(4)
    for _ in range(4):
        at = theta + mu * velocity if nesterov else theta
        g = np.concatenate(linear_gradient(X, y, at[:3], at[3:], alpha))
        velocity = mu * velocity - eta * g
        theta = theta + velocity
    stored = theta + mu * velocity if nesterov else theta
    np.testing.assert_allclose(net.coefs_[0][:, 0], stored[:3], rtol=1e-12)
    np.testing.assert_allclose(net.intercepts_[0], stored[3:], rtol=1e-12)


def test_invscaling_and_adaptive_schedules():
    """invscaling: eta0/(s+1)^p after s samples, set at each epoch's end.
    adaptive: divided by 5 at each stall, stop once at most 1e-6."""
    optimizer = MomentumSGD([np.zeros(2)], 0.5, "invscaling", power_t=0.25)
    for n_seen in (30, 60, 90):
        optimizer.end_epoch(n_seen)
        assert optimizer.learning_rate == 0.5 / (n_seen + 1) ** 0.25
    adaptive = MomentumSGD([np.zeros(2)], 1e-3, "adaptive")
    reductions = 0
    while not adaptive.stop("stalled.", verbose=False):
        reductions += 1
    # 1e-3 / 5^k <= 1e-6 first at k = 5 (5^4 = 625 < 1000 < 3125)
    assert reductions == 5
    assert adaptive.learning_rate == pytest.approx(1e-3 / 5**5)
    assert MomentumSGD([np.zeros(2)], 1e-3, "constant").stop("", False)
    assert Adam([np.zeros(2)]).stop("", False)


# --- Convergence where the optimum is known ----------------------------------


def test_full_batch_momentum_and_adam_reach_ridge():
    """Without hidden layer J is ridge regression's objective over 2n. Full
    batch heavy-ball SGD converges linearly (a quadratic, a step below
    2(1 + mu)/L), and so does full-batch Adam here, to rounding by about
    700 steps. Adam is then stopped at 800: once the gradient is rounding
    noise, its second moment v decays as beta_2^t until the step
    eta m / (sqrt(v) + epsilon) is no longer small, and near step 1200 it
    is kicked 1e-4 away (how far depends on the rounding, so on the
    machine) before converging again."""
    X, y = smooth_regression(n=50, seed=12)
    ridge = SkRidge(alpha=2.0).fit(X, y)
    common = dict(
        hidden_layer_sizes=(),
        alpha=2.0,
        batch_size=50,
        tol=0.0,
        n_iter_no_change=10_000,
        random_state=0,
    )
    sgd = MLPRegressor(
        solver="sgd", learning_rate_init=0.05, max_iter=2000, **common
    )
    adam = MLPRegressor(
        solver="adam", learning_rate_init=0.01, max_iter=800, **common
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sgd.fit(X, y)
        adam.fit(X, y)
    np.testing.assert_allclose(sgd.coefs_[0][:, 0], ridge.coef_, atol=1e-10)
    np.testing.assert_allclose(adam.coefs_[0][:, 0], ridge.coef_, atol=1e-10)
    np.testing.assert_allclose(
        adam.intercepts_[0][0], ridge.intercept_, atol=1e-10
    )


def test_minibatch_penalty_is_scikit_learns():
    """Each minibatch B of size b steps on J_B, whose penalty is alpha/(2b)
    (scikit-learn's): in expectation the gradient of the mean loss plus
    (alpha/b) W, so SGD settles at Ridge(alpha n / b), not Ridge(alpha)."""
    X, y = smooth_regression(n=100, seed=3)
    alpha, b = 10.0, 20
    net = MLPRegressor(
        hidden_layer_sizes=(),
        solver="sgd",
        momentum=0.0,
        alpha=alpha,
        batch_size=b,
        learning_rate_init=0.01,
        max_iter=400,
        tol=0.0,
        n_iter_no_change=400,
        random_state=0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X, y)
    settled = SkRidge(alpha=alpha * len(X) / b).fit(X, y).coef_
    unscaled = SkRidge(alpha=alpha).fit(X, y).coef_
    assert np.abs(settled - unscaled).max() > 0.1  # the test has teeth
    np.testing.assert_allclose(net.coefs_[0][:, 0], settled, atol=0.02)
    assert len(net.loss_curve_) == net.n_iter_ == 400


@pytest.mark.parametrize("solver", ["sgd", "adam"])
def test_stochastic_solvers_train_a_hidden_layer(solver):
    X, y = blobs(n=200, k=3, seed=4, spread=4.0)
    net = MLPClassifier(
        hidden_layer_sizes=(10,),
        solver=solver,
        learning_rate_init=0.01,
        batch_size=16,
        max_iter=300,
        random_state=0,
    ).fit(X, y)
    assert net.score(X, y) > 0.9
    assert net.loss_curve_[-1] < net.loss_curve_[0]
    assert net.loss_ == net.loss_curve_[-1]
    assert net.best_loss_ == min(net.loss_curve_)
    assert net.t_ == 200 * net.n_iter_
    # stopped by its rule: more than n_iter_no_change epochs without a gain
    # of tol over the best loss (the best was reached by then)
    assert net.n_iter_ < 300
    tail = net.loss_curve_[-11:]
    assert all(loss > net.best_loss_ - 1e-4 for loss in tail)


# --- The same numbers as scikit-learn for the same seed ----------------------


def regression_targets(k, seed=13):
    X, y = smooth_regression(n=90, seed=seed)
    if k == 1:
        return X, y
    return X, np.column_stack([y, X[:, 0] - 2 * X[:, 1] ** 2][:k])


CASES = {
    "binary": lambda: blobs(n=90, k=2, seed=14),
    "three classes": lambda: blobs(n=90, k=3, seed=15),
    "regression": lambda: regression_targets(1),
    "poisson": lambda: (
        regression_targets(1)[0],
        np.random.default_rng(16).poisson(
            np.exp(0.5 * regression_targets(1)[0][:, 0])
        ),
    ),
}


def fit_pair(case, **params):
    X, y = CASES[case]()
    if case in ("binary", "three classes"):
        pair = MLPClassifier(**params), SkMLPClassifier(**params)
    else:
        if case == "poisson":
            params["loss"] = "poisson"
        pair = MLPRegressor(**params), SkMLPRegressor(**params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for model in pair:
            model.fit(X, y)
    return pair, X


def assert_same_fit(ours, sk, X):
    """The same arithmetic in another order (scikit-learn divides by n after
    the products, mllib before). The stochastic solvers then agree to
    rounding carried along a few dozen epochs (measured: 1e-14): 1e-8 leaves
    a wide margin. L-BFGS builds its curvature from differences of nearby
    gradients, which magnify rounding in directions where J is flat: the
    weights drift there (measured: up to 6e-6) while J does not. So for it,
    J to 10 ftol (scipy's stopping rule, as in the test above) and the
    outputs to 1e-5."""
    assert ours.n_iter_ == sk.n_iter_
    if not hasattr(sk, "loss_curve_"):  # L-BFGS
        ftol = 1e7 * np.finfo(float).eps
        assert abs(ours.loss_ - sk.loss_) <= 10 * ftol * max(1, sk.loss_)
        np.testing.assert_allclose(ours.predict(X), sk.predict(X), atol=1e-5)
        return
    for a, b in zip(
        ours.coefs_ + ours.intercepts_, sk.coefs_ + sk.intercepts_
    ):
        np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(ours.loss_curve_, sk.loss_curve_, rtol=1e-8)
    assert ours.t_ == sk.t_
    np.testing.assert_allclose(ours.loss_, sk.loss_, rtol=1e-8)
    np.testing.assert_allclose(ours.predict(X), sk.predict(X), atol=1e-8)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize(
    "solver_params",
    [
        dict(solver="adam"),
        dict(solver="adam", batch_size=16, shuffle=False),
        dict(solver="sgd", learning_rate_init=0.05, batch_size=32),
        dict(solver="sgd", learning_rate_init=0.05, nesterovs_momentum=False),
        dict(
            solver="sgd",
            learning_rate="invscaling",
            learning_rate_init=0.1,
            power_t=0.3,
            batch_size=20,
        ),
        dict(
            solver="sgd",
            learning_rate="adaptive",
            learning_rate_init=0.05,
            n_iter_no_change=2,
        ),
        dict(solver="lbfgs"),
    ],
    ids=[
        "adam",
        "adam-ordered",
        "nesterov",
        "momentum",
        "invscaling",
        "adaptive",
        "lbfgs",
    ],
)
def test_same_seed_same_fit_as_scikit_learn(case, solver_params):
    """An int random_state draws scikit-learn's stream: initial weights,
    then the shuffles of every epoch; so every solver follows scikit-learn's
    iterates and stops at the same epoch."""
    (ours, sk), X = fit_pair(
        case,
        hidden_layer_sizes=(7, 5),
        activation="tanh",
        alpha=1e-3,
        max_iter=60,
        random_state=3,
        **solver_params,
    )
    assert_same_fit(ours, sk, X)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("solver", ["adam", "sgd"])
def test_early_stopping_as_scikit_learn(case, solver):
    """The validation split (stratified for two classes) is drawn after the
    initial weights, from the same stream: the same validation scores, the
    same stopping epoch, and the best epoch's parameters returned."""
    (ours, sk), X = fit_pair(
        case,
        hidden_layer_sizes=(6,),
        activation="relu",
        solver=solver,
        learning_rate_init=0.01,
        early_stopping=True,
        validation_fraction=0.2,
        n_iter_no_change=4,
        max_iter=150,
        random_state=5,
    )
    assert_same_fit(ours, sk, X)
    np.testing.assert_allclose(
        ours.validation_scores_, sk.validation_scores_, rtol=1e-8
    )
    assert ours.best_validation_score_ == max(ours.validation_scores_)
    assert ours.best_loss_ is None and sk.best_loss_ is None


def test_early_stopping_returns_the_best_epoch():
    """Rebuild the validation split from the same stream (weights first), and
    score the returned network on it: the best validation score."""
    X, y = smooth_regression(n=120, seed=17)
    net = MLPRegressor(
        hidden_layer_sizes=(8,),
        early_stopping=True,
        validation_fraction=0.25,
        learning_rate_init=0.02,
        n_iter_no_change=5,
        max_iter=300,
        random_state=7,
    ).fit(X, y)
    rng = np.random.RandomState(7)
    glorot_uniform([3, 8, 1], "relu", rng)
    train, validation = validation_split(120, 0.25, rng)
    assert len(validation) == 30 and len(np.union1d(train, validation)) == 120
    np.testing.assert_allclose(
        net.score(X[validation], y[validation]),
        net.best_validation_score_,
        rtol=1e-12,
    )
    best = int(np.argmax(net.validation_scores_))
    assert net.n_iter_ == len(net.validation_scores_) < 300
    # stopped after more than n_iter_no_change epochs without a gain of tol
    assert all(
        s < net.best_validation_score_ + net.tol
        for s in net.validation_scores_[best + 1 :]
    )
    assert len(net.validation_scores_) - 1 - best > 5


def test_stratified_validation_split_draws_scikit_learns_split():
    from sklearn.model_selection import train_test_split

    labels = np.array([0] * 13 + [1] * 8 + [0] * 4)
    for seed in range(5):
        train, validation = validation_split(
            25, 0.3, np.random.RandomState(seed), labels
        )
        sk_train, sk_validation = train_test_split(
            np.arange(25),
            test_size=0.3,
            random_state=np.random.RandomState(seed),
            stratify=labels,
        )
        np.testing.assert_array_equal(train, sk_train)
        np.testing.assert_array_equal(validation, sk_validation)


# --- Several outputs, and the Poisson loss -----------------------------------


def test_multi_output_regression_is_ridge_per_output_without_hidden_layer():
    X, Y = regression_targets(2, seed=18)
    net = MLPRegressor(
        hidden_layer_sizes=(),
        solver="lbfgs",
        alpha=1.5,
        tol=1e-10,
        max_iter=2000,
    ).fit(X, Y)
    assert net.n_outputs_ == 2 and net.predict(X).shape == (90, 2)
    assert_minimises_ridge(net, X, Y, alpha=1.5)


def test_multi_output_loss_sums_over_outputs():
    """scikit-learn's reported squared loss averages over the k outputs while
    its gradient (the same as here) sums (scikit-learn #8349): the iterates
    agree, the data term of loss_ is k times scikit-learn's."""
    X, Y = regression_targets(2, seed=19)
    params = dict(
        hidden_layer_sizes=(5,),
        alpha=0.0,
        batch_size=90,
        max_iter=1,
        shuffle=False,
        random_state=0,
    )
    ours, sk = MLPRegressor(**params), SkMLPRegressor(**params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours.fit(X, Y)
        sk.fit(X, Y)
    np.testing.assert_allclose(ours.loss_, 2 * sk.loss_, rtol=1e-12)
    for a, b in zip(ours.coefs_, sk.coefs_):
        np.testing.assert_allclose(a, b, rtol=1e-10)
    # and the pair (J, grad J) is consistent here, by central differences
    sizes = [3, 5, 2]
    theta = pack(*glorot_uniform(sizes, "relu", np.random.default_rng(2)))

    def objective(t):
        return flat_objective(t, X, Y, sizes, "relu", "squared_error", 0.1)

    assert (
        check_gradient(
            lambda t: objective(t)[0], lambda t: objective(t)[1], theta
        )
        < 1e-7
    )


def test_single_column_y_warns_and_predicts_1d():
    from sklearn.exceptions import DataConversionWarning

    X, y = smooth_regression(seed=20)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("error", DataConversionWarning)
        with pytest.raises(DataConversionWarning):
            MLPRegressor(solver="lbfgs").fit(X, y[:, None])
        warnings.simplefilter("ignore", DataConversionWarning)
        net = MLPRegressor(
            hidden_layer_sizes=(3,), solver="lbfgs", random_state=0
        ).fit(X, y[:, None])
    assert net.predict(X).shape == (60,) and net.n_outputs_ == 1


def test_poisson_without_hidden_layer_is_poisson_regression():
    """J = (1/n) sum of half deviances + alpha/(2n)|w|^2 is scikit-learn's
    PoissonRegressor objective with its alpha = alpha/n."""
    from sklearn.linear_model import PoissonRegressor as SkPoisson

    X, _ = smooth_regression(n=80, seed=21)
    y = np.random.default_rng(21).poisson(
        np.exp(0.4 * X[:, 0] - 0.3 * X[:, 1])
    )
    net = MLPRegressor(
        loss="poisson",
        hidden_layer_sizes=(),
        solver="lbfgs",
        alpha=2.0,
        tol=1e-10,
        max_iter=2000,
    ).fit(X, y)
    glm = SkPoisson(
        alpha=2.0 / 80, solver="newton-cholesky", tol=1e-12, max_iter=1000
    ).fit(X, y)  # Newton: the minimiser to rounding
    assert net.out_activation_ == "exp"
    J_glm = flat_objective(
        pack([glm.coef_[:, None]], [np.array([glm.intercept_])]),
        X,
        y[:, None].astype(float),
        [3, 1],
        "identity",
        "poisson",
        2.0,
    )[0]
    # J is convex with Hessian X1' diag(e^z) X1 / n + alpha/n on the
    # weights, so the fits are within stopping_radius of each other, and a
    # prediction e^z moves by a factor at most e^(|x, 1| distance)
    X1 = np.column_stack([X, np.ones(len(X))])
    curvature = glm.predict(X)
    H = X1.T @ (curvature[:, None] * X1) / len(X)
    H[np.diag_indices(3)] += 2.0 / len(X)
    distance = stopping_radius(net.loss_, J_glm, H)
    theta_net = np.r_[net.coefs_[0][:, 0], net.intercepts_[0]]
    theta_glm = np.r_[glm.coef_, glm.intercept_]
    assert np.linalg.norm(theta_net - theta_glm) <= distance
    widest = np.linalg.norm(X1, axis=1).max()
    np.testing.assert_allclose(
        net.predict(X), glm.predict(X), rtol=np.expm1(widest * distance)
    )


# --- Printing, warnings, errors ----------------------------------------------


def test_verbose_prints_the_iterations(capsys):
    X, y = blobs(seed=22)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        MLPClassifier(
            hidden_layer_sizes=(3,),
            max_iter=3,
            verbose=True,
            early_stopping=True,
            random_state=0,
        ).fit(X, y)
        MLPClassifier(
            hidden_layer_sizes=(3,),
            solver="lbfgs",
            max_iter=3,
            verbose=True,
            random_state=0,
        ).fit(X, y)
        out = capsys.readouterr().out
        MLPClassifier(hidden_layer_sizes=(3,), random_state=0).fit(X, y)
    assert out.count("Validation score:") == 3
    assert out.count("Iteration 1, loss =") == 2
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("solver", ["lbfgs", "sgd", "adam"])
def test_convergence_warning_at_max_iter(solver):
    X, y = blobs(seed=6)
    with pytest.warns(ConvergenceWarning):
        MLPClassifier(
            hidden_layer_sizes=(5,), solver=solver, max_iter=2, random_state=0
        ).fit(X, y)


def test_random_state_makes_fits_repeatable():
    X, y = blobs(seed=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for solver in ("lbfgs", "adam"):
            a, b = (
                MLPClassifier(
                    hidden_layer_sizes=(5,), solver=solver, random_state=3
                ).fit(X, y)
                for _ in range(2)
            )
            np.testing.assert_array_equal(a.coefs_[0], b.coefs_[0])
        a, b = (
            MLPClassifier(
                hidden_layer_sizes=(5,), random_state=np.random.default_rng(3)
            ).fit(X, y)
            for _ in range(2)
        )
    np.testing.assert_array_equal(a.coefs_[0], b.coefs_[0])


def test_labels_are_mapped_back():
    X, y = blobs(seed=8, spread=4.0)
    labels = np.array(["no", "yes"])[y]
    net = MLPClassifier(
        hidden_layer_sizes=(4,), solver="lbfgs", random_state=0
    ).fit(X, labels)
    assert set(net.predict(X)) <= {"no", "yes"}
    assert net.score(X, labels) > 0.9


@pytest.mark.parametrize(
    "params",
    [
        dict(hidden_layer_sizes=(0,)),
        dict(hidden_layer_sizes=(2.5,)),
        dict(activation="softplus"),
        dict(solver="newton"),
        dict(learning_rate="optimal"),
        dict(alpha=-1.0),
        dict(learning_rate_init=0.0),
        dict(power_t=-0.5),
        dict(max_iter=0),
        dict(tol=-1e-4),
        dict(batch_size=0),
        dict(momentum=1.5),
        dict(nesterovs_momentum="yes"),
        dict(shuffle=1),
        dict(early_stopping=True, validation_fraction=0.0),
        dict(validation_fraction=1.0),
        dict(beta_1=1.0),
        dict(beta_2=-0.1),
        dict(epsilon=0.0),
        dict(n_iter_no_change=0),
        dict(max_fun=0),
        dict(random_state="seed"),
    ],
)
def test_bad_parameters_raise(params):
    X, y = blobs()
    with pytest.raises(ValueError):
        MLPClassifier(**params).fit(X, y)


def test_bad_data_raise():
    X, y = blobs()
    with pytest.raises(ValueError):
        MLPClassifier().fit(X, y + 0.5)  # continuous labels
    with pytest.raises(ValueError, match="multilabel"):
        MLPClassifier().fit(X, np.column_stack([y, 1 - y]))
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError):
        MLPRegressor().fit(X_nan, y)
    with pytest.raises(ValueError, match="non-negative"):
        MLPRegressor(loss="poisson").fit(X, y - 1.0)
    with pytest.raises(ValueError, match="loss"):
        MLPRegressor(loss="absolute_error").fit(X, y)
    with pytest.raises(ValueError, match="too small"):  # 1 validation row
        MLPRegressor(early_stopping=True).fit(X[:8], y[:8])
    with pytest.raises(ValueError, match="stratified"):  # one '1' in 12
        MLPClassifier(early_stopping=True, validation_fraction=0.2).fit(
            X[:12], np.r_[np.zeros(11), 1]
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("ignore", RuntimeWarning)  # the overflow
        with pytest.warns(UserWarning, match="batch_size"):
            MLPRegressor(batch_size=1000, max_iter=3).fit(X, y)
        with pytest.raises(ValueError, match="non-finite"):
            MLPRegressor(
                solver="sgd", learning_rate_init=10.0, max_iter=20
            ).fit(X * 1e3, y)
    net = MLPRegressor(hidden_layer_sizes=(3,), random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X, y)
    with pytest.raises(ValueError):
        net.predict(X[:, :2])
    warm = MLPRegressor(
        hidden_layer_sizes=(4,), warm_start=True, max_iter=5, random_state=0
    )
    with pytest.warns(ConvergenceWarning):
        warm.fit(X, y)
    with pytest.raises(ValueError, match="warm_start"):
        warm.set_params(hidden_layer_sizes=(5,)).fit(X, y)


@pytest.mark.parametrize("Estimator", [MLPClassifier, MLPRegressor])
def test_not_fitted(Estimator):
    with pytest.raises(NotFittedError):
        Estimator().predict(np.zeros((2, 3)))


@pytest.mark.parametrize("solver", ["lbfgs", "sgd", "adam"])
def test_inputs_are_not_modified(solver):
    X, y = blobs(seed=9)
    X0, y0 = X.copy(), y.copy()
    net = MLPClassifier(
        hidden_layer_sizes=(4,), solver=solver, max_iter=5, random_state=0
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X, y)
        before, before_copy = net.coefs_[0], net.coefs_[0].copy()
        net.set_params(warm_start=True).fit(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(
        before, before_copy
    )  # warm start read coefs_ without writing to them
    assert not np.array_equal(before, net.coefs_[0])  # and trained further


def test_warm_start_continues_scikit_learns_curves():
    """A second stochastic fit with warm_start continues loss_curve_ and t_
    (and restarts the stream and the optimizer), as scikit-learn's."""
    X, y = blobs(n=80, seed=23)
    params = dict(
        hidden_layer_sizes=(4,), max_iter=5, warm_start=True, random_state=1
    )
    ours, sk = MLPClassifier(**params), SkMLPClassifier(**params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for _ in range(2):
            ours.fit(X, y)
            sk.fit(X, y)
    assert len(ours.loss_curve_) == 10 and ours.t_ == 800
    assert_same_fit(ours, sk, X)


# --- Sample weights ----------------------------------------------------------


def weights_for(n, seed):
    """Positive weights, spread over a factor of 15, with a few zeros."""
    w = np.random.default_rng(seed).uniform(0.2, 3.0, n)
    w[::11] = 0.0
    return w


@pytest.mark.parametrize("loss, k", [("squared_error", 2), ("log_loss", 3)])
def test_weighted_objective_is_the_repeated_data_objective(loss, k):
    """Integer weights are repeated rows, and a zero weight drops the row:
    the weighted objective and its gradient equal those of the data so
    expanded, at any parameters (the penalty's S is the expanded n)."""
    rng = np.random.default_rng(30)
    X = rng.normal(size=(25, 3))
    Y = np.eye(k)[rng.integers(k, size=25)]
    counts = rng.integers(0, 4, size=25)
    sizes = [3, 4, k]
    theta = pack(*glorot_uniform(sizes, "tanh", rng))
    weighted = flat_objective(
        theta, X, Y, sizes, "tanh", loss, 0.7, counts.astype(float)
    )
    expanded = flat_objective(
        theta,
        np.repeat(X, counts, axis=0),
        np.repeat(Y, counts, axis=0),
        sizes,
        "tanh",
        loss,
        0.7,
    )
    np.testing.assert_allclose(weighted[0], expanded[0], rtol=1e-13)
    np.testing.assert_allclose(weighted[1], expanded[1], rtol=1e-12)


def test_weighted_gradient_matches_finite_differences():
    rng = np.random.default_rng(31)
    X, Y = rng.normal(size=(20, 3)), rng.normal(size=(20, 2))
    w = weights_for(20, 32)
    sizes = [3, 5, 2]
    theta = pack(*glorot_uniform(sizes, "relu", rng))

    def objective(t, weights):
        return flat_objective(
            t, X, Y, sizes, "relu", "squared_error", 0.3, weights
        )

    assert (
        check_gradient(
            lambda t: objective(t, w)[0], lambda t: objective(t, w)[1], theta
        )
        < 1e-7
    )
    # the check bites: the unweighted gradient is not the weighted one
    assert (
        check_gradient(
            lambda t: objective(t, w)[0],
            lambda t: objective(t, None)[1],
            theta,
        )
        > 1e-3
    )


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize(
    "solver_params",
    [
        dict(solver="adam"),
        dict(solver="sgd", learning_rate_init=0.05, batch_size=32),
        dict(solver="adam", early_stopping=True, validation_fraction=0.2),
        dict(solver="lbfgs"),
    ],
    ids=["adam", "sgd", "early-stopping", "lbfgs"],
)
def test_sample_weight_as_scikit_learn(case, solver_params):
    """scikit-learn's weighted objective (weighted mean loss, penalty over
    the batch's total weight; a weighted validation score): the same
    iterates from the same seed."""
    X, y = CASES[case]()
    w = weights_for(len(y), 33)
    params = dict(
        hidden_layer_sizes=(6,),
        activation="tanh",
        alpha=1e-3,
        max_iter=40,
        random_state=4,
        **solver_params,
    )
    if case in ("binary", "three classes"):
        ours, sk = MLPClassifier(**params), SkMLPClassifier(**params)
    else:
        if case == "poisson":
            params["loss"] = "poisson"
        ours, sk = MLPRegressor(**params), SkMLPRegressor(**params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours.fit(X, y, sample_weight=w)
        sk.fit(X, y, sample_weight=w)
    assert_same_fit(ours, sk, X)
    if params.get("early_stopping"):
        np.testing.assert_allclose(
            ours.validation_scores_, sk.validation_scores_, rtol=1e-8
        )
    # and the weights matter: unweighted, the fit is another one
    unweighted = type(ours)(**params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        unweighted.fit(X, y)
    assert ours.loss_ != pytest.approx(unweighted.loss_, rel=1e-3)


@pytest.mark.parametrize("Estimator", [MLPClassifier, MLPRegressor])
def test_bad_sample_weight_raises(Estimator):
    X, y = blobs(n=20, seed=34)
    check_bad_weights_raise(Estimator(max_iter=2), X, y)


# --- partial_fit ---------------------------------------------------------------


@pytest.mark.parametrize(
    "solver_params",
    [
        dict(solver="adam"),
        dict(solver="sgd", learning_rate="invscaling", learning_rate_init=0.1),
        dict(
            solver="sgd",
            learning_rate="adaptive",
            learning_rate_init=0.05,
            n_iter_no_change=1,
        ),
    ],
    ids=["adam", "invscaling", "adaptive"],
)
@pytest.mark.parametrize("case", ["three classes", "regression"])
def test_partial_fit_as_scikit_learn(case, solver_params):
    """One epoch per call, the optimizer's moments, velocities and rate
    carried over, the stream restarted from the seed on each call (so only
    the first call draws weights); weighted batches too."""
    X, y = CASES[case]()
    w = weights_for(len(y), 35)
    params = dict(hidden_layer_sizes=(5,), random_state=6, **solver_params)
    if case == "three classes":
        ours, sk = MLPClassifier(**params), SkMLPClassifier(**params)
        extra = dict(classes=np.unique(y))
    else:
        ours, sk = MLPRegressor(**params), SkMLPRegressor(**params)
        extra = {}
    for start in range(0, 90, 20):  # the last batch is short
        rows = slice(start, start + 20)
        for model in (ours, sk):
            model.partial_fit(X[rows], y[rows], sample_weight=w[rows], **extra)
    assert ours.n_iter_ == 1 and len(ours.loss_curve_) == 5
    assert ours.t_ == 90
    assert_same_fit(ours, sk, X)


def test_partial_fit_on_all_data_is_one_epoch_of_fit():
    X, y = blobs(n=90, k=3, seed=36)
    params = dict(hidden_layer_sizes=(5,), random_state=7, max_iter=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fitted = MLPClassifier(**params).fit(X, y)
    stepped = MLPClassifier(**params).partial_fit(X, y, classes=[0, 1, 2])
    for a, b in zip(fitted.coefs_, stepped.coefs_):
        np.testing.assert_array_equal(a, b)


def test_partial_fit_needs_a_stochastic_solver_and_its_classes():
    X, y = blobs(n=30, k=3, seed=37)
    assert not hasattr(MLPClassifier(solver="lbfgs"), "partial_fit")
    assert not hasattr(MLPRegressor(solver="lbfgs"), "partial_fit")
    with pytest.raises(AttributeError, match="not stochastic"):
        MLPRegressor(solver="lbfgs").partial_fit(X, y)
    with pytest.raises(ValueError, match="first call"):
        MLPClassifier().partial_fit(X, y)
    with pytest.raises(ValueError, match="early_stopping"):
        MLPClassifier(early_stopping=True).partial_fit(X, y, classes=[0, 1, 2])
    net = MLPClassifier(random_state=0).partial_fit(X, y, classes=[0, 1, 2])
    with pytest.raises(ValueError, match="features"):
        net.partial_fit(X[:, :2], y)
    with pytest.raises(ValueError, match="not in classes_"):
        net.partial_fit(X, y + 1)
    with pytest.raises(ValueError, match="not the same"):
        net.partial_fit(X, y, classes=[0, 1])
    # a batch may hold some of the classes only
    net.partial_fit(X[y == 0], y[y == 0])
    assert net.predict_proba(X).shape == (30, 3)


def test_warm_start_refuses_other_classes():
    X, y = blobs(n=30, k=3, seed=38)
    net = MLPClassifier(warm_start=True, max_iter=3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X, y)
        with pytest.raises(ValueError, match="same classes"):
            net.fit(X, np.where(y == 2, 5, y))


@pytest.mark.parametrize(
    "solver, early_stopping",
    [("lbfgs", False), ("adam", False), ("adam", True), ("sgd", True)],
)
def test_a_single_class_is_fitted_as_scikit_learn_does(solver, early_stopping):
    """scikit-learn fits a single class: one logistic output fitted to 0
    (the probability of a class y never has), so predict_proba has two
    columns, predict gives the class everywhere (also where the output
    exceeds 1/2), and every validation accuracy is 1. The same seed gives
    scikit-learn's fit, as for two classes."""
    X, _ = blobs(n=30, seed=39)
    y = np.full(30, "only")
    params = {
        "hidden_layer_sizes": (4,),
        "alpha": 0.1,
        "solver": solver,
        "early_stopping": early_stopping,
        "max_iter": 15,
        "random_state": 0,
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = MLPClassifier(**params).fit(X, y)
        sk = SkMLPClassifier(**params).fit(X, y)
    np.testing.assert_array_equal(ours.classes_, sk.classes_)
    assert ours.n_outputs_ == sk.n_outputs_ == 1
    assert ours.out_activation_ == sk.out_activation_ == "logistic"
    np.testing.assert_allclose(ours.loss_, sk.loss_, rtol=1e-8)
    proba = ours.predict_proba(X)
    assert proba.shape == sk.predict_proba(X).shape == (30, 2)
    np.testing.assert_allclose(proba, sk.predict_proba(X), atol=1e-7)
    np.testing.assert_allclose(
        ours.predict_log_proba(X), sk.predict_log_proba(X), rtol=1e-7
    )
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))
    for model in (ours, sk):  # an output above 1/2 still predicts the class
        model.intercepts_[-1] = model.intercepts_[-1] + 50.0
        assert (model.predict_proba(X)[:, 1] > 0.5).all()
        assert (model.predict(X) == "only").all()
    if early_stopping:
        assert ours.validation_scores_ == sk.validation_scores_
        assert set(ours.validation_scores_) == {1.0}


def test_partial_fit_with_a_single_class_as_scikit_learn():
    X, _ = blobs(n=30, seed=40)
    y = np.full(30, 7)
    ours, sk = (
        model(random_state=0).partial_fit(X, y, classes=[7])
        for model in (MLPClassifier, SkMLPClassifier)
    )
    np.testing.assert_allclose(
        ours.predict_proba(X), sk.predict_proba(X), atol=1e-7
    )
    with pytest.raises(ValueError, match="not in classes_"):
        ours.partial_fit(X, y + 1)


# --- Many tiny and degenerate problems ---------------------------------------


def tiny_problem(seed):
    """2 to 12 samples, 1 to 3 features, with duplicated rows, a collinear
    column or a constant target thrown in at random."""
    rng = np.random.default_rng(seed)
    n, d = rng.integers(2, 13), rng.integers(1, 4)
    X = rng.normal(size=(n, d))
    kind = seed % 4
    if kind == 1:
        X[n // 2 :] = X[: n - n // 2]  # duplicates
    elif kind == 2:
        X = np.column_stack([X, 2 * X[:, 0]])  # collinear
    y = rng.normal(size=n)
    if kind == 3:
        y[:] = 1.5  # constant target
    labels = np.arange(n) % 2
    rng.shuffle(labels)
    return X, y, labels


@pytest.mark.parametrize("solver", ["lbfgs", "sgd", "adam"])
def test_tiny_and_degenerate_problems(solver):
    """No crash, finite parameters, and scikit-learn's objective from the
    same start. The stochastic solvers: to rounding. L-BFGS, run to its
    stopping rule: the same value to 10 ftol in most fits (measured: 74 of
    80); in the others both runs stop on a flat valley (a separable tiny
    problem, J still creeping towards its infimum), where rounding sends
    them to different stopping points, lower here as often as higher
    (measured: 3 and 3)."""
    ftol = 1e7 * np.finfo(float).eps
    same, lower, higher = 0, 0, 0
    for seed in range(40):
        X, y, labels = tiny_problem(seed)
        params = {
            "hidden_layer_sizes": (3,),
            "solver": solver,
            "alpha": [1e-8, 1e-4, 1.0][seed % 3],
            "max_iter": 1000 if solver == "lbfgs" else 50,
            "random_state": seed,
        }
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            pairs = [
                (
                    MLPRegressor(**params).fit(X, y),
                    SkMLPRegressor(**params).fit(X, y),
                ),
                (
                    MLPClassifier(**params).fit(X, labels),
                    SkMLPClassifier(**params).fit(X, labels),
                ),
            ]
        for ours, sk in pairs:
            assert all(np.isfinite(W).all() for W in ours.coefs_)
            if solver != "lbfgs":
                np.testing.assert_allclose(ours.loss_, sk.loss_, rtol=1e-8)
            elif abs(ours.loss_ - sk.loss_) <= 10 * ftol * max(1, sk.loss_):
                same += 1
            else:
                lower += ours.loss_ < sk.loss_
                higher += ours.loss_ > sk.loss_
    if solver == "lbfgs":
        assert same >= 0.8 * 80 and higher <= lower + 3


# --- scikit-learn's tools on the MLPs, as in its example gallery -------------


def test_pipeline_grid_search_and_curves_on_iris():
    from sklearn.datasets import load_iris
    from sklearn.model_selection import (
        GridSearchCV,
        StratifiedKFold,
        learning_curve,
        validation_curve,
    )
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    grid = {
        "mlpclassifier__alpha": [1e-4, 1.0],
        "mlpclassifier__hidden_layer_sizes": [(5,), (10,)],
    }
    searches = [
        GridSearchCV(
            make_pipeline(
                StandardScaler(),
                Model(max_iter=300, learning_rate_init=0.01, random_state=0),
            ),
            grid,
            cv=cv,
        )
        for Model in (MLPClassifier, SkMLPClassifier)
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for search in searches:
            search.fit(X, y)
        ours, theirs = searches
        # the same stream, the same fits: a prediction can differ only at a
        # tie broken by rounding
        assert ours.best_params_ == theirs.best_params_
        np.testing.assert_allclose(
            ours.cv_results_["mean_test_score"],
            theirs.cv_results_["mean_test_score"],
            atol=1 / 50,
        )
        assert ours.best_score_ > 0.9
        train, test = validation_curve(
            MLPClassifier(
                hidden_layer_sizes=(5,), max_iter=200, random_state=0
            ),
            X,
            y,
            param_name="alpha",
            param_range=[1e-3, 10.0, 1e3],
            cv=cv,
        )
        assert np.all(np.isfinite(train)) and np.all(np.isfinite(test))
        # a huge penalty flattens the network to the class frequencies
        assert test[-1].mean() < test[0].mean()
        _, train, test = learning_curve(  # shuffled: every class in 20%
            MLPClassifier(
                hidden_layer_sizes=(5,), solver="lbfgs", random_state=0
            ),
            X,
            y,
            cv=cv,
            train_sizes=[0.2, 1.0],
            shuffle=True,
            random_state=0,
        )
        assert np.all(np.isfinite(test)) and test[-1].mean() > 0.9


def test_multi_output_regression_displays_and_scores():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.datasets import load_linnerud
    from sklearn.metrics import PredictionErrorDisplay
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, Y = load_linnerud(return_X_y=True)
    model = make_pipeline(
        StandardScaler(),
        MLPRegressor(
            hidden_layer_sizes=(4,), solver="lbfgs", alpha=1.0, random_state=0
        ),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        scores = cross_val_score(model, X, Y, cv=4)
        model.fit(X, Y)
        assert model.predict(X).shape == Y.shape
        first = model.fit(X, Y[:, 0])
    assert np.all(np.isfinite(scores))
    display = PredictionErrorDisplay.from_estimator(first, X, Y[:, 0])
    assert np.all(np.isfinite(display.y_pred))
    plt.close("all")


# scikit-learn's example "Compare stochastic learning strategies for
# MLPClassifier" (plot_mlp_training_curves.py): its seven settings
TRAINING_CURVE_SETTINGS = [
    {"learning_rate": "constant", "momentum": 0},
    {"learning_rate": "constant", "nesterovs_momentum": False},
    {"learning_rate": "constant", "nesterovs_momentum": True},
    {"learning_rate": "invscaling", "momentum": 0},
    {"learning_rate": "invscaling", "nesterovs_momentum": True},
    {"learning_rate": "invscaling", "nesterovs_momentum": False},
]


@pytest.mark.parametrize("data", ["iris", "circles", "moons"])
def test_training_curves_example_gives_scikit_learns_curves(data):
    from sklearn.datasets import load_iris, make_circles, make_moons
    from sklearn.preprocessing import MinMaxScaler

    X, y = {
        "iris": lambda: load_iris(return_X_y=True),
        "circles": lambda: make_circles(noise=0.2, factor=0.5, random_state=1),
        "moons": lambda: make_moons(noise=0.3, random_state=0),
    }[data]()
    X = MinMaxScaler().fit_transform(X)
    settings = [
        {"solver": "sgd", "momentum": 0.9, "learning_rate_init": 0.2, **s}
        for s in TRAINING_CURVE_SETTINGS
    ] + [{"solver": "adam", "learning_rate_init": 0.01}]
    for setting in settings:
        pair = [
            Model(random_state=0, max_iter=400, **setting)
            for Model in (MLPClassifier, SkMLPClassifier)
        ]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            for model in pair:
                model.fit(X, y)
        assert_same_fit(*pair, X)
