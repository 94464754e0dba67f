"""Linear models, with scikit-learn's names, parameters and objectives (see the notation page)."""

from .coordinate_descent import ElasticNet, Lasso, enet_path, lasso_path
from .least_squares import LinearRegression
from .perceptron import Perceptron
from .ridge import Ridge
from .sgd import SGDRegressor

__all__ = ["ElasticNet", "Lasso", "LinearRegression", "Perceptron", "Ridge", "SGDRegressor", "enet_path", "lasso_path"]
