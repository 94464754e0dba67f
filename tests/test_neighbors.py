"""mllib.neighbors: k-nearest neighbours against scikit-learn's, by each of
the searches (brute force, k-d tree, and scikit-learn's choice between them).
"""

import numpy as np
import pytest
from sklearn import neighbors as sk_neighbors
from sklearn.datasets import (
    load_breast_cancer,
    load_diabetes,
    load_iris,
    make_moons,
)

import mllib.neighbors
from mllib.exceptions import NotFittedError
from mllib.neighbors import (
    ALGORITHMS,
    KNeighborsClassifier,
    KNeighborsRegressor,
    k_smallest,
)


def _split(X, y, seed=0):
    test = np.random.default_rng(seed).permutation(len(y))[: len(y) // 3]
    train = np.setdiff1d(np.arange(len(y)), test)
    return X[train], y[train], X[test], y[test]


def _classification_sets():
    X_iris, y_iris = load_iris(return_X_y=True)
    X_iris = X_iris + np.random.default_rng(0).normal(
        scale=1e-3, size=X_iris.shape
    )  # iris has duplicate rows
    X_cancer, y_cancer = load_breast_cancer(return_X_y=True)
    X_moons, y_moons = make_moons(300, noise=0.3, random_state=0)
    return {
        "iris": (X_iris, y_iris),
        "cancer": ((X_cancer - X_cancer.mean(0)) / X_cancer.std(0), y_cancer),
        "moons": (X_moons, y_moons),
    }


CLASSIFICATION = _classification_sets()


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("name", CLASSIFICATION)
@pytest.mark.parametrize("k", [1, 5, 15])
@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_classifier_equals_scikit_learn(name, k, weights, algorithm):
    X_train, y_train, X_test, _ = _split(*CLASSIFICATION[name])
    ours = KNeighborsClassifier(k, weights=weights, algorithm=algorithm).fit(
        X_train, y_train
    )
    theirs = sk_neighbors.KNeighborsClassifier(
        k, weights=weights, algorithm=algorithm
    ).fit(X_train, y_train)
    distances, indices = ours.kneighbors(X_test)
    sk_distances, sk_indices = theirs.kneighbors(X_test)
    np.testing.assert_array_equal(indices, sk_indices)
    np.testing.assert_allclose(distances, sk_distances, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(
        ours.predict_proba(X_test),
        theirs.predict_proba(X_test),
        rtol=1e-10,
        atol=1e-12,
    )
    np.testing.assert_array_equal(ours.predict(X_test), theirs.predict(X_test))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("k", [1, 4, 20])
@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_regressor_equals_scikit_learn(k, weights, algorithm):
    X_train, y_train, X_test, _ = _split(*load_diabetes(return_X_y=True))
    ours = KNeighborsRegressor(k, weights=weights, algorithm=algorithm).fit(
        X_train, y_train
    )
    theirs = sk_neighbors.KNeighborsRegressor(
        k, weights=weights, algorithm=algorithm
    ).fit(X_train, y_train)
    np.testing.assert_allclose(
        ours.predict(X_test), theirs.predict(X_test), rtol=1e-10
    )
    assert ours.score(X_test, theirs.predict(X_test)) == pytest.approx(1.0)


def test_chunks_do_not_change_the_answer(monkeypatch):
    X_train, y_train, X_test, _ = _split(*CLASSIFICATION["cancer"])
    model = KNeighborsClassifier(7, algorithm="brute").fit(X_train, y_train)
    whole = model.kneighbors(X_test)
    monkeypatch.setattr(
        mllib.neighbors, "CHUNK_ENTRIES", 3 * len(X_train) + 1
    )  # three queries per chunk
    chunked = model.kneighbors(X_test)
    np.testing.assert_array_equal(whole[1], chunked[1])
    np.testing.assert_allclose(whole[0], chunked[0], rtol=1e-12)


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_neighbours_by_brute_force_distances(algorithm):
    rng = np.random.default_rng(1)
    X, Q = (
        rng.normal(size=(60, 3)) + 1e4,
        rng.normal(size=(20, 3)) + 1e4,
    )  # far from the origin
    distances, indices = (
        KNeighborsRegressor(6, algorithm=algorithm)
        .fit(X, np.zeros(60))
        .kneighbors(Q)
    )
    exact = np.sqrt(((Q[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    np.testing.assert_array_equal(indices, np.argsort(exact, axis=1)[:, :6])
    np.testing.assert_allclose(
        distances, np.sort(exact, axis=1)[:, :6], rtol=1e-9
    )
    assert np.all(np.diff(distances, axis=1) >= 0)


def test_one_neighbour_memorises_and_distance_weights_respect_exact_matches():
    X, y = CLASSIFICATION["moons"]
    assert (
        KNeighborsClassifier(1).fit(X, y).score(X, y) == 1.0
    )  # training error 0
    assert (
        KNeighborsClassifier(9, weights="distance").fit(X, y).score(X, y)
        == 1.0
    )  # a point votes for itself only
    targets = np.sin(X[:, 0])
    np.testing.assert_allclose(
        KNeighborsRegressor(9, weights="distance").fit(X, targets).predict(X),
        targets,
    )


def test_ties_in_the_vote_go_to_the_first_class():
    X = np.array([[0.0], [1.0], [-1.0], [2.0]])
    model = KNeighborsClassifier(2).fit(X, np.array(["b", "a", "b", "a"]))
    np.testing.assert_array_equal(model.predict_proba([[0.5]]), [[0.5, 0.5]])
    assert model.predict([[0.5]])[0] == "a"
    assert model.predict([[-0.5]])[0] == "b"


def test_k_equal_to_n_predicts_the_majority_class_everywhere():
    X, y = CLASSIFICATION["moons"]
    model = KNeighborsClassifier(len(y)).fit(X, y)
    majority = np.bincount(y).argmax()
    assert np.all(
        model.predict(np.random.default_rng(0).normal(size=(10, 2)))
        == majority
    )


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_a_single_class_is_fitted_as_scikit_learn_does(weights):
    X, _ = CLASSIFICATION["moons"]
    y = np.full(len(X), "only")
    ours, theirs = (
        Model(5, weights=weights).fit(X, y)
        for Model in (KNeighborsClassifier, sk_neighbors.KNeighborsClassifier)
    )
    queries = np.vstack([X[:10], X[:10] + 0.1])  # on and off the points
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_array_equal(
        ours.predict_proba(queries), theirs.predict_proba(queries)
    )
    np.testing.assert_array_equal(ours.predict_proba(queries), 1.0)
    np.testing.assert_array_equal(
        ours.predict(queries), theirs.predict(queries)
    )


def test_the_training_set_is_copied_and_inputs_are_not_modified():
    X, y = CLASSIFICATION["moons"]
    X, y = X.copy(), y.copy()
    X_copy, y_copy = X.copy(), y.copy()
    model = KNeighborsClassifier(5, weights="distance").fit(X, y)
    before = model.predict_proba(X_copy)
    np.testing.assert_array_equal(X, X_copy)
    np.testing.assert_array_equal(y, y_copy)
    X[:] = 0.0  # the caller changes its array after fitting
    np.testing.assert_array_equal(model.predict_proba(X_copy), before)


def test_bad_input():
    X, y = CLASSIFICATION["moons"]
    with pytest.raises(NotFittedError):
        KNeighborsClassifier().predict(X)
    for k in (0, 2.5, True):
        with pytest.raises(ValueError, match="n_neighbors"):
            KNeighborsClassifier(k).fit(X, y)
    with pytest.raises(ValueError, match="weights"):
        KNeighborsRegressor(weights="gaussian").fit(X, y)
    with pytest.raises(ValueError, match="n_neighbors"):
        KNeighborsClassifier(len(y) + 1).fit(X, y).predict(X)
    with pytest.raises(ValueError, match="features"):
        KNeighborsClassifier().fit(X, y).predict(X[:, :1])
    with pytest.raises(ValueError, match="continuous"):
        KNeighborsClassifier().fit(X, y + 0.5)
    with pytest.raises(ValueError, match="algorithm"):
        KNeighborsClassifier(algorithm="kdtree").fit(X, y)
    for leaf_size in (0, 2.5):
        with pytest.raises(ValueError, match="leaf_size"):
            KNeighborsClassifier(leaf_size=leaf_size).fit(X, y)


@pytest.mark.parametrize(
    "n_samples, n_features, k",
    [(100, 15, 5), (100, 16, 5), (100, 2, 49), (100, 2, 50), (101, 2, 50)],
)
def test_auto_chooses_the_search_scikit_learn_chooses(
    n_samples, n_features, k
):
    X = np.random.default_rng(0).normal(size=(n_samples, n_features))
    y = np.arange(n_samples) % 2
    ours = KNeighborsClassifier(k).fit(X, y)
    theirs = sk_neighbors.KNeighborsClassifier(k).fit(X, y)
    assert ours._fit_method == theirs._fit_method


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
@pytest.mark.parametrize("leaf_size", [1, 30])
def test_ties_at_the_last_place_still_give_a_set_of_nearest_neighbours(
    algorithm, leaf_size
):
    """On a grid many points tie; whichever are returned, none may be
    farther than one left out."""
    rng = np.random.default_rng(3)
    X, Q = (
        rng.integers(-3, 4, size=(80, 2)).astype(float),
        rng.integers(-3, 4, size=(40, 2)).astype(float),
    )
    distances, indices = (
        KNeighborsRegressor(7, algorithm=algorithm, leaf_size=leaf_size)
        .fit(X, np.zeros(80))
        .kneighbors(Q)
    )
    exact = np.sqrt(((Q[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    for row in range(len(Q)):
        assert len(set(indices[row])) == 7
        left_out = np.setdiff1d(np.arange(80), indices[row])
        assert exact[row, indices[row]].max() <= exact[row, left_out].min()
        np.testing.assert_array_equal(distances[row], exact[row, indices[row]])
        # among equal distances the smaller index comes first
        assert all(
            (d0, i0) <= (d1, i1)
            for d0, i0, d1, i1 in zip(
                distances[row],
                indices[row],
                distances[row][1:],
                indices[row][1:],
            )
        )


@pytest.mark.parametrize("n, k", [(1000, 1), (1000, 7), (300, 299), (50, 50)])
def test_k_smallest_are_the_first_k_of_a_stable_sort(n, k):
    rng = np.random.default_rng(n + k)
    for scores in (
        rng.normal(size=(40, n)),
        rng.integers(0, 5, size=(40, n)).astype(float),  # many ties
    ):
        expected = np.argsort(scores, axis=1, kind="stable")[:, :k]
        np.testing.assert_array_equal(
            np.sort(k_smallest(scores, k), axis=1), np.sort(expected, axis=1)
        )
