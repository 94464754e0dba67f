r"""The lasso and the elastic net, by cyclic coordinate descent with soft
thresholding.

The elastic net minimises (the lasso is :math:`\rho = 1`)

.. math::

    \frac1{2n}\lVert y - Xw - b\mathbf 1\rVert_2^2
          + \lambda\rho\lVert w\rVert_1
          + \frac{\lambda(1-\rho)}2\lVert w\rVert_2^2 .

With sample weights :math:`s_i \ge 0` the first term is :math:`\frac1{2\sum_i
s_i}\sum_i s_i(y_i - x_i^\top w - b)^2`, the weighted mean of the squared
residuals, unchanged when every weight is multiplied by a constant; like
scikit-learn we rescale the weights to sum to :math:`n`, so that the penalty
below keeps its factor :math:`n`, centre on the weighted means and multiply
row :math:`i` by :math:`\sqrt{s_i}` (``_base``), after which the weighted
problem is the unweighted one below.

After centring (the intercept is unpenalised) and multiplying by :math:`n`,
this is :math:`P(w) = \tfrac12\lVert y - Xw\rVert^2 + \ell_1\lVert w\rVert_1 +
\tfrac{\ell_2}2\lVert w\rVert^2` with :math:`\ell_1 = n\lambda\rho`,
:math:`\ell_2 = n\lambda(1-\rho)`. Minimising over the single coordinate
:math:`w_j` with the others fixed has a closed form: with the partial
residual's correlation :math:`z_j = x_j^\top(r + w_j x_j)`, where :math:`r = y
- Xw`,

.. math:: w_j \leftarrow \frac{S_{\ell_1}(z_j)}{\lVert x_j\rVert^2 + \ell_2},
          \qquad S_t(z) = \operatorname{sign}(z)\max(|z| - t, 0).

With the constraint :math:`w \ge 0` (``positive=True``) the one-coordinate
problem is a convex parabola in :math:`w_j` restricted to :math:`w_j \ge 0`,
so its minimiser is the unconstrained one projected on :math:`[0, \infty)`:
:math:`w_j \leftarrow \max(z_j - \ell_1, 0)/(\lVert x_j\rVert^2 +
\ell_2)`, the negative branch of :math:`S` removed.

Keeping :math:`r` up to date makes one update cost :math:`O(n)`: one inner
product for :math:`z_j` and, if :math:`w_j` moved, one ``axpy`` for :math:`r`.
The loop stops on the **duality gap**, a certificate: for any :math:`w` and any
dual-feasible :math:`v`, :math:`P(w) - P(w^\star) \le P(w) - D(v)`, and the
scaled residual is dual feasible.

When :math:`n > d` a path precomputes the Gram matrix :math:`Q = X^\top X`
and :math:`q = X^\top y` once (scikit-learn's ``precompute``) and keeps
no residual: :math:`z_j = q_j - Q_j^\top w + Q_{jj}w_j` costs :math:`O(d)`
instead of :math:`O(n)`, and with :math:`h = Qw` the gap's terms are
:math:`\lVert r\rVert^2 = \lVert y\rVert^2 - 2w^\top q + w^\top h`,
:math:`X^\top r = q - h` and :math:`r^\top y = \lVert y\rVert^2 - w^\top q`
(``enet_coordinate_descent_gram``). The iterates and the stopping rule are the
same; only rounding differs.

The loop is written here rather than on the generic driver
``mllib.optim.coordinate_descent``: the driver calls an update function and
writes a NumPy array entry per coordinate, and its absolute-change stopping
test would make us check the gap (an :math:`O(nd)` product) after every sweep
instead of scikit-learn's relative test. Built on the driver, the same solver
took 1.7 times as long on the benchmark's 5000 x 200 lasso, which would put the
fit at about twice scikit-learn's time (``benchmarks/bench_linear_models.py``).

References: Friedman, Hastie & Tibshirani (2010), *J. Stat. Softw.* 33(1); for
the gap, Fercoq, Gramfort & Salmon (2015), arXiv:1505.03410.
"""

import warnings

import numpy as np
from scipy import sparse
from scipy.linalg.blas import dasum, daxpy, ddot, idamax
from sklearn.utils import check_X_y
from sklearn.utils.validation import validate_data

from ..exceptions import ConvergenceWarning
from ..validation import check_sample_weight, check_scalar
from ._base import LinearModel, center_data


def duality_gap(w, X, y, residual, l1_reg, l2_reg, positive=False):
    r"""The gap :math:`P(w) - D(\nu) \ge P(w) - P(w^\star)`, at
    :math:`\nu = \theta r`.

    The dual of :math:`P` (lasso case :math:`\ell_2 = 0`) is :math:`D(\nu) =
    -\tfrac12\lVert \nu\rVert^2 + y^\top \nu` subject to :math:`\lVert X^\top
    \nu\rVert_\infty \le \ell_1`; the residual :math:`r` is shrunk by
    :math:`\theta = \min(1, \ell_1/\lVert X^\top r\rVert_\infty)` to be
    feasible (``scale`` in :func:`gap_from_products`). For :math:`\ell_2 > 0`
    the same formulas hold with :math:`X^\top r - \ell_2 w` in the
    constraint and :math:`\lVert r\rVert^2 + \ell_2\lVert w\rVert^2` in
    the quadratic terms (the elastic net is a lasso on :math:`X` stacked over
    :math:`\sqrt{\ell_2}I`).

    With :math:`w \ge 0` (``positive``) the penalty
    :math:`\ell_1\sum_j w_j` plus the constraint has the conjugate that
    bounds :math:`X^\top\nu` from above only: the constraint becomes
    :math:`\max_j (X^\top\nu)_j \le \ell_1`, without absolute values.
    """
    return gap_from_products(
        w,
        residual @ residual,
        X.T @ residual,
        residual @ y,
        l1_reg,
        l2_reg,
        positive,
    )


def gap_from_products(
    w, residual_norm2, correlations, residual_dot_y, l1_reg, l2_reg, positive
):
    r""":func:`duality_gap` from :math:`\lVert r\rVert^2`, :math:`X^\top r`
    and :math:`r^\top y`, however they were computed."""
    # BLAS ddot, idamax (index of the largest |c_j|) and dasum (‖w‖₁) for
    # NumPy's `@`, abs and reductions: on a path's ten features each NumPy
    # call costs several times the arithmetic, and a path checks the gap
    # twice per λ (benchmarks/bench_linear_models.py)
    quadratic = residual_norm2 + l2_reg * ddot(w, w)
    correlations = correlations - l2_reg * w
    if positive:
        dual_norm = correlations.max(initial=0.0)
    else:
        dual_norm = abs(correlations[idamax(correlations)])
    scale = l1_reg / dual_norm if dual_norm > l1_reg else 1.0
    primal = 0.5 * quadratic + l1_reg * dasum(w)
    dual = -0.5 * scale**2 * quadratic + scale * residual_dot_y
    return primal - dual


def enet_coordinate_descent(
    w, X, y, l1_reg, l2_reg, max_iter, tol, positive=False
):
    r"""Minimise :math:`P(w) = \tfrac12\lVert y-Xw\rVert^2
    + \ell_1\lVert w\rVert_1 + \tfrac{\ell_2}2\lVert w\rVert^2`,
    subject to :math:`w \ge 0` if ``positive``.

    Parameters
    ----------
    w : ndarray of shape (n_features,)
        Starting point (a warm start along a path); not modified.
    X : ndarray of shape (n_samples, n_features), Fortran-ordered
        Fortran order makes each column contiguous, so ``X[:, j]`` is a
        fast view.
    y : ndarray of shape (n_samples,)
    l1_reg, l2_reg : float
        :math:`\ell_1 > 0` and :math:`\ell_2 \ge 0`, already multiplied by
        ``n_samples``.
    max_iter : int
        Maximum number of sweeps over all coordinates.
    tol : float
        Stop when the duality gap is at most ``tol`` times
        :math:`\lVert y\rVert^2`, checked whenever the largest coordinate
        change in a sweep falls below ``tol`` relative to the largest
        coefficient (scikit-learn's rule).

    Returns
    -------
    w, gap, n_iter
        Coefficients, final duality gap (in the scaling of :math:`P`) and
        number of sweeps.
    """
    columns = [X[:, j] for j in range(X.shape[1])]
    # Python floats and BLAS ddot/daxpy on contiguous columns: in this loop,
    # NumPy scalars and `@` on 1-D arrays cost several times the arithmetic
    # (benchmarks/bench_linear_models.py).
    squared_norms = np.einsum("ij,ij->j", X, X).tolist()
    coef = w.tolist()
    residual = y - X @ w
    gap_tol = tol * (y @ y)
    gap = duality_gap(w, X, y, residual, l1_reg, l2_reg, positive)
    if gap <= gap_tol:
        return w, gap, 0
    for sweep in range(1, max_iter + 1):
        w_max = change_max = 0.0
        for j, x_j in enumerate(columns):
            norm = squared_norms[j]
            if norm == 0.0:  # a constant column: its coefficient stays 0
                continue
            old = coef[j]
            # z_j = x_jᵀ(r + w_j x_j), the correlation with the partial
            # residual, then w_j = S_ℓ₁(z_j) / (‖x_j‖² + ℓ₂), case by case
            z = ddot(x_j, residual) + old * norm
            if z > l1_reg:
                new = (z - l1_reg) / (norm + l2_reg)
            elif z < -l1_reg and not positive:
                new = (z + l1_reg) / (norm + l2_reg)
            else:
                new = 0.0
            if new != old:
                # r ← r − (w_j_new − w_j_old) x_j, in place: O(n)
                daxpy(x_j, residual, a=old - new)
                coef[j] = new
                # |Δw_j| and |w_j| by comparisons: max() calls here took a
                # fifth of a path's time (benchmarks/bench_linear_models.py)
                change = new - old
                if change > change_max or -change > change_max:
                    change_max = abs(change)
            if new > w_max or -new > w_max:
                w_max = abs(new)
        if w_max == 0.0 or change_max <= tol * w_max or sweep == max_iter:
            w = np.array(coef)
            gap = duality_gap(w, X, y, residual, l1_reg, l2_reg, positive)
            if gap <= gap_tol:
                return w, gap, sweep
    _warn_not_converged(max_iter, gap, gap_tol)
    return w, gap, max_iter


def enet_coordinate_descent_gram(
    w, gram, Xy, y_norm2, l1_reg, l2_reg, max_iter, tol, positive=False
):
    r""":func:`enet_coordinate_descent` on the Gram matrix ``gram`` =
    :math:`Q = X^\top X` (C-ordered), ``Xy`` = :math:`q = X^\top y` and
    ``y_norm2`` = :math:`\lVert y\rVert^2` (module docstring): the same
    updates, stopping rule and returns, each update :math:`O(d)`.
    """
    # the coordinates that can move, each with what its update reads: row j
    # of the symmetric Q (its column j), Q_jj, the denominator Q_jj + ℓ₂ and
    # q_j, unpacked once per λ rather than once per update; a constant
    # column (Q_jj = 0) keeps its coefficient
    coordinates = [
        (j, row, norm, norm + l2_reg, Xy_j)
        for j, (row, norm, Xy_j) in enumerate(
            zip(gram, np.diag(gram).tolist(), Xy.tolist())
        )
        if norm != 0.0
    ]
    coef = w.tolist()  # read here; w, read by ddot, is written alongside
    w = w.copy()
    gap_tol = tol * y_norm2

    def gap_of(w):
        gram_w, w_Xy = gram @ w, ddot(w, Xy)
        return gap_from_products(
            w,
            y_norm2 - 2 * w_Xy + ddot(w, gram_w),  # ‖r‖²
            Xy - gram_w,  # Xᵀr
            y_norm2 - w_Xy,  # rᵀy
            l1_reg,
            l2_reg,
            positive,
        )

    gap = gap_of(w)
    if gap <= gap_tol:
        return w, gap, 0
    for sweep in range(1, max_iter + 1):
        w_max = change_max = 0.0
        for j, row, norm, denominator, Xy_j in coordinates:
            old = coef[j]
            # z_j = x_jᵀ(r + w_j x_j) = q_j − Q_jᵀw + Q_jj w_j: O(d)
            z = Xy_j - ddot(row, w) + old * norm
            if z > l1_reg:
                new = (z - l1_reg) / denominator
            elif z < -l1_reg and not positive:
                new = (z + l1_reg) / denominator
            else:
                new = 0.0
            if new != old:
                w[j] = coef[j] = new
                # |Δw_j| and |w_j| by comparisons: max() calls here took a
                # fifth of a path's time (benchmarks/bench_linear_models.py)
                change = new - old
                if change > change_max or -change > change_max:
                    change_max = abs(change)
            if new > w_max or -new > w_max:
                w_max = abs(new)
        if w_max == 0.0 or change_max <= tol * w_max or sweep == max_iter:
            gap = gap_of(w)
            if gap <= gap_tol:
                return w, gap, sweep
    _warn_not_converged(max_iter, gap, gap_tol)
    return w, gap, max_iter


def _warn_not_converged(max_iter, gap, gap_tol):
    warnings.warn(
        f"Coordinate descent did not converge in max_iter={max_iter} sweeps: "
        f"duality gap {gap:.3e} > tolerance {gap_tol:.3e}. Increase "
        "max_iter, standardise the features, or increase alpha.",
        ConvergenceWarning,
        stacklevel=4,
    )


def _check_penalty(alpha, l1_ratio):
    alpha = check_scalar(alpha, "alpha", low=0, low_inclusive=False)
    # l1_ratio = 0 is ridge regression, whose duality gap needs another dual
    # (and which has a closed form): use Ridge(alpha=n_samples * alpha)
    # instead.
    return alpha, check_scalar(
        l1_ratio, "l1_ratio", low=0, low_inclusive=False, high=1
    )


def _check_iterations(max_iter, tol):
    if (
        isinstance(max_iter, bool)
        or not isinstance(max_iter, (int, np.integer))
        or max_iter < 1
    ):
        raise ValueError(
            f"max_iter must be a positive integer; got {max_iter!r}."
        )
    return max_iter, check_scalar(tol, "tol", low=0)


class ElasticNet(LinearModel):
    r"""Linear regression with combined :math:`\ell_1` and :math:`\ell_2`
    penalties.

    Minimises :math:`\frac1{2n}\lVert y-Xw-b\rVert_2^2 + \lambda\rho\lVert
    w\rVert_1 + \frac{\lambda(1-\rho)}2\lVert w\rVert_2^2` by coordinate
    descent (module docstring); with sample weights :math:`s_i` the first
    term is :math:`\frac1{2\sum_is_i}\sum_i s_i(y_i-x_i^\top w-b)^2`.

    Parameters
    ----------
    alpha : float, default=1.0
        The strength :math:`\lambda > 0`.
    l1_ratio : float, default=0.5
        The mixing :math:`\rho\in(0, 1]`; 1 is the lasso. (:math:`\rho = 0`
        would be ridge regression, ``Ridge(alpha=n_samples * alpha)``, which
        has a closed form.)
    fit_intercept : bool, default=True
        Fit an unpenalised intercept by centring.
    max_iter : int, default=1000
        Maximum number of sweeps; a ``ConvergenceWarning`` is issued when it is
        reached.
    tol : float, default=1e-4
        Duality-gap tolerance, relative to :math:`\lVert y - \bar y\rVert^2`
        (with weights, :math:`\sum_i s_i(y_i - \bar y_s)^2`, the weights
        rescaled to sum to :math:`n`).
    warm_start : bool, default=False
        Start coordinate descent from the ``coef_`` of the previous ``fit``
        (if any) instead of zero: along a decreasing sequence of ``alpha``
        each fit then starts near its solution. The minimiser is the same;
        only ``n_iter_`` changes.
    positive : bool, default=False
        Constrain the coefficients to be non-negative (the intercept stays
        free): each coordinate update is projected on :math:`[0, \infty)`
        (module docstring).

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    sparse_coef_ : scipy.sparse.csr_matrix of shape (1, n_features)
        ``coef_``, stored sparse.
    intercept_ : float
    n_iter_ : int
        Sweeps performed.
    dual_gap_ : float
        Final duality gap of the objective above (divided by :math:`n`, as in
        scikit-learn).
    n_features_in_ : int

    Notes
    -----
    Same objective and parameters as ``sklearn.linear_model.ElasticNet`` (dense
    input, cyclic selection); coefficients agree to the tolerance. The path
    of fits over a grid of ``alpha`` is ``ElasticNet.path``, that is
    :func:`enet_path` (``Lasso.path`` is :func:`lasso_path`).
    """

    def __init__(
        self,
        alpha=1.0,
        l1_ratio=0.5,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-4,
        warm_start=False,
        positive=False,
    ):
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.warm_start = warm_start
        self.positive = positive

    def fit(self, X, y, sample_weight=None):
        """Fit to ``X`` of shape (n_samples, n_features) and ``y`` of shape
        (n_samples,), each squared residual weighted by ``sample_weight``
        (n_samples,) if given."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        alpha, l1_ratio = _check_penalty(self.alpha, self._mixing())
        max_iter, tol = _check_iterations(self.max_iter, self.tol)
        n_samples = len(y)
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, n_samples)
            # the weighted mean loss is scale-free: weights summing to n keep
            # the penalty's factor n (module docstring)
            sample_weight = sample_weight * (n_samples / sample_weight.sum())
        Xc, yc, X_offset, y_offset = center_data(
            X, y, self.fit_intercept, order="F", sample_weight=sample_weight
        )
        self.coef_, gap, self.n_iter_ = enet_coordinate_descent(
            self._starting_point(X.shape[1]),
            Xc,
            yc,
            n_samples * alpha * l1_ratio,
            n_samples * alpha * (1 - l1_ratio),
            max_iter,
            tol,
            positive=bool(self.positive),
        )
        self.dual_gap_ = gap / n_samples
        self._set_intercept(X_offset, y_offset)
        return self

    @property
    def sparse_coef_(self):
        """``coef_`` as a ``scipy.sparse`` CSR matrix of shape (1,
        n_features), as scikit-learn offers it."""
        return sparse.csr_matrix(self.coef_)

    def _starting_point(self, n_features):
        """Zero, or the previous fit's coefficients with ``warm_start``."""
        if not self.warm_start or not hasattr(self, "coef_"):
            return np.zeros(n_features)
        return _checked_start(self.coef_, n_features, bool(self.positive))

    def _mixing(self):
        return self.l1_ratio


class Lasso(ElasticNet):
    r"""Linear regression with an :math:`\ell_1` penalty:
    :math:`\frac1{2n}\lVert y-Xw-b\rVert_2^2 + \lambda\lVert w\rVert_1`.

    The elastic net with ``l1_ratio=1``; same parameters and attributes
    otherwise. Equivalent to ``sklearn.linear_model.Lasso(alpha)``. The penalty
    sets coefficients exactly to zero: the larger :math:`\lambda`, the fewer
    features are used, and none at all once :math:`\lambda \ge \lVert X_c^\top
    y_c\rVert_\infty / n`.
    """

    def __init__(
        self,
        alpha=1.0,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-4,
        warm_start=False,
        positive=False,
    ):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.warm_start = warm_start
        self.positive = positive

    def _mixing(self):
        return 1.0


def enet_path(
    X,
    y,
    *,
    l1_ratio=0.5,
    eps=1e-3,
    alphas=100,
    coef_init=None,
    positive=False,
    max_iter=1000,
    tol=1e-4,
):
    r"""Elastic-net coefficients along a decreasing grid of :math:`\lambda`.

    Each fit starts from the previous solution (a warm start), so the whole
    path costs little more than one fit; with more samples than features the
    fits share the Gram matrix :math:`X^\top X` (module docstring). Like
    scikit-learn's ``enet_path``, no intercept is fitted: centre (and usually
    standardise) ``X`` and ``y`` first.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    l1_ratio : float, default=0.5
    eps : float, default=1e-3
        With an integer ``alphas``, the grid runs geometrically from
        :math:`\lambda_{\max} = \lVert X^\top y\rVert_\infty/(n\rho)`, the
        smallest :math:`\lambda` giving :math:`w = 0`, down to ``eps`` times
        it.
    alphas : int or array-like, default=100
        Number of grid points, or the values themselves (used in decreasing
        order).
    coef_init : array-like of shape (n_features,), default=None
        Where the first fit starts (a warm start); zero by default.
    positive : bool, default=False
        Constrain the coefficients to be non-negative.
    max_iter, tol
        As in :class:`ElasticNet`.

    Returns
    -------
    alphas : ndarray of shape (n_alphas,)
    coefs : ndarray of shape (n_features, n_alphas)
    dual_gaps : ndarray of shape (n_alphas,)
    """
    X, y, alphas, l1_ratio, max_iter, tol = _check_path_arguments(
        X, y, l1_ratio, eps, alphas, max_iter, tol
    )
    n_samples, n_features = X.shape
    w = (
        np.zeros(n_features)  # the solution at λ_max
        if coef_init is None
        else _checked_start(coef_init, n_features, positive)
    )
    if n_samples > n_features:  # Q = XᵀX once for the whole path
        data = (np.ascontiguousarray(X.T @ X), X.T @ y, y @ y)
        solver = enet_coordinate_descent_gram
    else:
        data, solver = (X, y), enet_coordinate_descent
    coefs, gaps = np.empty((n_features, len(alphas))), np.empty(len(alphas))
    for k, alpha in enumerate(alphas):  # decreasing λ, each fit warm-started
        w, gap, _ = solver(
            w,
            *data,
            n_samples * alpha * l1_ratio,
            n_samples * alpha * (1 - l1_ratio),
            max_iter,
            tol,
            positive=positive,
        )
        coefs[:, k], gaps[k] = w, gap / n_samples
    return alphas, coefs, gaps


def _checked_start(coef, n_features, positive):
    """A copy of a starting point ``coef`` for coordinate descent, checked
    against the problem: one coefficient per feature, finite, and feasible
    (non-negative) when the coefficients are constrained."""
    start = np.array(coef, dtype=np.float64).ravel()
    if start.shape != (n_features,) or not np.all(np.isfinite(start)):
        raise ValueError(
            f"The starting coefficients must be {n_features} finite numbers "
            f"(one per feature); got shape {np.shape(coef)}. With "
            "warm_start=True, fit again on data with the same features, or "
            "set warm_start=False."
        )
    # a negative start is projected: the first sweep would set it to 0
    return np.maximum(start, 0.0) if positive else start


def _check_path_arguments(X, y, l1_ratio, eps, alphas, max_iter, tol):
    """The validated arguments of a path, with its grid in decreasing order."""
    X, y = check_X_y(X, y, dtype=np.float64, y_numeric=True)
    max_iter, tol = _check_iterations(max_iter, tol)
    _, l1_ratio = _check_penalty(1.0, l1_ratio)
    if isinstance(alphas, (int, np.integer)) and not isinstance(alphas, bool):
        alpha_max = np.max(np.abs(X.T @ y)) / (len(y) * l1_ratio)
        alphas = np.geomspace(alpha_max, alpha_max * eps, num=alphas)
    else:
        alphas = np.sort(np.asarray(alphas, dtype=float))[::-1]
    for alpha in alphas[~(alphas > 0)]:  # raises on the first bad one
        _check_penalty(alpha, l1_ratio)
    return np.asfortranarray(X), y, alphas, l1_ratio, max_iter, tol


def lasso_path(
    X,
    y,
    *,
    eps=1e-3,
    alphas=100,
    coef_init=None,
    positive=False,
    max_iter=1000,
    tol=1e-4,
):
    """Lasso coefficients along a path: :func:`enet_path` with
    ``l1_ratio=1``."""
    return enet_path(
        X,
        y,
        l1_ratio=1.0,
        eps=eps,
        alphas=alphas,
        coef_init=coef_init,
        positive=positive,
        max_iter=max_iter,
        tol=tol,
    )


# scikit-learn's estimators carry their path functions
ElasticNet.path = staticmethod(enet_path)
Lasso.path = staticmethod(lasso_path)
