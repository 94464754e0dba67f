import numpy as np
import pytest
from scipy import integrate
from scipy.stats import multivariate_normal
from sklearn.linear_model import BayesianRidge, Ridge

from mllib.exceptions import NotFittedError
from mllib.gaussian_process import GaussianProcessRegressor
from mllib.gaussian_process.kernels import ConstantKernel, DotProduct
from mllib.linear_model import BayesianLinearRegression

PRECISIONS = [
    (1.0, 1.0),
    (0.1, 25.0),
    (10.0, 0.5),
]  # (alpha = prior precision, beta = noise precision)


def offset_data(regression_data):
    X, y = regression_data
    return X + 3.0, y  # far from the origin, so centring matters


def sklearn_at(X, y, alpha, beta, fit_intercept):
    """BayesianRidge always updates its precisions once before its final posterior, so read the
    precisions it ends with (its lambda_ is our alpha, its alpha_ our beta) and compare there.
    scores_[0] is its evidence at the initial precisions, with hyperpriors switched off."""
    return BayesianRidge(
        max_iter=1,
        alpha_init=beta,
        lambda_init=alpha,
        alpha_1=0,
        alpha_2=0,
        lambda_1=0,
        lambda_2=0,
        compute_score=True,
        fit_intercept=fit_intercept,
    ).fit(X, y)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("alpha, beta", PRECISIONS)
def test_posterior_matches_bayesian_ridge(
    regression_data, alpha, beta, fit_intercept
):
    X, y = offset_data(regression_data)
    reference = sklearn_at(X, y, alpha, beta, fit_intercept)
    model = BayesianLinearRegression(
        alpha=reference.lambda_,
        beta=reference.alpha_,
        fit_intercept=fit_intercept,
    ).fit(X, y)
    # scikit-learn goes through an SVD of X, we through a Cholesky factor of αI + βXᵀX
    np.testing.assert_allclose(
        model.coef_, reference.coef_, rtol=1e-8, atol=1e-9
    )
    np.testing.assert_allclose(
        model.sigma_, reference.sigma_, rtol=1e-8, atol=1e-10
    )
    assert model.intercept_ == pytest.approx(
        reference.intercept_, rel=1e-9, abs=1e-10
    )
    X_new = np.random.default_rng(1).normal(size=(9, X.shape[1])) + 3.0
    mean, std = model.predict(X_new, return_std=True)
    ref_mean, ref_std = reference.predict(X_new, return_std=True)
    # predictions may differ by what the tolerances above allow, carried
    # through x^T w + b and x^T Sigma x (|x| entrywise)
    size = np.abs(X_new)
    coef_slack = 1e-8 * np.abs(reference.coef_) + 1e-9
    intercept_slack = 1e-9 * abs(reference.intercept_) + 1e-10
    assert np.all(
        np.abs(mean - ref_mean) <= size @ coef_slack + intercept_slack
    )
    # scikit-learn leaves out the intercept's posterior variance 1/(n beta); we include it
    intercept_variance = 1 / (len(y) * model.beta) if fit_intercept else 0.0
    sigma_slack = 1e-8 * np.abs(reference.sigma_) + 1e-10
    assert np.all(
        np.abs(std**2 - ref_std**2 - intercept_variance)
        <= np.einsum("ij,jk,ik->i", size, sigma_slack, size)
        + 1e-12 * intercept_variance
    )


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("alpha, beta", PRECISIONS)
def test_evidence_matches_bayesian_ridge_score(
    regression_data, alpha, beta, fit_intercept
):
    X, y = offset_data(regression_data)
    reference = sklearn_at(X, y, alpha, beta, fit_intercept)
    model = BayesianLinearRegression(
        alpha=alpha, beta=beta, fit_intercept=fit_intercept
    ).fit(X, y)
    # with an intercept, scikit-learn scores the centred data as n independent residuals; the
    # flat prior on b leaves n - 1 of them and a factor sqrt(2 pi / (n beta)) from integrating b out
    flat_prior_correction = (
        0.5 * np.log(2 * np.pi / (len(y) * beta)) if fit_intercept else 0.0
    )
    assert model.log_marginal_likelihood_value_ == pytest.approx(
        reference.scores_[0] + flat_prior_correction, rel=1e-10, abs=1e-9
    )


@pytest.mark.parametrize("alpha, beta", PRECISIONS)
def test_evidence_is_the_gaussian_marginal_of_y(regression_data, alpha, beta):
    X, y = regression_data
    model = BayesianLinearRegression(
        alpha=alpha, beta=beta, fit_intercept=False
    ).fit(X, y)
    S = (
        X @ X.T / alpha + np.eye(len(y)) / beta
    )  # y = Xw + e  =>  y ~ N(0, XXᵀ/α + I/β)
    assert model.log_marginal_likelihood_value_ == pytest.approx(
        multivariate_normal(np.zeros(len(y)), S).logpdf(y), rel=1e-9
    )

    # flat prior on b: ∫ N(y | b1, S) db = N-like closed form with the 1-direction projected out
    model = BayesianLinearRegression(alpha=alpha, beta=beta).fit(X, y)
    Si_y, Si_1 = np.linalg.solve(S, y), np.linalg.solve(S, np.ones(len(y)))
    quad = y @ Si_y - (Si_1 @ y) ** 2 / Si_1.sum()
    expected = (
        -0.5 * quad
        - 0.5 * np.linalg.slogdet(S)[1]
        - 0.5 * np.log(Si_1.sum())
        - 0.5 * (len(y) - 1) * np.log(2 * np.pi)
    )
    assert model.log_marginal_likelihood_value_ == pytest.approx(
        expected, rel=1e-9
    )


def test_evidence_against_a_numerical_integral_over_the_weights(rng):
    """p(y) = ∫∫ p(y | w0, w1) p(w0, w1) dw by adaptive quadrature, for two weights."""
    X = np.column_stack([np.ones(6), rng.uniform(-1, 1, 6)])
    y = X @ [-0.3, 0.5] + 0.2 * rng.normal(size=6)
    alpha, beta = 2.0, 25.0
    model = BayesianLinearRegression(
        alpha=alpha, beta=beta, fit_intercept=False
    ).fit(X, y)

    def integrand(w1, w0):  # likelihood (6 points) × N(w | 0, I/α)
        residual = y - X[:, 0] * w0 - X[:, 1] * w1
        return (
            (beta / (2 * np.pi)) ** 3
            * np.exp(-0.5 * beta * residual @ residual)
            * alpha
            / (2 * np.pi)
            * np.exp(-0.5 * alpha * (w0**2 + w1**2))
        )

    m, s = model.coef_, np.sqrt(np.diag(model.sigma_))
    value, _ = integrate.dblquad(
        integrand,
        m[0] - 12 * s[0],
        m[0] + 12 * s[0],
        m[1] - 12 * s[1],
        m[1] + 12 * s[1],
        epsabs=0,
        epsrel=1e-10,
    )
    assert model.log_marginal_likelihood_value_ == pytest.approx(
        np.log(value), abs=1e-8
    )


def test_log_marginal_likelihood_at_other_precisions_equals_refitting(
    regression_data,
):
    X, y = regression_data
    model = BayesianLinearRegression(alpha=1.0, beta=1.0).fit(X, y)
    for alpha, beta in PRECISIONS[1:]:
        refit = BayesianLinearRegression(alpha=alpha, beta=beta).fit(X, y)
        assert model.log_marginal_likelihood(alpha, beta) == pytest.approx(
            refit.log_marginal_likelihood_value_, rel=1e-12
        )
    assert (
        model.log_marginal_likelihood() == model.log_marginal_likelihood_value_
    )


@pytest.mark.parametrize("alpha, beta", PRECISIONS)
def test_posterior_mean_is_ridge_with_lambda_alpha_over_beta(
    regression_data, alpha, beta
):
    X, y = offset_data(regression_data)
    model = BayesianLinearRegression(alpha=alpha, beta=beta).fit(X, y)
    ridge = Ridge(alpha=alpha / beta, solver="cholesky").fit(X, y)
    np.testing.assert_allclose(model.coef_, ridge.coef_, rtol=1e-8, atol=1e-10)
    assert model.intercept_ == pytest.approx(
        ridge.intercept_, rel=1e-8, abs=1e-9
    )


def test_equals_gaussian_process_with_linear_kernel(regression_data):
    X, y = regression_data
    alpha, beta = 0.5, 4.0
    X_new = np.random.default_rng(2).normal(size=(8, X.shape[1]))
    model = BayesianLinearRegression(
        alpha=alpha, beta=beta, fit_intercept=False
    ).fit(X, y)
    linear = ConstantKernel(1 / alpha, "fixed") * DotProduct(
        sigma_0=0.0, sigma_0_bounds="fixed"
    )
    gp = GaussianProcessRegressor(kernel=linear, alpha=1 / beta).fit(X, y)
    mean, std = model.predict(X_new, return_std=True)
    gp_mean, gp_std = gp.predict(X_new, return_std=True)
    np.testing.assert_allclose(mean, gp_mean, rtol=1e-8, atol=1e-9)
    np.testing.assert_allclose(
        std**2, gp_std**2 + 1 / beta, rtol=1e-8
    )  # the GP's std is of f, not y
    assert model.log_marginal_likelihood_value_ == pytest.approx(
        gp.log_marginal_likelihood_value_, rel=1e-9
    )


def test_flat_intercept_prior_is_the_limit_of_a_wide_gaussian_one(
    regression_data,
):
    X, y = offset_data(regression_data)
    alpha, beta, X_new = 0.5, 4.0, np.full((1, X.shape[1]), 2.0)
    model = BayesianLinearRegression(alpha=alpha, beta=beta).fit(X, y)
    errors = []
    for c in (
        1e4,
        1e5,
        1e6,
    ):  # prior b ~ N(0, c): errors should shrink like 1/c
        kernel = ConstantKernel(c, "fixed") + ConstantKernel(
            1 / alpha, "fixed"
        ) * DotProduct(0.0, "fixed")
        gp = GaussianProcessRegressor(kernel=kernel, alpha=1 / beta).fit(X, y)
        mean, std = gp.predict(X_new, return_std=True)
        errors.append(
            [
                abs(mean[0] - model.predict(X_new)[0]),
                abs(
                    std[0] ** 2
                    + 1 / beta
                    - model.predict(X_new, return_std=True)[1][0] ** 2
                ),
                abs(
                    gp.log_marginal_likelihood_value_
                    + 0.5 * np.log(2 * np.pi * c)
                    - model.log_marginal_likelihood_value_
                ),
            ]
        )
    errors = np.array(errors)
    assert np.all(errors[1] < 0.2 * errors[0] + 1e-9)
    assert np.all(errors[2] < 0.2 * errors[1] + 1e-9)
    assert np.all(errors[2] < 1e-2)


def test_samples_have_the_posterior_moments(regression_data):
    X, y = offset_data(regression_data)
    model = BayesianLinearRegression(alpha=2.0, beta=10.0).fit(X, y)
    coefs, intercepts = model.sample_coef(40_000, random_state=0)
    d = X.shape[1]
    # Monte Carlo error of a mean is sd/sqrt(N) = 0.5% of sd; allow 5 standard errors
    sd = np.sqrt(np.diag(model.sigma_))
    assert np.all(
        np.abs(coefs.mean(axis=0) - model.coef_) < 5 * sd / np.sqrt(40_000)
    )
    np.testing.assert_allclose(
        np.cov(coefs.T).reshape(d, d), model.sigma_, atol=0.05 * sd.max() ** 2
    )
    X_new = X[:5] + 1.0
    draws = model.sample_y(X_new, n_samples=40_000, random_state=1)
    mean, std = model.predict(X_new, return_std=True)
    function_std = np.sqrt(
        std**2 - 1 / model.beta
    )  # the draws are of f, without the noise
    np.testing.assert_allclose(
        draws.mean(axis=1), mean, atol=5 * function_std.max() / np.sqrt(40_000)
    )
    np.testing.assert_allclose(draws.std(axis=1), function_std, rtol=0.02)
    assert intercepts.shape == (40_000,)
    np.testing.assert_array_equal(
        model.sample_coef(3, random_state=5)[0],
        model.sample_coef(3, random_state=5)[0],
    )


def test_posterior_variance_shrinks_with_data_and_mean_is_consistent(rng):
    w_true = np.array([1.5, -2.0])
    X = rng.normal(size=(4000, 2))
    y = X @ w_true + 0.7 + 0.1 * rng.normal(size=4000)
    traces = [
        np.trace(
            BayesianLinearRegression(alpha=1.0, beta=100.0)
            .fit(X[:n], y[:n])
            .sigma_
        )
        for n in (10, 100, 1000, 4000)
    ]
    assert np.all(np.diff(traces) < 0)
    model = BayesianLinearRegression(alpha=1.0, beta=100.0).fit(X, y)
    np.testing.assert_allclose(model.coef_, w_true, atol=0.01)
    assert model.intercept_ == pytest.approx(0.7, abs=0.01)


def test_bad_input_not_fitted_and_inputs_untouched(regression_data):
    X, y = regression_data
    X0, y0 = X.copy(), y.copy()
    model = BayesianLinearRegression(alpha=0.3, beta=2.0).fit(X, y)
    model.predict(X, return_std=True)
    model.sample_y(X[:3], n_samples=2)
    model.log_marginal_likelihood(1.0, 1.0)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    assert (
        model.log_marginal_likelihood() == model.log_marginal_likelihood_value_
    )
    with pytest.raises(NotFittedError):
        BayesianLinearRegression().predict(X)
    for bad in (
        {"alpha": 0.0},
        {"beta": -1.0},
        {"alpha": np.nan},
        {"beta": np.inf},
    ):
        with pytest.raises(ValueError, match="alpha|beta"):
            BayesianLinearRegression(**bad).fit(X, y)
    with pytest.raises(ValueError, match="must be in"):
        model.log_marginal_likelihood(alpha=-1.0)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :-1])
