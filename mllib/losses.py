r"""Loss functions of the residual (regression) or of the margin (binary classification), and
the multiclass hinge loss of a matrix of class scores (:func:`multiclass_hinge`).

Regression losses are functions of the residual :math:`r = y - \hat y`; classification losses,
with labels :math:`y\in\{-1,+1\}` and a real score :math:`f(x)`, are functions of the margin
:math:`m = y\,f(x)`. Each loss is a :class:`Loss`: call it for the value, and use
``.derivative`` for the derivative, or a subgradient at a kink:

>>> from mllib.losses import hinge
>>> hinge([-1.0, 1.0, 2.0]), hinge.derivative([-1.0, 1.0, 2.0])
(array([2., 0., 0.]), array([-1., 0., 0.]))

By the chain rule, the derivative with respect to the prediction is
:math:`\partial\ell/\partial\hat y = -\ell'(r)` for a residual loss and
:math:`\partial\ell/\partial f = y\,\ell'(m)` for a margin loss.

The hinge and exponential losses, and the logistic loss in base 2 (``logistic / log 2``), are
upper bounds of the 0-1 loss; the natural-log logistic loss is not (it is :math:`\log 2<1` at
:math:`m=0`). Scikit-learn's ``SGDRegressor`` uses :math:`\tfrac12 r^2` as its squared loss, half
of :data:`squared`; the factor does not change minimisers.
"""

from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy.special import expit
from sklearn.utils import check_array

from .validation import check_scalar


@dataclass(frozen=True)
class Loss:
    """A loss :math:`\\ell(z)` of the residual or margin ``z``, with its (sub)derivative.

    Attributes
    ----------
    name : str
    argument : {"residual", "margin"}
    value, subgradient : callable
        Vectorised functions of a float array; use ``loss(z)`` and ``loss.derivative(z)``.
    """

    name: str
    argument: str
    value: Callable
    subgradient: Callable

    def __call__(self, z):
        return self.value(self._floats(z))

    def derivative(self, z):
        """:math:`\\ell'(z)`; at a kink, the subgradient documented for the loss."""
        return self.subgradient(self._floats(z))

    def _floats(self, z):
        """``z`` (a number or an array of any shape) as finite floats."""
        return check_array(
            z,
            ensure_2d=False,
            allow_nd=True,
            ensure_min_samples=0,
            dtype=np.float64,
            input_name=self.argument,
        )


# --- regression losses, functions of r = y - ŷ ---

squared = Loss("squared", "residual", lambda r: r**2, lambda r: 2 * r)
"""Squared (:math:`\\ell_2`) loss :math:`r^2`; its Bayes predictor is the conditional mean."""

absolute = Loss("absolute", "residual", np.abs, lambda r: np.sign(r))
"""Absolute (:math:`\\ell_1`, Laplace) loss :math:`|r|`; subgradient 0 at the kink
:math:`r=0` (where :math:`\\partial|r| = [-1, 1]`). Its Bayes predictor is the conditional median."""


def huber(delta=1.0):
    r"""Huber loss: :math:`\tfrac12 r^2` for :math:`|r|\le\delta`, and
    :math:`\delta(|r|-\tfrac\delta2)` beyond.

    Quadratic near zero and linear in the tails, so it is differentiable
    everywhere (value :math:`\delta^2/2` and slope :math:`\delta` match at
    :math:`|r|=\delta`) and large residuals (outliers) pull on the fit with a
    bounded force :math:`\delta`. Derivative
    :math:`\operatorname{clip}(r, -\delta, \delta)`.
    """
    delta = check_scalar(delta, "delta", low=0.0, low_inclusive=False)
    return Loss(
        f"huber(delta={delta:g})",
        "residual",
        lambda r: np.where(
            np.abs(r) <= delta, 0.5 * r**2, delta * (np.abs(r) - 0.5 * delta)
        ),
        lambda r: np.clip(r, -delta, delta),
    )


# --- classification losses, functions of m = y f(x) ---

zero_one = Loss(
    "0-1", "margin", lambda m: (m <= 0).astype(float), np.zeros_like
)
"""0-1 loss :math:`\\mathbb 1[m\\le 0]` (a tie :math:`f(x)=0` counts as an error). Its derivative is
0 wherever it exists, so gradients carry no information: the reason for convex surrogates."""

hinge = Loss(
    "hinge",
    "margin",
    lambda m: np.maximum(0.0, 1 - m),
    lambda m: np.where(m < 1, -1.0, 0.0),
)
"""Hinge (SVM) loss :math:`\\max(0, 1-m)`; subgradient 0 at the kink :math:`m=1`
(where :math:`\\partial\\ell = [-1, 0]`)."""

logistic = Loss(
    "logistic", "margin", lambda m: np.logaddexp(0.0, -m), lambda m: -expit(-m)
)
"""Logistic loss :math:`\\log(1+e^{-m})`, computed as ``logaddexp(0, -m)`` (no overflow for
:math:`m\\ll 0`); derivative :math:`-\\sigma(-m)`."""

exponential = Loss(
    "exponential", "margin", lambda m: np.exp(-m), lambda m: -np.exp(-m)
)
"""Exponential loss :math:`e^{-m}` (AdaBoost's); derivative :math:`-e^{-m}`."""


# --- multiclass losses, functions of a score matrix and the true classes ---


def multiclass_hinge(scores, y, cost=None, *, return_argmax=False):
    r"""Multiclass (Crammer–Singer, structured) hinge loss, one value per
    sample.

    .. math:: \ell(s, y) = \max_{y'}\bigl[\Delta(y, y') + s_{y'} - s_y\bigr],
              \qquad \Delta(y, y) = 0,

    with scores :math:`s_{y'}=w_{y'}^\top x` and the cost :math:`\Delta`
    inside the max. The term :math:`y'=y` is :math:`0`, so
    :math:`\ell\ge0`, and :math:`\ell=0` exactly when every wrong class
    scores at least :math:`\Delta(y,y')` below the true one. Because
    :math:`s_{\hat y}\ge s_y` for the prediction :math:`\hat y=\arg\max s`,
    :math:`\ell\ge\Delta(y,\hat y)`: the loss bounds the cost of the
    prediction.

    Parameters
    ----------
    scores : array-like of shape (n_samples, K)
    y : array-like of shape (n_samples,), integer classes in 0..K-1
    cost : array-like of shape (K, K), optional
        :math:`\Delta(y, y')` in row :math:`y`, column :math:`y'`, with a
        zero diagonal; default the 0-1 cost :math:`\mathbb 1[y\ne y']`.
    return_argmax : bool
        Also return the maximising :math:`\tilde y` (loss-augmented
        prediction); a subgradient of the loss with respect to the scores
        is :math:`e_{\tilde y}-e_y`.

    Returns
    -------
    loss : ndarray of shape (n_samples,)
    argmax : ndarray of shape (n_samples,), only if ``return_argmax``

    Crammer & Singer (2001); ``sklearn.svm.LinearSVC(multi_class=
    "crammer_singer")`` minimises :math:`\frac12\lVert W\rVert_F^2 +
    C\sum_i\ell(Wx_i, y_i)` with the 0-1 cost.
    """
    scores, y, cost = _check_multiclass_hinge_input(scores, y, cost)
    n = len(y)
    # Delta(y, y') + s_y' - s_y for every sample and every class y'
    augmented = cost[y] + scores - scores[np.arange(n), y][:, None]
    argmax = np.argmax(augmented, axis=1)
    loss = augmented[np.arange(n), argmax]
    return (loss, argmax) if return_argmax else loss


def _check_multiclass_hinge_input(scores, y, cost):
    scores = check_array(scores, dtype=np.float64, input_name="scores")
    n, K = scores.shape
    y = np.asarray(y)
    if (
        y.shape != (n,)
        or y.dtype.kind not in "iu"
        or y.min() < 0
        or y.max() >= K
    ):
        raise ValueError(
            f"y must hold one integer class in 0..{K - 1} per row of "
            f"scores; got {y!r}."
        )
    cost = (
        1.0 - np.eye(K)
        if cost is None
        else check_array(cost, dtype=np.float64, input_name="cost")
    )
    if cost.shape != (K, K) or np.any(np.diag(cost) != 0):
        raise ValueError(
            f"cost must be a ({K}, {K}) matrix with a zero diagonal (no cost "
            "for the true class, else the loss never reaches 0); got shape "
            f"{cost.shape}."
        )
    return scores, y, cost
