r"""An undercomplete autoencoder: a multilayer perceptron trained to
reproduce its input through a narrow code layer.

The encoder :math:`f` maps :math:`x\in\mathbb R^d` through the hidden layers
``hidden_layer_sizes`` to a code :math:`z=f(x)\in\mathbb R^k` (``k =
n_components < d``); the decoder :math:`g` mirrors it back to
:math:`\hat x=g(z)\in\mathbb R^d` with an identity output. All the weights
minimise the squared reconstruction error, with the objective of
:mod:`mllib.neural_network.backprop` for targets :math:`Y=X`:

.. math:: J(\theta)=\frac1{2n}\sum_{i=1}^n\lVert x_i-g(f(x_i))\rVert^2
          +\frac{\alpha}{2n}\sum_l\lVert W_l\rVert_F^2 .

**Linear autoencoders span the principal subspace** (Bourlard & Kamp
1988; Baldi & Hornik 1989): with the identity activation and
:math:`\alpha=0`, the reconstruction
:math:`\hat x=xW_{\text{enc}}W_{\text{dec}}+c` has rank at most :math:`k`,
so by Eckart–Young the error is at least that of the best
rank-:math:`k` approximation of the centred data, the PCA error. If the
:math:`k`-th and :math:`(k+1)`-th eigenvalues of the sample covariance
differ and it is invertible, that value is reached exactly when
:math:`W_{\text{enc}}W_{\text{dec}}=U_kU_k^\top`, the orthogonal projection
onto the first :math:`k` principal axes; Baldi & Hornik show that when the
covariance is invertible with distinct eigenvalues every other critical
point is a saddle. The minimiser is not PCA itself: the codes are the PCA
scores only up to an invertible :math:`k\times k` map and a shift (the same
subspace, not the same axes), since :math:`W_{\text{enc}}R` and
:math:`R^{-1}W_{\text{dec}}` reconstruct equally well. A nonlinear
activation can do better than any :math:`k`-dimensional subspace when the
data lie near a curved :math:`k`-dimensional manifold (Hinton &
Salakhutdinov 2006).
"""

import warnings

import numpy as np
from scipy.optimize import minimize
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
)
from sklearn.utils import check_array
from sklearn.utils.validation import check_is_fitted, validate_data

from ..exceptions import ConvergenceWarning
from ..validation import check_int, check_random_state, check_scalar
from .backprop import (
    ACTIVATIONS,
    flat_objective,
    forward,
    glorot_uniform,
    pack,
    unpack,
)


class Autoencoder(
    ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator
):
    r"""Undercomplete autoencoder trained by L-BFGS on the squared error.

    Parameters
    ----------
    n_components : int, default=2
        Width :math:`k` of the code layer.
    hidden_layer_sizes : tuple of int, default=()
        Widths of the encoder's hidden layers; the decoder uses them in
        reverse. ``()`` gives :math:`d\to k\to d`.
    activation : {"identity", "tanh", "logistic", "relu"}, default="identity"
        Applied to every hidden layer, the code layer included.
    alpha : float, default=0.0
        L2 penalty on the weights (0 for the PCA equivalence).
    max_iter : int, default=1000
        L-BFGS iterations.
    tol : float, default=1e-8
        L-BFGS-B stops when every gradient entry is at most ``tol``, or when
        one iteration lowers the objective by at most a rounding error of it
        (scipy's ``ftol``, set here to the machine epsilon), whichever comes
        first; a linear autoencoder usually stops on the second, once the
        objective no longer changes in floating point. scipy's default
        ``ftol`` (about 2e-9) would stop it much earlier: the objective is
        flat along the code's symmetries and weakly curved next to them, so
        it barely decreases while the weights are still off the principal
        subspace. A nonlinear autoencoder needs a looser ``tol`` (the
        neural-networks chapter uses 2e-3 on a curve).
    random_state : None, int, numpy.random.Generator or RandomState
        The Glorot-uniform initial weights.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
        The training mean, subtracted before the encoder and added after
        the decoder.
    coefs_ : list of ndarray
        ``coefs_[l]`` of shape (n_l, n_{l+1}), encoder layers first.
    intercepts_ : list of ndarray
    n_layers_ : int
        Number of weight layers; the first ``n_layers_ // 2`` encode.
    loss_ : float
        :math:`J` at the returned weights; with ``alpha=0`` the mean squared
        reconstruction error per sample is ``2 * loss_``.
    n_iter_ : int
    n_features_in_ : int

    No scikit-learn equivalent (an ``MLPRegressor`` fitted with ``y = X``
    learns the same map but does not expose the code).
    """

    def __init__(
        self,
        n_components=2,
        hidden_layer_sizes=(),
        activation="identity",
        alpha=0.0,
        max_iter=1000,
        tol=1e-8,
        random_state=None,
    ):
        self.n_components = n_components
        self.hidden_layer_sizes = hidden_layer_sizes
        self.activation = activation
        self.alpha = alpha
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state

    def fit(self, X, y=None):
        """Fit to ``X`` of shape (n_samples, n_features); ``y`` is ignored.
        Returns self."""
        X = validate_data(self, X, dtype=np.float64)
        k, hidden, alpha, tol, max_iter = self._checked_parameters()
        # centre first: the mean is the best constant reconstruction, and
        # training on centred data is far better conditioned
        self.mean_ = X.mean(axis=0)
        X_centred = X - self.mean_
        d = X.shape[1]
        sizes = [d, *hidden, k, *hidden[::-1], d]
        rng = check_random_state(self.random_state)
        theta0 = pack(*glorot_uniform(sizes, self.activation, rng))
        # the MLP objective with the data as targets, Y = X. ftol = eps:
        # the decrease test fires only once J stops changing in floating
        # point (the default stops early: J is nearly flat near its minima)
        result = minimize(
            flat_objective,
            theta0,
            args=(
                X_centred,
                X_centred,
                sizes,
                self.activation,
                "squared_error",
                alpha,
            ),
            jac=True,
            method="L-BFGS-B",
            options={
                "maxiter": max_iter,
                "gtol": tol,
                "ftol": np.finfo(float).eps,
            },
        )
        if not result.success:
            warnings.warn(
                f"L-BFGS-B stopped before convergence: {result.message}. "
                "Increase max_iter.",
                ConvergenceWarning,
                stacklevel=2,
            )
        coefs, intercepts = unpack(result.x.copy(), sizes)
        self.coefs_, self.intercepts_ = list(coefs), list(intercepts)
        self.n_layers_ = len(self.coefs_)
        self.loss_, self.n_iter_ = float(result.fun), int(result.nit)
        return self

    def _checked_parameters(self):
        """The validated (n_components, hidden sizes, alpha, tol,
        max_iter)."""
        k = check_int(self.n_components, "n_components", low=1)
        hidden = [
            check_int(h, "each hidden layer size", low=1)
            for h in self.hidden_layer_sizes
        ]
        if self.activation not in ACTIVATIONS:
            raise ValueError(
                f"activation must be one of {sorted(ACTIVATIONS)}; got "
                f"{self.activation!r}."
            )
        alpha = check_scalar(self.alpha, "alpha", low=0)
        tol = check_scalar(self.tol, "tol", low=0, low_inclusive=False)
        max_iter = check_int(self.max_iter, "max_iter", low=1)
        return k, hidden, alpha, tol, max_iter

    @property
    def _n_features_out(self):
        # the code width, for get_feature_names_out (scikit-learn's mixin)
        return self.n_components

    def transform(self, X):
        """The codes :math:`f(x)`, shape (n_samples, n_components)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        half = self.n_layers_ // 2
        scores = forward(
            X - self.mean_,
            self.coefs_[:half],
            self.intercepts_[:half],
            self.activation,
        )[0][-1]
        return ACTIVATIONS[self.activation][0](scores)

    def inverse_transform(self, X):
        """The reconstructions :math:`g(z)` of codes ``X`` of shape
        (n_samples, n_components), shape (n_samples, n_features)."""
        check_is_fitted(self)
        half = self.n_layers_ // 2
        codes = check_array(X, dtype=np.float64, input_name="codes")
        if codes.shape[1] != self.coefs_[half].shape[0]:
            raise ValueError(
                "inverse_transform takes codes of shape (n_samples, "
                f"{self.coefs_[half].shape[0]}); got {codes.shape}."
            )
        outputs = forward(
            codes, self.coefs_[half:], self.intercepts_[half:], self.activation
        )[0][-1]
        return outputs + self.mean_
