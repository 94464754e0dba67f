"""Classification and ranking metrics against scikit-learn, brute force and the rank statistic."""

import itertools
import warnings

import numpy as np
import pytest
from scipy.stats import mannwhitneyu
from sklearn import metrics as sk

from mllib.metrics import (
    auc,
    confusion_matrix,
    f1_score,
    log_loss,
    precision_score,
    recall_score,
    roc_auc_score,
    roc_curve,
)


@pytest.fixture(params=range(6))
def labelled_predictions(request):
    rng = np.random.default_rng(request.param)
    n = int(rng.integers(5, 60))
    K = int(rng.integers(2, 5))
    return rng.integers(0, K, n), rng.integers(0, K, n)


def test_confusion_matrix_matches_sklearn(labelled_predictions):
    t, p = labelled_predictions
    np.testing.assert_array_equal(
        confusion_matrix(t, p), sk.confusion_matrix(t, p)
    )
    labels = np.unique(t)[
        ::-1
    ]  # reversed order, possibly missing predicted-only classes
    np.testing.assert_array_equal(
        confusion_matrix(t, p, labels=labels),
        sk.confusion_matrix(t, p, labels=labels),
    )


def test_confusion_matrix_layout_and_strings():
    t = ["cat", "dog", "dog", "cat", "bird"]
    p = ["cat", "cat", "dog", "bird", "bird"]
    C = confusion_matrix(t, p)  # rows true (bird, cat, dog), columns predicted
    np.testing.assert_array_equal(C, [[1, 0, 0], [1, 1, 0], [0, 1, 1]])
    tn, fp, fn, tp = confusion_matrix([0, 0, 1, 1, 1], [0, 1, 0, 1, 1]).ravel()
    assert (tn, fp, fn, tp) == (1, 1, 1, 2)
    with pytest.raises(ValueError, match="None of the labels"):
        confusion_matrix([0, 1], [0, 1], labels=[5])
    with pytest.raises(ValueError, match="distinct"):
        confusion_matrix([0, 1], [0, 1], labels=[0, 0])


@pytest.mark.parametrize("average", ["micro", "macro", "weighted", None])
@pytest.mark.parametrize(
    "metric", ["precision_score", "recall_score", "f1_score"]
)
def test_averaged_scores_match_sklearn(labelled_predictions, metric, average):
    t, p = labelled_predictions
    ours = globals()[metric](t, p, average=average, zero_division=0.0)
    theirs = getattr(sk, metric)(t, p, average=average, zero_division=0.0)
    np.testing.assert_allclose(ours, theirs, atol=1e-14)
    labels = np.unique(t)[:2]
    np.testing.assert_allclose(
        globals()[metric](
            t, p, labels=labels, average=average, zero_division=1.0
        ),
        getattr(sk, metric)(
            t, p, labels=labels, average=average, zero_division=1.0
        ),
    )


def test_binary_scores_from_counts_and_pos_label():
    t = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    p = np.array([1, 1, 1, 0, 1, 1, 0, 0, 0, 0])  # TP=3, FN=1, FP=2, TN=4
    assert precision_score(t, p) == pytest.approx(3 / 5)
    assert recall_score(t, p) == pytest.approx(3 / 4)
    assert f1_score(t, p) == pytest.approx(2 * 3 / (2 * 3 + 2 + 1))
    assert f1_score(t, p) == pytest.approx(
        2 * 0.6 * 0.75 / (0.6 + 0.75)
    )  # the harmonic mean
    assert precision_score(t, p, pos_label=0) == pytest.approx(
        4 / 5
    )  # the other class as positive
    s_t, s_p = np.where(t == 1, "spam", "ham"), np.where(p == 1, "spam", "ham")
    assert recall_score(s_t, s_p, pos_label="spam") == sk.recall_score(
        s_t, s_p, pos_label="spam"
    )
    for metric in (precision_score, recall_score, f1_score):
        assert metric(t, p) == getattr(sk, metric.__name__)(t, p)


def test_zero_division():
    t, p = np.array([0, 0, 1]), np.array([0, 0, 0])  # no positive predictions
    with pytest.warns(UserWarning, match="ill-defined"):
        assert precision_score(t, p) == 0.0
    assert precision_score(t, p, zero_division=1.0) == 1.0
    assert np.isnan(precision_score(t, p, zero_division=np.nan))
    assert recall_score(t, p) == 0.0  # defined: one positive, not found
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning when nothing is undefined
        f1_score([0, 1], [0, 1])


def test_bad_averages_and_labels():
    with pytest.raises(ValueError, match="binary"):
        precision_score([0, 1, 2], [0, 1, 2])
    with pytest.raises(ValueError, match="pos_label"):
        precision_score(["a", "b"], ["a", "b"])  # pos_label=1 is not a class
    with pytest.raises(ValueError, match="average"):
        recall_score([0, 1], [0, 1], average="samples")
    with pytest.raises(ValueError, match="zero_division"):
        f1_score([0, 1], [0, 1], zero_division=0.5)


def test_log_loss_matches_sklearn():
    rng = np.random.default_rng(0)
    t = rng.integers(0, 3, 40)
    P = rng.dirichlet(np.ones(3), 40)
    assert log_loss(t, P) == pytest.approx(sk.log_loss(t, P), rel=1e-13)
    assert log_loss(t, P, normalize=False) == pytest.approx(
        sk.log_loss(t, P, normalize=False), rel=1e-13
    )
    assert log_loss(t, P) == pytest.approx(
        -np.mean(np.log(P[np.arange(40), t])), rel=1e-13
    )
    b = rng.integers(0, 2, 30)
    q = rng.random(30)
    assert log_loss(b, q) == pytest.approx(
        sk.log_loss(b, q), rel=1e-13
    )  # 1-D: P(larger class)
    assert log_loss(
        [0, 2], [[0.6, 0.3, 0.1], [0.2, 0.2, 0.6]], labels=[0, 1, 2]
    ) == pytest.approx(-(np.log(0.6) + np.log(0.6)) / 2)
    certain_and_wrong = log_loss([1], [[1.0, 0.0]], labels=[0, 1])
    assert certain_and_wrong == pytest.approx(
        -np.log(np.finfo(float).eps)
    )  # clipped, not infinite


def test_log_loss_bad_input():
    with pytest.raises(ValueError, match="sum to 1"):
        log_loss([0, 1], [[0.5, 0.6], [0.2, 0.8]])
    with pytest.raises(ValueError, match="labels"):
        log_loss([0, 0], [[0.5, 0.3, 0.2], [0.2, 0.2, 0.6]])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        log_loss([0, 1], [[1.5, -0.5], [0.2, 0.8]])


# --- ROC and AUC ---------------------------------------------------------------------------


def scores_with_ties(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 80))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    return y, np.round(
        rng.normal(size=n) + y, int(rng.integers(0, 2))
    )  # rounding creates ties


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("drop_intermediate", [True, False])
def test_roc_curve_matches_sklearn_including_ties(seed, drop_intermediate):
    y, s = scores_with_ties(seed)
    for ours, theirs in zip(
        roc_curve(y, s, drop_intermediate=drop_intermediate),
        sk.roc_curve(y, s, drop_intermediate=drop_intermediate),
    ):
        np.testing.assert_allclose(ours, theirs)
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    assert (
        thr[0] == np.inf and fpr[0] == tpr[0] == 0 and fpr[-1] == tpr[-1] == 1
    )
    for f, t, threshold in zip(
        fpr, tpr, thr
    ):  # each point is the rule "score >= threshold"
        predicted = s >= threshold
        assert f == pytest.approx(
            np.mean(predicted[y == 0])
        ) and t == pytest.approx(np.mean(predicted[y == 1]))
    assert (
        len(thr) == len(np.unique(s)) + 1
    )  # one threshold per distinct score


def test_tied_scores_move_the_curve_diagonally():
    y = np.array([0, 1, 0, 1])
    s = np.array(
        [0.2, 0.5, 0.5, 0.9]
    )  # one positive and one negative tied at 0.5
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(thr, [np.inf, 0.9, 0.5, 0.2])
    np.testing.assert_allclose(fpr, [0, 0, 0.5, 1])
    np.testing.assert_allclose(
        tpr, [0, 0.5, 1, 1]
    )  # (0, .5) -> (.5, 1): a diagonal step
    assert roc_auc_score(y, s) == pytest.approx(
        0.5 * 0.5 + 0.5 * 0.5 * 0.5 + 0.5 * 1
    )  # = 0.875


def test_drop_intermediate_keeps_the_shape():
    y = np.array([1, 1, 1, 0, 0, 0, 1, 0])
    s = -np.arange(8.0)  # distinct scores, straight runs of equal steps
    full, dropped = roc_curve(y, s, drop_intermediate=False), roc_curve(y, s)
    assert len(dropped[0]) < len(full[0])
    assert auc(dropped[0], dropped[1]) == auc(full[0], full[1])
    kept = np.flatnonzero(
        np.isin(full[2], dropped[2])
    )  # the surviving thresholds
    for i in np.setdiff1d(
        np.arange(len(full[2])), kept
    ):  # a dropped point lies on its kept neighbours' segment
        a, b = kept[kept < i].max(), kept[kept > i].min()
        u = (full[0][b] - full[0][a], full[1][b] - full[1][a])
        v = (full[0][i] - full[0][a], full[1][i] - full[1][a])
        assert u[0] * v[1] - u[1] * v[0] == pytest.approx(0, abs=1e-15)


def pairwise_auc(y, s):
    """P(s+ > s-) + ½ P(s+ = s-) by counting every positive-negative pair."""
    pairs = list(itertools.product(s[y == 1], s[y == 0]))
    return sum((a > b) + 0.5 * (a == b) for a, b in pairs) / len(pairs)


@pytest.mark.parametrize("seed", range(8))
def test_auc_is_the_mann_whitney_statistic(seed):
    y, s = scores_with_ties(seed)
    area = roc_auc_score(y, s)
    assert area == pytest.approx(sk.roc_auc_score(y, s), abs=1e-12)
    assert area == pytest.approx(pairwise_auc(y, s), abs=1e-12)
    U = mannwhitneyu(
        s[y == 1], s[y == 0]
    ).statistic  # scipy's U of the first sample
    assert area == pytest.approx(
        U / (np.sum(y == 1) * np.sum(y == 0)), abs=1e-12
    )


def test_auc_special_values_and_labels():
    y = np.array([0, 0, 1, 1])
    assert roc_auc_score(y, [0.1, 0.2, 0.3, 0.4]) == 1.0
    assert roc_auc_score(y, [0.4, 0.3, 0.2, 0.1]) == 0.0
    assert (
        roc_auc_score(y, [0.5] * 4) == 0.5
    )  # one tie for everything: the diagonal
    assert (
        roc_auc_score(np.array(["a", "a", "b", "b"]), [0.1, 0.2, 0.3, 0.4])
        == 1.0
    )  # "b" positive
    assert roc_auc_score(np.array([-1, -1, 1, 1]), [0.1, 0.2, 0.3, 0.4]) == 1.0
    fpr, tpr, _ = roc_curve(["n", "p", "p"], [0.1, 0.2, 0.3], pos_label="p")
    np.testing.assert_allclose(tpr, [0, 0.5, 1, 1])
    assert auc([0, 0.5, 1], [0, 1, 1]) == 0.75
    assert (
        auc([1, 0.5, 0], [1, 1, 0]) == 0.75
    )  # decreasing x gives the same area
    assert auc([0, 1, 2], [1, 2, 3]) == sk.auc([0, 1, 2], [1, 2, 3])


def test_roc_bad_input():
    with pytest.raises(ValueError, match="one class"):
        roc_curve([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="two classes"):
        roc_auc_score([0, 0, 0], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="pos_label"):
        roc_curve(["a", "b"], [0.1, 0.2])
    with pytest.raises(ValueError, match="NaN"):
        roc_curve([0, 1], [np.nan, 0.2])
    with pytest.raises(ValueError, match="neither increasing nor decreasing"):
        auc([0, 1, 0.5], [0, 1, 1])
    with pytest.raises(ValueError, match="different lengths"):
        roc_curve([0, 1], [0.1, 0.2, 0.3])
