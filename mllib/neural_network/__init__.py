"""Multilayer perceptrons trained by backpropagation (scikit-learn's
``sklearn.neural_network``)."""

from .autoencoder import Autoencoder
from .multilayer_perceptron import MLPClassifier, MLPRegressor

__all__ = ["Autoencoder", "MLPClassifier", "MLPRegressor"]
