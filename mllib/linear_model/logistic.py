r"""Logistic regression, binary and multinomial, with scikit-learn's objective.

For labels :math:`y_i\in\{0,1\}` (``classes_[1]`` is class 1) and
:math:`p_i=\sigma(w^\top x_i+b)`,

.. math::

    \min_{w,b}\ C\sum_{i=1}^n \Bigl(-y_i\log p_i - (1-y_i)\log(1-p_i)\Bigr)
        + \tfrac12\lVert w\rVert^2,

the same as scikit-learn's :math:`C\sum_i\log(1+e^{-\tilde y_i(w^\top
x_i+b)})+\frac12\lVert w\rVert^2` with :math:`\tilde y_i=2y_i-1`. With
:math:`K>2` classes it is the softmax (multinomial) model in the symmetric
parametrisation: one weight vector per class, all penalised, so that
:math:`\sum_k w_k=0` at the optimum, and intercepts normalised to sum to zero.
The loss, gradient and Hessian are in :mod:`mllib.linear_model.logistic_loss`.
"""

import numbers
import warnings

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, log_expit, log_softmax, softmax
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..exceptions import ConvergenceWarning
from ..optim import gradient_descent
from ..validation import check_scalar, encode_classes
from .logistic_loss import (
    logistic_gradient,
    logistic_hessian,
    logistic_loss,
    softmax_gradient,
    softmax_hessian,
    softmax_loss,
)
from .newton import newton_cholesky
from .separation import separating_direction


class LogisticRegression(ClassifierMixin, BaseEstimator):
    r"""Penalised maximum-likelihood logistic (``K = 2``) or softmax (``K >
    2``) regression.

    Parameters
    ----------
    penalty : {"l2", None}, default "l2"
        ``None`` removes the penalty (maximum likelihood). On separable data
        the maximum- likelihood estimate does not exist, and ``fit`` raises a
        ``ValueError``. The only positional parameter, as in scikit-learn.
    C : float, default 1.0
        Inverse penalty strength: the objective is
        :math:`C\sum_i\ell_i+\frac12\lVert W\rVert_F^2`, the intercepts
        unpenalised (the same as scikit-learn's). ``C=np.inf`` means no
        penalty.
    fit_intercept : bool
    solver : {"newton", "lbfgs", "gd"}
        Newton's method with a Cholesky solve (IRLS), scipy's L-BFGS-B, or
        gradient descent with the constant step :math:`1/L`
        (:func:`mllib.optim.gradient_descent`).
    max_iter : int
    tol : float
        Stop when the gradient of the objective divided by :math:`Cn` is at
        most ``tol`` (max-norm for Newton and L-BFGS, 2-norm for gradient
        descent).

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
    §4.4. Equivalent to ``sklearn.linear_model.LogisticRegression(C=C)``
    (``C=np.inf`` for ``penalty=None``).
    """

    def __init__(
        self,
        penalty="l2",
        *,
        C=1.0,
        fit_intercept=True,
        solver="newton",
        max_iter=100,
        tol=1e-4,
    ):
        self.C = C
        self.penalty = penalty
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol

    def fit(self, X, y):
        """Fit the model to ``X`` of shape (n_samples, n_features) and labels
        ``y``; return self."""
        C = check_scalar(self.C, "C", low=0, low_inclusive=False)
        tol = check_scalar(self.tol, "tol", low=0, low_inclusive=False)
        if self.penalty not in ("l2", None):
            raise ValueError(
                f'penalty must be "l2" or None; got {self.penalty!r}.'
            )
        if self.solver not in ("newton", "lbfgs", "gd"):
            raise ValueError(
                'solver must be "newton", "lbfgs" or "gd"; got '
                f"{self.solver!r}."
            )
        if (
            not isinstance(self.max_iter, numbers.Integral)
            or self.max_iter < 1
        ):
            raise ValueError(
                f"max_iter must be a positive integer; got {self.max_iter!r}."
            )
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_index = encode_classes(y, estimator=self)
        n, d = X.shape
        K = len(self.classes_)
        # a new Fortran-ordered design matrix (the caller's X is untouched):
        # BLAS reads its columns without copies when forming XᵀWX
        X1 = np.asfortranarray(
            np.column_stack([X, np.ones(n)]) if self.fit_intercept else X
        )
        alpha = 0.0 if self.penalty is None or np.isinf(C) else 1.0 / (C * n)
        if alpha == 0.0 and separating_direction(X1, y_index, K) is not None:
            raise ValueError(
                "The classes are linearly separable (completely or "
                "quasi-completely), so the "
                "unpenalised maximum-likelihood estimate does not exist: "
                "the likelihood keeps "
                "increasing as the weights grow without bound. Use "
                'penalty="l2" with a finite C.'
            )
        if K == 2:
            objective = self._binary_objective(
                X1, y_index.astype(float), alpha
            )
        else:
            objective = self._softmax_objective(X1, np.eye(K)[y_index], alpha)
        fun, grad, grad_hess, theta0, unpack = objective
        # the step of gradient descent is 1/L; the loss Hessian is at most
        # ‖X‖²/(4n) (binary, p(1-p) ≤ 1/4) or ‖X‖²/(2n) (softmax, Böhning's
        # bound), plus α from the penalty
        lipschitz = lambda: (
            np.linalg.eigvalsh(X1.T @ X1)[-1] / n / (4 if K == 2 else 2)
            + alpha
        )
        theta, n_iter = self._minimise(
            fun, grad, grad_hess, theta0, lipschitz, tol
        )
        Theta = unpack(theta)
        if K > 2 and self.fit_intercept:
            Theta[:, -1] -= Theta[
                :, -1
            ].mean()  # intercepts are fixed only up to a common shift
        if K > 2 and alpha == 0.0:
            # so are unpenalised weights
            Theta[:, :d] -= Theta[:, :d].mean(axis=0)
        self.coef_ = Theta[:, :d].copy()
        self.intercept_ = (
            Theta[:, d].copy() if self.fit_intercept else np.zeros(len(Theta))
        )
        self.n_iter_ = np.array([n_iter])
        return self

    def _binary_objective(self, X1, y, alpha):
        """fun, grad, grad_hess, start of θ = (w, b), and the map θ -> Θ of
        shape (1, d')."""
        args = (X1, y, alpha, self.fit_intercept)
        return (
            lambda theta: logistic_loss(theta, *args),
            lambda theta: logistic_gradient(theta, *args),
            lambda theta: (
                logistic_gradient(theta, *args),
                lambda: logistic_hessian(theta, X1, alpha, self.fit_intercept),
            ),
            np.zeros(X1.shape[1]),
            lambda theta: theta[None, :],
        )

    def _softmax_objective(self, X1, Y, alpha):
        """fun, grad, grad_hess, start of the free entries of Θ, and the map to
        the full Θ (K, d').

        Only differences between the class rows of Θ enter the loss. Penalised,
        the weights of every class are free and the penalty picks the symmetric
        solution; unpenalised, the last class's weights stay 0 (a reference
        class, centred after the fit). The last class's intercept stays 0 in
        both cases (centred after the fit).
        """
        K, d_prime = Y.shape[1], X1.shape[1]
        free = np.zeros((K, d_prime), dtype=bool)
        free[: K if alpha > 0 else K - 1] = True
        if self.fit_intercept:
            free[-1, -1] = False
        rows = np.flatnonzero(free.any(axis=1))
        keep = free[rows].ravel()
        args = (X1, Y, alpha, self.fit_intercept)

        def unpack(theta):
            Theta = np.zeros((K, d_prime))
            Theta[free] = theta
            return Theta

        def grad(theta):
            return softmax_gradient(unpack(theta), *args)[free]

        def hess(theta):
            H = softmax_hessian(
                unpack(theta), X1, alpha, self.fit_intercept, rows
            )
            return H[np.ix_(keep, keep)]

        def grad_hess(theta):  # the Hessian only if Newton needs it
            return grad(theta), lambda: hess(theta)

        fun = lambda theta: softmax_loss(unpack(theta), *args)  # noqa: E731
        return fun, grad, grad_hess, np.zeros(np.count_nonzero(free)), unpack

    def _minimise(self, fun, grad, grad_hess, theta0, lipschitz, tol):
        if self.solver == "newton":
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
        X = validate_data(self, X, dtype=np.float64, reset=False)
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
