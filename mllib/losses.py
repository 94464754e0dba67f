r"""Loss functions of the residual (regression) or of the margin (binary classification).

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

from .validation import check_array, check_scalar


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
        return self.value(check_array(z, name=self.argument, ensure_2d=False))

    def derivative(self, z):
        """:math:`\\ell'(z)`; at a kink, the subgradient documented for the loss."""
        return self.subgradient(check_array(z, name=self.argument, ensure_2d=False))


# --- regression losses, functions of r = y - ŷ ---

squared = Loss("squared", "residual", lambda r: r**2, lambda r: 2 * r)
"""Squared (:math:`\\ell_2`) loss :math:`r^2`; its Bayes predictor is the conditional mean."""

absolute = Loss("absolute", "residual", np.abs, lambda r: np.sign(r))
"""Absolute (:math:`\\ell_1`, Laplace) loss :math:`|r|`; subgradient 0 at the kink
:math:`r=0` (where :math:`\\partial|r| = [-1, 1]`). Its Bayes predictor is the conditional median."""


def huber(delta=1.0):
    r"""Huber loss: :math:`\tfrac12 r^2` for :math:`|r|\le\delta`, :math:`\delta(|r|-\tfrac\delta2)` beyond.

    Quadratic near zero and linear in the tails, so it is differentiable everywhere (value
    :math:`\delta^2/2` and slope :math:`\delta` match at :math:`|r|=\delta`) and large residuals
    (outliers) pull on the fit with a bounded force :math:`\delta`. Derivative
    :math:`\operatorname{clip}(r, -\delta, \delta)`.
    """
    delta = check_scalar(delta, "delta", low=0.0, low_inclusive=False)
    return Loss(
        f"huber(delta={delta:g})",
        "residual",
        lambda r: np.where(np.abs(r) <= delta, 0.5 * r**2, delta * (np.abs(r) - 0.5 * delta)),
        lambda r: np.clip(r, -delta, delta),
    )


# --- classification losses, functions of m = y f(x) ---

zero_one = Loss("0-1", "margin", lambda m: (m <= 0).astype(float), np.zeros_like)
"""0-1 loss :math:`\\mathbb 1[m\\le 0]` (a tie :math:`f(x)=0` counts as an error). Its derivative is
0 wherever it exists, so gradients carry no information: the reason for convex surrogates."""

hinge = Loss("hinge", "margin", lambda m: np.maximum(0.0, 1 - m), lambda m: np.where(m < 1, -1.0, 0.0))
"""Hinge (SVM) loss :math:`\\max(0, 1-m)`; subgradient 0 at the kink :math:`m=1`
(where :math:`\\partial\\ell = [-1, 0]`)."""

logistic = Loss("logistic", "margin", lambda m: np.logaddexp(0.0, -m), lambda m: -expit(-m))
"""Logistic loss :math:`\\log(1+e^{-m})`, computed as ``logaddexp(0, -m)`` (no overflow for
:math:`m\\ll 0`); derivative :math:`-\\sigma(-m)`."""

exponential = Loss("exponential", "margin", lambda m: np.exp(-m), lambda m: -np.exp(-m))
"""Exponential loss :math:`e^{-m}` (AdaBoost's); derivative :math:`-e^{-m}`."""
