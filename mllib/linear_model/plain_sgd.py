r"""Plain stochastic gradient descent for a two-class linear model, the
algorithm behind scikit-learn's ``SGDClassifier`` and ``Perceptron``.

With labels :math:`y_i\in\{-1,+1\}`, class weights :math:`c_{y_i}` and sample
weights :math:`s_i`, the objective is

.. math::

    J(w, b) = \frac1n\sum_{i=1}^n c_{y_i}s_i\,L\bigl(y_i, w^\top x_i+b\bigr)
        + \alpha\Bigl(\frac{1-\rho}2\lVert w\rVert_2^2
        + \rho\lVert w\rVert_1\Bigr),

with :math:`\rho=0` for ``penalty="l2"``, :math:`\rho=1` for ``"l1"``,
``l1_ratio`` for ``"elasticnet"`` and :math:`\alpha=0` for ``None``; the
intercept is not penalised. Each epoch visits the training samples once (in a
new random order if ``shuffle``); at sample :math:`i`, with :math:`p =
w^\top x_i+b` and the step :math:`\eta_t` of the schedule,

.. math::

    w \leftarrow \bigl(1-\eta_t\alpha(1-\rho)\bigr)w
        - \eta_t c_{y_i}s_i\,\partial_pL(y_i,p)\,x_i,\qquad
    b \leftarrow b - \eta_t c_{y_i}s_i\,\partial_pL(y_i,p),

a stochastic (sub)gradient step on :math:`J` (one sample's loss gradient is
an unbiased estimate of the average's), followed for :math:`\rho>0` by the
cumulative :math:`\ell_1` truncation of Tsuruoka, Tsujii & Ananiadou (2009),
which clips at 0 instead of crossing it (so weights become exactly zero).

Step sizes ``learning_rate``: ``"constant"`` :math:`\eta_0`;
``"invscaling"`` :math:`\eta_0/t^{\text{power\_t}}`; ``"optimal"``
:math:`1/(\alpha(t_0+t-1))` with :math:`t_0` chosen by Bottou's heuristic so
that the first step is :math:`\eta_1=\alpha^{-1/4}` (the size of a typical
weight for this :math:`\alpha`, divided by the loss gradient when that exceeds
1), the :math:`1/(\alpha t)` rate that is optimal for an
:math:`\alpha`-strongly convex objective; ``"adaptive"`` :math:`\eta_0`,
divided by 5 whenever the stopping rule below would stop, until it is below
:math:`10^{-6}`; ``"pa1"``/``"pa2"``: the passive-aggressive steps of Crammer
et al. (2006) for the hinge loss, :math:`\min(\eta_0, L/\lVert
x\rVert^2)` and :math:`L/(\lVert x\rVert^2 + 1/(2\eta_0))`. The step counter
:math:`t` runs on across epochs (and across ``partial_fit`` calls).

**Averaging** (``average``, ASGD of Polyak & Juditsky 1992, Xu 2011): from
step ``average`` on, the model returned is the running mean of the iterates,
which converges at the optimal rate with larger steps than the last iterate.
(Scikit-learn 1.9 keeps its mean lazily from the gradient steps and the
shrinkage only, so under an :math:`\ell_1` penalty its "average" misses the
truncations and is not the mean of its iterates; here it is, so with
``"l1"``/``"elasticnet"`` and ``average`` the two differ.)

**Stopping** (scikit-learn's rule): after each epoch, the average objective
over the epoch (each sample's unweighted loss plus the penalty, evaluated
before its step) must fall below the best so far minus ``tol`` — or, with
``early_stopping``, the (sample-weighted) accuracy on the held-out samples
must rise above the best plus ``tol``; after ``n_iter_no_change`` epochs in a
row without that, or after ``max_iter`` epochs, it stops. ``tol=None`` runs
all ``max_iter`` epochs.

The same arithmetic as scikit-learn's ``_plain_sgd``, operation by operation
(with ``shuffle=False`` the two make the same steps); the visiting orders
differ when shuffling (each library draws from its own generator).

References
----------
Bottou (2012), *Stochastic gradient descent tricks*; Tsuruoka, Tsujii &
Ananiadou (2009), *Stochastic gradient descent training for L1-regularized
log-linear models with cumulative penalty*; Crammer et al. (2006), *Online
passive-aggressive algorithms*; Xu (2011), *Towards optimal one pass large
scale learning with averaged stochastic gradient descent*.
"""

import math
from typing import NamedTuple

import numpy as np
from scipy import sparse
from sklearn.utils.validation import check_is_fitted, validate_data

from ..optim import Constant, InverseScaling
from ..validation import check_scalar

PENALTIES = (None, "l2", "l1", "elasticnet")
LEARNING_RATES = (
    "constant",
    "optimal",
    "invscaling",
    "adaptive",
    "pa1",
    "pa2",
)
#: scikit-learn's WeightVector folds the scale into the weights below this
WSCALE_RESET = 1e-9
#: loss derivatives are clipped to this size (scikit-learn's MAX_DLOSS)
MAX_DLOSS = 1e12


class SGDLoss(NamedTuple):
    r"""A loss :math:`L(y, p)` of the label :math:`y=\pm1` and the score
    :math:`p`, with its derivative :math:`\partial_p L` (a subgradient at a
    kink); scalar functions, called once per step."""

    loss: object
    dloss: object


def _hinge(threshold):
    # max(0, θ − yp); θ = 1 is the SVM's hinge, θ = 0 the perceptron's
    def loss(y, p):
        z = p * y
        return threshold - z if z <= threshold else 0.0

    def dloss(y, p):
        return -y if p * y <= threshold else 0.0

    return SGDLoss(loss, dloss)


def _squared_hinge_loss(y, p):
    z = 1.0 - p * y
    return z * z if z > 0 else 0.0


def _squared_hinge_dloss(y, p):
    z = 1.0 - p * y
    return -2.0 * y * z if z > 0 else 0.0


def _log_loss(y, p):
    # log(1 + e^{−z}), z = yp, without overflow (log1p, and −z far left)
    z = p * y
    if z > 18.0:
        return math.exp(-z)
    if z < -18.0:
        return -z
    return math.log1p(math.exp(-z))


def _log_dloss(y, p):
    # −y σ(−z) = −y / (1 + e^{z}), with e^{−|z|} only (no overflow)
    z = p * y
    if z > 0:
        e = math.exp(-z)
        return -y * e / (1.0 + e)
    return -y / (1.0 + math.exp(z))


def _modified_huber_loss(y, p):
    # Zhang (2004): the squared hinge near the margin, linear far left
    z = p * y
    if z >= 1.0:
        return 0.0
    if z >= -1.0:
        return (1.0 - z) * (1.0 - z)
    return -4.0 * z


def _modified_huber_dloss(y, p):
    z = p * y
    if z >= 1.0:
        return 0.0
    if z >= -1.0:
        return -2.0 * (1.0 - z) * y
    return -4.0 * y


def _squared_error():
    return SGDLoss(lambda y, p: 0.5 * (p - y) ** 2, lambda y, p: p - y)


def _huber(epsilon):
    def loss(y, p):
        r = abs(p - y)
        if r <= epsilon:
            return 0.5 * r * r
        return epsilon * r - 0.5 * epsilon * epsilon

    def dloss(y, p):
        r = p - y
        if abs(r) <= epsilon:
            return r
        return epsilon if r > 0 else -epsilon

    return SGDLoss(loss, dloss)


def _epsilon_insensitive(epsilon, squared):
    def loss(y, p):
        r = max(abs(y - p) - epsilon, 0.0)
        return r * r if squared else r

    def dloss(y, p):
        z = y - p
        if z > epsilon:
            return -2.0 * (z - epsilon) if squared else -1.0
        if z < -epsilon:
            return 2.0 * (-z - epsilon) if squared else 1.0
        return 0.0

    return SGDLoss(loss, dloss)


def classification_loss(name, epsilon):
    """The :class:`SGDLoss` scikit-learn's ``SGDClassifier`` calls ``name``
    (the regression losses act on the labels :math:`\\pm1` as targets)."""
    if name == "hinge":
        return _hinge(1.0)
    if name == "perceptron":
        return _hinge(0.0)
    if name == "squared_hinge":
        return SGDLoss(_squared_hinge_loss, _squared_hinge_dloss)
    if name == "log_loss":
        return SGDLoss(_log_loss, _log_dloss)
    if name == "modified_huber":
        return SGDLoss(_modified_huber_loss, _modified_huber_dloss)
    if name == "squared_error":
        return _squared_error()
    if name == "huber":
        return _huber(epsilon)
    if name == "epsilon_insensitive":
        return _epsilon_insensitive(epsilon, squared=False)
    if name == "squared_epsilon_insensitive":
        return _epsilon_insensitive(epsilon, squared=True)
    raise ValueError(
        f"loss must be one of {', '.join(map(repr, CLASSIFICATION_LOSSES))}; "
        f"got {name!r}."
    )


CLASSIFICATION_LOSSES = (
    "hinge",
    "log_loss",
    "modified_huber",
    "squared_hinge",
    "perceptron",
    "squared_error",
    "huber",
    "epsilon_insensitive",
    "squared_epsilon_insensitive",
)


def step_schedule(learning_rate, *, eta0, power_t, alpha, loss):
    r"""``t -> eta_t`` for the gradient schedules, ``None`` for those
    whose step is not a function of :math:`t` (``"adaptive"``, ``"pa1"``,
    ``"pa2"``: :math:`\eta_0` until adapted).

    ``"optimal"`` is Bottou's: a typical weight for the penalty :math:`\alpha`
    has size :math:`\text{typw}=\alpha^{-1/4}`, the first step is
    :math:`\eta_1=\text{typw}/\max(1, \partial_pL(1,-\text{typw}))`, and
    :math:`t_0 = 1/(\alpha\eta_1)` makes :math:`\eta_t=1/(\alpha(t_0+t-1))`
    start there.
    """
    if learning_rate == "constant":
        return Constant(eta0)
    if learning_rate == "invscaling":
        return InverseScaling(eta0, power_t)
    if learning_rate == "optimal":
        typical_weight = math.sqrt(1.0 / math.sqrt(alpha))
        eta1 = typical_weight / max(1.0, loss.dloss(1.0, -typical_weight))
        return Optimal(alpha, 1.0 / (eta1 * alpha))
    return None


class Optimal(NamedTuple):
    r""":math:`\eta_t = 1/(\alpha(t_0 + t - 1))`."""

    alpha: float
    t0: float

    def __call__(self, t):
        return 1.0 / (self.alpha * (self.t0 + t - 1))


def check_penalty(penalty, l1_ratio):
    """The :math:`\\rho` of the module docstring for ``penalty``."""
    if penalty not in PENALTIES:
        raise ValueError(
            "penalty must be None, 'l2', 'l1' or 'elasticnet'; got "
            f"{penalty!r}."
        )
    if l1_ratio is not None:  # checked whatever the penalty, as sklearn
        l1_ratio = check_scalar(l1_ratio, "l1_ratio", low=0.0, high=1.0)
    if penalty == "elasticnet":
        if l1_ratio is None:
            raise ValueError(
                "l1_ratio must be set when penalty is 'elasticnet'."
            )
        return l1_ratio
    return 1.0 if penalty == "l1" else 0.0


def validation_mask(index, sample_weight, fraction, rng, early_stopping):
    """The held-out samples of ``early_stopping`` (none otherwise): a draw of
    ``ceil(fraction * n)`` samples, stratified by the class ``index``."""
    n = len(index)
    mask = np.zeros(n, dtype=bool)
    if not early_stopping:
        return mask
    fraction_ = check_scalar(
        fraction,
        "validation_fraction",
        low=0.0,
        high=1.0,
        low_inclusive=False,
        high_inclusive=False,
    )
    n_val = math.ceil(fraction_ * n)
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
            f"Splitting {n} samples with validation_fraction={fraction!r} "
            "leaves an empty training set or a validation set of zero "
            "weight; change validation_fraction or disable early_stopping."
        )
    return mask


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


class SGDRun(NamedTuple):
    """The outcome of :func:`plain_sgd`."""

    coef: np.ndarray
    intercept: float
    average_coef: np.ndarray
    average_intercept: float
    n_epochs: int
    #: samples whose loss gradient was non-zero at their step, in order
    #: (the perceptron's mistakes); empty unless ``record_active``
    active_indices: np.ndarray
    active_per_epoch: np.ndarray


def plain_sgd(
    X,
    y,
    coef,
    intercept,
    weight,
    sample_weight,
    validation,
    rng,
    *,
    loss,
    penalty,
    alpha,
    l1_ratio,
    learning_rate,
    eta0,
    power_t,
    fit_intercept,
    max_iter,
    tol,
    n_iter_no_change,
    shuffle,
    early_stopping,
    verbose,
    t=1,
    average=0,
    average_coef=None,
    average_intercept=0.0,
    record_active=False,
):
    r"""The epochs of the module docstring for one two-class problem.

    ``X`` (n_samples, n_features), labels ``y`` in :math:`\{-1,+1\}`, start
    ``coef``, ``intercept``; ``weight`` the class times sample weight of
    each sample (``sample_weight`` alone weighs the validation accuracy);
    ``validation`` the held-out mask; ``t`` the step counter's start;
    ``average`` the step from which iterates are averaged (0: never), the
    running mean continuing from ``average_coef``, ``average_intercept``.
    ``tol`` is ``-inf`` for no stopping rule. Returns an :class:`SGDRun`.

    The weights are held as :math:`w = \text{scale}\cdot v` (Bottou's lazy
    scaling, scikit-learn's ``WeightVector``): the :math:`\ell_2` shrinkage
    at every sample is then one multiplication of ``scale``, not of the
    whole vector; ``scale`` is folded back into :math:`v` when it falls
    below ``1e-9``. The running :math:`\lVert w\rVert^2` and
    :math:`\lVert w\rVert_1` of the objective are kept as scikit-learn
    keeps them (updated by the steps and the shrinkage, not by the
    :math:`\ell_1` truncation).
    """
    v, scale, b = coef.copy(), 1.0, float(intercept)
    sq_norm, l1_norm = float(v @ v), float(np.abs(v).sum())
    cumulative_l1, applied_l1 = 0.0, np.zeros_like(v)  # u and q
    with_l2 = penalty in ("l2", "elasticnet")
    with_l1 = penalty in ("l1", "elasticnet")
    passive_aggressive = learning_rate in ("pa1", "pa2")
    schedule = step_schedule(
        learning_rate, eta0=eta0, power_t=power_t, alpha=alpha, loss=loss
    )
    eta = eta0
    averaging = average > 0
    w_bar = np.zeros_like(v) if average_coef is None else average_coef.copy()
    b_bar = float(average_intercept)
    train = np.flatnonzero(~validation)
    best_objective, best_score, stalled = np.inf, -np.inf, 0
    active_indices, active_per_epoch = [], []
    rows, labels, weights = list(X), y.tolist(), weight.tolist()
    squared_norms = (
        np.einsum("ij,ij->i", X, X).tolist() if passive_aggressive else None
    )
    loss_value, dloss = loss.loss, loss.dloss
    monitor = verbose or not early_stopping
    for epoch in range(1, max_iter + 1):
        order = rng.permutation(len(y)) if shuffle else np.arange(len(y))
        objective, active = 0.0, 0
        for i in order[~validation[order]].tolist():
            x, label = rows[i], labels[i]
            p = scale * (v @ x) + b
            if schedule is not None:
                eta = schedule(t)
            if monitor:
                objective += loss_value(label, p)
                if penalty is not None and not passive_aggressive:
                    # the penalty before the step
                    objective += alpha * (
                        (1 - l1_ratio) * 0.5 * math.sqrt(sq_norm) ** 2
                        + l1_ratio * l1_norm
                    )
            if passive_aggressive:
                # Crammer et al.: the smallest step that fixes the margin,
                # capped (pa1) or softened (pa2) by eta0
                if learning_rate == "pa1":
                    if squared_norms[i] == 0.0:  # x = 0: nothing to do
                        continue
                    update = min(eta0, loss_value(label, p) / squared_norms[i])
                else:
                    update = loss_value(label, p) / (
                        squared_norms[i] + 0.5 / eta0
                    )
                update *= label
                gradient_is_zero = update == 0.0
            else:
                gradient = min(max(dloss(label, p), -MAX_DLOSS), MAX_DLOSS)
                gradient_is_zero = gradient == 0.0
                update = -eta * gradient
            update *= weights[i]
            if not gradient_is_zero:
                active += 1
                if record_active:
                    active_indices.append(i)
            if with_l2:  # w <- (1 - eta alpha (1 - rho)) w, lazily
                shrink = max(0.0, 1.0 - (1.0 - l1_ratio) * eta * alpha)
                scale *= shrink
                sq_norm *= shrink * shrink
                l1_norm *= shrink
                if scale < WSCALE_RESET:  # fold the scale into v
                    v *= scale
                    scale = 1.0
            if update != 0.0:
                v += x * (update / scale)
                if fit_intercept:
                    b += update
                if monitor and with_l2:  # only the objective reads them
                    sq_norm = float(v @ v) * scale * scale
                if monitor and with_l1:
                    l1_norm = float(np.abs(v).sum()) * scale
            if with_l1:
                cumulative_l1 += l1_ratio * eta * alpha
                v = _truncate(v, scale, cumulative_l1, applied_l1)
            if averaging and average <= t:
                # running mean of the iterates from step `average` on
                count = t - average + 1
                w_bar += (scale * v - w_bar) / count
                b_bar += (b - b_bar) / count
            t += 1
        active_per_epoch.append(active)
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
            if learning_rate == "adaptive" and eta > 1e-6:
                eta /= 5.0
                stalled = 0
            else:
                break
        if (
            active == 0
            and penalty is None
            and not early_stopping
            and not averaging
            and learning_rate != "adaptive"
        ):
            # Nothing moved, and nothing will: every later epoch has the
            # same objective (> best - tol), so the rule counts them up to
            # n_iter_no_change (tol=None: none counts).
            left = max_iter - epoch
            if tol > 0:  # with tol = 0, J > J - 0 fails: never stalls
                left = min(left, n_iter_no_change - stalled)
            active_per_epoch.extend([0] * left)
            t += left * len(train)
            epoch += left
            break
    return SGDRun(
        scale * v,
        b,
        w_bar,
        b_bar,
        epoch,
        np.array(active_indices, dtype=int),
        np.array(active_per_epoch),
    )


class LinearClassifierMixin:
    """``decision_function``, ``predict``, ``densify`` and ``sparsify`` of a
    linear classifier with ``coef_`` of shape (1 or n_classes, n_features),
    ``intercept_`` and ``classes_``."""

    def decision_function(self, X):
        r""":math:`w^\top x + b`: shape (n_samples,) for two classes (positive
        means ``classes_[1]``), (n_samples, n_classes) for more."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        # (W Xᵀ)ᵀ: a dense array whether coef_ is dense or sparsified
        scores = np.asarray(self.coef_ @ X.T).T + self.intercept_
        return scores[:, 0] if len(self.classes_) == 2 else scores

    def predict(self, X):
        """``classes_[1]`` where the decision function is positive (two
        classes), the class of largest score, the first of equal ones
        (more); shape (n_samples,)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def densify(self):
        """Store ``coef_`` as a dense array again (the default); returns
        self."""
        check_is_fitted(self)
        if sparse.issparse(self.coef_):
            self.coef_ = self.coef_.toarray()
        return self

    def sparsify(self):
        """Store ``coef_`` as a ``scipy.sparse`` CSR matrix (memory and
        speed when most weights are zero, e.g. after an L1 penalty);
        predictions are unchanged; returns self."""
        check_is_fitted(self)
        self.coef_ = sparse.csr_matrix(self.coef_)
        return self
