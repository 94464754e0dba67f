"""GaussianMixture: one EM step and whole fits against scikit-learn, densities against scipy,
the monotone log-likelihood, the Cholesky-of-precision bookkeeping, sampling and bad input."""

import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn import mixture as sk
from sklearn.datasets import load_iris, make_blobs

from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.mixture import GaussianMixture
from mllib.mixture.gaussian_components import (
    covariances_from_precision_cholesky,
    estimate_gaussian_parameters,
    log_gaussian_density,
    precision_cholesky,
    precision_cholesky_from_precisions,
)
from mllib.mixture.gaussian_mixture import e_step

TYPES = ["full", "tied", "diag", "spherical"]
IRIS = load_iris().data
BLOBS = make_blobs(
    500, centers=4, cluster_std=[1.0, 2.0, 0.5, 1.5], random_state=2
)[0] @ [[1.0, 0.4], [0.0, 0.8]]
DATA = {"blobs": BLOBS, "iris": IRIS}


def random_parameters(X, K, covariance_type, seed):
    """Weights, means and precisions of the shapes each covariance type needs."""
    rng = np.random.default_rng(seed)
    d = X.shape[1]
    weights = rng.dirichlet(np.ones(K) * 3)
    means = X[rng.choice(len(X), K, replace=False)] + 0.1 * rng.normal(
        size=(K, d)
    )
    scale = 1.0 / X.var(axis=0).mean()
    if covariance_type == "full":
        A = rng.normal(size=(K, d, d))
        precisions = scale * (A @ A.transpose(0, 2, 1) / d + np.eye(d))
    elif covariance_type == "tied":
        A = rng.normal(size=(d, d))
        precisions = scale * (A @ A.T / d + np.eye(d))
    elif covariance_type == "diag":
        precisions = scale * rng.uniform(0.5, 2, size=(K, d))
    else:
        precisions = scale * rng.uniform(0.5, 2, size=K)
    return weights, means, precisions


def sklearn_fit(**kwargs):
    X = kwargs.pop("X")
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore"
        )  # sklearn's own ConvergenceWarning at max_iter=1
        return sk.GaussianMixture(**kwargs).fit(X)


ATTRIBUTES = [
    "weights_",
    "means_",
    "covariances_",
    "precisions_cholesky_",
    "precisions_",
]


@pytest.mark.parametrize("covariance_type", TYPES)
@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize("seed", [0, 1])
def test_one_em_step_from_given_parameters_equals_sklearn(
    covariance_type, name, seed
):
    X = DATA[name]
    w, m, p = random_parameters(X, 3, covariance_type, seed)
    settings = dict(
        n_components=3,
        covariance_type=covariance_type,
        weights_init=w,
        means_init=m,
        precisions_init=p,
        max_iter=1,
    )
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        ours = GaussianMixture(**settings).fit(X)
    theirs = sklearn_fit(X=X, **settings)
    for attribute in ATTRIBUTES:
        np.testing.assert_allclose(
            getattr(ours, attribute),
            getattr(theirs, attribute),
            rtol=1e-9,
            atol=1e-11,
        )
    assert ours.lower_bound_ == pytest.approx(theirs.lower_bound_, rel=1e-12)
    assert ours.n_iter_ == theirs.n_iter_ == 1


@pytest.mark.parametrize("covariance_type", TYPES)
def test_whole_fit_from_given_parameters_equals_sklearn(covariance_type):
    X = BLOBS
    w, m, p = random_parameters(X, 4, covariance_type, 3)
    settings = dict(
        n_components=4,
        covariance_type=covariance_type,
        weights_init=w,
        means_init=m,
        precisions_init=p,
        tol=1e-6,
        max_iter=1000,
    )
    ours = GaussianMixture(**settings).fit(X)
    theirs = sklearn_fit(X=X, **settings)
    assert ours.converged_ and theirs.converged_
    assert ours.n_iter_ == theirs.n_iter_
    for attribute in ATTRIBUTES:
        np.testing.assert_allclose(
            getattr(ours, attribute),
            getattr(theirs, attribute),
            rtol=1e-6,
            atol=1e-8,
        )
    np.testing.assert_allclose(
        ours.lower_bounds_, theirs.lower_bounds_, rtol=1e-10
    )
    np.testing.assert_allclose(
        ours.predict_proba(X), theirs.predict_proba(X), atol=1e-7
    )
    np.testing.assert_allclose(
        ours.score_samples(X), theirs.score_samples(X), rtol=1e-8
    )
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    assert ours.bic(X) == pytest.approx(theirs.bic(X), rel=1e-9)
    assert ours.aic(X) == pytest.approx(theirs.aic(X), rel=1e-9)
    assert ours._n_parameters() == theirs._n_parameters()


@pytest.mark.parametrize("covariance_type", TYPES)
@pytest.mark.parametrize("init_params", ["kmeans", "random"])
def test_the_log_likelihood_never_decreases(covariance_type, init_params):
    X = BLOBS
    model = GaussianMixture(
        4,
        covariance_type=covariance_type,
        init_params=init_params,
        reg_covar=0.0,
        tol=1e-10,
        max_iter=300,
        random_state=0,
    ).fit(X)
    bounds = np.array(model.lower_bounds_)
    assert np.all(
        np.diff(bounds) >= -1e-12
    )  # Dempster, Laird & Rubin: exact EM is monotone
    assert (
        model.score(X) >= bounds[-1] - 1e-12
    )  # the final parameters are at least as good
    assert bounds[-1] > bounds[0]


@pytest.mark.parametrize("covariance_type", TYPES)
@pytest.mark.parametrize("init_params", ["k-means++", "random_from_data"])
def test_the_log_likelihood_never_decreases_from_point_seeds_with_the_covariance_floor(
    covariance_type, init_params
):
    # one sample per component gives (nearly) zero covariances, so these seeds need reg_covar > 0;
    # the floor changes the M-step's bound by O(reg_covar^2), far below this tolerance
    model = GaussianMixture(
        4,
        covariance_type=covariance_type,
        init_params=init_params,
        tol=1e-10,
        max_iter=300,
        random_state=0,
    ).fit(BLOBS)
    assert np.all(np.diff(model.lower_bounds_) >= -1e-10)


def test_e_step_is_bayes_rule_with_scipy_densities():
    X = IRIS
    w, m, p = random_parameters(X, 3, "full", 4)
    covariances = np.linalg.solve(p, np.broadcast_to(np.eye(4), p.shape))
    joint = np.column_stack(
        [
            w[k] * stats.multivariate_normal(m[k], covariances[k]).pdf(X)
            for k in range(3)
        ]
    )
    log_norm, log_resp = e_step(
        X, w, m, precision_cholesky_from_precisions(p, "full"), "full"
    )
    np.testing.assert_allclose(np.exp(log_norm), joint.sum(axis=1), rtol=1e-10)
    np.testing.assert_allclose(
        np.exp(log_resp), joint / joint.sum(axis=1, keepdims=True), atol=1e-12
    )


@pytest.mark.parametrize("covariance_type", TYPES)
def test_log_density_equals_scipy_for_every_covariance_type(covariance_type):
    X = IRIS
    _, m, p = random_parameters(X, 3, covariance_type, 5)
    d = X.shape[1]
    dense = {
        "full": lambda: np.linalg.solve(
            p, np.broadcast_to(np.eye(d), p.shape)
        ),
        "tied": lambda: np.broadcast_to(
            np.linalg.solve(p, np.eye(d)), (3, d, d)
        ),
        "diag": lambda: np.array([np.diag(1 / q) for q in p]),
        "spherical": lambda: np.array([np.eye(d) / q for q in p]),
    }[covariance_type]()
    expected = np.column_stack(
        [stats.multivariate_normal(m[k], dense[k]).logpdf(X) for k in range(3)]
    )
    factors = precision_cholesky_from_precisions(p, covariance_type)
    np.testing.assert_allclose(
        log_gaussian_density(X, m, factors, covariance_type),
        expected,
        rtol=1e-10,
    )
    # the same factors come from the covariances, and the covariances back from the factors
    covariances = covariances_from_precision_cholesky(factors, covariance_type)
    np.testing.assert_allclose(
        precision_cholesky(covariances, covariance_type), factors, rtol=1e-9
    )


def test_precision_factor_is_upper_triangular_and_inverts_the_covariance():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(3, 4, 4))
    covariances = A @ A.transpose(0, 2, 1) + np.eye(4)
    U = precision_cholesky(covariances, "full")
    assert np.all(np.tril(U, -1) == 0)
    np.testing.assert_allclose(
        U @ U.transpose(0, 2, 1) @ covariances,
        np.broadcast_to(np.eye(4), (3, 4, 4)),
        atol=1e-12,
    )
    P = np.linalg.solve(covariances, np.broadcast_to(np.eye(4), (3, 4, 4)))
    V = precision_cholesky_from_precisions(P, "full")
    assert np.all(np.tril(V, -1) == 0)
    np.testing.assert_allclose(
        V, U, rtol=1e-8
    )  # the upper-triangular factor is unique


def test_m_step_equals_weighted_estimates_computed_by_loops():
    X = IRIS
    resp = np.random.default_rng(1).dirichlet(np.ones(3), size=len(X))
    nk, means, covariances = estimate_gaussian_parameters(X, resp, 0.0, "full")
    for k in range(3):
        r = resp[:, k]
        mean = sum(r[i] * X[i] for i in range(len(X))) / r.sum()
        cov = (
            sum(
                r[i] * np.outer(X[i] - mean, X[i] - mean)
                for i in range(len(X))
            )
            / r.sum()
        )
        np.testing.assert_allclose(means[k], mean, rtol=1e-12)
        np.testing.assert_allclose(covariances[k], cov, rtol=1e-10, atol=1e-14)
    _, _, tied = estimate_gaussian_parameters(X, resp, 0.0, "tied")
    np.testing.assert_allclose(
        tied, np.tensordot(nk, covariances, axes=1) / len(X), rtol=1e-10
    )
    _, _, diag = estimate_gaussian_parameters(X, resp, 0.0, "diag")
    np.testing.assert_allclose(
        diag, np.diagonal(covariances, axis1=1, axis2=2), rtol=1e-10
    )
    _, _, spherical = estimate_gaussian_parameters(X, resp, 0.0, "spherical")
    np.testing.assert_allclose(spherical, diag.mean(axis=1), rtol=1e-12)
    _, _, regularised = estimate_gaussian_parameters(X, resp, 0.5, "full")
    np.testing.assert_allclose(
        regularised - covariances,
        np.broadcast_to(0.5 * np.eye(4), (3, 4, 4)),
        atol=1e-12,
    )


def test_far_away_sample_gets_responsibilities_that_sum_to_one():
    model = GaussianMixture(3, random_state=0).fit(BLOBS)
    far = np.array([[1e4, -1e4]])
    np.testing.assert_allclose(model.predict_proba(far).sum(), 1.0)
    assert (
        np.isfinite(model.score_samples(far)).all()
        and model.score_samples(far)[0] < -1e5
    )
    # in probability space the densities underflow to 0 and the ratio is 0/0
    densities = np.exp(
        log_gaussian_density(
            far, model.means_, model.precisions_cholesky_, "full"
        )
    )
    assert np.all(densities == 0)


def test_restarts_keep_the_best_lower_bound_and_fit_predict_agrees_with_predict():
    X = BLOBS
    generator = np.random.default_rng(11)
    chained = [
        GaussianMixture(4, init_params="random", random_state=generator)
        .fit(X)
        .lower_bound_
        for _ in range(3)
    ]
    best = GaussianMixture(
        4,
        init_params="random",
        n_init=3,
        random_state=np.random.default_rng(11),
    ).fit(X)
    assert best.lower_bound_ == pytest.approx(max(chained), rel=1e-12)
    assert (
        max(chained) > min(chained) + 1e-6
    )  # the three runs ended in different local maxima
    model = GaussianMixture(4, random_state=1)
    np.testing.assert_array_equal(model.fit_predict(X), model.predict(X))


def test_kmeans_initialisation_is_reproducible():
    a = GaussianMixture(4, random_state=3).fit(BLOBS)
    b = GaussianMixture(4, random_state=3).fit(BLOBS)
    np.testing.assert_array_equal(a.means_, b.means_)


@pytest.mark.parametrize("covariance_type", TYPES)
def test_samples_follow_the_fitted_mixture(covariance_type):
    model = GaussianMixture(
        3, covariance_type=covariance_type, random_state=0
    ).fit(BLOBS)
    X, y = model.sample(60_000)
    assert X.shape == (60_000, 2) and y.shape == (60_000,)
    np.testing.assert_allclose(
        np.bincount(y) / len(y), model.weights_, atol=0.01
    )
    covariances = covariances_from_precision_cholesky(
        model.precisions_cholesky_, covariance_type
    )
    for k in range(3):
        members = X[y == k]
        cov = covariances if covariance_type == "tied" else covariances[k]
        cov = (
            np.diag(cov)
            if cov.ndim == 1
            else cov * np.eye(2)
            if cov.ndim == 0
            else cov
        )
        np.testing.assert_allclose(
            members.mean(axis=0),
            model.means_[k],
            atol=5 * np.sqrt(cov.max() / len(members)),
        )
        np.testing.assert_allclose(
            np.cov(members.T), cov, atol=0.06 * np.abs(cov).max()
        )
    np.testing.assert_array_equal(
        model.sample(10)[0], model.sample(10)[0]
    )  # random_state fixes the draws


def test_collapsed_component_without_reg_covar_raises_a_clear_error():
    X = np.vstack(
        [np.zeros((5, 2)), np.random.default_rng(0).normal(size=(50, 2)) + 5]
    )
    means = np.array([[0.0, 0.0], [5.0, 5.0]])
    with pytest.raises(
        ValueError, match="increase reg_covar|Increase reg_covar"
    ):
        GaussianMixture(
            2, means_init=means, reg_covar=0.0, random_state=0
        ).fit(X)
    model = GaussianMixture(2, means_init=means, random_state=0).fit(
        X
    )  # the default floor 1e-6
    assert np.min(
        np.linalg.eigvalsh(model.covariances_[np.argmin(model.means_[:, 0])])
    ) >= 1e-6 * (1 - 1e-9)


def test_stopping_early_warns():
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        GaussianMixture(4, max_iter=2, tol=0, random_state=0).fit(BLOBS)


def test_gaussian_mixture_rejects_bad_input_and_leaves_arrays_alone():
    X = BLOBS.copy()
    w, m, p = random_parameters(X, 3, "full", 0)
    originals = [a.copy() for a in (X, w, m, p)]
    GaussianMixture(3, weights_init=w, means_init=m, precisions_init=p).fit(X)
    for before, after in zip(originals, (X, w, m, p)):
        np.testing.assert_array_equal(before, after)
    bad = [
        (dict(n_components=600), "larger than the number of samples"),
        (dict(n_components=0), "n_components must be at least 1"),
        (
            dict(n_components=3, covariance_type="tied-ish"),
            "covariance_type must be",
        ),
        (dict(n_components=3, init_params="kmeans++"), "init_params must be"),
        (dict(n_components=3, weights_init=[0.5, 0.3, 0.3]), "sum to 1"),
        (dict(n_components=3, weights_init=[1.2, -0.1, -0.1]), "non-negative"),
        (
            dict(n_components=3, means_init=np.zeros((2, 2))),
            r"means_init must have shape \(3, 2\)",
        ),
        (
            dict(n_components=3, precisions_init=np.ones((3, 2))),
            r"precisions_init must have shape \(3, 2, 2\)",
        ),
        (
            dict(
                n_components=3,
                precisions_init=np.array([[[1.0, 2], [2, 1]]] * 3),
            ),
            "positive definite",
        ),
        (
            dict(
                n_components=3,
                precisions_init=np.array([[[1.0, 0.5], [0, 1]]] * 3),
            ),
            "symmetric",
        ),
        (
            dict(
                n_components=3,
                covariance_type="diag",
                precisions_init=-np.ones((3, 2)),
            ),
            "positive",
        ),
        (dict(n_components=3, reg_covar=-1.0), "reg_covar must be in"),
        (dict(n_components=3, max_iter=-1), "max_iter must be at least 0"),
    ]
    for settings, message in bad:
        with pytest.raises(ValueError, match=message):
            GaussianMixture(**settings).fit(X)
    for method in ("predict", "predict_proba", "score_samples", "score"):
        with pytest.raises(NotFittedError):
            getattr(GaussianMixture(2), method)(X)
    with pytest.raises(NotFittedError):
        GaussianMixture(2).sample(3)
    with pytest.raises(ValueError, match="features"):
        GaussianMixture(2, random_state=0).fit(X).predict(np.ones((2, 3)))
