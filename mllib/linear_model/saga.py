r"""SAGA: stochastic gradient steps whose variance vanishes at the optimum.

The problem is logistic (or softmax) regression with an elastic-net
penalty, scaled as scikit-learn's ``sag_solver`` writes it,

.. math::

    \min_\Theta\ F(\Theta) = \frac1n\sum_{i=1}^n f_i(\Theta)
        + \frac\alpha2\lVert W\rVert_F^2 + \beta\lVert W\rVert_1,\qquad
    f_i(\Theta) = s_i\,\ell_i(\Theta),

:math:`\Theta = (W, b)`, :math:`\ell_i` the cross-entropy of sample
:math:`i` and :math:`s_i` its weight; with :math:`\alpha = (1-\rho)/(Cn)`
and :math:`\beta = \rho/(Cn)` it is :class:`LogisticRegression`'s objective
divided by :math:`Cn`. A plain stochastic gradient step with the gradient
:math:`\nabla f_j` of one random sample is unbiased, but its variance does
not vanish at the minimiser, so its step size must shrink to 0 for it to
converge. SAGA keeps, for every sample, the gradient :math:`\nabla
f_i(\phi_i)` at the point :math:`\phi_i` where it last visited it (0
before the first visit, as in scikit-learn), and steps along

.. math::

    v = \nabla f_j(\Theta) - \nabla f_j(\phi_j)
        + \frac1n\sum_{i=1}^n \nabla f_i(\phi_i) + \alpha W,

still an unbiased estimate of the gradient of the smooth part (the second
and third terms have expectation 0 together; the penalty's gradient
:math:`\alpha W` is known exactly and not estimated), whose variance goes
to 0 as every :math:`\phi_i` approaches the minimiser. The :math:`\ell_1` term
enters through its proximal map, the soft threshold:

.. math:: \Theta \leftarrow \operatorname{prox}_{\gamma\beta\lVert\cdot
          \rVert_1}(\Theta - \gamma v), \qquad
          \operatorname{prox}_t(w) = \operatorname{sign}(w)\max(|w| - t, 0)

on :math:`W` (the intercepts are not penalised). Then :math:`\phi_j =
\Theta` and the average is updated by the change in sample :math:`j`'s
term. For the linear models only the scalar (per class)
:math:`s_j\ell_j'(z_j)` need be stored: :math:`\nabla f_j = s_j\ell_j'(z_j)
\otimes \tilde x_j`, :math:`\tilde x_j` the row of the design matrix.

**Step size and stopping rule.** Each :math:`f_i +
\frac\alpha2\lVert W\rVert^2` has a gradient Lipschitz in :math:`\Theta`
with constant at most
:math:`L = c\,\max_i s_i\lVert\tilde x_i\rVert^2 + \alpha`, with
:math:`c = \frac14` for the logistic loss (:math:`\sigma' \le \frac14`) and
:math:`c = \frac12` for the softmax (Böhning's bound); :math:`\tilde x_i`
has a 1 appended when there is an intercept. The step is scikit-learn's
formula :math:`\gamma = 1/(2L + \min(2n\alpha, L))`, with this :math:`L`:
scikit-learn's equals it for unweighted binary problems only, as it takes
:math:`c = \frac14` for the softmax too and leaves the weights out, which
can make its steps too long. The formula is a heuristic between
:math:`1/(2L)` (at :math:`\alpha = 0`) and :math:`1/(3L)` (once
:math:`2n\alpha \ge L`). Defazio et al. prove convergence for
:math:`\gamma = 1/(3L)` (Theorem 2, linear under strong convexity) and
for :math:`1/(2(\mu n + L))` (Theorem 1, every :math:`f_i` strongly convex
with modulus :math:`\mu`, which the unpenalised intercept is not); the
longer steps of the formula are not covered by either, and the tests check
convergence numerically. After each epoch of :math:`n` steps (samples drawn
uniformly with replacement) it stops, as scikit-learn's, once the largest
change of a weight over the epoch is at most ``tol`` times the largest
weight (the intercepts are not counted). That is a heuristic, not a bound
on the distance to the minimiser: ``tol`` must be small for the result to
be close to it.

References
----------
Defazio, Bach & Lacoste-Julien, SAGA: a fast incremental gradient method
with support for non-strongly convex composite objectives, NeurIPS 2014;
Schmidt, Le Roux & Bach, Minimizing finite sums with the stochastic average
gradient, Math. Programming 162 (2017).
"""

import numpy as np
from scipy import sparse
from scipy.special import expit, softmax


def saga_step_size(X1, sample_weight, alpha, n_classes):
    r""":math:`1/(2L + \min(2n\alpha, L))` (module docstring), for the
    design matrix ``X1`` of shape (n, d') (with the intercept's column if
    there is one)."""
    squared_norms = (
        np.asarray(X1.multiply(X1).sum(axis=1)).ravel()
        if sparse.issparse(X1)
        else np.einsum("ij,ij->i", X1, X1)
    )
    curvature = 0.25 if n_classes == 2 else 0.5
    L = curvature * np.max(sample_weight * squared_norms) + alpha
    return 1.0 / (2 * L + min(2 * X1.shape[0] * alpha, L))


def saga(
    X1,
    Y,
    sample_weight,
    alpha,
    beta,
    n_weights,
    start,
    *,
    max_iter,
    tol,
    rng,
):
    """Minimise the module docstring's :math:`F` by SAGA.

    Parameters
    ----------
    X1 : ndarray or CSR matrix of shape (n, d')
        The design matrix; columns ``n_weights:`` (the intercept's, if
        any) are not penalised.
    Y : ndarray of shape (n, 1) or (n, K)
        Labels in {0, 1} (one column: the logistic loss) or one-hot rows
        (K columns: the softmax loss).
    sample_weight : ndarray of shape (n,)
    alpha, beta : float
        The :math:`\\ell_2` and :math:`\\ell_1` strengths :math:`\\alpha`,
        :math:`\\beta` of the scaled objective.
    n_weights : int
        The number d of penalised columns.
    start : ndarray of shape (1, d') or (K, d')
        The starting Θ.
    max_iter : int
        The largest number of epochs.
    tol : float
        The stopping rule's relative change of the weights over an epoch.
    rng : numpy.random.Generator
        Draws the samples.

    Returns
    -------
    Theta : ndarray, the shape of ``start``
    n_epochs : int
    converged : bool
    """
    n = X1.shape[0]
    binary = Y.shape[1] == 1
    link = expit if binary else lambda z: softmax(z)
    step = saga_step_size(
        X1, sample_weight, alpha, n_classes=2 if binary else Y.shape[1]
    )
    threshold = step * beta
    if sparse.issparse(X1):
        indptr, indices, data = X1.indptr, X1.indices, X1.data
        row = (
            lambda j: (  # noqa: E731
                indices[indptr[j] : indptr[j + 1]],
                data[indptr[j] : indptr[j + 1]],
            )
        )
    else:
        X1 = np.ascontiguousarray(X1)  # one sample's row at a time
        row = lambda j: (slice(None), X1[j])  # noqa: E731
    Theta = np.array(start, dtype=float)
    W = Theta[:, :n_weights]  # a view: the penalised part of Theta
    memory = np.zeros(Y.shape)  # s_i ℓ'_i at each sample's last visit
    # γ times (1/n) Σ_i memory_i ⊗ x̃_i, the average of the stored gradients
    step_average = np.zeros_like(Theta)
    shrink = 1.0 - step * alpha
    clipped = np.empty_like(W)
    for epoch in range(1, max_iter + 1):
        previous = W.copy()
        for j in rng.integers(n, size=n):
            columns, values = row(j)
            derivative = sample_weight[j] * (
                link(Theta[:, columns] @ values) - Y[j]
            )
            step_change = (step * (derivative - memory[j]))[:, None] * values
            memory[j] = derivative
            # Θ - γv with v = (ℓ' change) ⊗ x̃_j + average + αW
            W *= shrink
            Theta[:, columns] -= step_change
            Theta -= step_average
            if threshold > 0:  # the prox: W - clip(W, -t, t)
                np.minimum(W, threshold, out=clipped)
                np.maximum(clipped, -threshold, out=clipped)
                W -= clipped
            step_average[:, columns] += step_change / n
        largest = np.abs(W).max()
        largest_change = np.abs(W - previous).max()
        if largest_change <= tol * largest or largest == largest_change == 0:
            return Theta, epoch, True
    return Theta, max_iter, False
