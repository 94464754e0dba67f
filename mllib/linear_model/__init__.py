"""Linear models, with scikit-learn's names, parameters and objectives (see the notation page)."""

from .bayes import BayesianLinearRegression

__all__ = ["BayesianLinearRegression"]
