"""Classification metrics."""

import warnings

import numpy as np

from ..validation import check_sample_weight
from ._checks import check_consistent_targets


def accuracy_score(y_true, y_pred, *, sample_weight=None):
    r"""Fraction of correct predictions, :math:`\frac1n\sum_i \mathbb 1[\hat
    y_i = y_i]`, or with weights :math:`\sum_iw_i\mathbb 1[\hat y_i =
    y_i]/\sum_iw_i`.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Class labels of any type that compares with ``==``.
    sample_weight : array-like of shape (n_samples,), optional
    """
    y_true, y_pred = check_consistent_targets(y_true, y_pred, numeric=False)
    if sample_weight is None:
        return float(np.mean(y_true == y_pred))
    sample_weight = check_sample_weight(sample_weight, len(y_true))
    return float(np.average(y_true == y_pred, weights=sample_weight))


def confusion_matrix(y_true, y_pred, *, labels=None):
    r"""Counts :math:`C_{jk}` of samples with true class ``labels[j]``
    predicted as ``labels[k]``.

    Rows are true classes and columns predictions, as in scikit-learn; for two
    classes ordered (negative, positive) that is ``[[TN, FP], [FN, TP]]``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    labels : array-like of shape (n_classes,), optional
        Classes and their order; default the sorted union of ``y_true`` and
        ``y_pred``. Samples whose true or predicted class is not listed are
        left out.

    Returns
    -------
    ndarray of shape (n_classes, n_classes), integer counts
    """
    y_true, y_pred = check_consistent_targets(y_true, y_pred, numeric=False)
    labels = _check_labels(y_true, y_pred, labels)
    if not np.isin(labels, y_true).any():
        raise ValueError(
            f"None of the labels {labels} occurs in y_true; at least one must."
        )
    true_index, pred_index = (
        _label_index(y_true, labels),
        _label_index(y_pred, labels),
    )
    kept = (true_index >= 0) & (pred_index >= 0)
    flat = true_index[kept] * len(labels) + pred_index[kept]
    return np.bincount(flat, minlength=len(labels) ** 2).reshape(
        len(labels), len(labels)
    )


def precision_score(
    y_true,
    y_pred,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    zero_division="warn",
):
    r"""Precision :math:`TP/(TP+FP)`: the fraction of positive predictions that
    are right.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    labels : array-like, optional
        The classes to score when ``average`` is not ``"binary"`` (default: all
        present).
    pos_label : label, default 1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted", None}
        ``"binary"``: the score of ``pos_label`` (two classes only). ``None``:
        one score per class. ``"macro"``: their unweighted mean;
        ``"weighted"``: their mean weighted by the class sizes; ``"micro"``:
        the score of the pooled counts (for single-label data equal to the
        accuracy).
    zero_division : {"warn", 0.0, 1.0, np.nan}
        The value returned when there are no positive predictions (``"warn"``:
        0 with a warning), as in scikit-learn.
    """
    return _precision_recall_f1(
        y_true, y_pred, labels, pos_label, average, zero_division, "precision"
    )[0]


def recall_score(
    y_true,
    y_pred,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    zero_division="warn",
):
    r"""Recall (sensitivity, true-positive rate) :math:`TP/(TP+FN)`: the
    fraction of positives found.

    Parameters as in :func:`precision_score`; the zero division occurs when a
    class has no true samples.
    """
    return _precision_recall_f1(
        y_true, y_pred, labels, pos_label, average, zero_division, "recall"
    )[1]


def f1_score(
    y_true,
    y_pred,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    zero_division="warn",
):
    r""":math:`F_1 = \frac{2PR}{P+R} = \frac{2TP}{2TP+FP+FN}`, the harmonic
    mean of precision and recall.

    Parameters as in :func:`precision_score`; the zero division occurs when
    :math:`TP+FP+FN=0`. The second form is used, so :math:`F_1` is defined (and
    0) when :math:`TP=0` but some predictions or true samples are positive.
    """
    return _precision_recall_f1(
        y_true, y_pred, labels, pos_label, average, zero_division, "F1"
    )[2]


def log_loss(y_true, y_proba, *, labels=None, normalize=True):
    r"""Cross-entropy :math:`-\frac1n\sum_i\log \hat p_{i,y_i}` of predicted
    probabilities.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Probabilities with columns in the order of the sorted classes; a 1-D
        array is the probability of the larger of two classes. Rows must sum to
        1.
    labels : array-like, optional
        All the classes, when ``y_true`` does not contain every one of them.
    normalize : bool
        Mean over samples (default) or sum.

    Notes
    -----
    As in scikit-learn, probabilities are clipped to :math:`[\epsilon,
    1-\epsilon]` with :math:`\epsilon` the machine epsilon, so a confident
    mistake costs about 36 instead of :math:`\infty`. Unlike scikit-learn,
    which only warns, rows that do not sum to 1 raise a ``ValueError``.
    """
    y_true = np.asarray(y_true)
    proba = np.asarray(y_proba, dtype=float)
    if proba.ndim == 1:
        proba = np.column_stack([1 - proba, proba])
    if (
        y_true.ndim != 1
        or proba.ndim != 2
        or len(proba) != len(y_true)
        or len(y_true) == 0
    ):
        raise ValueError(
            "y_true must be 1-D and y_proba (n_samples, n_classes) with "
            "the same n_samples > 0; "
            f"got shapes {y_true.shape} and {np.shape(y_proba)}."
        )
    if not np.all(np.isfinite(proba)) or proba.min() < 0 or proba.max() > 1:
        raise ValueError("y_proba must contain probabilities in [0, 1].")
    if not np.allclose(
        proba.sum(axis=1), 1.0, rtol=np.sqrt(np.finfo(float).eps)
    ):
        raise ValueError(
            "The rows of y_proba do not sum to 1; pass probabilities "
            "(e.g. predict_proba)."
        )
    classes = np.unique(y_true) if labels is None else np.unique(labels)
    if len(classes) != proba.shape[1]:
        raise ValueError(
            f"y_proba has {proba.shape[1]} columns but there are "
            f"{len(classes)} classes "
            f"{classes[:10]}; pass every class through the labels argument."
        )
    index = _label_index(y_true, classes)
    if np.any(index < 0):
        raise ValueError("y_true contains a label that is not in labels.")
    eps = np.finfo(float).eps
    losses = -np.log(
        np.clip(proba[np.arange(len(index)), index], eps, 1 - eps)
    )
    return float(np.mean(losses) if normalize else np.sum(losses))


def _check_labels(y_true, y_pred, labels):
    if labels is None:
        return np.unique(np.concatenate([y_true, y_pred]))
    labels = np.asarray(labels)
    if (
        labels.ndim != 1
        or len(labels) == 0
        or len(np.unique(labels)) != len(labels)
    ):
        raise ValueError(
            "labels must be a non-empty 1-D array of distinct classes; "
            f"got {labels!r}."
        )
    return labels


def _label_index(y, labels):
    """Position of each entry of ``y`` in ``labels``, -1 where it is absent."""
    order = np.argsort(labels, kind="stable")
    sorted_labels = labels[order]
    position = np.clip(np.searchsorted(sorted_labels, y), 0, len(labels) - 1)
    return np.where(sorted_labels[position] == y, order[position], -1)


def _precision_recall_f1(
    y_true, y_pred, labels, pos_label, average, zero_division, requested
):
    """Per-class or averaged (precision, recall, F1), following scikit-learn;
    only the ``requested`` score warns about a zero division."""
    if average not in ("binary", "micro", "macro", "weighted", None):
        raise ValueError(
            'average must be "binary", "micro", "macro", "weighted" or '
            f"None; got {average!r}."
        )
    if not (
        isinstance(zero_division, str) and zero_division == "warn"
    ) and not (zero_division in (0.0, 1.0) or np.isnan(zero_division)):
        raise ValueError(
            'zero_division must be "warn", 0.0, 1.0 or np.nan; got '
            f"{zero_division!r}."
        )
    y_true, y_pred = check_consistent_targets(y_true, y_pred, numeric=False)
    present = np.unique(np.concatenate([y_true, y_pred]))
    if average == "binary":
        if len(present) > 2:
            raise ValueError(
                "average='binary' needs two classes, but y_true and "
                f"y_pred contain {len(present)}: "
                f"{present[:10]}. Choose average='macro', 'micro', "
                "'weighted' or None."
            )
        if pos_label not in present and len(present) == 2:
            raise ValueError(
                f"pos_label={pos_label!r} is not a valid label; it must "
                f"be one of {present}."
            )
        labels = np.asarray([pos_label])
    else:
        labels = (
            present
            if labels is None
            else _check_labels(y_true, y_pred, labels)
        )
    is_true = y_true[:, None] == labels[None, :]
    is_pred = y_pred[:, None] == labels[None, :]
    tp, true_sum, pred_sum = (
        np.sum(is_true & is_pred, 0),
        np.sum(is_true, 0),
        np.sum(is_pred, 0),
    )
    if average == "micro":
        tp, true_sum, pred_sum = (
            np.array([a.sum()]) for a in (tp, true_sum, pred_sum)
        )
    precision = _divide(tp, pred_sum, zero_division, "precision", requested)
    recall = _divide(tp, true_sum, zero_division, "recall", requested)
    f1 = _divide(
        2 * tp,
        2 * tp + (pred_sum - tp) + (true_sum - tp),
        zero_division,
        "F1",
        requested,
    )
    if average is None:
        return precision, recall, f1
    weights = true_sum if average == "weighted" else None
    if weights is not None and weights.sum() == 0:
        weights = None
    return tuple(
        _mean_ignoring_nan(score, weights) for score in (precision, recall, f1)
    )


def _divide(numerator, denominator, zero_division, name, requested):
    result = numerator / np.where(denominator == 0, 1, denominator)
    undefined = denominator == 0
    if undefined.any():
        if isinstance(zero_division, str) and name == requested:
            warnings.warn(
                f"{name} is ill-defined (0/0) for {undefined.sum()} "
                "class(es) and is set to 0; "
                "use the zero_division argument to choose the value.",
                UserWarning,
                stacklevel=4,
            )
        if isinstance(zero_division, str):
            zero_division = 0.0
        result = np.where(undefined, zero_division, result)
    return result


def _mean_ignoring_nan(score, weights):
    keep = ~np.isnan(score)
    if not keep.any():
        return float("nan")
    return float(
        np.average(
            score[keep], weights=None if weights is None else weights[keep]
        )
    )
