r"""DBSCAN: clusters are connected regions of dense points; sparse points are
noise."""

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils.validation import validate_data

from ..validation import check_int, check_sample_weight, check_scalar


def radius_neighbors_graph(X, eps):
    r"""Sparse boolean (n, n) matrix with entry :math:`(i,j)` set when
    :math:`\lVert x_i-x_j\rVert\le\varepsilon`.

    Every point is its own neighbour. The pairs come from a k-d tree
    (:class:`scipy.spatial.cKDTree`), which looks for the neighbours of a
    point only in the cells of space within :math:`\varepsilon` of it: in low
    dimension about :math:`O(n\log n)` plus the number of pairs, instead of
    the :math:`O(n^2d)` of comparing every pair (scikit-learn's DBSCAN also
    uses a tree). Memory is the number of neighbour pairs.
    """
    n = len(X)
    pairs = cKDTree(X).query_pairs(eps, output_type="ndarray")  # i < j
    rows = np.concatenate([pairs[:, 0], pairs[:, 1], np.arange(n)])
    cols = np.concatenate([pairs[:, 1], pairs[:, 0], np.arange(n)])
    return csr_matrix(
        (np.ones(len(rows), dtype=bool), (rows, cols)), shape=(n, n)
    )


class DBSCAN(ClusterMixin, BaseEstimator):
    r"""Density-based spatial clustering of applications with noise.

    With the :math:`\varepsilon`-neighbourhood
    :math:`N_\varepsilon(x)=\{x':\lVert x-x'\rVert\le\varepsilon\}` (which
    contains :math:`x` itself), a **core** point has
    :math:`|N_\varepsilon(x)|\ge` ``min_samples``. Clusters are the connected
    components of the graph joining core points that lie in each other's
    neighbourhood; a non-core point in the neighbourhood of a core point is a
    **border** point of that cluster, and every other point is **noise** (label
    -1).

    With sample weights :math:`s(x)` (``fit``'s ``sample_weight``) a point is
    core when the weight of its neighbourhood, :math:`\sum_{x'\in
    N_\varepsilon(x)}s(x')`, is at least ``min_samples``, as in scikit-learn:
    an integer weight counts as that many copies of the point, a point of
    weight at least ``min_samples`` is core by itself, and a negative weight
    can keep its neighbours from being core. A point of weight zero still
    gets a label (it may even be core, if its neighbours weigh enough).

    A border point near several clusters joins the one found first when
    clusters are numbered in the order of their first core point, which is what
    scikit-learn's depth-first search does; core points and noise do not depend
    on the order of the data.

    Parameters
    ----------
    eps : float, default 0.5
        Neighbourhood radius (Euclidean).
    min_samples : int, default 5
        Neighbourhood size (counting the point itself) that makes a point a
        core point.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster index 0, 1, ..., or -1 for noise.
    core_sample_indices_ : ndarray of shape (n_core_samples,)
    components_ : ndarray of shape (n_core_samples, n_features)
        The core points.
    n_features_in_ : int

    Notes
    -----
    Equivalent to ``sklearn.cluster.DBSCAN(eps, min_samples)`` (Euclidean
    metric), label for label. Pairs at a distance within rounding error of
    ``eps`` may be classified differently. The neighbourhood graph comes from a
    k-d tree (:func:`radius_neighbors_graph`); its memory is the number of
    neighbour pairs.

    References
    ----------
    Ester, Kriegel, Sander & Xu, KDD 1996; Schubert et al., *DBSCAN revisited,
    revisited*, ACM TODS 42 (2017).
    """

    def __init__(self, eps=0.5, min_samples=5):
        self.eps = eps
        self.min_samples = min_samples

    def fit(self, X, y=None, sample_weight=None):
        """Cluster ``X`` of shape (n_samples, n_features), each point
        weighted by ``sample_weight`` (n_samples,) if given (negative
        weights allowed, as in scikit-learn); ``y`` is ignored. Returns
        self."""
        X, eps, min_samples = self._validated(X)
        weights = check_sample_weight(
            sample_weight, len(X), non_negative=False
        )
        neighbors = radius_neighbors_graph(X, eps)
        # the weight of each neighbourhood (its size, without weights)
        core = neighbors @ weights >= min_samples
        core_index = np.flatnonzero(core)

        # clusters of core points: connected components, numbered by their
        # first core point
        _, component = connected_components(
            neighbors[core][:, core], directed=False
        )
        _, first = np.unique(component, return_index=True)
        rank = np.empty(len(first), dtype=int)
        rank[np.argsort(first)] = np.arange(len(first))
        labels = np.full(len(X), -1)
        labels[core_index] = rank[component]

        # border points: the lowest-numbered cluster among their core
        # neighbours
        border_rows, core_cols = neighbors[~core][:, core].nonzero()
        candidate = np.full(int(np.sum(~core)), len(first))
        np.minimum.at(candidate, border_rows, labels[core_index][core_cols])
        labels[~core] = np.where(candidate < len(first), candidate, -1)

        self.labels_ = labels
        self.core_sample_indices_ = core_index
        self.components_ = X[core].copy()
        return self

    def _validated(self, X):
        """``X`` as floats, ``eps`` and ``min_samples``, checked."""
        X = validate_data(self, X, dtype=np.float64)
        eps = check_scalar(self.eps, "eps", low=0, low_inclusive=False)
        min_samples = check_int(self.min_samples, "min_samples", low=1)
        return X, eps, min_samples
