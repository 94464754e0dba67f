r"""Probabilities from SVM decision values: Platt scaling and pairwise
coupling.

**Platt scaling** (Platt, 2000) models the probability of the positive
class given the decision value :math:`f` of a two-class SVM by a sigmoid,

.. math:: P(y=+1\mid f) = \frac{1}{1+\exp(Af+B)},

and fits :math:`(A, B)` by maximum likelihood on decision values that were
not trained on the same points (libsvm uses 5-fold cross-validation). The
labels are replaced by the regularised targets

.. math:: t_+ = \frac{N_++1}{N_++2},\qquad t_- = \frac{1}{N_-+2},

the posterior means of a Bernoulli parameter under a uniform prior, which
keep the fitted sigmoid from becoming a step on separable data. The
negative log-likelihood, with :math:`z_i = Af_i+B`,

.. math::

    F(A, B) = \sum_i t_iz_i + \log\bigl(1+e^{-z_i}\bigr),

is convex; Lin, Lin & Weng (2007) minimise it by Newton's method with a
backtracking line search, writing every term so that no exponential
overflows (:math:`t z + \log(1+e^{-z})` for :math:`z\ge0`,
:math:`(t-1)z + \log(1+e^{z})` otherwise) and adding :math:`\sigma I`,
:math:`\sigma=10^{-12}`, to the Hessian.

**Pairwise coupling** turns the :math:`K(K-1)/2` pairwise estimates
:math:`r_{ij}\approx P(y=i\mid y\in\{i,j\}, x)` into one distribution
:math:`p` over the :math:`K` classes. Method 2 of Wu, Lin & Weng (2004)
solves

.. math::

    \min_p\ \sum_i\sum_{j\ne i}(r_{ji}p_i - r_{ij}p_j)^2
    = 2\,p^\top Qp
    \quad\text{s.t.}\quad \textstyle\sum_ip_i = 1,

with :math:`Q_{tt} = \sum_{j\ne t}r_{jt}^2` and :math:`Q_{tj} =
-r_{jt}r_{tj}` (each term :math:`(r_{ji}p_i - r_{ij}p_j)^2` is a
consistency condition: :math:`p_i/p_j = r_{ij}/r_{ji}` when the pairwise
estimates agree). :math:`Q` is positive semi-definite, and setting the
gradient of the Lagrangian to zero, :math:`4Qp = \lambda\mathbf 1`, then
multiplying by :math:`p^\top`, gives the optimality conditions
:math:`Qp = (p^\top Qp)\,\mathbf 1`. Wu, Lin & Weng show that this
solution is non-negative without asking for it, so the constraints
:math:`p\ge0` can be left out.
"""

import numbers

import numpy as np
from scipy.special import expit

#: libsvm clips the pairwise probabilities to [MIN_PROBABILITY, 1 - it]
MIN_PROBABILITY = 1e-7
#: scikit-learn draws libsvm's seed below np.iinfo("i").max
SEED_BOUND = 2**31 - 1


def libsvm_seed(random_state):
    """The seed scikit-learn hands libsvm for ``random_state``.

    scikit-learn draws it as ``RandomState(random_state).randint(2**31 - 1)``
    for an int; the same here, so that equal ints give equal folds. A
    ``numpy.random.Generator`` draws it; ``None`` takes fresh entropy
    (scikit-learn would use numpy's global generator, which mllib never
    touches).
    """
    if isinstance(random_state, (numbers.Integral, np.integer)) and not (
        isinstance(random_state, bool)
    ):
        return int(np.random.RandomState(random_state).randint(SEED_BOUND))
    if random_state is None:
        random_state = np.random.default_rng()
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(SEED_BOUND))
    raise ValueError(
        "random_state must be None, an int or a numpy.random.Generator; "
        f"got {random_state!r}."
    )


def libsvm_permutation(seed, n):
    """The random permutation of ``range(n)`` that libsvm draws from
    ``seed`` for its cross-validation folds.

    libsvm (as scikit-learn builds it) seeds a 32-bit Mersenne Twister,
    ``std::mt19937``, whose seeding and output equal numpy's ``MT19937``
    under ``RandomState``'s integer seeding, and shuffles by Fisher-Yates,
    drawing each index below ``r`` with Lemire's multiply-and-shift (the
    high 32 bits of ``x * r``, rejecting the few ``x`` whose low bits fall
    below ``2**32 mod r``, which would make some indices likelier).
    """
    generator = np.random.RandomState(seed)._bit_generator
    permutation = list(range(n))
    for i in range(n):
        r = n - i
        product = int(generator.random_raw()) * r
        low = product & 0xFFFFFFFF
        if low < r:  # possibly biased: reject below 2**32 mod r
            threshold = (2**32 - r) % r
            while low < threshold:
                product = int(generator.random_raw()) * r
                low = product & 0xFFFFFFFF
        j = i + (product >> 32)
        permutation[i], permutation[j] = permutation[j], permutation[i]
    return np.array(permutation, dtype=int)


def _objective(z, targets):
    r""":math:`\sum_i t_iz_i + \log(1+e^{-z_i})`, written so that no
    exponential overflows (``logaddexp(0, -z)`` is :math:`\log(1+e^{-z})`
    for either sign of :math:`z`)."""
    return float(np.sum(targets * z + np.logaddexp(0.0, -z)))


def platt_fit(decision, positive, *, max_iter=100, tol=1e-5):
    r"""Fit Platt's sigmoid :math:`P(y=+1\mid f) = 1/(1+e^{Af+B})`.

    Newton's method on :math:`F(A, B)` (module docstring) with the
    Armijo backtracking line search of Lin, Lin & Weng (2007), Algorithm 1.

    Parameters
    ----------
    decision : ndarray of shape (n,)
        Decision values :math:`f_i`, computed on points the SVM did not
        see (cross-validation).
    positive : ndarray of bool, shape (n,)
        Whether each point belongs to the positive class.
    max_iter : int
        Newton iterations at most (libsvm: 100).
    tol : float
        Stop when both components of the gradient are below ``tol`` in
        absolute value (libsvm: 1e-5).

    Returns
    -------
    A, B : float

    References
    ----------
    Platt (2000), *Probabilistic outputs for support vector machines and
    comparisons to regularized likelihood methods*; Lin, Lin & Weng (2007),
    *A note on Platt's probabilistic outputs for support vector machines*,
    Machine Learning 68.
    """
    f = np.asarray(decision, dtype=float)
    positive = np.asarray(positive, dtype=bool)
    n_pos = np.count_nonzero(positive)
    n_neg = len(positive) - n_pos
    # Bayesian targets: the posterior mean of a Bernoulli parameter under a
    # uniform prior, instead of 0 and 1 (Platt 2000, eq. 6)
    targets = np.where(
        positive, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2)
    )
    sigma = 1e-12  # H + sigma I: strictly positive definite
    min_step = 1e-10
    A, B = 0.0, np.log((n_neg + 1.0) / (n_pos + 1.0))  # the prior odds
    value = _objective(A * f + B, targets)
    for _ in range(max_iter):
        z = A * f + B
        p = expit(-z)  # P(y=+1 | f), without overflow for either sign
        weight = p * (1.0 - p)  # d^2F/dz^2
        residual = targets - p  # dF/dz
        gradient = np.array([f @ residual, residual.sum()])
        if np.all(np.abs(gradient) < tol):
            break
        hessian = np.array(
            [
                [f**2 @ weight + sigma, f @ weight],
                [f @ weight, weight.sum() + sigma],
            ]
        )
        direction = -np.linalg.solve(hessian, gradient)  # Newton step
        slope = gradient @ direction  # < 0: a descent direction
        step = 1.0
        while step >= min_step:  # backtracking with Armijo's condition
            A_new, B_new = (A, B) + step * direction
            value_new = _objective(A_new * f + B_new, targets)
            if value_new < value + 1e-4 * step * slope:
                A, B, value = float(A_new), float(B_new), value_new
                break
            step /= 2.0
        else:
            break  # no sufficient decrease: at the limits of precision
    return float(A), float(B)


def platt_predict(decision, A, B):
    r""":math:`1/(1+e^{Af+B})`, clipped to :math:`[10^{-7}, 1-10^{-7}]` as
    libsvm does before coupling; shape of ``decision``."""
    probability = expit(-(A * np.asarray(decision, dtype=float) + B))
    return np.clip(probability, MIN_PROBABILITY, 1.0 - MIN_PROBABILITY)


def pairwise_coupling(r, *, max_iter=None):
    r"""Class probabilities from pairwise ones, Wu, Lin & Weng (2004),
    method 2.

    The fixed-point iteration of their Section 4 updates one coordinate at
    a time,

    .. math::

        p_t \leftarrow p_t + \frac{p^\top Qp - (Qp)_t}{Q_{tt}},
        \qquad p \leftarrow \frac{p}{\sum_i p_i},

    keeping :math:`Qp` and :math:`p^\top Qp` up to date in :math:`O(K)`,
    and stops when :math:`\max_t|(Qp)_t - p^\top Qp| < 0.005/K`, libsvm's
    ``multiclass_probability``; each sample stops on its own.

    Parameters
    ----------
    r : ndarray of shape (n_samples, K, K)
        :math:`r_{ij}`, with :math:`r_{ji} = 1 - r_{ij}`; the diagonal is
        not used.
    max_iter : int, optional
        Sweeps at most; ``max(100, K)`` by default, as libsvm.

    Returns
    -------
    ndarray of shape (n_samples, K)
        Rows sum to one.

    References
    ----------
    Wu, Lin & Weng (2004), *Probability estimates for multi-class
    classification by pairwise coupling*, JMLR 5, 975-1005.
    """
    n, K, _ = r.shape
    if max_iter is None:
        max_iter = max(100, K)
    off = ~np.eye(K, dtype=bool)
    # Q_tt = sum_{j != t} r_jt^2, Q_tj = -r_jt r_tj
    squares = np.where(off, r, 0.0) ** 2
    Q = -np.swapaxes(r, 1, 2) * r
    Q[:, np.arange(K), np.arange(K)] = squares.sum(axis=1)
    p = np.full((n, K), 1.0 / K)
    going = np.arange(n)  # samples not yet converged
    for _ in range(max_iter):
        Qg, pg = Q[going], p[going]
        Qp = np.einsum("nij,nj->ni", Qg, pg)
        pQp = np.einsum("ni,ni->n", pg, Qp)
        done = np.abs(Qp - pQp[:, None]).max(axis=1) < 0.005 / K
        going, Qg, pg, Qp, pQp = (
            going[~done],
            Qg[~done],
            pg[~done],
            Qp[~done],
            pQp[~done],
        )
        if len(going) == 0:
            break
        for t in range(K):  # one sweep, coordinate by coordinate
            Q_tt = Qg[:, t, t]
            diff = (pQp - Qp[:, t]) / Q_tt
            pg[:, t] += diff
            # Qp and p^T Q p after the step and the renormalisation by
            # 1 + diff, updated rather than recomputed (O(K), not O(K^2))
            pQp = (pQp + diff * (diff * Q_tt + 2.0 * Qp[:, t])) / (
                1.0 + diff
            ) ** 2
            Qp = (Qp + diff[:, None] * Qg[:, :, t]) / (1.0 + diff[:, None])
            pg /= 1.0 + diff[:, None]
        p[going] = pg
    return p
