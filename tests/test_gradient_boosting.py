"""mllib.ensemble gradient boosting: K trees per stage on the multinomial
deviance, sample weights and feature importances, against scikit-learn and by
their definitions; scikit-learn's tools on the estimators, as in its gallery.

(Two-class and regression equality with scikit-learn is in test_ensemble.)
"""

import numpy as np
import pytest
from scipy.special import logsumexp, softmax
from sklearn import ensemble as sk_ensemble
from sklearn.datasets import (
    load_diabetes,
    load_iris,
    load_wine,
    make_classification,
    make_friedman1,
)
from sklearn.inspection import DecisionBoundaryDisplay, permutation_importance
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    cross_val_score,
    learning_curve,
    validation_curve,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

# scikit-learn's trees split in single precision: data rounded to float32
# gives both libraries the same thresholds
from test_ensemble import _float32

from mllib.ensemble import (
    GradientBoostingClassifier,
    GradientBoostingRegressor,
)


def _three_classes():
    X, y = make_classification(
        300,
        n_features=5,
        n_informative=4,
        n_redundant=0,
        n_classes=3,
        random_state=3,
    )
    return _float32(X), y


def _wine():
    X, y = load_wine(return_X_y=True)
    return _float32(X), np.array(["barolo", "grignolino", "barbera"])[y]


def _iris():
    X, y = load_iris(return_X_y=True)
    return _float32(X), y


def _scikit_learn(estimator, X, y, *, importances=False, **fit_params):
    """scikit-learn's fit, after checking that its random_state changes
    nothing here.

    scikit-learn's trees try the features in a random order and keep the
    first of equally good splits; mllib's try them in order. Pseudo-
    residuals of 0/1 labels take few values, so splits that are equally
    good in exact arithmetic (different partitions, or one partition
    reached through different features) are common, and rounding or
    random_state picks one. The two libraries agree tree for tree only
    where no split ties: checked here, as far as three seeds can, on
    scikit-learn's predictions (and, with ``importances``, on the features
    it credits); the data sets below pass, and ours match there.
    """
    fits = [
        type(estimator)(
            **{**estimator.get_params(), "random_state": seed}
        ).fit(X, y, **fit_params)
        for seed in (0, 1, 2)
    ]
    method = "decision_function" if hasattr(fits[0], "classes_") else "predict"
    for other in fits[1:]:
        np.testing.assert_allclose(
            getattr(other, method)(X),
            getattr(fits[0], method)(X),
            rtol=1e-12,
            atol=1e-12,
        )
        if importances:
            np.testing.assert_allclose(
                other.feature_importances_,
                fits[0].feature_importances_,
                atol=1e-12,
            )
    return fits[0]


@pytest.mark.parametrize(
    "data, params",
    [
        (_iris, {"n_estimators": 30}),
        (_iris, {"n_estimators": 20, "learning_rate": 0.5, "max_depth": 2}),
        (_iris, {"n_estimators": 20, "min_samples_leaf": 5}),
        (
            _three_classes,
            {"n_estimators": 20, "learning_rate": 0.5, "max_depth": 2},
        ),
    ],
)
def test_multiclass_boosting_equals_scikit_learn(data, params):
    X, y = data()
    ours = GradientBoostingClassifier(**params).fit(X, y)
    theirs = _scikit_learn(
        sk_ensemble.GradientBoostingClassifier(**params), X, y
    )
    n_classes = len(np.unique(y))
    assert ours.n_classes_ == ours.n_trees_per_iteration_ == n_classes
    assert ours.estimators_.shape == theirs.estimators_.shape
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_allclose(
        ours.train_score_, theirs.train_score_, rtol=1e-9
    )
    np.testing.assert_allclose(
        ours.decision_function(X), theirs.decision_function(X), atol=1e-9
    )
    np.testing.assert_allclose(
        ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12
    )
    np.testing.assert_allclose(
        ours.predict_log_proba(X), theirs.predict_log_proba(X), atol=1e-9
    )
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    for a, b in zip(
        ours.staged_predict_proba(X), theirs.staged_predict_proba(X)
    ):
        np.testing.assert_allclose(a, b, atol=1e-12)
    # the importances sum the same impurity decreases, credited to one of
    # the tied features: equal totals, and equal per feature where no
    # feature ties
    assert ours.feature_importances_.sum() == pytest.approx(1.0)


def test_multinomial_boosting_by_its_definition():
    # F_0, the pseudo-residuals y_k - p_k, the Newton leaves scaled by
    # (K-1)/K, and the multinomial deviance, written out independently
    X, y = _iris()
    model = GradientBoostingClassifier(
        n_estimators=2, learning_rate=0.3, max_depth=2
    ).fit(X, y)
    K = 3
    prior = np.bincount(y) / len(y)
    F_0 = np.log(prior) - np.log(prior).mean()
    np.testing.assert_allclose(model._initial_raw_prediction_value(), F_0)
    np.testing.assert_allclose(softmax(F_0), prior)  # symmetric logit
    Y = np.eye(K)[y]
    residual = Y - softmax(np.tile(F_0, (len(y), 1)), axis=1)
    F_1 = np.tile(F_0, (len(y), 1))
    for k, tree in enumerate(model.estimators_[0]):
        leaf = tree.apply(X)
        for node in np.unique(leaf):
            r = residual[leaf == node, k]
            expected = (
                (K - 1) / K * r.sum() / np.sum(np.abs(r) * (1 - np.abs(r)))
            )
            assert tree.tree_.value[node, 0, 0] == pytest.approx(expected)
        F_1[:, k] += 0.3 * tree.predict(X)
    first = next(model.staged_decision_function(X))
    np.testing.assert_allclose(first, F_1, atol=1e-12)
    deviance = np.mean(logsumexp(F_1, axis=1) - F_1[np.arange(len(y)), y])
    assert model.train_score_[0] == pytest.approx(deviance, rel=1e-12)
    assert model.train_score_[1] < model.train_score_[0]


@pytest.mark.parametrize(
    "make, data",
    [
        (GradientBoostingClassifier, lambda: _iris()),
        (GradientBoostingClassifier, lambda: _three_classes()),
        (GradientBoostingRegressor, lambda: _diabetes()),
    ],
    ids=["iris", "three-classes", "regression"],
)
def test_sample_weight_equals_scikit_learn(make, data):
    X, y = data()
    weight = np.random.default_rng(5).uniform(0.1, 3.0, size=len(y))
    params = {"n_estimators": 20, "max_depth": 2}
    regression = make is GradientBoostingRegressor
    ours = make(**params).fit(X, y, sample_weight=weight)
    theirs = _scikit_learn(
        getattr(sk_ensemble, make.__name__)(**params),
        X,
        y,
        importances=regression,
        sample_weight=weight,
    )
    np.testing.assert_allclose(
        ours.train_score_, theirs.train_score_, rtol=1e-9
    )
    method = "predict" if regression else "decision_function"
    np.testing.assert_allclose(
        getattr(ours, method)(X),
        getattr(theirs, method)(X),
        rtol=1e-9,
        atol=1e-9,
    )
    if regression:  # continuous residuals: no feature ties either
        np.testing.assert_allclose(
            ours.feature_importances_,
            theirs.feature_importances_,
            atol=1e-12,
        )


def test_regression_feature_importances_equal_scikit_learn():
    X, y = make_friedman1(300, noise=0.5, random_state=0)
    X = _float32(X)
    params = {"n_estimators": 30, "min_samples_leaf": 5}
    ours = GradientBoostingRegressor(**params).fit(X, y)
    theirs = _scikit_learn(
        sk_ensemble.GradientBoostingRegressor(**params),
        X,
        y,
        importances=True,
    )
    np.testing.assert_allclose(
        ours.feature_importances_, theirs.feature_importances_, atol=1e-12
    )


def _float32_binary():
    X, y = make_classification(
        300, n_features=6, n_informative=4, random_state=1
    )
    return _float32(X), y


def _diabetes():
    X, y = load_diabetes(return_X_y=True)
    return _float32(X), y


def test_an_integer_weight_is_a_repeated_sample():
    # the weighted loss sum_i w_i l_i counts w_i copies of sample i, and a
    # weight 0 removes it; regression residuals are continuous, so no
    # split ties and the trees are the same
    X, y = _diabetes()
    weight = np.random.default_rng(2).integers(0, 4, size=len(y))
    weighted = GradientBoostingRegressor(n_estimators=15)
    weighted.fit(X, y, sample_weight=weight)
    repeated = GradientBoostingRegressor(n_estimators=15).fit(
        np.repeat(X, weight, axis=0), np.repeat(y, weight)
    )
    np.testing.assert_allclose(
        weighted.train_score_, repeated.train_score_, rtol=1e-10
    )
    np.testing.assert_allclose(
        weighted.predict(X), repeated.predict(X), rtol=1e-12, atol=1e-9
    )


def test_weighted_multinomial_boosting_by_its_definition():
    # (ties among splits make a weight and repeated rows pick different,
    # equally good trees for 0/1 labels; the weighted quantities are checked
    # one by one instead)
    X, y = _iris()
    weight = np.random.default_rng(3).uniform(0.2, 2.0, size=len(y))
    model = GradientBoostingClassifier(n_estimators=1, learning_rate=1.0)
    model.fit(X, y, sample_weight=weight)
    prior = np.bincount(y, weights=weight) / weight.sum()
    F_0 = np.log(prior) - np.log(prior).mean()
    np.testing.assert_allclose(model._initial_raw_prediction_value(), F_0)
    residual = np.eye(3)[y] - softmax(F_0)
    for k, tree in enumerate(model.estimators_[0]):
        leaf = tree.apply(X)
        for node in np.unique(leaf):
            here = leaf == node
            r, w = residual[here, k], weight[here]
            expected = (
                2 / 3 * np.sum(w * r) / np.sum(w * np.abs(r) * (1 - np.abs(r)))
            )
            assert tree.tree_.value[node, 0, 0] == pytest.approx(expected)
    F = model.decision_function(X)
    deviance = logsumexp(F, axis=1) - F[np.arange(len(y)), y]
    assert model.train_score_[0] == pytest.approx(
        np.average(deviance, weights=weight), rel=1e-12
    )


def test_feature_importances_by_their_definition():
    # the impurity decrease of each split, summed per feature and divided
    # by the root's weight, averaged over the trees that split, normalised
    X, y = make_friedman1(300, noise=0.5, random_state=0)
    model = GradientBoostingRegressor(n_estimators=25, max_depth=2).fit(X, y)
    per_tree = []
    for (tree,) in model.estimators_:
        t = tree.tree_
        decrease = np.zeros(X.shape[1])
        for node in np.flatnonzero(t.children_left >= 0):
            left, right = t.children_left[node], t.children_right[node]
            decrease[t.feature[node]] += (
                t.weighted_n_node_samples[node] * t.impurity[node]
                - t.weighted_n_node_samples[left] * t.impurity[left]
                - t.weighted_n_node_samples[right] * t.impurity[right]
            )
        per_tree.append(decrease / t.weighted_n_node_samples[0])
    expected = np.mean(per_tree, axis=0)
    np.testing.assert_allclose(
        model.feature_importances_, expected / expected.sum(), rtol=1e-12
    )
    # Friedman #1 uses only the first five features
    assert model.feature_importances_[5:].sum() < 0.05
    # no tree splits: all zeros, as scikit-learn
    constant = GradientBoostingRegressor(n_estimators=3).fit(
        np.ones((20, 2)), np.arange(20.0)
    )
    np.testing.assert_array_equal(constant.feature_importances_, 0.0)


def test_a_zero_score_predicts_the_second_class_like_scikit_learn():
    # identical rows: no tree splits, and balanced classes keep F = 0
    X, y = np.zeros((10, 2)), np.repeat(["no", "yes"], 5)
    ours = GradientBoostingClassifier(n_estimators=3).fit(X, y)
    theirs = sk_ensemble.GradientBoostingClassifier(n_estimators=3).fit(X, y)
    np.testing.assert_array_equal(ours.decision_function(X), 0.0)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_array_equal(ours.predict(X), "yes")


def test_bad_input():
    X, y = _iris()
    with pytest.raises(ValueError, match="positive total"):
        GradientBoostingClassifier().fit(
            X, y, sample_weight=np.where(y == 0, 1.0, 0.0)
        )
    with pytest.raises(ValueError, match="non-negative"):
        GradientBoostingClassifier().fit(X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(ValueError, match="sample_weight"):
        GradientBoostingRegressor().fit(X, y * 1.0, sample_weight=np.ones(3))


# --- scikit-learn's tools, as in its example gallery -------------------------


def test_pipeline_grid_search_and_nested_cross_validation():
    X, y = _iris()
    grid = {
        "gradientboostingclassifier__n_estimators": [5, 15],
        "gradientboostingclassifier__max_depth": [1, 2],
    }
    searches = [
        GridSearchCV(make_pipeline(StandardScaler(), model), grid, cv=3)
        for model in (
            GradientBoostingClassifier(),
            sk_ensemble.GradientBoostingClassifier(random_state=0),
        )
    ]
    for search in searches:
        search.fit(X, y)
    assert searches[0].best_params_ == searches[1].best_params_
    # The mean accuracies are counts of test samples over 150: where two
    # splits gain the same up to rounding, the CPU's rounding picks one, so
    # another machine may flip a sample (seen: one under numpy's baseline
    # loops); we allow two, each moving the mean by 1/150.
    np.testing.assert_allclose(
        searches[0].cv_results_["mean_test_score"],
        searches[1].cv_results_["mean_test_score"],
        rtol=0,
        atol=2 / len(y) + 1e-12,
    )
    inner = GridSearchCV(
        GradientBoostingClassifier(n_estimators=10),
        {"max_depth": [1, 2]},
        cv=2,
    )
    outer = KFold(3, shuffle=True, random_state=0)
    nested = cross_val_score(inner, X, y, cv=outer)
    assert np.all(np.isfinite(nested)) and nested.mean() > 0.85


def test_curves_displays_and_permutation_importance():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X, y = _wine()
    train, test = validation_curve(
        GradientBoostingClassifier(max_depth=1),
        X,
        y,
        param_name="n_estimators",
        param_range=[2, 10, 30],
        cv=3,
    )
    assert np.all(np.isfinite(train)) and np.all(np.isfinite(test))
    assert test.mean(axis=1)[-1] > test.mean(axis=1)[0]
    _, train, test = learning_curve(
        GradientBoostingClassifier(n_estimators=10),
        X,
        y,
        cv=3,
        train_sizes=[0.4, 1.0],
    )
    assert np.all(np.isfinite(test))
    model = GradientBoostingClassifier(n_estimators=20).fit(X[:, :2], y)
    display = DecisionBoundaryDisplay.from_estimator(
        model, X[:, :2], response_method="predict", grid_resolution=40
    )
    assert np.all(np.isfinite(display.response))
    plt.close("all")
    X, y = _diabetes()
    params = {"n_estimators": 30, "min_samples_leaf": 5}
    importances = [
        permutation_importance(
            model.fit(X, y), X, y, n_repeats=3, random_state=0
        ).importances_mean
        for model in (
            GradientBoostingRegressor(**params),
            sk_ensemble.GradientBoostingRegressor(random_state=0, **params),
        )
    ]
    # the same trees, the same shuffles: the same importances
    np.testing.assert_allclose(importances[0], importances[1], rtol=1e-9)
    assert importances[0].max() > 0.1


@pytest.mark.parametrize(
    "params",
    [
        dict(max_leaf_nodes=5),
        dict(max_leaf_nodes=12, max_depth=2),
        dict(ccp_alpha=0.01),
    ],
)
def test_tree_size_parameters_equal_scikit_learn(params):
    """max_leaf_nodes (best-first trees within max_depth) and ccp_alpha reach
    every stage's tree as in scikit-learn. One float32 feature, so no two
    features tie; the classifier's residuals take few values, so equal cuts
    within the feature are avoided by keeping its trees small."""
    rng = np.random.default_rng(0)
    X = _float32(rng.normal(size=(300, 1)))
    y = np.sin(3 * X[:, 0]) + 0.3 * rng.normal(size=300)
    labels = (y > 0).astype(int) + (y > 0.8)
    ours = GradientBoostingRegressor(n_estimators=20, **params).fit(X, y)
    theirs = sk_ensemble.GradientBoostingRegressor(
        n_estimators=20, **params
    ).fit(X, y)
    for a, b in zip(ours.estimators_[:, 0], theirs.estimators_[:, 0]):
        assert a.tree_.node_count == b.tree_.node_count
        np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)
    np.testing.assert_allclose(
        ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-12
    )
    ours = GradientBoostingClassifier(n_estimators=5, **params).fit(X, labels)
    theirs = sk_ensemble.GradientBoostingClassifier(
        n_estimators=5, **params
    ).fit(X, labels)
    np.testing.assert_allclose(
        ours.predict_proba(X), theirs.predict_proba(X), rtol=1e-9, atol=1e-12
    )
