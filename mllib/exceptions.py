"""scikit-learn's exceptions and warnings, under the names chapters import.

mllib raises scikit-learn's own classes, so ``except
sklearn.exceptions.NotFittedError`` catches an mllib estimator used before
``fit``, and warning filters on either name act on both libraries.
"""

from sklearn.exceptions import ConvergenceWarning, NotFittedError

__all__ = ["ConvergenceWarning", "NotFittedError"]
