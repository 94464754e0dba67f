"""Linear models, with scikit-learn's names, parameters and objectives (see the notation page)."""

from .glm import PoissonRegressor
from .logistic import LogisticRegression

__all__ = ["LogisticRegression", "PoissonRegressor"]
