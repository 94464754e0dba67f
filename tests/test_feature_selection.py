"""SequentialFeatureSelector against scikit-learn's, and against brute force."""

from itertools import combinations

import numpy as np
import pytest
from sklearn import feature_selection as skfs
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes

from mllib.exceptions import NotFittedError
from mllib.feature_selection import SequentialFeatureSelector
from mllib.linear_model import LinearRegression, Ridge
from mllib.model_selection import cross_val_score

X_DIABETES, Y_DIABETES = load_diabetes(return_X_y=True)


@pytest.mark.parametrize("direction", ["forward", "backward"])
@pytest.mark.parametrize(
    "params",
    [
        dict(n_features_to_select=3),
        dict(n_features_to_select=0.35),
        dict(n_features_to_select="auto"),
        dict(n_features_to_select="auto", tol=1e-3),
    ],
    ids=["three", "fraction", "auto", "auto-tol"],
)
def test_selection_matches_sklearn(direction, params):
    ours = SequentialFeatureSelector(
        LinearRegression(), direction=direction, cv=4, **params
    )
    ref = skfs.SequentialFeatureSelector(
        sk.LinearRegression(), direction=direction, cv=4, **params
    )
    ours.fit(X_DIABETES, Y_DIABETES)
    ref.fit(X_DIABETES, Y_DIABETES)
    np.testing.assert_array_equal(ours.get_support(), ref.get_support())
    assert ours.n_features_to_select_ == ref.n_features_to_select_
    np.testing.assert_array_equal(
        ours.transform(X_DIABETES), ref.transform(X_DIABETES)
    )
    kept = ours.transform(X_DIABETES)
    np.testing.assert_array_equal(
        ours.inverse_transform(kept), ref.inverse_transform(kept)
    )


def test_scoring_option_matches_sklearn():
    ours = SequentialFeatureSelector(
        Ridge(alpha=0.1),
        n_features_to_select=4,
        scoring="neg_mean_squared_error",
        cv=3,
    )
    ref = skfs.SequentialFeatureSelector(
        sk.Ridge(alpha=0.1),
        n_features_to_select=4,
        scoring="neg_mean_squared_error",
        cv=3,
    )
    np.testing.assert_array_equal(
        ours.fit(X_DIABETES, Y_DIABETES).get_support(indices=True),
        ref.fit(X_DIABETES, Y_DIABETES).get_support(indices=True),
    )


def test_first_forward_step_is_the_best_single_feature_by_brute_force():
    X, y = X_DIABETES[:, :6], Y_DIABETES
    scores = {
        j: cross_val_score(LinearRegression(), X[:, [j]], y, cv=5).mean()
        for j in range(6)
    }
    selector = SequentialFeatureSelector(
        LinearRegression(), n_features_to_select=1
    ).fit(X, y)
    assert selector.get_support(indices=True).tolist() == [
        max(scores, key=scores.get)
    ]
    # greedy pairs can be worse than the best pair: compare with exhaustive search
    pair = SequentialFeatureSelector(
        LinearRegression(), n_features_to_select=2
    ).fit(X, y)
    best_pair = max(
        combinations(range(6), 2),
        key=lambda s: cross_val_score(
            LinearRegression(), X[:, list(s)], y, cv=5
        ).mean(),
    )
    greedy = cross_val_score(
        LinearRegression(), X[:, pair.support_], y, cv=5
    ).mean()
    assert (
        greedy
        <= cross_val_score(
            LinearRegression(), X[:, list(best_pair)], y, cv=5
        ).mean()
        + 1e-12
    )


def test_bad_input():
    selector = SequentialFeatureSelector(LinearRegression())
    with pytest.raises(NotFittedError):
        selector.get_support()
    with pytest.raises(ValueError, match="at least 2 features"):
        selector.fit(np.ones((5, 1)), np.arange(5.0))
    for params, message in [
        (dict(direction="sideways"), "direction"),
        (dict(n_features_to_select=10), "between 1 and 9"),
        (dict(n_features_to_select=1.5), "n_features_to_select must be"),
        (
            dict(tol=-1.0, n_features_to_select="auto"),
            "tol must be non-negative",
        ),
    ]:
        with pytest.raises(ValueError, match=message):
            SequentialFeatureSelector(LinearRegression(), **params).fit(
                X_DIABETES, Y_DIABETES
            )
    fitted = SequentialFeatureSelector(
        LinearRegression(), n_features_to_select=2
    ).fit(X_DIABETES, Y_DIABETES)
    with pytest.raises(ValueError, match="X has 3 features"):
        fitted.transform(np.ones((2, 3)))
    with pytest.raises(ValueError, match="2 features were selected"):
        fitted.inverse_transform(np.ones((2, 3)))
