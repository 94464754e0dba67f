"""mllib.linear_model.MulticlassPerceptron and the multivector (Kesler)
construction: Algorithm 7 and Algorithm 8 have the same iterates, the
mistake bound holds for a planted separator, and a binary perceptron on the
Kesler vectors separates the classes."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris

from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.linear_model import MulticlassPerceptron, Perceptron
from mllib.linear_model.multiclass_perceptron import (
    joint_feature_perceptron,
    kesler_construction,
    kesler_margin,
    multivector_features,
)


def planted(rng, n, K, d, min_margin):
    """Points in the unit ball labelled by argmax of a planted W, kept when
    the best class wins by min_margin (in units of the unit multivector)."""
    W = rng.normal(size=(K, d))
    W /= np.linalg.norm(W)
    X = np.empty((0, d))
    while len(X) < n:
        x = rng.uniform(-1, 1, size=(4 * n, d))
        x = x[np.linalg.norm(x, axis=1) <= 1]
        scores = np.sort(x @ W.T, axis=1)
        X = np.vstack([X, x[scores[:, -1] - scores[:, -2] >= min_margin]])
    X = X[:n]
    return X, np.argmax(X @ W.T, axis=1), W


def test_multivector_features_and_kesler_vectors(rng):
    K, d = 4, 3
    X, y, W = (
        rng.normal(size=(6, d)),
        rng.integers(K, size=6),
        rng.normal(size=(K, d)),
    )
    psi = multivector_features(X, K)
    assert psi.shape == (6, K, K * d)
    np.testing.assert_allclose(psi @ W.ravel(), X @ W.T)
    Z = kesler_construction(X, y, K)
    assert Z.shape == (6 * (K - 1), K * d)
    expected = [
        W[y[i]] @ X[i] - W[c] @ X[i]
        for i in range(6)
        for c in range(K)
        if c != y[i]
    ]
    np.testing.assert_allclose(Z @ W.ravel(), expected)
    np.testing.assert_allclose(
        np.linalg.norm(Z, axis=1),
        np.repeat(np.sqrt(2) * np.linalg.norm(X, axis=1), K - 1),
    )


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_algorithms_7_and_8_have_the_same_iterates(fit_intercept):
    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # not separable
        direct = MulticlassPerceptron(
            fit_intercept=fit_intercept, shuffle=False, max_iter=30
        ).fit(X, y)
        X_aug = np.hstack([X, np.ones((len(X), 1))]) if fit_intercept else X
        w, indices, labels = joint_feature_perceptron(
            multivector_features(X_aug, 3), y, max_iter=30
        )
    assert direct.n_updates_ > 50
    np.testing.assert_array_equal(indices, direct.mistake_indices_)
    np.testing.assert_array_equal(labels, direct.mistake_labels_)
    W = w.reshape(3, -1)
    np.testing.assert_array_equal(W[:, :4], direct.coef_)
    if fit_intercept:
        np.testing.assert_array_equal(W[:, 4], direct.intercept_)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_mistakes_obey_the_kesler_bound(seed):
    rng = np.random.default_rng(seed)
    X, y, W = planted(rng, 300, K=4, d=3, min_margin=0.1)
    gamma, R = kesler_margin(X, y, W)
    assert gamma > 0 and R <= np.sqrt(2)
    model = MulticlassPerceptron(fit_intercept=False, random_state=seed).fit(
        X, y
    )
    assert model.n_updates_ <= (R / gamma) ** 2
    assert model.mistakes_per_epoch_[-1] == 0
    np.testing.assert_array_equal(model.predict(X), y)
    # the learned multivector separates the data too
    y_index = np.searchsorted(model.classes_, y)
    assert kesler_margin(X, y_index, model.coef_)[0] >= 0


def test_a_binary_perceptron_on_the_kesler_vectors_separates_the_classes():
    rng = np.random.default_rng(5)
    X, y, _ = planted(rng, 100, K=3, d=2, min_margin=0.1)
    Z = kesler_construction(X, y, 3)
    # all Kesler vectors must end up positive: label them +1, and add their
    # mirror images as -1 so that the binary learner sees two classes
    binary = Perceptron(fit_intercept=False, shuffle=False).fit(
        np.vstack([Z, -Z]), np.repeat([1, -1], len(Z))
    )
    W = binary.coef_.reshape(3, 2)
    assert np.min(Z @ W.ravel()) > 0
    np.testing.assert_array_equal(np.argmax(X @ W.T, axis=1), y)


def test_labels_shapes_and_binary_decision(rng):
    X, y, _ = planted(rng, 60, K=2, d=2, min_margin=0.1)
    names = np.array(["no", "yes"])[y]
    model = MulticlassPerceptron(random_state=0).fit(X, names)
    assert model.coef_.shape == (2, 2) and model.intercept_.shape == (2,)
    scores = model.decision_function(X)
    assert scores.shape == (60,)
    np.testing.assert_array_equal(
        model.predict(X), np.where(scores > 0, "yes", "no")
    )
    X3, y3, _ = planted(rng, 60, K=3, d=2, min_margin=0.1)
    model = MulticlassPerceptron(random_state=0).fit(X3, y3)
    assert model.decision_function(X3).shape == (60, 3)


def test_bad_input(rng):
    with pytest.raises(NotFittedError):
        MulticlassPerceptron().predict(np.zeros((1, 2)))
    X = rng.normal(size=(20, 2))
    with pytest.warns(ConvergenceWarning, match="not separable"):
        MulticlassPerceptron(max_iter=3).fit(
            np.vstack([X, X]), np.repeat([0, 1], 20)
        )
    with pytest.raises(ValueError, match="coef is zero"):
        kesler_margin(X, np.zeros(20, dtype=int), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="Unknown label type"):
        MulticlassPerceptron().fit(X, rng.normal(size=20))
