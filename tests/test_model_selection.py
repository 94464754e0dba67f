import numpy as np
import pytest
from sklearn import model_selection as skms
from sklearn.datasets import load_diabetes, load_iris
from sklearn.dummy import DummyClassifier as SkDummyClassifier
from sklearn.linear_model import Ridge as SkRidge
from sklearn.naive_bayes import GaussianNB as SkGaussianNB

from mllib.dummy import DummyClassifier, DummyRegressor
from mllib.exceptions import NotFittedError
from mllib.model_selection import (
    GridSearchCV,
    KFold,
    LeaveOneOut,
    StratifiedKFold,
    cross_val_score,
    train_test_split,
)


def folds_of(splitter, X, y=None):
    return [
        (train.tolist(), test.tolist()) for train, test in splitter.split(X, y)
    ]


@pytest.mark.parametrize(
    "n, k", [(10, 2), (10, 3), (17, 5), (5, 5), (103, 10)]
)
def test_kfold_without_shuffle_equals_sklearn(n, k):
    X = np.zeros((n, 2))
    assert folds_of(KFold(k), X) == folds_of(skms.KFold(k), X)


@pytest.mark.parametrize("n, k", [(17, 5), (40, 4)])
def test_shuffled_kfold_partitions_with_sklearn_fold_sizes(n, k):
    X = np.zeros((n, 1))
    ours = folds_of(KFold(k, shuffle=True, random_state=0), X)
    theirs = folds_of(skms.KFold(k, shuffle=True, random_state=0), X)
    assert [len(test) for _, test in ours] == [len(test) for _, test in theirs]
    tests = np.concatenate([test for _, test in ours])
    np.testing.assert_array_equal(
        np.sort(tests), np.arange(n)
    )  # every sample tested once
    for train, test in ours:
        assert not set(train) & set(test) and len(train) + len(test) == n
    assert ours == folds_of(
        KFold(k, shuffle=True, random_state=0), X
    )  # reproducible
    assert ours != folds_of(KFold(k), X)  # and really shuffled


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_stratified_kfold_without_shuffle_equals_sklearn(seed):
    rng = np.random.default_rng(seed)
    y = rng.choice(["b", "a", "c"], size=37, p=[0.5, 0.3, 0.2])
    X = np.zeros((37, 1))
    assert folds_of(StratifiedKFold(4), X, y) == folds_of(
        skms.StratifiedKFold(4), X, y
    )


def test_stratified_kfold_shuffled_keeps_class_counts_per_fold():
    y = np.repeat([0, 1, 2], [20, 12, 8])
    X = np.zeros((40, 1))
    ours = folds_of(StratifiedKFold(4, shuffle=True, random_state=3), X, y)
    theirs = folds_of(
        skms.StratifiedKFold(4, shuffle=True, random_state=3), X, y
    )
    for (_, a), (_, b) in zip(ours, theirs):
        np.testing.assert_array_equal(
            np.bincount(y[a], minlength=3), np.bincount(y[b], minlength=3)
        )


def test_leave_one_out_equals_sklearn():
    X = np.zeros((6, 1))
    assert folds_of(LeaveOneOut(), X) == folds_of(skms.LeaveOneOut(), X)
    assert LeaveOneOut().get_n_splits(X) == 6


@pytest.mark.parametrize("test_size", [0.25, 0.3, 0.5, 7])
def test_train_test_split_without_shuffle_equals_sklearn(test_size, rng):
    X, y = rng.normal(size=(23, 3)), rng.normal(size=23)
    ours = train_test_split(X, y, test_size=test_size, shuffle=False)
    theirs = skms.train_test_split(X, y, test_size=test_size, shuffle=False)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("test_size", [0.2, 0.33, 5])
def test_shuffled_train_test_split_has_sklearn_sizes_and_keeps_rows_together(
    test_size, rng
):
    X = np.arange(50.0).reshape(25, 2)
    y = X[:, 0] * 10
    X_tr, X_te, y_tr, y_te = train_test_split(
        X, y, test_size=test_size, random_state=1
    )
    sk_sizes = [
        len(a)
        for a in skms.train_test_split(
            X, y, test_size=test_size, random_state=1
        )
    ]
    assert [len(X_tr), len(X_te), len(y_tr), len(y_te)] == sk_sizes
    np.testing.assert_array_equal(y_tr, X_tr[:, 0] * 10)
    np.testing.assert_array_equal(
        np.sort(np.concatenate([X_tr[:, 0], X_te[:, 0]])), X[:, 0]
    )
    again = train_test_split(X, y, test_size=test_size, random_state=1)
    np.testing.assert_array_equal(again[1], X_te)


def test_stratified_split_matches_sklearn_class_counts():
    y = np.repeat(["x", "y", "z"], [50, 30, 20])
    X = np.arange(100.0)[:, None]
    _, _, _, y_te = train_test_split(
        X, y, test_size=0.2, random_state=0, stratify=y
    )
    _, _, _, sk_te = skms.train_test_split(
        X, y, test_size=0.2, random_state=0, stratify=y
    )
    assert sorted(y_te.tolist()) == sorted(
        sk_te.tolist()
    )  # 10 x, 6 y, 4 z in both


def test_stratified_split_with_remainders_matches_sklearn_class_counts():
    """15 samples, 30% test: shares 2.1, 1.5, 0.9 of the 5 test places; the leftovers go by largest remainder."""
    y = np.repeat([0, 1, 2], [7, 5, 3])
    X = np.arange(15.0)[:, None]
    for seed in range(3):
        _, _, _, y_te = train_test_split(
            X, y, test_size=0.3, random_state=seed, stratify=y
        )
        _, _, _, sk_te = skms.train_test_split(
            X, y, test_size=0.3, random_state=seed, stratify=y
        )
        np.testing.assert_array_equal(
            np.bincount(y_te, minlength=3), np.bincount(sk_te, minlength=3)
        )


def test_train_test_split_splits_lists_too():
    a_train, a_test = train_test_split(
        list("abcdefgh"), test_size=0.25, shuffle=False
    )
    assert a_train == list("abcdef") and a_test == ["g", "h"]


@pytest.mark.parametrize(
    "cv, scoring",
    [
        (3, None),
        (5, "neg_mean_squared_error"),
        (5, "r2"),
        (KFold(4, shuffle=True, random_state=0), "r2"),
        (
            LeaveOneOut(),
            "neg_mean_squared_error",
        ),  # (R² is undefined on a one-sample fold)
    ],
)
def test_cross_val_score_equals_sklearn_for_the_same_folds(cv, scoring):
    X, y = load_diabetes(return_X_y=True)
    X, y = X[:60], y[:60]
    ours = cross_val_score(SkRidge(alpha=0.3), X, y, cv=cv, scoring=scoring)
    sk_cv = (
        [(tr, te) for tr, te in cv.split(X, y)] if hasattr(cv, "split") else cv
    )
    theirs = skms.cross_val_score(
        SkRidge(alpha=0.3), X, y, cv=sk_cv, scoring=scoring
    )
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


def test_cross_val_score_with_mllib_dummy_equals_sklearn(rng):
    X, y = rng.normal(size=(31, 2)), rng.normal(size=31)
    from sklearn.dummy import DummyRegressor as SkDummyRegressor

    ours = cross_val_score(
        DummyRegressor(), X, y, cv=4, scoring="neg_mean_squared_error"
    )
    theirs = skms.cross_val_score(
        SkDummyRegressor(), X, y, cv=4, scoring="neg_mean_squared_error"
    )
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_cross_val_score_stratifies_for_classifiers_like_sklearn():
    X, y = load_iris(
        return_X_y=True
    )  # sorted by class: unstratified folds would be useless
    ours = cross_val_score(DummyClassifier(), X, y, cv=5)
    theirs = skms.cross_val_score(SkDummyClassifier(), X, y, cv=5)
    np.testing.assert_allclose(ours, theirs)
    np.testing.assert_allclose(ours, 1 / 3)
    # a real classifier (GaussianNB: closed-form fit, so no iterative solver slows the suite down)
    ours = cross_val_score(SkGaussianNB(), X, y, cv=5, scoring="accuracy")
    theirs = skms.cross_val_score(
        SkGaussianNB(), X, y, cv=5, scoring="accuracy"
    )
    np.testing.assert_allclose(ours, theirs)
    assert (
        len(set(ours.tolist())) > 1
    )  # the folds score differently, so matching them means something


def test_size_weighted_fold_average_is_the_pooled_error(rng):
    """Σ_b (n_b/n) MSE_b = mean of all n held-out squared errors; the plain mean differs for unequal folds."""
    X, y = rng.normal(size=(23, 3)), rng.normal(size=23)
    cv = KFold(5)
    mse = -cross_val_score(
        SkRidge(), X, y, cv=cv, scoring="neg_mean_squared_error"
    )
    sizes = np.array([len(test) for _, test in cv.split(X)])
    pooled = np.empty(23)
    for train, test in cv.split(X):
        pooled[test] = (
            y[test] - SkRidge().fit(X[train], y[train]).predict(X[test])
        ) ** 2
    assert np.sum(sizes / 23 * mse) == pytest.approx(pooled.mean(), rel=1e-12)
    assert abs(mse.mean() - pooled.mean()) > 1e-6


def test_grid_search_equals_sklearn():
    X, y = load_diabetes(return_X_y=True)
    X, y = X[:120], y[:120]
    grid = {"alpha": [0.01, 0.1, 1.0, 10.0], "fit_intercept": [True, False]}
    ours = GridSearchCV(
        SkRidge(), grid, cv=4, scoring="neg_mean_squared_error"
    ).fit(X, y)
    theirs = skms.GridSearchCV(
        SkRidge(), grid, cv=4, scoring="neg_mean_squared_error"
    ).fit(X, y)
    assert ours.best_params_ == theirs.best_params_
    assert ours.best_score_ == pytest.approx(theirs.best_score_, rel=1e-12)
    assert ours.cv_results_["params"] == theirs.cv_results_["params"]
    for key in (
        "mean_test_score",
        "std_test_score",
        "split0_test_score",
        "split3_test_score",
    ):
        np.testing.assert_allclose(
            ours.cv_results_[key], theirs.cv_results_[key], rtol=1e-12
        )
    np.testing.assert_array_equal(
        ours.cv_results_["rank_test_score"],
        theirs.cv_results_["rank_test_score"],
    )
    np.testing.assert_allclose(
        ours.best_estimator_.coef_, theirs.best_estimator_.coef_
    )
    np.testing.assert_allclose(ours.predict(X[:5]), theirs.predict(X[:5]))
    assert ours.score(X, y) == pytest.approx(theirs.score(X, y))


def test_grid_search_ranks_ties_like_sklearn(rng):
    """`constant` is ignored by the mean and median strategies, so the candidates tie in pairs."""
    from sklearn.dummy import DummyRegressor as SkDummyRegressor

    X, y = rng.normal(size=(30, 2)), rng.normal(size=30)
    grid = {"strategy": ["median", "mean"], "constant": [0.0, 1.0]}
    ours = GridSearchCV(
        DummyRegressor(), grid, cv=3, scoring="neg_mean_squared_error"
    ).fit(X, y)
    theirs = skms.GridSearchCV(
        SkDummyRegressor(), grid, cv=3, scoring="neg_mean_squared_error"
    ).fit(X, y)
    np.testing.assert_array_equal(
        ours.cv_results_["rank_test_score"],
        theirs.cv_results_["rank_test_score"],
    )
    assert sorted(ours.cv_results_["rank_test_score"].tolist()) == [1, 1, 3, 3]
    assert (
        ours.best_index_ == theirs.best_index_
        and ours.best_params_ == theirs.best_params_
    )


def test_grid_search_accepts_a_list_of_grids_and_mllib_estimators(rng):
    X, y = rng.normal(size=(30, 2)), rng.normal(size=30) + 3
    grid = [
        {"strategy": ["mean", "median"]},
        {"strategy": ["constant"], "constant": [0.0, 3.0]},
    ]
    search = GridSearchCV(
        DummyRegressor(), grid, cv=3, scoring="neg_mean_squared_error"
    ).fit(X, y)
    assert len(search.cv_results_["params"]) == 4
    assert search.best_params_["strategy"] in ("mean", "median", "constant")
    assert search.cv_results_["param_constant"] == [None, None, 0.0, 3.0]
    assert search.best_params_ != {
        "strategy": "constant",
        "constant": 0.0,
    }  # far from y ≈ 3


def test_bad_inputs_are_rejected():
    X = np.zeros((10, 2))
    with pytest.raises(
        ValueError, match="n_splits must be an integer of at least 2"
    ):
        list(KFold(1).split(X))
    with pytest.raises(ValueError, match="Cannot make n_splits=11"):
        list(KFold(11).split(X))
    with pytest.raises(ValueError, match="shuffle=True"):
        list(KFold(3, random_state=0).split(X))
    with pytest.raises(ValueError, match="test_size"):
        train_test_split(X, test_size=1.5)
    with pytest.raises(ValueError, match="test_size"):
        train_test_split(X, test_size=10)
    with pytest.raises(ValueError, match="same length"):
        train_test_split(X, np.zeros(9))
    with pytest.raises(ValueError, match="stratify needs shuffle"):
        train_test_split(X, shuffle=False, stratify=np.zeros(10))
    with pytest.raises(ValueError, match="Unknown scoring"):
        cross_val_score(DummyRegressor(), X, np.zeros(10), scoring="mse")
    with pytest.raises(ValueError, match="non-empty list"):
        GridSearchCV(DummyRegressor(), {"strategy": []}).fit(X, np.zeros(10))
    with pytest.raises(ValueError, match="needs the class labels"):
        list(StratifiedKFold(2).split(X))
    with pytest.raises(NotFittedError):
        GridSearchCV(DummyRegressor(), {"strategy": ["mean"]}).predict(X)


def test_the_estimator_passed_in_is_never_fitted(rng):
    X, y = rng.normal(size=(20, 2)), rng.normal(size=20)
    estimator = DummyRegressor()
    before = dict(vars(estimator))
    cross_val_score(estimator, X, y, cv=3)
    GridSearchCV(estimator, {"strategy": ["mean", "median"]}, cv=3).fit(X, y)
    assert vars(estimator) == before  # only clones are fitted


def test_callers_arrays_are_not_modified(rng):
    X, y = rng.normal(size=(20, 2)), rng.normal(size=20)
    X0, y0 = X.copy(), y.copy()
    train_test_split(X, y, random_state=0)
    cross_val_score(
        DummyRegressor(), X, y, cv=KFold(4, shuffle=True, random_state=0)
    )
    GridSearchCV(DummyRegressor(), {"strategy": ["mean", "median"]}, cv=3).fit(
        X, y
    )
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
