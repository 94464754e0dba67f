"""Fit times of mllib's linear models against scikit-learn's, on the same data, in one process.

Ridge on 20000×100 (the primal Cholesky solve), Ridge on 500×5000 (the dual one), the lasso
on 5000×200 at an alpha that keeps about 20 non-zero coefficients, and the elastic net on the
same data, and the gallery's lasso and elastic-net paths on diabetes. The
features are correlated (Toeplitz, correlation 0.5 between neighbours), which
makes coordinate descent need more sweeps than on independent features.

Both libraries run with single-threaded BLAS (``threadpoolctl``): on a small machine shared
with other jobs, a multithreaded BLAS call can wait for a descheduled thread and take 100
times longer, which would make the ratios measure the load rather than the code. Each time is
the best of 15 fits.

Run from the repository root: ``python benchmarks/bench_linear_models.py``.
"""

import numpy as np
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes
from threadpoolctl import threadpool_limits
from timing import ISSUE_24_LIMIT
from timing import compare as compare_best_of

from mllib.linear_model import ElasticNet, Lasso, Ridge, enet_path


def correlated_regression(n, d, n_informative, seed, rho=0.5):
    rng = np.random.default_rng(seed)
    chol = np.linalg.cholesky(
        rho ** np.abs(np.subtract.outer(np.arange(d), np.arange(d)))
    )
    X = rng.normal(size=(n, d)) @ chol.T
    w = np.zeros(d)
    w[rng.choice(d, n_informative, replace=False)] = rng.normal(
        scale=2.0, size=n_informative
    )
    return X, X @ w + 1.0 + rng.normal(size=n)


def compare(name, ours, theirs):
    return compare_best_of(name, ours, theirs, repeat=15)


def rows():
    results = []
    X, y = correlated_regression(20000, 100, 100, seed=0)
    results.append(
        compare(
            "Ridge 20000x100 (primal)",
            lambda: Ridge(alpha=1.0).fit(X, y),
            lambda: sk.Ridge(alpha=1.0).fit(X, y),
        )
    )
    X, y = correlated_regression(500, 5000, 50, seed=1)
    results.append(
        compare(
            "Ridge 500x5000 (dual)",
            lambda: Ridge(alpha=1.0).fit(X, y),
            lambda: sk.Ridge(alpha=1.0).fit(X, y),
        )
    )

    X, y = correlated_regression(5000, 200, 20, seed=2)
    alpha = 0.1
    ours, ref = Lasso(alpha=alpha).fit(X, y), sk.Lasso(alpha=alpha).fit(X, y)
    print(
        f"  lasso alpha={alpha}: {np.count_nonzero(ours.coef_)} non-zeros (scikit-learn "
        f"{np.count_nonzero(ref.coef_)}), sweeps {ours.n_iter_} ({ref.n_iter_}), "
        f"max |coef difference| {np.max(np.abs(ours.coef_ - ref.coef_)):.1e}"
    )
    results.append(
        compare(
            "Lasso 5000x200, ~20 non-zeros",
            lambda: Lasso(alpha=alpha).fit(X, y),
            lambda: sk.Lasso(alpha=alpha).fit(X, y),
        )
    )
    results.append(
        compare(
            "ElasticNet 5000x200, l1_ratio=0.5",
            lambda: ElasticNet(alpha=alpha).fit(X, y),
            lambda: sk.ElasticNet(alpha=alpha).fit(X, y),
        )
    )
    return results + path_rows()


def path_rows():
    """The gallery's regularisation paths (plot_lasso_lasso_lars_elasticnet
    _path): diabetes, standardised, 100 alphas down to eps = 5e-3, each fit
    warm-started from the previous one."""
    X, y = load_diabetes(return_X_y=True)
    X = X / X.std(axis=0)
    results = []
    for name, l1_ratio in [("lasso_path", 1.0), ("enet_path", 0.8)]:
        ours = lambda: enet_path(X, y, eps=5e-3, l1_ratio=l1_ratio)
        theirs = lambda: sk.enet_path(X, y, eps=5e-3, l1_ratio=l1_ratio)
        (alphas, coefs, _), (sk_alphas, sk_coefs, _) = ours(), theirs()
        np.testing.assert_allclose(alphas, sk_alphas, rtol=1e-12)
        # both stop on the same duality-gap rule (1e-4 ||y||^2), so the
        # coefficients agree closely but not to rounding
        scale = np.abs(sk_coefs).max()
        assert np.abs(coefs - sk_coefs).max() < 1e-2 * scale
        results.append(
            compare_best_of(
                f"{name} diabetes 442x10, 100 alphas, l1_ratio={l1_ratio:g}",
                ours,
                theirs,
                repeat=15,
                limit=ISSUE_24_LIMIT,
                targeted=True,
            )
        )
    return results


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        rows()
