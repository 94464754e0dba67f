"""Linear models, with scikit-learn's names, parameters and objectives (see the notation page)."""

from .sgd import SGDRegressor

__all__ = ["SGDRegressor"]
