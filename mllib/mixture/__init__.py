"""Mixture models, with scikit-learn's names, parameters and fitted
attributes."""

from .gaussian_mixture import GaussianMixture

__all__ = ["GaussianMixture"]
