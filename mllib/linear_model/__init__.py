"""Linear models, with scikit-learn's names, parameters and objectives (see the
notation page)."""

from .bayes import BayesianLinearRegression
from .coordinate_descent import ElasticNet, Lasso, enet_path, lasso_path
from .glm import PoissonRegressor
from .least_squares import LinearRegression
from .logistic import LogisticRegression
from .multiclass_perceptron import MulticlassPerceptron
from .perceptron import Perceptron
from .ridge import Ridge
from .sgd import SGDRegressor
from .sgd_classifier import SGDClassifier

__all__ = [
    "BayesianLinearRegression",
    "ElasticNet",
    "Lasso",
    "LinearRegression",
    "LogisticRegression",
    "MulticlassPerceptron",
    "Perceptron",
    "PoissonRegressor",
    "Ridge",
    "SGDClassifier",
    "SGDRegressor",
    "enet_path",
    "lasso_path",
]
