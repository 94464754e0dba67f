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

import warnings

import numpy as np

from ..exceptions import ConvergenceWarning
from ..validation import check_int, check_scalar, encode_classes
from .plain_sgd import classification_loss
from .sgd_classifier import BaseSGDClassifier


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


class Perceptron(BaseSGDClassifier):
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
    random_state : None, int, numpy.random.Generator or RandomState
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
        runs = self._fit(
            X, y, coef_init, intercept_init, sample_weight, record_active=True
        )
        # a perceptron's active samples (non-zero loss gradient) are its
        # mistakes
        if len(self.classes_) == 2:
            (run,) = runs
            self.mistake_indices_ = run.active_indices
            self.mistakes_per_epoch_ = run.active_per_epoch
            self.n_updates_ = len(run.active_indices)
        else:
            self.mistake_indices_ = [run.active_indices for run in runs]
            self.mistakes_per_epoch_ = [run.active_per_epoch for run in runs]
            self.n_updates_ = np.array([len(m) for m in self.mistake_indices_])
        return self

    def _sgd_settings(self):
        return {
            "loss": classification_loss("perceptron", epsilon=0.0),
            "learning_rate": "constant",
            "eta0": check_scalar(
                self.eta0, "eta0", low=0.0, low_inclusive=False
            ),
            "power_t": 0.5,  # unused by a constant step
            "average": 0,
        }

    def _not_converged_message(self):
        return (
            f"Perceptron stopped after max_iter={self.max_iter} epochs "
            "before its stopping rule was met (the average training "
            f"loss still improved by more than tol={self.tol}): the "
            "data are probably not separable. Increase max_iter, or use "
            "a soft-margin method such as an SVM."
        )
