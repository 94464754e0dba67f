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
    load_breast_cancer,
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
from mllib.tree import DecisionTreeRegressor


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


# --- the robust regression losses, the exponential loss ----------------------


def _friedman():
    X, y = make_friedman1(400, noise=1.0, random_state=0)
    return _float32(X), y


def _weights(n):
    return np.random.default_rng(0).uniform(0.2, 3.0, size=n)


@pytest.mark.parametrize(
    "data, loss, alpha, weighted",
    [
        (_friedman, "absolute_error", 0.9, True),
        (_friedman, "huber", 0.9, False),
        (_friedman, "huber", 0.9, True),
        (_friedman, "huber", 0.5, True),
        (_friedman, "quantile", 0.9, True),
        (_friedman, "quantile", 0.05, True),
        (_friedman, "quantile", 0.5, True),
        (_diabetes, "huber", 0.9, False),
        (_diabetes, "huber", 0.5, False),
        (_diabetes, "quantile", 0.05, True),
    ],
)
def test_robust_losses_equal_scikit_learn(data, loss, alpha, weighted):
    """The same F_0, pseudo-residuals, trees, leaf steps and train_score_.

    The absolute and quantile losses' pseudo-residuals take two values, so
    with unit weights many splits tie exactly (``_scikit_learn`` finds
    scikit-learn's own trees changing with its random_state there); random
    weights and leaves of at least 10 points remove the ties, and the
    comparison runs where scikit-learn's seeds agree. Only rounding
    differs, hence 1e-9."""
    X, y = data()
    weight = _weights(len(y)) if weighted else None
    params = {
        "loss": loss,
        "alpha": alpha,
        "n_estimators": 40,
        "min_samples_leaf": 10,
    }
    ours = GradientBoostingRegressor(**params).fit(X, y, sample_weight=weight)
    theirs = _scikit_learn(
        sk_ensemble.GradientBoostingRegressor(**params),
        X,
        y,
        sample_weight=weight,
    )
    assert ours.init_.get_params() == theirs.init_.get_params()
    np.testing.assert_array_equal(ours.init_.constant_, theirs.init_.constant_)
    np.testing.assert_allclose(
        ours.train_score_, theirs.train_score_, rtol=1e-9
    )
    np.testing.assert_allclose(
        ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-9
    )


@pytest.mark.parametrize("n", [101, 100])
@pytest.mark.parametrize(
    "loss, alpha",
    [
        ("absolute_error", 0.9),
        ("huber", 0.3),
        ("quantile", 0.9),
        ("quantile", 0.05),
        ("quantile", 0.37),
    ],
)
@pytest.mark.parametrize("weighted", [False, True])
def test_initial_constant_equals_scikit_learn(n, loss, alpha, weighted):
    # the median or alpha-quantile of y: numpy's interpolated percentile
    # without weights, the weighted (inverted-CDF) quantile with them, as
    # scikit-learn; an exact order statistic or a two-point interpolation
    rng = np.random.default_rng(n)
    X, y = rng.normal(size=(n, 2)), rng.normal(size=n)
    weight = rng.uniform(0.2, 3.0, size=n) if weighted else None
    params = {"loss": loss, "alpha": alpha, "n_estimators": 1}
    ours = GradientBoostingRegressor(**params).fit(X, y, sample_weight=weight)
    theirs = sk_ensemble.GradientBoostingRegressor(**params).fit(
        X, y, sample_weight=weight
    )
    assert ours.init_.get_params() == theirs.init_.get_params()
    np.testing.assert_allclose(
        ours.init_.constant_, theirs.init_.constant_, rtol=1e-15, atol=1e-15
    )


def _pinball(d, alpha):
    return np.maximum(alpha * d, (alpha - 1) * d)


@pytest.mark.parametrize(
    "loss, alpha",
    [("absolute_error", 0.9), ("huber", 0.8), ("quantile", 0.2)],
)
def test_robust_leaf_steps_by_their_definition(loss, alpha):
    """One stage with learning rate 1, recomputed: F_0, delta, the
    pseudo-residuals the tree fits, each leaf's step (the weighted
    alpha-quantile of the leaf's residuals, or Friedman's Huber step) and
    the training loss. A quantile step brackets alpha exactly: the weight
    of residuals below it is at most alpha of the leaf's, the weight at or
    below it at least alpha."""
    X, y = _friedman()
    weight = _weights(len(y))
    model = GradientBoostingRegressor(
        loss=loss, alpha=alpha, n_estimators=1, learning_rate=1.0
    ).fit(X, y, sample_weight=weight)
    q = alpha if loss == "quantile" else 0.5
    F_0 = model.init_.constant_[0, 0]
    assert np.sum(weight[y < F_0]) <= q * weight.sum()
    assert np.sum(weight[y <= F_0]) >= q * weight.sum()
    d = y - F_0
    if loss == "huber":
        order = np.argsort(np.abs(d))
        reach = np.cumsum(weight[order]) >= alpha * weight.sum()
        delta = np.abs(d)[order][np.argmax(reach)]
        pseudo = np.clip(d, -delta, delta)
    else:
        pseudo = np.where(d >= 0, q, q - 1) * (2 if q == 0.5 else 1)
    tree = model.estimators_[0, 0]
    # the tree's splits are those of a least-squares tree on pseudo
    reference = DecisionTreeRegressor(max_depth=3).fit(
        X, pseudo, sample_weight=weight
    )
    np.testing.assert_array_equal(tree.apply(X), reference.apply(X))
    leaf = tree.apply(X)
    for node in np.unique(leaf):
        here = leaf == node
        r, w = d[here], weight[here]
        step = tree.tree_.value[node, 0, 0]
        if loss == "huber":
            median = r[np.argsort(r)][
                np.argmax(np.cumsum(w[np.argsort(r)]) >= 0.5 * w.sum())
            ]
            dev = r - median
            expected = median + np.average(
                np.sign(dev) * np.minimum(delta, np.abs(dev)), weights=w
            )
            assert step == pytest.approx(expected, rel=1e-12, abs=1e-12)
        else:
            assert np.sum(w[r < step]) <= q * w.sum()
            assert np.sum(w[r <= step]) >= q * w.sum()
            assert step in r
    F_1 = F_0 + tree.predict(X)
    np.testing.assert_allclose(model.predict(X), F_1, rtol=1e-12)
    per_sample = {
        "absolute_error": np.abs(y - F_1),
        "quantile": _pinball(y - F_1, alpha),
    }.get(loss)
    if loss == "huber":
        a = np.abs(y - F_1)
        per_sample = np.where(a <= delta, a**2 / 2, delta * (a - delta / 2))
    assert model.train_score_[0] == pytest.approx(
        np.average(per_sample, weights=weight), rel=1e-12
    )


@pytest.mark.parametrize("alpha", [0.1, 0.9])
def test_quantile_boosting_puts_alpha_of_the_targets_below_the_fit(alpha):
    """The pinball loss's optimality condition for a constant shift of the
    fit is that a fraction alpha of the training targets lie below it (to
    one point). Each leaf's step meets it exactly in its leaf; after many
    shrunken stages the whole fit meets it approximately. We allow four
    binomial standard deviations sqrt(alpha (1 - alpha) / n), the scale on
    which a fraction of n points is meaningful, on each of five seeds."""
    n = 1000
    for seed in range(5):
        rng = np.random.default_rng(seed)
        X = rng.uniform(0, 10, size=(n, 1))
        y = X[:, 0] * np.sin(X[:, 0]) + rng.lognormal(0, 0.8, size=n)
        model = GradientBoostingRegressor(
            loss="quantile", alpha=alpha, max_depth=2, min_samples_leaf=9
        ).fit(X, y)
        below = np.mean(y < model.predict(X))
        assert abs(below - alpha) < 4 * np.sqrt(alpha * (1 - alpha) / n)


def _cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return _float32(X), y


@pytest.mark.parametrize(
    "data, params",
    [
        (_float32_binary, {}),
        (_float32_binary, {"learning_rate": 0.5, "max_depth": 2}),
        (_cancer, {"max_depth": 1}),
    ],
)
def test_exponential_loss_equals_scikit_learn(data, params):
    X, y = data()
    params = {"loss": "exponential", "n_estimators": 40, **params}
    ours = GradientBoostingClassifier(**params).fit(X, y)
    theirs = _scikit_learn(
        sk_ensemble.GradientBoostingClassifier(**params), X, y
    )
    # the same trees: F_0 = log-odds / 2, the same Newton leaves, and
    # P(y = 1) = sigma(2F); only rounding differs
    for attribute in ("train_score_", "decision_function", "predict_proba"):
        a, b = getattr(ours, attribute), getattr(theirs, attribute)
        if callable(a):
            a, b = a(X), b(X)
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_exponential_loss_by_its_definition():
    # F_0 = log-odds / 2 minimises sum_i exp(-(2y_i - 1) c); the leaves take
    # the Newton step sum r / sum |r| with r = (2y - 1) exp(-(2y - 1) F);
    # P(y = 1) = sigma(2F); train_score_ is the mean exponential loss
    X, y = _float32_binary()
    model = GradientBoostingClassifier(
        loss="exponential", n_estimators=1, learning_rate=1.0, max_depth=2
    ).fit(X, y)
    p = y.mean()
    F_0 = 0.5 * np.log(p / (1 - p))
    assert model._initial_raw_prediction_value()[0] == pytest.approx(F_0)
    sign = 2 * y - 1
    assert np.sum(-sign * np.exp(-sign * F_0)) == pytest.approx(0, abs=1e-9)
    r = sign * np.exp(-sign * F_0)
    tree = model.estimators_[0, 0]
    leaf = tree.apply(X)
    for node in np.unique(leaf):
        here = leaf == node
        assert tree.tree_.value[node, 0, 0] == pytest.approx(
            r[here].sum() / np.abs(r[here]).sum()
        )
    F = model.decision_function(X)
    np.testing.assert_allclose(F, F_0 + tree.predict(X), rtol=1e-12)
    np.testing.assert_allclose(
        model.predict_proba(X)[:, 1], 1 / (1 + np.exp(-2 * F)), rtol=1e-12
    )
    assert model.train_score_[0] == pytest.approx(
        np.mean(np.exp(-sign * F)), rel=1e-12
    )
    with pytest.raises(ValueError, match="only suitable for a binary"):
        GradientBoostingClassifier(loss="exponential").fit(*_iris())


# --- out of bag: subsample < 1 -----------------------------------------------


def _drawn_from_root_weight(tree, weight):
    """Which points a stage drew, read off its tree's root weight: with
    weights 2^i the root's total is a sum of distinct powers of two, exact
    in floating point, whose binary digits are the drawn points."""
    total = int(tree.tree_.weighted_n_node_samples[0])
    return np.array([(total >> i) & 1 for i in range(len(weight))], dtype=bool)


@pytest.mark.parametrize(
    "make, loss",
    [
        (GradientBoostingRegressor, "squared_error"),
        (GradientBoostingRegressor, "huber"),
        (GradientBoostingRegressor, "quantile"),
        (GradientBoostingClassifier, "log_loss"),
        (GradientBoostingClassifier, "exponential"),
    ],
)
def test_out_of_bag_scores_recomputed_from_the_points_left_out(make, loss):
    """train_score_, oob_scores_, oob_improvement_ and oob_score_ by their
    definitions, on the points each stage drew and left out, read off the
    trees (not from the random stream)."""
    rng = np.random.default_rng(4)
    n = 40
    X = rng.normal(size=(n, 3))
    y = X[:, 0] + 0.5 * rng.normal(size=n)
    if make is GradientBoostingClassifier:
        y = (y > 0).astype(int)
    weight = 2.0 ** np.arange(n)
    model = make(
        loss=loss, n_estimators=6, subsample=0.6, max_depth=2, random_state=0
    ).fit(X, y, sample_weight=weight)
    previous = np.full(n, model._initial_raw_prediction_value()[0])
    scores = []
    for m, current in enumerate(model._raw_predict_stages(X)):
        F = current[:, 0]
        drawn = _drawn_from_root_weight(model.estimators_[m, 0], weight)
        assert drawn.sum() == int(0.6 * n)
        Y = y[:, None].astype(float)
        if m == 0:
            model._start_stage(Y, previous[:, None], weight)
            first = model._loss(
                Y[~drawn], previous[~drawn, None], weight[~drawn]
            )
        if loss == "huber":  # this stage's delta, from F_{m-1}
            model._start_stage(Y, previous[:, None], weight)
        assert model.train_score_[m] == pytest.approx(
            _mean_loss(model, loss, y, F, weight, drawn), rel=1e-12
        )
        scores.append(_mean_loss(model, loss, y, F, weight, ~drawn))
        previous = F
    np.testing.assert_allclose(model.oob_scores_, scores, rtol=1e-12)
    np.testing.assert_allclose(
        model.oob_improvement_,
        np.r_[first, scores[:-1]] - scores,
        rtol=1e-9,
        atol=1e-12 * max(scores),
    )
    assert model.oob_score_ == model.oob_scores_[-1]


def _mean_loss(model, loss, y, F, weight, mask):
    """The mean loss written out per loss, on the points of ``mask``."""
    y, F, w = y[mask], F[mask], weight[mask]
    sign = 2 * y - 1
    per_sample = {
        "squared_error": lambda: (y - F) ** 2,
        "quantile": lambda: _pinball(y - F, model.alpha),
        "huber": lambda: np.where(
            np.abs(y - F) <= model._delta,
            (y - F) ** 2 / 2,
            model._delta * (np.abs(y - F) - model._delta / 2),
        ),
        "log_loss": lambda: 2 * np.log1p(np.exp(-sign * F)),
        "exponential": lambda: np.exp(-sign * F),
    }[loss]()
    return np.sum(w * per_sample) / np.sum(w)


def test_out_of_bag_attributes_only_with_subsample():
    X, y = _friedman()
    model = GradientBoostingRegressor(n_estimators=5).fit(X, y)
    for name in ("oob_improvement_", "oob_scores_", "oob_score_"):
        with pytest.raises(AttributeError):
            getattr(model, name)
    model.set_params(subsample=0.5, random_state=0).fit(X, y)
    assert model.oob_scores_.shape == model.oob_improvement_.shape == (5,)
    model.set_params(subsample=1.0).fit(X, y)  # a refit drops them
    assert not hasattr(model, "oob_score_")


# --- max_features ----------------------------------------------------------


@pytest.mark.parametrize("max_features", [None, 3, 0.45, "sqrt", "log2"])
def test_max_features_resolves_as_scikit_learn(max_features):
    X, y = _friedman()
    for make in (GradientBoostingRegressor, GradientBoostingClassifier):
        target = y if make is GradientBoostingRegressor else y > y.mean()
        params = {"n_estimators": 2, "max_features": max_features}
        ours = make(random_state=0, **params).fit(X, target)
        theirs = getattr(sk_ensemble, make.__name__)(**params).fit(X, target)
        assert ours.max_features_ == theirs.max_features_
        assert all(
            tree.max_features_ == ours.max_features_
            for tree in ours.estimators_.ravel()
        )


def test_max_features_draws_features_per_split_reproducibly():
    X, y = _friedman()
    params = {"n_estimators": 30, "max_depth": 2}
    everything = GradientBoostingRegressor(**params).fit(X, y)
    all_ten = GradientBoostingRegressor(max_features=10, **params).fit(X, y)
    np.testing.assert_array_equal(all_ten.predict(X), everything.predict(X))
    a, b, c = (
        GradientBoostingRegressor(
            max_features=1, random_state=seed, **params
        ).fit(X, y)
        for seed in (7, 7, 8)
    )
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    assert not np.array_equal(a.predict(X), c.predict(X))

    # Friedman #1's last five features are noise: the greedy trees never
    # split on them; with one feature drawn per split, about half the
    # splits must (binomial, about 90 splits: 0.25 is 4.6 standard
    # deviations below 0.5)
    def noise_share(model):
        features = np.concatenate(
            [tree.tree_.feature for tree in model.estimators_[:, 0]]
        )
        return np.mean(features[features >= 0] >= 5)

    assert noise_share(everything) == 0.0
    assert noise_share(a) > 0.25
    # and the fit is still a fit
    assert a.train_score_[-1] < 0.5 * a.train_score_[0]


def test_bad_loss_parameters():
    X, y = _friedman()
    for bad in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError, match="alpha"):
            GradientBoostingRegressor(loss="quantile", alpha=bad).fit(X, y)
    with pytest.raises(ValueError, match="loss must be one of"):
        GradientBoostingRegressor(loss="poisson").fit(X, y)
    with pytest.raises(ValueError, match="loss must be"):
        GradientBoostingClassifier(loss="hinge").fit(X, y > 0)
    for bad in (0, 11, 0.0, 1.5, "auto"):
        with pytest.raises(ValueError, match="max_features"):
            GradientBoostingRegressor(max_features=bad).fit(X, y)
