r"""Logistic regression, binary and multinomial, with scikit-learn's objective.

For labels :math:`y_i\in\{0,1\}` (``classes_[1]`` is class 1) and
:math:`p_i=\sigma(w^\top x_i+b)`,

.. math::

    \min_{w,b}\ C\sum_{i=1}^n \Bigl(-y_i\log p_i - (1-y_i)\log(1-p_i)\Bigr)
        + \tfrac12\lVert w\rVert^2,

the same as scikit-learn's :math:`C\sum_i\log(1+e^{-\tilde y_i(w^\top
x_i+b)})+\frac12\lVert w\rVert^2` with :math:`\tilde y_i=2y_i-1`. The
penalty is in general scikit-learn's elastic net

.. math:: r(w) = \rho\lVert w\rVert_1 + \tfrac{1-\rho}2\lVert w\rVert_2^2,
          \qquad \rho = \texttt{l1\_ratio}\in[0, 1],

:math:`\rho = 0` the ridge penalty above, :math:`\rho = 1` the lasso's; with
:math:`\rho > 0` the objective is not differentiable where a weight is 0,
and it is minimised by proximal Newton steps
(:mod:`mllib.linear_model.proximal_newton`), which keep the
:math:`\ell_1` term exact and so set weights exactly to zero. Sample and
class weights :math:`s_i` multiply the terms of the sum over samples. With
:math:`K>2` classes it is the softmax (multinomial) model in the symmetric
parametrisation: one weight vector per class, all penalised, so that
:math:`\sum_k w_k=0` at the optimum, and intercepts normalised to sum to zero.
The loss, gradient and Hessian are in :mod:`mllib.linear_model.logistic_loss`.
"""

import numbers
import warnings

import numpy as np
from scipy import sparse
from scipy.optimize import minimize
from scipy.special import expit, log_expit, log_softmax, softmax
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..exceptions import ConvergenceWarning
from ..optim import gradient_descent
from ..validation import (
    check_random_state,
    check_sample_weight,
    check_scalar,
    encode_classes,
)
from .logistic_loss import (
    logistic_gradient,
    logistic_hessian,
    logistic_loss,
    softmax_gradient,
    softmax_hessian,
    softmax_loss,
)
from .newton import newton_cholesky
from .proximal_newton import proximal_newton
from .saga import saga
from .separation import separating_direction

_SOLVERS = ("newton", "lbfgs", "gd", "liblinear", "saga")
_PENALTIES = ("deprecated", "l2", "l1", "elasticnet", None)


class LogisticRegression(ClassifierMixin, BaseEstimator):
    r"""Penalised maximum-likelihood logistic (``K = 2``) or softmax (``K >
    2``) regression.

    Minimises :math:`C\sum_i s_i\ell_i(W, b) + \rho\lVert W\rVert_1 +
    \frac{1-\rho}2\lVert W\rVert_F^2` (module docstring), :math:`s_i` the
    sample weight times the weight of sample :math:`i`'s class; with
    ``solver="liblinear"`` the intercept is penalised too (see ``solver``).

    ``X`` may be dense or a ``scipy.sparse`` matrix (CSR or CSC), for every
    solver and penalty, in ``fit`` and the predictions; a sparse one is
    never densified (:func:`_design_matrix`).

    Parameters
    ----------
    penalty : {"l2", "l1", "elasticnet", None}, default "deprecated"
        scikit-learn 1.8 deprecated this parameter in favour of ``l1_ratio``
        and ``C``; its default "deprecated" means: the penalty ``l1_ratio``
        describes (``"l2"`` for 0, ``"l1"`` for 1, ``"elasticnet"`` in
        between), none if ``C=np.inf``. Given explicitly, ``"l2"`` and
        ``"l1"`` fix :math:`\rho` to 0 and 1 (a warning if ``l1_ratio``
        says otherwise, as in scikit-learn), ``"elasticnet"`` takes it from
        ``l1_ratio``, and ``None`` removes the penalty (maximum
        likelihood). On separable data the maximum-likelihood estimate does
        not exist, and ``fit`` raises a ``ValueError``. The only positional
        parameter, as in scikit-learn.
    C : float, default 1.0
        Inverse penalty strength: the objective is
        :math:`C\sum_i s_i\ell_i + r(W)`, the intercepts unpenalised (the
        same as scikit-learn's; not with ``solver="liblinear"``).
        ``C=np.inf`` means no penalty.
    l1_ratio : float in [0, 1], default 0.0
        The :math:`\ell_1` share :math:`\rho` of the elastic-net penalty
        :math:`r(W) = \rho\lVert W\rVert_1 +
        \frac{1-\rho}2\lVert W\rVert_F^2`. The larger it is (or the
        smaller ``C``), the more weights are exactly 0.
    fit_intercept : bool, default True
    intercept_scaling : float, default 1.0
        The value of the extra feature whose weight is the intercept, for
        ``solver="liblinear"`` only (the others leave the intercept
        unpenalised and ignore it). The larger it is, the weaker the
        penalty on :math:`b`.
    class_weight : dict, "balanced" or None, default None
        Weights of the classes, multiplying the loss of their samples (so a
        class weight :math:`c` is a per-sample :math:`C` of :math:`cC`):
        ``{label: weight}`` (missing labels weigh 1), or ``"balanced"``,
        :math:`n / (K n_k)` for class :math:`k` with :math:`n_k` samples, so
        that every class carries the same total weight.
    random_state : None, int, Generator or RandomState, default None
        Draws the samples of ``solver="saga"`` (the other solvers draw
        nothing); :func:`mllib.validation.check_random_state`.
    solver : str, default "newton"
        "newton", "lbfgs", "gd", "liblinear" or "saga". Newton's method
        with a Cholesky solve (IRLS), which for an
        :math:`\ell_1` share :math:`\rho > 0` becomes proximal Newton
        (:func:`mllib.linear_model.proximal_newton.proximal_newton`);
        scipy's L-BFGS-B; or gradient descent with the constant step
        :math:`1/L` (:func:`mllib.optim.gradient_descent`). The last two need
        a differentiable objective, so only the ``l2`` penalty or none.
        "liblinear" is LIBLINEAR's objective, two classes only and
        ``l1_ratio`` 0 or 1, as in scikit-learn: the intercept is the weight
        :math:`w_0` of an extra feature equal to ``intercept_scaling``
        (:math:`b = w_0\,\texttt{intercept\_scaling}`) and is *penalised*
        with the other weights, so it shrinks towards 0 unless
        ``intercept_scaling`` is large. mllib minimises it with the same
        (proximal) Newton steps as "newton", LIBLINEAR with a trust-region
        Newton method (:math:`\ell_2`) or newGLMNET (:math:`\ell_1`,
        itself a proximal Newton method; Yuan, Ho & Lin 2012). "saga" is
        the stochastic SAGA method (:mod:`mllib.linear_model.saga`), every
        penalty, with scikit-learn's step-size formula and stopping rule;
        its result depends on ``random_state`` unless ``tol`` is tiny; it
        is much slower here than scikit-learn's compiled loop, and
        "newton" reaches the same minimiser to rounding. scikit-learn's
        other names ("newton-cg", "newton-cholesky", "sag") select its own
        implementations of the objective above and raise a ``ValueError``
        here: its "newton-cholesky" is this "newton". The solvers (but
        "liblinear") minimise the same objective, so the choice changes
        only the time and the stopping rule.
    max_iter : int, default 100
        The largest number of iterations (for "saga", of epochs of
        n samples drawn with replacement).
    tol : float, default 1e-4
        Stop when the gradient of the objective divided by :math:`Cn` is at
        most ``tol`` (max-norm for Newton and L-BFGS, 2-norm for gradient
        descent); with an :math:`\ell_1` share, when the smallest
        subgradient (its max-norm) is, which is zero exactly at the
        minimum. L-BFGS also stops, as scikit-learn's, once a step lowers
        the objective by less than :math:`64\,\varepsilon` relative, which
        can come first for a tiny ``tol``. SAGA, as scikit-learn's, stops
        when an epoch changes no weight by more than ``tol`` times the
        largest weight (intercepts not counted). That heuristic bounds no
        distance to the minimiser: the result is close to it only for a
        ``tol`` much smaller than the default (1e-8, say).
    warm_start : bool, default False
        Start the solver from the previous fit's ``coef_`` and
        ``intercept_`` instead of zero (same number of classes and
        features required). The minimiser is the same; ``n_iter_`` is
        smaller along a sequence of nearby ``C``.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    coef_ : ndarray of shape (1, d) if K = 2, else (K, d)
    intercept_ : ndarray of shape (1,) if K = 2, else (K,)
    n_iter_ : ndarray of shape (1,)
    n_features_in_ : int

    References
    ----------
    Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*,
    §4.4 and §18.4 (the :math:`\ell_1` penalty); Fan, Chang, Hsieh, Wang
    & Lin, LIBLINEAR: A library for large linear classification, JMLR 9
    (2008); Yuan, Ho & Lin, An improved GLMNET for L1-regularized logistic
    regression, JMLR 13 (2012). Equivalent to
    ``sklearn.linear_model.LogisticRegression(C=C, l1_ratio=l1_ratio,
    class_weight=class_weight)`` (with ``solver="saga"`` when
    :math:`\rho > 0`); ``solver="liblinear"`` is scikit-learn's with the
    same ``intercept_scaling``.
    """

    def __init__(
        self,
        penalty="deprecated",
        *,
        C=1.0,
        l1_ratio=0.0,
        fit_intercept=True,
        intercept_scaling=1.0,
        class_weight=None,
        random_state=None,
        solver="newton",
        max_iter=100,
        tol=1e-4,
        warm_start=False,
    ):
        self.penalty = penalty
        self.C = C
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.random_state = random_state
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.warm_start = warm_start

    def fit(self, X, y, sample_weight=None):
        """Fit the model to ``X`` of shape (n_samples, n_features) and labels
        ``y``, optionally weighted by ``sample_weight`` of shape
        (n_samples,); return self."""
        C = check_scalar(self.C, "C", low=0, low_inclusive=False)
        tol = check_scalar(self.tol, "tol", low=0, low_inclusive=False)
        penalised, l1_share = self._penalty(C)
        self._check_solver(penalised, l1_share)
        scaling = check_scalar(
            self.intercept_scaling,
            "intercept_scaling",
            low=0,
            low_inclusive=False,
        )
        if (
            isinstance(self.max_iter, bool)
            or not isinstance(self.max_iter, numbers.Integral)
            or self.max_iter < 1
        ):
            raise ValueError(
                f"max_iter must be a positive integer; got {self.max_iter!r}."
            )
        X, y = validate_data(
            self, X, y, accept_sparse=("csr", "csc"), dtype=np.float64
        )
        classes, y_index = encode_classes(y, estimator=self)
        weights = check_sample_weight(sample_weight, len(y))
        per_class = _class_weights(
            self.class_weight, classes, y_index, weights
        )
        weights = weights * per_class[y_index]  # s_i: sample x class weight
        n, d = X.shape
        K = len(classes)
        liblinear = self.solver == "liblinear"
        if liblinear and K > 2:
            raise ValueError(
                'solver="liblinear" fits two classes only (as in '
                f"scikit-learn); y has {K}. Use another solver, which fits "
                "the multinomial model, or wrap the estimator in "
                "mllib.multiclass.OneVsRestClassifier."
            )
        if not liblinear:
            scaling = 1.0
        # LIBLINEAR penalises the intercept's weight w0 = b / scaling
        free_intercept = self.fit_intercept and not liblinear
        X1 = _design_matrix(X, self.fit_intercept, scaling)
        alpha = 1.0 / (C * n) if penalised else 0.0
        weighted = weights > 0  # samples of weight 0 do not exist for the fit
        if alpha == 0.0 and (
            separating_direction(X1[weighted], y_index[weighted], K)
            is not None
        ):
            raise ValueError(
                "The classes are linearly separable (completely or "
                "quasi-completely), so the "
                "unpenalised maximum-likelihood estimate does not exist: "
                "the likelihood keeps "
                "increasing as the weights grow without bound. Use "
                "a penalty (l1_ratio in [0, 1] with a finite C)."
            )
        start = self._warm_start(K, X1.shape[1], scaling)
        s = None if np.all(weights == 1.0) else weights
        l2, l1 = alpha * (1 - l1_share), alpha * l1_share
        if self.solver == "saga":
            Theta, n_iter = self._saga(
                X1, y_index, K, weights, l2, l1, d, start, tol
            )
        else:
            if K == 2:
                objective = _binary_objective(
                    X1, y_index.astype(float), s, l2, free_intercept
                )
            else:
                objective = _softmax_objective(
                    X1,
                    np.eye(K)[y_index],
                    s,
                    l2,
                    free_intercept,
                    all_rows_free=alpha > 0,
                )
            fun, grad, grad_hess, free, penalised_entries = objective
            if start is None:
                theta0 = np.zeros(np.count_nonzero(free))
            else:
                # move the previous Θ to this parametrisation, in which the
                # fixed entries are 0, by the shifts that leave the loss
                # unchanged: of all intercepts, and of all unpenalised weights
                if K > 2 and self.fit_intercept:
                    start[:, -1] -= start[-1, -1]
                if K > 2 and not free[-1, :d].any():
                    start[:, :d] -= start[-1, :d]
                theta0 = start[free]
            # the step of gradient descent is 1/L; the loss Hessian is at most
            # max(s)‖X‖²/(4n) (binary, p(1-p) ≤ 1/4) or max(s)‖X‖²/(2n)
            # (softmax, Böhning's bound), plus α from the penalty
            lipschitz = lambda: (
                np.linalg.eigvalsh(_dense(X1.T @ X1))[-1]
                * np.max(weights)
                / n
                / (4 if K == 2 else 2)
                + alpha
            )
            if l1 > 0:
                result = proximal_newton(
                    fun,
                    grad_hess,
                    theta0,
                    l1 * penalised_entries,
                    max_iter=self.max_iter,
                    tol=tol,
                )
                theta, n_iter = result.x, result.n_iter
            else:
                theta, n_iter = self._minimise(
                    fun, grad, grad_hess, theta0, lipschitz, tol
                )
            Theta = np.zeros(free.shape)
            Theta[free] = theta
        if K > 2 and self.fit_intercept:
            Theta[:, -1] -= Theta[
                :, -1
            ].mean()  # intercepts are fixed only up to a common shift
        if K > 2 and alpha == 0.0:
            # so are unpenalised weights
            Theta[:, :d] -= Theta[:, :d].mean(axis=0)
        self.classes_ = classes
        self.coef_ = Theta[:, :d].copy()
        self.intercept_ = (
            Theta[:, d] * scaling
            if self.fit_intercept
            else np.zeros(len(Theta))
        )
        self.n_iter_ = np.array([n_iter])
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _penalty(self, C):
        """(penalised, ρ): whether there is a penalty, and its l1 share,
        from ``penalty``, ``l1_ratio`` and ``C`` as scikit-learn reads
        them."""
        if self.penalty not in _PENALTIES:
            raise ValueError(
                'penalty must be "l2", "l1", "elasticnet" or None (or left '
                'at its default, "deprecated": then l1_ratio and C decide); '
                f"got {self.penalty!r}."
            )
        l1_ratio = self.l1_ratio
        if l1_ratio is None:  # deprecated in scikit-learn 1.8: means 0
            warnings.warn(
                "l1_ratio=None was deprecated in scikit-learn 1.8; it means "
                "l1_ratio=0 (the l2 penalty). Use a number in [0, 1].",
                FutureWarning,
                stacklevel=3,
            )
            l1_ratio = 0.0
        l1_ratio = check_scalar(l1_ratio, "l1_ratio", low=0, high=1)
        penalty = self.penalty
        if penalty == "deprecated":
            return not np.isinf(C), float(l1_ratio)
        if (penalty == "l2" and l1_ratio != 0) or (
            penalty == "l1" and l1_ratio != 1
        ):
            warnings.warn(
                f"Inconsistent values: penalty={penalty!r} with "
                f"l1_ratio={l1_ratio}; penalty wins (as in scikit-learn). "
                "Leave penalty at its default and use l1_ratio only.",
                UserWarning,
                stacklevel=3,
            )
        if penalty is None:
            if C != 1.0:
                warnings.warn(
                    "Setting penalty=None ignores the C and l1_ratio "
                    "parameters (as in scikit-learn).",
                    UserWarning,
                    stacklevel=3,
                )
            return False, 0.0
        share = {"l2": 0.0, "l1": 1.0, "elasticnet": float(l1_ratio)}
        return not np.isinf(C), share[penalty]

    def _check_solver(self, penalised, l1_share):
        if self.solver not in _SOLVERS:
            raise ValueError(
                'solver must be "newton", "lbfgs", "gd", "liblinear" or '
                f'"saga"; got {self.solver!r}. scikit-learn\'s other '
                "solvers (newton-cg, newton-cholesky, sag) minimise the same "
                "objective as newton: use solver='newton', or "
                "sklearn.linear_model.LogisticRegression for them."
            )
        if self.solver == "liblinear":
            if not penalised:
                raise ValueError(
                    'solver="liblinear" needs a penalty (as in '
                    "scikit-learn): C=np.inf and penalty=None are not "
                    'supported. Use solver="newton".'
                )
            if l1_share not in (0.0, 1.0):
                raise ValueError(
                    'solver="liblinear" supports l1_ratio 0 or 1 only (as '
                    f"in scikit-learn); got {self.l1_ratio}. Use "
                    'solver="newton" for the elastic net.'
                )
        elif l1_share > 0 and self.solver not in ("newton", "saga"):
            raise ValueError(
                f'solver="{self.solver}" needs a differentiable objective, '
                f"and the l1 part of the penalty (l1_ratio={self.l1_ratio}) "
                'is not differentiable at 0. Use solver="newton", which '
                "runs proximal Newton for l1 and elastic-net penalties."
            )

    def _saga(self, X1, y_index, K, weights, l2, l1, d, start, tol):
        """Θ of shape (1 or K, d') and the number of epochs, by
        :func:`mllib.linear_model.saga.saga` on the objective divided by
        Cn (its α and β are ``l2`` and ``l1``); every class row free."""
        Y = y_index[:, None].astype(float) if K == 2 else np.eye(K)[y_index]
        if start is None:
            start = np.zeros((1 if K == 2 else K, X1.shape[1]))
        Theta, n_epochs, converged = saga(
            X1,
            Y,
            weights,
            l2,
            l1,
            d,
            start,
            max_iter=self.max_iter,
            tol=tol,
            rng=check_random_state(self.random_state),
        )
        if not converged:
            warnings.warn(
                f"SAGA did not converge in max_iter={self.max_iter} epochs "
                f"(the weights still changed by more than tol={self.tol} "
                "of the largest over the last one). Increase max_iter, or "
                'use solver="newton".',
                ConvergenceWarning,
                stacklevel=3,
            )
        return Theta, n_epochs

    def _warm_start(self, K, d_prime, scaling):
        """The previous fit's parameters as Θ of shape (K or 1, d') in the
        solver's parametrisation (the intercept divided by ``scaling``), or
        None for a cold start."""
        if not self.warm_start or not hasattr(self, "coef_"):
            return None
        rows = 1 if K == 2 else K
        d = d_prime - self.fit_intercept
        if self.coef_.shape != (rows, d):
            raise ValueError(
                f"warm_start needs the previous fit's coef_ of shape "
                f"{(rows, d)} for {K} classes and {d} features; it has shape "
                f"{self.coef_.shape}. Set warm_start=False to fit from "
                "scratch."
            )
        Theta = np.column_stack([self.coef_, self.intercept_ / scaling])
        return Theta[:, :d_prime]

    def _minimise(self, fun, grad, grad_hess, theta0, lipschitz, tol):
        if self.solver in ("newton", "liblinear"):
            result = newton_cholesky(
                fun, grad_hess, theta0, max_iter=self.max_iter, tol=tol
            )
            return result.x, result.n_iter
        if self.solver == "lbfgs":
            result = minimize(
                lambda t: (fun(t), grad(t)),
                theta0,
                jac=True,
                method="L-BFGS-B",
                options={
                    "maxiter": self.max_iter,
                    "gtol": tol,
                    "ftol": 64 * np.finfo(float).eps,
                },
            )
            if not result.success:
                warnings.warn(
                    f"L-BFGS-B did not converge: {result.message}. "
                    "Increase max_iter.",
                    ConvergenceWarning,
                    stacklevel=3,
                )
            return result.x, result.nit
        result = gradient_descent(
            fun,
            grad,
            theta0,
            step_size=1 / lipschitz(),
            max_iter=self.max_iter,
            tol=tol,
        )
        return result.x, result.n_iter

    def decision_function(self, X):
        """Scores :math:`Xw + b`: shape (n_samples,) if K = 2 (positive means
        ``classes_[1]``), else (n_samples, K)."""
        check_is_fitted(self)
        X = validate_data(
            self,
            X,
            accept_sparse=("csr", "csc"),
            dtype=np.float64,
            reset=False,
        )
        scores = X @ self.coef_.T + self.intercept_
        return scores.ravel() if len(self.classes_) == 2 else scores

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, K), columns in the order of
        ``classes_``."""
        scores = self.decision_function(X)
        if len(self.classes_) == 2:
            # expit(-z) rather than 1 - expit(z): no cancellation when expit(z)
            # is close to 1
            return np.column_stack([expit(-scores), expit(scores)])
        return softmax(scores, axis=1)

    def predict_log_proba(self, X):
        """Logarithms of :meth:`predict_proba`, computed directly (finite even
        where a probability underflows)."""
        scores = self.decision_function(X)
        if len(self.classes_) == 2:
            return np.column_stack([log_expit(-scores), log_expit(scores)])
        return log_softmax(scores, axis=1)

    def predict(self, X):
        """The most probable class for each row of ``X``, shape
        (n_samples,)."""
        scores = self.decision_function(X)
        if len(self.classes_) == 2:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]


def _binary_objective(X1, y, s, alpha, free_intercept):
    """fun, grad, grad_hess of θ = (w, b), the mask of free entries of
    Θ = θ[None, :] (all), and which free entries are penalised (all but
    the last if ``free_intercept``)."""
    args = (X1, y, alpha, free_intercept, s)
    penalised = np.ones(X1.shape[1])
    penalised[-1] = not free_intercept
    return (
        lambda theta: logistic_loss(theta, *args),
        lambda theta: logistic_gradient(theta, *args),
        lambda theta: (
            logistic_gradient(theta, *args),
            lambda: logistic_hessian(theta, X1, alpha, free_intercept, s),
        ),
        np.ones((1, X1.shape[1]), dtype=bool),
        penalised,
    )


def _softmax_objective(X1, Y, s, alpha, free_intercept, all_rows_free):
    """fun, grad, grad_hess of the free entries θ of Θ (K, d'), the
    mask of free entries, and which of them are penalised.

    Only differences between the class rows of Θ enter the loss.
    Penalised, the weights of every class are free and the penalty
    picks the symmetric solution; unpenalised, the last class's weights
    stay 0 (a reference class, centred after the fit). The last class's
    intercept stays 0 in both cases (centred after the fit).
    """
    K, d_prime = Y.shape[1], X1.shape[1]
    free = np.zeros((K, d_prime), dtype=bool)
    free[: K if all_rows_free else K - 1] = True
    if free_intercept:
        free[-1, -1] = False
    rows = np.flatnonzero(free.any(axis=1))
    keep = free[rows].ravel()
    penalised = np.ones((K, d_prime))
    penalised[:, -1] = not free_intercept
    args = (X1, Y, alpha, free_intercept, s)

    def unpack(theta):
        Theta = np.zeros((K, d_prime))
        Theta[free] = theta
        return Theta

    def grad(theta):
        return softmax_gradient(unpack(theta), *args)[free]

    def hess(theta):
        H = softmax_hessian(unpack(theta), X1, alpha, free_intercept, rows, s)
        return H[np.ix_(keep, keep)]

    def grad_hess(theta):  # the Hessian only if Newton needs it
        return grad(theta), lambda: hess(theta)

    fun = lambda theta: softmax_loss(unpack(theta), *args)  # noqa: E731
    return fun, grad, grad_hess, free, penalised[free]


def _design_matrix(X, fit_intercept, scaling=1.0):
    """``X`` with a column of ones (or of ``scaling``, LIBLINEAR's
    ``intercept_scaling``) appended for the intercept, the design matrix of
    the solvers (the caller's ``X`` is never modified).

    A dense one is Fortran-ordered, so that BLAS reads its columns without
    copies when forming XᵀWX. A sparse one stays sparse, in CSR format, and
    the intercept's column is stored as n more entries: the intercept needs
    no centring of X, which would fill in every zero.
    """
    if sparse.issparse(X):
        if fit_intercept:
            column = np.full((X.shape[0], 1), scaling)
            return sparse.hstack([X, column], format="csr")
        return X.tocsr()
    return np.asfortranarray(
        np.column_stack([X, np.full(len(X), scaling)]) if fit_intercept else X
    )


def _dense(A):
    """``A`` as an ndarray: a product of sparse matrices is sparse."""
    return A.toarray() if sparse.issparse(A) else A


def _class_weights(class_weight, classes, y_index, sample_weight):
    """The weight of each class, shape (K,), from ``class_weight``: None
    (all 1), ``"balanced"`` (n / (K n_k), with n and n_k counted in sample
    weights, as scikit-learn does) or a dict {label: weight}."""
    if class_weight is None:
        return np.ones(len(classes))
    if isinstance(class_weight, str) and class_weight == "balanced":
        counts = np.bincount(
            y_index, weights=sample_weight, minlength=len(classes)
        )
        return counts.sum() / (len(classes) * counts)
    if not isinstance(class_weight, dict):
        raise ValueError(
            'class_weight must be None, "balanced" or a dict {label: '
            f"weight}}; got {class_weight!r}."
        )
    # scikit-learn's rule: labels absent from y are ignored when every class
    # has a weight (say, a cross-validation fold without some class), and
    # are an error otherwise, as they are then most likely misspelt
    unweighted = [label for label in classes if label not in class_weight]
    if unweighted and len(classes) - len(unweighted) != len(class_weight):
        raise ValueError(
            f"The classes, {unweighted}, are not in class_weight, and some "
            "of its keys are not classes of y. Name every class, or only "
            "classes of y."
        )
    weights = np.array(
        [class_weight.get(label, 1.0) for label in classes], dtype=float
    )
    if np.any(weights < 0) or not np.all(np.isfinite(weights)):
        raise ValueError(
            "class_weight must be finite and non-negative; got "
            f"{class_weight}."
        )
    return weights
