"""mllib.neural_network.Autoencoder: a linear autoencoder reaches PCA's
reconstruction error and subspace (Baldi & Hornik), a nonlinear one beats
PCA on a curve, and the usual transformer contract."""

import numpy as np
import pytest
from scipy.linalg import subspace_angles

from mllib.decomposition import PCA
from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.neural_network import Autoencoder


def anisotropic(rng, n, d, offset=5.0):
    scales = np.geomspace(3.0, 0.05, d)
    rotation = np.linalg.qr(rng.normal(size=(d, d)))[0]
    return rng.normal(size=(n, d)) * scales @ rotation + offset


def reconstruction_error(model, X):
    return np.mean(
        np.sum((X - model.inverse_transform(model.transform(X))) ** 2, axis=1)
    )


@pytest.mark.parametrize(
    "n, d, k, hidden",
    [(200, 6, 2, ()), (120, 10, 3, ()), (200, 6, 2, (4,))],
    ids=["d6k2", "d10k3", "deep-linear"],
)
def test_a_linear_autoencoder_is_pca(n, d, k, hidden):
    rng = np.random.default_rng(d + k)
    X = anisotropic(rng, n, d)
    pca = PCA(n_components=k).fit(X)
    ae = Autoencoder(
        n_components=k, hidden_layer_sizes=hidden, random_state=0
    ).fit(X)
    pca_error = reconstruction_error(pca, X)
    ae_error = reconstruction_error(ae, X)
    assert ae_error == pytest.approx(pca_error, rel=1e-5)
    assert ae_error == pytest.approx(2 * ae.loss_, rel=1e-10)
    # the same subspace: principal angles between the decoder's row space
    # and the principal axes vanish
    decoder = np.linalg.multi_dot([np.eye(k), *ae.coefs_[len(hidden) + 1 :]])
    assert subspace_angles(decoder.T, pca.components_.T).max() < 1e-3
    # the end-to-end linear map is the orthogonal projection U U^T
    projection = np.linalg.multi_dot([np.eye(d), *ae.coefs_])
    U = pca.components_.T
    np.testing.assert_allclose(projection, U @ U.T, atol=1e-3)
    # the codes are the PCA scores up to an invertible k x k map and a shift
    scores = np.column_stack([pca.transform(X), np.ones(n)])
    codes = ae.transform(X)
    M, *_ = np.linalg.lstsq(scores, codes, rcond=None)
    np.testing.assert_allclose(
        scores @ M, codes, atol=1e-4 * np.abs(codes).max()
    )
    assert abs(np.linalg.det(M[:k])) > 1e-3


def test_a_linear_autoencoder_is_no_better_than_pca_at_any_seed():
    # Eckart-Young: no rank-k linear map beats PCA; fitted from several
    # starts, every autoencoder reaches, but never passes, the PCA error
    rng = np.random.default_rng(1)
    X = anisotropic(rng, 150, 5)
    pca_error = reconstruction_error(PCA(n_components=2).fit(X), X)
    for seed in range(4):
        ae = Autoencoder(n_components=2, random_state=seed).fit(X)
        error = reconstruction_error(ae, X)
        assert error >= pca_error * (1 - 1e-10)
        assert error <= pca_error * (1 + 1e-5)


def circle_arc(rng, n, d=6, noise=0.02):
    """Points on three quarters of a circle of radius 2 in a random plane of
    R^d, plus isotropic noise: a curved one-dimensional manifold."""
    t = rng.uniform(0, 1.5 * np.pi, n)
    plane = np.linalg.qr(rng.normal(size=(d, d)))[0][:, :2]
    arc = 2 * np.column_stack([np.cos(t), np.sin(t)]) @ plane.T
    return arc + noise * rng.normal(size=(n, d)), plane


@pytest.mark.parametrize("seed", range(4))
def test_a_nonlinear_autoencoder_beats_pca_on_a_curve(seed):
    rng = np.random.default_rng(seed)
    X, plane = circle_arc(rng, 150)
    pca = PCA(n_components=1).fit(X)
    ae = Autoencoder(
        n_components=1,
        hidden_layer_sizes=(16,),
        activation="tanh",
        tol=2e-3,
        max_iter=3000,
        random_state=seed,
    ).fit(X)
    assert reconstruction_error(ae, X) < 0.05 * reconstruction_error(pca, X)
    # on fresh points of the same arc too (same plane, new angles)
    t = rng.uniform(0, 1.5 * np.pi, 100)
    X_new = 2 * np.column_stack([np.cos(t), np.sin(t)]) @ plane.T
    X_new = X_new + 0.02 * rng.normal(size=X_new.shape)
    assert reconstruction_error(ae, X_new) < 0.1 * reconstruction_error(
        pca, X_new
    )


def test_transformer_contract(rng):
    X = anisotropic(rng, 50, 4)
    ae = Autoencoder(n_components=2, random_state=0)
    codes = ae.fit_transform(X)
    assert codes.shape == (50, 2)
    np.testing.assert_allclose(codes, ae.transform(X))
    assert ae.inverse_transform(codes).shape == (50, 4)
    np.testing.assert_allclose(ae.mean_, X.mean(axis=0))
    assert ae.n_layers_ == 2
    same = Autoencoder(n_components=2, random_state=0).fit(X)
    np.testing.assert_array_equal(same.transform(X), codes)


def test_bad_input(rng):
    X = anisotropic(rng, 30, 4)
    with pytest.raises(NotFittedError):
        Autoencoder().transform(X)
    with pytest.raises(ValueError, match="activation"):
        Autoencoder(activation="softplus").fit(X)
    with pytest.raises(ValueError, match="n_components"):
        Autoencoder(n_components=0).fit(X)
    with pytest.raises(ValueError, match="hidden layer"):
        Autoencoder(hidden_layer_sizes=(3, 0)).fit(X)
    ae = Autoencoder(n_components=2, random_state=0).fit(X)
    with pytest.raises(ValueError, match="codes of shape"):
        ae.inverse_transform(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="features"):
        ae.transform(np.zeros((3, 5)))
    with pytest.warns(ConvergenceWarning):
        Autoencoder(n_components=2, max_iter=2, random_state=0).fit(X)
