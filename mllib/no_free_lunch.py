r"""The No Free Lunch theorem on a finite domain, checked by enumeration.

Take a finite domain :math:`\mathcal X=\{x_1,\dots,x_N\}`, labels
:math:`\{0,\dots,K-1\}`, and a training sample whose inputs are the points
:math:`x_i, i\in S` (repeats allowed). A target :math:`f:\mathcal X\to
\{0,\dots,K-1\}` labels the sample, a learner :math:`A` maps the labelled
sample to a classifier :math:`h=A(S,f|_S)`, and its *off-training-set*
(OTS) error counts mistakes on the :math:`m\ge1` points it never saw,

.. math:: E_{\mathrm{OTS}}(A,f)=\frac1m\sum_{x\notin S}
          \mathbb 1\bigl[h(x)\ne f(x)\bigr].

**Theorem** (Wolpert 1996, the off-training-set averaging form). For every
deterministic learner and fixed training inputs, averaged uniformly over all
:math:`K^N` targets, :math:`\frac1{K^N}\sum_f E_{\mathrm{OTS}}(A,f)=1-\frac1K`
(one half for two labels). *Proof*: :math:`h` depends on :math:`f` only
through :math:`f|_S`, and for each :math:`x\notin S` the value :math:`f(x)`
is uniform and independent of :math:`f|_S` when :math:`f` is uniform, so
:math:`P(h(x)\ne f(x))=1-1/K` at every unseen point. (Shalev-Shwartz &
Ben-David 2014, Thm 5.1, derive from the same averaging a different,
distributional statement: for every learner there is a distribution on which
it fails with probability at least 1/7. That form is not what this module
checks.)

:func:`off_training_set_errors` runs a learner on every target and returns
the errors as exact fractions, so that the average can be compared with
:math:`1-1/K` by equality, not closeness.
"""

import itertools
from fractions import Fraction

import numpy as np
from sklearn.base import clone

from .validation import check_int


def off_training_set_errors(learner, domain, train_indices, *, n_classes=2):
    r"""The OTS error of ``learner`` for every target labelling of ``domain``.

    Parameters
    ----------
    learner : estimator or callable
        An unfitted classifier with ``fit`` and ``predict`` (cloned for each
        training labelling; it must accept a training set with a single
        class, as mllib's ``DecisionTreeClassifier`` and ``DummyClassifier``
        do, but not its ``KNeighborsClassifier``), or a callable
        ``learner(X_train, y_train, X_test) -> predictions``.
    domain : array-like of shape (N, n_features)
        The points :math:`x_1,\dots,x_N` (a 1-D array is one feature).
    train_indices : sequence of int
        Rows of ``domain`` in the training sample; repeats are allowed. At
        least one point of the domain must stay unseen.
    n_classes : int, default=2
        :math:`K`; labels are :math:`0,\dots,K-1`.

    Returns
    -------
    errors : list of Fraction, length :math:`K^N`
        ``errors[j]`` is :math:`E_{\mathrm{OTS}}` for the ``j``-th target in
        ``itertools.product(range(K), repeat=N)`` order (:math:`f(x_1)` is the
        most significant digit). Their mean is exactly :math:`1-1/K`.

    Notes
    -----
    The learner is trained once per labelling of the *training* points
    (:math:`K^{|S|}` fits, not :math:`K^N`): targets that agree on the sample
    give the same classifier, which is the heart of the proof.
    """
    domain, train, unseen, n_classes = _check_problem(
        domain, train_indices, n_classes
    )
    fit_predict = _as_fit_predict(learner)
    predictions = {}  # training labels -> predictions on the unseen points
    errors = []
    for target in itertools.product(range(n_classes), repeat=len(domain)):
        target = np.array(target)
        seen = tuple(target[train])
        if seen not in predictions:  # h depends on the training labels only
            predictions[seen] = np.asarray(
                fit_predict(domain[train], target[train], domain[unseen])
            )
        mistakes = np.count_nonzero(predictions[seen] != target[unseen])
        errors.append(Fraction(int(mistakes), len(unseen)))
    return errors


def _as_fit_predict(learner):
    if callable(learner) and not hasattr(learner, "fit"):
        return learner
    if not (hasattr(learner, "fit") and hasattr(learner, "predict")):
        raise TypeError(
            "learner must be an estimator with fit and predict, or a callable "
            f"learner(X_train, y_train, X_test); got {learner!r}."
        )

    def fit_predict(X_train, y_train, X_test):
        return clone(learner).fit(X_train, y_train).predict(X_test)

    return fit_predict


def _check_problem(domain, train_indices, n_classes):
    """The domain as an (N, n_features) array, the training rows, the unseen
    rows and K, or a ValueError that says what is wrong."""
    domain = np.asarray(domain)
    if domain.ndim == 1:
        domain = domain[:, None]
    if domain.ndim != 2 or len(domain) == 0:
        raise ValueError(
            "domain must be a non-empty array of shape (N, n_features); got "
            f"shape {domain.shape}."
        )
    n_points = len(domain)
    n_classes = check_int(n_classes, "n_classes", low=2)
    if n_classes**n_points > 2**20:
        raise ValueError(
            f"{n_classes}**{n_points} targets are too many to enumerate; use "
            "a domain of at most 20 points for two labels."
        )
    train = np.asarray(train_indices)
    if (
        train.ndim != 1
        or len(train) == 0
        or train.dtype.kind not in "iu"
        or train.min() < 0
        or train.max() >= n_points
    ):
        raise ValueError(
            "train_indices must be a non-empty 1-D sequence of integers in "
            f"0..{n_points - 1}; got {train_indices!r}."
        )
    unseen = np.setdiff1d(np.arange(n_points), train)
    if len(unseen) == 0:
        raise ValueError(
            "the training sample covers the whole domain, so there is no "
            "off-training-set point to be wrong on; leave some out."
        )
    return domain, train, unseen, n_classes
