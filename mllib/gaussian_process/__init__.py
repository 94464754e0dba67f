"""Gaussian processes, with scikit-learn's names: ``GaussianProcessRegressor``
and ``kernels``."""

from . import kernels
from .regression import GaussianProcessRegressor

__all__ = ["GaussianProcessRegressor", "kernels"]
