"""RationalQuadratic, ExpSineSquared, Matern and Exponentiation against
scikit-learn's kernels of the same names, against finite differences, and
inside GaussianProcessRegressor."""

import numpy as np
import pytest
from sklearn.gaussian_process import GaussianProcessRegressor as SkGPR
from sklearn.gaussian_process import kernels as sk
from test_gaussian_process import rounding_level_stops

from mllib.gaussian_process import GaussianProcessRegressor
from mllib.gaussian_process import kernels as ours

EPS = np.finfo(float).eps

#: name -> function of a kernels module giving the same kernel in both.
SPECS = {
    "rq": lambda m: m.RationalQuadratic(0.7, 2.0),
    "rq-small-alpha": lambda m: m.RationalQuadratic(1.6, 0.05),
    "rq-fixed-alpha": lambda m: m.RationalQuadratic(
        1.2, 0.5, alpha_bounds="fixed"
    ),
    "rq-fixed-length": lambda m: m.RationalQuadratic(
        0.9, 3.0, length_scale_bounds="fixed", alpha_bounds=(1e-3, 1e15)
    ),
    "sine": lambda m: m.ExpSineSquared(0.8, 1.3),
    "sine-long": lambda m: m.ExpSineSquared(2.5, 4.0, (1e-2, 1e2)),
    "sine-fixed-period": lambda m: m.ExpSineSquared(
        0.6, 0.7, periodicity_bounds="fixed"
    ),
    "matern-0.5": lambda m: m.Matern(0.6, nu=0.5),
    "matern-1.5": lambda m: m.Matern(),
    "matern-2.5": lambda m: m.Matern(1.7, (1e-2, 1e2), nu=2.5),
    "matern-inf": lambda m: m.Matern(0.8, nu=np.inf),
    "matern-fixed": lambda m: m.Matern(0.8, "fixed", nu=2.5),
    "rbf**2": lambda m: m.RBF(0.9) ** 2,
    "(c*rq)**3": lambda m: (
        (m.ConstantKernel(0.7) * m.RationalQuadratic()) ** 3
    ),
    "matern**0.5": lambda m: m.Exponentiation(m.Matern(1.3, nu=2.5), 0.5),
    "sum of all": lambda m: (
        m.ConstantKernel(1.5) * m.Matern(0.5, nu=0.5)
        + m.ExpSineSquared(1.1, 2.0) * m.RationalQuadratic(2.0, 0.3)
        + m.WhiteKernel(0.01)
    ),
}


def pair(name):
    return SPECS[name](ours), SPECS[name](sk)


def points(seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-2, 2, size=(14, 2)), rng.uniform(-3, 3, (9, 2))


@pytest.mark.parametrize("name", SPECS)
def test_values_and_attributes_match_sklearn(name):
    kernel, reference = pair(name)
    X, Y = points()
    for args in [(X,), (X, Y), (Y, X)]:
        np.testing.assert_allclose(
            kernel(*args), reference(*args), rtol=1e-12, atol=1e-14
        )
    np.testing.assert_allclose(
        kernel.diag(Y), reference.diag(Y), rtol=1e-12, atol=1e-14
    )
    np.testing.assert_allclose(kernel.diag(X), np.diag(kernel(X)), rtol=1e-13)
    np.testing.assert_allclose(kernel.theta, reference.theta, rtol=1e-12)
    # shape (0,) when every hyperparameter is fixed, in both
    assert kernel.bounds.shape == reference.bounds.shape
    np.testing.assert_allclose(kernel.bounds, reference.bounds, rtol=1e-12)
    assert kernel.n_dims == reference.n_dims
    assert len(kernel.hyperparameters) == len(reference.hyperparameters)
    for h, h_sk in zip(kernel.hyperparameters, reference.hyperparameters):
        assert (h.name, h.value_type, h.n_elements, h.fixed) == (
            h_sk.name,
            h_sk.value_type,
            h_sk.n_elements,
            h_sk.fixed,
        )
        if not h.fixed:
            np.testing.assert_allclose(h.bounds, h_sk.bounds, rtol=1e-14)
    params, params_sk = kernel.get_params(), reference.get_params()
    assert params.keys() == params_sk.keys()
    for key, value in params.items():
        if not isinstance(value, ours.Kernel):
            assert value == params_sk[key], key
    assert repr(kernel) == repr(reference)


@pytest.mark.parametrize("name", SPECS)
def test_gradients_match_sklearn_and_finite_differences(name):
    kernel, reference = pair(name)
    X, _ = points(1)
    K, dK = kernel(X, eval_gradient=True)
    K_sk, dK_sk = reference(X, eval_gradient=True)
    np.testing.assert_allclose(K, K_sk, rtol=1e-12, atol=1e-14)
    assert dK.shape == dK_sk.shape == (len(X), len(X), kernel.n_dims)
    np.testing.assert_allclose(dK, dK_sk, rtol=1e-10, atol=1e-13)

    # Central differences in log θ: the error of D(h) is c h² + O(h⁴)
    # (c = third derivative / 6), so D(h) − D(h/2) = ¾ c h² + O(h⁴) measures
    # it; the rounding error of D(h) is at most about eps·max|K|/h.
    def central(j, h):
        step = np.zeros(kernel.n_dims)
        step[j] = h
        plus = kernel.clone_with_theta(kernel.theta + step)(X)
        minus = kernel.clone_with_theta(kernel.theta - step)(X)
        return (plus - minus) / (2 * h)

    h = 1e-4
    rounding = 100 * EPS * np.abs(K).max() / h
    for j in range(kernel.n_dims):
        coarse, fine = central(j, h), central(j, h / 2)
        assert np.all(
            np.abs(dK[:, :, j] - coarse)
            <= 2 * np.abs(coarse - fine) + rounding
        )


def test_gradient_with_every_hyperparameter_fixed_is_empty():
    kernel = ours.RationalQuadratic(
        length_scale_bounds="fixed", alpha_bounds="fixed"
    )
    X, _ = points()
    dK = kernel(X, eval_gradient=True)[1]
    assert dK.shape == (len(X), len(X), 0)
    assert kernel.theta.shape == (0,)


def test_exponentiation_shares_the_base_kernels_hyperparameters():
    base = ours.RBF(0.5)
    power = base**2
    assert isinstance(power, ours.Exponentiation)
    assert power.kernel is base and power.exponent == 2
    power.theta = [np.log(2.0)]
    assert base.length_scale == pytest.approx(2.0)
    X, _ = points()
    # an RBF squared is the RBF with length-scale ℓ/√2
    np.testing.assert_allclose(
        power(X), ours.RBF(2.0 / np.sqrt(2))(X), rtol=1e-12
    )
    copy = power.clone_with_theta([0.0])
    assert copy.kernel.length_scale == 1.0 and base.length_scale == 2.0
    power.set_params(kernel__length_scale=3.0)
    assert base.length_scale == 3.0


def test_matern_special_cases():
    X, _ = points()
    np.testing.assert_allclose(
        ours.Matern(0.7, nu=np.inf)(X), ours.RBF(0.7)(X), rtol=1e-14
    )
    r = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1)) / 0.7
    np.testing.assert_allclose(
        ours.Matern(0.7, nu=0.5)(X), np.exp(-r), rtol=1e-14
    )
    # RationalQuadratic tends to the RBF as alpha grows: with s = r²,
    # log k = -α log1p(s/(2α)) = -s/2 + s²/(8α) - …, so the relative gap
    # is s²/(8α) to first order (a factor 2 covers the rest), plus rounding
    # of exp's argument; at α = 1e12, 1 + s/(2α) alone would lose 12 digits
    s = r**2
    for alpha in [1e3, 1e6, 1e12]:
        np.testing.assert_allclose(
            ours.RationalQuadratic(0.7, alpha)(X),
            ours.RBF(0.7)(X),
            rtol=s.max() ** 2 / (4 * alpha) + 10 * EPS * s.max(),
        )
    # ExpSineSquared is periodic in the distance
    Z = np.array([[0.0], [0.3], [0.3 + 2.5]])
    K = ours.ExpSineSquared(0.8, 2.5)(Z)
    assert K[0, 1] == pytest.approx(K[0, 2], rel=1e-12)


@pytest.mark.parametrize("nu", [1.0, 2.0, 0.25, 3.5])
def test_other_nu_names_sklearns_matern(nu):
    X, _ = points()
    with pytest.raises(ValueError, match="sklearn.gaussian_process"):
        ours.Matern(nu=nu)(X)


@pytest.mark.parametrize(
    "make",
    [
        lambda: ours.RationalQuadratic(length_scale=[1.0, 2.0]),
        lambda: ours.ExpSineSquared(length_scale=np.array([1.0, 2.0])),
        lambda: ours.Matern(length_scale=[1.0, 2.0]),
    ],
)
def test_non_scalar_length_scale_is_refused_as_rbf_refuses_it(make):
    X, _ = points()
    with pytest.raises(ValueError, match="isotropic"):
        make()(X)


def test_bad_hyperparameters_and_inputs_untouched():
    X, Y = points()
    X_copy, Y_copy = X.copy(), Y.copy()
    for kernel in [
        ours.RationalQuadratic(alpha=-1.0),
        ours.ExpSineSquared(periodicity=0.0),
        ours.Matern(length_scale=np.nan),
        ours.RBF() ** "2",
    ]:
        with pytest.raises(ValueError):
            kernel(X)
    for kernel in SPECS.values():
        kernel(ours)(X, Y)
        kernel(ours)(X, eval_gradient=True)
        with pytest.raises(ValueError, match="eval_gradient"):
            kernel(ours)(X, Y, eval_gradient=True)
    np.testing.assert_array_equal(X, X_copy)
    np.testing.assert_array_equal(Y, Y_copy)


#: each kernel times a ConstantKernel, for the regressor
GP_SPECS = {
    "rq": lambda m: m.ConstantKernel() * m.RationalQuadratic(),
    "sine": lambda m: (
        m.ConstantKernel()
        * m.ExpSineSquared(1.0, 3.0, periodicity_bounds=(1.0, 10.0))
    ),
    "matern-0.5": lambda m: m.ConstantKernel() * m.Matern(nu=0.5),
    "matern-1.5": lambda m: m.ConstantKernel() * m.Matern(nu=1.5),
    "matern-2.5": lambda m: m.ConstantKernel() * m.Matern(nu=2.5),
    "matern-inf": lambda m: m.ConstantKernel() * m.Matern(nu=np.inf),
    "rbf**2": lambda m: m.ConstantKernel() * m.RBF() ** 2,
}


def gp_data(periodic):
    """A periodic signal (period 2.5) or a smooth one with a sharp step,
    whose evidences have their maxima inside the bounds (no warnings)."""
    rng = np.random.default_rng(4)
    X = rng.uniform(-4, 4, size=(30, 1))
    if periodic:
        y = np.sin(2 * np.pi * X[:, 0] / 2.5) + 0.2 * rng.normal(size=30)
    else:
        y = np.tanh(3 * X[:, 0]) + 0.3 * X[:, 0] ** 2
        y += 0.05 * rng.normal(size=30)
    return X, y


@rounding_level_stops
@pytest.mark.parametrize("name", GP_SPECS)
def test_regressor_evidence_and_fit_match_sklearn(name):
    X, y = gp_data(periodic=name == "sine")
    kernel, reference = GP_SPECS[name](ours), GP_SPECS[name](sk)
    ours_gp = GaussianProcessRegressor(kernel, alpha=0.01).fit(X, y)
    theirs = SkGPR(reference, alpha=0.01).fit(X, y)
    rng = np.random.default_rng(0)
    for theta in [kernel.theta, kernel.theta + rng.normal(size=kernel.n_dims)]:
        value, gradient = ours_gp.log_marginal_likelihood(
            theta, eval_gradient=True
        )
        value_sk, gradient_sk = theirs.log_marginal_likelihood(
            theta, eval_gradient=True
        )
        assert value == pytest.approx(value_sk, rel=1e-10)
        np.testing.assert_allclose(gradient, gradient_sk, rtol=1e-8, atol=1e-9)
    # L-BFGS-B stops once a step gains less than ftol·max(|f|, 1), ftol =
    # 1e7·eps; ours may stop that many gains short (eight, as in
    # assert_same_optimum) of scikit-learn's optimum, not more
    optimum = theirs.log_marginal_likelihood_value_
    stop_gain = 1e7 * EPS * max(1.0, abs(optimum))
    assert ours_gp.log_marginal_likelihood_value_ >= optimum - 8 * stop_gain
    assert ours_gp.log_marginal_likelihood_value_ == pytest.approx(
        theirs.log_marginal_likelihood(ours_gp.kernel_.theta), rel=1e-10
    )
    assert repr(kernel) == repr(reference)  # the caller's kernel untouched
