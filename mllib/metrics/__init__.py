"""Evaluation metrics, with scikit-learn's names and definitions."""

from .classification import accuracy_score
from .regression import mean_absolute_error, mean_squared_error, r2_score, root_mean_squared_error

__all__ = [
    "accuracy_score",
    "mean_absolute_error",
    "mean_squared_error",
    "r2_score",
    "root_mean_squared_error",
]
