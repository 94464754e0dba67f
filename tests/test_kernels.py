import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.metrics.pairwise import euclidean_distances

from mllib.kernels import squared_euclidean_distances


@pytest.mark.parametrize("shape", [(5, 1), (40, 3), (30, 50)])
def test_matches_scipy_and_sklearn(rng, shape):
    X, Y = rng.normal(size=shape), rng.normal(size=(7, shape[1]))
    D = squared_euclidean_distances(X, Y)
    np.testing.assert_allclose(D, cdist(X, Y, "sqeuclidean"), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(D, euclidean_distances(X, Y, squared=True), rtol=1e-10, atol=1e-10)


def test_self_distances_are_symmetric_with_zero_diagonal(rng):
    X = rng.normal(size=(25, 4))
    D = squared_euclidean_distances(X)
    assert np.all(np.diag(D) == 0) and np.array_equal(D, D.T) and np.all(D >= 0)
    np.testing.assert_allclose(D, cdist(X, X, "sqeuclidean"), atol=1e-12)


def test_centring_removes_cancellation_far_from_the_origin(rng):
    X = 1e4 + rng.normal(size=(30, 3))   # spread 1, offset 1e4: the naive expansion loses ~8 digits
    Y = 1e4 + rng.normal(size=(20, 3))
    np.testing.assert_allclose(squared_euclidean_distances(X, Y), cdist(X, Y, "sqeuclidean"), rtol=1e-9)


def test_feature_mismatch_and_inputs_untouched(rng):
    X = rng.normal(size=(3, 2))
    X0 = X.copy()
    squared_euclidean_distances(X, X + 1)
    np.testing.assert_array_equal(X, X0)
    with pytest.raises(ValueError, match="same number of features"):
        squared_euclidean_distances(X, np.ones((2, 3)))
