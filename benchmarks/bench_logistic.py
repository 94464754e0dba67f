"""Logistic regression on 20000 × 30: mllib's fit time against scikit-learn's, in one process.

Run from the repository root: ``python benchmarks/bench_logistic.py``. Target ratio ≤ 2.
Both libraries solve the same problem (C = 1, tol = 1e-4); the fitted probabilities are
checked to agree before anything is timed.
"""

import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from timing import compare

from mllib.linear_model import LogisticRegression

X, y = make_classification(
    n_samples=20000, n_features=30, n_informative=10, random_state=0
)
X3, y3 = make_classification(
    n_samples=20000,
    n_features=30,
    n_informative=10,
    n_classes=3,
    random_state=0,
)

for data, label in [((X, y), "binary"), ((X3, y3), "3 classes")]:
    ours, theirs = (
        LogisticRegression().fit(*data),
        SkLogisticRegression().fit(*data),
    )
    gap = np.abs(
        ours.predict_proba(data[0]) - theirs.predict_proba(data[0])
    ).max()
    assert gap < 1e-3, (
        f"{label}: the two fits disagree (max probability gap {gap:.2e})"
    )
    print(f"{label}: max |Δ predict_proba| between the two fits = {gap:.1e}")

print()
compare(
    "binary, Newton vs scikit-learn lbfgs (default)",
    lambda: LogisticRegression().fit(X, y),
    lambda: SkLogisticRegression().fit(X, y),
    repeat=7,
)
compare(
    "binary, Newton vs scikit-learn newton-cholesky",
    lambda: LogisticRegression().fit(X, y),
    lambda: SkLogisticRegression(solver="newton-cholesky").fit(X, y),
    repeat=7,
)
compare(
    "binary, lbfgs vs scikit-learn lbfgs",
    lambda: LogisticRegression(solver="lbfgs").fit(X, y),
    lambda: SkLogisticRegression().fit(X, y),
    repeat=7,
)
compare(
    "3 classes, Newton vs scikit-learn lbfgs",
    lambda: LogisticRegression().fit(X3, y3),
    lambda: SkLogisticRegression().fit(X3, y3),
    repeat=7,
)
