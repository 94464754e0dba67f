"""Exceptions and warnings shared by every mllib estimator."""


class NotFittedError(ValueError, AttributeError):
    """An estimator was used before ``fit``.

    Subclasses both ``ValueError`` and ``AttributeError``, as scikit-learn's does,
    so ``except ValueError`` and ``hasattr``-style checks both work.
    """


class ConvergenceWarning(UserWarning):
    """An iterative solver stopped at ``max_iter`` before reaching ``tol``."""
