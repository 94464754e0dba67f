r"""Metrics of a score's ranking: the ROC curve and the area under it.

A binary classifier that outputs a score :math:`s(x)` predicts positive when
:math:`s(x)\ge t`. Lowering the threshold :math:`t` from :math:`+\infty` traces
the **ROC curve** of false-positive rate :math:`FP/(FP+TN)` against
true-positive rate :math:`TP/(TP+FN)` from :math:`(0,0)` to :math:`(1,1)`. The
area under it, the **AUC**, is the probability that a random positive scores
above a random negative, ties counting one half: the Mann–Whitney statistic
:math:`U/(n_+n_-)`.
"""

import numpy as np

from ._checks import check_consistent_targets


def roc_curve(y_true, y_score, *, pos_label=None, drop_intermediate=True):
    """False- and true-positive rates at every distinct threshold, as
    scikit-learn computes them.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two classes; with ``pos_label=None`` they must be {0, 1} or {-1, 1}.
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning more positive (probabilities or decision
        values).
    pos_label : label, optional
        The positive class.
    drop_intermediate : bool
        Drop a threshold when both its false-positive and true-positive counts
        step by the same amounts to the previous and the next threshold (zero
        second differences): an interior point of a straight run, which changes
        neither the plotted curve nor the area. Other collinear points are kept
        (scikit-learn's rule).

    Returns
    -------
    fpr, tpr : ndarray of shape (m,)
        Non-decreasing rates; ``fpr[i]`` and ``tpr[i]`` are those of the rule
        ``score >= thresholds[i]``.
    thresholds : ndarray of shape (m,)
        Decreasing: ``inf`` (nothing predicted positive, the point (0, 0)),
        then the distinct scores. **Tied scores form one threshold**: all
        samples with the same score change prediction together, so the curve
        moves diagonally over a tie of positives and negatives.
    """
    y_true, y_score = check_consistent_targets(y_true, y_score, numeric=False)
    y_score = y_score.astype(float)
    if not np.all(np.isfinite(y_score)):
        raise ValueError("y_score contains NaN or infinity.")
    positive = _positive_mask(y_true, pos_label)
    if positive.all() or not positive.any():
        raise ValueError(
            "y_true contains only one class, so one of the rates has a "
            "zero denominator and the "
            "ROC curve is undefined. Both classes must be present."
        )
    order = np.argsort(y_score, kind="mergesort")[::-1]  # decreasing scores
    score, positive = y_score[order], positive[order]
    # the last index of each group of tied scores: one threshold per distinct
    # score
    last_of_tie = np.r_[np.flatnonzero(np.diff(score)), len(score) - 1]
    tps = np.cumsum(positive)[last_of_tie].astype(float)
    fps = (last_of_tie + 1) - tps
    thresholds = score[last_of_tie]
    if drop_intermediate and len(fps) > 2:
        corner = np.r_[
            True, (np.diff(fps, 2) != 0) | (np.diff(tps, 2) != 0), True
        ]
        fps, tps, thresholds = fps[corner], tps[corner], thresholds[corner]
    fps, tps = np.r_[0.0, fps], np.r_[0.0, tps]
    return fps / fps[-1], tps / tps[-1], np.r_[np.inf, thresholds]


def auc(x, y):
    r"""Area under the piecewise-linear curve through the points ``(x, y)``, by
    the trapezoidal rule.

    ``x`` must be monotonic (either direction; a decreasing ``x`` gives the
    same positive area).
    """
    x, y = check_consistent_targets(x, y, numeric=True)
    if len(x) < 2:
        raise ValueError(
            f"At least 2 points are needed to compute an area; got {len(x)}."
        )
    dx = np.diff(x)
    if np.any(dx < 0) and np.any(dx > 0):
        raise ValueError(
            "x is neither increasing nor decreasing; sort the points by "
            "x first."
        )
    return float(abs(np.sum(dx * (y[1:] + y[:-1]) / 2)))


def roc_auc_score(y_true, y_score):
    r"""Area under the ROC curve of binary ``y_true`` (the larger label is
    positive).

    Equal to :math:`P(s^+ > s^-) + \frac12 P(s^+ = s^-)` for a random positive
    and a random negative sample, i.e. the Mann–Whitney :math:`U/(n_+n_-)`.
    Only the binary case is implemented; for several classes, score each class
    against the rest.
    """
    classes = np.unique(np.asarray(y_true))
    if len(classes) != 2:
        raise ValueError(
            "roc_auc_score needs exactly two classes in y_true; got "
            f"{len(classes)}: {classes[:10]}. "
            "For several classes, compute one-vs-rest AUCs class by class."
        )
    fpr, tpr, _ = roc_curve(y_true, y_score, pos_label=classes[1])
    return auc(fpr, tpr)


def _positive_mask(y_true, pos_label):
    classes = np.unique(y_true)
    if pos_label is None:
        numeric = y_true.dtype.kind in "biuf"
        if not numeric or not (
            set(classes.tolist()) <= {0, 1} or set(classes.tolist()) <= {-1, 1}
        ):
            raise ValueError(
                f"y_true has classes {classes[:10]}, not {{0, 1}} or "
                f"{{-1, 1}}; pass pos_label to "
                "say which class is positive."
            )
        pos_label = 1
    if len(classes) > 2:
        raise ValueError(
            "y_true must have two classes for a ROC curve; got "
            f"{len(classes)}."
        )
    return y_true == pos_label
