"""Evaluation metrics, with scikit-learn's names and definitions."""

from .classification import accuracy_score
from .regression import r2_score

__all__ = ["accuracy_score", "r2_score"]
