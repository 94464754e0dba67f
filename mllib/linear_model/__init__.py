"""Linear models, with scikit-learn's names, parameters and objectives (see the notation page)."""

from .coordinate_descent import ElasticNet, Lasso, enet_path, lasso_path
from .least_squares import LinearRegression
from .ridge import Ridge

__all__ = ["ElasticNet", "Lasso", "LinearRegression", "Ridge", "enet_path", "lasso_path"]
