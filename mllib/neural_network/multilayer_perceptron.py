r"""Multilayer perceptrons for classification and regression, with
scikit-learn's objective.

For parameters :math:`\theta=(W_1,b_1,\dots,W_L,b_L)` both estimators minimise

.. math::

    J(\theta) = \frac1n\sum_{i=1}^n \ell\bigl(y_i, f_\theta(x_i)\bigr)
              + \frac{\alpha}{2n}\sum_{l=1}^L\lVert W_l\rVert_F^2,

with :math:`\ell(y,\hat y)=\frac12(y-\hat y)^2` and an identity output
(regression), or the cross-entropy with a logistic (two classes) or softmax
(:math:`K>2`) output (classification); intercepts are not penalised. This is
the objective of ``sklearn.neural_network.MLPRegressor`` / ``MLPClassifier``
with the same ``alpha``. The passes are in
:mod:`mllib.neural_network.backprop`.
"""

import numbers
import warnings

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, softmax
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..exceptions import ConvergenceWarning
from ..optim import minibatch_sgd
from ..validation import (
    check_int,
    check_random_state,
    check_scalar,
    encode_classes,
)
from .backprop import (
    ACTIVATIONS,
    flat_objective,
    forward,
    glorot_uniform,
    pack,
    unpack,
)


class _BaseMLP(BaseEstimator):
    def __init__(
        self,
        hidden_layer_sizes=(100,),
        activation="relu",
        solver="lbfgs",
        alpha=1e-4,
        batch_size="auto",
        learning_rate_init=1e-3,
        max_iter=200,
        tol=1e-4,
        n_iter_no_change=10,
        random_state=None,
        warm_start=False,
    ):
        self.hidden_layer_sizes = hidden_layer_sizes
        self.activation = activation
        self.solver = solver
        self.alpha = alpha
        self.batch_size = batch_size
        self.learning_rate_init = learning_rate_init
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.random_state = random_state
        self.warm_start = warm_start

    def _check_params(self):
        hidden = self.hidden_layer_sizes
        hidden = (
            (hidden,)
            if isinstance(hidden, numbers.Integral)
            else tuple(hidden)
        )
        if any(
            isinstance(h, bool) or not isinstance(h, numbers.Integral) or h < 1
            for h in hidden
        ):
            raise ValueError(
                "hidden_layer_sizes must be positive integers; got "
                f"{self.hidden_layer_sizes!r}."
            )
        if self.activation not in ACTIVATIONS:
            raise ValueError(
                f"activation must be one of {sorted(ACTIVATIONS)}; got "
                f"{self.activation!r}."
            )
        if self.solver not in ("lbfgs", "sgd"):
            raise ValueError(
                f'solver must be "lbfgs" or "sgd"; got {self.solver!r}.'
            )
        if self.batch_size != "auto":
            check_int(self.batch_size, "batch_size", low=1)
        check_scalar(self.alpha, "alpha", low=0)
        check_scalar(
            self.learning_rate_init,
            "learning_rate_init",
            low=0,
            low_inclusive=False,
        )
        check_scalar(self.tol, "tol", low=0, low_inclusive=False)
        check_int(self.max_iter, "max_iter", low=1)
        check_int(self.n_iter_no_change, "n_iter_no_change", low=1)
        return [int(h) for h in hidden]

    def _fit(self, X, Y, loss):
        layer_sizes = [X.shape[1], *self._check_params(), Y.shape[1]]
        if self.warm_start and hasattr(self, "coefs_"):
            if [W.shape for W in self.coefs_] != list(
                zip(layer_sizes[:-1], layer_sizes[1:])
            ):
                raise ValueError(
                    "warm_start=True, but coefs_ do not match the layer "
                    "sizes of this fit."
                )
            # a new vector: coefs_ are not modified
            theta0 = pack(self.coefs_, self.intercepts_)
        else:
            theta0 = pack(
                *glorot_uniform(
                    layer_sizes,
                    self.activation,
                    check_random_state(self.random_state),
                )
            )
        args = (layer_sizes, self.activation, loss)
        n = len(X)
        if self.solver == "lbfgs":
            result = minimize(
                flat_objective,
                theta0,
                args=(X, Y, *args, self.alpha),
                jac=True,
                method="L-BFGS-B",
                options={"maxiter": self.max_iter, "gtol": self.tol},
            )
            if not result.success:
                warnings.warn(
                    "L-BFGS-B stopped before convergence: "
                    f"{result.message}. Increase "
                    "max_iter.",
                    ConvergenceWarning,
                    stacklevel=3,
                )
            theta, self.loss_, self.n_iter_ = (
                result.x,
                float(result.fun),
                int(result.nit),
            )
        else:
            batch = (
                min(200, n)
                if self.batch_size == "auto"
                else min(self.batch_size, n)
            )
            # a minibatch B gets penalty α|B|/n, so its gradient is an unbiased
            # estimate of ∇J
            result = minibatch_sgd(
                lambda t: flat_objective(t, X, Y, *args, self.alpha)[0],
                lambda t, B: flat_objective(
                    t, X[B], Y[B], *args, self.alpha * len(B) / n
                )[1],
                theta0,
                n,
                step_size=self.learning_rate_init,
                batch_size=batch,
                max_iter=self.max_iter,
                tol=self.tol,
                n_iter_no_change=self.n_iter_no_change,
                random_state=check_random_state(self.random_state),
            )
            theta, self.loss_, self.n_iter_ = (
                result.x,
                result.fun,
                result.n_iter,
            )
            self.loss_curve_ = list(result.history["fun"][1:])
        self.coefs_, self.intercepts_ = (
            list(p) for p in unpack(theta.copy(), layer_sizes)
        )
        self.n_layers_, self.n_outputs_ = len(layer_sizes), layer_sizes[-1]
        return self

    def _scores(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return forward(X, self.coefs_, self.intercepts_, self.activation)[0][
            -1
        ]


class MLPClassifier(ClassifierMixin, _BaseMLP):
    r"""Multilayer perceptron classifier: cross-entropy with a logistic or
    softmax output.

    Parameters
    ----------
    hidden_layer_sizes : tuple of int, default (100,)
        Widths :math:`n_1,\dots,n_{L-1}` of the hidden layers; ``()`` gives
        logistic regression.
    activation : {"relu", "tanh", "logistic", "identity"}
        The hidden activation :math:`g`.
    solver : {"lbfgs", "sgd"}
        scipy's L-BFGS-B on the full objective (as scikit-learn's ``"lbfgs"``),
        or :func:`mllib.optim.minibatch_sgd` with the constant step
        ``learning_rate_init``. Unlike scikit-learn's ``"sgd"`` (with
        ``momentum=0``), a minibatch :math:`B` carries the penalty
        :math:`\frac{\alpha}{2n}\sum_l\lVert W_l\rVert_F^2` rather than
        :math:`\frac{\alpha}{2|B|}\sum_l\lVert W_l\rVert_F^2`, so that its
        gradient is an unbiased estimate of :math:`\nabla J`. scikit-learn's
        default ``"adam"`` is not implemented.
    alpha : float
        L2 penalty :math:`\alpha`; the objective adds
        :math:`\frac{\alpha}{2n}\sum_l\lVert W_l\rVert_F^2`.
    batch_size : int or "auto"
        Minibatch size for ``"sgd"``; ``"auto"`` is ``min(200, n)``.
    learning_rate_init : float
    max_iter : int
        Iterations of L-BFGS, or epochs of SGD.
    tol : float
        L-BFGS: projected-gradient tolerance. SGD: stop when the objective has
        not fallen by ``tol`` for ``n_iter_no_change`` epochs.
    n_iter_no_change : int
    random_state : None, int or numpy.random.Generator
        Initial weights (Glorot-uniform) and SGD shuffles.
    warm_start : bool
        Start from the current ``coefs_`` and ``intercepts_`` (e.g. set by
        hand) instead of a random initialisation.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    coefs_ : list of ndarray, ``coefs_[l-1]`` of shape (n_{l-1}, n_l)
    intercepts_ : list of ndarray, ``intercepts_[l-1]`` of shape (n_l,)
    loss_ : float
        The objective :math:`J` at the returned parameters (penalty included,
        as scikit-learn).
    loss_curve_ : list of float
        ``"sgd"`` only: :math:`J` on the whole training set after each epoch
        (scikit-learn records the running mean of the minibatch losses
        instead).
    n_iter_ : int
    out_activation_ : {"logistic", "softmax"}

    References
    ----------
    Goodfellow, Bengio & Courville, *Deep Learning* (2016), ch. 6. Equivalent
    to ``sklearn.neural_network.MLPClassifier`` with the same parameters
    (``solver="lbfgs"``).
    """

    def fit(self, X, y):
        """Fit to ``X`` of shape (n_samples, n_features) and labels ``y``;
        return self."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_index = encode_classes(y, estimator=self)
        binary = len(self.classes_) == 2
        Y = (
            y_index[:, None].astype(float)
            if binary
            else np.eye(len(self.classes_))[y_index]
        )
        self.out_activation_ = "logistic" if binary else "softmax"
        return self._fit(X, Y, "binary_log_loss" if binary else "log_loss")

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, K), columns in the order of
        ``classes_``."""
        scores = self._scores(X)
        if len(self.classes_) == 2:
            return np.column_stack([expit(-scores[:, 0]), expit(scores[:, 0])])
        return softmax(scores, axis=1)

    def predict(self, X):
        """The most probable class for each row of ``X``, shape
        (n_samples,)."""
        # first, so that an unfitted model raises NotFittedError
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class MLPRegressor(RegressorMixin, _BaseMLP):
    r"""Multilayer perceptron regressor: identity output, loss
    :math:`\frac1{2n}\sum_i(y_i-f(x_i))^2`.

    Parameters and attributes as :class:`MLPClassifier`, plus ``loss`` (no
    ``classes_``; ``out_activation_`` is ``"identity"``); ``y`` has shape
    (n_samples,).
    Equivalent to ``sklearn.neural_network.MLPRegressor`` with the same
    parameters (``solver="lbfgs"``).

    Parameters
    ----------
    loss : {"squared_error"}, default "squared_error"
        The squared loss above, scikit-learn's default. Its ``"poisson"``
        loss is not implemented (``ValueError``). ``loss``,
        ``hidden_layer_sizes`` and ``activation`` are positional in this
        order, the rest keyword-only, as in scikit-learn.
    """

    def __init__(
        self,
        loss="squared_error",
        hidden_layer_sizes=(100,),
        activation="relu",
        *,
        solver="lbfgs",
        alpha=1e-4,
        batch_size="auto",
        learning_rate_init=1e-3,
        max_iter=200,
        tol=1e-4,
        n_iter_no_change=10,
        random_state=None,
        warm_start=False,
    ):
        super().__init__(
            hidden_layer_sizes=hidden_layer_sizes,
            activation=activation,
            solver=solver,
            alpha=alpha,
            batch_size=batch_size,
            learning_rate_init=learning_rate_init,
            max_iter=max_iter,
            tol=tol,
            n_iter_no_change=n_iter_no_change,
            random_state=random_state,
            warm_start=warm_start,
        )
        self.loss = loss

    def fit(self, X, y):
        """Fit to ``X`` of shape (n_samples, n_features) and targets ``y`` of
        shape (n_samples,); return self."""
        if self.loss != "squared_error":
            raise ValueError(
                'loss must be "squared_error" (scikit-learn\'s "poisson" is '
                "not implemented here: use "
                "sklearn.neural_network.MLPRegressor); got "
                f"{self.loss!r}."
            )
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        self.out_activation_ = "identity"
        return self._fit(X, y[:, None], "squared_error")

    def predict(self, X):
        """Predictions, shape (n_samples,)."""
        return self._scores(X)[:, 0]
