"""SGDClassifier fit times against scikit-learn (no speed target: reported for
information).

Run from the repository root: ``python benchmarks/bench_sgd_classifier.py``.
Both take the same steps in the same fixed order (``shuffle=False``) for the
same number of epochs (``tol=None``), and the script checks that the weights
agree, so the times compare the same work: mllib's loop is plain Python over
samples (one numpy dot product per step), scikit-learn's is Cython.
"""

import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import SGDClassifier as SkSGDClassifier
from threadpoolctl import threadpool_limits
from timing import compare

from mllib.linear_model import SGDClassifier


def rows():
    results = []
    for n, d, n_classes, params in [
        (2000, 20, 2, {"loss": "hinge"}),
        (2000, 20, 2, {"loss": "log_loss", "average": True}),
        (2000, 20, 3, {"loss": "modified_huber", "penalty": "elasticnet"}),
    ]:
        X, y = make_classification(
            n, d, n_informative=5, n_classes=n_classes, random_state=0
        )
        settings = {
            "learning_rate": "constant",  # stable steps: same weights
            "eta0": 0.01,
            "shuffle": False,
            "tol": None,
            "max_iter": 5,
            **params,
        }

        def ours(X=X, y=y, settings=settings):
            return SGDClassifier(**settings).fit(X, y)

        def theirs(X=X, y=y, settings=settings):
            return SkSGDClassifier(**settings).fit(X, y)

        np.testing.assert_allclose(ours().coef_, theirs().coef_, atol=1e-9)
        label = f"SGDClassifier n={n} d={d} K={n_classes} {params}"
        results.append(compare(label, ours, theirs, repeat=3, limit=None))
    return results


if __name__ == "__main__":
    print("ratio = mllib time / scikit-learn time (best of 3, one process)")
    with threadpool_limits(limits=1):
        rows()
