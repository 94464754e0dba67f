"""A linear regressor trained by minibatch stochastic gradient descent."""

import numpy as np
from sklearn.utils.validation import validate_data

from ..optim import InverseScaling, as_schedule, minibatch_sgd
from ..validation import (
    check_int,
    check_random_state,
    check_sample_weight,
    check_scalar,
)
from ._base import LinearModel


class SGDRegressor(LinearModel):
    r"""Linear least squares (optionally ridge-penalised) fitted by minibatch
    SGD.

    Minimises scikit-learn's ``SGDRegressor`` objective with the squared loss

    .. math::

        \frac1n\sum_{i=1}^n \tfrac{s_i}2\bigl(y_i - w^\top x_i - b\bigr)^2
            + \frac{\alpha}{2}\lVert w\rVert_2^2,

    with sample weights :math:`s_i\ge0` (``sample_weight``, default 1),
    whose minimiser is the (weighted) ridge solution with penalty
    :math:`n\alpha` (``Ridge(alpha=n*alpha)`` on the notation page's scaling).
    The average is over the :math:`n` rows, as in scikit-learn, not over
    :math:`\sum_i s_i`: an integer weight is *not* the same as repeating the
    row, which would change :math:`n` and so the balance with the penalty.
    The intercept is not penalised: the data are centred by the
    :math:`s`-weighted means, SGD runs on :math:`\tilde X = X - \bar
    x^\top`, :math:`\tilde y = y - \bar y`, and :math:`b = \bar y - \bar
    x^\top w` afterwards, which gives the same minimiser.

    Each minibatch :math:`B` takes the step :math:`w \leftarrow w -
    \eta_t\bigl(\tfrac1{|B|}\tilde X_B^\top S_B(\tilde X_B w - \tilde y_B)
    + \alpha w\bigr)`, :math:`S_B` the diagonal matrix of the weights; see
    :func:`mllib.optim.minibatch_sgd` for the epochs and the
    stopping rule. Standardise the features first: the usable step sizes depend
    on their scale.

    Parameters
    ----------
    penalty : {"l2", None}
    alpha : float, >= 0
        Strength of the :math:`\ell_2` penalty (ignored when ``penalty=None``).
    fit_intercept : bool
    max_iter : int
        Maximum number of epochs (passes over the data).
    tol : float or None
        Stop once the objective has not improved by ``tol`` for
        ``n_iter_no_change`` epochs; ``None`` runs ``max_iter`` epochs.
    learning_rate : {"invscaling", "constant"} or callable
        ``"invscaling"``: :math:`\eta_t = \eta_0 / t^{\text{power\_t}}`;
        ``"constant"``: :math:`\eta_0`; or any schedule ``t -> eta_t`` from
        :mod:`mllib.optim`.
    eta0 : float
    power_t : float
    batch_size : int
        Minibatch size (scikit-learn's SGD always uses 1).
    n_iter_no_change : int
    random_state : None, int, numpy.random.Generator or RandomState

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : ndarray of shape (1,)
    n_iter_ : int
        Number of epochs run (1 after :meth:`partial_fit`).
    t_ : int
        One more than the number of SGD steps taken since the last ``fit``
        (scikit-learn's counter); the schedule's next step is
        :math:`\eta_{t\_}`.
    loss_curve_ : ndarray of shape (n_iter_ + 1,)
        The objective (on the centred data) after each epoch, starting from
        :math:`w = 0`.
    n_features_in_ : int

    Notes
    -----
    Scikit-learn's ``SGDRegressor`` has the same objective, but it updates the
    intercept by SGD too, draws with its own generator, measures ``tol`` on the
    running training loss, and offers averaging; the two agree at convergence,
    not step by step. Reference: Bottou, "Stochastic gradient descent tricks"
    (2012).
    """

    def __init__(
        self,
        *,
        penalty="l2",
        alpha=0.0001,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        learning_rate="invscaling",
        eta0=0.01,
        power_t=0.25,
        batch_size=1,
        n_iter_no_change=5,
        random_state=None,
    ):
        self.penalty = penalty
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.learning_rate = learning_rate
        self.eta0 = eta0
        self.power_t = power_t
        self.batch_size = batch_size
        self.n_iter_no_change = n_iter_no_change
        self.random_state = random_state

    def fit(self, X, y, *, sample_weight=None):
        """Fit to ``X`` of shape (n_samples, n_features) and ``y``
        (n_samples,), sample i's loss weighted by ``sample_weight[i]``
        (keyword-only: scikit-learn's third argument is ``coef_init``)."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        s = check_sample_weight(sample_weight, len(y))
        alpha, schedule = self._check_params()
        # centred data: the intercept is unpenalised, b = ȳ − x̄ᵀw at the
        # end, with the means weighted by s (the minimiser over b)
        if self.fit_intercept:
            x_mean, y_mean = s @ X / s.sum(), s @ y / s.sum()
        else:
            x_mean, y_mean = np.zeros(X.shape[1]), 0.0
        Xc, yc = X - x_mean, y - y_mean

        def objective(w):  # (1/n) Σᵢ sᵢ ½(yᵢ − wᵀxᵢ)² + (α/2)‖w‖²
            return 0.5 * np.mean(s * (yc - Xc @ w) ** 2) + 0.5 * alpha * (
                w @ w
            )

        def minibatch_gradient(w, batch):  # (1/|B|) X_Bᵀ S_B(X_B w − y_B) + αw
            Xb = Xc[batch]
            weighted_residual = s[batch] * (Xb @ w - yc[batch])
            return Xb.T @ weighted_residual / len(batch) + alpha * w

        result = minibatch_sgd(
            objective,
            minibatch_gradient,
            np.zeros(X.shape[1]),
            len(y),
            step_size=schedule,
            batch_size=min(self.batch_size, len(y)),
            max_iter=self.max_iter,
            tol=self.tol,
            n_iter_no_change=self.n_iter_no_change,
            random_state=check_random_state(self.random_state),
        )
        self.coef_ = result.x
        self._set_intercept(x_mean, y_mean)
        # scikit-learn's SGD keeps the intercept as an array of shape (1,)
        self.intercept_ = np.atleast_1d(self.intercept_)
        self.n_iter_ = result.n_iter
        self.loss_curve_ = result.history["fun"]
        self.t_ = 1 + len(result.history["step_size"])
        vars(self).pop("_rng", None)  # partial_fit after fit starts afresh
        return self

    def partial_fit(self, X, y, sample_weight=None):
        r"""One epoch of minibatch SGD over the batch ``X`` (n_samples,
        n_features), ``y`` (n_samples,), continuing from the current
        :math:`(w, b)` (from 0 on the first call, or from ``fit``).

        The step-size schedule continues too: the steps of this call are
        :math:`\eta_{t}, \eta_{t+1}, \dots` with :math:`t` = ``t_``, one
        more than the number of steps taken so far, as in scikit-learn.
        There is no global mean to centre by, so the intercept is a
        parameter of the SGD, unpenalised, as in scikit-learn: each minibatch
        :math:`B` with residuals :math:`r = X_B w + b - y_B` steps

        .. math::

            w \leftarrow w - \eta_t\bigl(\tfrac1{|B|}X_B^\top r
                + \alpha w\bigr), \qquad
            b \leftarrow b - \eta_t\,\tfrac1{|B|}\textstyle\sum_{i\in B}
                r_i,

        the gradient of the objective of :meth:`fit` on the minibatch, so
        repeated calls over the data converge to the same minimiser. No
        ``tol`` test: one call is one epoch. ``loss_curve_`` holds the
        batch's objective before and after it, ``n_iter_`` is 1.
        """
        first_call = not hasattr(self, "coef_")
        X, y = validate_data(
            self, X, y, dtype=np.float64, y_numeric=True, reset=first_call
        )
        s = check_sample_weight(sample_weight, len(y))
        alpha, schedule = self._check_params()
        schedule = as_schedule(schedule)
        if first_call:
            self.coef_, self.intercept_, self.t_ = np.zeros(X.shape[1]), 0.0, 1
        if not hasattr(self, "_rng"):
            self._rng = check_random_state(self.random_state)
        n_features = X.shape[1]

        def objective(theta):  # (1/n) Σᵢ sᵢ ½(yᵢ − wᵀxᵢ − b)² + (α/2)‖w‖²
            w, b = theta[:n_features], theta[n_features]
            squared = s * (y - X @ w - b) ** 2
            return 0.5 * np.mean(squared) + 0.5 * alpha * (w @ w)

        def minibatch_gradient(theta, batch):
            w, b = theta[:n_features], theta[n_features]
            residual = s[batch] * (X[batch] @ w + b - y[batch])
            gradient_b = residual.mean() if self.fit_intercept else 0.0
            gradient_w = X[batch].T @ residual / len(batch) + alpha * w
            return np.append(gradient_w, gradient_b)

        steps_before = self.t_ - 1
        result = minibatch_sgd(
            objective,
            minibatch_gradient,
            np.append(self.coef_, self.intercept_),
            len(y),
            step_size=lambda t: schedule(steps_before + t),
            batch_size=min(self.batch_size, len(y)),
            max_iter=1,
            tol=None,
            random_state=self._rng,
        )
        self.coef_ = result.x[:n_features]
        self.intercept_ = np.atleast_1d(result.x[n_features])
        self.t_ += len(result.history["step_size"])
        self.n_iter_ = 1
        self.loss_curve_ = result.history["fun"]
        return self

    def _check_params(self):
        """The penalty strength α and the step-size schedule, validated."""
        if self.penalty not in ("l2", None):
            raise ValueError(
                f'penalty must be "l2" or None; got {self.penalty!r}.'
            )
        alpha = (
            check_scalar(self.alpha, "alpha", low=0.0)
            if self.penalty == "l2"
            else 0.0
        )
        if self.tol is not None:
            check_scalar(self.tol, "tol", low=0.0)
        check_int(self.batch_size, "batch_size", low=1)
        return alpha, self._schedule()

    def _schedule(self):
        if callable(self.learning_rate):
            return self.learning_rate
        eta0 = check_scalar(self.eta0, "eta0", low=0.0, low_inclusive=False)
        if self.learning_rate == "constant":
            return eta0
        if self.learning_rate == "invscaling":
            return InverseScaling(eta0, check_scalar(self.power_t, "power_t"))
        raise ValueError(
            'learning_rate must be "invscaling", "constant" or a schedule '
            f"t -> eta_t; got {self.learning_rate!r}."
        )
