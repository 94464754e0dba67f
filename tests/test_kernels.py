import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.metrics.pairwise import euclidean_distances

from mllib.kernels import squared_euclidean_distances


@pytest.mark.parametrize("shape", [(5, 1), (40, 3), (30, 50)])
def test_matches_scipy_and_sklearn(rng, shape):
    X, Y = rng.normal(size=shape), rng.normal(size=(7, shape[1]))
    D = squared_euclidean_distances(X, Y)
    np.testing.assert_allclose(
        D, cdist(X, Y, "sqeuclidean"), rtol=1e-12, atol=1e-12
    )
    np.testing.assert_allclose(
        D, euclidean_distances(X, Y, squared=True), rtol=1e-10, atol=1e-10
    )


def test_self_distances_are_symmetric_with_zero_diagonal(rng):
    X = rng.normal(size=(25, 4))
    D = squared_euclidean_distances(X)
    assert (
        np.all(np.diag(D) == 0) and np.array_equal(D, D.T) and np.all(D >= 0)
    )
    np.testing.assert_allclose(D, cdist(X, X, "sqeuclidean"), atol=1e-12)


def test_accurate_far_from_the_origin(rng):
    X = 1e4 + rng.normal(
        size=(30, 3)
    )  # spread 1, offset 1e4: the naive expansion loses ~8 digits
    Y = 1e4 + rng.normal(size=(20, 3))
    np.testing.assert_allclose(
        squared_euclidean_distances(X, Y),
        cdist(X, Y, "sqeuclidean"),
        rtol=1e-9,
    )


def test_small_distances_keep_their_relative_accuracy(rng):
    """Close pairs among spread-out points: each D_ij must be right to a few units of rounding,
    judged against differences summed in extended precision."""
    X = rng.uniform(-2, 2, size=(40, 3))
    Y = X + 1e-7 * rng.normal(size=X.shape)  # y_i is 1e-7 from x_i
    exact = ((X.astype(np.longdouble) - Y.astype(np.longdouble)) ** 2).sum(
        axis=1
    )
    relative_error = lambda D: np.abs(np.diag(D) - exact) / exact
    assert (
        relative_error(squared_euclidean_distances(X, Y)).max()
        < 8 * np.finfo(float).eps
    )
    # the norm expansion |x|² + |y|² − 2xᵀy (even after centring) loses these distances entirely
    shift = X.mean(axis=0)
    Xc, Yc = X - shift, Y - shift
    expansion = (
        (Xc**2).sum(axis=1)[:, None]
        + (Yc**2).sum(axis=1)[None, :]
        - 2 * Xc @ Yc.T
    )
    assert relative_error(expansion).max() > 1e-3


def test_feature_mismatch_and_inputs_untouched(rng):
    X = rng.normal(size=(3, 2))
    X0 = X.copy()
    squared_euclidean_distances(X, X + 1)
    np.testing.assert_array_equal(X, X0)
    with pytest.raises(ValueError, match="same number of features"):
        squared_euclidean_distances(X, np.ones((2, 3)))


# --- kernels ---------------------------------------------------------------------------------

from itertools import combinations, product  # noqa: E402
from math import comb, factorial  # noqa: E402

from sklearn.metrics import pairwise  # noqa: E402

from mllib.kernels import (  # noqa: E402
    anova_kernel,
    check_psd,
    linear_kernel,
    min_kernel,
    pairwise_kernels,
    polynomial_kernel,
    rbf_kernel,
)

SHAPES = [((6, 1), (4, 1)), ((40, 3), (25, 3)), ((20, 30), (9, 30))]


@pytest.mark.parametrize("shapes", SHAPES, ids=["d1", "d3", "d30"])
@pytest.mark.parametrize(
    "ours, theirs, params",
    [
        (linear_kernel, pairwise.linear_kernel, {}),
        (polynomial_kernel, pairwise.polynomial_kernel, {}),
        (
            polynomial_kernel,
            pairwise.polynomial_kernel,
            dict(degree=2, gamma=0.7, coef0=0.0),
        ),
        (
            polynomial_kernel,
            pairwise.polynomial_kernel,
            dict(degree=4, gamma=0.2, coef0=2.5),
        ),
        (rbf_kernel, pairwise.rbf_kernel, {}),
        (rbf_kernel, pairwise.rbf_kernel, dict(gamma=3.0)),
    ],
    ids=[
        "linear",
        "poly-default",
        "poly-homogeneous",
        "poly-4",
        "rbf-default",
        "rbf-3",
    ],
)
def test_kernels_match_sklearn(rng, shapes, ours, theirs, params):
    X, Y = rng.normal(size=shapes[0]), rng.normal(size=shapes[1])
    np.testing.assert_allclose(
        ours(X, Y, **params), theirs(X, Y, **params), rtol=1e-12, atol=1e-12
    )
    np.testing.assert_allclose(
        ours(X, **params), theirs(X, **params), rtol=1e-12, atol=1e-12
    )


def test_default_gamma_is_one_over_the_number_of_features(rng):
    X = rng.normal(size=(10, 4))
    np.testing.assert_allclose(
        rbf_kernel(X), rbf_kernel(X, gamma=0.25), rtol=0, atol=0
    )
    np.testing.assert_allclose(
        polynomial_kernel(X), polynomial_kernel(X, gamma=0.25), rtol=0, atol=0
    )
    assert not np.allclose(rbf_kernel(X), rbf_kernel(X, gamma=1.0))


def _monomial_features(x, degree):
    """The monomials of (1, x) of total degree p, each scaled by sqrt(multinomial coefficient)."""
    z = np.r_[1.0, x]
    features = []
    for powers in product(range(degree + 1), repeat=len(z)):
        if sum(powers) == degree:
            multinomial = factorial(degree) / np.prod(
                [factorial(k) for k in powers]
            )
            features.append(
                np.sqrt(multinomial) * np.prod(z ** np.array(powers))
            )
    return np.array(features)


@pytest.mark.parametrize("d, p", [(2, 2), (3, 3), (3, 4)])
def test_polynomial_kernel_is_the_inner_product_of_scaled_monomials(rng, d, p):
    X = rng.normal(size=(5, d))
    Phi = np.array([_monomial_features(x, p) for x in X])
    assert Phi.shape[1] == comb(d + p, p)
    np.testing.assert_allclose(
        Phi @ Phi.T,
        polynomial_kernel(X, degree=p, gamma=1.0, coef0=1.0),
        rtol=1e-12,
        atol=1e-12,
    )


def test_anova_kernel_is_the_inner_product_over_all_subsets(rng):
    d = 4
    X, Y = rng.normal(size=(6, d)), rng.normal(size=(3, d))
    subsets = [S for r in range(d + 1) for S in combinations(range(d), r)]
    phi = lambda A: np.array(
        [[np.prod(a[list(S)]) for S in subsets] for a in A]
    )  # prod over {} is 1
    assert len(subsets) == 2**d
    np.testing.assert_allclose(
        anova_kernel(X, Y), phi(X) @ phi(Y).T, rtol=1e-12
    )


def test_anova_kernel_on_booleans_counts_common_conjunctions(rng):
    A = rng.integers(0, 2, size=(8, 7)).astype(float)
    np.testing.assert_array_equal(anova_kernel(A), 2.0 ** (A @ A.T))


def test_min_kernel_brute_force_and_feature_map(rng):
    X, Y = rng.uniform(0, 3, size=(7, 3)), rng.uniform(0, 3, size=(5, 3))
    brute = np.array([[np.minimum(x, t).sum() for t in Y] for x in X])
    np.testing.assert_allclose(min_kernel(X, Y), brute, rtol=1e-14)
    # min(x, t) = integral of 1[s <= x] 1[s <= t] ds, approximated on a fine grid of s
    s = np.linspace(0, 3, 300_001)[:-1] + 0.5e-5
    step = 1e-5
    x, t = 1.234567, 2.5
    assert abs(step * np.sum((s <= x) & (s <= t)) - min(x, t)) < 2e-5


def test_min_kernel_rejects_negative_inputs():
    with pytest.raises(
        ValueError, match="non-negative inputs.*Y has negative"
    ):
        min_kernel(np.ones((2, 2)), -np.ones((2, 2)))


@pytest.mark.parametrize(
    "kernel", [linear_kernel, polynomial_kernel, rbf_kernel, anova_kernel]
)
def test_gram_matrices_of_kernels_are_psd(rng, kernel):
    X = rng.normal(size=(60, 3))
    assert check_psd(kernel(X)) > -1e-8 * np.abs(kernel(X)).max()
    assert check_psd(min_kernel(np.abs(X))) >= -1e-10


def test_check_psd_rejects_indefinite_and_asymmetric_matrices(rng):
    X = rng.normal(size=(30, 2))
    sigmoid = np.tanh(X @ X.T - 1.0)  # the "sigmoid kernel" is not PSD
    with pytest.raises(
        ValueError,
        match="not positive semi-definite: its smallest eigenvalue is -",
    ):
        check_psd(sigmoid)
    with pytest.raises(ValueError, match="not symmetric"):
        check_psd(rbf_kernel(X) + np.triu(np.full((30, 30), 0.1), 1))
    with pytest.raises(ValueError, match="square"):
        check_psd(np.ones((3, 2)))
    # an exactly PSD matrix of rank 2 has 48 zero eigenvalues, computed with rounding-level signs
    low_rank = linear_kernel(rng.normal(size=(50, 2)))
    assert abs(check_psd(low_rank)) < 1e-12 * np.abs(low_rank).max()


def test_check_psd_tolerance_is_relative_and_tight(rng):
    """Rounding-sized negative eigenvalues pass; a real one, a millionth of the largest, does not."""
    U = np.linalg.qr(rng.normal(size=(20, 20)))[0]
    eigenvalues = np.linspace(1.0, 100.0, 20)
    for smallest, ok in [(-1e-12 * 100, True), (-1e-6 * 100, False)]:
        eigenvalues[0] = smallest
        K = (U * eigenvalues) @ U.T
        K = 0.5 * (K + K.T)
        for scale in (
            1e-6,
            1.0,
            1e6,
        ):  # relative: the same verdict at any scale
            if ok:
                assert check_psd(scale * K) == pytest.approx(
                    scale * smallest, abs=1e-12 * scale * 100
                )
            else:
                with pytest.raises(
                    ValueError, match="not positive semi-definite"
                ):
                    check_psd(scale * K)


def test_pairwise_kernels_by_name_and_callable(rng):
    X, Y = rng.normal(size=(5, 3)), rng.normal(size=(4, 3))
    params = dict(gamma=0.5, degree=2, coef0=1.5)
    np.testing.assert_array_equal(
        pairwise_kernels(X, Y, "rbf", **params), rbf_kernel(X, Y, gamma=0.5)
    )
    np.testing.assert_array_equal(
        pairwise_kernels(X, Y, "linear", **params), linear_kernel(X, Y)
    )
    np.testing.assert_array_equal(
        pairwise_kernels(X, Y, "poly", **params),
        polynomial_kernel(X, Y, degree=2, gamma=0.5, coef0=1.5),
    )
    np.testing.assert_array_equal(
        pairwise_kernels(X, Y, anova_kernel), anova_kernel(X, Y)
    )
    with pytest.raises(ValueError, match="Unknown kernel 'cosine'"):
        pairwise_kernels(X, Y, "cosine")
    with pytest.raises(ValueError, match="returned shape"):
        pairwise_kernels(X, Y, lambda A, B: A @ A.T)


def test_kernels_leave_inputs_untouched_and_check_shapes(rng):
    X, Y = rng.uniform(size=(4, 3)), rng.uniform(size=(5, 3))
    X0, Y0 = X.copy(), Y.copy()
    for kernel in (
        linear_kernel,
        polynomial_kernel,
        rbf_kernel,
        anova_kernel,
        min_kernel,
    ):
        kernel(X, Y)
        with pytest.raises(ValueError, match="same number of features"):
            kernel(X, Y[:, :2])
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(Y, Y0)
    with pytest.raises(ValueError, match="gamma must be in"):
        rbf_kernel(X, gamma=-1.0)
