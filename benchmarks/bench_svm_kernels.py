"""SVC (RBF kernel, SMO) and KernelRidge fit times against scikit-learn, on 2000 points,
and SVC on the 10 classes of digits (one-vs-one: 45 problems of about 360 points).

Run from the repository root: ``python benchmarks/bench_svm_kernels.py``. The SVC rows also
check that the two fits agree (same support vectors, close decision values), so the times
compare the same work.

Where SVC's time goes (C = 10, 2000 points): the first 1000 SMO steps, on
all multipliers, compute nearly every kernel row the fit will use (about one
per support vector, each a matrix-vector product and an ``exp`` over 2000
entries, as in libsvm). Then libsvm's shrinking sets aside the multipliers at
a bound that cannot violate, and the remaining steps work on arrays of a few
dozen to a few hundred entries. A step makes about a dozen numpy calls, and
at these lengths each costs its fixed overhead (a fraction of a
microsecond) more than its arithmetic: a few microseconds a step, where
libsvm's compiled loop takes one or two. With C = 10, SMO needs four to six
times more steps than with C = 1, so the ratio is larger there.

Digits (one-vs-one, 45 problems of about 360 points, about 5000 SMO steps in
all, as many as libsvm's): every step is short, so the fixed cost of a
step's dozen numpy calls is nearly all the time (about 30 us of CPU a step
here, against about 10 us for libsvm), and the ratio is near 3, against
about 1 for one problem of 2000 points. Computing each problem's whole Gram
matrix with one product instead of rows on demand is slower still (the rows
SMO reads are about a sixth of them).
"""

import numpy as np
from sklearn import svm as sk_svm
from sklearn.datasets import (
    load_digits,
    make_classification,
    make_friedman1,
    make_moons,
)
from sklearn.kernel_ridge import KernelRidge as SkKernelRidge
from threadpoolctl import threadpool_limits
from timing import best_time, compare

from mllib.kernel_ridge import KernelRidge
from mllib.linear_model import Ridge
from mllib.svm import SVC

N = 2000


def svc_data(n):
    return {
        "moons, noise 0.3 (d=2)": make_moons(n, noise=0.3, random_state=0),
        "make_classification (d=10)": make_classification(
            n, n_features=10, n_informative=5, random_state=0
        ),
    }


def svc_pair(X, y, C, check=False):
    ours = lambda: SVC(C=C).fit(X, y)
    theirs = lambda: sk_svm.SVC(C=C).fit(X, y)
    if check:
        a, b = ours(), theirs()
        # tol = 1e-3: the few multipliers within tol of 0 may differ
        assert len(np.setxor1d(a.support_, b.support_)) < max(5, len(y) / 500)
        gap = np.abs(a.decision_function(X) - b.decision_function(X)).max()
        assert gap < 1e-2, gap
    return ours, theirs


def svc_rows():
    results = []
    for name, (X, y) in svc_data(N).items():
        for C in (1.0, 10.0):
            results.append(
                compare(
                    f"SVC rbf C={C:g}, {name}",
                    *svc_pair(X, y, C, check=True),
                    targeted=C == 10.0,
                )
            )
            ours, theirs = SVC(C=C).fit(X, y), sk_svm.SVC(C=C).fit(X, y)
            print(
                f"{'':50s} SMO steps: mllib {ours.n_iter_[0]}, libsvm "
                f"{theirs.n_iter_[0]}; {len(ours.support_)} support vectors"
            )
    return results


def multiclass_svc_rows():
    """One-vs-one on digits (1797 x 64, 10 classes): 45 two-class problems
    of about 360 points each, where each SMO step works on short arrays."""
    X, y = load_digits(return_X_y=True)
    results = []
    for C in (1.0, 10.0):
        ours, theirs = SVC(C=C).fit(X, y), sk_svm.SVC(C=C).fit(X, y)
        # tol = 1e-3: the votes agree; a few multipliers within tol of 0 may
        # differ
        np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
        assert len(np.setxor1d(ours.support_, theirs.support_)) < 10
        results.append(
            compare(
                f"SVC rbf C={C:g}, digits (10 classes, d=64)",
                lambda C=C: SVC(C=C).fit(X, y),
                lambda C=C: sk_svm.SVC(C=C).fit(X, y),
            )
        )
        print(
            f"{'':50s} SMO steps over 45 problems: mllib "
            f"{ours.n_iter_.sum()}, libsvm {theirs.n_iter_.sum()}; "
            f"{len(ours.support_)} support vectors"
        )
    return results


def kernel_ridge_rows():
    X, y = make_friedman1(N, noise=0.5, random_state=0)
    results = []
    for kernel, params in [
        ("rbf", dict(gamma=0.5)),
        ("linear", {}),
        ("poly", dict(degree=3)),
    ]:
        ours = KernelRidge(alpha=0.1, kernel=kernel, **params)
        theirs = SkKernelRidge(alpha=0.1, kernel=kernel, **params)
        np.testing.assert_allclose(
            ours.fit(X, y).dual_coef_,
            theirs.fit(X, y).dual_coef_,
            rtol=1e-6,
            atol=1e-8,
        )
        results.append(
            compare(
                f"KernelRidge {kernel}, Friedman #1 (d=10)",
                lambda: ours.fit(X, y),
                lambda: theirs.fit(X, y),
            )
        )
    return results


def ridge_primal_dual_rows(n=1000):
    """The cost comparison of the kernel-methods chapter: primal vs dual ridge as d grows (no scikit-learn)."""
    rng = np.random.default_rng(0)
    print(f"Ridge, n = {n}: primal solve (d x d) vs dual solve (n x n)")
    for d in (50, 200, 1000, 2000, 4000):
        X, y = rng.normal(size=(n, d)), rng.normal(size=n)
        t_primal = best_time(
            lambda: Ridge(alpha=1.0, solver="primal").fit(X, y), 3
        )
        t_dual = best_time(
            lambda: Ridge(alpha=1.0, solver="dual").fit(X, y), 3
        )
        print(
            f"  d = {d:5d}: primal {1e3 * t_primal:8.1f} ms, dual {1e3 * t_dual:8.1f} ms"
        )


def rows():
    return svc_rows() + multiclass_svc_rows() + kernel_ridge_rows()


if __name__ == "__main__":
    print(
        f"n = {N}; ratio = mllib time / scikit-learn time (best of 5 "
        "alternating runs, one process; wall clock, CPU time)"
    )
    with threadpool_limits(limits=1):
        rows()
        ridge_primal_dual_rows()
