r"""Linear-chain conditional random fields: inference by dynamic
programming, and training.

A label sequence :math:`y=(y_1,\dots,y_T)\in\{0,\dots,k-1\}^T` scores

.. math:: s(y) = \sum_{t=1}^T U_{t,y_t} + \sum_{t=2}^T P_{t,y_{t-1},y_t},
          \qquad p(y\mid x) = \exp\bigl(s(y) - \log Z\bigr),
          \quad Z = \sum_{y'} e^{s(y')},

with unary scores ``unary`` :math:`U` of shape (T, k) and pairwise
(transition) scores ``pairwise`` :math:`P` of shape (k, k), shared by all
positions, or (T-1, k, k). In the feature model of
:func:`negative_log_likelihood_and_gradient`, :math:`U_{tj} = w_j^\top x_t`,
with :math:`w_j` the rows of :math:`W\in\mathbb R^{k\times d}` (the code
stores :math:`W^\top`, so that ``x @ weights`` is :math:`U`), and :math:`P`
is a learned transition matrix, so :math:`s(y)=w^\top\psi(x,y)` with unary
and Markov features. Every sum over the :math:`k^T` sequences is
done in :math:`O(Tk^2)` operations, in log space (``logsumexp``) so that
long sequences neither overflow nor underflow.

References
----------
Lafferty, McCallum & Pereira (2001); Sutton & McCallum (2012), *An
introduction to conditional random fields*, §4.1 (forward–backward,
Viterbi) and §5.1 (training).
"""

import warnings

import numpy as np
from scipy.optimize import minimize
from sklearn.base import BaseEstimator
from sklearn.utils import check_array
from sklearn.utils.validation import check_is_fitted

from .exceptions import ConvergenceWarning
from .validation import check_int, check_scalar


def logsumexp(a, axis=None):
    r""":math:`\log\sum e^{a}` along ``axis`` with the max-shift trick,
    :math:`m+\log\sum e^{a-m}` for :math:`m=\max a`, so nothing overflows;
    the same as ``scipy.special.logsumexp``, without its per-call overhead
    (about 0.1 ms, which dominates the :math:`T` small recursion steps of a
    short sequence).

    A slice that is all :math:`-\infty` (e.g. a tag that no allowed
    transition reaches, scored :math:`-\infty`) has
    :math:`\log\sum e^{a}=-\infty`; the shift is then 0, as in scipy,
    since :math:`a-m=-\infty-(-\infty)` would be NaN."""
    m = np.max(a, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    # log 0 = -inf (all -inf); exp overflows only next to +inf
    with np.errstate(divide="ignore", over="ignore"):
        return np.squeeze(m, axis=axis) + np.log(
            np.sum(np.exp(a - m), axis=axis)
        )


def _check_scores(unary, pairwise):
    unary = check_array(unary, dtype=np.float64, input_name="unary")
    T, k = unary.shape
    pairwise = np.asarray(pairwise, dtype=float)
    if pairwise.shape not in ((k, k), (T - 1, k, k)):
        raise ValueError(
            f"pairwise must have shape ({k}, {k}) or ({T - 1}, {k}, {k}) "
            f"for unary of shape {unary.shape} (T positions, k labels); "
            f"got {pairwise.shape}."
        )
    return unary, np.broadcast_to(pairwise, (T - 1, k, k))


def sequence_score(unary, pairwise, y):
    r"""The score :math:`s(y)=\sum_tU_{t,y_t}+\sum_{t\ge2}P_{t,y_{t-1},y_t}`
    of one label sequence."""
    unary, pairwise = _check_scores(unary, pairwise)
    y = np.asarray(y)
    return (
        unary[np.arange(len(y)), y].sum()
        + pairwise[np.arange(len(y) - 1), y[:-1], y[1:]].sum()
    )


def forward(unary, pairwise):
    r"""Log forward messages :math:`\log\alpha_t(j)`, shape (T, k).

    :math:`\alpha_1(j)=e^{U_{1j}}` and
    :math:`\alpha_t(j)=e^{U_{tj}}\sum_i\alpha_{t-1}(i)e^{P_{t,ij}}`: the
    summed weight of all prefixes :math:`y_{1:t}` that end in
    :math:`y_t=j`.
    """
    unary, pairwise = _check_scores(unary, pairwise)
    log_alpha = np.empty_like(unary)
    log_alpha[0] = unary[0]
    for t in range(1, len(unary)):
        log_alpha[t] = unary[t] + logsumexp(
            log_alpha[t - 1][:, None] + pairwise[t - 1], axis=0
        )
    return log_alpha


def backward(unary, pairwise):
    r"""Log backward messages :math:`\log\beta_t(i)`, shape (T, k):
    :math:`\beta_T(i)=1` and
    :math:`\beta_t(i)=\sum_je^{P_{t+1,ij}+U_{t+1,j}}\beta_{t+1}(j)`, the
    weight of all suffixes."""
    unary, pairwise = _check_scores(unary, pairwise)
    log_beta = np.zeros_like(unary)
    for t in range(len(unary) - 2, -1, -1):
        log_beta[t] = logsumexp(
            pairwise[t] + unary[t + 1] + log_beta[t + 1], axis=1
        )
    return log_beta


def log_partition(unary, pairwise):
    r""":math:`\log Z=\log\sum_j\alpha_T(j)`, by the forward algorithm in
    :math:`O(Tk^2)`."""
    return logsumexp(forward(unary, pairwise)[-1])


def marginals(unary, pairwise):
    r"""Posterior marginals by forward–backward.

    Returns
    -------
    node : ndarray of shape (T, k)
        :math:`p(y_t=j\mid x)=\alpha_t(j)\beta_t(j)/Z`.
    edge : ndarray of shape (T-1, k, k)
        :math:`p(y_{t-1}=i,y_t=j\mid x)
        =\alpha_{t-1}(i)e^{P_{t,ij}+U_{tj}}\beta_t(j)/Z`.
    log_z : float
    """
    unary, pairwise = _check_scores(unary, pairwise)
    log_alpha, log_beta = forward(unary, pairwise), backward(unary, pairwise)
    log_z = logsumexp(log_alpha[-1])
    node = np.exp(log_alpha + log_beta - log_z)
    edge = np.exp(
        log_alpha[:-1, :, None]
        + pairwise
        + (unary[1:] + log_beta[1:])[:, None, :]
        - log_z
    )
    return node, edge, log_z


def viterbi(unary, pairwise):
    r"""The highest-scoring sequence :math:`\arg\max_ys(y)` and its score,
    in :math:`O(Tk^2)`.

    :math:`\delta_1(j)=U_{1j}`,
    :math:`\delta_t(j)=U_{tj}+\max_i[\delta_{t-1}(i)+P_{t,ij}]`; the
    maximising :math:`i` is stored and the path read backwards from
    :math:`\arg\max_j\delta_T(j)`. Each argmax takes the smallest label
    on a tie.
    """
    unary, pairwise = _check_scores(unary, pairwise)
    T, k = unary.shape
    delta = unary[0].copy()
    best_previous = np.empty((T, k), dtype=int)
    for t in range(1, T):
        # candidates[i, j]: the best prefix ending in i, then i -> j
        candidates = delta[:, None] + pairwise[t - 1]
        best_previous[t] = np.argmax(candidates, axis=0)
        delta = unary[t] + candidates[best_previous[t], np.arange(k)]
    path = np.empty(T, dtype=int)
    path[-1] = np.argmax(delta)
    for t in range(T - 1, 0, -1):
        path[t - 1] = best_previous[t, path[t]]
    return path, delta[path[-1]]


def negative_log_likelihood_and_gradient(
    weights, transitions, sequences, labels, alpha=0.0
):
    r"""Average negative log-likelihood of a linear-chain CRF, with an L2
    penalty, and its gradient.

    .. math:: \ell(W,P)=-\frac1N\sum_{n=1}^N\bigl[s_n(y^{(n)})-\log Z_n\bigr]
              +\frac\lambda2\bigl(\lVert W\rVert_F^2+\lVert P\rVert_F^2\bigr),
              \qquad U^{(n)}_t=Wx^{(n)}_t,

    with :math:`\lambda` = ``alpha``. The gradient is expected minus observed
    features, averaged over sequences, plus the penalty:

    .. math:: \nabla_W=\frac1N\sum_n\sum_t\bigl(p(y_t=\cdot\mid x)
              -e_{y_t}\bigr)x_t^\top+\lambda W,

    .. math:: \nabla_P=\frac1N\sum_n\sum_{t\ge2}\bigl(p(y_{t-1}=\cdot,
              y_t=\cdot\mid x)-e_{y_{t-1}}e_{y_t}^\top\bigr)+\lambda P.

    Parameters
    ----------
    weights : ndarray of shape (d, k)
        :math:`W^\top`: column :math:`j` holds :math:`w_j`, so that
        ``x @ weights`` is :math:`U`.
    transitions : ndarray of shape (k, k)
        :math:`P`.
    sequences : list of N arrays of shape (T_n, d)
    labels : list of N integer arrays of shape (T_n,), entries in 0..k-1
    alpha : float

    Returns
    -------
    nll : float
    grad_weights : ndarray of shape (d, k)
        :math:`(\nabla_W)^\top`, in the layout of ``weights``.
    grad_transitions : ndarray of shape (k, k)
        :math:`\nabla_P`.
    """
    k = transitions.shape[0]
    labels = _check_labels(sequences, labels, k)
    nll = 0.0
    grad_weights = np.zeros_like(weights, dtype=float)
    grad_transitions = np.zeros_like(transitions, dtype=float)
    for x, y in zip(sequences, labels):
        unary = x @ weights
        node, edge, log_z = marginals(unary, transitions)
        nll += log_z - sequence_score(unary, transitions, y)
        # expected minus observed features (eq. of the CRF gradient)
        observed = np.eye(k)[y]
        grad_weights += x.T @ (node - observed)
        grad_transitions += edge.sum(axis=0) - observed[:-1].T @ observed[1:]
    N = len(sequences)
    penalty = 0.5 * alpha * (np.sum(weights**2) + np.sum(transitions**2))
    return (
        nll / N + penalty,
        grad_weights / N + alpha * weights,
        grad_transitions / N + alpha * transitions,
    )


def _check_labels(sequences, labels, k):
    labels = [np.asarray(y) for y in labels]
    for x, y in zip(sequences, labels):
        if y.ndim != 1 or len(y) != len(x) or y.min() < 0 or y.max() >= k:
            raise ValueError(
                "each label sequence must be 1-D, as long as its input "
                f"sequence, with entries in 0..{k - 1}; got {y!r} for an "
                f"input of length {len(x)}."
            )
    return labels


class LinearChainCRF(BaseEstimator):
    r"""A linear-chain CRF with unary scores :math:`Wx_t` and a
    transition matrix :math:`P`, trained by minimising
    :func:`negative_log_likelihood_and_gradient` with scipy's L-BFGS-B (the
    objective is convex and smooth), and decoded by :func:`viterbi`.

    Parameters
    ----------
    alpha : float
        L2 penalty :math:`\frac\lambda2(\lVert W\rVert^2+\lVert P\rVert^2)`
        on the average NLL, :math:`\lambda` = ``alpha``.
    max_iter : int
    tol : float
        L-BFGS-B's ``gtol``: stop when every gradient entry is at most
        ``tol`` in absolute value.

    Attributes
    ----------
    classes_ : ndarray of shape (k,), the labels found in training
    coef_ : ndarray of shape (d, k), :math:`W^\top` (``x @ coef_`` is
        :math:`U`)
    transitions_ : ndarray of shape (k, k), :math:`P`
    loss_curve_ : list of float, the objective after each L-BFGS iteration
    n_iter_ : int

    No scikit-learn equivalent (sklearn-crfsuite wraps CRFsuite, which
    also uses L-BFGS).
    """

    def __init__(self, alpha=1e-2, max_iter=200, tol=1e-6):
        self.alpha = alpha
        self.max_iter = max_iter
        self.tol = tol

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # it fits lists of sequences of different lengths, not a matrix X
        tags.input_tags.two_d_array = False
        tags.target_tags.required = True
        return tags

    def fit(self, sequences, labels):
        """Fit to lists of input sequences (each (T_n, d)) and label
        sequences (each (T_n,)); return self."""
        alpha = check_scalar(self.alpha, "alpha", low=0)
        tol = check_scalar(self.tol, "tol", low=0, low_inclusive=False)
        max_iter = check_int(self.max_iter, "max_iter", low=1)
        sequences = [
            check_array(x, dtype=np.float64, input_name="sequence")
            for x in sequences
        ]
        if len(sequences) == 0 or len(sequences) != len(labels):
            raise ValueError(
                "need one label sequence per input sequence, at least one "
                f"of each; got {len(sequences)} input and {len(labels)} "
                "label sequences."
            )
        self.classes_, index = np.unique(
            np.concatenate(labels), return_inverse=True
        )
        bounds = np.cumsum([len(y) for y in labels])[:-1]
        indices = np.split(index, bounds)
        d, k = sequences[0].shape[1], len(self.classes_)
        if any(x.shape[1] != d for x in sequences):
            raise ValueError(
                "every input sequence must have the same number of "
                f"features; got {sorted({x.shape[1] for x in sequences})}."
            )

        def objective(theta):
            nll, grad_w, grad_a = negative_log_likelihood_and_gradient(
                theta[: d * k].reshape(d, k),
                theta[d * k :].reshape(k, k),
                sequences,
                indices,
                alpha,
            )
            return nll, np.concatenate([grad_w.ravel(), grad_a.ravel()])

        self.loss_curve_ = []
        result = minimize(
            objective,
            np.zeros(d * k + k * k),
            jac=True,
            method="L-BFGS-B",
            options=dict(maxiter=max_iter, gtol=tol, ftol=np.finfo(float).eps),
            callback=lambda intermediate_result: self.loss_curve_.append(
                intermediate_result.fun
            ),
        )
        if not result.success:
            warnings.warn(
                f"L-BFGS-B stopped before convergence: {result.message}",
                ConvergenceWarning,
            )
        self.coef_ = result.x[: d * k].reshape(d, k)
        self.transitions_ = result.x[d * k :].reshape(k, k)
        self.n_iter_ = result.nit
        return self

    def predict(self, sequences):
        """The Viterbi label sequence of each input sequence, a list of
        arrays."""
        check_is_fitted(self)
        sequences = [
            check_array(x, dtype=np.float64, input_name="sequence")
            for x in sequences
        ]
        if any(x.shape[1] != self.coef_.shape[0] for x in sequences):
            raise ValueError(
                f"every input sequence must have {self.coef_.shape[0]} "
                "features, as in fit; got "
                f"{sorted({x.shape[1] for x in sequences})}."
            )
        return [
            self.classes_[viterbi(x @ self.coef_, self.transitions_)[0]]
            for x in sequences
        ]
