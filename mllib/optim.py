"""Unconstrained optimisation and derivative checks.

Every iterative method here returns an :class:`OptimizeResult` whose
``history`` holds the values chapters plot against theory, and warns with
``ConvergenceWarning`` when it stops at ``max_iter`` without meeting its
stopping rule:

* ``gradient_descent``: full gradients, a constant step or a step-size
  schedule;
* ``minibatch_sgd``: gradients of random minibatches, epoch by epoch;
* ``subgradient_descent``: for non-differentiable convex functions, keeping the
  best iterate;
* ``coordinate_descent``: a driver that sweeps coordinates, with the update
  supplied by the caller.

Step-size schedules (``Constant``, ``InverseScaling``, ``StepDecay``,
``Cosine``) are small callables ``schedule(t) -> eta_t`` for the step number
``t = 1, 2, ...``; any of these methods accepts one wherever it takes
``step_size``.

``numerical_gradient`` / ``numerical_jacobian`` / ``check_gradient`` compare
analytic derivatives with central differences, for variables of any shape
(vectors, matrices).
"""

import math
import numbers
import warnings
from dataclasses import dataclass, field

import numpy as np

from .exceptions import ConvergenceWarning
from .validation import check_int, check_random_state


@dataclass
class OptimizeResult:
    """Outcome of an iterative method.

    Attributes
    ----------
    x : ndarray
        Final iterate (same shape as ``x0``); for subgradient descent, the best
        one.
    fun : float
        Objective value at ``x`` (NaN when no objective was supplied).
    n_iter : int
        Number of iterations performed (steps, epochs or sweeps; see each
        method).
    converged : bool
        Whether the stopping criterion was met before ``max_iter``.
    history : dict of ndarray
        Per-iteration values, starting with ``x0``; each method documents its
        keys.
    """

    x: np.ndarray
    fun: float
    n_iter: int
    converged: bool
    history: dict = field(repr=False)


@dataclass(frozen=True)
class Constant:
    r"""The constant step :math:`\eta_t = \eta_0`."""

    eta0: float

    def __call__(self, t):
        return self.eta0


@dataclass(frozen=True)
class InverseScaling:
    r""":math:`\eta_t = \eta_0 / t^{p}`: ``power_t=1`` is :math:`c/t`,
    ``power_t=0.5`` is :math:`c/\sqrt t`.

    Scikit-learn's ``learning_rate="invscaling"`` (whose default ``power_t`` is
    0.25). With :math:`\sum_t\eta_t=\infty` and :math:`\sum_t\eta_t^2<\infty`
    (``0.5 < power_t <= 1``) SGD converges to a minimiser of a convex objective
    (Robbins and Monro).
    """

    eta0: float
    power_t: float = 0.5

    def __call__(self, t):
        return self.eta0 / t**self.power_t


@dataclass(frozen=True)
class StepDecay:
    r""":math:`\eta_t = \eta_0\,\gamma^{\lfloor (t-1)/s \rfloor}`: multiply by
    ``drop`` every ``every`` steps."""

    eta0: float
    drop: float = 0.5
    every: int = 100

    def __call__(self, t):
        return self.eta0 * self.drop ** ((t - 1) // self.every)


@dataclass(frozen=True)
class Cosine:
    r"""Cosine annealing from :math:`\eta_0` to :math:`\eta_{\min}` over
    ``total`` steps, then flat.

    .. math::

        \eta_t = \eta_{\min}
              + \tfrac12(\eta_0-\eta_{\min})\bigl(1+\cos(\pi\,(t-1)/T)\bigr),
              \quad t \le T+1
    """

    eta0: float
    total: int
    eta_min: float = 0.0

    def __call__(self, t):
        progress = min(t - 1, self.total) / self.total
        return self.eta_min + 0.5 * (self.eta0 - self.eta_min) * (
            1 + math.cos(math.pi * progress)
        )


def as_schedule(step_size):
    """A positive number becomes :class:`Constant`; a callable is used as
    ``schedule(t)``."""
    if callable(step_size):
        return step_size
    if (
        isinstance(step_size, bool)
        or not isinstance(step_size, numbers.Real)
        or not step_size > 0
    ):
        raise ValueError(
            "step_size must be positive (a number or a schedule t -> "
            f"eta_t); got {step_size!r}."
        )
    return Constant(float(step_size))


def _check_step(eta, t):
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(
            f"the step-size schedule returned {eta!r} at step t={t}; "
            "steps must be positive."
        )
    return eta


def _check_max_iter(max_iter):
    check_int(max_iter, "max_iter", low=1)


def _warn(message):
    warnings.warn(message, ConvergenceWarning, stacklevel=3)


def gradient_descent(fun, grad, x0, *, step_size, max_iter=1000, tol=1e-6):
    r"""Minimise ``fun`` by gradient descent.

    .. math:: x_{k+1} = x_k - \eta_{k+1}\, \nabla f(x_k)

    For a convex, :math:`L`-smooth :math:`f` and a constant
    :math:`\eta \le 1/L`,
    :math:`f(x_k) - f^\star \le \|x_0 - x^\star\|^2 / (2\eta k)`;
    for :math:`\eta > 2/L` the iterates can diverge.

    Parameters
    ----------
    fun : callable
        ``fun(x) -> float``.
    grad : callable
        ``grad(x) -> ndarray`` of the same shape as ``x``.
    x0 : array-like
        Starting point, of any shape (a vector, or a matrix variable).
    step_size : float or callable
        A constant step :math:`\eta > 0`, or a schedule ``t -> eta_t``
        (e.g. :class:`StepDecay`).
    max_iter : int
        Maximum number of steps.
    tol : float
        Stop when :math:`\|\nabla f(x_k)\|_2 \le` ``tol``.

    Returns
    -------
    OptimizeResult
        ``history`` has ``"x"`` of shape (n_iter + 1, *x0.shape), and
        ``"fun"`` and ``"grad_norm"`` of shape (n_iter + 1,). A
        ``ConvergenceWarning`` is issued if ``tol`` is not reached.
    """
    schedule = as_schedule(step_size)
    _check_max_iter(max_iter)
    x = np.array(x0, dtype=float)  # a copy: the caller's x0 is never modified
    xs, fs, grad_norms = [x], [float(fun(x))], []
    for k in range(max_iter + 1):
        g = np.asarray(grad(x), dtype=float)
        grad_norms.append(float(np.linalg.norm(g)))
        if grad_norms[-1] <= tol or k == max_iter:
            break
        eta = _check_step(schedule(k + 1), k + 1)
        x = x - eta * g  # a new array: the stored iterates stay intact
        xs.append(x)
        fs.append(float(fun(x)))
        if not np.isfinite(fs[-1]):
            grad_norms.append(np.nan)
            _warn(
                f"gradient descent diverged after {k + 1} steps (objective "
                f"{fs[-1]}); the step size is probably above 2/L. Use a "
                "smaller step_size."
            )
            break
    converged = grad_norms[-1] <= tol
    if not converged and np.isfinite(fs[-1]):
        _warn(
            f"gradient descent did not reach tol={tol} in max_iter={max_iter}"
            f" steps (final gradient norm {grad_norms[-1]:.3g}). Increase "
            "max_iter or step_size."
        )
    history = {
        "x": np.array(xs),
        "fun": np.array(fs),
        "grad_norm": np.array(grad_norms),
    }
    return OptimizeResult(
        x=x,
        fun=fs[-1],
        n_iter=len(xs) - 1,
        converged=converged,
        history=history,
    )


def minibatch_sgd(
    fun,
    grad,
    x0,
    n_samples,
    *,
    step_size,
    batch_size=1,
    max_iter=100,
    tol=1e-4,
    n_iter_no_change=5,
    random_state=None,
    record_steps=False,
):
    r"""Minimise an average :math:`F(x)=\frac1n\sum_{i=1}^n f_i(x)` by SGD.

    Each epoch shuffles the sample indices and cuts them into minibatches
    :math:`B` of ``batch_size`` (the last may be smaller); each minibatch
    makes one step

    .. math:: x_{t} = x_{t-1}
              - \eta_t\, \frac{1}{|B|}\sum_{i\in B}\nabla f_i(x_{t-1}),

    where the minibatch gradient is an unbiased estimate of
    :math:`\nabla F`. The step counter ``t`` runs over all steps of all
    epochs.

    Parameters
    ----------
    fun : callable
        ``fun(x) -> float``, the objective monitored once per epoch (the
        full :math:`F`, or a validation loss for early stopping).
    grad : callable
        ``grad(x, batch) -> ndarray``: the *mean* gradient over the samples
        whose indices are in the integer array ``batch``; the same shape as
        ``x``.
    x0 : array-like
        Starting point.
    n_samples : int
        Number of terms :math:`n` in the average.
    step_size : float or callable
        A constant step, or a schedule ``t -> eta_t`` such as
        :class:`InverseScaling`.
    batch_size : int
        Minibatch size :math:`N` (``1`` is plain SGD, ``n_samples`` is
        gradient descent).
    max_iter : int
        Maximum number of epochs.
    tol : float or None
        Stop when ``fun`` has not decreased below (best value − ``tol``) for
        ``n_iter_no_change`` consecutive epochs (scikit-learn's rule for
        ``SGDRegressor``). ``None`` runs exactly ``max_iter`` epochs,
        without a warning (and reports ``converged=True``: there is no
        criterion to miss).
    random_state : None, int, numpy.random.Generator or RandomState
        Source of the shuffles.
    record_steps : bool
        Also keep every step's iterate in ``history["steps"]`` (for
        plotting paths).

    Returns
    -------
    OptimizeResult
        ``n_iter`` counts epochs. ``history`` has ``"x"``
        (n_iter + 1, *x0.shape) and ``"fun"`` (n_iter + 1,) at the end of
        each epoch, ``"step_size"`` (one per step), and ``"steps"``
        (n_steps + 1, *x0.shape) if ``record_steps``.
    """
    schedule = as_schedule(step_size)
    _check_max_iter(max_iter)
    check_int(n_samples, "n_samples", low=1)
    check_int(batch_size, "batch_size", low=1)
    check_int(n_iter_no_change, "n_iter_no_change", low=1)
    rng = check_random_state(random_state)
    x = np.array(x0, dtype=float)
    xs, fs, etas, steps = [x], [float(fun(x))], [], [x]
    best, epochs_without_progress, converged, t = fs[0], 0, False, 0
    for epoch in range(1, max_iter + 1):
        order = rng.permutation(n_samples)
        for start in range(0, n_samples, batch_size):
            batch = order[start : start + batch_size]
            t += 1
            etas.append(_check_step(schedule(t), t))
            x = x - etas[-1] * np.asarray(grad(x, batch), dtype=float)
            if record_steps:
                steps.append(x)
        xs.append(x)
        fs.append(float(fun(x)))
        if not np.isfinite(fs[-1]):
            _warn(
                f"SGD diverged in epoch {epoch} (objective {fs[-1]}). Use a "
                "smaller step_size."
            )
            break
        if tol is not None:
            epochs_without_progress = (
                epochs_without_progress + 1 if fs[-1] > best - tol else 0
            )
            best = min(best, fs[-1])
            if epochs_without_progress >= n_iter_no_change:
                converged = True
                break
    if tol is not None and not converged and np.isfinite(fs[-1]):
        _warn(
            f"SGD was still improving the objective by more than tol={tol} "
            f"after max_iter={max_iter} epochs. Increase max_iter or use a "
            "larger step_size."
        )
    history = {
        "x": np.array(xs),
        "fun": np.array(fs),
        "step_size": np.array(etas),
    }
    if record_steps:
        history["steps"] = np.array(steps)
    return OptimizeResult(
        x=x,
        fun=fs[-1],
        n_iter=len(xs) - 1,
        converged=converged or tol is None,
        history=history,
    )


def subgradient_descent(
    fun, subgradient, x0, *, step_size, max_iter=1000, tol=1e-8, f_star=None
):
    r"""Minimise a convex, possibly non-differentiable ``fun``.

    The subgradient method:

    .. math:: x_{k+1} = x_k - \eta_{k+1}\, g_k, \qquad g_k \in \partial f(x_k)

    A subgradient step need not decrease :math:`f` (at a kink,
    :math:`-g_k` can point uphill), so the method returns the **best**
    iterate :math:`\arg\min_{j\le k} f(x_j)`. With :math:`\|g\|\le G` and
    steps :math:`\eta_k`,

    .. math:: f_{\text{best},k} - f^\star
              \le \frac{\|x_0-x^\star\|^2 + G^2\sum_j\eta_j^2}
                       {2\sum_j\eta_j},

    so diminishing steps with :math:`\sum\eta_k=\infty`,
    :math:`\sum\eta_k^2<\infty` converge, and a constant step only reaches
    a neighbourhood of size :math:`G^2\eta/2` (Boyd's lecture notes).

    Parameters
    ----------
    fun : callable
        ``fun(x) -> float``.
    subgradient : callable
        ``subgradient(x) -> ndarray``, any element of :math:`\partial f(x)`.
    x0 : array-like
    step_size : float or callable
        A constant step, or a schedule ``t -> eta_t`` (e.g.
        ``InverseScaling(c, 0.5)``).
    max_iter : int
    tol : float
        Stop when the subgradient returned has norm ``<= tol`` (then
        :math:`0\in\partial f` up to ``tol``: a certificate of optimality),
        or, if ``f_star`` is given, when the best value is within ``tol`` of
        it.
    f_star : float, optional
        The optimal value, when it is known (for experiments).

    Returns
    -------
    OptimizeResult
        ``x`` and ``fun`` are the best iterate and its value. ``history``
        has ``"x"``, ``"fun"`` (at every iterate), ``"fun_best"`` (running
        minimum) and ``"subgrad_norm"``.
    """
    schedule = as_schedule(step_size)
    _check_max_iter(max_iter)
    x = np.array(x0, dtype=float)
    xs, fs, norms = [x], [float(fun(x))], []
    best_value, converged = fs[0], False
    for k in range(max_iter + 1):
        g = np.asarray(subgradient(x), dtype=float)
        norms.append(float(np.linalg.norm(g)))
        converged = norms[-1] <= tol or (
            f_star is not None and best_value - f_star <= tol
        )
        if converged or k == max_iter:
            break
        x = x - _check_step(schedule(k + 1), k + 1) * g
        xs.append(x)
        fs.append(float(fun(x)))
        best_value = min(best_value, fs[-1])
    if not converged:
        _warn(
            f"subgradient descent stopped at max_iter={max_iter} without a "
            "certificate of optimality (the result is the best iterate "
            "seen). Increase max_iter, or pass f_star."
        )
    fs = np.array(fs)
    best = int(np.argmin(fs))
    history = {
        "x": np.array(xs),
        "fun": fs,
        "fun_best": np.minimum.accumulate(fs),
        "subgrad_norm": np.array(norms),
    }
    return OptimizeResult(
        x=xs[best],
        fun=float(fs[best]),
        n_iter=len(xs) - 1,
        converged=converged,
        history=history,
    )


def coordinate_descent(
    update,
    x0,
    *,
    max_iter=1000,
    tol=1e-4,
    selection="cyclic",
    random_state=None,
    fun=None,
    certificate=None,
):
    r"""Minimise one coordinate at a time: the driver loop, with the update
    supplied by the caller.

    A **sweep** visits ``d = x0.size`` coordinates, in the order ``0, 1, ...,
    d-1`` (``selection="cyclic"``) or drawn uniformly at random with
    replacement (``selection="random"``, as in scikit-learn). At each visit the
    driver calls ``update(j, x)`` and stores the value it returns in ``x[j]``.

    **Contract for** ``update(j, x) -> float``: return the new value of
    coordinate ``j`` (for exact coordinate minimisation, :math:`\arg\min_{z}
    f(x_1,\dots,z,\dots,x_d)`), where ``x`` is the driver's current iterate, a
    flat float array. ``update`` must not modify ``x``; it may keep its own
    state up to date (e.g. the lasso's residual :math:`r \leftarrow r -
    X_{:j}(z - x_j)`, so that an update costs :math:`O(n)`), knowing that the
    driver always writes the returned value into ``x[j]`` right after the call.
    The driver allocates nothing per coordinate: it only compares and writes
    scalars.

    Stopping rule: after a sweep, if the largest coordinate change
    :math:`\max_j |x_j^{\text{new}} - x_j^{\text{old}}|` is at most ``tol`` and
    ``certificate(x)`` (if given, e.g. "duality gap <= tol") returns true,
    stop.

    Parameters
    ----------
    update : callable
        ``update(j, x) -> float``, as above.
    x0 : array-like
        Starting point; it is flattened, and the result has its shape.
    max_iter : int
        Maximum number of sweeps.
    tol : float
        Tolerance on the largest coordinate change in a sweep.
    selection : {"cyclic", "random"}
    random_state : None, int, numpy.random.Generator or RandomState
        Used when ``selection="random"``.
    fun : callable, optional
        ``fun(x) -> float``, recorded after every sweep (pass a cheap one, e.g.
        from a maintained residual).
    certificate : callable, optional
        ``certificate(x) -> bool``, checked only when the coordinate changes
        are small.

    Returns
    -------
    OptimizeResult
        ``n_iter`` counts sweeps. ``history`` has ``"x"`` (n_iter + 1,
        *x0.shape), ``"max_change"`` (n_iter,) and, if ``fun`` is given,
        ``"fun"`` (n_iter + 1,); ``fun`` is NaN without it.
    """
    _check_max_iter(max_iter)
    if selection not in ("cyclic", "random"):
        raise ValueError(
            f'selection must be "cyclic" or "random"; got {selection!r}.'
        )
    shape = np.shape(x0)
    # our own flat copy, written in place
    x = np.array(x0, dtype=float).reshape(-1)
    d = x.size
    rng = check_random_state(random_state)
    cyclic = range(d)
    xs, fs, changes = [x.reshape(shape).copy()], [], []
    if fun is not None:
        fs.append(float(fun(x)))
    converged = False
    for _ in range(max_iter):
        largest = 0.0
        for j in cyclic if selection == "cyclic" else rng.integers(d, size=d):
            new = update(j, x)
            change = abs(new - x[j])
            if change > largest:
                largest = change
            x[j] = new
        changes.append(largest)
        xs.append(x.reshape(shape).copy())
        if fun is not None:
            fs.append(float(fun(x)))
        if largest <= tol and (certificate is None or certificate(x)):
            converged = True
            break
    if not converged:
        _warn(
            f"coordinate descent did not converge in max_iter={max_iter} "
            "sweeps (last largest "
            f"coordinate change {changes[-1]:.3g}, tol={tol}). Increase "
            "max_iter or tol."
        )
    history = {"x": np.array(xs), "max_change": np.array(changes)}
    if fun is not None:
        history["fun"] = np.array(fs)
    return OptimizeResult(
        x=x.reshape(shape).copy(),
        fun=fs[-1] if fs else float("nan"),
        n_iter=len(changes),
        converged=converged,
        history=history,
    )


def numerical_jacobian(fun, x, *, eps=1e-6):
    r"""Central-difference Jacobian of ``fun`` at ``x``.

    .. math::

        J_{\dots,i} \approx \frac{f(x + h_i e_i) - f(x - h_i e_i)}{2 h_i},
              \qquad h_i = \varepsilon \max(1, |x_i|)

    The truncation error is :math:`O(h^2)`; the rounding error grows like
    :math:`\epsilon_{\mathrm{mach}}/h`, so :math:`\varepsilon \approx 10^{-6}`
    balances the two in double precision.

    Parameters
    ----------
    fun : callable
        Maps an array shaped like ``x`` to an array (or scalar) of shape
        ``out_shape``.
    x : array-like
        Point of any shape.

    Returns
    -------
    ndarray of shape ``out_shape + x.shape``
        ``J[..., i]`` is the derivative of ``fun`` with respect to ``x[i]``.
    """
    x = np.array(x, dtype=float)
    out_shape = np.shape(fun(x))
    jac = np.empty(out_shape + (x.size,))
    flat = x.reshape(-1)  # a view into our copy, so perturbations reach `x`
    for i in range(x.size):
        h = eps * max(1.0, abs(flat[i]))
        original = flat[i]
        flat[i] = original + h
        f_plus = np.asarray(fun(x), dtype=float)
        flat[i] = original - h
        f_minus = np.asarray(fun(x), dtype=float)
        flat[i] = original
        jac[..., i] = (f_plus - f_minus) / (2 * h)
    return jac.reshape(out_shape + x.shape)


def numerical_gradient(fun, x, *, eps=1e-6):
    """Central-difference gradient of a scalar function; same shape as ``x``.

    This is :func:`numerical_jacobian` for a scalar output, so its entry ``[i,
    j]`` for a matrix ``x`` is the derivative with respect to ``x[i, j]`` (the
    layout in which the gradient has the shape of the variable).
    """
    value = fun(np.array(x, dtype=float))
    if np.ndim(value) != 0:
        raise ValueError(
            "fun must return a scalar for a gradient; it returned shape "
            f"{np.shape(value)}. "
            "Use numerical_jacobian for vector-valued functions."
        )
    return numerical_jacobian(fun, x, eps=eps)


def check_gradient(fun, grad, x, *, eps=1e-6):
    r"""Relative error between an analytic gradient and central differences at
    ``x``.

    .. math:: \frac{\|g - \hat g\|}{\max(\|g\| + \|\hat g\|, 10^{-12})}

    Around 1e-8 or below for a correct gradient of a smooth function; of order
    1 for a wrong one.
    """
    analytic = np.asarray(grad(np.array(x, dtype=float)), dtype=float)
    numeric = numerical_gradient(fun, x, eps=eps)
    if analytic.shape != numeric.shape:
        raise ValueError(
            f"grad returned shape {analytic.shape}, but x has shape "
            f"{numeric.shape}; "
            "a gradient has the shape of its variable."
        )
    scale = max(np.linalg.norm(analytic) + np.linalg.norm(numeric), 1e-12)
    return float(np.linalg.norm(analytic - numeric) / scale)
