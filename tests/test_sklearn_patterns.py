"""mllib estimators in scikit-learn's everyday patterns (issue 14).

Pipelines, cross-validation, scikit-learn's GridSearchCV, clone, pickling,
DataFrames with column names, string labels, and scikit-learn's exceptions,
for every tabular estimator of tests/test_estimator_checks.py; plus the
column-name and set_output checks that scikit-learn runs on its own
estimators but does not yield from parametrize_with_checks.
"""

import os
import pickle
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sklearn.exceptions
from sklearn.base import clone, is_classifier, is_regressor
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.metrics import make_scorer
from sklearn.model_selection import GridSearchCV as SkGridSearchCV
from sklearn.model_selection import KFold as SkKFold
from sklearn.model_selection import StratifiedKFold as SkStratifiedKFold
from sklearn.model_selection import cross_val_score as sk_cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import Normalizer
from sklearn.preprocessing import StandardScaler as SkStandardScaler
from sklearn.utils import get_tags
from sklearn.utils.estimator_checks import (
    check_dataframe_column_names_consistency,
    check_global_output_transform_pandas,
    check_set_output_transform,
    check_set_output_transform_pandas,
    check_transformer_get_feature_names_out,
    check_transformer_get_feature_names_out_pandas,
)
from test_estimator_checks import ESTIMATORS, expected_failed_checks

import mllib.metrics
from mllib.linear_model import LogisticRegression, Ridge
from mllib.model_selection import GridSearchCV, KFold, cross_val_score
from mllib.preprocessing import StandardScaler

SUPERVISED = [e for e in ESTIMATORS if is_classifier(e) or is_regressor(e)]
CLASSIFIERS = [e for e in ESTIMATORS if is_classifier(e)]
TRANSFORMERS = [e for e in ESTIMATORS if hasattr(e, "transform")]


def name(estimator):
    return repr(estimator).replace("\n", "").replace(" ", "")


def data_for(estimator, n=60, seed=0, labels=("no", "yes")):
    """A small well-posed problem in the estimator's declared domain.

    Blobs around the corners of a simplex for classifiers (labelled
    ``labels``), a linear target for regressors; shifted non-negative, or
    made category codes 0, 1, 2, when the tags say the estimator needs it;
    for a pairwise estimator (``SVC(kernel="precomputed")``), the linear
    Gram matrix of those points, as scikit-learn's own checks pass it.
    """
    rng = np.random.default_rng(seed)
    tags = get_tags(estimator)
    k = np.arange(n) % len(labels)
    centres = 3.0 * np.eye(4)[: len(labels)]  # any split is linear
    X = rng.normal(size=(n, 4)) + centres[k] - centres.mean(axis=0)
    if tags.input_tags.positive_only:
        X -= X.min()
    if tags.input_tags.categorical:  # codes 0, 1, 2 by tertiles
        X = np.stack(
            [np.digitize(x, np.quantile(x, [1 / 3, 2 / 3])) for x in X.T],
            axis=1,
        ).astype(float)
    if is_regressor(estimator):
        y = X @ np.array([1.0, -2.0, 0.5, 0.0]) + 0.1 * rng.normal(size=n)
        if tags.target_tags.positive_only:
            y = rng.poisson(np.exp(0.2 * (X[:, 0] - X[:, 0].mean()) + 1))
    else:
        y = np.asarray(labels)[k]
    return (X @ X.T if tags.input_tags.pairwise else X), y


def assert_same(actual, expected):
    """Equal labels; equal numbers up to rounding (BLAS may take another
    path on a copied or reordered array)."""
    if np.asarray(expected).dtype.kind == "f":
        np.testing.assert_allclose(actual, expected, rtol=1e-12)
    else:
        np.testing.assert_array_equal(actual, expected)


def scaler_for(estimator):
    """A first pipeline step that keeps the estimator's domain (a Gram
    matrix or categories pass through unchanged)."""
    tags = get_tags(estimator).input_tags
    if tags.categorical or tags.pairwise:
        return "passthrough"
    # rows scaled to unit norm stay non-negative, even on unseen data
    return Normalizer() if tags.positive_only else SkStandardScaler()


# --- the reader's examples from issue 14 -----------------------------------


def test_the_readers_examples_score_like_a_manual_loop():
    X, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(
        SkStandardScaler(), LogisticRegression(max_iter=1000)
    )
    scores = sk_cross_val_score(model, X, y, error_score="raise")
    manual = []
    for train, test in SkStratifiedKFold(5).split(X, y):
        fitted = clone(model).fit(X[train], y[train])
        manual.append(np.mean(fitted.predict(X[test]) == y[test]))
    np.testing.assert_allclose(scores, manual)
    assert scores.min() > 0.9  # a real score, not NaN
    bare = sk_cross_val_score(
        LogisticRegression(penalty="l2", C=0.01), X, y, error_score="raise"
    )
    assert np.all(np.isfinite(bare))


def test_scikit_learn_grid_search_picks_the_best_mllib_candidate():
    X, y = load_diabetes(return_X_y=True)
    pipe = make_pipeline(StandardScaler(), Ridge())
    alphas = [1e4, 300.0, 1.0, 1e-3]  # the best, 1.0, is not the first
    search = SkGridSearchCV(
        pipe, {"ridge__alpha": alphas}, cv=SkKFold(4), error_score="raise"
    ).fit(X, y)
    means = search.cv_results_["mean_test_score"]
    assert np.all(np.isfinite(means))
    # the same candidates scored by mllib's own cross_val_score, same folds
    ours = [
        cross_val_score(
            clone(pipe).set_params(ridge__alpha=a), X, y, cv=KFold(4)
        ).mean()
        for a in alphas
    ]
    np.testing.assert_allclose(means, ours, rtol=1e-12)
    assert search.best_params_ == {"ridge__alpha": alphas[np.argmax(ours)]}
    assert search.best_index_ == 2


def test_mllib_kfold_drives_scikit_learns_cross_validation():
    X, y = load_diabetes(return_X_y=True)
    theirs = sk_cross_val_score(Ridge(), X, y, cv=SkKFold(5))
    ours = sk_cross_val_score(Ridge(), X, y, cv=KFold(5))
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize(
    "metric, name, data",
    [
        ("accuracy_score", "accuracy", load_breast_cancer),
        ("r2_score", "r2", load_diabetes),
        ("mean_squared_error", "neg_mean_squared_error", load_diabetes),
    ],
)
def test_mllib_metrics_serve_as_scikit_learn_scorers(metric, name, data):
    X, y = data(return_X_y=True)
    model = make_pipeline(
        SkStandardScaler(),
        Ridge() if data is load_diabetes else LogisticRegression(),
    )
    greater_is_better = not metric.startswith("mean")
    scorer = make_scorer(
        getattr(mllib.metrics, metric), greater_is_better=greater_is_better
    )
    ours = sk_cross_val_score(model, X, y, cv=3, scoring=scorer)
    theirs = sk_cross_val_score(model, X, y, cv=3, scoring=name)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


# --- every supervised estimator ---------------------------------------------


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("estimator", SUPERVISED, ids=name)
def test_pipeline_and_cross_validation(estimator):
    X, y = data_for(estimator, n=90)
    pipe = make_pipeline(scaler_for(estimator), clone(estimator))
    if get_tags(estimator).input_tags.pairwise:
        # a Pipeline takes its pairwise tag from its first step, so
        # cross-validation would cut the Gram matrix's rows only
        pipe = clone(estimator)
    scores = sk_cross_val_score(pipe, X, y, cv=3, error_score="raise")
    assert scores.shape == (3,) and np.all(np.isfinite(scores))
    if (
        is_classifier(estimator)
        and not get_tags(estimator).classifier_tags.poor_score
    ):
        assert scores.mean() > 0.8  # the blobs are well separated


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("estimator", ESTIMATORS, ids=name)
def test_clone_and_pickle(estimator):
    X, y = data_for(estimator)
    fitted = clone(estimator).fit(X, y)
    again = pickle.loads(pickle.dumps(fitted))
    method = "predict" if hasattr(fitted, "predict") else "fit_predict"
    if hasattr(fitted, "transform"):
        method = "transform"
    if method == "fit_predict":  # clusterers without predict
        np.testing.assert_array_equal(again.labels_, fitted.labels_)
    else:
        assert_same(getattr(again, method)(X), getattr(fitted, method)(X))
    fresh = clone(fitted)
    assert not hasattr(fresh, "n_features_in_")
    assert fresh.get_params().keys() == estimator.get_params().keys()


PREDICTING = [
    e for e in ESTIMATORS if hasattr(e, "predict") or hasattr(e, "transform")
]  # all but DBSCAN and AgglomerativeClustering, which only fit_predict


@pytest.mark.parametrize(
    "estimator",
    # GaussianProcessRegressor predicts from its prior before fit, as
    # scikit-learn's does (tag requires_fit=False; test_gaussian_process.py
    # compares that prior with scikit-learn's)
    [e for e in PREDICTING if get_tags(e).requires_fit],
    ids=name,
)
def test_scikit_learns_not_fitted_error(estimator):
    X, _ = data_for(estimator)
    method = "predict" if hasattr(estimator, "predict") else "transform"
    with pytest.raises(
        sklearn.exceptions.NotFittedError, match="is not fitted yet"
    ):
        getattr(clone(estimator), method)(X)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("estimator", SUPERVISED, ids=name)
def test_supervised_fit_refuses_y_none_and_complex_data(estimator):
    X, y = data_for(estimator)
    with pytest.raises(ValueError, match="requires y to be passed"):
        clone(estimator).fit(X, None)
    with pytest.raises(ValueError, match="Complex data not supported"):
        clone(estimator).fit(X + 1j, y)
    fitted = clone(estimator).fit(X, y)
    with pytest.raises(ValueError, match="Complex data not supported"):
        fitted.predict(X + 1j)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("estimator", CLASSIFIERS, ids=name)
def test_string_labels(estimator):
    multi = get_tags(estimator).classifier_tags.multi_class
    labels = ("cat", "dog", "emu") if multi else ("cat", "dog")
    X, y = data_for(estimator, n=90, labels=labels)
    fitted = clone(estimator).fit(X, y)
    np.testing.assert_array_equal(fitted.classes_, labels)
    predictions = fitted.predict(X)
    assert set(predictions) <= set(labels)
    if not get_tags(estimator).classifier_tags.poor_score:
        assert fitted.score(X, y) > 0.8
    if hasattr(fitted, "predict_proba"):
        proba = fitted.predict_proba(X)
        assert proba.shape == (len(X), len(labels))
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)


# --- DataFrames -------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("estimator", ESTIMATORS, ids=name)
def test_dataframe_column_names(estimator):
    """Names recorded; renamed, reordered or missing columns refused."""
    check_dataframe_column_names_consistency(
        type(estimator).__name__, estimator
    )


@pytest.mark.parametrize(
    "estimator",
    [  # named columns of features; a Gram matrix's columns are samples
        e
        for e in SUPERVISED
        if type(e).__name__ in ("Ridge", "SVC")
        and not get_tags(e).input_tags.pairwise
    ],
    ids=name,
)
def test_reordered_or_missing_columns_get_a_clear_error(estimator):
    X, y = data_for(estimator)
    frame = pd.DataFrame(X, columns=["age", "height", "weight", "income"])
    fitted = clone(estimator).fit(frame, y)
    np.testing.assert_array_equal(fitted.feature_names_in_, frame.columns)
    with pytest.raises(ValueError, match="must be in the same order"):
        fitted.predict(frame[["height", "age", "weight", "income"]])
    with pytest.raises(ValueError, match="yet now missing:\n- income"):
        fitted.predict(frame[["age", "height", "weight"]])
    # the same columns in the same order give the array's predictions; an
    # array without names is taken on trust, with scikit-learn's warning
    with pytest.warns(UserWarning, match="does not have valid feature names"):
        assert_same(fitted.predict(frame), fitted.predict(X))


def test_mllib_grid_search_records_the_columns_it_was_fitted_on():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    search = GridSearchCV(Ridge(), {"alpha": [0.1, 1.0]}, cv=3).fit(X, y)
    assert search.n_features_in_ == X.shape[1]
    np.testing.assert_array_equal(search.feature_names_in_, X.columns)
    with pytest.raises(ValueError, match="must be in the same order"):
        search.predict(X[X.columns[::-1]])


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("estimator", TRANSFORMERS, ids=name)
@pytest.mark.parametrize(
    "check",
    [
        check_transformer_get_feature_names_out,
        check_transformer_get_feature_names_out_pandas,
        check_set_output_transform,
        check_set_output_transform_pandas,
        check_global_output_transform_pandas,
    ],
    ids=lambda check: check.__name__,
)
def test_transformer_feature_names_and_set_output(estimator, check):
    with warnings.catch_warnings():
        # the checks mix arrays and DataFrames on purpose
        warnings.filterwarnings("ignore", "X has feature names")
        warnings.filterwarnings("ignore", "X does not have valid feature")
        check(type(estimator).__name__, estimator)


# --- the array-API check scikit-learn skips ----------------------------------


def test_array_api_check_passes_when_scipy_array_api_is_set():
    """scikit-learn runs check_array_api_input only when SCIPY_ARRAY_API=1,
    which must be set before scipy is imported and changes scipy for the
    whole process; so it runs here, in a fresh interpreter."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "SCIPY_ARRAY_API": "1"}
    env["PYTHONPATH"] = os.pathsep.join(
        [str(root), str(root / "tests"), env.get("PYTHONPATH", "")]
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n0",
            "-p",
            "no:cacheprovider",
            str(root / "tests" / "test_estimator_checks.py"),
            "-k",
            "check_array_api_input",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:]
    expected = [
        e
        for e in ESTIMATORS
        if "check_array_api_input" in expected_failed_checks(e)
    ]
    counts = {"passed": len(ESTIMATORS) - len(expected)}
    counts["xfailed"] = len(expected)
    for outcome, count in counts.items():
        if count:
            assert f"{count} {outcome}" in result.stdout, result.stdout[-3000:]
