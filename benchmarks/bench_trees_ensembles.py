"""Trees, k-nearest neighbours, AdaBoost and gradient boosting: fit (or query) times against scikit-learn.

Run from the repository root: ``python benchmarks/bench_trees_ensembles.py``. Each row first
checks that the two libraries compute the same thing (same predictions, weights or losses), so
the times compare the same work.
"""

import numpy as np
from sklearn import ensemble as sk_ensemble
from sklearn import neighbors as sk_neighbors
from sklearn import tree as sk_tree
from sklearn.datasets import make_classification, make_friedman1
from timing import compare

from mllib.ensemble import AdaBoostClassifier, GradientBoostingRegressor
from mllib.neighbors import KNeighborsClassifier
from mllib.tree import DecisionTreeClassifier, DecisionTreeRegressor


def tree_rows(n=20000, d=10):
    X, y = make_classification(
        n, n_features=d, n_informative=5, random_state=0
    )
    X = X.astype(np.float32).astype(
        float
    )  # scikit-learn trees work in float32: same thresholds
    for depth in (8, None):
        ours = DecisionTreeClassifier(max_depth=depth).fit(X, y)
        theirs = sk_tree.DecisionTreeClassifier(
            max_depth=depth, random_state=0
        ).fit(X, y)
        agreement = np.mean(ours.predict(X) == theirs.predict(X))
        assert agreement > 0.99
        compare(
            f"DecisionTreeClassifier {n}x{d}, max_depth={depth}",
            lambda: DecisionTreeClassifier(max_depth=depth).fit(X, y),
            lambda: sk_tree.DecisionTreeClassifier(max_depth=depth).fit(X, y),
            repeat=3,
        )
        print(
            f"{'':45s} {ours.tree_.node_count} / {theirs.tree_.node_count} nodes, training predictions agree on "
            f"{100 * agreement:.2f}%"
        )
    X, y = make_friedman1(n, n_features=d, noise=1.0, random_state=0)
    X = X.astype(np.float32).astype(float)
    ours, theirs = (
        DecisionTreeRegressor().fit(X, y),
        sk_tree.DecisionTreeRegressor().fit(X, y),
    )
    assert ours.tree_.node_count == theirs.tree_.node_count
    compare(
        f"DecisionTreeRegressor {n}x{d}, full depth",
        lambda: DecisionTreeRegressor().fit(X, y),
        lambda: sk_tree.DecisionTreeRegressor().fit(X, y),
        repeat=3,
    )
    print(f"{'':45s} {ours.tree_.node_count} nodes, depth {ours.get_depth()}")


def knn_rows(n=20000, n_queries=2000, d=10, k=5):
    X, y = make_classification(
        n + n_queries, n_features=d, n_informative=5, random_state=1
    )
    X_train, y_train, X_query = X[:n], y[:n], X[n:]
    ours = KNeighborsClassifier(k).fit(X_train, y_train)
    theirs = sk_neighbors.KNeighborsClassifier(k, algorithm="brute").fit(
        X_train, y_train
    )
    np.testing.assert_array_equal(
        ours.kneighbors(X_query)[1], theirs.kneighbors(X_query)[1]
    )
    compare(
        f"KNeighborsClassifier predict, {n_queries} queries on {n}x{d}",
        lambda: ours.predict(X_query),
        lambda: theirs.predict(X_query),
        repeat=3,
    )


def adaboost_rows(n=5000, d=10, rounds=200):
    X, y = make_classification(
        n, n_features=d, n_informative=5, flip_y=0.05, random_state=2
    )
    X = X.astype(np.float32).astype(float)
    ours = AdaBoostClassifier(n_estimators=rounds).fit(X, y)
    theirs = sk_ensemble.AdaBoostClassifier(
        n_estimators=rounds, random_state=0
    ).fit(X, y)
    np.testing.assert_allclose(
        ours.estimator_weights_, theirs.estimator_weights_, rtol=1e-6
    )
    compare(
        f"AdaBoostClassifier {rounds} stumps, {n}x{d}",
        lambda: AdaBoostClassifier(n_estimators=rounds).fit(X, y),
        lambda: sk_ensemble.AdaBoostClassifier(n_estimators=rounds).fit(X, y),
        repeat=3,
    )


def gradient_boosting_rows(n=10000, d=10, trees=100):
    X, y = make_friedman1(n, n_features=d, noise=1.0, random_state=3)
    X = X.astype(np.float32).astype(float)
    ours = GradientBoostingRegressor(n_estimators=trees).fit(X, y)
    theirs = sk_ensemble.GradientBoostingRegressor(
        n_estimators=trees, random_state=0
    ).fit(X, y)
    np.testing.assert_allclose(
        ours.train_score_, theirs.train_score_, rtol=1e-8
    )
    compare(
        f"GradientBoostingRegressor {trees} trees of depth 3, {n}x{d}",
        lambda: GradientBoostingRegressor(n_estimators=trees).fit(X, y),
        lambda: sk_ensemble.GradientBoostingRegressor(n_estimators=trees).fit(
            X, y
        ),
        repeat=3,
    )


if __name__ == "__main__":
    print("ratio = mllib time / scikit-learn time (best of 3, one process)")
    tree_rows()
    knn_rows()
    adaboost_rows()
    gradient_boosting_rows()
