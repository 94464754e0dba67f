"""Evaluation metrics, with scikit-learn's names and definitions."""

from .classification import accuracy_score
from .regression import mean_squared_error, r2_score

__all__ = ["accuracy_score", "mean_squared_error", "r2_score"]
