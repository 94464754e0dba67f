"""MLPs: backpropagation against finite differences, and the fits against scikit-learn."""

import warnings

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.linear_model import Ridge as SkRidge
from sklearn.neural_network import MLPClassifier as SkMLPClassifier
from sklearn.neural_network import MLPRegressor as SkMLPRegressor

from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.linear_model import LogisticRegression
from mllib.neural_network import MLPClassifier, MLPRegressor
from mllib.neural_network.backprop import (
    flat_objective,
    glorot_uniform,
    pack,
    unpack,
)
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
    "loss, k", [("squared_error", 1), ("binary_log_loss", 1), ("log_loss", 3)]
)
def test_backprop_matches_finite_differences(activation, loss, k):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(20, 3))
    Y = (
        np.eye(k)[rng.integers(k, size=20)]
        if loss == "log_loss"
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


@pytest.mark.parametrize("k", [2, 3])
def test_no_hidden_layer_is_logistic_regression(k):
    """Convex limit: J = (logistic objective)/(Cn) with alpha = 1/C, so the same minimum value.
    (L-BFGS stops on scipy's default relative-decrease test, as scikit-learn's MLP, so the
    minimisers agree to about 1e-5 and the minimum values to about 1e-10.)"""
    X, y = blobs(k=k, seed=5)
    C = 0.5
    net = MLPClassifier(
        hidden_layer_sizes=(),
        alpha=1 / C,
        tol=1e-10,
        max_iter=2000,
        random_state=0,
    ).fit(X, y)
    Y = y[:, None].astype(float) if k == 2 else np.eye(k)[y]
    loss = "binary_log_loss" if k == 2 else "log_loss"
    for reference in (
        LogisticRegression(C=C, tol=1e-10),
        SkLogisticRegression(C=C, tol=1e-10),
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
        np.testing.assert_allclose(net.loss_, J_reference, rtol=1e-9)
        np.testing.assert_allclose(
            net.predict_proba(X), reference.predict_proba(X), atol=1e-4
        )


def test_no_hidden_layer_is_ridge():
    X, y = smooth_regression(seed=2)
    net = MLPRegressor(
        hidden_layer_sizes=(),
        alpha=3.0,
        tol=1e-10,
        max_iter=2000,
        random_state=0,
    ).fit(X, y)
    ridge = SkRidge(alpha=3.0).fit(X, y)
    np.testing.assert_allclose(net.coefs_[0][:, 0], ridge.coef_, atol=1e-6)
    np.testing.assert_allclose(
        net.intercepts_[0][0], ridge.intercept_, atol=1e-6
    )


def test_sgd_minibatch_penalty_is_unbiased():
    """With penalty α|B|/n per minibatch, SGD settles at the minimiser of J (here Ridge);
    scikit-learn's per-batch α/|B| would shrink 5 times harder with batches of n/5."""
    X, y = smooth_regression(n=100, seed=3)
    alpha = 50.0
    net = MLPRegressor(
        hidden_layer_sizes=(),
        solver="sgd",
        alpha=alpha,
        batch_size=20,
        learning_rate_init=0.01,
        max_iter=400,
        tol=1e-9,
        n_iter_no_change=400,
        random_state=0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X, y)
    ridge = SkRidge(alpha=alpha).fit(X, y)
    np.testing.assert_allclose(net.coefs_[0][:, 0], ridge.coef_, atol=0.02)
    assert len(net.loss_curve_) == net.n_iter_ == 400
    assert net.loss_curve_[-1] < net.loss_curve_[0]


def test_sgd_trains_a_hidden_layer():
    X, y = blobs(n=200, k=3, seed=4, spread=4.0)
    net = MLPClassifier(
        hidden_layer_sizes=(10,),
        solver="sgd",
        learning_rate_init=0.1,
        batch_size=16,
        max_iter=300,
        random_state=0,
    ).fit(X, y)
    assert net.score(X, y) > 0.9
    assert net.loss_curve_[-1] < net.loss_curve_[0]
    assert net.loss_ == net.loss_curve_[-1]


@pytest.mark.parametrize("solver", ["lbfgs", "sgd"])
def test_convergence_warning_at_max_iter(solver):
    X, y = blobs(seed=6)
    with pytest.warns(ConvergenceWarning):
        MLPClassifier(
            hidden_layer_sizes=(5,), solver=solver, max_iter=2, random_state=0
        ).fit(X, y)


def test_random_state_makes_fits_repeatable():
    X, y = blobs(seed=7)
    a = MLPClassifier(hidden_layer_sizes=(5,), random_state=3).fit(X, y)
    b = MLPClassifier(hidden_layer_sizes=(5,), random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.coefs_[0], b.coefs_[0])


def test_labels_are_mapped_back():
    X, y = blobs(seed=8, spread=4.0)
    labels = np.array(["no", "yes"])[y]
    net = MLPClassifier(hidden_layer_sizes=(4,), random_state=0).fit(X, labels)
    assert set(net.predict(X)) <= {"no", "yes"}
    assert net.score(X, labels) > 0.9


@pytest.mark.parametrize(
    "params",
    [
        dict(hidden_layer_sizes=(0,)),
        dict(hidden_layer_sizes=(2.5,)),
        dict(activation="softplus"),
        dict(solver="adam"),
        dict(alpha=-1.0),
        dict(learning_rate_init=0.0),
        dict(max_iter=0),
        dict(tol=0.0),
        dict(batch_size=0),
    ],
)
def test_bad_parameters_raise(params):
    X, y = blobs()
    with pytest.raises(ValueError):
        MLPClassifier(**params).fit(X, y)


def test_bad_data_raise():
    X, y = blobs()
    with pytest.raises(ValueError):
        MLPClassifier().fit(X, np.zeros(len(y)))  # a single class
    with pytest.raises(ValueError):
        MLPClassifier().fit(X, y + 0.5)  # continuous labels
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError):
        MLPRegressor().fit(X_nan, y)
    net = MLPRegressor(hidden_layer_sizes=(3,), random_state=0).fit(X, y)
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


@pytest.mark.parametrize("solver", ["lbfgs", "sgd"])
def test_inputs_are_not_modified(solver):
    X, y = blobs(seed=9)
    X0, y0 = X.copy(), y.copy()
    net = MLPClassifier(
        hidden_layer_sizes=(4,), solver=solver, max_iter=20, random_state=0
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
