"""Linear models, with scikit-learn's names, parameters and objectives (see the notation page)."""

from .least_squares import LinearRegression
from .perceptron import Perceptron
from .ridge import Ridge
from .sgd import SGDRegressor

__all__ = ["LinearRegression", "Perceptron", "Ridge", "SGDRegressor"]
