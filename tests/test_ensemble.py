"""mllib.ensemble: AdaBoost and gradient boosting against scikit-learn; bagging and forests by their definitions."""

import numpy as np
import pytest
from sklearn import ensemble as sk_ensemble
from sklearn.base import BaseEstimator
from sklearn.datasets import (
    load_breast_cancer,
    load_diabetes,
    load_iris,
    make_classification,
    make_friedman1,
)

from mllib.ensemble import (
    AdaBoostClassifier,
    BaggingClassifier,
    BaggingRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from mllib.exceptions import NotFittedError
from mllib.neighbors import KNeighborsClassifier
from mllib.tree import DecisionTreeClassifier, DecisionTreeRegressor


def _float32(X):
    return np.asarray(X, dtype=np.float32).astype(float)


def _binary():
    X, y = make_classification(
        400, n_features=6, n_informative=4, flip_y=0.05, random_state=1
    )
    return _float32(X), y


def _cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return _float32(X), np.array(["benign", "malignant"])[1 - y]


def _iris():
    X, y = load_iris(return_X_y=True)
    return _float32(X), y


def _friedman():
    X, y = make_friedman1(400, noise=1.0, random_state=0)
    return _float32(X), y


def _diabetes():
    X, y = load_diabetes(return_X_y=True)
    return _float32(X), y


class _Minority(BaseEstimator):
    """A deliberately bad weak learner: it always predicts the class of smallest total weight."""

    def __init__(self):
        pass

    def fit(self, X, y, sample_weight=None):
        self.classes_, index = np.unique(y, return_inverse=True)
        self.choice_ = np.argmin(np.bincount(index, weights=sample_weight))
        return self

    def predict(self, X):
        return np.full(len(X), self.choice_)


# --------------------------------------------------------------------------- AdaBoost


@pytest.mark.parametrize(
    "data", [_binary, _cancer, _iris], ids=["binary", "cancer", "iris"]
)
@pytest.mark.parametrize("learning_rate", [1.0, 0.5])
def test_adaboost_with_stumps_equals_scikit_learn(data, learning_rate):
    X, y = data()
    ours = AdaBoostClassifier(
        n_estimators=40, learning_rate=learning_rate
    ).fit(X, y)
    theirs = sk_ensemble.AdaBoostClassifier(
        n_estimators=40, learning_rate=learning_rate, random_state=0
    ).fit(X, y)
    np.testing.assert_allclose(
        ours.estimator_errors_, theirs.estimator_errors_, rtol=1e-9, atol=1e-12
    )
    np.testing.assert_allclose(
        ours.estimator_weights_,
        theirs.estimator_weights_,
        rtol=1e-9,
        atol=1e-12,
    )
    np.testing.assert_allclose(
        ours.decision_function(X),
        theirs.decision_function(X),
        rtol=1e-9,
        atol=1e-9,
    )
    for mine, sk in zip(ours.staged_predict(X), theirs.staged_predict(X)):
        np.testing.assert_array_equal(mine, sk)


def test_adaboost_is_forward_stagewise_exponential_loss():
    """Round t's weights are proportional to exp(-y F_{t-1}(x)) with F = sum of alpha_s h_s, alpha = beta / 2."""
    X, y = _binary()
    model = AdaBoostClassifier(n_estimators=25).fit(X, y)
    signs = 2.0 * y - 1.0
    F = np.zeros(len(y))
    for learner, beta, error in zip(
        model.estimators_, model.estimator_weights_, model.estimator_errors_
    ):
        weights = np.exp(-signs * F)
        weights /= weights.sum()
        h = 2.0 * learner.predict(X) - 1.0
        assert error == pytest.approx(weights @ (h != signs), rel=1e-9)
        alpha = 0.5 * np.log((1 - error) / error)
        assert beta == pytest.approx(2 * alpha, rel=1e-12)
        F += alpha * h
    # scikit-learn's binary decision function is 2 F / sum(alpha)
    np.testing.assert_allclose(
        model.decision_function(X),
        2 * F / (model.estimator_weights_.sum() / 2),
        rtol=1e-9,
    )


def test_adaboost_training_error_bound():
    X, y = _binary()
    model = AdaBoostClassifier(n_estimators=60).fit(X, y)
    eps = model.estimator_errors_
    gamma = 0.5 - eps
    products = np.cumprod(2 * np.sqrt(eps * (1 - eps)))
    for t, prediction in enumerate(model.staged_predict(X)):
        training_error = np.mean(prediction != y)
        assert (
            training_error
            <= products[t]
            <= np.exp(-2 * np.sum(gamma[: t + 1] ** 2)) + 1e-15
        )
    # the middle of the proof: prod_t Z_t is exactly the mean exponential loss of F_t = sum_s alpha_s h_s
    # (this fails if the weights are not updated with alpha_t, although the inequalities above may still hold)
    signs = 2.0 * y - 1.0
    F = np.cumsum(
        [
            beta / 2 * (2.0 * h.predict(X) - 1.0)
            for beta, h in zip(model.estimator_weights_, model.estimators_)
        ],
        axis=0,
    )
    np.testing.assert_allclose(
        np.exp(-signs * F).mean(axis=1), products, rtol=1e-9
    )


def test_adaboost_stops_on_a_perfect_learner_and_refuses_a_useless_one():
    X = np.arange(20.0)[:, None]
    y = (X[:, 0] > 9.5).astype(int)
    model = AdaBoostClassifier(n_estimators=10).fit(X, y)
    assert (
        len(model.estimators_) == 1
        and model.estimator_errors_[0] == 0
        and model.estimator_weights_[0] == 1.0
    )
    np.testing.assert_array_equal(model.estimator_weights_[1:], 0.0)
    assert model.score(X, y) == 1.0
    with pytest.raises(ValueError, match="chance"):
        AdaBoostClassifier(_Minority()).fit(
            X, X[:, 0] > 14.5
        )  # predicts the rarer class: error 3/4
    with pytest.raises(ValueError, match="sample_weight"):
        AdaBoostClassifier(KNeighborsClassifier()).fit(X, y)


# --------------------------------------------------------------------------- gradient boosting


@pytest.mark.parametrize(
    "data", [_friedman, _diabetes], ids=["friedman", "diabetes"]
)
@pytest.mark.parametrize(
    "params",
    [
        dict(),
        dict(learning_rate=0.5, max_depth=2),
        dict(max_depth=4, min_samples_leaf=5),
    ],
)
def test_gradient_boosting_regressor_equals_scikit_learn(data, params):
    X, y = data()
    ours = GradientBoostingRegressor(n_estimators=60, **params).fit(X, y)
    theirs = sk_ensemble.GradientBoostingRegressor(
        n_estimators=60, random_state=0, **params
    ).fit(X, y)
    np.testing.assert_allclose(
        ours.train_score_, theirs.train_score_, rtol=1e-9
    )
    np.testing.assert_allclose(
        ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-9
    )
    *_, last = ours.staged_predict(X)
    np.testing.assert_array_equal(last, ours.predict(X))


@pytest.mark.parametrize("data", [_binary, _cancer], ids=["binary", "cancer"])
@pytest.mark.parametrize(
    "params", [dict(), dict(learning_rate=1.0, max_depth=1)]
)
def test_gradient_boosting_classifier_equals_scikit_learn(data, params):
    X, y = data()
    ours = GradientBoostingClassifier(n_estimators=50, **params).fit(X, y)
    theirs = sk_ensemble.GradientBoostingClassifier(
        n_estimators=50, random_state=0, **params
    ).fit(X, y)
    np.testing.assert_allclose(
        ours.train_score_, theirs.train_score_, rtol=1e-9
    )
    np.testing.assert_allclose(
        ours.decision_function(X),
        theirs.decision_function(X),
        rtol=1e-8,
        atol=1e-9,
    )
    np.testing.assert_allclose(
        ours.predict_proba(X), theirs.predict_proba(X), rtol=1e-8, atol=1e-12
    )
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_one_stage_of_squared_loss_boosting_is_a_tree_on_the_centred_targets():
    X, y = _friedman()
    boosted = GradientBoostingRegressor(
        n_estimators=1, learning_rate=1.0, max_depth=3
    ).fit(X, y)
    tree = DecisionTreeRegressor(max_depth=3).fit(X, y - y.mean())
    np.testing.assert_allclose(
        boosted.predict(X), y.mean() + tree.predict(X), rtol=1e-12
    )
    assert boosted.train_score_[0] == pytest.approx(
        np.mean((y - y.mean() - tree.predict(X)) ** 2)
    )


def test_log_loss_leaves_take_a_newton_step():
    X, y = _binary()
    model = GradientBoostingClassifier(
        n_estimators=1, learning_rate=1.0, max_depth=2
    ).fit(X, y)
    p0 = y.mean()
    tree = model.estimators_[0, 0]
    leaf = tree.apply(X)
    for node in np.unique(leaf):
        here = leaf == node
        assert tree.tree_.value[node, 0, 0] == pytest.approx(
            np.sum(y[here] - p0) / np.sum(here * p0 * (1 - p0))
        )
    np.testing.assert_allclose(
        model.decision_function(X), np.log(p0 / (1 - p0)) + tree.predict(X)
    )


def test_subsampling_is_reproducible_and_still_fits():
    X, y = _friedman()
    a = GradientBoostingRegressor(
        n_estimators=80, subsample=0.5, random_state=3
    ).fit(X, y)
    b = GradientBoostingRegressor(
        n_estimators=80, subsample=0.5, random_state=3
    ).fit(X, y)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    c = GradientBoostingRegressor(
        n_estimators=80, subsample=0.5, random_state=4
    ).fit(X, y)
    assert not np.array_equal(a.predict(X), c.predict(X))
    assert a.score(X, y) > 0.9 and a.train_score_[-1] < a.train_score_[0] / 3


# --------------------------------------------------------------------------- bagging and forests


def test_bagging_without_resampling_is_the_base_model():
    X, y = _binary()
    bag = BaggingClassifier(
        n_estimators=5, bootstrap=False, random_state=0
    ).fit(X, y)
    tree = DecisionTreeClassifier().fit(X, y)
    np.testing.assert_array_equal(bag.predict(X), tree.predict(X))
    for member in bag.estimators_:
        np.testing.assert_array_equal(
            member.tree_.threshold, tree.tree_.threshold
        )


def test_a_forest_that_searches_every_feature_without_bootstrap_is_one_tree():
    X, y = _friedman()
    forest = RandomForestRegressor(
        n_estimators=4, max_features=None, bootstrap=False, random_state=0
    ).fit(X, y)
    np.testing.assert_allclose(
        forest.predict(X),
        DecisionTreeRegressor().fit(X, y).predict(X),
        rtol=1e-12,
    )


def test_bootstrap_samples_hold_about_63_percent_of_the_points():
    X, y = _binary()
    bag = BaggingClassifier(
        DecisionTreeClassifier(max_depth=1), n_estimators=200, random_state=0
    ).fit(X, y)
    distinct = np.array(
        [len(np.unique(s)) for s in bag.estimators_samples_]
    ) / len(y)
    expected = 1 - (1 - 1 / len(y)) ** len(y)
    assert (
        abs(distinct.mean() - expected) < 0.005
        and abs(expected - (1 - np.exp(-1))) < 0.001
    )
    assert all(len(s) == len(y) for s in bag.estimators_samples_)


@pytest.mark.parametrize(
    "ensemble",
    [
        BaggingClassifier(n_estimators=30, oob_score=True, random_state=0),
        BaggingClassifier(
            n_estimators=30, max_features=0.5, oob_score=True, random_state=0
        ),
        RandomForestClassifier(
            n_estimators=30, oob_score=True, random_state=0
        ),
    ],
    ids=["bagging", "random-subspace", "forest"],
)
def test_out_of_bag_predictions_are_the_average_of_the_members_that_left_the_point_out(
    ensemble,
):
    X, y = _binary()
    ensemble.fit(X, y)
    total, count = np.zeros((len(y), 2)), np.zeros(len(y))
    for member, drawn, features in zip(
        ensemble.estimators_,
        ensemble.estimators_samples_,
        ensemble.estimators_features_,
    ):
        out = ~np.isin(np.arange(len(y)), drawn)
        proba = np.zeros((len(y), 2))
        proba[:, member.classes_] = member.predict_proba(X[:, features])
        total[out] += proba[out]
        count += out
    np.testing.assert_allclose(
        ensemble.oob_decision_function_, total / count[:, None], rtol=1e-12
    )
    assert ensemble.oob_score_ == pytest.approx(
        np.mean(np.argmax(total, axis=1) == y)
    )


def test_out_of_bag_score_estimates_the_test_score_like_scikit_learn():
    X, y = make_classification(
        1500, n_features=10, n_informative=5, flip_y=0.1, random_state=0
    )
    train, test = slice(0, 1000), slice(1000, None)
    ours = RandomForestClassifier(
        n_estimators=100, oob_score=True, random_state=0
    ).fit(X[train], y[train])
    theirs = sk_ensemble.RandomForestClassifier(
        n_estimators=100, oob_score=True, random_state=0
    ).fit(X[train], y[train])
    assert abs(ours.oob_score_ - theirs.oob_score_) < 0.03
    assert abs(ours.oob_score_ - ours.score(X[test], y[test])) < 0.05
    assert (
        abs(ours.score(X[test], y[test]) - theirs.score(X[test], y[test]))
        < 0.03
    )
    importances = ours.feature_importances_
    assert importances.sum() == pytest.approx(1.0)
    assert np.corrcoef(importances, theirs.feature_importances_)[0, 1] > 0.95


def test_regression_ensembles_oob_r2():
    X, y = _friedman()
    forest = RandomForestRegressor(
        n_estimators=60, max_features=0.5, oob_score=True, random_state=0
    ).fit(X, y)
    out = np.zeros(len(y)), np.zeros(len(y))
    for tree, drawn in zip(forest.estimators_, forest.estimators_samples_):
        left_out = ~np.isin(np.arange(len(y)), drawn)
        out[0][left_out] += tree.predict(X[left_out])
        out[1][left_out] += 1
    np.testing.assert_allclose(
        forest.oob_prediction_, out[0] / out[1], rtol=1e-12
    )
    assert 0.6 < forest.oob_score_ < forest.score(X, y)
    bag = BaggingRegressor(n_estimators=20, random_state=0).fit(X, y)
    assert bag.score(X, y) > 0.9


def test_members_without_sample_weight_are_fitted_on_the_repeated_rows():
    X, y = _binary()
    bag = BaggingClassifier(
        KNeighborsClassifier(3), n_estimators=3, random_state=0
    ).fit(X, y)
    for member, drawn in zip(bag.estimators_, bag.estimators_samples_):
        assert member.n_samples_fit_ == len(drawn) == len(y)
    assert 0.5 < bag.score(X, y) <= 1.0


@pytest.mark.parametrize(
    "make",
    [
        lambda seed: RandomForestClassifier(10, random_state=seed),
        lambda seed: BaggingClassifier(n_estimators=10, random_state=seed),
    ],
    ids=["forest", "bagging"],
)
def test_a_bootstrap_sample_of_one_class_gives_a_constant_member(make):
    """Issue 14: members whose bootstrap sample holds a single class used
    to crash the fit; now each is a one-leaf tree predicting that class,
    and the ensemble still gives probabilities over all the classes."""
    small = np.arange(10.0)[:, None], np.array(["a"] * 8 + ["b"] * 2)
    X, y = load_breast_cancer(return_X_y=True)
    rare = np.r_[np.flatnonzero(y == 0)[:3], np.flatnonzero(y == 1)[:60]]
    one_class_members = 0
    for X_fit, y_fit in (small, (X[rare], y[rare])):
        for seed in range(20):
            model = make(seed).fit(X_fit, y_fit)
            proba = model.predict_proba(X_fit)
            assert proba.shape == (len(y_fit), 2)
            np.testing.assert_allclose(proba.sum(axis=1), 1.0)
            for member in model.estimators_:
                if len(member.classes_) == 1:
                    one_class_members += 1
                    assert member.get_n_leaves() == 1
                    np.testing.assert_array_equal(
                        member.predict(X_fit), member.classes_[0]
                    )
            assert model.score(X_fit, y_fit) >= 0.9
    assert one_class_members > 20  # the case is exercised, not dodged


def test_ensembles_are_reproducible_and_leave_inputs_alone():
    X, y = _binary()
    X_copy, y_copy = X.copy(), y.copy()
    for make in (
        lambda: RandomForestClassifier(10, random_state=5),
        lambda: BaggingClassifier(random_state=5),
        lambda: AdaBoostClassifier(n_estimators=5),
        lambda: GradientBoostingClassifier(n_estimators=5),
    ):
        np.testing.assert_array_equal(
            make().fit(X, y).predict(X), make().fit(X, y).predict(X)
        )
    np.testing.assert_array_equal(X, X_copy)
    np.testing.assert_array_equal(y, y_copy)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: RandomForestClassifier(0), "n_estimators"),
        (
            lambda: BaggingClassifier(bootstrap=False, oob_score=True),
            "bootstrap",
        ),
        (lambda: BaggingClassifier(max_samples=0), "max_samples"),
        (lambda: BaggingClassifier(max_features=1.5), "max_features"),
        (lambda: AdaBoostClassifier(n_estimators=0), "n_estimators"),
        (lambda: AdaBoostClassifier(learning_rate=0.0), "learning_rate"),
        (lambda: GradientBoostingClassifier(loss="exponential"), "loss"),
        (lambda: GradientBoostingRegressor(subsample=0.0), "subsample"),
        (lambda: GradientBoostingRegressor(n_estimators=0), "n_estimators"),
    ],
)
def test_bad_parameters(make, message):
    X, y = _binary()
    with pytest.raises(ValueError, match=message):
        make().fit(X, y)


def test_bad_inputs():
    X, y = _iris()
    for model in (
        RandomForestClassifier(),
        AdaBoostClassifier(),
        GradientBoostingRegressor(),
        BaggingRegressor(),
    ):
        with pytest.raises(NotFittedError):
            model.predict(X)
    with pytest.raises(ValueError, match="features"):
        AdaBoostClassifier(n_estimators=3).fit(X, y).predict(X[:, :2])
