"""Multilayer perceptrons trained by backpropagation (scikit-learn's ``sklearn.neural_network``)."""

from .multilayer_perceptron import MLPClassifier, MLPRegressor

__all__ = ["MLPClassifier", "MLPRegressor"]
