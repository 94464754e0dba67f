r"""Agglomerative hierarchical clustering: merge the two closest clusters until
one is left, optionally only clusters that a connectivity graph joins."""

import heapq
import warnings

import numpy as np
from scipy import sparse
from scipy.cluster import hierarchy
from scipy.sparse.csgraph import connected_components, minimum_spanning_tree
from scipy.spatial.distance import cdist
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils import check_array
from sklearn.utils.validation import validate_data

from ..validation import check_int, check_scalar

LINKAGES = ("ward", "complete", "average", "single")
#: scikit-learn's names that scipy's pdist calls otherwise
SCIPY_NAMES = {"l2": "euclidean", "l1": "cityblock", "manhattan": "cityblock"}
#: the metrics a connectivity graph takes (scikit-learn's paired distances)
PAIRED_METRICS = ("euclidean", "l2", "l1", "manhattan", "cityblock", "cosine")


def fix_connectivity(X, connectivity, metric):
    """The connectivity graph made symmetric and connected, as a LIL array.

    ``connectivity`` of shape (n_samples, n_samples) becomes ``C + C^T``
    (so an edge given one way joins both ways). If that graph has several
    connected components, each pair of components is joined by one edge
    between its closest two samples under ``metric`` (scikit-learn's
    completion, with its warning), so the tree can still reach one cluster.
    Returns the graph and the number of components before completion.
    """
    n_samples = X.shape[0]
    if connectivity.shape != (n_samples, n_samples):
        raise ValueError(
            f"Wrong shape for connectivity matrix: {connectivity.shape} "
            f"when X is {X.shape}"
        )
    graph = connectivity + connectivity.T
    graph = (
        graph.tolil() if sparse.issparse(graph) else sparse.lil_array(graph)
    )
    n_components, component = connected_components(graph)
    if n_components > 1:
        warnings.warn(
            "the number of connected components of the connectivity matrix "
            f"is {n_components} > 1. Completing it to avoid stopping the "
            "tree early.",
            UserWarning,
            stacklevel=3,
        )
        for a in range(n_components):
            in_a = np.flatnonzero(component == a)
            for b in range(a):
                in_b = np.flatnonzero(component == b)
                if metric == "precomputed":
                    gaps = X[np.ix_(in_a, in_b)]
                else:
                    gaps = cdist(
                        X[in_a],
                        X[in_b],
                        metric=SCIPY_NAMES.get(metric, metric),
                    )
                ia, ib = np.unravel_index(gaps.argmin(), gaps.shape)
                graph[in_a[ia], in_b[ib]] = graph[in_b[ib], in_a[ia]] = 1
    return graph, n_components


def edge_distances(X, rows, cols, metric):
    """Distances between ``X[rows[e]]`` and ``X[cols[e]]`` for every edge
    ``e``, as scikit-learn's ``paired_distances`` computes them (a callable
    ``metric`` takes two samples)."""
    if metric == "precomputed":
        return X[rows, cols].astype(np.float64)
    if callable(metric):
        return np.array(
            [metric(X[r], X[c]) for r, c in zip(rows, cols)], dtype=np.float64
        )
    # the gathered rows, as scikit-learn normalises them (einsum may round
    # a row differently in another layout)
    left, right = X[rows], X[cols]
    if metric == "cosine":  # half the squared distance of the unit vectors
        left = left / np.sqrt(np.einsum("ij,ij->i", left, left))[:, None]
        right = right / np.sqrt(np.einsum("ij,ij->i", right, right))[:, None]
    gap = left - right
    if metric in ("l1", "manhattan", "cityblock"):
        return np.abs(gap).sum(axis=-1)
    squares = np.einsum("ij,ij->i", gap, gap)
    return 0.5 * squares if metric == "cosine" else np.sqrt(squares)


def ward_costs(size, total, rows, cols):
    r"""Increase in the within-cluster sum of squares if clusters ``rows[e]``
    and ``cols[e]`` (sizes ``size``, sums of members ``total``) merged:
    :math:`\frac{|A||B|}{|A|+|B|}\lVert\bar a-\bar b\rVert^2`."""
    gap = total[rows] / size[rows, None] - total[cols] / size[cols, None]
    squares = np.zeros(len(rows))
    # feature by feature, scikit-learn's order of summation: equal costs of
    # different pairs (ties) then stay equal to the last bit in both
    for feature in gap.T:
        squares += feature**2
    return squares * (size[rows] * size[cols] / (size[rows] + size[cols]))


def constrained_ward(X, graph, n_merges):
    """Ward merges along the edges of ``graph`` (symmetric, connected, LIL).

    Returns children (n_merges, 2) and merge heights ``sqrt(2 * cost)``.
    Candidate pairs sit in a heap of ``(cost, newer node, older node)``
    tuples, so equal costs are broken by the node numbers, as in
    scikit-learn; entries of merged clusters are skipped when popped.
    """
    n_samples = len(X)
    size = np.zeros(n_samples + n_merges)
    size[:n_samples] = 1
    total = np.zeros((n_samples + n_merges, X.shape[1]))
    total[:n_samples] = X
    neighbours = [set(row) - {i} for i, row in enumerate(graph.rows)]
    rows = np.repeat(np.arange(n_samples), [len(r) for r in graph.rows])
    cols = np.concatenate([np.asarray(r, dtype=int) for r in graph.rows])
    rows, cols = rows[cols < rows], cols[cols < rows]
    heap = list(zip(ward_costs(size, total, rows, cols).tolist(), rows, cols))
    heapq.heapify(heap)
    active = np.ones(n_samples + n_merges, dtype=bool)
    children, costs = [], []
    for k in range(n_samples, n_samples + n_merges):
        while True:
            cost, i, j = heapq.heappop(heap)
            if active[i] and active[j]:
                break
        active[i] = active[j] = False
        children.append((j, i))
        costs.append(cost)
        size[k] = size[i] + size[j]
        total[k] = total[i] + total[j]
        # the union of the neighbours: every cluster next to i or j
        joined = sorted((neighbours[i] | neighbours[j]) - {i, j})
        for c in joined:
            neighbours[c] -= {i, j}
            neighbours[c].add(k)
        neighbours.append(set(joined))
        new = ward_costs(size, total, np.full(len(joined), k), joined)
        for cost, c in zip(new.tolist(), joined):
            heapq.heappush(heap, (cost, k, c))
    return np.array(children, dtype=int), np.sqrt(2.0 * np.array(costs))


class Edge:
    """Heap entry ordered by weight alone, like scikit-learn's
    ``WeightedEdge``: with equal weights, the heap's layout decides, so
    pushing in scikit-learn's order gives its merges."""

    __slots__ = ("a", "b", "weight")

    def __init__(self, weight, a, b):
        self.weight, self.a, self.b = weight, a, b

    def __lt__(self, other):
        return self.weight < other.weight


def constrained_linkage(graph, linkage, n_samples, n_merges):
    """Average or complete merges along the edges of ``graph`` (LIL, edge
    weights = distances, no diagonal); see ``AgglomerativeClustering``.

    Returns children (n_merges, 2) and merge heights.
    """
    neighbours = [dict(zip(r, d)) for r, d in zip(graph.rows, graph.data)]
    heap = [
        Edge(d, i, c)
        for i, (row, data) in enumerate(zip(graph.rows, graph.data))
        for c, d in zip(row, data)
        if c < i
    ]
    heapq.heapify(heap)
    size = [1] * n_samples + [0] * n_merges
    children, heights = [], []
    for k in range(n_samples, n_samples + n_merges):
        while True:
            edge = heapq.heappop(heap)
            if size[edge.a] and size[edge.b]:
                break
        i, j = edge.a, edge.b
        children.append((j, i))
        heights.append(edge.weight)
        n_i, n_j = size[i], size[j]
        size[k], size[i], size[j] = n_i + n_j, 0, 0
        joined = {c: d for c, d in neighbours[i].items() if size[c]}
        for c, d in neighbours[j].items():
            if not size[c]:
                continue
            if c not in joined:
                joined[c] = d
            elif linkage == "complete":
                joined[c] = max(joined[c], d)
            else:  # size-weighted mean of the two edges
                joined[c] = (n_i * joined[c] + n_j * d) / (n_i + n_j)
        for c in sorted(joined):
            neighbours[c][k] = joined[c]
            heapq.heappush(heap, Edge(joined[c], k, c))
        neighbours.append(joined)
        neighbours[i] = neighbours[j] = None
    return np.array(children, dtype=int), np.array(heights)


def constrained_single(rows, cols, distances, n_samples):
    """Single linkage along graph edges: Kruskal's minimum spanning tree of
    the graph, its edges taken by increasing weight (stable sort) and each
    joining the clusters of its two ends (union-find).

    Returns children (n_samples - 1, 2) and merge heights.
    """
    weights = distances.copy()
    # the spanning tree ignores zero entries: make zero distances tiny
    tiny = np.finfo(np.float64).eps
    weights[weights == 0] = tiny
    graph = sparse.coo_array(
        (weights, (rows, cols)), shape=(n_samples, n_samples)
    )
    tree = minimum_spanning_tree(graph.tocsr()).tocoo()
    tree.data[tree.data == tiny] = 0
    order = np.argsort(tree.data, kind="mergesort")
    parent = np.full(2 * n_samples - 1, -1)
    children = []
    for new, (a, b) in enumerate(
        zip(tree.row[order], tree.col[order]), n_samples
    ):
        pair = []
        for node in (a, b):
            root = node
            while parent[root] != -1:
                root = parent[root]
            while parent[node] != -1 and parent[node] != root:
                parent[node], node = root, parent[node]
            pair.append(root)
        children.append(pair)
        parent[pair] = new
    return np.array(children, dtype=int), tree.data[order]


def linkage_matrix(children, distances, n_samples):
    """The merges in scipy's format: children, height, size of the union."""
    size = np.ones(n_samples + len(children))
    for k, (a, b) in enumerate(children, n_samples):
        size[k] = size[a] + size[b]
    return np.column_stack([children, distances, size[n_samples:]])


def cut_tree(children, n_leaves, n_clusters, *, whole_tree=True):
    """Labels of the ``n_clusters`` clusters left after the first ``n_leaves -
    n_clusters`` merges, numbered as scikit-learn numbers them.

    ``children[i]`` holds the two nodes merged at step ``i`` into node
    ``n_leaves + i`` (leaves are nodes ``0 .. n_leaves-1``). A whole tree is
    cut from the top: the last merges are undone one by one, the clusters'
    top nodes kept in a heap of negated node numbers, and label ``i`` goes
    to the cluster at place ``i`` of the heap's list. A tree that stopped
    early (``whole_tree=False``) numbers its clusters by their top nodes,
    in increasing order.
    """
    n_merges = n_leaves - n_clusters
    parent = np.arange(n_leaves + n_merges)
    for i, (a, b) in enumerate(children[:n_merges]):
        parent[a] = parent[b] = n_leaves + i
    root = parent.copy()
    # a parent is newer, so already resolved
    for node in range(n_leaves + n_merges - 1, -1, -1):
        root[node] = root[parent[node]]
    if not whole_tree:
        return np.unique(root[:n_leaves], return_inverse=True)[1]
    # the newest node is the top of the heap: undo its merge
    tops = [-(2 * n_leaves - 2)]
    for _ in range(n_clusters - 1):
        a, b = children[-tops[0] - n_leaves]
        heapq.heappush(tops, -a)
        heapq.heappushpop(tops, -b)
    label = np.zeros(n_leaves + n_merges, dtype=int)
    label[-np.array(tops)] = np.arange(n_clusters)
    return label[root[:n_leaves]]


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

    **Connectivity constraints.** Given a graph :math:`G` on the samples
    (scikit-learn's user guide, "Adding connectivity constraints"), only
    clusters joined by an edge may merge; the merged cluster's neighbours
    are the union of its parts' neighbours. :math:`G` is first made
    symmetric, :math:`C+C^\top`; if it has several connected components,
    scikit-learn's completion joins every pair of components by one edge
    between their closest samples (with a ``UserWarning``), so one cluster
    is still reached. Per linkage:

    * ward: among adjacent pairs, the least increase in the within-cluster
      sum of squares, :math:`\frac{|A||B|}{|A|+|B|}\lVert\bar a-\bar
      b\rVert^2`, computed exactly from the clusters' sizes and sums
      [Ward, 1963]; heights as above. A constrained tree may have
      inversions (a later merge lower than an earlier one).
    * single: an edge's weight is its two samples' distance; the tree is
      the minimum spanning tree of :math:`G` (Kruskal), so :math:`d` is the
      least weight of an edge between the clusters.
    * complete: :math:`d(A\cup B,C)=\max(d(A,C),d(B,C))` over the edges
      that exist; an edge missing on one side is not counted.
    * average: scikit-learn's update along edges,
      :math:`d(A\cup B,C)=\frac{|A|d(A,C)+|B|d(B,C)}{|A|+|B|}` when both
      :math:`A` and :math:`B` are adjacent to :math:`C`, and
      :math:`d(A,C)` when only :math:`A` is. That is not the all-pairs
      average: for :math:`A=\{a\},B=\{b\}`, :math:`C=\{c\}` and :math:`G` a
      path :math:`b-a-c`, :math:`d(A\cup B,C)=\lVert a-c\rVert` while the
      average over pairs is :math:`(\lVert a-c\rVert+\lVert
      b-c\rVert)/2`.

    Candidate merges sit in a heap and equal distances are broken as in
    scikit-learn (by node numbers for ward, by the heap's layout for
    average and complete), so ``children_`` and ``distances_`` equal
    scikit-learn's.

    Parameters
    ----------
    n_clusters : int or None, default 2
    metric : str or callable, default "euclidean"
        "euclidean" ("l2"), "manhattan" ("l1", "cityblock"), "cosine" or
        another of scipy's ``pdist`` metrics; "precomputed" (``X`` is then
        the square matrix of distances), or a function from ``X`` to that
        matrix. "ward" takes "euclidean" only. With ``connectivity``, as in
        scikit-learn: only "euclidean", "l2", "manhattan", "l1",
        "cityblock", "cosine" (:math:`\frac12\lVert a/\lVert a\rVert -
        b/\lVert b\rVert\rVert^2`, which is :math:`1-\cos`),
        "precomputed", or a function of two samples to their distance.
    connectivity : array-like or sparse matrix of shape (n_samples, \
n_samples), callable or None, default None
        The graph :math:`G` (non-zero entries are edges), or a function
        from ``X`` to it, such as a ``kneighbors_graph``. None: any two
        clusters may merge.
    compute_full_tree : "auto" or bool, default "auto"
        With ``connectivity`` and ``n_clusters``, False stops merging at
        ``n_clusters`` clusters (``children_`` and ``distances_`` then have
        ``n_samples - n_clusters`` rows, single linkage excepted, whose
        spanning tree is whole). "auto": False when ``n_clusters >=
        max(100, 0.02 n_samples)``, as scikit-learn's. It must not be False
        with ``distance_threshold``.
    linkage : {"ward", "complete", "average", "single"}, default "ward"
    distance_threshold : float or None
        If given (with ``n_clusters=None``), merges at distances ``>=
        distance_threshold`` are undone.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Numbered as scikit-learn numbers them (see ``cut_tree``).
    n_clusters_ : int
    children_ : ndarray of shape (n_merges, 2)
        Merge ``i`` joins ``children_[i]`` into node ``n_samples + i``;
        ``n_merges = n_samples - 1`` unless the tree stopped early.
    distances_ : ndarray of shape (n_merges,)
        Linkage distance of each merge.
    linkage_matrix_ : ndarray of shape (n_merges, 4)
        The tree in scipy's format, for ``scipy.cluster.hierarchy.dendrogram``
        (whole trees only).
    n_connected_components_ : int
        Connected components of the symmetric connectivity graph (1
        without one).
    n_leaves_, n_features_in_ : int

    Notes
    -----
    Equivalent to ``sklearn.cluster.AgglomerativeClustering(n_clusters,
    metric=..., connectivity=..., compute_full_tree=..., linkage=...,
    distance_threshold=..., compute_distances=True)``: the same
    ``children_``, ``distances_`` and ``labels_`` (single linkage without
    connectivity: the same heights and, ties aside, merges; scikit-learn's own
    spanning-tree code lists a merge's two children in another order than
    scipy's, so its clusters may be numbered otherwise).

    References
    ----------
    Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*,
    §14.3.12; Müllner, *Modern hierarchical, agglomerative clustering
    algorithms*, arXiv:1109.2378 (2011); Ward, *Hierarchical grouping to
    optimize an objective function*, JASA 58 (1963); scikit-learn user
    guide, §2.3.6 "Hierarchical clustering", "Adding connectivity
    constraints".
    """

    def __init__(
        self,
        n_clusters=2,
        *,
        metric="euclidean",
        connectivity=None,
        compute_full_tree="auto",
        linkage="ward",
        distance_threshold=None,
    ):
        self.n_clusters = n_clusters
        self.metric = metric
        self.connectivity = connectivity
        self.compute_full_tree = compute_full_tree
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
        n_samples = self.n_leaves_ = len(X)
        if self.distance_threshold is None:
            self.n_clusters_ = check_int(self.n_clusters, "n_clusters", low=1)
            if self.n_clusters_ > n_samples:
                raise ValueError(
                    f"n_clusters={self.n_clusters_} is larger than the "
                    f"number of samples ({n_samples})."
                )
        else:
            threshold = check_scalar(
                self.distance_threshold, "distance_threshold", low=0
            )
        full = self._full_tree(n_samples)
        self._check_metric(X)
        if self.connectivity is None:
            observations, metric = self._observations_and_metric(X)
            self.linkage_matrix_ = hierarchy.linkage(
                observations, method=self.linkage, metric=metric
            )
            self.children_ = self.linkage_matrix_[:, :2].astype(int)
            self.distances_ = self.linkage_matrix_[:, 2].copy()
            self.n_connected_components_ = 1
        else:
            n_merges = n_samples - 1 if full else n_samples - self.n_clusters_
            self._fit_constrained(X, n_merges)
        if self.distance_threshold is not None:
            self.n_clusters_ = (
                int(np.count_nonzero(self.distances_ >= threshold)) + 1
            )
        self.labels_ = cut_tree(
            self.children_, n_samples, self.n_clusters_, whole_tree=full
        )
        return self

    def _full_tree(self, n_samples):
        """Whether to build the whole tree (``compute_full_tree`` resolved
        as scikit-learn resolves it)."""
        full = self.compute_full_tree
        if not (isinstance(full, (bool, np.bool_)) or full == "auto"):
            raise ValueError(
                f"compute_full_tree must be 'auto' or a bool; got {full!r}."
            )
        if self.distance_threshold is not None and not full:
            raise ValueError(
                "compute_full_tree must be True if distance_threshold is set."
            )
        if self.connectivity is None or self.distance_threshold is not None:
            return True
        if full == "auto":  # stopping early pays only for many clusters
            return self.n_clusters < max(100, 0.02 * n_samples)
        return bool(full)

    def _check_metric(self, X):
        """scikit-learn's errors for a metric the linkage cannot take."""
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
        if metric == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(
                "Distance matrix should be square, got matrix of shape "
                f"{X.shape}"
            )
        if (
            self.connectivity is not None
            and not callable(metric)
            and metric not in PAIRED_METRICS + ("precomputed",)
        ):
            raise ValueError(
                f"Unknown distance {metric!r} with connectivity; use one of "
                f"{PAIRED_METRICS}, 'precomputed' or a callable."
            )

    def _fit_constrained(self, X, n_merges):
        """The merge tree along the edges of the connectivity graph."""
        connectivity = self.connectivity
        if callable(connectivity):
            connectivity = connectivity(X)
        connectivity = check_array(
            connectivity, accept_sparse=["csr", "coo", "lil"]
        )
        metric = "euclidean" if self.linkage == "ward" else self.metric
        graph, self.n_connected_components_ = fix_connectivity(
            X, connectivity, metric
        )
        if self.linkage == "ward":
            children, distances = constrained_ward(X, graph, n_merges)
        else:
            graph = graph.tocoo()
            off_diagonal = graph.row != graph.col
            rows, cols = graph.row[off_diagonal], graph.col[off_diagonal]
            weights = edge_distances(X, rows, cols, metric)
            if self.linkage == "single":
                children, distances = constrained_single(
                    rows, cols, weights, len(X)
                )
            else:
                graph = sparse.coo_array(
                    (weights, (rows, cols)), shape=graph.shape
                ).tolil()
                children, distances = constrained_linkage(
                    graph, self.linkage, len(X), n_merges
                )
        self.children_, self.distances_ = children, distances
        self.linkage_matrix_ = linkage_matrix(children, distances, len(X))

    def _observations_and_metric(self, X):
        """What ``hierarchy.linkage`` takes, as scikit-learn passes it: the
        rows and scipy's name of the metric, or the distances above the
        diagonal (whose metric scipy then ignores)."""
        metric = self.metric
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
