"""Perceptron fit times against scikit-learn (no speed target: reported for information).

Run from the repository root: ``python benchmarks/bench_perceptron.py``. Both run the same
updates in the same fixed order (``shuffle=False``) for the same number of passes, and the
script checks that the weights agree, so the times compare the same work: mllib's loop is plain
Python over samples, scikit-learn's is Cython.
"""

import numpy as np
from sklearn.linear_model import Perceptron as SkPerceptron
from threadpoolctl import threadpool_limits
from timing import compare

from mllib.linear_model import Perceptron
from mllib.online import KernelPerceptron, make_separable


def rows():
    results = []
    for n, d, margin in [(1000, 2, 0.05), (2000, 20, 0.02), (2000, 200, 0.02)]:
        X, y, _ = make_separable(n, d, margin, random_state=0)
        ours = Perceptron(shuffle=False).fit(X, y)
        passes = ours.n_iter_

        def sklearn_fit():
            return SkPerceptron(
                penalty=None,
                alpha=0.0,
                eta0=1.0,
                tol=None,
                shuffle=False,
                max_iter=passes,
            ).fit(X, y)

        np.testing.assert_allclose(sklearn_fit().coef_, ours.coef_, atol=1e-12)
        label = f"Perceptron n={n} d={d} ({ours.n_updates_} updates, {passes} passes)"
        results.append(
            compare(
                label,
                lambda: Perceptron(shuffle=False).fit(X, y),
                sklearn_fit,
                repeat=3,
                limit=None,
            )
        )
        results.append(
            compare(
                f"KernelPerceptron(linear) n={n} d={d} vs Perceptron",
                lambda: KernelPerceptron(shuffle=False).fit(X, y),
                sklearn_fit,
                repeat=3,
                limit=None,
            )
        )
    return results


if __name__ == "__main__":
    print("ratio = mllib time / scikit-learn time (best of 3, one process)")
    with threadpool_limits(limits=1):
        rows()
