"""Fit times of mllib's clustering and mixture models against scikit-learn's,
in one process.

k-means on 50000x10 with k=8 overlapping blobs (Lloyd's algorithm from the
same k-means++ centres, one run, so both libraries do the same iterations:
to convergence, and exactly 20 as in issue 24's benchmark);
DBSCAN on 5000 points in 2-D (four blobs, about 30 neighbours within eps of a
point); a full-covariance Gaussian mixture on 20000x5 with 5 components (EM
from the same initial means, a fixed number of iterations).

Both libraries run with single-threaded BLAS and OpenMP
(``threadpoolctl``), so that the ratios measure the code rather than the
load of a shared machine.

Run from the repository root: ``python benchmarks/bench_unsupervised.py``.
"""

import warnings

import numpy as np
from scipy.spatial.distance import cdist
from sklearn import cluster as skc
from sklearn import mixture as skm
from sklearn.datasets import load_sample_image, make_blobs
from threadpoolctl import threadpool_limits
from timing import ISSUE_24_LIMIT, compare

from mllib.cluster import DBSCAN, KMeans, kmeans_plusplus
from mllib.exceptions import ConvergenceWarning
from mllib.mixture import GaussianMixture


def kmeans_data(n, seed=0):
    """Overlapping blobs in 10-D and k-means++ centres for k = 8."""
    X, _ = make_blobs(
        n_samples=n,
        n_features=10,
        centers=8,
        cluster_std=6.0,
        random_state=seed,
    )
    return X, kmeans_plusplus(X, 8, random_state=seed)[0]


def kmeans_pair(X, init, check=False, **settings):
    """The two Lloyd fits from the same centres (``settings``: ``max_iter``,
    ``tol``); checks that they agree."""
    ours = lambda: KMeans(8, init=init, n_init=1, **settings).fit(X)
    theirs = lambda: skc.KMeans(
        8, init=init, n_init=1, algorithm="lloyd", **settings
    ).fit(X)
    if check:
        a, b = ours(), theirs()
        gap = abs(a.inertia_ - b.inertia_) / b.inertia_
        assert a.n_iter_ == b.n_iter_ and gap < 1e-10, (a.n_iter_, gap)
        assert np.array_equal(a.labels_, b.labels_)
    return ours, theirs


def colour_quantisation_row():
    """The gallery's colour quantisation (plot_color_quantization): 64
    colours fitted to 1000 pixels of scikit-learn's bundled china.jpg, then
    every one of its 273280 pixels assigned to the nearest colour."""
    china = np.asarray(load_sample_image("china.jpg"), dtype=np.float64)
    pixels = china.reshape(-1, 3) / 255
    sample = pixels[np.random.RandomState(0).permutation(len(pixels))[:1000]]
    ours = KMeans(64, init=sample[:64], n_init=1).fit(sample)
    theirs = skc.KMeans(64, init=sample[:64], n_init=1).fit(sample)
    # pixel values are multiples of 1/255, so many pixels lie exactly as far
    # from two colours, and each library's rounding breaks those ties its
    # own way (the fits differ too): check that each sends every pixel to a
    # nearest colour of its own, to rounding
    for model in (ours, theirs):
        distances = cdist(pixels, model.cluster_centers_, "sqeuclidean")
        chosen = distances[np.arange(len(pixels)), model.predict(pixels)]
        np.testing.assert_allclose(chosen, distances.min(axis=1), atol=1e-12)
    return compare(
        "KMeans predict 273280x3, k=64 (colour quantisation)",
        lambda: ours.predict(pixels),
        lambda: theirs.predict(pixels),
        limit=ISSUE_24_LIMIT,
        targeted=True,
    )


def dbscan_data(n):
    """Four blobs in 2-D, with eps shrinking as sqrt(5000 / n) so that a
    point has about the same number of neighbours (about 30) at every n."""
    X, _ = make_blobs(n_samples=n, centers=4, random_state=0)
    return X, 0.3 * np.sqrt(5000 / n)


def dbscan_pair(X, eps, check=False):
    ours = lambda: DBSCAN(eps=eps, min_samples=5).fit(X)
    theirs = lambda: skc.DBSCAN(eps=eps, min_samples=5).fit(X)
    if check:
        a, b = ours(), theirs()
        assert np.array_equal(a.labels_, b.labels_)
        assert np.array_equal(a.core_sample_indices_, b.core_sample_indices_)
    return ours, theirs


def rows():
    X, init = kmeans_data(50_000)
    results = [
        compare(
            "KMeans 50000x10, k=8 (lloyd, one run)",
            *kmeans_pair(X, init, check=True),
            repeat=5,
            targeted=True,
        )
    ]
    with warnings.catch_warnings():
        # 20 iterations stop before convergence: mllib warns, as it should
        warnings.simplefilter("ignore", ConvergenceWarning)
        results.append(
            compare(
                "KMeans 50000x10, k=8, 20 Lloyd iterations",
                *kmeans_pair(X, init, check=True, max_iter=20, tol=0.0),
                repeat=7,
                limit=ISSUE_24_LIMIT,
                targeted=True,
            )
        )
    results.append(colour_quantisation_row())
    X, eps = dbscan_data(5000)
    results.append(
        compare(
            "DBSCAN 5000x2, eps=0.3, min_samples=5",
            *dbscan_pair(X, eps, check=True),
            repeat=5,
            targeted=True,
        )
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
        # tol=0 never converges: both run exactly max_iter EM steps
        warnings.simplefilter("ignore")
        results.append(
            compare(
                "GaussianMixture 20000x5, 5 full, 50 EM steps",
                lambda: GaussianMixture(**settings).fit(X),
                lambda: skm.GaussianMixture(**settings).fit(X),
                repeat=3,
            )
        )
    return results


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        rows()
