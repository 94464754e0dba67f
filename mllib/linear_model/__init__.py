"""Linear models, with scikit-learn's names, parameters and objectives (see the notation page)."""

from .perceptron import Perceptron

__all__ = ["Perceptron"]
