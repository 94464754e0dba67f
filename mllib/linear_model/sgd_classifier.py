r"""A linear classifier trained by plain stochastic gradient descent:
scikit-learn's ``SGDClassifier`` (and the base of :class:`Perceptron`).

Labels are mapped to :math:`y\in\{-1,+1\}` (``classes_[1]`` is :math:`+1`) and
the objective of :mod:`mllib.linear_model.plain_sgd` is minimised one sample
at a time; with more than two classes, one such problem per class
(one-vs-all), as in scikit-learn.
"""

import warnings

import numpy as np
from scipy import sparse
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import compute_class_weight
from sklearn.utils.validation import check_is_fitted, validate_data

from ..exceptions import ConvergenceWarning
from ..validation import (
    available_if,
    check_int,
    check_random_state,
    check_sample_weight,
    check_scalar,
    encode_classes,
)
from .plain_sgd import (
    CLASSIFICATION_LOSSES,
    LEARNING_RATES,
    LinearClassifierMixin,
    check_penalty,
    classification_loss,
    plain_sgd,
    validation_mask,
)


class BaseSGDClassifier(LinearClassifierMixin, ClassifierMixin, BaseEstimator):
    """One-vs-all plain SGD; subclasses say which loss and steps
    (:meth:`_sgd_settings`)."""

    def _sgd_settings(self):
        """``loss``, ``learning_rate``, ``eta0``, ``power_t`` and
        ``average`` of :func:`plain_sgd`, validated."""
        raise NotImplementedError

    def _check_params(self):
        """The settings of :func:`plain_sgd`, validated."""
        return {
            "penalty": self.penalty,
            "l1_ratio": check_penalty(self.penalty, self.l1_ratio),
            "alpha": check_scalar(self.alpha, "alpha", low=0.0),
            "fit_intercept": self.fit_intercept,
            "max_iter": check_int(self.max_iter, "max_iter", low=1),
            "tol": (
                -np.inf
                if self.tol is None
                else check_scalar(self.tol, "tol", low=0.0)
            ),
            "n_iter_no_change": check_int(
                self.n_iter_no_change, "n_iter_no_change", low=1
            ),
            "shuffle": self.shuffle,
            "early_stopping": self.early_stopping,
            "verbose": self.verbose,
            **self._sgd_settings(),
        }

    def _fit_one_vs_all(
        self,
        X,
        y,
        *,
        max_iter,
        classes,
        sample_weight,
        coef_init=None,
        intercept_init=None,
        record_active=False,
        for_partial_fit=False,
    ):
        """The epochs of every two-class problem from ``coef_init`` (or
        the current weights); sets the fitted attributes and returns the
        :class:`SGDRun` of each problem."""
        first_call = not hasattr(self, "classes_")
        X, y = validate_data(self, X, y, dtype=np.float64, reset=first_call)
        settings = self._check_params()
        settings["max_iter"] = max_iter
        if for_partial_fit:
            settings["early_stopping"] = False
        if first_call:  # fit: the labels of y; partial_fit: `classes`
            self.classes_, _ = encode_classes(
                y if classes is None else np.asarray(classes), estimator=self
            )
        index = np.searchsorted(self.classes_, y)
        index = np.minimum(index, len(self.classes_) - 1)
        if np.any(self.classes_[index] != y):
            raise ValueError(
                f"y has labels {np.setdiff1d(y, self.classes_)!r} that are "
                f"not in classes_ {self.classes_!r}; pass every class in "
                "the first call's classes argument."
            )
        n_classes = len(self.classes_)
        class_weight = compute_class_weight(
            self.class_weight, classes=self.classes_, y=y
        )
        sample_weight = check_sample_weight(sample_weight, len(y))
        rng = self._rng(for_partial_fit)
        validation = validation_mask(
            index,
            sample_weight,
            self.validation_fraction,
            rng,
            settings["early_stopping"],
        )
        n_rows = 1 if n_classes == 2 else n_classes
        average = settings["average"]
        if hasattr(self, "coef_") and coef_init is None:
            # partial_fit: continue from the current weights
            coef_init, intercept_init = self.coef_, self.intercept_
            if average and hasattr(self, "_standard_coef"):
                # ... and from the plain iterate under the running mean
                coef_init = self._standard_coef
                intercept_init = self._standard_intercept
        if sparse.issparse(coef_init):  # after sparsify()
            coef_init = coef_init.toarray()
        coef, intercept = _initial_weights(
            coef_init, intercept_init, n_rows, X.shape[1]
        )
        average_coef, average_intercept = np.zeros_like(coef), np.zeros(n_rows)
        if average and hasattr(self, "_average_coef") and not first_call:
            average_coef = self._average_coef.copy()
            average_intercept = self._average_intercept.copy()
        # (positive class, its weight, the others' weight) per problem
        problems = (
            [(1, class_weight[1], class_weight[0])]
            if n_classes == 2
            else [(c, class_weight[c], 1.0) for c in range(n_classes)]
        )
        t_start = getattr(self, "t_", 1.0)
        runs = []
        for row, (positive, w_pos, w_neg) in enumerate(problems):
            signs = np.where(index == positive, 1.0, -1.0)
            runs.append(
                plain_sgd(
                    X,
                    signs,
                    coef[row],
                    intercept[row],
                    np.where(signs > 0, w_pos, w_neg) * sample_weight,
                    sample_weight,
                    validation,
                    rng,
                    t=t_start,
                    average_coef=average_coef[row],
                    average_intercept=average_intercept[row],
                    record_active=record_active,
                    **settings,
                )
            )
        self.n_iter_ = max(run.n_epochs for run in runs)
        self.t_ = float(t_start + self.n_iter_ * len(y))
        standard_coef = np.array([run.coef for run in runs])
        standard_intercept = np.array([run.intercept for run in runs])
        if average:
            self._standard_coef = standard_coef
            self._standard_intercept = standard_intercept
            self._average_coef = np.array([run.average_coef for run in runs])
            self._average_intercept = np.array(
                [run.average_intercept for run in runs]
            )
        if average and average <= self.t_ - 1:
            self.coef_ = self._average_coef
            self.intercept_ = self._average_intercept
        else:
            self.coef_, self.intercept_ = standard_coef, standard_intercept
        return runs

    def _rng(self, for_partial_fit):
        """One generator for the whole fit; partial_fit keeps drawing from
        it (``fit`` starts it afresh)."""
        if not for_partial_fit or not hasattr(self, "_partial_fit_rng"):
            self._partial_fit_rng = check_random_state(self.random_state)
        return self._partial_fit_rng

    def _fit(self, X, y, coef_init, intercept_init, sample_weight, **kwargs):
        """``fit``: from the initial weights (or the previous fit's with
        ``warm_start``), ``max_iter`` epochs with the stopping rule."""
        if self.warm_start and hasattr(self, "coef_"):
            coef_init = self.coef_ if coef_init is None else coef_init
            if intercept_init is None:
                intercept_init = self.intercept_
        for name in (
            "classes_",
            "coef_",
            "t_",
            "_partial_fit_rng",
            "_standard_coef",
            "_average_coef",
        ):
            vars(self).pop(name, None)  # fit starts afresh
        runs = self._fit_one_vs_all(
            X,
            y,
            max_iter=self.max_iter,
            classes=None,
            sample_weight=sample_weight,
            coef_init=coef_init,
            intercept_init=intercept_init,
            **kwargs,
        )
        if self.tol is not None and self.n_iter_ == self.max_iter:
            warnings.warn(self._not_converged_message(), ConvergenceWarning)
        return runs

    def _not_converged_message(self):
        return (
            f"{type(self).__name__} stopped after max_iter={self.max_iter} "
            "epochs before its stopping rule was met (the average training "
            f"objective still improved by more than tol={self.tol}). "
            "Increase max_iter, or standardise the features."
        )


def _initial_weights(coef_init, intercept_init, n_rows, n_features):
    """``coef_init`` and ``intercept_init`` (zeros if ``None``) as float
    copies of shapes (n_rows, n_features) and (n_rows,)."""
    coef = np.zeros((n_rows, n_features))
    intercept = np.zeros(n_rows)
    if coef_init is not None:
        coef_init = np.asarray(coef_init, dtype=np.float64)
        if coef_init.size != coef.size:
            raise ValueError(
                f"coef_init has shape {coef_init.shape}; this problem "
                f"needs {n_rows} row(s) of {n_features} weights."
            )
        coef = coef_init.reshape(coef.shape).copy()
    if intercept_init is not None:
        intercept_init = np.asarray(intercept_init, dtype=np.float64)
        if intercept_init.size != n_rows:
            raise ValueError(
                f"intercept_init has shape {intercept_init.shape}; this "
                f"problem needs {n_rows} intercept(s)."
            )
        intercept = intercept_init.reshape(n_rows).copy()
    return coef, intercept


class SGDClassifier(BaseSGDClassifier):
    r"""Linear classifier (SVM, logistic regression, ...) fitted by plain
    SGD; scikit-learn's ``SGDClassifier``.

    For two classes (:math:`y_i=\pm1`, ``classes_[1]`` is :math:`+1`) it
    minimises

    .. math::

        J(w, b) = \frac1n\sum_{i=1}^n c_{y_i}s_i\,L\bigl(y_i, w^\top x_i+b
            \bigr) + \alpha\Bigl(\frac{1-\rho}2\lVert w\rVert_2^2
            + \rho\lVert w\rVert_1\Bigr)

    (class weights :math:`c`, sample weights :math:`s`, :math:`\rho` from
    ``penalty`` and ``l1_ratio``, the intercept unpenalised) by one
    stochastic (sub)gradient step per sample; see
    :mod:`mllib.linear_model.plain_sgd` for the steps, the schedules, the
    averaging and the stopping rule. The losses :math:`L(y, p)`, with
    :math:`z = yp`:

    ``"hinge"`` :math:`\max(0, 1-z)` (a linear SVM: SGD on the primal, as
    Pegasos); ``"log_loss"`` :math:`\log(1+e^{-z})` (logistic regression);
    ``"modified_huber"`` :math:`\max(0,1-z)^2` for :math:`z\ge-1`,
    :math:`-4z` below (Zhang 2004); ``"squared_hinge"`` :math:`\max(0,
    1-z)^2`; ``"perceptron"`` :math:`\max(0, -z)`; and the regression losses
    on the targets :math:`\pm1`: ``"squared_error"`` :math:`\frac12(p-y)^2`,
    ``"huber"``, ``"epsilon_insensitive"``,
    ``"squared_epsilon_insensitive"`` (width ``epsilon``).

    **More than two classes**: one-vs-all, one problem per class :math:`c`
    with :math:`y_i=+1` for class :math:`c` and :math:`-1` for the others
    (class weight ``class_weight[c]`` for the positives and 1 for the rest,
    as in scikit-learn); ``predict`` returns the class of largest score.

    Same parameters, defaults and attributes as scikit-learn 1.9's; with
    ``shuffle=False`` the two take the same steps (same numbers up to
    rounding). With shuffling each library draws its own orders, and the
    two agree on what SGD guarantees: the objective reached. With
    ``early_stopping`` the validation split is drawn from ``random_state``
    (stratified, as scikit-learn's) and scored with the current weights.
    ``n_jobs`` is accepted for compatibility; the classes are fitted one
    after the other. Sparse ``X`` is refused (scikit-learn's own
    ``SGDClassifier`` takes CSR input).

    Parameters
    ----------
    loss : str, default="hinge"
    penalty : {"l2", "l1", "elasticnet", None}, default="l2"
    alpha : float, default=1e-4
        :math:`\alpha`; also sets the ``"optimal"`` steps.
    l1_ratio : float in [0, 1] or None, default=0.15
        :math:`\rho` for ``"elasticnet"``.
    fit_intercept : bool, default=True
    max_iter : int, default=1000
        Maximum number of epochs.
    tol : float or None, default=1e-3
    shuffle : bool, default=True
    verbose : int, default=0
        Print the weight norm, intercept and average loss of each epoch.
    epsilon : float, default=0.1
        Width of ``"huber"`` and the ``"epsilon_insensitive"`` losses.
    n_jobs : None or int
        Ignored (see above).
    random_state : None, int, numpy.random.Generator or RandomState
        Seeds the shuffling and the validation split.
    learning_rate : {"optimal", "constant", "invscaling", "adaptive", \
"pa1", "pa2"}, default="optimal"
    eta0 : float, default=0.01
    power_t : float, default=0.5
    early_stopping : bool, default=False
    validation_fraction : float in (0, 1), default=0.1
    n_iter_no_change : int, default=5
    class_weight : dict, "balanced" or None
    warm_start : bool, default=False
        ``fit`` starts from the previous fit's ``coef_`` and
        ``intercept_``.
    average : bool or int, default=False
        Return the mean of the iterates from step 1 (``True``) or from
        step ``average`` on.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_iter_ : int
        Epochs run (the largest over the one-vs-all problems).
    t_ : float
        One more than the number of steps, ``n_iter_ * n_samples + 1``
        after ``fit`` (scikit-learn's counter).
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Only when ``X`` had string column names.

    References
    ----------
    Bottou (2012), *Stochastic gradient descent tricks*; Shalev-Shwartz et
    al. (2011), *Pegasos: primal estimated sub-gradient solver for SVM*;
    Zhang (2004), *Solving large scale linear prediction problems using
    stochastic gradient descent algorithms*; Zadrozny & Elkan (2002) for
    the multiclass probabilities.
    """

    def __init__(
        self,
        loss="hinge",
        *,
        penalty="l2",
        alpha=0.0001,
        l1_ratio=0.15,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        shuffle=True,
        verbose=0,
        epsilon=0.1,
        n_jobs=None,
        random_state=None,
        learning_rate="optimal",
        eta0=0.01,
        power_t=0.5,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
        class_weight=None,
        warm_start=False,
        average=False,
    ):
        self.loss = loss
        self.penalty = penalty
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.shuffle = shuffle
        self.verbose = verbose
        self.epsilon = epsilon
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.learning_rate = learning_rate
        self.eta0 = eta0
        self.power_t = power_t
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.average = average

    def _sgd_settings(self):
        if self.learning_rate not in LEARNING_RATES:
            raise ValueError(
                f"learning_rate must be one of {LEARNING_RATES}; got "
                f"{self.learning_rate!r}."
            )
        if self.loss not in CLASSIFICATION_LOSSES:
            raise ValueError(
                f"loss must be one of {CLASSIFICATION_LOSSES}; got "
                f"{self.loss!r}."
            )
        alpha = check_scalar(self.alpha, "alpha", low=0.0)
        if self.learning_rate == "optimal" and alpha == 0:
            raise ValueError(
                "alpha must be > 0 since learning_rate is 'optimal': alpha "
                "sets the optimal steps 1/(alpha (t0 + t - 1))."
            )
        if self.learning_rate in ("pa1", "pa2") and self.loss != "hinge":
            raise ValueError(
                f"Learning rate {self.learning_rate!r} only works with loss "
                "'hinge'."
            )
        if isinstance(self.average, bool):
            average = int(self.average)
        else:
            average = check_int(self.average, "average", low=1)
        power_t = check_scalar(self.power_t, "power_t")
        if power_t < 0:
            warnings.warn(
                "Negative values for `power_t` are deprecated in "
                "scikit-learn 1.8 and will raise an error in 1.10. Use "
                "values in the range [0.0, inf) instead.",
                FutureWarning,
            )
        return {
            "loss": classification_loss(
                self.loss, check_scalar(self.epsilon, "epsilon", low=0.0)
            ),
            "learning_rate": self.learning_rate,
            "eta0": check_scalar(
                self.eta0, "eta0", low=0.0, low_inclusive=False
            ),
            "power_t": power_t,
            "average": average,
        }

    def fit(
        self, X, y, coef_init=None, intercept_init=None, sample_weight=None
    ):
        """Fit to ``X`` (n_samples, n_features) and labels ``y``, from
        ``coef_init`` (1 or n_classes, n_features) and ``intercept_init``
        (zeros by default), ``sample_weight[i]`` scaling sample i's loss;
        return self."""
        self._fit(X, y, coef_init, intercept_init, sample_weight)
        return self

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One epoch over ``X``, ``y`` from the current weights, the step
        counter ``t_`` and the running average continuing; ``classes`` (all
        the labels) is required on the first call. No stopping rule and no
        held-out data (``early_stopping=True`` is refused, as in
        scikit-learn); return self."""
        if self.early_stopping:
            raise ValueError("early_stopping should be False with partial_fit")
        first_call = not hasattr(self, "classes_")
        if first_call and classes is None:
            raise ValueError(
                "classes must be passed on the first call to partial_fit."
            )
        if (
            not first_call
            and classes is not None
            and not np.array_equal(np.unique(classes), self.classes_)
        ):
            raise ValueError(
                f"`classes={classes!r}` is not the same as on the first "
                f"call to partial_fit, {self.classes_!r}."
            )
        self._fit_one_vs_all(
            X,
            y,
            max_iter=1,
            classes=classes,
            sample_weight=sample_weight,
            for_partial_fit=True,
        )
        return self

    def _check_proba(self):
        if self.loss not in ("log_loss", "modified_huber"):
            raise AttributeError(
                f"probability estimates are not available for "
                f"loss={self.loss!r}; use loss='log_loss' or "
                "'modified_huber', or calibrate with "
                "sklearn.calibration.CalibratedClassifierCV."
            )
        return True

    @available_if(_check_proba)
    def predict_proba(self, X):
        r"""Class probabilities, shape (n_samples, n_classes).

        ``"log_loss"``: :math:`\sigma(f(x))` for ``classes_[1]`` (two
        classes); with more, each class's :math:`\sigma(f_c(x))`
        normalised to sum 1 (Zadrozny & Elkan). ``"modified_huber"``:
        :math:`(\operatorname{clip}(f, -1, 1) + 1)/2`, normalised the same
        way (uniform where every class scores :math:`\le -1`).
        """
        check_is_fitted(self)
        scores = self.decision_function(X)
        if self.loss == "log_loss":
            probability = expit(scores)
        else:
            probability = (np.clip(scores, -1.0, 1.0) + 1.0) / 2.0
        if scores.ndim == 1:
            return np.column_stack([1.0 - probability, probability])
        total = probability.sum(axis=1, keepdims=True)
        all_zero = total[:, 0] == 0
        probability[all_zero] = 1.0
        total[all_zero] = len(self.classes_)
        return probability / total

    @available_if(_check_proba)
    def predict_log_proba(self, X):
        """The log of :meth:`predict_proba` (``-inf`` for probability 0)."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))
