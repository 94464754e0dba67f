r"""The support vector classifier: SMO on the dual, one-vs-one for more than
two classes, Platt scaling for probabilities (libsvm's C-SVC)."""

import itertools
import numbers

import numpy as np
from scipy.optimize import linprog
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import compute_class_weight
from sklearn.utils.validation import check_is_fitted, validate_data

from ..kernels import check_psd, is_psd_by_construction, pairwise_kernels
from ..multiclass import ovr_decision_function
from ..validation import (
    available_if,
    check_sample_weight,
    check_scalar,
    encode_classes,
)
from .kernel_cache import KernelRows
from .probability import (
    libsvm_permutation,
    libsvm_seed,
    pairwise_coupling,
    platt_fit,
    platt_predict,
)
from .smo import smo

KERNELS = ("linear", "poly", "rbf", "sigmoid", "precomputed")
N_FOLDS = 5  # libsvm's cross-validation for Platt scaling


def _has_probabilities(svc):
    """``predict_proba`` and ``predict_log_proba`` need Platt's sigmoids,
    fitted only with ``probability=True``."""
    if not svc.probability:
        raise AttributeError(
            "predict_proba and predict_log_proba are not available when "
            "probability=False; set probability=True and fit again."
        )


class SVC(ClassifierMixin, BaseEstimator):
    r"""Soft- or hard-margin support vector classifier (libsvm's C-SVC).

    For two classes, labels :math:`y_i\in\{-1,+1\}`, it minimises over
    :math:`w` in the kernel's feature space and an unpenalised intercept
    :math:`b`

    .. math::

        \tfrac12\lVert w\rVert^2
              + \sum_{i=1}^n C_i\max\bigl(0,\ 1 - y_i(w^\top\phi(x_i) + b)
              \bigr),
        \qquad C_i = C\,w_{y_i}\,s_i,

    where :math:`w_c` is the weight of class :math:`c` (``class_weight``)
    and :math:`s_i` that of sample :math:`i` (``sample_weight``); without
    weights every :math:`C_i = C`. It solves the dual,

    .. math::

        \max_\alpha \sum_i\alpha_i
        - \tfrac12\sum_{ij}\alpha_i\alpha_jy_iy_jk(x_i,x_j)
        \quad\text{s.t.}\quad \sum_i\alpha_iy_i = 0,\quad
        0\le\alpha_i\le C_i,

    by :func:`mllib.svm.smo`: the weights only move the upper end of each
    multiplier's box. ``C=np.inf`` is the hard margin. The decision
    function is :math:`f(x) = \sum_i\alpha_iy_ik(x_i, x) + b`, a sum over
    the support vectors (:math:`\alpha_i>0`).

    **More than two classes: one-vs-one**, as libsvm. For each pair of
    classes :math:`i<j` (indices into ``classes_``) a two-class problem is
    solved on the samples of those two classes, class :math:`i` as
    :math:`+1`, giving :math:`f_{ij}`. ``predict`` counts the votes,
    :math:`f_{ij}(x)>0` for :math:`i` and otherwise for :math:`j`, and
    returns the class with the most (the first of them on a tie).
    ``decision_function`` returns the :math:`K(K-1)/2` values
    :math:`f_{ij}` (``decision_function_shape="ovo"``) or, by default
    (``"ovr"``), :math:`K` scores: the votes plus the summed confidences
    squashed into :math:`(-\frac13, \frac13)`
    (:func:`mllib.multiclass.ovr_decision_function`), which reorder tied
    classes but never overturn a vote.

    **Probabilities** (``probability=True``): for each pair, Platt's
    sigmoid :math:`P(i\mid f_{ij}) = 1/(1+e^{Af_{ij}+B})` is fitted on
    decision values from a 5-fold cross-validation of that pair's problem
    (libsvm's ``svm_binary_svc_probability``; the folds are libsvm's for
    ``random_state``); the pairwise probabilities are then coupled into
    one distribution (Wu, Lin & Weng 2004, method 2). See
    :mod:`mllib.svm.probability`. The cross-validated sigmoid need not
    agree with the vote, so ``predict_proba(X).argmax(axis=1)`` can differ
    from ``predict(X)`` (as in scikit-learn), mostly near the boundary.

    Same parameters, objective and fitted attributes as ``sklearn.svm.SVC``
    (where scikit-learn 1.9 deprecates ``probability``, mllib keeps it: it
    is Platt scaling, which the book teaches). Differences: labels of
    samples with zero weight are dropped before fitting, and ``support_``
    indexes the rows of ``X`` (scikit-learn's indexes the rows left after
    dropping them, scikit-learn issue #25380); a callable or precomputed
    kernel must be positive semi-definite on the training data (libsvm fits
    any matrix); negative sample weights are refused (libsvm drops them).

    Parameters
    ----------
    C : float
        Penalty on the margin violations, in :math:`(0, \infty]`.
    kernel : {"rbf", "linear", "poly", "sigmoid", "precomputed"} or callable
        ``"sigmoid"`` is :math:`\tanh(\gamma x^\top t + c_0)`, which is not
        positive semi-definite in general: the dual is then not concave,
        and SMO (as libsvm, with the curvature floor ``TAU``) stops at a
        point where the KKT conditions hold, not necessarily the global
        maximum (Lin & Lin, 2003). Which one depends on the path; SMO
        takes libsvm's (same pairs, ties broken alike, see
        :mod:`mllib.svm.smo`) wherever rounding does not decide a tie.
        ``"precomputed"``: ``X`` is the Gram matrix, of shape (n_samples,
        n_samples) in ``fit`` and (n_test, n_samples) afterwards. A
        callable is called as ``kernel(X, Y)`` and must return the Gram
        matrix. Callables and precomputed matrices are checked to be
        positive semi-definite on the training data.
    degree : int
        Degree of the ``"poly"`` kernel :math:`(\gamma x^\top t + c_0)^p`.
    gamma : {"scale", "auto"} or float
        Kernel width for ``"rbf"``, ``"poly"`` and ``"sigmoid"``:
        ``"scale"`` is :math:`1/(d\operatorname{Var}(X))`, ``"auto"`` is
        :math:`1/d`.
    coef0 : float
        The offset :math:`c_0` of ``"poly"`` and ``"sigmoid"``.
    shrinking : bool
        Set aside multipliers that are settled at a bound (libsvm's
        shrinking; see :func:`mllib.svm.smo`). The solution is the same.
    probability : bool
        Fit Platt's sigmoids, for ``predict_proba``; five extra fits per
        pair of classes.
    tol : float
        SMO stops when the maximal KKT violation is below ``tol`` (libsvm's
        ``eps``).
    cache_size : float
        Megabytes for the rows of the Gram matrix that SMO keeps
        (:class:`KernelRows`), per pair of classes.
    class_weight : dict, "balanced" or None
        Multiplies ``C`` for the samples of each class; ``"balanced"`` is
        :math:`n/(K n_c)`.
    verbose : bool
        Print one line per two-class problem solved.
    max_iter : int
        Maximum number of SMO steps per two-class problem, ``-1`` for no
        limit.
    decision_function_shape : {"ovr", "ovo"}
        See above; ignored for two classes.
    break_ties : bool
        With ``"ovr"`` and more than two classes, ``predict`` returns the
        argmax of ``decision_function`` (ties in the vote broken by the
        confidences) instead of the first class with the most votes.
    random_state : None, int, numpy.random.Generator or RandomState
        Draws the cross-validation folds of ``probability=True``, with
        libsvm's generator seeded as scikit-learn seeds it
        (:func:`~mllib.svm.probability.libsvm_seed`), so that an int gives
        scikit-learn's folds.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        The labels, sorted; for two classes ``classes_[1]`` is the one with
        positive decision values.
    class_weight_ : ndarray of shape (K,)
        The class weights :math:`w_c`.
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors (the samples with :math:`\alpha>0` in
        at least one pairwise problem), grouped by class in the order of
        ``classes_``, increasing within a class.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        Empty, of shape (0, 0), for ``kernel="precomputed"``.
    n_support_ : ndarray of shape (K,)
        Number of support vectors of each class.
    dual_coef_ : ndarray of shape (K - 1, n_SV)
        :math:`\alpha y` in libsvm's layout: for the pair :math:`(i, j)`,
        the coefficients of the support vectors of class :math:`i` are in
        row :math:`j-1` and those of class :math:`j` in row :math:`i`, with
        :math:`y=+1` for class :math:`i`. For two classes, the one row is
        oriented as the decision function (positive for ``classes_[1]``).
    intercept_ : ndarray of shape (K(K-1)/2,)
        :math:`b` of each pairwise problem, in the order (0, 1), (0, 2),
        ..., (K-2, K-1): the mean of :math:`y_t - \sum_s\alpha_sy_sk_{st}`
        over the free support vectors, or the middle of the interval the
        KKT conditions allow when there is none (libsvm's rule).
    coef_ : ndarray of shape (K(K-1)/2, n_features)
        :math:`w=\sum_i\alpha_iy_ix_i` of each pair; only for
        ``kernel="linear"``.
    probA_, probB_ : ndarray of shape (K(K-1)/2,)
        Platt's :math:`(A, B)` of each pair, for its libsvm-oriented
        decision value (positive for class :math:`i`); empty unless
        ``probability=True``.
    fit_status_ : int
        0, or 1 when some problem stopped at ``max_iter``.
    n_iter_ : ndarray of shape (K(K-1)/2,)
        Number of SMO steps of each pairwise problem.
    shape_fit_ : tuple
        Shape of the training ``X``.
    n_features_in_ : int

    References
    ----------
    Cortes & Vapnik (1995); Chang & Lin (2011), *LIBSVM: a library for
    support vector machines*, ACM TIST 2; Fan, Chen & Lin (2005); Hsu & Lin
    (2002), *A comparison of methods for multiclass support vector
    machines*; Platt (2000); Lin, Lin & Weng (2007); Wu, Lin & Weng (2004);
    Lin & Lin (2003), *A study on sigmoid kernels for SVM and the training
    of non-PSD kernels by SMO-type methods*.
    """

    def __init__(
        self,
        *,
        C=1.0,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        shrinking=True,
        probability=False,
        tol=1e-3,
        cache_size=200,
        class_weight=None,
        verbose=False,
        max_iter=-1,
        decision_function_shape="ovr",
        break_ties=False,
        random_state=None,
    ):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.probability = probability
        self.tol = tol
        self.cache_size = cache_size
        self.class_weight = class_weight
        self.verbose = verbose
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self._precomputed
        return tags

    @property
    def _precomputed(self):
        return isinstance(self.kernel, str) and self.kernel == "precomputed"

    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` of shape (n_samples, n_features), or the Gram matrix
        (n_samples, n_samples) for ``kernel="precomputed"``, and labels
        ``y``; ``sample_weight`` rescales ``C`` per sample. Return self."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        C, tol = self._check_params()
        if self._precomputed and X.shape[0] != X.shape[1]:
            raise ValueError(
                "Precomputed matrix must be a square matrix. Input is a "
                f"{X.shape[0]}x{X.shape[1]} matrix."
            )
        self.classes_, index = encode_classes(y, estimator=self)
        self.class_weight_ = compute_class_weight(
            self.class_weight, classes=self.classes_, y=y
        )
        sample_weight = check_sample_weight(sample_weight, len(y))
        # libsvm drops the samples whose bound C_i would be 0: their
        # multipliers cannot move
        kept = (sample_weight > 0) & (self.class_weight_[index] > 0)
        bounds = np.zeros(len(y))
        bounds[kept] = (
            C * self.class_weight_[index[kept]] * sample_weight[kept]
        )
        self._check_classes_kept(index, kept)
        self._gamma = self._resolve_gamma(X)
        gram = _TrainingKernel(self, X, C)
        seed = libsvm_seed(self.random_state) if self.probability else None
        n_classes = len(self.classes_)
        pairs = list(itertools.combinations(range(n_classes), 2))
        members = [
            np.flatnonzero(kept & (index == c)) for c in range(n_classes)
        ]
        alphas, intercepts, n_iter, stopped = [], [], [], False
        prob_a, prob_b = [], []
        for i, j in pairs:
            # libsvm's layout: the samples of class i (+1), then of j (-1)
            rows = np.concatenate([members[i], members[j]])
            signs = np.where(index[rows] == i, 1.0, -1.0)
            if self.probability:
                A, B = self._platt_parameters(gram, rows, signs, bounds, seed)
                prob_a.append(A)
                prob_b.append(B)
            result = self._solve(gram, rows, signs, bounds[rows], tol)
            alphas.append((rows, result.alpha))
            intercepts.append(result.intercept)
            n_iter.append(result.n_iter)
            stopped |= not result.converged
            if self.verbose:
                print(
                    f"[mllib SVC] classes {self.classes_[i]!r} vs "
                    f"{self.classes_[j]!r}: {result.n_iter} SMO steps, "
                    f"{np.count_nonzero(result.alpha)} support vectors"
                )
        self._store_solution(X, index, pairs, alphas)
        self._intercept_ = np.array(intercepts)
        self.n_iter_ = np.array(n_iter, dtype=np.int32)
        self.fit_status_ = int(stopped)
        self.shape_fit_ = X.shape
        self.probA_, self.probB_ = np.array(prob_a), np.array(prob_b)
        # two classes: oriented as the decision function, positive for
        # classes_[1], as scikit-learn does
        sign = -1.0 if n_classes == 2 else 1.0
        self.dual_coef_ = sign * self._dual_coef_
        self.intercept_ = sign * self._intercept_
        return self

    def _check_params(self):
        C = check_scalar(self.C, "C", low=0, low_inclusive=False)
        tol = check_scalar(self.tol, "tol", low=0, low_inclusive=False)
        check_scalar(self.cache_size, "cache_size", low=0, low_inclusive=False)
        if not isinstance(self.max_iter, numbers.Integral) or not (
            self.max_iter == -1 or self.max_iter > 0
        ):
            raise ValueError(
                "max_iter must be a positive integer or -1 (no limit); "
                f"got {self.max_iter!r}."
            )
        if not (callable(self.kernel) or self.kernel in KERNELS):
            raise ValueError(
                f"kernel must be one of {', '.join(map(repr, KERNELS))} or "
                f"a callable; got {self.kernel!r}."
            )
        if self.decision_function_shape not in ("ovr", "ovo"):
            raise ValueError(
                "decision_function_shape must be 'ovr' or 'ovo'; got "
                f"{self.decision_function_shape!r}."
            )
        return C, tol

    def _check_classes_kept(self, index, kept):
        empty = [
            self.classes_[c]
            for c in range(len(self.classes_))
            if not np.any(kept & (index == c))
        ]
        if empty:
            raise ValueError(
                f"Every sample of class(es) {empty} has a zero weight "
                "(sample_weight or class_weight), so their bound C_i = 0: "
                "no sample of these classes can be a support vector and the "
                "pairwise problems with them have no solution. Give them "
                "positive weights or leave those classes out of y."
            )

    def _solve(self, gram, rows, signs, bounds, tol):
        """SMO on the two-class problem of the samples ``rows``."""
        K = gram.block(rows)
        if np.isinf(self.C):
            _check_separable(np.asarray(K), signs)
        return smo(
            K,
            signs,
            bounds,
            tol=tol,
            max_iter=self.max_iter,
            shrinking=self.shrinking,
        )

    def _platt_parameters(self, gram, rows, signs, bounds, seed):
        r"""Platt's :math:`(A, B)` for one pair, fitted on the decision
        values of a 5-fold cross-validation (libsvm's
        ``svm_binary_svc_probability``): a random permutation cut into
        five consecutive folds; a training part with one class only gives
        its held-out points the decision value :math:`\pm1`.

        The permutation is libsvm's own for ``seed``
        (:func:`libsvm_permutation`), drawn afresh for every pair, as
        libsvm does (training each fold's model re-seeds its generator):
        the folds, and so the probabilities, are scikit-learn's for the
        same integer ``random_state``.
        """
        n = len(rows)
        order = libsvm_permutation(seed, n)
        decision = np.zeros(n)
        for fold in range(N_FOLDS):
            begin, end = fold * n // N_FOLDS, (fold + 1) * n // N_FOLDS
            held = order[begin:end]
            train = np.concatenate([order[:begin], order[end:]])
            has_pos = np.any(signs[train] > 0)
            has_neg = np.any(signs[train] < 0)
            if not (has_pos and has_neg):
                decision[held] = 1.0 if has_pos else -1.0 if has_neg else 0.0
                continue
            result = self._solve(
                gram, rows[train], signs[train], bounds[rows[train]], self.tol
            )
            support = result.alpha > 0
            coefficients = (result.alpha * signs[train])[support]
            cross = gram.cross(rows[held], rows[train][support])
            decision[held] = cross @ coefficients + result.intercept
        return platt_fit(decision, signs > 0)

    def _store_solution(self, X, index, pairs, alphas):
        """``support_``, ``support_vectors_``, ``n_support_`` and the dual
        coefficients in libsvm's layout (``_dual_coef_``)."""
        n, n_classes = len(index), len(self.classes_)
        support_mask = np.zeros(n, dtype=bool)
        for rows, alpha in alphas:
            support_mask[rows[alpha > 0]] = True
        self.support_ = np.concatenate(
            [
                np.flatnonzero(support_mask & (index == c))
                for c in range(n_classes)
            ]
        )
        self.n_support_ = np.bincount(
            index[self.support_], minlength=n_classes
        ).astype(np.int32)
        position = np.full(n, -1)
        position[self.support_] = np.arange(len(self.support_))
        dual = np.zeros((n_classes - 1, len(self.support_)))
        for (i, j), (rows, alpha) in zip(pairs, alphas):
            support = alpha > 0
            of_i = support & (index[rows] == i)
            of_j = support & (index[rows] == j)
            # classifier (i, j): class i's coefficients (y = +1) in row
            # j - 1, class j's (y = -1) in row i
            dual[j - 1, position[rows[of_i]]] = alpha[of_i]
            dual[i, position[rows[of_j]]] = -alpha[of_j]
        self._dual_coef_ = dual
        self.support_vectors_ = (
            np.empty((0, 0)) if self._precomputed else X[self.support_]
        )

    def _pair_coefficients(self):
        r"""The (n_SV, K(K-1)/2) matrix whose column :math:`(i, j)` holds
        :math:`\alpha y` of that pair's problem (zero for the support
        vectors of the other classes), so that every pairwise decision
        value is one column of :math:`K(X, SV)\,W`."""
        n_classes = len(self.classes_)
        ends = np.cumsum(self.n_support_)
        starts = ends - self.n_support_
        columns = []
        for i, j in itertools.combinations(range(n_classes), 2):
            column = np.zeros(len(self.support_))
            block_i, block_j = (
                slice(starts[i], ends[i]),
                slice(starts[j], ends[j]),
            )
            column[block_i] = self._dual_coef_[j - 1, block_i]
            column[block_j] = self._dual_coef_[i, block_j]
            columns.append(column)
        return np.column_stack(columns)

    @property
    def coef_(self):
        r""":math:`w=\sum_i\alpha_iy_ix_i` of each pairwise problem, shape
        (K(K-1)/2, n_features); only for ``kernel="linear"``. For two
        classes, positive for ``classes_[1]``."""
        if not (isinstance(self.kernel, str) and self.kernel == "linear"):
            raise AttributeError(
                "coef_ exists only for kernel='linear'; this SVC has "
                f"kernel={self.kernel!r}."
            )
        check_is_fitted(self)
        if len(self.classes_) == 2:
            return self.dual_coef_ @ self.support_vectors_
        return self._pair_coefficients().T @ self.support_vectors_

    def _pairwise_decision(self, X):
        r"""libsvm's decision values :math:`f_{ij}(x)`, shape (n_samples,
        K(K-1)/2), positive for class :math:`i` of each pair."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if self._precomputed:
            if X.shape[1] != self.shape_fit_[0]:
                raise ValueError(
                    f"X.shape[1] = {X.shape[1]} should be equal to "
                    f"{self.shape_fit_[0]}, the number of samples at "
                    "training time."
                )
            cross = X[:, self.support_]
        else:
            cross = self._kernel(X, self.support_vectors_)
        return cross @ self._pair_coefficients() + self._intercept_

    def decision_function(self, X):
        r"""Decision values.

        Two classes: :math:`f(x)`, shape (n_samples,), positive for
        ``classes_[1]``. More: shape (n_samples, K(K-1)/2) with the
        pairwise :math:`f_{ij}` (positive for class :math:`i`) if
        ``decision_function_shape="ovo"``; shape (n_samples, K), votes plus
        squashed confidences, if ``"ovr"``.
        """
        decision = self._pairwise_decision(X)
        if len(self.classes_) == 2:
            return -decision[:, 0]
        if self.decision_function_shape == "ovr":
            # j wins the pair (i, j) where f_ij < 0, with confidence -f_ij
            return ovr_decision_function(
                decision < 0, -decision, len(self.classes_)
            )
        return decision

    def predict(self, X):
        """The class with the most pairwise votes (the first on a tie, or
        the argmax of the 'ovr' decision function with ``break_ties``),
        shape (n_samples,)."""
        if self.break_ties and self.decision_function_shape == "ovo":
            raise ValueError(
                "break_ties must be False when decision_function_shape is "
                "'ovo'."
            )
        check_is_fitted(self)
        if self.break_ties and len(self.classes_) > 2:
            return self.classes_[np.argmax(self.decision_function(X), axis=1)]
        return self.classes_[self._votes(self._pairwise_decision(X)).argmax(1)]

    def _votes(self, decision):
        """libsvm's vote: f_ij > 0 for i, otherwise (0 included) for j."""
        votes = np.zeros((len(decision), len(self.classes_)), dtype=int)
        pairs = itertools.combinations(range(len(self.classes_)), 2)
        for p, (i, j) in enumerate(pairs):
            votes[:, i] += decision[:, p] > 0
            votes[:, j] += decision[:, p] <= 0
        return votes

    @available_if(_has_probabilities)
    def predict_proba(self, X):
        r"""Class probabilities, shape (n_samples, K), rows summing to one,
        columns in the order of ``classes_``: Platt's sigmoid on each
        pairwise decision value, clipped to :math:`[10^{-7}, 1-10^{-7}]`,
        then pairwise coupling. For two classes the coupling's exact
        answer is the sigmoid's :math:`[r, 1-r]`; libsvm (in the version
        scikit-learn ships) runs the iteration anyway, which stops within
        its tolerance of it, and so does this method, to give the same
        numbers. Only with ``probability=True``."""
        decision = self._pairwise_decision(X)
        if self.probA_.size == 0:
            raise ValueError(
                "predict_proba is not available: this SVC was fitted with "
                "probability=False; set probability=True and fit again."
            )
        r_first = platt_predict(decision, self.probA_, self.probB_)
        n_classes = len(self.classes_)
        r = np.zeros((len(decision), n_classes, n_classes))
        pairs = itertools.combinations(range(n_classes), 2)
        for p, (i, j) in enumerate(pairs):
            r[:, i, j], r[:, j, i] = r_first[:, p], 1.0 - r_first[:, p]
        return pairwise_coupling(r)

    @available_if(_has_probabilities)
    def predict_log_proba(self, X):
        """The logarithm of ``predict_proba``; only with
        ``probability=True``."""
        return np.log(self.predict_proba(X))

    def _resolve_gamma(self, X):
        if self._precomputed:
            return 0.0  # unused
        if self.gamma == "scale":
            variance = X.var()
            return 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0
        if self.gamma == "auto":
            return 1.0 / X.shape[1]
        if isinstance(self.gamma, str):
            raise ValueError(
                'gamma must be "scale", "auto" or a positive number; '
                f"got {self.gamma!r}."
            )
        return check_scalar(self.gamma, "gamma", low=0, low_inclusive=False)

    def _kernel(self, X, Y):
        if callable(self.kernel):
            return pairwise_kernels(X, Y, self.kernel)
        if self.kernel == "sigmoid":
            return np.tanh(self._gamma * (X @ Y.T) + self.coef0)
        return pairwise_kernels(
            X,
            Y,
            self.kernel,
            gamma=self._gamma,
            degree=self.degree,
            coef0=self.coef0,
        )


class _TrainingKernel:
    """The kernel on the training samples, as the two-class problems need
    it: ``block(rows)`` for SMO and ``cross(a, b)`` for decision values.

    Whole-matrix mode (a kernel that must be checked to be positive
    semi-definite, a precomputed one, or the hard margin, whose
    separability check needs every entry): the Gram matrix once, sliced.
    Otherwise rows on demand (:class:`KernelRows`, one cache per problem,
    as libsvm). ``"sigmoid"`` is not checked: libsvm offers it by name
    although it is not positive semi-definite in general.
    """

    def __init__(self, svc, X, C):
        self.svc, self.X = svc, X
        sigmoid = svc.kernel == "sigmoid"
        needs_check = not sigmoid and not is_psd_by_construction(
            svc.kernel, svc.degree, svc.coef0
        )
        if svc._precomputed:
            self.matrix = X
        elif needs_check or np.isinf(C):
            self.matrix = svc._kernel(X, X)
        else:
            self.matrix = None
        if needs_check:
            # a precomputed matrix may come rounded to single precision
            # (relative error ~1e-7 per entry), a callable's is computed here
            check_psd(
                self.matrix,
                tol=1e-6 if svc._precomputed else 1e-8,
                name="The Gram matrix of the kernel on the training data",
            )

    def block(self, rows):
        if self.matrix is not None:
            return self.matrix[np.ix_(rows, rows)]
        svc = self.svc
        return KernelRows(
            self.X[rows],
            svc.kernel,
            svc.cache_size,
            gamma=svc._gamma,
            degree=svc.degree,
            coef0=svc.coef0,
        )

    def cross(self, a, b):
        if self.matrix is not None:
            return self.matrix[np.ix_(a, b)]
        return self.svc._kernel(self.X[a], self.X[b])


def _check_separable(K, y):
    r"""Raise unless some :math:`(\beta, b)` has :math:`y_i\bigl((K\beta)_i +
    b\bigr)\ge1` for all i.

    By the representer argument a separating :math:`w` can be replaced by its
    projection :math:`\sum_j\beta_j\phi(x_j)` without changing any
    :math:`w^\top\phi(x_i)`, so this linear feasibility problem has a solution
    exactly when the data are separable in feature space. Without one, the
    hard-margin dual is unbounded and SMO would never stop.
    """
    n = len(y)
    A = -y[:, None] * np.hstack([K, np.ones((n, 1))])
    result = linprog(
        np.zeros(n + 1),
        A_ub=A,
        b_ub=-np.ones(n),
        bounds=[(None, None)] * (n + 1),
        method="highs",
    )
    if result.status == 2:
        raise ValueError(
            "C=np.inf asks for a hard margin, but the training data are "
            "not separable in the "
            "feature space of this kernel (no w, b with y_i (w . "
            "phi(x_i) + b) >= 1 for every i; "
            "the dual is unbounded). Use a finite C (soft margin) or a "
            "more flexible kernel."
        )
    if result.status != 0:
        raise RuntimeError(f"The separability check failed: {result.message}")
