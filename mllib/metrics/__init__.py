"""Evaluation metrics, with scikit-learn's names and definitions."""

from .classification import accuracy_score, confusion_matrix, f1_score, log_loss, precision_score, recall_score
from .ranking import auc, roc_auc_score, roc_curve
from .regression import r2_score

__all__ = [
    "accuracy_score",
    "auc",
    "confusion_matrix",
    "f1_score",
    "log_loss",
    "precision_score",
    "r2_score",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
]
