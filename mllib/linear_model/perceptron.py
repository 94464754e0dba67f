r"""The perceptron: Rosenblatt's mistake-driven linear classifier.

Labels are mapped to :math:`y\in\{-1,+1\}` (``classes_[1]`` is :math:`+1`).
Starting from :math:`w=0,\ b=0`, the samples are visited one at a time and the
model is corrected only when it errs:

.. math::

    \text{if } y_i(w^\top x_i + b) \le 0:\qquad w \leftarrow w + y_i x_i,\quad
    b \leftarrow b + y_i .

The test is ``<= 0``: with a strict ``< 0`` the first sample from :math:`w=0`
scores exactly 0, is never counted as a mistake, and the weights stay zero for
ever. On linearly separable data with margin :math:`\gamma` and radius
:math:`R`, Novikoff's theorem bounds the number of updates by
:math:`(R/\gamma)^2`, so the passes end with one that makes no mistake.

The update is a stochastic (sub)gradient step of size :math:`\eta_0` on the
perceptron loss :math:`\max(0, -y_i(w^\top x_i+b))`, whose subgradient in
:math:`w` is :math:`-y_ix_i` where :math:`y_i(w^\top x_i+b)\le0`; that is how
scikit-learn's ``Perceptron`` (an ``SGDClassifier`` with this loss and a
constant step) and :class:`Perceptron` here run it, with an optional penalty,
class and sample weights, and one-vs-rest for more than two classes.
"""

import math
import warnings
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import compute_class_weight
from sklearn.utils.validation import check_is_fitted, validate_data

from ..exceptions import ConvergenceWarning
from ..validation import (
    check_int,
    check_random_state,
    check_sample_weight,
    check_scalar,
    encode_classes,
)


def run_mistake_driven_passes(
    is_mistake, update, n_samples, *, max_iter, shuffle, rng, name
):
    """Visit the samples in passes; ``update(i)`` whenever ``is_mistake(i)``.

    The loop shared by every mistake-driven learner (perceptron, kernel
    perceptron, Winnow). It stops after the first pass without a mistake, or
    after ``max_iter`` passes, then with a ``ConvergenceWarning``. A mistake
    bound holds for *any* sequence of trials, so it also bounds the total
    number of updates over all passes.

    Parameters
    ----------
    is_mistake : callable
        ``is_mistake(i)`` says whether the current model errs on sample ``i``.
    update : callable
        ``update(i)`` corrects the model on sample ``i``.
    n_samples, max_iter : int
    shuffle : bool
        Visit the samples in a fresh random order in every pass (drawn from
        ``rng``).
    rng : numpy.random.Generator
    name : str
        The learner's name, for the warning.

    Returns
    -------
    n_iter : int
        Number of passes made.
    mistakes_per_epoch : ndarray of shape (n_iter,)
    mistake_indices : ndarray of shape (n_updates,)
        The sample updated at each mistake, in order.
    """
    max_iter = check_int(max_iter, "max_iter", low=1)
    mistakes_per_epoch, mistake_indices = [], []
    for _ in range(max_iter):
        order = rng.permutation(n_samples) if shuffle else range(n_samples)
        mistakes = 0
        for i in order:
            if is_mistake(i):
                update(i)
                mistake_indices.append(i)
                mistakes += 1
        mistakes_per_epoch.append(mistakes)
        if mistakes == 0:
            break
    else:
        warnings.warn(
            f"{name} still made {mistakes_per_epoch[-1]} mistake(s) in its "
            f"last pass, after max_iter={max_iter} passes: the training data "
            "are probably not separable (in its feature space), and then it "
            "never stops. Increase max_iter, or use a soft-margin method such "
            "as an SVM.",
            ConvergenceWarning,
        )
    return (
        len(mistakes_per_epoch),
        np.array(mistakes_per_epoch),
        np.array(mistake_indices, dtype=int),
    )


def encode_binary_labels(y, estimator):
    """Return ``(classes, y_signed)``, +1 for ``classes[1]``, -1 for the other.

    More than two classes are refused, in scikit-learn's words.
    """
    classes, y_index = encode_classes(y, binary_only=True, estimator=estimator)
    return classes, 2.0 * y_index - 1.0


PENALTIES = (None, "l2", "l1", "elasticnet")
#: scikit-learn's WeightVector folds the scale into the weights below this
WSCALE_RESET = 1e-9


class Perceptron(ClassifierMixin, BaseEstimator):
    r"""The perceptron (Rosenblatt, 1958), with scikit-learn's parameters and
    stopping rule; one-vs-rest for more than two classes.

    For two classes (labels :math:`y_i=\pm1`, ``classes_[1]`` is
    :math:`+1`), each epoch visits the training samples once (in a new
    random order if ``shuffle``) and at each sample takes the step

    .. math::

        \text{if } y_i(w^\top x_i + b)\le 0:\quad
        w \leftarrow w + \eta_0\,c_{y_i}s_i\,y_ix_i,\quad
        b \leftarrow b + \eta_0\,c_{y_i}s_i\,y_i,

    a stochastic subgradient step on the perceptron loss
    :math:`\max(0, -y_i(w^\top x_i+b))` with the class weight
    :math:`c_{y_i}` and the sample weight :math:`s_i` (both 1 by default).
    With ``penalty="l2"`` the weights also shrink by :math:`1 -
    \eta_0\alpha` at every sample, with ``"l1"`` they are pulled towards
    0 by the cumulative truncated gradient of Tsuruoka, Tsujii & Ananiadou
    (2009), and ``"elasticnet"`` mixes the two with ``l1_ratio``: together,
    SGD on :math:`\alpha\bigl(\frac{1-\rho}2\lVert w\rVert^2 +
    \rho\lVert w\rVert_1\bigr)` plus the loss.

    **Stopping** (scikit-learn's rule): after each epoch, the average
    objective over the epoch (losses, plus the penalty, evaluated before
    each step) must fall below the best so far minus ``tol``; after
    ``n_iter_no_change`` epochs in a row without that, or after
    ``max_iter`` epochs (then with a ``ConvergenceWarning``), it stops.
    ``tol=None`` runs all ``max_iter`` epochs. On separable data, once an
    epoch makes no mistake the weights no longer change, so the result is
    Rosenblatt's perceptron stopped at its first mistake-free pass.

    **More than two classes**: one-vs-rest. One such perceptron per class
    :math:`c`, :math:`y_i=+1` for class :math:`c` and :math:`-1` for the
    others (class weight ``class_weight[c]`` for the positives, 1 for the
    rest, as in scikit-learn); ``predict`` returns the class of largest
    score :math:`w_c^\top x+b_c`, the first of equal ones.

    Same parameters, defaults, attributes and numbers as
    ``sklearn.linear_model.Perceptron``: with ``shuffle=False`` the two
    make the same steps and stop at the same epoch. With shuffling the
    visiting orders differ (each library draws from its own generator).
    With ``early_stopping``, the validation split is drawn from
    ``random_state`` (stratified, ``validation_fraction`` of the samples,
    as scikit-learn's) and the validation accuracy is that of the current
    weights (scikit-learn 1.9 scores the weights before their lazy scale
    factor is applied, which differs from them under ``penalty="l2"``).
    ``n_jobs`` is accepted for compatibility; the classes are fitted one
    after the other.

    Parameters
    ----------
    penalty : {None, "l2", "l1", "elasticnet"}
    alpha : float
        Strength :math:`\alpha` of the penalty.
    l1_ratio : float in [0, 1]
        :math:`\rho` of ``"elasticnet"``.
    fit_intercept : bool
        Learn :math:`b`.
    max_iter : int
        Maximum number of epochs (passes over the training data).
    tol : float or None
        The improvement of the epoch's average objective (or validation
        accuracy) that counts.
    shuffle : bool
        Visit the samples in a new random order in each epoch; otherwise
        in the given order.
    verbose : int
        Print the weight norm, intercept and average loss of each epoch.
    eta0 : float
        The step :math:`\eta_0`.
    n_jobs : None or int
        Ignored (see above).
    random_state : None, int or numpy.random.Generator
        Seeds the shuffling and the validation split.
    early_stopping : bool
        Stop on the accuracy on a held-out ``validation_fraction`` of the
        training data instead of the training objective.
    validation_fraction : float in (0, 1)
    n_iter_no_change : int
        Epochs without improvement before stopping.
    class_weight : dict, "balanced" or None
        The weights :math:`c_y`; ``"balanced"`` is :math:`n/(K n_y)`.
    warm_start : bool
        Start from the previous fit's ``coef_`` and ``intercept_``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        One row for two classes (positive for ``classes_[1]``), one per
        class for more.
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_iter_ : int
        Number of epochs (the largest over the one-vs-rest problems).
    t_ : float
        ``n_iter_ * n_samples + 1``, scikit-learn's count of steps.
    mistake_indices_ : ndarray of shape (n_updates_,)
        The training sample of each mistake (step with
        :math:`y_i(w^\top x_i+b)\le0`), in order; for more than two
        classes, a list with one such array per class. Without penalty and
        weights, :math:`w = \eta_0\sum_k y_{i_k}x_{i_k}` over these indices.
    mistakes_per_epoch_ : ndarray of shape (n_epochs,)
        Mistakes in each epoch (a list of arrays, one per class, for more
        than two classes).
    n_updates_ : int or ndarray of shape (n_classes,)
        Total number of mistakes (per class for more than two classes).
    n_features_in_ : int

    References
    ----------
    Rosenblatt (1958); Novikoff (1962), "On convergence proofs for
    perceptrons"; Tsuruoka, Tsujii & Ananiadou (2009), *Stochastic gradient
    descent training for L1-regularized log-linear models with cumulative
    penalty*; Bottou (2012), *Stochastic gradient descent tricks*.
    """

    def __init__(
        self,
        *,
        penalty=None,
        alpha=0.0001,
        l1_ratio=0.15,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        shuffle=True,
        verbose=0,
        eta0=1.0,
        n_jobs=None,
        random_state=0,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
        class_weight=None,
        warm_start=False,
    ):
        self.penalty = penalty
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.shuffle = shuffle
        self.verbose = verbose
        self.eta0 = eta0
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.class_weight = class_weight
        self.warm_start = warm_start

    def fit(
        self, X, y, coef_init=None, intercept_init=None, sample_weight=None
    ):
        """Run the epochs on ``X`` of shape (n_samples, n_features) and
        labels ``y``, from ``coef_init`` and ``intercept_init`` (zeros by
        default); return self."""
        if self.warm_start and hasattr(self, "coef_"):
            coef_init = self.coef_ if coef_init is None else coef_init
            if intercept_init is None:
                intercept_init = self.intercept_
        X, y = validate_data(self, X, y, dtype=np.float64)
        settings = self._check_params()
        self.classes_, index = encode_classes(y, estimator=self)
        n_classes = len(self.classes_)
        class_weight = compute_class_weight(
            self.class_weight, classes=self.classes_, y=y
        )
        sample_weight = check_sample_weight(sample_weight, len(y))
        rng = check_random_state(self.random_state)
        validation = self._validation_mask(index, sample_weight, rng)
        n_rows = 1 if n_classes == 2 else n_classes
        coef, intercept = self._initial_weights(
            coef_init, intercept_init, n_rows, X.shape[1]
        )
        # (positive class, its weight, the others' weight) per problem
        problems = (
            [(1, class_weight[1], class_weight[0])]
            if n_classes == 2
            else [(c, class_weight[c], 1.0) for c in range(n_classes)]
        )
        runs = []
        for row, (positive, w_pos, w_neg) in enumerate(problems):
            signs = np.where(index == positive, 1.0, -1.0)
            runs.append(
                _perceptron_epochs(
                    X,
                    signs,
                    coef[row],
                    intercept[row],
                    np.where(signs > 0, w_pos, w_neg) * sample_weight,
                    sample_weight,
                    validation,
                    rng,
                    verbose=self.verbose,
                    **settings,
                )
            )
        self.coef_ = np.array([run.coef for run in runs])
        self.intercept_ = np.array([run.intercept for run in runs])
        self.n_iter_ = max(run.n_epochs for run in runs)
        self.t_ = float(self.n_iter_ * len(y) + 1)
        if n_classes == 2:
            (run,) = runs
            self.mistake_indices_ = run.mistake_indices
            self.mistakes_per_epoch_ = run.mistakes_per_epoch
            self.n_updates_ = len(run.mistake_indices)
        else:
            self.mistake_indices_ = [run.mistake_indices for run in runs]
            self.mistakes_per_epoch_ = [run.mistakes_per_epoch for run in runs]
            self.n_updates_ = np.array([len(m) for m in self.mistake_indices_])
        if self.tol is not None and self.n_iter_ == self.max_iter:
            warnings.warn(
                f"Perceptron stopped after max_iter={self.max_iter} epochs "
                "before its stopping rule was met (the average training "
                f"loss still improved by more than tol={self.tol}): the "
                "data are probably not separable. Increase max_iter, or use "
                "a soft-margin method such as an SVM.",
                ConvergenceWarning,
            )
        return self

    def _check_params(self):
        """The settings of :func:`_perceptron_epochs`, validated."""
        if self.penalty not in PENALTIES:
            raise ValueError(
                "penalty must be None, 'l2', 'l1' or 'elasticnet'; got "
                f"{self.penalty!r}."
            )
        l1_ratio = {None: 0.0, "l2": 0.0, "l1": 1.0}.get(
            self.penalty,
            check_scalar(self.l1_ratio, "l1_ratio", low=0.0, high=1.0),
        )
        return {
            "penalty": self.penalty,
            "alpha": check_scalar(self.alpha, "alpha", low=0.0),
            "l1_ratio": l1_ratio,
            "eta0": check_scalar(
                self.eta0, "eta0", low=0.0, low_inclusive=False
            ),
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
        }

    def _initial_weights(self, coef_init, intercept_init, n_rows, n_features):
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

    def _validation_mask(self, index, sample_weight, rng):
        """The held-out samples of ``early_stopping`` (none otherwise): a
        stratified draw of ``ceil(validation_fraction * n)`` samples."""
        n = len(index)
        mask = np.zeros(n, dtype=bool)
        if not self.early_stopping:
            return mask
        fraction = check_scalar(
            self.validation_fraction,
            "validation_fraction",
            low=0.0,
            high=1.0,
            low_inclusive=False,
            high_inclusive=False,
        )
        n_val = math.ceil(fraction * n)
        counts = np.bincount(index)
        # largest remainders: per-class shares that add up to n_val
        share = counts * n_val / n
        take = np.floor(share).astype(int)
        extra = np.argsort(-(share - take), kind="stable")
        take[extra[: n_val - take.sum()]] += 1
        for c, k in enumerate(take):
            members = np.flatnonzero(index == c)
            mask[rng.choice(members, size=k, replace=False)] = True
        if n_val >= n or not np.any(sample_weight[mask] > 0):
            raise ValueError(
                f"Splitting {n} samples with validation_fraction="
                f"{self.validation_fraction!r} leaves an empty training set "
                "or a validation set of zero weight; change "
                "validation_fraction or disable early_stopping."
            )
        return mask

    def decision_function(self, X):
        r""":math:`w^\top x + b`: shape (n_samples,) for two classes (positive
        means ``classes_[1]``), (n_samples, n_classes) for more."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        scores = X @ self.coef_.T + self.intercept_
        return scores[:, 0] if len(self.classes_) == 2 else scores

    def predict(self, X):
        """``classes_[1]`` where the decision function is positive (two
        classes), the class of largest score, the first of equal ones
        (more); shape (n_samples,)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]


def _truncate(v, scale, cumulative, applied):
    r"""The cumulative :math:`\ell_1` penalty of Tsuruoka, Tsujii &
    Ananiadou (2009) on :math:`w = \text{scale}\cdot v`: each weight moves
    towards 0 by what the penalty has accrued (``cumulative``, :math:`u`)
    minus what it already received (``applied``, :math:`q_j`, updated in
    place), and stops at 0 instead of crossing it; returns the new
    :math:`v`.

    For :math:`v_j>0`: :math:`\max(0, v_j - (u+q_j)/\text{scale})`; for
    :math:`v_j<0`: :math:`\min(0, v_j + (u-q_j)/\text{scale})`, written
    once as :math:`\operatorname{sign}(v_j)\max(0, |v_j| - (u +
    \operatorname{sign}(v_j)q_j)/\text{scale})`.
    """
    sign = np.sign(v)
    new = sign * np.maximum(
        0.0, np.abs(v) - (cumulative + sign * applied) / scale
    )
    applied += scale * (new - v)
    return new


class _Run(NamedTuple):
    coef: np.ndarray
    intercept: float
    n_epochs: int
    mistake_indices: np.ndarray
    mistakes_per_epoch: np.ndarray


def _perceptron_epochs(
    X,
    y,
    coef,
    intercept,
    weight,
    sample_weight,
    validation,
    rng,
    *,
    penalty,
    alpha,
    l1_ratio,
    eta0,
    fit_intercept,
    max_iter,
    tol,
    n_iter_no_change,
    shuffle,
    early_stopping,
    verbose,
):
    r"""scikit-learn's plain SGD for one two-class perceptron, labels ``y``
    in :math:`\{-1,+1\}`, ``weight`` the class times sample weight of each
    sample (``sample_weight`` alone weighs the validation accuracy); returns
    a :class:`_Run`.

    The weights are held as :math:`w = \text{scale}\cdot v` (Bottou's lazy
    scaling, scikit-learn's ``WeightVector``): the :math:`\ell_2` shrinkage
    :math:`w \leftarrow (1-\eta_0\alpha(1-\rho))w` at every sample is then
    one multiplication of ``scale``, not of the whole vector; ``scale`` is
    folded back into :math:`v` when it falls below ``1e-9``. The running
    :math:`\lVert w\rVert^2` and :math:`\lVert w\rVert_1` of the objective
    are kept as scikit-learn keeps them (updated by the steps and the
    shrinkage, not by the :math:`\ell_1` truncation).
    """
    v, scale, b = coef.copy(), 1.0, float(intercept)
    sq_norm, l1_norm = float(v @ v), float(np.abs(v).sum())
    cumulative_l1, applied_l1 = 0.0, np.zeros_like(v)  # u and q
    shrink = max(0.0, 1.0 - (1.0 - l1_ratio) * eta0 * alpha)
    with_l2 = penalty in ("l2", "elasticnet")
    with_l1 = penalty in ("l1", "elasticnet")
    train = np.flatnonzero(~validation)
    best_objective, best_score, stalled = np.inf, -np.inf, 0
    mistake_indices, mistakes_per_epoch = [], []
    rows, labels, steps = list(X), y.tolist(), (eta0 * y * weight).tolist()
    for epoch in range(1, max_iter + 1):
        order = rng.permutation(len(y)) if shuffle else np.arange(len(y))
        objective, mistakes = 0.0, 0
        for i in order[~validation[order]].tolist():
            x = rows[i]
            margin = labels[i] * (scale * (v @ x) + b)
            if verbose or not early_stopping:
                objective += -margin if margin <= 0 else 0.0
                if penalty is not None:  # the penalty before the step
                    objective += alpha * (
                        (1 - l1_ratio) * 0.5 * math.sqrt(sq_norm) ** 2
                        + l1_ratio * l1_norm
                    )
            if with_l2:  # w <- (1 - eta0 alpha (1 - rho)) w, lazily
                scale *= shrink
                sq_norm *= shrink * shrink
                l1_norm *= shrink
                if scale < WSCALE_RESET:  # fold the scale into v
                    v *= scale
                    scale = 1.0
            if margin <= 0:  # a mistake: the subgradient step
                mistakes += 1
                mistake_indices.append(i)
                step = steps[i]
                if step != 0.0:
                    v += x * (step / scale)
                    if fit_intercept:
                        b += step
                    if penalty is not None:
                        sq_norm = float(v @ v) * scale * scale
                        l1_norm = float(np.abs(v).sum()) * scale
            if with_l1:
                cumulative_l1 += l1_ratio * eta0 * alpha
                v = _truncate(v, scale, cumulative_l1, applied_l1)
        mistakes_per_epoch.append(mistakes)
        if not (np.isfinite(b) and np.all(np.isfinite(v))):
            raise ValueError(
                f"Floating-point under-/overflow occurred at epoch {epoch}. "
                "Scaling the input data with StandardScaler or MinMaxScaler "
                "might help."
            )
        if verbose:
            print(
                f"-- Epoch {epoch}: norm {scale * np.linalg.norm(v):.2f}, "
                f"bias {b:.6f}, average loss {objective / len(train):.6f}"
            )
        if early_stopping:
            held = validation
            predicted = np.where(scale * (X[held] @ v) + b > 0, 1.0, -1.0)
            score = np.average(
                predicted == y[held], weights=sample_weight[held]
            )
            stalled = stalled + 1 if score < best_score + tol else 0
            best_score = max(best_score, score)
        else:
            objective /= len(train)
            stalled = stalled + 1 if objective > best_objective - tol else 0
            best_objective = min(best_objective, objective)
        if stalled >= n_iter_no_change:
            break
        if mistakes == 0 and penalty is None and not early_stopping:
            # Nothing moved, and nothing will: every later epoch is
            # mistake-free with objective 0 (> best - tol), so the rule
            # counts them up to n_iter_no_change (tol=None: none counts).
            left = max_iter - epoch
            if tol > 0:  # with tol = 0, 0 > 0 - 0 fails: never stalls
                left = min(left, n_iter_no_change - stalled)
            mistakes_per_epoch.extend([0] * left)
            epoch += left
            break
    return _Run(
        scale * v,
        b,
        epoch,
        np.array(mistake_indices, dtype=int),
        np.array(mistakes_per_epoch),
    )
