"""AgglomerativeClustering with a connectivity graph: scikit-learn's trees,
and the definitions checked by brute force."""

import warnings

import numpy as np
import pytest
from scipy import sparse
from scipy.spatial.distance import cdist
from sklearn import cluster as sk
from sklearn.datasets import make_blobs, make_moons, make_swiss_roll
from sklearn.neighbors import kneighbors_graph

from mllib.cluster import AgglomerativeClustering
from mllib.cluster.agglomerative import cut_tree

LINKAGES = ["ward", "average", "complete", "single"]


def knn(X, k):
    """The k-nearest-neighbour graph, made symmetric as scikit-learn's
    cluster comparison makes it."""
    graph = kneighbors_graph(X, k, include_self=False)
    return 0.5 * (graph + graph.T)


def three_components():
    """Three far-apart blobs, each with a chain graph of its own."""
    X, blob = make_blobs(60, centers=[[0, 0], [9, 0], [0, 9]], random_state=2)
    X = X[np.argsort(blob, kind="stable")]  # 20 samples of each in turn
    graph = sparse.lil_array((60, 60))
    for start in (0, 20, 40):  # blobs of 20 consecutive samples
        for i in range(start, start + 19):
            graph[i, i + 1] = 1
    return X, graph.tocsr()


def grid():
    """An 8 x 8 integer grid and its 4-neighbour graph: many equal
    distances, so equal merge costs are broken by the heap's order."""
    X = np.array([[i, j] for i in range(8) for j in range(8)], dtype=float)
    return X, (cdist(X, X, "cityblock") == 1).astype(float)


def cases():
    blobs = make_blobs(120, centers=4, random_state=0)[0]
    moons = make_moons(150, noise=0.05, random_state=0)[0]
    roll = make_swiss_roll(200, noise=0.2, random_state=0)[0]
    return {
        "blobs": (blobs, knn(blobs, 5)),
        "moons": (moons, knn(moons, 8)),
        "swiss_roll": (roll, kneighbors_graph(roll, 6)),  # not symmetric
        "grid": grid(),
        "three_components": three_components(),
    }


CASES = cases()


def fit_both(X, n_clusters=2, **params):
    """(mllib's, scikit-learn's) fits, without the completion warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours = AgglomerativeClustering(n_clusters, **params).fit(X)
        theirs = sk.AgglomerativeClustering(
            n_clusters, compute_distances=True, **params
        ).fit(X)
    return ours, theirs


def same_partition(a, b):
    """Equal labels up to renaming the clusters."""
    pairs = np.unique(np.column_stack([a, b]), axis=0)
    return len(pairs) == len(np.unique(a)) == len(np.unique(b))


def assert_same_tree(ours, theirs):
    # The same merges from the same formulas, evaluated in the same order:
    # equal up to rounding (rtol of a few ulps of the operations involved).
    np.testing.assert_array_equal(ours.children_, theirs.children_)
    np.testing.assert_allclose(ours.distances_, theirs.distances_, rtol=1e-12)
    assert ours.n_connected_components_ == theirs.n_connected_components_
    assert ours.n_leaves_ == theirs.n_leaves_
    assert ours.n_clusters_ == theirs.n_clusters_
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)


@pytest.mark.parametrize("linkage", LINKAGES)
@pytest.mark.parametrize("name", CASES)
def test_connectivity_tree_equals_sklearn(linkage, name):
    X, graph = CASES[name]
    for k in (2, 5):
        assert_same_tree(*fit_both(X, k, linkage=linkage, connectivity=graph))
    whole = fit_both(X, 1, linkage=linkage, connectivity=graph)[0]
    threshold = np.median(whole.distances_)
    assert_same_tree(
        *fit_both(
            X,
            None,
            linkage=linkage,
            connectivity=graph,
            distance_threshold=threshold,
        )
    )


@pytest.mark.parametrize("linkage", LINKAGES)
def test_tree_stopped_early_is_the_start_of_the_whole_tree(linkage):
    X, graph = CASES["moons"]
    k = 110  # "auto" stops early: k >= max(100, 0.02 n)
    ours, theirs = fit_both(X, k, linkage=linkage, connectivity=graph)
    assert_same_tree(ours, theirs)
    whole = AgglomerativeClustering(
        k, linkage=linkage, connectivity=graph, compute_full_tree=True
    ).fit(X)
    n_merges = len(X) - k
    n_rows = len(X) - 1 if linkage == "single" else n_merges
    assert ours.children_.shape == (n_rows, 2)
    np.testing.assert_array_equal(
        ours.children_[:n_merges], whole.children_[:n_merges]
    )
    assert same_partition(ours.labels_, whole.labels_)  # numbered otherwise
    forced = fit_both(
        X, 5, linkage=linkage, connectivity=graph, compute_full_tree=False
    )
    assert_same_tree(*forced)
    assert len(forced[0].children_) == (
        len(X) - 1 if linkage == "single" else len(X) - 5
    )


@pytest.mark.parametrize(
    "metric", ["manhattan", "l1", "cosine", "precomputed", "pair"]
)
@pytest.mark.parametrize("linkage", ["average", "complete", "single"])
def test_connectivity_metrics_equal_sklearn(linkage, metric):
    X, graph = CASES["swiss_roll"]
    data = X
    if metric == "precomputed":
        data = cdist(X, X)
    elif metric == "pair":  # with connectivity: a function of two samples

        def metric(a, b):
            return np.abs(a - b).max()

    for k in (3, 150):  # the whole tree, and one stopped early
        assert_same_tree(
            *fit_both(
                data, k, linkage=linkage, metric=metric, connectivity=graph
            )
        )


def test_callable_and_dense_connectivity():
    X, graph = CASES["blobs"]
    dense = graph.toarray()
    for connectivity in (dense, lambda Z: knn(Z, 5)):
        for linkage in LINKAGES:
            ours = AgglomerativeClustering(
                4, linkage=linkage, connectivity=connectivity
            ).fit(X)
            sparse_fit = AgglomerativeClustering(
                4, linkage=linkage, connectivity=graph
            ).fit(X)
            np.testing.assert_array_equal(ours.children_, sparse_fit.children_)
    assert np.array_equal(dense, graph.toarray())  # the caller's, unchanged


@pytest.mark.parametrize("linkage", LINKAGES)
def test_complete_graph_gives_the_unconstrained_tree(linkage):
    # With every pair joined, each update rule is the Lance-Williams formula
    # of its linkage (ward: exact sums of squares; average: both edges exist,
    # so the size-weighted mean is the all-pairs mean), and single linkage is
    # the minimum spanning tree of all distances.
    X = make_blobs(60, centers=3, random_state=1)[0]
    ones = np.ones((60, 60))
    free = AgglomerativeClustering(1, linkage=linkage).fit(X)
    tied = AgglomerativeClustering(1, linkage=linkage, connectivity=ones)
    tied.fit(X)
    assert tied.n_connected_components_ == 1
    # heights agree up to the rounding of different summation orders
    np.testing.assert_allclose(
        np.sort(tied.distances_), np.sort(free.distances_), rtol=1e-10
    )
    for k in (2, 3, 7, 20):
        assert same_partition(
            cut_tree(tied.children_, 60, k), cut_tree(free.children_, 60, k)
        )


def merges_by_definition(X, graph, linkage):
    """The definition run literally: at each step, the adjacent pair of
    clusters with the least linkage distance, recomputed from the samples
    (O(n^4); small n only). Returns the merge heights."""
    adjacent = (graph + graph.T).toarray() != 0
    gaps = cdist(X, X)
    clusters = [[i] for i in range(len(X))]
    heights = []
    while len(clusters) > 1:
        best = None
        for p in range(len(clusters)):
            for q in range(p):
                a, b = clusters[p], clusters[q]
                edges = adjacent[np.ix_(a, b)]
                if not edges.any():
                    continue
                if linkage == "ward":  # increase in the sum of squares
                    union = X[a + b]
                    sse = [((Z - Z.mean(0)) ** 2).sum() for Z in (X[a], X[b])]
                    cost = ((union - union.mean(0)) ** 2).sum() - sum(sse)
                    height = np.sqrt(2 * cost)
                elif linkage == "single":
                    height = gaps[np.ix_(a, b)][edges].min()
                else:  # complete: the longest edge between the two
                    height = gaps[np.ix_(a, b)][edges].max()
                if best is None or height < best[0]:
                    best = (height, p, q)
        height, p, q = best
        heights.append(height)
        clusters[q] = clusters[q] + clusters.pop(p)
    return np.array(heights)


@pytest.mark.parametrize("linkage", ["ward", "single", "complete"])
def test_merges_follow_the_definition_along_the_graph(linkage):
    X = make_moons(40, noise=0.1, random_state=3)[0]
    graph = knn(X, 4)
    model = AgglomerativeClustering(
        1, linkage=linkage, connectivity=graph
    ).fit(X)
    assert model.n_connected_components_ == 1  # no completion edges
    # distinct random heights, so the same merges in the same order; the
    # brute-force sums of squares lose digits to cancellation (relative
    # error ~ machine eps times the total sum of squares over the cost)
    np.testing.assert_allclose(
        model.distances_,
        merges_by_definition(X, graph, linkage),
        rtol=1e-9,
        atol=1e-9,
    )


def test_constrained_average_is_not_the_all_pairs_average():
    # path b - a - c: merging a and b, the new cluster keeps only the edge
    # a-c, so its distance to c is |a - c|, not (|a - c| + |b - c|) / 2
    X = np.array([[0.0, 0.0], [-1.0, 0.0], [3.0, 0.0]])  # a, b, c
    path = np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]])
    ours, theirs = fit_both(X, 1, linkage="average", connectivity=path)
    assert_same_tree(ours, theirs)
    np.testing.assert_array_equal(ours.distances_, [1.0, 3.0])
    all_pairs = AgglomerativeClustering(1, linkage="average").fit(X)
    np.testing.assert_array_equal(all_pairs.distances_, [1.0, 3.5])


def test_components_are_joined_with_sklearn_warning():
    X, graph = CASES["three_components"]
    with pytest.warns(UserWarning, match="connected components .* is 3 > 1"):
        model = AgglomerativeClustering(3, connectivity=graph).fit(X)
    assert model.n_connected_components_ == 3
    # the blobs are far apart: the three components are the three clusters
    assert same_partition(model.labels_, np.repeat([0, 1, 2], 20))
    assert len(model.children_) == len(X) - 1


def test_bad_connectivity_raises_like_sklearn():
    X = CASES["blobs"][0][:10]
    for connectivity in (np.ones((10, 11)), np.ones((9, 9)), lambda Z: [[1]]):
        for model in (AgglomerativeClustering, sk.AgglomerativeClustering):
            with pytest.raises(
                ValueError, match="Wrong shape for connectivity"
            ):
                model(connectivity=connectivity).fit(X)
    with pytest.raises(ValueError, match="Expected 2D array"):
        AgglomerativeClustering(connectivity=np.ones(10)).fit(X)
    with pytest.raises(ValueError, match="compute_full_tree must be True"):
        AgglomerativeClustering(
            None,
            connectivity=np.ones((10, 10)),
            distance_threshold=1.0,
            compute_full_tree=False,
        ).fit(X)
    with pytest.raises(ValueError, match="compute_full_tree must be"):
        AgglomerativeClustering(compute_full_tree="yes").fit(X)
    with pytest.raises(ValueError, match="Unknown distance"):
        AgglomerativeClustering(
            linkage="average",
            metric="chebyshev",
            connectivity=np.ones((10, 10)),
        ).fit(X)
