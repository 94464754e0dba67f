"""GP regression on 1500 points: fit + predict with std, fixed kernel (optimizer=None), mllib vs scikit-learn.

Both fit the same model, RBF(length_scale=0.5) with alpha=1e-10 on 1500 points in 3-D, and predict the
mean and standard deviation at 500 new points. The script first checks that the two agree, then
prints the best-of-5 wall-clock time of each and their ratio (target: at most 2).
"""

import numpy as np
from sklearn.gaussian_process import GaussianProcessRegressor as SkGPR
from sklearn.gaussian_process.kernels import RBF as SkRBF
from threadpoolctl import threadpool_limits
from timing import compare

from mllib.gaussian_process import GaussianProcessRegressor
from mllib.gaussian_process.kernels import RBF

rng = np.random.default_rng(0)
X = rng.uniform(-2, 2, size=(1500, 3))
y = np.sin(2 * X[:, 0]) + X[:, 2] ** 2 / 2 + 0.1 * rng.normal(size=1500)
X_new = rng.uniform(-2, 2, size=(500, 3))


def ours():
    return (
        GaussianProcessRegressor(kernel=RBF(0.5), alpha=1e-10, optimizer=None)
        .fit(X, y)
        .predict(X_new, return_std=True)
    )


def theirs():
    return (
        SkGPR(kernel=SkRBF(0.5), alpha=1e-10, optimizer=None)
        .fit(X, y)
        .predict(X_new, return_std=True)
    )


def rows():
    (mean, std), (ref_mean, ref_std) = ours(), theirs()
    assert np.abs(mean - ref_mean).max() < 1e-6
    assert np.abs(std - ref_std).max() < 1e-6
    print(
        f"max |mean difference| {np.abs(mean - ref_mean).max():.1e}, "
        f"max |std difference| {np.abs(std - ref_std).max():.1e}"
    )
    return [
        compare("GP regression, n=1500, d=3, fit + predict(std)", ours, theirs)
    ]


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        rows()
