r"""Sequential minimal optimisation (SMO) for the dual of the soft-margin SVM.

The dual problem, with :math:`Q_{ij} = y_iy_jK_{ij}`, is

.. math:: \max_\alpha\ D(\alpha) = \sum_i\alpha_i - \tfrac12\alpha^\top Q\alpha
          \quad\text{s.t.}\quad \sum_i y_i\alpha_i = 0,
          \quad 0\le\alpha_i\le C_i .

The bound :math:`C_i` is one number :math:`C` for the plain soft margin and
differs between samples when classes or samples are weighted
(:math:`C_i = C\,w_{c(i)}\,s_i`, libsvm's ``weighted_C`` times its
per-instance weight).

SMO changes two multipliers at a time along the only direction that keeps
:math:`\sum_iy_i\alpha_i` fixed, :math:`\alpha_i \mathrel{+}= \delta y_i`,
:math:`\alpha_j \mathrel{-}= \delta y_j`, and takes the exact maximising step,
clipped to the box. Everything is expressed through

.. math::

    v_t = y_t - \sum_s \alpha_s y_s K_{st}
          \qquad(\,= -y_t\,\partial f/\partial\alpha_t
          \text{ for } f=-D\,),

the label minus the decision value without intercept, kept up to date in
:math:`O(n)` per step (libsvm's cached gradient). The KKT conditions say that
some :math:`b` satisfies :math:`v_t\le b` for every :math:`t` in
:math:`I_{\text{up}}` (multipliers that can move along :math:`+y_t`) and
:math:`v_t\ge b` on :math:`I_{\text{low}}`; the pair chosen is the most
violating one, with the second-order rule of Fan, Chen & Lin (2005), as in
libsvm.

Of equally violating multipliers libsvm's ``Solver::select_working_set``
takes the last in its own order (comparisons ``>=`` and ``<=``), and so does
:func:`smo_steps`: the samples in the order ``SVC`` passes them (libsvm's:
class by class), permuted by shrinking as libsvm's ``do_shrinking`` and
``swap_index`` permute them (:func:`_shrink`). At :math:`\alpha=0` every
multiplier of :math:`I_{\text{up}}` (the class :math:`+1`) has
:math:`v_t=1`, so the first step breaks a tie. On a concave dual (a
positive semi-definite kernel) the path changes but not the optimum; on a
non-concave one (the sigmoid kernel) the path decides which maximum SMO
reaches. The choices still differ where exact arithmetic makes a tie and
rounding breaks it: libsvm keeps :math:`Q` in single precision and rounds
its gradient otherwise.
"""

import warnings
from typing import NamedTuple

import numpy as np

from ..exceptions import ConvergenceWarning

# libsvm's floor on the curvature a_ij, for repeated points or non-PSD kernels
TAU = 1e-12
SHRINK_EVERY = 1000  # libsvm shrinks every min(n, 1000) steps
CURVATURE_ENTRIES = 2**22  # at most 32 MB of rows a_i. kept by smo_steps


class SMOResult(NamedTuple):
    """The solution of the SVM dual and how SMO reached it.

    Attributes
    ----------
    alpha : ndarray of shape (n,)
        The multipliers, :math:`0\\le\\alpha_i\\le C_i`.
    intercept : float
        :math:`b`, the mean of :math:`v_t` over the free multipliers
        :math:`0<\\alpha_t<C` (libsvm's rule).
    n_iter : int
        Number of two-variable steps.
    converged : bool
        Whether the maximal KKT violation fell below ``tol``.
    history : dict of ndarray
        ``"violation"`` (:math:`\\max_{I_{up}} v - \\min_{I_{low}} v` before
        each step) and ``"dual"`` (:math:`D(\\alpha)` after each step).
    """

    alpha: np.ndarray
    intercept: float
    n_iter: int
    converged: bool
    history: dict


def smo(K, y, C, *, tol=1e-3, max_iter=-1, shrinking=True):
    r"""Solve the SVM dual for a precomputed Gram matrix by SMO with
    second-order working sets.

    Parameters
    ----------
    K : ndarray of shape (n, n) or KernelRows
        Gram matrix :math:`K_{ij} = k(x_i, x_j)`, symmetric positive
        semi-definite; only its rows ``K[i]`` and ``K.diagonal()`` are used.
    y : ndarray of shape (n,)
        Labels in :math:`\{-1, +1\}`, both present.
    C : float or ndarray of shape (n,)
        Box bounds :math:`C_i > 0`, one for all or one per multiplier;
        ``np.inf`` for the hard margin (the caller must check separability,
        or the dual is unbounded).
    tol : float
        Stop when the maximal violation
        :math:`\max_{I_{up}} v - \min_{I_{low}} v < \mathrm{tol}`
        (libsvm's ``eps``).
    max_iter : int
        Maximum number of steps; ``-1`` for no limit.
    shrinking : bool
        libsvm's shrinking (Joachims, 1999): every ``min(n, 1000)`` steps,
        set aside the multipliers at a bound whose KKT condition holds with
        room to spare (:func:`_shrinkable`); the steps then work on shorter
        arrays. Once the others are optimal, :math:`v` of those set aside is
        recomputed and all are checked; SMO goes on if one violates.

    Returns
    -------
    SMOResult

    References
    ----------
    Platt (1998), *Sequential minimal optimization*; Fan, Chen & Lin (2005),
    *Working set selection using second order information for training
    SVM*, JMLR 6, Algorithm WSS3; Chang & Lin (2011), *LIBSVM*, §5.
    """
    n = len(y)
    C = np.broadcast_to(np.asarray(C, dtype=float), (n,))
    alpha = np.zeros(n)
    v = y.astype(float)  # alpha = 0: the decision values are 0
    diag = K.diagonal().copy()
    history = {"violation": [], "dual": []}
    # libsvm's positions (its active_set): the first n_active are active.
    # Shrinking permutes them (_shrink) and they stay permuted, which
    # decides which of equally violating multipliers smo_steps takes.
    order, n_active, unshrunk, step = np.arange(n), n, False, 0
    steps_to_shrink = min(n, SHRINK_EVERY) if shrinking else np.inf
    while True:
        left = np.inf if max_iter == -1 else max_iter - step
        taken, optimal = smo_steps(
            K,
            y,
            C,
            alpha,
            v,
            diag,
            order[:n_active],
            tol=tol,
            n_steps=min(steps_to_shrink, left),
            history=history,
        )
        step += taken
        if optimal or step == max_iter:
            if n_active < n:  # check the multipliers set aside too
                _restore(K, y, alpha, v, order[:n_active])
                n_active = n
                if optimal:
                    steps_to_shrink = 1  # libsvm: shrink again at once
                    continue
            history["violation"].append(_violation(y, alpha, v, C))
            break
        # shrink: libsvm first brings every multiplier back once, when the
        # active ones are nearly optimal, so that none stays aside wrongly
        active = order[:n_active]
        up, low = _up_low(y[active], alpha[active], C[active])
        max_up, min_low = _extremes(v[active], up, low)
        if not unshrunk and max_up - min_low <= 10 * tol:
            unshrunk = True
            _restore(K, y, alpha, v, active)
            active, n_active = order, n
            up, low = _up_low(y[order], alpha[order], C[order])
        # Every multiplier can be set aside, and the active set left empty:
        # when the last steps reached the optimum (max_up < min_low) with
        # every multiplier at a bound (a small C), each passes the test.
        # smo_steps then reports the empty set optimal, and the check of all
        # multipliers above decides (libsvm's select_working_set).
        n_active = _shrink(
            order, _shrinkable(v[active], up, low, max_up, min_low)
        )
        steps_to_shrink = min(n, SHRINK_EVERY)
    violation = history["violation"][-1]
    converged = violation < tol
    if not converged:
        warnings.warn(
            f"SMO stopped at max_iter={max_iter} steps with maximal KKT "
            f"violation {violation:.3g} > tol={tol}. Increase max_iter.",
            ConvergenceWarning,
            stacklevel=2,
        )
    history = {key: np.array(values) for key, values in history.items()}
    return SMOResult(
        alpha, _intercept(alpha, v, y, C), step, converged, history
    )


def smo_steps(K, y, C, alpha, v, diag, active, *, tol, n_steps, history):
    r"""At most ``n_steps`` SMO steps on the multipliers ``active`` (the
    others stay fixed), updating ``alpha`` and ``v`` there in place.

    ``active`` lists them in libsvm's order; of equally violating
    multipliers each step takes the last, as libsvm's
    ``select_working_set`` (WSS3 of Fan, Chen & Lin 2005) does.

    Returns the number of steps and whether the active multipliers are
    optimal (then their violation, below ``tol``, is not recorded). With no
    pair that can move, in particular no active multiplier at all, they are
    optimal: the maximum of :math:`v` over an empty set is :math:`-\infty`
    (libsvm's ``select_working_set`` returns 1 then).
    """
    if not _up_low(y[active], alpha[active], C[active])[0].any():
        return 0, True  # I_up empty: no i, no violating pair
    # libsvm's select_working_set keeps the last of equal candidates in its
    # order (comparisons >= and <=), argmax the first: the arrays run
    # backwards. On a non-concave dual (the sigmoid kernel) the tie at the
    # first step, every v_t = 1 on I_up, decides which maximum is found.
    active = active[::-1]
    # libsvm's order unpermuted, nothing set aside: K's rows reversed are
    # the active entries, without a copy
    everything = np.array_equal(active, np.arange(len(y))[::-1])
    labels, a = y[active].tolist(), alpha[active].tolist()  # fast scalars
    bounds = C[active].tolist()
    up, low = _up_low(y[active], alpha[active], C[active])
    v_up = np.where(up, v[active], -np.inf)  # v on I_up, -inf elsewhere
    v_low = np.where(low, v[active], np.inf)  # v on I_low, +inf elsewhere
    diag = diag[active]
    dual = history["dual"][-1] if history["dual"] else 0.0
    # the curvatures a_i. of the multipliers chosen as i: most steps choose
    # one chosen before
    curvatures = {}
    step, optimal = 0, False
    while step < n_steps:
        i = int(v_up.argmax())  # most violating "up" multiplier
        v_i = float(v_up[i])
        violation = v_i - float(v_low[v_low.argmin()])
        if violation < tol:
            optimal = True
            break
        history["violation"].append(violation)
        # Second-order choice of j (WSS3): the largest guaranteed increase
        # g_il^2 / (2 a_il) of D among the "low" multipliers l that violate
        # the KKT conditions together with i. (In place: the loop runs
        # thousands of times, and numpy's per-call overhead is what it
        # costs.)
        Ki = K[int(active[i])]
        Ki = Ki[::-1] if everything else Ki[active]
        curvature = curvatures.get(i)  # a_il = K_ii + K_ll - 2 K_il
        if curvature is None:  #      = ||phi(x_i) - phi(x_l)||^2
            curvature = np.maximum(diag[i] + diag - 2.0 * Ki, TAU)
            if len(curvatures) * len(diag) > CURVATURE_ENTRIES:
                curvatures.clear()
            curvatures[i] = curvature
        gain = v_i - v_low  # g_il = v_i - v_l > 0: the pair (i, l) violates
        np.maximum(gain, 0.0, out=gain)
        gain *= gain
        gain /= curvature
        j = int(gain.argmax())
        g_ij, a_ij = v_i - float(v_low[j]), float(curvature[j])
        # The exact maximiser delta = g/a along alpha_i += delta y_i,
        # alpha_j -= delta y_j, clipped to the box (r_i, r_j: the room)
        y_i, y_j = labels[i], labels[j]
        room_i = bounds[i] - a[i] if y_i > 0 else a[i]
        room_j = a[j] if y_j > 0 else bounds[j] - a[j]
        delta = min(g_ij / a_ij, room_i, room_j)
        a[i] = _move(a[i], delta, y_i, delta == room_i, bounds[i])
        a[j] = _move(a[j], delta, -y_j, delta == room_j, bounds[j])
        # Cached gradient: v <- v - delta (K_i - K_j), two kernel rows,
        # O(n)
        Kj = K[int(active[j])]
        Kj = Kj[::-1] if everything else Kj[active]
        change = Ki - Kj
        change *= delta
        v_up -= change
        v_low -= change
        # i moved along +y_i and j along -y_j: each can now move back, and
        # stays free to go on unless it is on its bound, clipped there or
        # brought there by rounding (libsvm's update_alpha_status reads the
        # value: else a step with no room follows)
        v_low[i], v_up[j] = v_up[i], v_low[j]
        if a[i] == (bounds[i] if y_i > 0 else 0.0):
            v_up[i] = -np.inf
        if a[j] == (0.0 if y_j > 0 else bounds[j]):
            v_low[j] = np.inf
        dual += delta * g_ij - 0.5 * delta**2 * a_ij  # exact increase of D
        history["dual"].append(dual)
        step += 1
    alpha[active] = a
    v[active] = np.where(v_up > -np.inf, v_up, v_low)
    return step, optimal


def _up_low(y, alpha, C):
    """Masks of :math:`I_{up}` (alpha_t can move along +y_t) and
    :math:`I_{low}` (along -y_t); ``C`` a number or one bound per
    multiplier."""
    return (
        np.where(y > 0, alpha < C, alpha > 0),
        np.where(y < 0, alpha < C, alpha > 0),
    )


def _extremes(v, up, low):
    r""":math:`\max_{I_{up}} v` and :math:`\min_{I_{low}} v`, with the
    empty maximum :math:`-\infty` and the empty minimum :math:`+\infty`
    (libsvm's ``Gmax1`` and ``Gmax2`` start there)."""
    return (
        float(np.max(v[up], initial=-np.inf)),
        float(np.min(v[low], initial=np.inf)),
    )


def _violation(y, alpha, v, C):
    r""":math:`\max_{I_{up}} v - \min_{I_{low}} v`, the maximal KKT
    violation."""
    max_up, min_low = _extremes(v, *_up_low(y, alpha, C))
    return max_up - min_low


def _shrinkable(v, up, low, max_up, min_low):
    r"""Multipliers whose KKT condition holds with room to spare.

    A multiplier at a bound belongs to only one of the two sets. One only in
    :math:`I_{low}` needs :math:`v_t\ge b`; if :math:`v_t` exceeds
    :math:`\max_{I_{up}}v`, no intercept the active multipliers allow can
    break it, and it cannot be the ``j`` of a violating pair. Likewise
    below :math:`\min_{I_{low}}v` for one only in :math:`I_{up}` (libsvm's
    ``be_shrunk``). Free multipliers are in both sets and never set aside.
    """
    return (~up & (v > max_up)) | (~low & (v < min_low))


def _shrink(order, shrunk):
    r"""Set aside the active multipliers marked ``shrunk``, as libsvm's
    ``do_shrinking`` does, and return how many stay active.

    ``order`` holds libsvm's positions (its ``active_set``), the active ones
    first; ``shrunk`` marks the first ``len(shrunk)`` of them. libsvm scans
    them forwards, and swaps (``swap_index``) each one to be set aside with
    the last active one that stays, scanning backwards from the end: the
    t-th hole from the front takes the t-th keeper from the back. The
    permutation is applied to ``order`` in place; it persists (libsvm never
    undoes it), and it is what decides ties in later steps.
    """
    kept = len(shrunk) - int(np.count_nonzero(shrunk))
    holes = np.flatnonzero(shrunk[:kept])
    keepers = kept + np.flatnonzero(~shrunk[kept:])[::-1]
    order[holes], order[keepers] = order[keepers], order[holes]
    return kept


def _restore(K, y, alpha, v, active):
    r"""Recompute :math:`v_t = y_t - \sum_s\alpha_sy_sK_{st}` from scratch for
    the multipliers outside ``active``, whose v went stale while they were
    set aside (libsvm's ``reconstruct_gradient``)."""
    aside = np.ones(len(y), dtype=bool)
    aside[active] = False
    values = y[aside].astype(float)
    for s in np.flatnonzero(alpha):  # the support vectors' rows
        values -= alpha[s] * y[s] * K[int(s)][aside]
    v[aside] = values


def _move(value, delta, direction, to_bound, bound):
    """alpha + delta * direction, set exactly on the bound it was clipped to
    (no rounding residue)."""
    if to_bound:
        return bound if direction > 0 else 0.0
    return value + delta * direction


def _intercept(alpha, v, y, C):
    r"""libsvm's rule: b is the mean of v over the free SVs (where y_t f(x_t) =
    1 exactly).

    Without free SVs, the KKT conditions only bracket b, :math:`\max_{I_{up}} v
    \le b \le \min_{I_{low}} v`, and the midpoint is taken.
    """
    free = (alpha > 0) & (alpha < C)
    if free.any():
        return float(v[free].mean())
    return float(0.5 * sum(_extremes(v, *_up_low(y, alpha, C))))
