r"""Agglomerative hierarchical clustering: merge the two closest clusters until
one is left."""

import numpy as np
from scipy.cluster import hierarchy
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils.validation import validate_data

from ..validation import check_int, check_scalar

LINKAGES = ("ward", "complete", "average", "single")
#: scikit-learn's names that scipy's pdist calls otherwise
SCIPY_NAMES = {"l2": "euclidean", "l1": "cityblock", "manhattan": "cityblock"}


def cut_tree(children, n_leaves, n_clusters):
    """Labels of the ``n_clusters`` clusters left after the first ``n_leaves -
    n_clusters`` merges.

    ``children[i]`` holds the two nodes merged at step ``i`` into node
    ``n_leaves + i`` (leaves are nodes ``0 .. n_leaves-1``). Labels are
    numbered by each cluster's first sample.
    """
    n_merges = n_leaves - n_clusters
    parent = np.arange(n_leaves + n_merges)
    for i, (a, b) in enumerate(children[:n_merges]):
        parent[a] = parent[b] = n_leaves + i
    root = parent.copy()
    # a parent is newer, so already resolved
    for node in range(n_leaves + n_merges - 1, -1, -1):
        root[node] = root[parent[node]]
    _, first, labels = np.unique(
        root[:n_leaves], return_index=True, return_inverse=True
    )
    return np.argsort(np.argsort(first))[labels]


class AgglomerativeClustering(ClusterMixin, BaseEstimator):
    r"""Bottom-up hierarchical clustering.

    Start from :math:`n` singleton clusters and repeatedly merge the pair
    :math:`(A,B)` with the smallest linkage distance

    .. math::
        d_{\text{single}}=\min_{a\in A,b\in B}\lVert a-b\rVert,\quad
        d_{\text{complete}}=\max_{a,b}\lVert a-b\rVert,\quad
        d_{\text{average}}=\frac{1}{|A||B|}\sum_{a,b}\lVert a-b\rVert,\quad
        d_{\text{ward}}=\sqrt{\frac{2|A||B|}{|A|+|B|}}
        \,\lVert\bar a-\bar b\rVert,

    the last being :math:`\sqrt2` times the square root of the increase in the
    within-cluster sum of squares that the merge causes (so Euclidean
    distances only). The other linkages take any ``metric`` in place of
    :math:`\lVert a-b\rVert`. The merge tree is
    computed by ``scipy.cluster.hierarchy.linkage``, then cut into
    ``n_clusters`` clusters, or where the merge distance reaches
    ``distance_threshold``.

    Parameters
    ----------
    n_clusters : int or None, default 2
    metric : str or callable, default "euclidean"
        "euclidean" ("l2"), "manhattan" ("l1", "cityblock"), "cosine" or
        another of scipy's ``pdist`` metrics; "precomputed" (``X`` is then
        the square matrix of distances), or a function from ``X`` to that
        matrix. "ward" takes "euclidean" only.
    linkage : {"ward", "complete", "average", "single"}, default "ward"
    distance_threshold : float or None
        If given (with ``n_clusters=None``), merges at distances ``>=
        distance_threshold`` are undone.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
    n_clusters_ : int
    children_ : ndarray of shape (n_samples - 1, 2)
        Merge ``i`` joins ``children_[i]`` into node ``n_samples + i``.
    distances_ : ndarray of shape (n_samples - 1,)
        Linkage distance of each merge.
    linkage_matrix_ : ndarray of shape (n_samples - 1, 4)
        The tree in scipy's format, for ``scipy.cluster.hierarchy.dendrogram``.
    n_leaves_, n_features_in_ : int

    Notes
    -----
    Equivalent to ``sklearn.cluster.AgglomerativeClustering(n_clusters,
    metric=..., linkage=..., distance_threshold=...,
    compute_distances=True)`` with no connectivity constraint (the labels may
    be numbered differently).

    References
    ----------
    Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*,
    §14.3.12; Müllner, *Modern hierarchical, agglomerative clustering
    algorithms*, arXiv:1109.2378 (2011).
    """

    def __init__(
        self,
        n_clusters=2,
        *,
        metric="euclidean",
        linkage="ward",
        distance_threshold=None,
    ):
        self.n_clusters = n_clusters
        self.metric = metric
        self.linkage = linkage
        self.distance_threshold = distance_threshold

    def fit(self, X, y=None):
        """Build the merge tree of ``X`` of shape (n_samples, n_features) and
        cut it. Returns self."""
        X = validate_data(self, X, dtype=np.float64)
        if self.linkage not in LINKAGES:
            raise ValueError(
                f"linkage must be one of {LINKAGES}; got {self.linkage!r}."
            )
        if (self.n_clusters is None) == (self.distance_threshold is None):
            raise ValueError(
                "Set exactly one of n_clusters and distance_threshold "
                "(the other to None); "
                f"got n_clusters={self.n_clusters!r}, "
                f"distance_threshold={self.distance_threshold!r}."
            )
        if len(X) < 2:
            raise ValueError(
                "Hierarchical clustering needs at least 2 samples; got "
                f"n_samples={len(X)}."
            )
        observations, metric = self._observations_and_metric(X)
        self.linkage_matrix_ = hierarchy.linkage(
            observations, method=self.linkage, metric=metric
        )
        self.children_ = self.linkage_matrix_[:, :2].astype(int)
        self.distances_ = self.linkage_matrix_[:, 2].copy()
        self.n_leaves_ = len(X)
        if self.distance_threshold is None:
            self.n_clusters_ = check_int(self.n_clusters, "n_clusters", low=1)
            if self.n_clusters_ > len(X):
                raise ValueError(
                    f"n_clusters={self.n_clusters_} is larger than the "
                    f"number of samples ({len(X)})."
                )
        else:
            threshold = check_scalar(
                self.distance_threshold, "distance_threshold", low=0
            )
            self.n_clusters_ = (
                int(np.count_nonzero(self.distances_ >= threshold)) + 1
            )
        self.labels_ = cut_tree(self.children_, len(X), self.n_clusters_)
        return self

    def _observations_and_metric(self, X):
        """What ``hierarchy.linkage`` takes, as scikit-learn passes it: the
        rows and scipy's name of the metric, or the distances above the
        diagonal (whose metric scipy then ignores)."""
        metric = self.metric
        if self.linkage == "ward" and metric not in ("euclidean", "l2"):
            raise ValueError(
                f"{metric!r} was provided as metric. Ward can only work "
                "with euclidean distances."
            )
        if metric == "cosine" and np.any(~np.any(X, axis=1)):
            raise ValueError(
                "Cosine affinity cannot be used when X contains zero vectors"
            )
        if callable(metric):  # scikit-learn's: X to its distance matrix
            X, metric = np.asarray(metric(X), dtype=np.float64), "precomputed"
        if metric == "precomputed":
            if X.ndim != 2 or X.shape[0] != X.shape[1]:
                raise ValueError(
                    "Distance matrix should be square, got matrix of shape "
                    f"{X.shape}"
                )
            return X[np.triu_indices(len(X), k=1)], "euclidean"
        return X, SCIPY_NAMES.get(metric, metric)
