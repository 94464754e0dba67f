"""Logistic regression on 20000 x 30: mllib's fit time against
scikit-learn's, in one process.

Run from the repository root: ``python benchmarks/bench_logistic.py``.
Target ratio <= 2. Both libraries solve the same problem (C = 1,
tol = 1e-4); the fitted probabilities are checked to agree before anything
is timed. The l1 row compares mllib's proximal Newton with scikit-learn's
saga (its solver for l1_ratio > 0), both at their default tol.
"""

import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from threadpoolctl import threadpool_limits
from timing import compare

from mllib.linear_model import LogisticRegression


def data(n_classes):
    return make_classification(
        n_samples=20000,
        n_features=30,
        n_informative=10,
        n_classes=n_classes,
        random_state=0,
    )


def rows():
    (X, y), (X3, y3) = data(2), data(3)
    for (Xk, yk), label in [((X, y), "binary"), ((X3, y3), "3 classes")]:
        ours = LogisticRegression().fit(Xk, yk)
        theirs = SkLogisticRegression().fit(Xk, yk)
        gap = np.abs(ours.predict_proba(Xk) - theirs.predict_proba(Xk)).max()
        assert gap < 1e-3, (
            f"{label}: the two fits disagree (max probability gap {gap:.2e})"
        )
        print(f"{label}: max |difference in predict_proba| = {gap:.1e}")
    l1 = {"C": 0.01, "l1_ratio": 1.0}
    ours = LogisticRegression(**l1).fit(X, y)
    theirs = SkLogisticRegression(solver="saga", **l1).fit(X, y)
    gap = np.abs(ours.predict_proba(X) - theirs.predict_proba(X)).max()
    assert gap < 1e-3, f"l1: the two fits disagree ({gap:.2e})"
    print(
        f"binary l1: max |difference in predict_proba| = {gap:.1e}, "
        f"{np.count_nonzero(ours.coef_)} of {X.shape[1]} weights non-zero"
    )
    return [
        compare(
            "LogisticRegression binary, newton vs lbfgs (defaults)",
            lambda: LogisticRegression().fit(X, y),
            lambda: SkLogisticRegression().fit(X, y),
            repeat=7,
            targeted=True,
        ),
        compare(
            "LogisticRegression binary, newton vs newton-cholesky",
            lambda: LogisticRegression().fit(X, y),
            lambda: SkLogisticRegression(solver="newton-cholesky").fit(X, y),
            repeat=7,
        ),
        compare(
            "LogisticRegression binary, lbfgs vs lbfgs",
            lambda: LogisticRegression(solver="lbfgs").fit(X, y),
            lambda: SkLogisticRegression().fit(X, y),
            repeat=7,
        ),
        compare(
            "LogisticRegression 3 classes, newton vs lbfgs (defaults)",
            lambda: LogisticRegression().fit(X3, y3),
            lambda: SkLogisticRegression().fit(X3, y3),
            repeat=7,
            targeted=True,
        ),
        compare(
            "LogisticRegression binary l1, proximal newton vs saga",
            lambda: LogisticRegression(**l1).fit(X, y),
            lambda: SkLogisticRegression(solver="saga", **l1).fit(X, y),
            repeat=7,
        ),
    ]


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        rows()
