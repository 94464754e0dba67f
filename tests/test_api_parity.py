"""Public methods and fitted attributes scikit-learn's estimators have and
mllib's lacked (issue 24, the sweep of ``dir()``), each against
scikit-learn's or by its definition."""

import numpy as np
import pytest
from scipy import sparse
from sklearn import dummy as sk_dummy
from sklearn import ensemble as sk_ensemble
from sklearn import linear_model as sk_linear_model
from sklearn import multiclass as sk_multiclass
from sklearn import neighbors as sk_neighbors
from sklearn.datasets import (
    load_diabetes,
    make_classification,
    make_regression,
)
from sklearn.metrics import accuracy_score
from sklearn.model_selection import GridSearchCV as SkGridSearchCV

from mllib.decomposition import PCA
from mllib.dummy import DummyClassifier
from mllib.ensemble import AdaBoostClassifier, GradientBoostingClassifier
from mllib.ensemble import GradientBoostingRegressor
from mllib.linear_model import (
    ElasticNet,
    Lasso,
    LogisticRegression,
    Ridge,
    enet_path,
    lasso_path,
)
from mllib.metrics import accuracy_score as mllib_accuracy
from mllib.model_selection import GridSearchCV
from mllib.multiclass import OneVsOneClassifier, OneVsRestClassifier
from mllib.neighbors import KNeighborsClassifier, KNeighborsRegressor
from mllib.tree import DecisionTreeClassifier


def _classification(n_classes=3):
    return make_classification(
        80,
        4,
        n_informative=3,
        n_redundant=0,
        n_classes=n_classes,
        random_state=0,
    )


def _same_attributes(ours, theirs, names):
    for name in names:
        mine, other = getattr(ours, name), getattr(theirs, name)
        assert type(mine) is type(other), name
        assert mine == other, name


@pytest.mark.parametrize("n_classes", [2, 3])
def test_dummy_classifier_attributes(n_classes):
    X, y = _classification(n_classes)
    _same_attributes(
        DummyClassifier().fit(X, y),
        sk_dummy.DummyClassifier().fit(X, y),
        ["n_classes_", "n_outputs_", "sparse_output_"],
    )


@pytest.mark.parametrize("Meta", ["OneVsRestClassifier", "OneVsOneClassifier"])
def test_multiclass_number_of_classes(Meta):
    X, y = _classification(3)
    ours = {"OneVsRestClassifier": OneVsRestClassifier}.get(
        Meta, OneVsOneClassifier
    )(LogisticRegression()).fit(X, y)
    theirs = getattr(sk_multiclass, Meta)(LogisticRegression()).fit(X, y)
    assert ours.n_classes_ == theirs.n_classes_ == 3


def test_neighbours_metric_attributes():
    X, y = _classification(3)
    for ours, theirs in [
        (KNeighborsClassifier(), sk_neighbors.KNeighborsClassifier()),
        (KNeighborsRegressor(), sk_neighbors.KNeighborsRegressor()),
    ]:
        ours.fit(X, y), theirs.fit(X, y)
        names = ["effective_metric_", "effective_metric_params_"]
        if hasattr(theirs, "outputs_2d_"):
            names.append("outputs_2d_")
        _same_attributes(ours, theirs, names)


def test_gradient_boosting_trees_per_iteration_and_apply():
    # continuous targets and features: no tied splits, so both libraries
    # grow the same trees and number their nodes depth first alike
    X, y = make_regression(60, 3, noise=0.5, random_state=1)
    params = {"n_estimators": 4, "max_depth": 2}
    ours = GradientBoostingRegressor(**params).fit(X, y)
    theirs = sk_ensemble.GradientBoostingRegressor(**params).fit(X, y)
    assert ours.n_trees_per_iteration_ == theirs.n_trees_per_iteration_ == 1
    leaves, leaves_sk = ours.apply(X), theirs.apply(X)
    assert leaves.shape == leaves_sk.shape == (60, 4)
    assert leaves.dtype == leaves_sk.dtype
    np.testing.assert_array_equal(leaves, leaves_sk)
    # by definition: tree (m, k)'s leaf at [:, m, k]
    X, y = _classification(3)
    model = GradientBoostingClassifier(n_estimators=3).fit(X, y)
    leaves = model.apply(X)
    assert leaves.shape == (len(X), 3, 3)
    for (m, k), tree in np.ndenumerate(model.estimators_):
        np.testing.assert_array_equal(leaves[:, m, k], tree.apply(X))


def test_adaboost_estimator_and_staged_score():
    X, y = _classification(3)
    weight = np.random.default_rng(2).uniform(0.5, 2.0, size=len(y))
    model = AdaBoostClassifier(n_estimators=5).fit(X, y)
    reference = sk_ensemble.AdaBoostClassifier(n_estimators=5).fit(X, y)
    # scikit-learn's default weak learner, a stump, unfitted
    assert type(model.estimator_).__name__ == "DecisionTreeClassifier"
    assert model.estimator_.max_depth == reference.estimator_.max_depth == 1
    assert not hasattr(model.estimator_, "tree_")
    given = DecisionTreeClassifier(max_depth=2)
    assert AdaBoostClassifier(given).fit(X, y).estimator_ is given
    scores = list(model.staged_score(X, y, sample_weight=weight))
    expected = [
        accuracy_score(y, p, sample_weight=weight)
        for p in model.staged_predict(X)
    ]
    assert scores == pytest.approx(expected, rel=1e-15)
    assert scores[-1] == pytest.approx(
        model.score(X, y, sample_weight=weight), rel=1e-15
    )


@pytest.mark.parametrize(
    "estimator, grid",
    [
        (LogisticRegression(), {"C": [0.1, 1.0]}),
        (DummyClassifier(), {"strategy": ["prior", "most_frequent"]}),
        (Ridge(), {"alpha": [0.1, 1.0]}),
        (PCA(), {"n_components": [1, 2]}),
    ],
    ids=lambda v: type(v).__name__,
)
def test_grid_search_passes_on_the_methods_scikit_learns_does(estimator, grid):
    X, y = _classification(3)
    methods = [
        "predict",
        "predict_proba",
        "predict_log_proba",
        "decision_function",
        "transform",
    ]
    ours = GridSearchCV(estimator, grid, cv=3)
    theirs = SkGridSearchCV(estimator, grid, cv=3)
    for method in methods:  # before fit: the estimator's
        assert hasattr(ours, method) == hasattr(theirs, method), method
    ours.fit(X, y), theirs.fit(X, y)
    for method in methods:  # after: best_estimator_'s
        assert hasattr(ours, method) == hasattr(theirs, method), method
        if hasattr(ours, method):
            np.testing.assert_array_equal(
                getattr(ours, method)(X),
                getattr(ours.best_estimator_, method)(X),
            )


def test_weighted_accuracy_equals_scikit_learns():
    rng = np.random.default_rng(6)
    y, p = rng.integers(0, 3, size=50), rng.integers(0, 3, size=50)
    weight = rng.uniform(0.0, 2.0, size=50)
    # the same weighted mean of 0/1 values, up to summation order
    assert mllib_accuracy(y, p, sample_weight=weight) == pytest.approx(
        accuracy_score(y, p, sample_weight=weight), rel=1e-14
    )
    assert mllib_accuracy(y, p) == accuracy_score(y, p)


def test_ridge_reports_no_iterations_like_scikit_learns_direct_solvers():
    X, y = make_regression(30, 4, random_state=3)
    assert Ridge().fit(X, y).n_iter_ is None
    assert sk_linear_model.Ridge().fit(X, y).n_iter_ is None


def test_coordinate_descent_paths_and_sparse_coef():
    """ElasticNet.path and Lasso.path are the path functions, and
    sparse_coef_ is coef_ in CSR form, as in scikit-learn."""
    X, y = load_diabetes(return_X_y=True)
    assert ElasticNet.path is enet_path and Lasso.path is lasso_path
    for ours, theirs in [
        (ElasticNet(alpha=0.1), sk_linear_model.ElasticNet(alpha=0.1)),
        (Lasso(alpha=0.1), sk_linear_model.Lasso(alpha=0.1)),
    ]:
        ours.fit(X, y)
        theirs.fit(X, y)
        assert sparse.issparse(ours.sparse_coef_)
        assert ours.sparse_coef_.shape == theirs.sparse_coef_.shape
        np.testing.assert_array_equal(
            ours.sparse_coef_.toarray().ravel(), ours.coef_
        )
