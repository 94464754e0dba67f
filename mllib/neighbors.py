r"""k-nearest-neighbour classification and regression, by brute force or a
k-d tree.

Both estimators store the training set and, for a query :math:`x`, find the set
:math:`N_k(x)` of the :math:`k` training points closest in Euclidean distance.
The classifier estimates :math:`\hat P(y=c\mid x)=\sum_{i\in N_k(x)} v_i\mathbb
1[y_i=c]\big/\sum_{i\in N_k(x)} v_i` and predicts the most probable class; the
regressor predicts :math:`\hat f(x)=\sum_{i\in N_k(x)} v_iy_i\big/\sum_{i\in
N_k(x)} v_i`. The vote weights are :math:`v_i=1` (``weights="uniform"``) or
:math:`v_i=1/\lVert x-x_i\rVert` (``"distance"``; a query that coincides with
training points gets the average of those points only). Larger :math:`k`
averages over more points: a smoother, lower-variance, more biased estimate.

Two searches find the same exact neighbours. **Brute force**
(:func:`brute_force_neighbours`) processes the queries in chunks so that the
block of squared distances (from the expansion :math:`\lVert x\rVert^2+\lVert
y\rVert^2-2x^\top y`, one matrix product) stays small; in each row,
:func:`k_smallest` finds the :math:`k` smallest in :math:`O(n)` time, and only
those :math:`k` distances are recomputed directly (the expansion can leave
:math:`10^{-8}` where the distance is 0) and sorted: :math:`O(nd)` per query.
A **k-d tree** (``scipy.spatial.cKDTree``; Friedman, Bentley & Finkel 1977)
splits the training set recursively at the median of one coordinate; a query
descends to its leaf, then visits only the boxes that could hold a point
closer than the :math:`k`-th found so far, about :math:`O(\log n)` per query
in few dimensions, and no better than brute force in many (every box is then
near every query). ``algorithm="auto"`` chooses as scikit-learn does: the
tree for at most 15 features and :math:`k` below half the training set,
brute force otherwise. Same results as scikit-learn's
``KNeighborsClassifier`` / ``KNeighborsRegressor`` with the default Euclidean
metric, wherever no two training points are at exactly the same distance from
a query at the :math:`k`-th place.

References: Fix & Hodges (1951); Cover & Hart (1967), *Nearest neighbor pattern
classification*; Friedman, Bentley & Finkel (1977), *An algorithm for finding
best matches in logarithmic expected time*, ACM TOMS 3.
"""

import numpy as np
from scipy.spatial import cKDTree
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .validation import check_int, encode_classes

#: Squared distances per chunk of queries (about 16 MB of float64).
CHUNK_ENTRIES = 2**21

#: scikit-learn's names for the search; scipy has no ball tree, and a ball
#: tree and a k-d tree return the same exact neighbours, so "ball_tree" is
#: answered by the k-d tree.
ALGORITHMS = ("auto", "ball_tree", "kd_tree", "brute")


def k_smallest(scores, k):
    r"""Column indices of the ``k`` smallest entries of each row of
    ``scores``, shape (n_rows, k), in no particular order.

    Cut each row into blocks of about 64 entries. Their ``k`` smallest
    minima are ``k`` distinct entries, so the ``k``-th smallest of them, the
    ``bound``, is at least the row's ``k``-th smallest entry: the ``k``
    smallest entries lie in the blocks whose minimum is at most the bound,
    and are at most the bound themselves. Typically about ``k`` blocks and
    not many more than ``k`` entries qualify, and only these are sorted:
    :math:`O(n)` work per row in all, several times faster than
    ``np.argpartition`` (one call per row). Ties go to the smaller index.
    """
    n_rows, n = scores.shape
    block = max(1, min(64, n // k))  # at least k blocks
    minima = np.minimum.reduceat(scores, np.arange(0, n, block), axis=1)
    bound = np.partition(minima, k - 1, axis=1)[:, k - 1]
    # the entries of the blocks that may hold one of the k smallest ...
    row, blocks = np.nonzero(minima <= bound[:, None])
    column = (blocks * block)[:, None] + np.arange(block)
    row = np.broadcast_to(row[:, None], column.shape)
    row, column = row[column < n], column[column < n]
    # ... that are not above the bound, by row, value, then column
    candidate = scores[row, column] <= bound[row]
    row, column = row[candidate], column[candidate]
    by_row_and_value = np.lexsort((scores[row, column], row))  # stable
    start = np.searchsorted(row, np.arange(n_rows))  # row is sorted
    return column[by_row_and_value][start[:, None] + np.arange(k)]


def brute_force_neighbours(train, queries, k):
    """Distances to and indices of the ``k`` nearest rows of ``train`` for
    each row of ``queries``, both of shape (n_queries, k), increasing along
    each row (among equal distances, the smaller index first)."""
    chunk = max(1, CHUNK_ENTRIES // len(train))
    distances = np.empty((len(queries), k))
    indices = np.empty((len(queries), k), dtype=np.intp)
    # ||x - t||^2 = ||x||^2 + ||t||^2 - 2 x.t ranks the training points t
    # like ||t||^2 - 2 x.t: one matrix product per chunk (the data centred
    # first: distances do not change, cancellation shrinks)
    centre = train.mean(axis=0)
    centred = train - centre
    sq_norms = np.einsum("ij,ij->i", centred, centred)
    for start in range(0, len(queries), chunk):
        rows = slice(start, start + chunk)
        scores = (queries[rows] - centre) @ (-2.0 * centred.T)
        scores += sq_norms
        nearest = np.sort(k_smallest(scores, k), axis=1)
        # recompute the k distances directly: exact zeros for coinciding
        # points, no cancellation
        exact = np.linalg.norm(queries[rows, None, :] - train[nearest], axis=2)
        # stable: ties keep the smaller index first
        order = np.argsort(exact, axis=1, kind="stable")
        indices[rows] = np.take_along_axis(nearest, order, axis=1)
        distances[rows] = np.take_along_axis(exact, order, axis=1)
    return distances, indices


def kd_tree_neighbours(tree, queries, k):
    """As :func:`brute_force_neighbours`, searching the k-d ``tree``
    (``scipy.spatial.cKDTree``) of the training set; its distances are
    computed from the differences, so they are exact to rounding."""
    distances, indices = tree.query(queries, k=k)
    distances = distances.reshape(len(queries), k)  # k = 1 gives 1-D
    indices = indices.reshape(len(queries), k)
    # the tree orders equal distances arbitrarily: the smaller index first
    order = np.lexsort((indices, distances))
    return (
        np.take_along_axis(distances, order, axis=1),
        np.take_along_axis(indices, order, axis=1),
    )


def choose_search(algorithm, n_samples, n_features, n_neighbors):
    """``"kd_tree"`` or ``"brute"``: scikit-learn's rule for ``"auto"``
    (brute force for more than 15 features, where a tree prunes little, or
    for ``n_neighbors`` at least half the training set, where every query
    visits most of it); ``"ball_tree"`` is answered by the k-d tree."""
    if algorithm == "auto":
        many = n_features > 15 or n_neighbors >= n_samples // 2
        return "brute" if many else "kd_tree"
    return "brute" if algorithm == "brute" else "kd_tree"


class _KNeighborsBase(BaseEstimator):
    def __init__(
        self,
        n_neighbors=5,
        *,
        weights="uniform",
        algorithm="auto",
        leaf_size=30,
    ):
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.algorithm = algorithm
        self.leaf_size = leaf_size

    def _store(self, X, y):
        n_neighbors = check_int(self.n_neighbors, "n_neighbors", low=1)
        if self.weights not in ("uniform", "distance"):
            raise ValueError(
                'weights must be "uniform" or "distance"; got '
                f"{self.weights!r}."
            )
        if self.algorithm not in ALGORITHMS:
            raise ValueError(
                f"algorithm must be one of {ALGORITHMS}; got "
                f"{self.algorithm!r}."
            )
        leaf_size = check_int(self.leaf_size, "leaf_size", low=1)
        self._fit_X, self._y = X.copy(), y
        self.n_samples_fit_ = len(X)
        # scikit-learn's names for its default metric, minkowski with p=2
        self.effective_metric_ = "euclidean"
        self.effective_metric_params_ = {}
        self._fit_method = choose_search(self.algorithm, *X.shape, n_neighbors)
        if self._fit_method == "kd_tree":
            self._tree = cKDTree(self._fit_X, leafsize=leaf_size)
        return self

    def kneighbors(self, X, n_neighbors=None, return_distance=True):
        """Distances to and indices of the nearest training points of each row
        of ``X``.

        Returns
        -------
        distances : ndarray of shape (n_queries, n_neighbors)
            Euclidean distances, increasing along each row (only if
            ``return_distance``).
        indices : ndarray of shape (n_queries, n_neighbors)
            Rows of the training set; among equal distances, the smaller index
            comes first. If several training points tie for the last place,
            which of them are returned depends on the search (the order of
            the tree, the rounding of the expansion), as in scikit-learn.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        if not 1 <= k <= self.n_samples_fit_:
            raise ValueError(
                f"n_neighbors={k} must be between 1 and the number of "
                "training samples, "
                f"{self.n_samples_fit_}."
            )
        if self._fit_method == "kd_tree":
            distances, indices = kd_tree_neighbours(self._tree, X, k)
        else:
            distances, indices = brute_force_neighbours(self._fit_X, X, k)
        return (distances, indices) if return_distance else indices

    def _neighbours_and_votes(self, X):
        """Neighbour indices and their vote weights v_i, both of shape
        (n_queries, n_neighbors)."""
        distances, indices = self.kneighbors(X)
        if self.weights == "uniform":
            return indices, np.ones_like(distances)
        exact = distances == 0
        with np.errstate(divide="ignore"):
            votes = 1.0 / distances
        # the query is a training point: only the coinciding ones vote
        on_a_point = exact.any(axis=1)
        votes[on_a_point] = exact[on_a_point]
        return indices, votes


class KNeighborsClassifier(ClassifierMixin, _KNeighborsBase):
    """Majority (or distance-weighted) vote of the ``n_neighbors`` nearest
    training points.

    Parameters
    ----------
    n_neighbors : int
        :math:`k`.
    weights : {"uniform", "distance"}
        Vote weight of each neighbour: 1, or the inverse of its distance.
    algorithm : {"auto", "ball_tree", "kd_tree", "brute"}
        The search (module docstring): a k-d tree (``"kd_tree"``, and
        ``"ball_tree"`` too), brute force, or ``"auto"``, scikit-learn's
        choice between them (:func:`choose_search`). All find the same
        neighbours; only the time differs.
    leaf_size : int
        Most training points in a leaf of the tree: small leaves prune more
        and cost more nodes.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_samples_fit_, n_features_in_ : int
    effective_metric_ : str
        ``"euclidean"``, the only distance here.
    effective_metric_params_ : dict
        Empty.
    outputs_2d_ : bool
        False: one target column (scikit-learn's also takes several).

    Equivalent to ``sklearn.neighbors.KNeighborsClassifier`` with its
    default Euclidean metric.
    """

    def fit(self, X, y):
        """Store the training set ``X`` (n_samples, n_features) and labels
        ``y``; return self."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        # one class is allowed, as in scikit-learn: every vote goes to it
        self.classes_, y_index = encode_classes(
            y, allow_one_class=True, estimator=self
        )
        self.outputs_2d_ = False
        return self._store(X, y_index)

    def predict_proba(self, X):
        """Weighted class frequencies among the neighbours, shape (n_queries,
        n_classes)."""
        indices, votes = self._neighbours_and_votes(X)
        n_classes = len(self.classes_)
        rows = np.repeat(np.arange(len(indices)), indices.shape[1])
        counts = np.zeros((len(indices), n_classes))
        np.add.at(counts, (rows, self._y[indices].ravel()), votes.ravel())
        return counts / counts.sum(axis=1, keepdims=True)

    def predict(self, X):
        """The class with the largest vote (ties: the first in ``classes_``),
        shape (n_queries,)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class KNeighborsRegressor(RegressorMixin, _KNeighborsBase):
    """Mean (or distance-weighted mean) target of the ``n_neighbors`` nearest
    training points.

    Parameters and attributes as :class:`KNeighborsClassifier` (without
    ``classes_`` and ``outputs_2d_``). Equivalent to
    ``sklearn.neighbors.KNeighborsRegressor`` with its default Euclidean
    metric.
    """

    def fit(self, X, y):
        """Store the training set ``X`` (n_samples, n_features) and targets
        ``y``; return self."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        return self._store(X, y.copy())

    def predict(self, X):
        """Weighted mean target of the neighbours, shape (n_queries,)."""
        indices, votes = self._neighbours_and_votes(X)
        return np.sum(votes * self._y[indices], axis=1) / votes.sum(axis=1)
