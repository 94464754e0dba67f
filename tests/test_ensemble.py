"""mllib.ensemble: AdaBoost and gradient boosting against scikit-learn; bagging and forests by their definitions."""

import itertools
import warnings

import numpy as np
import pytest
from sample_weights import check_bad_weights_raise, integer_weights, repeated
from sklearn import ensemble as sk_ensemble
from sklearn.base import BaseEstimator
from sklearn.datasets import (
    load_breast_cancer,
    load_diabetes,
    load_iris,
    make_classification,
    make_friedman1,
)
from sklearn.exceptions import DataConversionWarning

from mllib import ensemble as mllib_ensemble
from mllib.dummy import DummyClassifier
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
from mllib.linear_model import Perceptron
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
    # SAMME's probabilities and the vote-weighted importances (issue 24)
    np.testing.assert_allclose(
        ours.predict_proba(X), theirs.predict_proba(X), rtol=1e-9, atol=1e-12
    )
    for mine, sk in zip(
        ours.staged_predict_proba(X), theirs.staged_predict_proba(X)
    ):
        np.testing.assert_allclose(mine, sk, rtol=1e-9, atol=1e-12)
    if data is not _iris:  # iris: petal length and width split setosa
        # off identically, a tie between features that scikit-learn breaks
        # at random (same predictions, importances credited differently)
        np.testing.assert_allclose(
            ours.feature_importances_,
            theirs.feature_importances_,
            rtol=1e-9,
            atol=1e-12,
        )


def test_adaboost_probabilities_are_the_softmax_of_the_scaled_votes():
    """p = softmax(f / (K - 1)) from the normalised votes f, which sum to
    zero; for two classes p_1 = sigmoid(decision), the decision being
    f_1 - f_0 = 2 f_1."""
    for X, y in (_iris(), _binary()):
        model = AdaBoostClassifier(n_estimators=15).fit(X, y)
        decision, proba = model.decision_function(X), model.predict_proba(X)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
        if decision.ndim == 1:
            np.testing.assert_allclose(
                proba[:, 1], 1 / (1 + np.exp(-decision)), rtol=1e-12
            )
        else:
            np.testing.assert_allclose(decision.sum(axis=1), 0, atol=1e-12)
            log_ratio = np.log(proba[:, 1:] / proba[:, :1])
            np.testing.assert_allclose(
                log_ratio, (decision[:, 1:] - decision[:, :1]) / 2, rtol=1e-9
            )
        np.testing.assert_array_equal(
            model.classes_[np.argmax(proba, axis=1)], model.predict(X)
        )
        weights = model.estimator_weights_[: len(model.estimators_)]
        expected = sum(
            w * e.feature_importances_
            for w, e in zip(weights, model.estimators_)
        )
        np.testing.assert_allclose(
            model.feature_importances_, expected / weights.sum(), rtol=1e-12
        )


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


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_a_forest_classifiers_trees_are_those_grown_alone_on_their_rows(
    criterion,
):
    """A classification forest sorts X once for all its trees; with whole
    number (bootstrap) weights the class counts add up exactly, so the order
    of tied values is immaterial: every tree, node for node, is the tree
    grown alone on its rows, even on data with many ties (iris, and a column
    of three values; three outputs)."""
    X, y = _iris()
    X = np.column_stack([X, np.arange(len(y)) % 3])
    Y = np.column_stack([y, y % 2, (X[:, 0] > 5.8).astype(int)])
    for target in (y, Y):
        forest = RandomForestClassifier(
            n_estimators=6, criterion=criterion, random_state=0
        ).fit(X, target)
        for tree, drawn in zip(forest.estimators_, forest.estimators_samples_):
            counts = np.bincount(drawn, minlength=len(y))
            rows = np.flatnonzero(counts)
            alone = DecisionTreeClassifier(**tree.get_params()).fit(
                X[rows], target[rows], sample_weight=counts[rows]
            )
            for field in ("feature", "threshold", "value", "impurity"):
                np.testing.assert_array_equal(
                    getattr(tree.tree_, field), getattr(alone.tree_, field)
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
        BaggingClassifier(
            n_estimators=30,
            max_features=0.5,
            bootstrap_features=True,
            oob_score=True,
            random_state=0,
        ),
        RandomForestClassifier(
            n_estimators=30, oob_score=True, random_state=0
        ),
    ],
    ids=["bagging", "random-subspace", "bootstrap-features", "forest"],
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
        (lambda: GradientBoostingClassifier(loss="hinge"), "loss"),
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


# ------------------------------------------------- warm start and one class


@pytest.mark.parametrize(
    "make, data",
    [
        (lambda **k: RandomForestClassifier(**k), _iris),
        (lambda **k: RandomForestRegressor(max_features=0.5, **k), _diabetes),
        (lambda **k: BaggingClassifier(max_features=0.5, **k), _binary),
    ],
)
def test_warm_start_adds_the_members_a_single_fit_would_grow(make, data):
    """Fitting 4 members, then 9 with warm_start, keeps the first 4 (the
    same objects) and gives the forest that 9 members fitted at once give."""
    X, y = data()
    model = make(n_estimators=4, warm_start=True, random_state=3).fit(X, y)
    first = list(model.estimators_)
    model.set_params(n_estimators=9).fit(X, y)
    assert model.estimators_[:4] == first and len(model.estimators_) == 9
    at_once = make(n_estimators=9, random_state=3).fit(X, y)
    for a, b in zip(model.estimators_, at_once.estimators_):
        np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)
    for a, b in zip(model.estimators_samples_, at_once.estimators_samples_):
        np.testing.assert_array_equal(a, b)
    predict = getattr(model, "predict_proba", model.predict)
    np.testing.assert_array_equal(
        predict(X), getattr(at_once, predict.__name__)(X)
    )
    with pytest.warns(UserWarning, match="without increasing"):
        model.fit(X, y)
    assert len(model.estimators_) == 9
    with pytest.raises(ValueError, match="larger or equal"):
        model.set_params(n_estimators=3).fit(X, y)
    cold = make(n_estimators=4, random_state=3).fit(X, y)
    cold.set_params(n_estimators=6).fit(X, y)  # warm_start=False: refits
    assert len(cold.estimators_) == 6


# 10 trees first: about 1.5 of the 150 points are in all 10 bootstrap samples
@pytest.mark.filterwarnings("ignore:.*in every bootstrap sample:UserWarning")
def test_warm_start_with_out_of_bag_score_as_scikit_learn():
    """Forests recompute the out-of-bag score over all trees; bagging
    refuses the combination (both as scikit-learn)."""
    X, y = _iris()
    grown = RandomForestClassifier(
        n_estimators=10, oob_score=True, warm_start=True, random_state=0
    ).fit(X, y)
    grown.set_params(n_estimators=30).fit(X, y)
    at_once = RandomForestClassifier(
        n_estimators=30, oob_score=True, random_state=0
    ).fit(X, y)
    assert grown.oob_score_ == at_once.oob_score_
    np.testing.assert_array_equal(
        grown.oob_decision_function_, at_once.oob_decision_function_
    )
    with pytest.raises(ValueError, match="warm_start"):
        BaggingClassifier(oob_score=True, warm_start=True).fit(X, y)


@pytest.mark.parametrize("make", [RandomForestClassifier, BaggingClassifier])
def test_a_single_class_is_fitted_as_scikit_learn_does(make):
    """Every member predicts the one class with probability 1, and so do
    the out-of-bag predictions (30 members: every point is out of bag for
    some, in both draws), whose accuracy is 1."""
    X, _ = _iris()
    y = np.full(len(X), "only")
    model = make(n_estimators=30, oob_score=True, random_state=0).fit(X, y)
    theirs = getattr(sk_ensemble, make.__name__)(
        n_estimators=30, oob_score=True, random_state=0
    ).fit(X, y)
    np.testing.assert_array_equal(model.classes_, theirs.classes_)
    assert model.n_classes_ == theirs.n_classes_ == 1
    np.testing.assert_array_equal(model.predict(X), theirs.predict(X))
    np.testing.assert_array_equal(
        model.predict_proba(X), theirs.predict_proba(X)
    )
    np.testing.assert_array_equal(
        model.predict_log_proba(X), theirs.predict_log_proba(X)
    )
    assert model.oob_score_ == theirs.oob_score_ == 1.0
    np.testing.assert_array_equal(
        model.oob_decision_function_, theirs.oob_decision_function_
    )
    np.testing.assert_array_equal(model.oob_decision_function_, 1.0)
    if make is RandomForestClassifier:
        np.testing.assert_array_equal(
            model.feature_importances_, theirs.feature_importances_
        )


def test_adaboost_fits_a_single_class_as_scikit_learn_does():
    """The first stump is perfect, so boosting stops after it: scikit-learn's
    attributes, decision 0 and probability 1 of shape (n, 1). scikit-learn's
    staged methods divide by K - 1 = 0 here; ours give the final values."""
    X, _ = _iris()
    y = np.full(len(X), "only")
    ours = AdaBoostClassifier(n_estimators=5).fit(X, y)
    theirs = sk_ensemble.AdaBoostClassifier(n_estimators=5).fit(X, y)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    assert ours.n_classes_ == theirs.n_classes_ == 1
    assert len(ours.estimators_) == len(theirs.estimators_) == 1
    for name in ("estimator_weights_", "estimator_errors_"):
        np.testing.assert_array_equal(
            getattr(ours, name), getattr(theirs, name)
        )
    for method in (
        "predict",
        "decision_function",
        "predict_proba",
        "predict_log_proba",
    ):
        np.testing.assert_array_equal(
            getattr(ours, method)(X), getattr(theirs, method)(X)
        )
    np.testing.assert_array_equal(
        ours.feature_importances_, theirs.feature_importances_
    )
    (staged,) = ours.staged_predict_proba(X)
    np.testing.assert_array_equal(staged, ours.predict_proba(X))


def test_forests_pass_max_leaf_nodes_and_ccp_alpha_to_their_trees():
    X, y = _diabetes()
    forest = RandomForestRegressor(
        n_estimators=5, max_leaf_nodes=6, ccp_alpha=1.0, random_state=0
    ).fit(X, y)
    for tree in forest.estimators_:
        assert tree.max_leaf_nodes == 6 and tree.ccp_alpha == 1.0
        assert tree.get_n_leaves() <= 6


# --------------- forests' paths, bagging's feature draws, max_samples (issue 24)


def _check_paths(forest, X):
    """Every row's columns of tree b in the indicator are a root-to-leaf
    path of that tree (the root, then each node a child of the one before)
    that ends at the leaf ``apply`` gives; ``n_nodes_ptr`` is the
    cumulative node count. Written from the trees' arrays alone, so it
    checks scikit-learn's forests too."""
    indicator, n_nodes_ptr = forest.decision_path(X)
    leaves = forest.apply(X)
    trees = [estimator.tree_ for estimator in forest.estimators_]
    assert indicator.format == "csr"
    assert leaves.shape == (len(X), len(trees))
    np.testing.assert_array_equal(
        n_nodes_ptr, np.cumsum([0] + [tree.node_count for tree in trees])
    )
    assert indicator.shape == (len(X), n_nodes_ptr[-1])
    assert set(indicator.data) == {1}
    dense = indicator.toarray()
    for b, tree in enumerate(trees):
        block = dense[:, n_nodes_ptr[b] : n_nodes_ptr[b + 1]]
        for row, leaf in zip(block, leaves[:, b]):
            path = np.flatnonzero(row)  # a parent's id is below its child's
            assert path[0] == 0
            for parent, child in itertools.pairwise(path):
                assert child in (
                    tree.children_left[parent],
                    tree.children_right[parent],
                )
            assert tree.children_left[path[-1]] == -1  # a leaf
            assert path[-1] == leaf
    return indicator, n_nodes_ptr


@pytest.mark.parametrize(
    "name, data",
    [("RandomForestClassifier", _iris), ("RandomForestRegressor", _diabetes)],
)
def test_forest_decision_path_stacks_each_trees_root_to_leaf_paths(name, data):
    """scikit-learn's structure (the same check passes on its forest), and
    each tree's block is that tree's own decision_path and apply."""
    X, y = data()
    X_test = X[::7]
    params = {"n_estimators": 4, "max_depth": 5, "random_state": 0}
    ours = getattr(mllib_ensemble, name)(**params).fit(X, y)
    theirs = getattr(sk_ensemble, name)(**params).fit(X, y)
    indicator, n_nodes_ptr = _check_paths(ours, X_test)
    their_indicator, their_ptr = _check_paths(theirs, X_test)
    assert n_nodes_ptr.dtype.kind == their_ptr.dtype.kind == "i"
    assert len(n_nodes_ptr) == len(their_ptr) == 5
    assert indicator.dtype.kind == their_indicator.dtype.kind == "i"
    for b, tree in enumerate(ours.estimators_):
        columns = slice(n_nodes_ptr[b], n_nodes_ptr[b + 1])
        np.testing.assert_array_equal(
            indicator[:, columns].toarray(),
            tree.decision_path(X_test).toarray(),
        )
        np.testing.assert_array_equal(
            ours.apply(X_test)[:, b], tree.apply(X_test)
        )


@pytest.mark.parametrize(
    "name, data",
    [
        ("RandomForestClassifier", _binary),
        ("RandomForestRegressor", _friedman),
    ],
)
def test_forest_paths_match_scikit_learns_when_the_trees_do(name, data):
    """Without bootstrap and searching every feature, each tree is the one
    CART tree of depth 4 on float32 data without tied splits (deeper, the
    classifier's small nodes tie and the libraries break ties differently),
    in both libraries: the same node counts, the same number of nodes on
    every path and the same predictions (up to rounding)."""
    X, y = data()
    params = {
        "n_estimators": 3,
        "max_depth": 4,
        "max_features": None,
        "bootstrap": False,
        "random_state": 0,
    }
    ours = getattr(mllib_ensemble, name)(**params).fit(X, y)
    theirs = getattr(sk_ensemble, name)(**params).fit(X, y)
    indicator, n_nodes_ptr = ours.decision_path(X)
    their_indicator, their_ptr = theirs.decision_path(X)
    np.testing.assert_array_equal(n_nodes_ptr, their_ptr)
    np.testing.assert_array_equal(
        np.asarray(indicator.sum(axis=1)),
        np.asarray(their_indicator.sum(axis=1)),
    )
    np.testing.assert_allclose(
        _outputs(ours, X), _outputs(theirs, X), rtol=1e-12
    )


def test_forest_paths_refuse_bad_input():
    X, y = _iris()
    for method in ("apply", "decision_path"):
        with pytest.raises(NotFittedError):
            getattr(RandomForestClassifier(), method)(X)
    forest = RandomForestClassifier(3, random_state=0).fit(X, y)
    for method in ("apply", "decision_path"):
        with pytest.raises(ValueError, match="features"):
            getattr(forest, method)(X[:, :2])
    assert not hasattr(BaggingClassifier(), "decision_path")  # as theirs


@pytest.mark.parametrize("bootstrap_features", [True, False])
def test_feature_draws_have_the_statistics_of_their_scheme(
    bootstrap_features,
):
    """k of d features per member: with replacement each member's count of
    feature j is Binomial(k, 1/d) and its number of distinct features has
    mean d (1 - (1 - 1/d)^k); without, k distinct features, each present
    with probability k/d. Over 10 seeds of 20 members, every mean within
    four standard errors (binomial ones for the counts)."""
    d, k = 5, 4
    X = np.random.default_rng(0).normal(size=(30, d))
    y = np.arange(30) % 2
    draws = np.array(
        [
            features
            for seed in range(10)
            for features in BaggingClassifier(
                DummyClassifier(),
                n_estimators=20,
                max_features=k,
                bootstrap_features=bootstrap_features,
                random_state=seed,
            )
            .fit(X, y)
            .estimators_features_
        ]
    )
    B = len(draws)
    assert draws.shape == (B, k)
    counts = np.array([np.bincount(f, minlength=d) for f in draws])
    distinct = (counts > 0).sum(axis=1)
    if bootstrap_features:
        p, n_trials = 1 / d, B * k  # every draw picks j with probability p
        expected_distinct = d * (1 - (1 - 1 / d) ** k)
        se = distinct.std(ddof=1) / np.sqrt(B)
        assert abs(distinct.mean() - expected_distinct) < 4 * se
        assert (counts > 1).any()  # repetitions do happen
    else:
        p, n_trials = k / d, B  # each member holds j with probability p
        np.testing.assert_array_equal(distinct, k)
    totals = counts.sum(axis=0)
    se = np.sqrt(n_trials * p * (1 - p))
    assert np.all(np.abs(totals - n_trials * p) < 4 * se)


@pytest.mark.parametrize("bootstrap_features", [True, False])
def test_bagging_predicts_with_each_members_own_columns(bootstrap_features):
    """The ensemble's output is recomputed here from the members and their
    columns: the mean probability (a vote for members without
    predict_proba), the mean regression prediction; each member was fitted
    on exactly its columns, repeated ones included."""
    X, y = _iris()
    options = {
        "n_estimators": 7,
        "max_features": 3,
        "bootstrap_features": bootstrap_features,
        "random_state": 1,
    }
    for member in (DecisionTreeClassifier(max_depth=2), Perceptron()):
        bag = BaggingClassifier(member, **options).fit(X, y)
        proba = np.zeros((len(X), 3))
        for member, features in zip(bag.estimators_, bag.estimators_features_):
            assert member.n_features_in_ == len(features) == 3
            if hasattr(member, "predict_proba"):
                proba[:, member.classes_] += member.predict_proba(
                    X[:, features]
                )
            else:
                proba[np.arange(len(X)), member.predict(X[:, features])] += 1
        proba /= len(bag.estimators_)
        np.testing.assert_allclose(bag.predict_proba(X), proba, rtol=1e-12)
        np.testing.assert_array_equal(
            bag.predict(X), bag.classes_[np.argmax(proba, axis=1)]
        )
    X, y = _diabetes()
    bag = BaggingRegressor(**options).fit(X, y)
    mean = np.mean(
        [
            member.predict(X[:, features])
            for member, features in zip(
                bag.estimators_, bag.estimators_features_
            )
        ],
        axis=0,
    )
    np.testing.assert_allclose(bag.predict(X), mean, rtol=1e-12)


def _drawn_sizes(model, X, y):
    """The sizes of the members' samples, or the exception's type."""
    try:
        model.fit(X, y)
    except ValueError:
        return ValueError
    return sorted({len(s) for s in model.estimators_samples_})


@pytest.mark.parametrize(
    "name, params",
    [
        ("RandomForestClassifier", {"max_samples": 10, "bootstrap": False}),
        ("RandomForestClassifier", {"max_samples": 1.0, "bootstrap": False}),
        ("RandomForestClassifier", {"bootstrap": False}),
        ("RandomForestClassifier", {"max_samples": 150}),
        ("RandomForestRegressor", {"max_samples": 1.5}),
        ("RandomForestRegressor", {"max_samples": 0.0}),
        ("RandomForestRegressor", {"max_samples": 0}),
        ("BaggingClassifier", {"max_samples": 150}),
        ("BaggingClassifier", {"max_samples": 61, "bootstrap": False}),
        ("BaggingClassifier", {"max_samples": 60, "bootstrap": False}),
        ("BaggingRegressor", {"max_samples": 1.5}),
        ("BaggingRegressor", {"max_samples": 0.5}),
        ("BaggingRegressor", {"max_features": 7}),
        ("BaggingRegressor", {"max_features": 0}),
        ("BaggingRegressor", {"max_features": 7, "bootstrap_features": True}),
    ],
)
def test_max_samples_and_max_features_are_refused_or_drawn_as_scikit_learn(
    name, params
):
    """The same refusals (ValueError) and the same number of draws per
    member: forests refuse max_samples without bootstrap and may draw more
    than n points; bagging may too with replacement, never a fraction
    above 1."""
    X, y = _small_classification(seed=3)  # 60 points, 4 features
    X = np.hstack([X, X[:, :2]])  # 6 features
    params = {"n_estimators": 3, "random_state": 0, **params}
    ours = getattr(mllib_ensemble, name)(**params)
    theirs = getattr(sk_ensemble, name)(**params)
    assert _drawn_sizes(ours, X, y) == _drawn_sizes(theirs, X, y)
    if params.get("bootstrap") is False and "max_samples" not in params:
        for drawn in ours.estimators_samples_:  # every point, in order
            np.testing.assert_array_equal(drawn, np.arange(len(y)))


# ----------------------------------------- scikit-learn's gallery, mllib inside


def test_gallery_grid_search_curves_and_displays_with_trees_and_boosting():
    """The gallery's workflow with mllib's estimators in scikit-learn's
    tools: grid searches over max_leaf_nodes and AdaBoost's rounds give
    scikit-learn's scores (tie-free data: one float32 feature for the tree,
    AdaBoost's stumps as in the test above), the curves run, and the
    decision-boundary display draws predict_proba."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.inspection import DecisionBoundaryDisplay
    from sklearn.model_selection import (
        GridSearchCV,
        learning_curve,
        validation_curve,
    )
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier as SkTree

    rng = np.random.default_rng(0)
    x = _float32(rng.normal(size=(300, 1)))
    y = (np.sin(3 * x[:, 0]) + 0.5 * rng.normal(size=300) > 0).astype(int)
    grid = {"decisiontreeclassifier__max_leaf_nodes": [2, 3, 5, 8, 13]}
    ours, theirs = (
        GridSearchCV(make_pipeline(StandardScaler(), tree), grid, cv=5)
        .fit(x, y)
        .cv_results_["mean_test_score"]
        for tree in (DecisionTreeClassifier(), SkTree())
    )
    np.testing.assert_array_equal(ours, theirs)
    X, labels = _binary()
    rounds = {"n_estimators": [5, 20, 40]}
    ours, theirs = (
        GridSearchCV(model, rounds, cv=3).fit(X, labels).cv_results_
        for model in (
            AdaBoostClassifier(),
            sk_ensemble.AdaBoostClassifier(random_state=0),
        )
    )
    np.testing.assert_array_equal(
        ours["mean_test_score"], theirs["mean_test_score"]
    )
    train, test = validation_curve(
        DecisionTreeClassifier(),
        x,
        y,
        param_name="max_leaf_nodes",
        param_range=[2, 4, 8, 16, 64],
        cv=3,
    )
    # more leaves fit the training folds at least as well (nested trees)
    assert np.all(np.diff(train.mean(axis=1)) >= -1e-12)
    assert np.isfinite(test).all()
    _, train, test = learning_curve(
        RandomForestClassifier(n_estimators=10, random_state=0),
        X,
        labels,
        cv=3,
        train_sizes=[0.3, 1.0],
    )
    majority = np.bincount(labels).max() / len(labels)  # chance level
    assert np.isfinite(test).all() and np.all(test.mean(axis=1) > majority)
    fig, ax = plt.subplots()
    model = AdaBoostClassifier(n_estimators=10).fit(X[:, :2], labels)
    display = DecisionBoundaryDisplay.from_estimator(
        model, X[:, :2], response_method="predict_proba", ax=ax
    )
    plt.close(fig)
    assert display.response.min() >= 0 and display.response.max() <= 1


def test_gallery_out_of_bag_error_curve_with_warm_start():
    """The gallery's OOB-error plot: grow one forest with warm_start, read
    oob_score_ after each size. The curve is that of forests fitted from
    scratch, and with many trees the OOB error approaches the test error."""
    X, y = make_classification(
        600, n_features=8, n_informative=4, random_state=2
    )
    X, X_test, y, y_test = X[:400], X[400:], y[:400], y[400:]
    forest = RandomForestClassifier(
        warm_start=True, oob_score=True, random_state=1
    )
    errors = []
    for size in (15, 30, 60):
        forest.set_params(n_estimators=size).fit(X, y)
        errors.append(1 - forest.oob_score_)
        fresh = RandomForestClassifier(
            size, oob_score=True, random_state=1
        ).fit(X, y)
        assert forest.oob_score_ == fresh.oob_score_
    # both estimate the same error; with 200 test and 400 OOB points each
    # has a standard error near 0.02, so 0.1 is about 3.5 combined ones
    assert abs(errors[-1] - (1 - forest.score(X_test, y_test))) < 0.1


@pytest.mark.parametrize("seed", range(20))
def test_degenerate_problems_fit_and_give_valid_probabilities(seed):
    """Tiny problems with repeated values, duplicated rows, constant
    features and one to three classes: the ensembles fit, their
    probabilities are distributions whose argmax is the prediction."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(2, 15)), int(rng.integers(1, 4))
    X = rng.integers(0, 3, size=(n, d)).astype(float)
    X[:, rng.random(d) < 0.3] = 0.0  # constant features
    X = np.repeat(X, rng.integers(1, 3), axis=0)  # duplicated rows
    y = rng.integers(0, 1 + seed % 3, size=len(X))  # seed % 3 == 0: 1 class
    models = [
        RandomForestClassifier(n_estimators=4, random_state=seed),
        RandomForestClassifier(
            n_estimators=4, max_leaf_nodes=2, random_state=seed
        ),
        BaggingClassifier(n_estimators=3, random_state=seed),
    ]
    if len(np.unique(y)) > 1:
        models.append(AdaBoostClassifier(n_estimators=5))
    for model in models:
        try:
            model.fit(X, y)
        except ValueError as error:  # AdaBoost: a useless first stump
            assert "no better than chance" in str(error)
            continue
        proba = model.predict_proba(X)
        assert proba.shape == (len(X), len(np.unique(y)))
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
        assert ((proba >= 0) & (proba <= 1)).all()
        np.testing.assert_array_equal(
            model.classes_[np.argmax(proba, axis=1)], model.predict(X)
        )


# --------------------------------------------- fit(sample_weight=) (issue 24)


def _small_classification(n_classes=2, seed=0):
    """Tie-free float32-rounded features (as scikit-learn's trees see
    them), every class among the first 5 rows."""
    X, y = make_classification(
        60,
        n_features=4,
        n_informative=3,
        n_redundant=0,
        n_classes=n_classes,
        flip_y=0.05,
        random_state=seed,
    )
    order = np.r_[[np.flatnonzero(y == k)[0] for k in range(n_classes)]]
    order = np.r_[order, np.setdiff1d(np.arange(len(y)), order)]
    return _float32(X[order]), y[order]


_WEIGHTED = {
    "forest-classifier": lambda **k: RandomForestClassifier(5, **k),
    "forest-regressor": lambda **k: RandomForestRegressor(5, **k),
    "bagging-classifier": lambda **k: BaggingClassifier(n_estimators=5, **k),
    "bagging-regressor": lambda **k: BaggingRegressor(n_estimators=5, **k),
    "adaboost": lambda **k: AdaBoostClassifier(n_estimators=5, **k),
}


def _outputs(model, X):
    return (
        model.predict_proba(X)
        if hasattr(model, "predict_proba")
        else model.predict(X)
    )


@pytest.mark.parametrize("make", _WEIGHTED.values(), ids=_WEIGHTED.keys())
def test_bad_weights_raise_and_weights_are_left_alone(make):
    X, y = _small_classification()
    check_bad_weights_raise(make(random_state=0), X, y)
    weights = np.linspace(0.0, 2.0, len(y))
    original = weights.copy()
    make(random_state=0).fit(X, y, sample_weight=weights)
    np.testing.assert_array_equal(weights, original)


@pytest.mark.parametrize("make", _WEIGHTED.values(), ids=_WEIGHTED.keys())
def test_unit_weights_equal_no_weights(make):
    """None means a weight of one for every point, so the draws and the
    members are the same, bootstrap included."""
    X, y = _small_classification(3)
    plain = make(random_state=0).fit(X, y)
    ones = make(random_state=0).fit(X, y, sample_weight=np.ones(len(y)))
    np.testing.assert_array_equal(_outputs(plain, X), _outputs(ones, X))
    if hasattr(plain, "estimators_samples_"):
        for a, b in zip(plain.estimators_samples_, ones.estimators_samples_):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "make",
    [
        # without bootstrap the trees take the weights themselves
        lambda: RandomForestClassifier(
            4, max_features=None, bootstrap=False, random_state=0
        ),
        lambda: RandomForestRegressor(
            4, max_features=None, bootstrap=False, random_state=0
        ),
        # with bootstrap the weights are the draws' probabilities: u picks
        # row floor(u N) of the N repeated rows, the row it repeats here
        lambda: RandomForestClassifier(6, max_samples=40, random_state=0),
        lambda: RandomForestRegressor(6, max_samples=40, random_state=0),
        lambda: BaggingClassifier(
            n_estimators=6, max_samples=40, max_features=0.5, random_state=0
        ),
        # a member without sample_weight is fitted on the drawn rows
        lambda: BaggingClassifier(
            KNeighborsClassifier(3),
            n_estimators=6,
            max_samples=40,
            random_state=0,
        ),
        lambda: AdaBoostClassifier(n_estimators=8),
    ],
    ids=[
        "forest-classifier-no-bootstrap",
        "forest-regressor-no-bootstrap",
        "forest-classifier-bootstrap",
        "forest-regressor-bootstrap",
        "bagging-subspace",
        "bagging-member-without-weights",
        "adaboost",
    ],
)
def test_integer_weights_equal_repeated_rows_and_zero_weights_dropped_rows(
    make,
):
    """Exactly, in configurations whose draws the weights fix: weight c
    is c copies of the row, weight 0 drops it."""
    X, y = _small_classification(3, seed=1)
    weights = integer_weights(len(y), seed=2)  # zeros, ones, twos, threes
    weighted = make().fit(X, y, sample_weight=weights)
    on_repeats = make().fit(*repeated(X, y, weights))
    np.testing.assert_allclose(
        _outputs(weighted, X), _outputs(on_repeats, X), rtol=1e-12, atol=1e-14
    )


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")  # theirs
@pytest.mark.parametrize("n_classes", [2, 3])
def test_weighted_adaboost_equals_scikit_learn(n_classes):
    """The weights only set D_1 = w / sum(w) (zeros stay zero): with tie-free
    features the stumps are the same, so only rounding separates the votes,
    errors and decision function (1e-9, as for the unweighted fit)."""
    X, y = _small_classification(n_classes, seed=n_classes)
    weights = np.random.default_rng(0).uniform(0.2, 3.0, len(y))
    weights[::7] = 0.0
    ours = AdaBoostClassifier(n_estimators=15).fit(X, y, sample_weight=weights)
    theirs = sk_ensemble.AdaBoostClassifier(
        n_estimators=15, random_state=0
    ).fit(X, y, sample_weight=weights)
    assert len(ours.estimators_) == len(theirs.estimators_)
    for ours_values, theirs_values in [
        (ours.estimator_errors_, theirs.estimator_errors_),
        (ours.estimator_weights_, theirs.estimator_weights_),
        (ours.decision_function(X), theirs.decision_function(X)),
        (ours.predict_proba(X), theirs.predict_proba(X)),
        (ours.feature_importances_, theirs.feature_importances_),
    ]:
        np.testing.assert_allclose(
            ours_values, theirs_values, rtol=1e-9, atol=1e-12
        )
    # the weights change the fit: unweighted, the first stump's error differs
    plain = AdaBoostClassifier(n_estimators=15).fit(X, y)
    assert plain.estimator_errors_[0] != ours.estimator_errors_[0]


def test_weighted_draws_have_probabilities_proportional_to_the_weights():
    """Bootstrap: a point's mean count over B members is m w_i / sum(w);
    pasting with one draw: the point drawn is i with probability
    w_i / sum(w). Both within four standard errors of the multinomial."""
    X = np.arange(6.0)[:, None]
    y = np.arange(6.0)
    weights = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 0.5])
    p = weights / weights.sum()
    stump = DecisionTreeRegressor(max_depth=1)
    B, m = 200, 6
    bootstrap = BaggingRegressor(
        stump, n_estimators=B, max_samples=m, random_state=0
    ).fit(X, y, sample_weight=weights)
    counts = np.array(
        [np.bincount(s, minlength=6) for s in bootstrap.estimators_samples_]
    )
    se = np.sqrt(m * p * (1 - p) / B)
    assert np.all(np.abs(counts.mean(axis=0) - m * p) <= 4 * se)
    assert counts[:, 0].sum() == 0  # weight 0 is never drawn
    # a fractional max_samples is a fraction of the total weight, 10.5
    half = BaggingRegressor(stump, n_estimators=2, max_samples=0.5).fit(
        X, y, sample_weight=weights
    )
    assert all(len(s) == 5 for s in half.estimators_samples_)
    pasting = BaggingRegressor(
        stump, n_estimators=B, max_samples=1, bootstrap=False, random_state=0
    )
    with pytest.warns(UserWarning, match="bootstrap=True"):
        pasting.fit(X, y, sample_weight=weights)
    first = np.bincount(
        np.concatenate(pasting.estimators_samples_), minlength=6
    )
    se = np.sqrt(p * (1 - p) / B)
    assert np.all(np.abs(first / B - p) <= 4 * se)
    # pasting draws distinct points: not more than have positive weight
    with (
        pytest.raises(ValueError, match="positive weight"),
        pytest.warns(UserWarning),
    ):
        BaggingRegressor(stump, bootstrap=False).fit(
            X, y, sample_weight=weights
        )


def test_weighted_out_of_bag_score_is_unweighted_over_every_point():
    """As scikit-learn: zero weights are never drawn, so always out of bag,
    and the score counts every point with an out-of-bag prediction alike."""
    X, y = _small_classification(2, seed=4)
    weights = integer_weights(len(y), seed=5).astype(float)
    forest = RandomForestClassifier(25, oob_score=True, random_state=0).fit(
        X, y, sample_weight=weights
    )
    drawn = np.array(
        [np.bincount(s, minlength=len(y)) for s in forest.estimators_samples_]
    )
    assert not drawn[:, weights == 0].any()
    out = drawn == 0
    total = sum(
        np.where(o[:, None], tree.predict_proba(X), 0.0)
        for tree, o in zip(forest.estimators_, out)
    )
    seen = out.any(axis=0)
    np.testing.assert_allclose(
        forest.oob_decision_function_[seen],
        total[seen] / out.sum(axis=0)[seen, None],
        rtol=1e-12,
    )
    assert forest.oob_score_ == np.mean(
        np.argmax(total[seen], axis=1) == y[seen]
    )


# Several outputs: y of shape (n_samples, n_outputs), as scikit-learn's
# forests and BaggingRegressor (BaggingClassifier stays 1-D, as there).


def _two_outputs(classify, n=60, d=3, seed=0):
    """Continuous features (no ties) and two outputs: labels of two and three
    classes, or two real targets."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if classify:
        return X, np.stack(
            [X[:, 0] > 0, np.digitize(X[:, 1] + X[:, 2], [-0.5, 0.5])], axis=1
        ).astype(int)
    return X, np.stack([X[:, 0] - X[:, 1] ** 2, np.sin(2 * X[:, 2])], axis=1)


_MULTI_OUTPUT = {
    "RandomForestClassifier": (RandomForestClassifier, True),
    "RandomForestRegressor": (RandomForestRegressor, False),
    "BaggingRegressor": (BaggingRegressor, False),
}


def _without_resampling(name, seed=0):
    estimator, _ = _MULTI_OUTPUT[name]
    if name == "BaggingRegressor":  # every point once, every feature
        return estimator(n_estimators=5, bootstrap=False, random_state=seed)
    return estimator(5, bootstrap=False, max_features=None, random_state=seed)


@pytest.mark.parametrize("name", _MULTI_OUTPUT)
def test_a_multi_output_forest_averages_its_trees(name):
    """Without resampling each member is the tree of its seed on all of
    (X, y), refitted here on its own; the ensemble averages them output by
    output."""
    _, classify = _MULTI_OUTPUT[name]
    X, y = _two_outputs(classify)
    X_test = _two_outputs(classify, n=30, seed=1)[0]
    ensemble = _without_resampling(name).fit(X, y)
    tree = DecisionTreeClassifier if classify else DecisionTreeRegressor
    trees = [
        tree(random_state=member.random_state).fit(X, y)
        for member in ensemble.estimators_
    ]
    if not classify:
        mean = np.mean([t.predict(X_test) for t in trees], axis=0)
        assert ensemble.predict(X_test).shape == (30, 2)
        np.testing.assert_allclose(ensemble.predict(X_test), mean)
        return
    proba = ensemble.predict_proba(X_test)
    for o, classes in enumerate(ensemble.classes_):
        mean = np.mean([t.predict_proba(X_test)[o] for t in trees], axis=0)
        np.testing.assert_allclose(proba[o], mean)
        np.testing.assert_array_equal(
            ensemble.predict(X_test)[:, o], classes[np.argmax(mean, axis=1)]
        )


@pytest.mark.parametrize("name", _MULTI_OUTPUT)
def test_multi_output_predictions_match_scikit_learns_with_one_feature(name):
    """One feature of distinct values leaves a fully grown tree no choice, so
    every member is the same tree in both libraries (the values are exact
    in float32, scikit-learn's type for X)."""
    _, classify = _MULTI_OUTPUT[name]
    X, y = _two_outputs(classify)
    X = np.argsort(X[:, :1], axis=0) / 8.0  # distinct multiples of 1/8
    ours = _without_resampling(name).fit(X, y)
    params = ours.get_params()
    if name != "BaggingRegressor":
        del params["max_samples"]  # scikit-learn's forests: same default
    theirs = getattr(sk_ensemble, name)(**params).fit(X, y)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X))
    if classify:
        for p, q in zip(ours.predict_proba(X), theirs.predict_proba(X)):
            np.testing.assert_allclose(p, q)


@pytest.mark.parametrize("name", _MULTI_OUTPUT)
def test_two_identical_outputs_predict_as_the_single_output_forest(name):
    """The same draws grow the same trees: a tree's criterion averages the
    outputs' (equal) impurities, so it splits as on one column; out of bag
    too."""
    estimator, classify = _MULTI_OUTPUT[name]
    X, y = _two_outputs(classify, n=80)
    y = y[:, 0]
    single = estimator(n_estimators=16, oob_score=True, random_state=0)
    double = estimator(n_estimators=16, oob_score=True, random_state=0)
    single.fit(X, y)
    double.fit(X, np.stack([y, y], axis=1))
    for o in range(2):
        np.testing.assert_array_equal(
            double.predict(X)[:, o], single.predict(X)
        )
    assert double.oob_score_ == pytest.approx(single.oob_score_)
    if classify:
        for p in double.predict_proba(X):
            np.testing.assert_allclose(p, single.predict_proba(X))
        oob = double.oob_decision_function_
        for o in range(2):
            np.testing.assert_allclose(
                oob[:, :, o], single.oob_decision_function_
            )
    else:
        for o in range(2):
            np.testing.assert_allclose(
                double.oob_prediction_[:, o], single.oob_prediction_
            )


def _fitted_pair(name, X, y, **params):
    estimator, _ = _MULTI_OUTPUT[name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = estimator(n_estimators=10, random_state=0, **params).fit(X, y)
        theirs = getattr(sk_ensemble, name)(
            n_estimators=10, random_state=0, **params
        ).fit(X, y)
    return ours, theirs, [w.category for w in caught]


@pytest.mark.parametrize("name", _MULTI_OUTPUT)
def test_multi_output_attributes_and_shapes_are_scikit_learns(name):
    _, classify = _MULTI_OUTPUT[name]
    X, y = _two_outputs(classify)
    ours, theirs, _ = _fitted_pair(name, X, y)
    assert ours.predict(X).shape == theirs.predict(X).shape == (60, 2)
    assert ours.predict(X).dtype == theirs.predict(X).dtype
    assert hasattr(ours, "n_outputs_") == hasattr(theirs, "n_outputs_")
    if name != "BaggingRegressor":
        assert ours.n_outputs_ == theirs.n_outputs_ == 2
    if classify:
        assert isinstance(ours.classes_, list)
        for c, d in zip(ours.classes_, theirs.classes_, strict=True):
            np.testing.assert_array_equal(c, d)
        assert ours.n_classes_ == theirs.n_classes_ == [2, 3]
        for method in ("predict_proba", "predict_log_proba"):
            shapes = [
                [p.shape for p in getattr(e, method)(X)]
                for e in (ours, theirs)
            ]
            assert shapes[0] == shapes[1] == [(60, 2), (60, 3)]
        # out of bag: needs two classes per output (scikit-learn's rule)
        y = y % 2
    estimator, _ = _MULTI_OUTPUT[name]
    ours = estimator(n_estimators=10, oob_score=True, random_state=0)
    oob = "oob_decision_function_" if classify else "oob_prediction_"
    expected = (60, 2, 2) if classify else (60, 2)
    assert getattr(ours.fit(X, y), oob).shape == expected
    if name != "BaggingRegressor":  # scikit-learn's crashes out of bag
        theirs = getattr(sk_ensemble, name)(10, oob_score=True).fit(X, y)
        assert getattr(theirs, oob).shape == expected
    assert 0 < ours.oob_score_ <= 1


@pytest.mark.parametrize("name", _MULTI_OUTPUT)
def test_a_column_y_is_one_output_with_a_warning(name):
    """(n_samples, 1) is a 1-D y, with scikit-learn's DataConversionWarning."""
    _, classify = _MULTI_OUTPUT[name]
    X, y = _two_outputs(classify)
    ours, theirs, caught = _fitted_pair(name, X, y[:, :1])
    assert caught.count(DataConversionWarning) == 2
    assert ours.predict(X).shape == theirs.predict(X).shape == (60,)
    if name != "BaggingRegressor":
        assert ours.n_outputs_ == theirs.n_outputs_ == 1
    if classify:
        assert isinstance(ours.classes_, np.ndarray)
        assert ours.n_classes_ == theirs.n_classes_ == 2
        assert ours.predict_proba(X).shape == (60, 2)


def test_multi_output_bad_input_is_refused():
    X, y = _two_outputs(True)
    with pytest.raises(ValueError, match="continuous-multioutput"):
        RandomForestClassifier(3).fit(X, y + 0.5)
    # accuracy out of bag needs two classes per output, as in scikit-learn
    for library in (mllib_ensemble, sk_ensemble):
        with pytest.raises(ValueError, match="multiclass-multioutput"):
            library.RandomForestClassifier(3, oob_score=True).fit(X, y)
    forest = RandomForestClassifier(3, warm_start=True).fit(X, y)
    forest.set_params(n_estimators=5)
    with pytest.raises(ValueError, match="classes of the previous fit"):
        forest.fit(X, y[:, 0])
    for estimator, _ in _MULTI_OUTPUT.values():
        with pytest.raises(ValueError, match="dim 3"):
            estimator(n_estimators=3).fit(X, y[:, :, None])
        with pytest.raises(NotFittedError):
            estimator().predict(X)
    with pytest.raises(ValueError, match="NaN"):
        BaggingRegressor(n_estimators=3).fit(X, np.c_[y, np.full(60, np.nan)])
    # BaggingClassifier stays 1-D, as scikit-learn's
    with pytest.raises(ValueError, match="1d array"):
        BaggingClassifier(n_estimators=3).fit(X, y)
