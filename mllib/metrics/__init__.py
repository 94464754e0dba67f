"""Evaluation metrics, with scikit-learn's names and definitions."""

from .classification import accuracy_score, confusion_matrix, f1_score, log_loss, precision_score, recall_score
from .ranking import auc, roc_auc_score, roc_curve
from .regression import mean_absolute_error, mean_squared_error, r2_score, root_mean_squared_error

__all__ = [
    "accuracy_score",
    "auc",
    "confusion_matrix",
    "f1_score",
    "log_loss",
    "mean_absolute_error",
    "mean_squared_error",
    "precision_score",
    "r2_score",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
    "root_mean_squared_error",
]
