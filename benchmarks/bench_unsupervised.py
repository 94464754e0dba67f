"""Fit times of mllib's clustering and mixture models against scikit-learn's, in one process.

k-means on 50000×10 with k=8 overlapping blobs (Lloyd's algorithm from the same k-means++ centres, one run, so
both libraries do the same iterations), and a full-covariance Gaussian mixture on 20000×5 with
5 components (EM from the same initial means, a fixed number of iterations).

Both libraries run with single-threaded BLAS and OpenMP (``threadpoolctl``), so that the
ratios measure the code rather than the load of a shared machine. Each time is the best of 3
fits.

Run from the repository root: ``python benchmarks/bench_unsupervised.py``.
"""

import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn import cluster as skc
from sklearn import mixture as skm
from sklearn.datasets import make_blobs
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import compare  # noqa: E402

from mllib.cluster import KMeans, kmeans_plusplus  # noqa: E402
from mllib.mixture import GaussianMixture  # noqa: E402


def main():
    X, _ = make_blobs(
        n_samples=50_000,
        n_features=10,
        centers=8,
        cluster_std=6.0,
        random_state=0,
    )
    init = kmeans_plusplus(X, 8, random_state=0)[0]
    ours, ref = (
        KMeans(8, init=init, n_init=1).fit(X),
        skc.KMeans(8, init=init, n_init=1, algorithm="lloyd").fit(X),
    )
    print(
        f"  k-means: {ours.n_iter_} iterations (scikit-learn {ref.n_iter_}), "
        f"relative inertia difference {abs(ours.inertia_ - ref.inertia_) / ref.inertia_:.1e}"
    )
    compare(
        "KMeans 50000x10, k=8 (lloyd, one run)",
        lambda: KMeans(8, init=init, n_init=1).fit(X),
        lambda: skc.KMeans(8, init=init, n_init=1, algorithm="lloyd").fit(X),
        repeat=3,
    )

    X, _ = make_blobs(
        n_samples=20_000,
        n_features=5,
        centers=5,
        cluster_std=1.5,
        random_state=1,
    )
    means = kmeans_plusplus(X, 5, random_state=1)[0]
    settings = dict(
        n_components=5,
        covariance_type="full",
        means_init=means,
        max_iter=50,
        tol=0.0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore"
        )  # tol=0 never converges: both run exactly max_iter EM steps
        compare(
            "GaussianMixture 20000x5, 5 full, 50 EM steps",
            lambda: GaussianMixture(**settings).fit(X),
            lambda: skm.GaussianMixture(**settings).fit(X),
            repeat=3,
        )


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()
