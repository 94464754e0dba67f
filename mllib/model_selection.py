r"""Estimating risk from data: hold-out splits, cross-validation and grid
search.

The splitters return index arrays, as scikit-learn's do, so one split can be
applied to several arrays. Without shuffling, ``train_test_split``, ``KFold``
and ``StratifiedKFold`` produce exactly scikit-learn's splits; with shuffling
they use a ``numpy.random.Generator`` (scikit-learn uses the legacy
``RandomState``), so the folds have the same sizes and structure but different
members.

``cross_val_score`` returns one score per fold, and ``GridSearchCV`` ranks
parameter values by their **unweighted** mean over folds, as scikit-learn does.
The size-weighted mean :math:`\sum_b \frac{n_b}{n}\,\mathrm{MSE}_b` equals the
pooled error over all held-out predictions; the two agree when the folds have
equal sizes.
"""

import numbers
from itertools import product

import numpy as np
from sklearn.base import (
    BaseEstimator,
    MetaEstimatorMixin,
    clone,
    is_classifier,
)
from sklearn.utils import check_X_y, get_tags
from sklearn.utils.validation import check_is_fitted, validate_data

from .metrics import accuracy_score, mean_squared_error, r2_score
from .validation import available_if, check_random_state, encode_classes


def _check_n_splits(n_splits, n_samples):
    if (
        isinstance(n_splits, bool)
        or not isinstance(n_splits, numbers.Integral)
        or n_splits < 2
    ):
        raise ValueError(
            f"n_splits must be an integer of at least 2; got {n_splits!r}."
        )
    if n_splits > n_samples:
        raise ValueError(
            f"Cannot make n_splits={n_splits} folds from {n_samples} "
            "samples; each fold needs "
            "at least one sample. Lower n_splits."
        )


def _check_shuffle_seed(splitter):
    if not splitter.shuffle and splitter.random_state is not None:
        raise ValueError(
            "random_state has no effect unless shuffle=True; set "
            "shuffle=True or leave "
            "random_state=None."
        )


class KFold:
    """Split ``n`` samples into ``n_splits`` consecutive folds; each fold is
    the test set once.

    The first ``n % n_splits`` folds have ``n // n_splits + 1`` samples, the
    rest ``n // n_splits`` (scikit-learn's rule). With ``shuffle=True`` the
    sample order is permuted once before the folds are cut.

    Parameters
    ----------
    n_splits : int, at least 2
    shuffle : bool
    random_state : None, int, numpy.random.Generator or RandomState
        Used only when ``shuffle=True``.

    Equivalent to ``sklearn.model_selection.KFold`` (identical folds when
    ``shuffle=False``).
    """

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        self.n_splits = n_splits
        self.shuffle = shuffle
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits

    def _test_folds(self, n_samples, y):
        """Fold number of every sample, shape (n_samples,)."""
        order = np.arange(n_samples)
        if self.shuffle:
            order = check_random_state(self.random_state).permutation(
                n_samples
            )
        sizes = np.full(self.n_splits, n_samples // self.n_splits)
        sizes[: n_samples % self.n_splits] += 1
        folds = np.empty(n_samples, dtype=int)
        folds[order] = np.repeat(np.arange(self.n_splits), sizes)
        return folds

    def split(self, X, y=None, groups=None):
        """Yield ``(train_index, test_index)`` per fold, test folds in order.

        ``groups`` is ignored; it is there for scikit-learn's
        cross-validation functions, which pass it to every splitter.
        """
        n_samples = np.shape(X)[0]  # sparse X has no len
        _check_n_splits(self.n_splits, n_samples)
        _check_shuffle_seed(self)
        folds = self._test_folds(n_samples, y)
        for k in range(self.n_splits):
            yield np.flatnonzero(folds != k), np.flatnonzero(folds == k)


class StratifiedKFold(KFold):
    """K-fold whose folds keep the class proportions of ``y`` (as nearly as
    counts allow).

    Classes are dealt to the folds round-robin in order of first appearance,
    and each class's samples go to the folds in blocks (scikit-learn's
    algorithm, so the folds are identical to
    ``sklearn.model_selection.StratifiedKFold`` when ``shuffle=False``).
    ``cross_val_score`` uses it when ``cv`` is an integer and the estimator is
    a classifier, as scikit-learn does.
    """

    def _test_folds(self, n_samples, y):
        if y is None:
            raise ValueError(
                "StratifiedKFold needs the class labels y to stratify on."
            )
        _, y_index = encode_classes(y, allow_one_class=True)
        # Renumber classes by first appearance, as scikit-learn does.
        _, first_seen = np.unique(y_index, return_index=True)
        y_encoded = np.argsort(np.argsort(first_seen))[y_index]
        n_classes = len(first_seen)
        if np.all(self.n_splits > np.bincount(y_encoded)):
            raise ValueError(
                f"n_splits={self.n_splits} is more than every class's size."
            )
        dealt = np.sort(y_encoded)
        allocation = np.array(
            [
                np.bincount(dealt[k :: self.n_splits], minlength=n_classes)
                for k in range(self.n_splits)
            ]
        )
        rng = check_random_state(self.random_state) if self.shuffle else None
        folds = np.empty(n_samples, dtype=int)
        for c in range(n_classes):
            folds_for_class = np.repeat(
                np.arange(self.n_splits), allocation[:, c]
            )
            if rng is not None:
                rng.shuffle(folds_for_class)
            folds[y_encoded == c] = folds_for_class
        return folds


class LeaveOneOut:
    """Each sample is the test set once: ``n`` folds of size one (k-fold with
    ``k = n``)."""

    def get_n_splits(self, X=None, y=None, groups=None):
        return np.shape(X)[0]

    def split(self, X, y=None, groups=None):
        n_samples = np.shape(X)[0]
        if n_samples < 2:
            raise ValueError("LeaveOneOut needs at least 2 samples.")
        everything = np.arange(n_samples)
        for i in range(n_samples):
            yield np.delete(everything, i), np.array([i])


def train_test_split(
    *arrays, test_size=0.25, random_state=None, shuffle=True, stratify=None
):
    """Split arrays into a training and a test part: returns ``[a_train,
    a_test, b_train, ...]``.

    The test set has ``ceil(test_size * n)`` samples (or ``test_size`` samples
    if it is an integer). With ``shuffle=True`` a random permutation is cut
    into test (first) and training (rest) parts, as in scikit-learn; with
    ``shuffle=False`` the last samples are the test set, exactly as in
    scikit-learn. With ``stratify=labels``, each class contributes to the test
    set in proportion to its size (largest remainders get the leftover places).
    """
    if not arrays:
        raise ValueError("train_test_split needs at least one array to split.")
    n = len(arrays[0])
    if any(len(a) != n for a in arrays):
        raise ValueError(
            "All arrays must have the same length; got "
            f"{[len(a) for a in arrays]}."
        )
    if isinstance(test_size, numbers.Integral) and not isinstance(
        test_size, bool
    ):
        n_test = int(test_size)
    elif isinstance(test_size, numbers.Real) and 0 < test_size < 1:
        n_test = int(np.ceil(test_size * n))
    else:
        raise ValueError(
            "test_size must be a float in (0, 1) or an int; got "
            f"{test_size!r}."
        )
    if not 1 <= n_test <= n - 1:
        raise ValueError(
            f"test_size={test_size!r} leaves {n_test} of {n} samples for "
            "testing; "
            "both parts need at least one sample."
        )
    if stratify is not None:
        if not shuffle:
            raise ValueError(
                "stratify needs shuffle=True (a stratified split is random)."
            )
        test = _stratified_test_indices(
            np.asarray(stratify), n_test, check_random_state(random_state)
        )
        train = np.setdiff1d(np.arange(n), test)
    elif shuffle:
        permutation = check_random_state(random_state).permutation(n)
        test, train = permutation[:n_test], permutation[n_test:]
    else:
        train, test = np.arange(n - n_test), np.arange(n - n_test, n)
    return [part for a in arrays for part in (_take(a, train), _take(a, test))]


def _stratified_test_indices(labels, n_test, rng):
    classes, y_index = encode_classes(labels, allow_one_class=True)
    counts = np.bincount(y_index)
    share = n_test * counts / counts.sum()
    per_class = np.floor(share).astype(int)
    leftover = np.argsort(-(share - per_class), kind="stable")[
        : n_test - per_class.sum()
    ]
    per_class[leftover] += 1
    return np.sort(
        np.concatenate(
            [
                rng.choice(
                    np.flatnonzero(y_index == c),
                    size=per_class[c],
                    replace=False,
                )
                for c in range(len(classes))
            ]
        )
    )


def _take(array, index):
    return (
        array[index]
        if isinstance(array, np.ndarray)
        else [array[i] for i in index]
    )


_SCORERS = {
    "neg_mean_squared_error": lambda est, X, y: (
        -mean_squared_error(y, est.predict(X))
    ),
    "r2": lambda est, X, y: r2_score(y, est.predict(X)),
    "accuracy": lambda est, X, y: accuracy_score(y, est.predict(X)),
}


def get_scorer(scoring):
    """``scorer(estimator, X, y) -> float``, larger is better; ``None`` means
    ``estimator.score``."""
    if scoring is None:
        return lambda est, X, y: est.score(X, y)
    if callable(scoring):
        return scoring
    if scoring not in _SCORERS:
        raise ValueError(
            f"Unknown scoring {scoring!r}; use None, a callable, or one "
            f"of {sorted(_SCORERS)}."
        )
    return _SCORERS[scoring]


def check_cv(cv, *, classifier=False):
    """Turn ``cv`` (None = 5, an int, a splitter, or an iterable of splits)
    into a splitter-like object."""
    if cv is None:
        cv = 5
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        return StratifiedKFold(cv) if classifier else KFold(cv)
    if hasattr(cv, "split"):
        return cv
    try:
        return _FixedSplits(list(cv))
    except TypeError:
        raise ValueError(
            "cv must be None, an int, a splitter or an iterable of "
            f"splits; got {cv!r}."
        ) from None


class _FixedSplits:
    def __init__(self, splits):
        self.splits = splits

    def split(self, X, y=None, groups=None):
        return iter(self.splits)


def cross_val_score(estimator, X, y, *, cv=None, scoring=None):
    """Score a fresh clone of ``estimator`` on each held-out fold; returns
    shape (n_splits,).

    Parameters
    ----------
    estimator : an mllib (or scikit-learn) estimator
        It is cloned, never fitted itself.
    X : array-like or scipy.sparse matrix of shape (n_samples, n_features)
        Sparse X is passed on as CSR (the estimator refuses it if it cannot
        take it).
    y : array-like of shape (n_samples,)
    cv : None, int, splitter or iterable, default None (5 folds)
        A splitter has ``split(X, y)``; an iterable yields (train, test) pairs.
        An integer gives ``StratifiedKFold`` for classifiers and ``KFold``
        otherwise.
    scoring : None, "neg_mean_squared_error", "r2", "accuracy" or callable
        None uses ``estimator.score``.

    Equivalent to ``sklearn.model_selection.cross_val_score`` (same folds, same
    scores).
    """
    X, y = check_X_y(X, y, accept_sparse="csr", dtype=np.float64)
    splitter = check_cv(cv, classifier=is_classifier(estimator))
    scorer = get_scorer(scoring)
    scores = [
        scorer(clone(estimator).fit(X[train], y[train]), X[test], y[test])
        for train, test in splitter.split(X, y)
    ]
    return np.array(scores, dtype=float)


def _parameter_grid(param_grid):
    """Every combination in ``param_grid`` (a dict or a list of dicts), keys in
    sorted order."""
    grids = [param_grid] if isinstance(param_grid, dict) else list(param_grid)
    for grid in grids:
        if not isinstance(grid, dict):
            raise ValueError(
                f"param_grid must be a dict or a list of dicts; got {grid!r}."
            )
        for name, values in grid.items():
            if (
                isinstance(values, (str, bytes))
                or not hasattr(values, "__len__")
                or len(values) == 0
            ):
                raise ValueError(
                    f"param_grid[{name!r}] must be a non-empty list of "
                    f"values; got {values!r}."
                )
        names = sorted(grid)
        for combination in product(*(grid[name] for name in names)):
            yield dict(zip(names, combination))


def _searched_has(method):
    """The check of a method a search passes on: available when the
    fitted ``best_estimator_`` (before fit, ``estimator``) has it, as in
    scikit-learn."""

    def check(search):
        inner = getattr(search, "best_estimator_", search.estimator)
        if not hasattr(inner, method):
            raise AttributeError(
                f"This {type(search).__name__} has no {method}: "
                f"{type(inner).__name__} has none."
            )
        return True

    return check


def _passed_on(method, what):
    """The search's ``method``: ``best_estimator_``'s on the validated
    ``X``, available when :func:`_searched_has` says so."""

    def pass_on(self, X):
        check_is_fitted(self)
        X = validate_data(
            self, X, accept_sparse="csr", dtype=np.float64, reset=False
        )
        return getattr(self.best_estimator_, method)(X)

    pass_on.__name__ = pass_on.__qualname__ = method
    pass_on.__doc__ = f"{what} of ``best_estimator_``."
    return available_if(_searched_has(method))(pass_on)


class GridSearchCV(MetaEstimatorMixin, BaseEstimator):
    """Choose hyperparameters by cross-validation over a grid, then refit on
    all the data.

    Every candidate is scored on the **same** folds; the best is the highest
    unweighted mean fold score (ties go to the first candidate), and
    ``best_estimator_`` is a clone with those parameters fitted on the whole of
    ``X, y``.

    Parameters
    ----------
    estimator : estimator to tune
    param_grid : dict of name -> list of values, or a list of such dicts
    scoring, cv : as in :func:`cross_val_score`

    Attributes
    ----------
    cv_results_ : dict with "params", "param_<name>", "split<k>_test_score",
        "mean_test_score", "std_test_score", "rank_test_score" (one entry per
        candidate)
    best_index_, best_params_, best_score_, best_estimator_, n_splits_
    classes_ : ndarray of shape (n_classes,)
        Those of ``best_estimator_``, when it is a classifier.
    n_features_in_ : int

    Equivalent to ``sklearn.model_selection.GridSearchCV`` with ``refit=True``
    (a subset of its ``cv_results_``).
    """

    def __init__(self, estimator, param_grid, *, scoring=None, cv=None):
        self.estimator = estimator
        self.param_grid = param_grid
        self.scoring = scoring
        self.cv = cv

    def __sklearn_tags__(self):
        # what the searched estimator is and accepts (sparse X is passed on
        # as CSR, whose rows the folds select cheaply; the estimator refuses
        # what it cannot take); y is always needed, as the candidates are
        # scored against it
        tags = super().__sklearn_tags__()
        inner = get_tags(self.estimator)
        tags.estimator_type = inner.estimator_type
        tags.classifier_tags = inner.classifier_tags
        tags.regressor_tags = inner.regressor_tags
        tags.input_tags = inner.input_tags
        tags.target_tags.required = True
        return tags

    @property
    def classes_(self):
        check_is_fitted(self)
        return self.best_estimator_.classes_

    def fit(self, X, y):
        """Score every candidate on the same folds; refit the best on all."""
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        candidates = list(_parameter_grid(self.param_grid))
        # Materialise the splits once, so every candidate sees the same folds.
        splits = list(
            check_cv(self.cv, classifier=is_classifier(self.estimator)).split(
                X, y
            )
        )
        scores = np.array(
            [
                cross_val_score(
                    clone(self.estimator).set_params(**params),
                    X,
                    y,
                    cv=splits,
                    scoring=self.scoring,
                )
                for params in candidates
            ]
        )
        mean = scores.mean(axis=1)
        # rank 1 is best; equal means share the smaller rank ("min" ranking, as
        # in scikit-learn)
        rank = np.array([1 + np.sum(mean > m) for m in mean])
        results = {"params": candidates}
        for name in sorted({name for params in candidates for name in params}):
            results[f"param_{name}"] = [
                params.get(name) for params in candidates
            ]
        for k in range(len(splits)):
            results[f"split{k}_test_score"] = scores[:, k]
        results.update(
            mean_test_score=mean,
            std_test_score=scores.std(axis=1),
            rank_test_score=rank,
        )
        self.cv_results_ = results
        self.n_splits_ = len(splits)
        self.best_index_ = int(np.argmin(rank))
        self.best_params_ = candidates[self.best_index_]
        self.best_score_ = float(mean[self.best_index_])
        self.best_estimator_ = (
            clone(self.estimator).set_params(**self.best_params_).fit(X, y)
        )
        return self

    predict = _passed_on("predict", "Predictions")
    predict_proba = _passed_on("predict_proba", "Class probabilities")
    predict_log_proba = _passed_on(
        "predict_log_proba", "Log class probabilities"
    )
    decision_function = _passed_on("decision_function", "Scores")
    transform = _passed_on("transform", "``X`` transformed")

    def score(self, X, y):
        """The chosen ``scoring`` of ``best_estimator_`` on ``X, y``."""
        check_is_fitted(self)
        X = validate_data(
            self, X, accept_sparse="csr", dtype=np.float64, reset=False
        )
        return get_scorer(self.scoring)(self.best_estimator_, X, y)
