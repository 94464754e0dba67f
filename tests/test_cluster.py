"""Clustering: KMeans, kmeans_plusplus, DBSCAN, AgglomerativeClustering and the clustering scores,
against scikit-learn, brute force and their definitions."""

import numpy as np
import pytest
from sample_weights import check_bad_weights_raise, integer_weights, repeated
from scipy.sparse.csgraph import minimum_spanning_tree
from scipy.spatial.distance import cdist, pdist, squareform
from sklearn import cluster as sk
from sklearn import metrics as sk_metrics
from sklearn.datasets import load_iris, load_wine, make_blobs, make_moons

import mllib.cluster.kmeans
from mllib.cluster import (
    DBSCAN,
    AgglomerativeClustering,
    KMeans,
    kmeans_plusplus,
)
from mllib.cluster.agglomerative import cut_tree
from mllib.cluster.dbscan import radius_neighbors_graph
from mllib.cluster.kmeans import assign_labels, update_centers
from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.metrics import (
    adjusted_rand_score,
    silhouette_samples,
    silhouette_score,
)


def standardised(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


DATA = {
    "blobs": make_blobs(400, centers=5, cluster_std=1.5, random_state=0)[0],
    "iris": standardised(load_iris().data),
    "wine": standardised(load_wine().data),
    "gauss10": np.random.default_rng(1).normal(size=(300, 10)),
}


def initial_centers(X, k, seed):
    return X[np.random.default_rng(seed).choice(len(X), k, replace=False)]


def inertia(X, labels, centers):
    return float(np.sum((X - centers[labels]) ** 2))


# --- KMeans -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize("k, seed", [(3, 0), (5, 1), (8, 2)])
def test_kmeans_from_given_centres_equals_sklearn_lloyd(name, k, seed):
    X = DATA[name]
    init = initial_centers(X, k, seed)
    ours = KMeans(k, init=init, n_init=1).fit(X)
    theirs = sk.KMeans(k, init=init, n_init=1, algorithm="lloyd").fit(X)
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_allclose(
        ours.cluster_centers_, theirs.cluster_centers_, atol=1e-10
    )
    assert ours.inertia_ == pytest.approx(theirs.inertia_, rel=1e-10)
    assert ours.n_iter_ == theirs.n_iter_


@pytest.mark.parametrize("tol", [1e-1, 3e-2])
def test_kmeans_centre_shift_tolerance_stops_where_sklearn_stops(tol):
    X = DATA["gauss10"]
    init = initial_centers(X, 8, 5)
    ours = KMeans(8, init=init, n_init=1, tol=tol).fit(X)
    theirs = sk.KMeans(8, init=init, n_init=1, tol=tol, algorithm="lloyd").fit(
        X
    )
    assert (
        ours.n_iter_
        == theirs.n_iter_
        < KMeans(8, init=init, n_init=1, tol=0).fit(X).n_iter_
    )
    np.testing.assert_allclose(
        ours.cluster_centers_, theirs.cluster_centers_, atol=1e-10
    )
    np.testing.assert_array_equal(
        ours.labels_, theirs.labels_
    )  # labels of the final centres


def test_one_lloyd_step_equals_sklearn_and_warns():
    X = DATA["blobs"]
    init = initial_centers(X, 5, 3)
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        ours = KMeans(5, init=init, n_init=1, max_iter=1).fit(X)
    theirs = sk.KMeans(
        5, init=init, n_init=1, max_iter=1, algorithm="lloyd"
    ).fit(X)
    np.testing.assert_allclose(
        ours.cluster_centers_, theirs.cluster_centers_, atol=1e-12
    )
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)


def test_assignment_is_the_argmin_with_ties_to_the_lowest_index():
    # x = 1 is exactly as far from 0.5 as from 1.5 (and x = 3 from 2.5
    # and 3.5): the lower index wins, as in np.argmin
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    centers = np.array([[0.5], [1.5], [3.5], [2.5]])
    assert list(assign_labels(X, centers)) == [0, 0, 1, 2]
    rng = np.random.default_rng(0)
    X, centers = rng.normal(size=(500, 3)), rng.normal(size=(7, 3))
    np.testing.assert_array_equal(
        assign_labels(X, centers), np.argmin(cdist(X, centers), axis=1)
    )


def test_blocks_and_memory_layout_do_not_change_the_assignment(monkeypatch):
    """Every sample goes to a nearest centre, and only a tie in exact
    arithmetic can go either way: the scores -2 x'mu + |mu|^2 come from a
    matrix product whose rounding depends on the block and the layout (and
    the CPU's BLAS kernel: one rounds two equal centres' scores apart), so a
    tie may break differently; every other sample gets the same label."""
    rng = np.random.default_rng(1)
    X, centers = rng.normal(size=(1000, 4)), rng.normal(size=(7, 4))
    X[::10] = centers[3]  # exact ties between equal centres below
    centers[5] = centers[3]
    distances = cdist(X, centers, "sqeuclidean")
    # the expansion's rounding, a few eps of |x|^2 + |mu|^2 (generously)
    rounding = 1e-12 * (
        np.sum(X**2, axis=1) + np.sum(centers**2, axis=1).max()
    )
    nearest = (
        distances <= distances.min(axis=1, keepdims=True) + rounding[:, None]
    )
    tied = nearest.sum(axis=1) > 1
    # the samples nearest to the doubled centre, the 100 copies among them
    assert np.all(tied[::10]) and np.all(nearest[tied][:, [3, 5]])
    whole = assign_labels(X, centers)

    def check(labels):
        assert np.all(nearest[np.arange(len(X)), labels])
        np.testing.assert_array_equal(labels[~tied], whole[~tied])

    check(whole)
    monkeypatch.setattr(mllib.cluster.kmeans, "SCORES_PER_BLOCK", 7 * 64)
    for layout in (X, np.asfortranarray(X)):  # 16 blocks, the last short
        check(assign_labels(layout, centers))
    # the same labels by np.argmin along each sample's row of scores
    monkeypatch.setattr(mllib.cluster.kmeans, "FEW_CENTRES", 1)
    for layout in (X, np.asfortranarray(X)):
        check(assign_labels(layout, centers))


def test_empty_cluster_takes_the_farthest_sample_like_sklearn():
    X = DATA["blobs"]
    init = np.vstack(
        [initial_centers(X, 3, 0), [[100.0, 100.0]]]
    )  # the last centre attracts no sample
    ours = KMeans(4, init=init, n_init=1).fit(X)
    theirs = sk.KMeans(4, init=init, n_init=1, algorithm="lloyd").fit(X)
    np.testing.assert_allclose(
        ours.cluster_centers_, theirs.cluster_centers_, atol=1e-10
    )
    labels = assign_labels(X, init)
    assert np.sum(labels == 3) == 0
    moved = update_centers(X, labels, init)
    farthest = np.argmax(np.sum((X - init[labels]) ** 2, axis=1))
    np.testing.assert_array_equal(moved[3], X[farthest])
    assert inertia(X, assign_labels(X, moved), moved) < inertia(
        X, labels, init
    )


@pytest.mark.parametrize("name", DATA)
def test_each_half_step_of_lloyd_never_increases_the_objective(name):
    X = DATA[name]
    centers = initial_centers(X, 6, 7)
    labels = assign_labels(X, centers)
    values = [inertia(X, labels, centers)]
    for _ in range(30):
        centers = update_centers(X, labels, centers)
        values.append(inertia(X, labels, centers))
        labels = assign_labels(X, centers)
        values.append(inertia(X, labels, centers))
    assert np.all(np.diff(values) <= 1e-9 * values[0])
    assert values[-1] < values[0]


@pytest.mark.parametrize("name", DATA)
def test_the_fitted_clustering_is_a_fixed_point(name):
    X = DATA[name]
    model = KMeans(4, n_init=3, random_state=0, tol=0).fit(X)
    np.testing.assert_array_equal(
        model.labels_, np.argmin(cdist(X, model.cluster_centers_), axis=1)
    )
    means = np.array([X[model.labels_ == k].mean(axis=0) for k in range(4)])
    np.testing.assert_allclose(model.cluster_centers_, means, atol=1e-12)
    assert model.inertia_ == pytest.approx(
        inertia(X, model.labels_, model.cluster_centers_), rel=1e-12
    )


def test_restarts_find_the_optimum_sklearn_finds_on_separated_blobs():
    X, _ = make_blobs(
        600, centers=6, cluster_std=0.4, center_box=(-15, 15), random_state=6
    )
    optimum = sk.KMeans(6, n_init=10, random_state=0).fit(X)
    for seed in range(3):
        for init, n_init in (("k-means++", 10), ("random", 30)):
            ours = KMeans(6, init=init, n_init=n_init, random_state=seed).fit(
                X
            )
            assert ours.inertia_ == pytest.approx(optimum.inertia_, rel=1e-10)
            assert adjusted_rand_score(ours.labels_, optimum.labels_) == 1.0


def test_n_init_keeps_the_lowest_inertia():
    X = DATA["gauss10"]
    singles = []  # six runs drawing from one generator, as the six restarts of n_init=6 do
    generator = np.random.default_rng(7)
    for _ in range(6):
        singles.append(
            KMeans(5, init="random", n_init=1, random_state=generator)
            .fit(X)
            .inertia_
        )
    best = (
        KMeans(
            5, init="random", n_init=6, random_state=np.random.default_rng(7)
        )
        .fit(X)
        .inertia_
    )
    assert best == pytest.approx(min(singles), rel=1e-12)
    assert max(singles) > min(
        singles
    )  # the restarts did find different local minima


def test_random_state_makes_fits_reproducible_and_predict_transform_score_agree():
    X = DATA["wine"]
    a = KMeans(3, random_state=5).fit(X)
    b = KMeans(3, random_state=5).fit(X)
    np.testing.assert_array_equal(a.cluster_centers_, b.cluster_centers_)
    np.testing.assert_array_equal(a.predict(X), a.labels_)
    np.testing.assert_array_equal(a.fit_predict(X), a.labels_)
    np.testing.assert_allclose(
        a.transform(X), cdist(X, a.cluster_centers_), atol=1e-10
    )
    assert a.score(X) == pytest.approx(-a.inertia_, rel=1e-12)


def test_fewer_distinct_points_than_clusters_warns():
    X = np.repeat([[0.0, 0.0], [1.0, 1.0]], 5, axis=0)
    with pytest.warns(ConvergenceWarning, match="distinct clusters"):
        KMeans(3, init="random", n_init=1, random_state=0).fit(X)


def test_kmeans_rejects_bad_input_and_leaves_arrays_alone():
    X = DATA["blobs"].copy()
    init = initial_centers(X, 3, 0)
    X_before, init_before = X.copy(), init.copy()
    KMeans(3, init=init, n_init=1).fit(X)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(init, init_before)
    with pytest.raises(ValueError, match="larger than the number of samples"):
        KMeans(5).fit(X[:3])
    with pytest.raises(ValueError, match="n_clusters must be at least 1"):
        KMeans(0).fit(X)
    with pytest.raises(ValueError, match="n_clusters must be an integer"):
        KMeans(2.5).fit(X)
    with pytest.raises(ValueError, match=r"init has shape \(3, 2\).*\(4, 2\)"):
        KMeans(4, init=init).fit(X)
    with pytest.raises(ValueError, match="init must be"):
        KMeans(3, init="kmeans").fit(X)
    with pytest.raises(ValueError, match="n_init must be at least 1"):
        KMeans(3, n_init=0).fit(X)
    with pytest.warns(RuntimeWarning, match="one run"):
        KMeans(3, init=init, n_init=5).fit(X)
    with pytest.raises(NotFittedError):
        KMeans(3).predict(X)
    with pytest.raises(ValueError, match="features"):
        KMeans(3, random_state=0).fit(X).predict(np.ones((2, 3)))


# --- k-means++ --------------------------------------------------------------------------------


def test_kmeans_plusplus_samples_proportionally_to_squared_distance():
    X = np.array([[0.0], [1.0], [3.0], [6.0], [10.0]])
    draws = 6000
    second = np.empty(draws, dtype=int)
    rng = np.random.default_rng(0)
    firsts = np.zeros(len(X))
    for t in range(draws):
        _, indices = kmeans_plusplus(X, 2, random_state=rng, n_local_trials=1)
        firsts[indices[0]] += 1
        second[t] = indices[1] if indices[0] == 0 else -1
    # the first centre is uniform
    np.testing.assert_allclose(
        firsts / draws, 0.2, atol=4 * np.sqrt(0.2 * 0.8 / draws)
    )
    # given the first centre x = 0, the second is x with probability x^2 / sum x^2
    picked = second[second >= 0]
    expected = X[:, 0] ** 2 / np.sum(X[:, 0] ** 2)
    observed = np.bincount(picked, minlength=len(X)) / len(picked)
    np.testing.assert_allclose(
        observed, expected, atol=4 * np.sqrt(0.25 / len(picked))
    )
    assert observed[0] == 0  # a chosen point (D = 0) is never chosen again


def test_kmeans_plusplus_returns_distinct_data_points_and_greedy_lowers_the_potential():
    X = np.vstack(
        [DATA["blobs"], DATA["blobs"][:50]]
    )  # duplicates must not be picked twice
    centers, indices = kmeans_plusplus(X, 5, random_state=0)
    np.testing.assert_array_equal(centers, X[indices])
    assert len(np.unique(centers, axis=0)) == 5

    def potential(trials, seed):
        c, _ = kmeans_plusplus(
            DATA["gauss10"], 8, random_state=seed, n_local_trials=trials
        )
        return np.min(cdist(DATA["gauss10"], c, "sqeuclidean"), axis=1).sum()

    plain = np.mean([potential(1, s) for s in range(40)])
    greedy = np.mean([potential(None, s) for s in range(40)])
    assert greedy < plain
    with pytest.raises(ValueError, match="n_local_trials"):
        kmeans_plusplus(X, 2, n_local_trials=0)


# --- DBSCAN -----------------------------------------------------------------------------------

MOONS = make_moons(300, noise=0.09, random_state=1)[0]


@pytest.mark.parametrize(
    "X, eps, min_samples",
    [
        (MOONS, 0.1, 5),
        (MOONS, 0.2, 10),
        (MOONS, 0.06, 3),
        (MOONS, 0.15, 1),
        (DATA["iris"], 0.5, 5),
        (DATA["wine"], 1.8, 6),
        (DATA["blobs"], 0.7, 4),
    ],
)
def test_dbscan_equals_sklearn_label_for_label(X, eps, min_samples):
    ours = DBSCAN(eps=eps, min_samples=min_samples).fit(X)
    theirs = sk.DBSCAN(eps=eps, min_samples=min_samples).fit(X)
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_array_equal(
        ours.core_sample_indices_, theirs.core_sample_indices_
    )
    np.testing.assert_array_equal(ours.components_, theirs.components_)


@pytest.mark.parametrize("eps, min_samples", [(0.1, 5), (0.2, 12)])
def test_dbscan_labels_satisfy_the_definitions(eps, min_samples):
    X = MOONS
    model = DBSCAN(eps=eps, min_samples=min_samples).fit(X)
    within = cdist(X, X) <= eps
    core = within.sum(axis=1) >= min_samples  # the point itself counts
    np.testing.assert_array_equal(
        np.flatnonzero(core), model.core_sample_indices_
    )
    labels = model.labels_
    # core points in each other's neighbourhood share a cluster; core points are never noise
    i, j = np.nonzero(within & core[:, None] & core[None, :])
    assert np.all(labels[i] == labels[j]) and np.all(labels[core] >= 0)
    # a cluster of core points is connected (else it would be two clusters)
    for c in np.unique(labels[core]):
        members = np.flatnonzero(core & (labels == c))
        reached = {members[0]}
        frontier = [members[0]]
        while frontier:
            p = frontier.pop()
            for q in members[within[p, members]]:
                if q not in reached:
                    reached.add(q)
                    frontier.append(q)
        assert len(reached) == len(members)
    # border points have a core neighbour in their cluster; noise points have none at all
    for p in np.flatnonzero(~core):
        neighbours = np.flatnonzero(within[p] & core)
        if labels[p] == -1:
            assert len(neighbours) == 0
        else:
            assert labels[p] in labels[neighbours]


def test_border_point_joins_the_first_cluster_and_core_points_do_not_depend_on_order():
    # two dense groups, and a point within eps of a core point of each, but not core itself
    left = np.array([[0.0, 0.0], [0.0, 0.1], [0.1, 0.0], [-0.1, 0.0]])
    right = left + [1.0, 0.0]
    bridge = np.array([[0.5, 0.0]])
    X = np.vstack([left, right, bridge])
    model = DBSCAN(eps=0.45, min_samples=4).fit(X)
    assert (
        model.labels_[-1]
        == 0
        == sk.DBSCAN(eps=0.45, min_samples=4).fit(X).labels_[-1]
    )
    flipped = np.vstack([right, left, bridge])
    assert (
        DBSCAN(eps=0.45, min_samples=4).fit(flipped).labels_[-1] == 0
    )  # now the right group's cluster
    order = np.random.default_rng(0).permutation(len(MOONS))
    a = DBSCAN(eps=0.1, min_samples=5).fit(MOONS)
    b = DBSCAN(eps=0.1, min_samples=5).fit(MOONS[order])
    np.testing.assert_array_equal(
        np.sort(order[b.core_sample_indices_]), a.core_sample_indices_
    )
    core = a.core_sample_indices_
    inverse = np.argsort(order)
    assert (
        adjusted_rand_score(a.labels_[core], b.labels_[inverse][core]) == 1.0
    )
    np.testing.assert_array_equal(a.labels_ == -1, b.labels_[inverse] == -1)


def test_min_samples_counts_the_point_itself():
    X = np.array([[0.0], [0.1], [0.2], [5.0]])
    assert list(DBSCAN(eps=0.15, min_samples=3).fit(X).labels_) == [
        0,
        0,
        0,
        -1,
    ]
    assert list(DBSCAN(eps=0.15, min_samples=4).fit(X).labels_) == [
        -1,
        -1,
        -1,
        -1,
    ]
    assert list(DBSCAN(eps=0.15, min_samples=1).fit(X).labels_) == [0, 0, 0, 1]


@pytest.mark.parametrize(
    "X, eps",
    [
        (MOONS, 0.1),
        (np.vstack([MOONS, MOONS[:20]]), 0.05),  # repeated points
        (DATA["wine"], 1.8),  # 13 dimensions
    ],
)
def test_radius_graph_from_the_tree_equals_all_pairs(X, eps):
    graph = radius_neighbors_graph(X, eps)
    np.testing.assert_array_equal(graph.toarray(), cdist(X, X) <= eps)
    assert graph.nnz == np.sum(cdist(X, X) <= eps)  # no duplicate entries


def test_dbscan_rejects_bad_input():
    with pytest.raises(ValueError, match=r"eps must be in \(0"):
        DBSCAN(eps=0).fit(MOONS)
    with pytest.raises(ValueError, match="min_samples must be at least 1"):
        DBSCAN(min_samples=0).fit(MOONS)
    with pytest.raises(ValueError, match="NaN"):
        DBSCAN().fit(np.array([[0.0, np.nan]]))
    X = MOONS.copy()
    DBSCAN(eps=0.1).fit(X)
    np.testing.assert_array_equal(X, MOONS)


# --- agglomerative clustering -----------------------------------------------------------------


@pytest.mark.parametrize("linkage", ["ward", "complete", "average", "single"])
@pytest.mark.parametrize("name", ["blobs", "iris", "wine"])
def test_agglomerative_equals_sklearn(linkage, name):
    X = DATA[name]
    for k in (2, 4, 7):
        ours = AgglomerativeClustering(k, linkage=linkage).fit(X)
        theirs = sk.AgglomerativeClustering(
            k, linkage=linkage, compute_distances=True
        ).fit(X)
        assert adjusted_rand_score(ours.labels_, theirs.labels_) == 1.0
        assert ours.n_clusters_ == k == len(np.unique(ours.labels_))
        if linkage != "single":  # the same tree (scipy's), cut the same way
            np.testing.assert_array_equal(ours.children_, theirs.children_)
            np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_allclose(
        np.sort(ours.distances_), np.sort(theirs.distances_), rtol=1e-10
    )


@pytest.mark.parametrize("linkage", ["ward", "average"])
def test_distance_threshold_equals_sklearn(linkage):
    X = DATA["blobs"]
    for threshold in (2.0, 5.0, 20.0):
        ours = AgglomerativeClustering(
            None, linkage=linkage, distance_threshold=threshold
        ).fit(X)
        theirs = sk.AgglomerativeClustering(
            None, linkage=linkage, distance_threshold=threshold
        ).fit(X)
        assert ours.n_clusters_ == theirs.n_clusters_
        assert adjusted_rand_score(ours.labels_, theirs.labels_) == 1.0


def test_ward_merge_height_is_the_increase_in_within_cluster_sum_of_squares():
    X = DATA["iris"][::3]
    model = AgglomerativeClustering(1, linkage="ward").fit(X)
    sse = [0.0]
    for k in range(len(X) - 1, 0, -1):
        labels = cut_tree(model.children_, len(X), k)
        centres = np.array([X[labels == c].mean(axis=0) for c in range(k)])
        sse.append(inertia(X, labels, centres))
    np.testing.assert_allclose(
        np.diff(sse), model.distances_**2 / 2, rtol=1e-9, atol=1e-12
    )


def test_single_linkage_heights_are_the_minimum_spanning_tree_edges():
    X = DATA["wine"][::2]
    model = AgglomerativeClustering(1, linkage="single").fit(X)
    edges = minimum_spanning_tree(squareform(pdist(X))).data
    np.testing.assert_allclose(
        np.sort(model.distances_), np.sort(edges), rtol=1e-12
    )


def test_dbscan_with_min_samples_1_is_single_linkage_keeping_merges_at_most_eps():
    # N_eps is closed (distance <= eps), so DBSCAN joins samples exactly eps apart, while a merge at
    # height exactly distance_threshold is undone (scikit-learn's convention: only merges below it).
    # The two agree when the cut keeps the merges of height <= eps, i.e. a threshold just above eps.
    X = np.array(
        [
            [0.0, 0.0],
            [1.0, 0.0],
            [2.0, 0.0],
            [5.0, 0.0],
            [5.0, 1.0],
            [9.0, 9.0],
        ]
    )
    density = DBSCAN(eps=1.0, min_samples=1).fit(X).labels_
    assert (
        list(density)
        == [0, 0, 0, 1, 1, 2]
        == list(sk.DBSCAN(eps=1.0, min_samples=1).fit(X).labels_)
    )
    at_eps = AgglomerativeClustering(
        None, linkage="single", distance_threshold=1.0
    ).fit(X)
    sk_at_eps = sk.AgglomerativeClustering(
        None, linkage="single", distance_threshold=1.0
    ).fit(X)
    assert (
        at_eps.n_clusters_ == sk_at_eps.n_clusters_ == 6
    )  # every merge is at height exactly 1
    above_eps = AgglomerativeClustering(
        None, linkage="single", distance_threshold=np.nextafter(1.0, 2.0)
    ).fit(X)
    assert adjusted_rand_score(above_eps.labels_, density) == 1.0
    heights = (
        AgglomerativeClustering(1, linkage="single").fit(MOONS).distances_
    )
    for eps in (
        0.06,
        0.1,
        0.15,
    ):  # no ties: any threshold in (eps, next merge height] will do
        threshold = (eps + heights[heights > eps].min()) / 2
        cut = AgglomerativeClustering(
            None, linkage="single", distance_threshold=threshold
        ).fit(MOONS)
        assert (
            adjusted_rand_score(
                cut.labels_, DBSCAN(eps=eps, min_samples=1).fit(MOONS).labels_
            )
            == 1.0
        )


def test_cut_tree_extremes_and_bad_input():
    X = DATA["blobs"][:20]
    model = AgglomerativeClustering(20).fit(X)
    assert len(np.unique(model.labels_)) == 20
    assert np.all(AgglomerativeClustering(1).fit(X).labels_ == 0)
    with pytest.raises(ValueError, match="exactly one of"):
        AgglomerativeClustering(None).fit(X)
    with pytest.raises(ValueError, match="exactly one of"):
        AgglomerativeClustering(3, distance_threshold=1.0).fit(X)
    with pytest.raises(ValueError, match="linkage must be"):
        AgglomerativeClustering(3, linkage="centroid").fit(X)
    with pytest.raises(ValueError, match="larger than the number of samples"):
        AgglomerativeClustering(21).fit(X)
    with pytest.raises(ValueError, match="at least 2 samples"):
        AgglomerativeClustering(1).fit(X[:1])


# --- clustering scores ------------------------------------------------------------------------


def test_adjusted_rand_score_equals_sklearn():
    rng = np.random.default_rng(0)
    for _ in range(10):
        a = rng.integers(0, 4, 200)
        b = rng.integers(0, 6, 200)
        b[:120] = a[:120]
        assert adjusted_rand_score(a, b) == pytest.approx(
            sk_metrics.adjusted_rand_score(a, b), abs=1e-12
        )
    assert (
        adjusted_rand_score([0, 0, 1, 1], ["b", "b", "a", "a"]) == 1.0
    )  # renaming does not matter
    assert (
        adjusted_rand_score([0, 0, 0], [1, 1, 1])
        == 1.0
        == adjusted_rand_score([0, 1, 2], [2, 0, 1])
    )
    with pytest.raises(ValueError, match="different lengths"):
        adjusted_rand_score([0, 1], [0, 1, 1])


@pytest.mark.parametrize("name", ["blobs", "iris"])
def test_silhouette_equals_sklearn(name):
    X = DATA[name]
    labels = KMeans(4, random_state=0).fit(X).labels_
    labels[0] = 9  # a singleton cluster has silhouette 0
    np.testing.assert_allclose(
        silhouette_samples(X, labels),
        sk_metrics.silhouette_samples(X, labels),
        atol=1e-12,
    )
    np.testing.assert_allclose(
        silhouette_samples(X, labels, chunk_bytes=8 * len(X) * 13),
        silhouette_samples(X, labels),
        atol=1e-14,
    )
    assert silhouette_score(X, labels) == pytest.approx(
        sk_metrics.silhouette_score(X, labels), abs=1e-12
    )
    with pytest.raises(ValueError, match="number of clusters"):
        silhouette_score(X, np.zeros(len(X)))


# --- KMeans with sample weights: J = Σ s_i ‖x_i − μ_{c_i}‖² --------------------


@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize("k, seed", [(3, 0), (5, 1)])
def test_weighted_kmeans_from_given_centres_equals_sklearn_lloyd(
    name, k, seed
):
    X = DATA[name]
    weights = np.random.default_rng(seed).uniform(0, 3, size=len(X))
    init = initial_centers(X, k, seed)
    ours = KMeans(k, init=init, n_init=1).fit(X, sample_weight=weights)
    theirs = sk.KMeans(k, init=init, n_init=1, algorithm="lloyd").fit(
        X, sample_weight=weights
    )
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_allclose(
        ours.cluster_centers_, theirs.cluster_centers_, rtol=1e-10, atol=1e-12
    )
    assert ours.inertia_ == pytest.approx(theirs.inertia_, rel=1e-10)
    assert ours.n_iter_ == theirs.n_iter_
    assert ours.score(X, sample_weight=weights) == pytest.approx(
        theirs.score(X, sample_weight=weights), rel=1e-10
    )


@pytest.mark.parametrize("name", DATA)
def test_integer_weights_equal_repeated_rows(name):
    # from the same centres Lloyd's steps see the same weighted sums; a zero
    # weight drops the sample from every mean and from the inertia
    X = DATA[name]
    weights = integer_weights(len(X), seed=3)
    init = initial_centers(X[weights > 0], 4, seed=3)
    ours = KMeans(4, init=init, n_init=1).fit(X, sample_weight=weights)
    X_rep, _ = repeated(X, np.zeros(len(X)), weights)
    plain = KMeans(4, init=init, n_init=1).fit(X_rep)
    np.testing.assert_allclose(
        ours.cluster_centers_, plain.cluster_centers_, rtol=1e-10, atol=1e-12
    )
    assert ours.inertia_ == pytest.approx(plain.inertia_, rel=1e-10)
    np.testing.assert_array_equal(
        np.repeat(ours.labels_, weights), plain.labels_
    )


def test_a_common_factor_in_the_weights_scales_only_the_inertia():
    X = DATA["blobs"]
    weights = np.random.default_rng(4).uniform(0.5, 2, size=len(X))
    once = KMeans(5, random_state=0).fit(X, sample_weight=weights)
    scaled = KMeans(5, random_state=0).fit(X, sample_weight=8 * weights)
    np.testing.assert_array_equal(scaled.labels_, once.labels_)
    np.testing.assert_allclose(
        scaled.cluster_centers_, once.cluster_centers_, rtol=1e-12
    )
    assert scaled.inertia_ == pytest.approx(8 * once.inertia_, rel=1e-12)


@pytest.mark.parametrize("init", ["k-means++", "random"])
def test_equal_weights_reproduce_the_unweighted_fit(init):
    # equal weights are no weights: the same objective, and the seedings draw
    # from the same random stream
    X = DATA["wine"]
    plain = KMeans(3, init=init, n_init=3, random_state=5).fit(X)
    for weights in (np.ones(len(X)), 2.0):
        weighted = KMeans(3, init=init, n_init=3, random_state=5).fit(
            X, sample_weight=weights
        )
        np.testing.assert_array_equal(weighted.labels_, plain.labels_)
        np.testing.assert_allclose(
            weighted.cluster_centers_, plain.cluster_centers_, rtol=1e-12
        )


def test_kmeans_plusplus_draws_the_first_centre_in_proportion_to_weight():
    # P(first centre = x_i) = s_i / Σ s: frequencies over many seeds within
    # five binomial standard deviations; weight 0 is never drawn
    X = np.arange(5.0)[:, None]
    weights = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    rng = np.random.default_rng(6)
    draws = 4000
    first = [
        kmeans_plusplus(X, 1, sample_weight=weights, random_state=rng)[1][0]
        for _ in range(draws)
    ]
    counts = np.bincount(first, minlength=5)
    p = weights / weights.sum()
    assert counts[0] == 0
    assert np.all(
        np.abs(counts - draws * p) <= 5 * np.sqrt(draws * p * (1 - p))
    )


def test_kmeans_plusplus_never_seeds_a_zero_weight_sample():
    X = DATA["gauss10"]
    weights = integer_weights(len(X), seed=7)
    for seed in range(20):
        _, indices = kmeans_plusplus(
            X, 6, sample_weight=weights, random_state=seed
        )
        assert np.all(weights[indices] > 0)
        _, indices = kmeans_plusplus(
            X, 6, sample_weight=weights, random_state=seed, n_local_trials=1
        )
        assert np.all(weights[indices] > 0)


def test_weights_equal_repeats_in_sklearns_check_once_the_seeding_is_fixed():
    # scikit-learn's check_sample_weight_equivalence_on_dense_data fails for
    # KMeans (for scikit-learn's KMeans too, which lists it as an expected
    # failure) for two reasons that are not errors: the check shuffles the
    # weighted rows, so the random seedings draw different centres; and an
    # emptied cluster takes the one sample farthest from its centre, which
    # carries its whole weight but only one of its repeated copies (the rule
    # of scikit-learn, whose KMeans gives the same numbers here). From
    # centres that leave no cluster empty, the check passes.
    from sklearn.utils.estimator_checks import (
        check_sample_weight_equivalence_on_dense_data,
    )

    X = np.random.RandomState(42).rand(15, 30)  # the check's own X
    check_sample_weight_equivalence_on_dense_data(
        "KMeans", KMeans(n_clusters=2, init=X[[2, 6]], n_init=1)
    )
    with pytest.raises(AssertionError, match="not equivalent"):
        check_sample_weight_equivalence_on_dense_data(
            "KMeans", KMeans(n_clusters=2, n_init=2, max_iter=5)
        )


def test_kmeans_bad_weights_raise():
    check_bad_weights_raise(KMeans(2, n_init=1), DATA["iris"])
    model = KMeans(2, random_state=0).fit(DATA["iris"])
    with pytest.raises(ValueError, match="non-negative"):
        model.score(DATA["iris"][:3], sample_weight=[1.0, -1.0, 1.0])


# --- DBSCAN with sample weights: core when the neighbourhood weighs min_samples


@pytest.mark.parametrize("signed", [False, True], ids=["integer", "signed"])
@pytest.mark.parametrize("eps, min_samples", [(0.5, 5), (0.8, 10), (0.3, 3)])
def test_weighted_dbscan_equals_sklearn(eps, min_samples, signed):
    X = DATA["blobs"]
    rng = np.random.default_rng(min_samples)
    weights = (
        rng.uniform(-1, 3, size=len(X))  # scikit-learn allows negatives
        if signed
        else integer_weights(len(X), seed=min_samples).astype(float)
    )
    ours = DBSCAN(eps=eps, min_samples=min_samples).fit(
        X, sample_weight=weights
    )
    theirs = sk.DBSCAN(eps=eps, min_samples=min_samples).fit(
        X, sample_weight=weights
    )
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_array_equal(
        ours.core_sample_indices_, theirs.core_sample_indices_
    )


def test_dbscan_integer_weights_count_as_copies():
    # weights ≥ 1: a copy lies at distance 0, inside every neighbourhood of
    # the original, so each neighbourhood weighs what it counts repeated
    X = DATA["blobs"]
    weights = integer_weights(len(X), seed=8) + 1
    model = DBSCAN(eps=0.5, min_samples=8)
    weighted = model.fit(X, sample_weight=weights).labels_
    plain = model.fit(np.repeat(X, weights, axis=0)).labels_
    np.testing.assert_array_equal(np.repeat(weighted, weights), plain)
    # a point weighing min_samples is a core point on its own
    heavy = np.ones(len(X))
    heavy[0] = 8
    alone = DBSCAN(eps=1e-9, min_samples=8).fit(X, sample_weight=heavy)
    np.testing.assert_array_equal(alone.core_sample_indices_, [0])


def test_dbscan_bad_weights_raise():
    X = DATA["blobs"][:5]
    for weights, message in [
        (np.zeros(5), "non-zero"),
        (np.ones(4), r"shape \(5,\)"),
        ([1.0, np.nan, 1.0, 1.0, 1.0], "NaN"),
    ]:
        with pytest.raises(ValueError, match=message):
            DBSCAN().fit(X, sample_weight=weights)


def test_random_seeding_needs_as_many_weighted_samples_as_clusters():
    X = DATA["iris"]
    weights = np.zeros(len(X))
    weights[:2] = 1.0
    with pytest.raises(ValueError, match="only 2 have a positive weight"):
        KMeans(3, init="random").fit(X, sample_weight=weights)


@pytest.mark.parametrize("linkage", ["complete", "average", "single"])
@pytest.mark.parametrize(
    "metric", ["manhattan", "l1", "cosine", "precomputed", "callable"]
)
def test_other_metrics_equal_sklearn(linkage, metric):
    X = DATA["iris"]
    ours_metric = sk_metric = metric
    data = X
    if metric == "precomputed":
        data = np.abs(X[:, None, :] - X[None, :, :]).sum(axis=2)
    elif metric == "callable":

        def ours_metric(X):  # Chebyshev distances, as scikit-learn calls it
            return np.abs(X[:, None, :] - X[None, :, :]).max(axis=2)

        sk_metric = ours_metric
    for k in (2, 5):
        ours = AgglomerativeClustering(
            k, metric=ours_metric, linkage=linkage
        ).fit(data)
        theirs = sk.AgglomerativeClustering(
            k, metric=sk_metric, linkage=linkage, compute_distances=True
        ).fit(data)
        assert adjusted_rand_score(ours.labels_, theirs.labels_) == 1.0
    np.testing.assert_allclose(
        np.sort(ours.distances_), np.sort(theirs.distances_), rtol=1e-10
    )


def test_ward_takes_euclidean_distances_only():
    with pytest.raises(ValueError, match="Ward can only work with euclidean"):
        AgglomerativeClustering(metric="cosine").fit(DATA["iris"])
    with pytest.raises(ValueError, match="should be square"):
        AgglomerativeClustering(metric="precomputed", linkage="average").fit(
            DATA["iris"]
        )
