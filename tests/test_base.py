import numpy as np
import pytest
from sklearn.dummy import DummyClassifier as SkDummyClassifier
from sklearn.dummy import DummyRegressor as SkDummyRegressor

from sklearn.base import clone
from mllib.dummy import DummyClassifier, DummyRegressor
from mllib.exceptions import NotFittedError


def test_get_set_params_and_repr():
    est = DummyRegressor(strategy="median")
    assert est.get_params() == {
        "strategy": "median",
        "constant": None,
        "quantile": None,
    }
    assert repr(est) == "DummyRegressor(strategy='median')"
    assert est.set_params(strategy="constant", constant=2.0) is est
    assert est.constant == 2.0
    with pytest.raises(
        ValueError, match="Invalid parameter 'alpha'.*Valid parameters"
    ):
        est.set_params(alpha=1.0)


def test_clone_is_unfitted_and_independent(regression_data):
    X, y = regression_data
    est = DummyRegressor(strategy="median").fit(X, y)
    copy = clone(est)
    assert copy.get_params() == est.get_params()
    assert not hasattr(copy, "constant_")
    copy.set_params(strategy="mean")
    assert est.strategy == "median"


@pytest.mark.parametrize("strategy", ["mean", "median"])
def test_dummy_regressor_matches_sklearn(regression_data, strategy):
    X, y = regression_data
    ours = DummyRegressor(strategy=strategy).fit(X, y)
    ref = SkDummyRegressor(strategy=strategy).fit(X, y)
    np.testing.assert_allclose(
        ours.predict(X[:7]), ref.predict(X[:7]), rtol=1e-12
    )
    np.testing.assert_allclose(ours.score(X, y), ref.score(X, y), atol=1e-12)


def test_mean_baseline_has_zero_training_r2(regression_data):
    X, y = regression_data
    assert DummyRegressor().fit(X, y).score(X, y) == pytest.approx(
        0.0, abs=1e-12
    )


@pytest.mark.parametrize("strategy", ["prior", "most_frequent"])
def test_dummy_classifier_matches_sklearn(rng, strategy):
    X = rng.normal(size=(40, 2))
    y = rng.choice(["cat", "dog", "emu"], size=40, p=[0.2, 0.5, 0.3])
    ours = DummyClassifier(strategy=strategy).fit(X, y)
    ref = SkDummyClassifier(strategy=strategy).fit(X, y)
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X))
    with np.errstate(divide="ignore"):  # most_frequent: log 0 = -inf
        np.testing.assert_allclose(
            ours.predict_log_proba(X), ref.predict_log_proba(X)
        )
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    assert ours.score(X, y) == pytest.approx(ref.score(X, y))


def test_dummy_classifier_ties_go_to_smallest_label():
    X = np.zeros((4, 1))
    assert DummyClassifier().fit(X, [2, 1, 2, 1]).predict(X[:1])[0] == 1


@pytest.mark.parametrize("est", [DummyRegressor(), DummyClassifier()])
def test_predict_before_fit_raises_not_fitted(est):
    with pytest.raises(NotFittedError, match="not fitted yet"):
        est.predict(np.ones((2, 2)))


def test_predict_checks_feature_count(regression_data):
    X, y = regression_data
    est = DummyRegressor().fit(X, y)
    with pytest.raises(
        ValueError,
        match=f"X has {X.shape[1] + 1} features, but DummyRegressor is "
        f"expecting {X.shape[1]} features",
    ):
        est.predict(np.ones((2, X.shape[1] + 1)))


def test_fit_does_not_modify_inputs(regression_data):
    X, y = regression_data
    X0, y0 = X.copy(), y.copy()
    DummyRegressor().fit(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


def test_bad_strategy_and_missing_constant():
    X, y = np.ones((3, 1)), np.arange(3.0)
    with pytest.raises(ValueError, match="strategy must be"):
        DummyRegressor(strategy="mode").fit(X, y)
    # a missing value is a TypeError, as in scikit-learn
    with pytest.raises(TypeError, match="pass constant="):
        DummyRegressor(strategy="constant").fit(X, y)
    with pytest.raises(ValueError, match="strategy must be"):
        DummyClassifier(strategy="uniform").fit(X, [0, 1, 0])


def test_classifier_rejects_continuous_targets():
    with pytest.raises(ValueError, match="continuous"):
        DummyClassifier().fit(np.ones((3, 1)), [0.1, 0.2, 0.3])
