"""Evaluation metrics, with scikit-learn's names and definitions."""

from .classification import (
    accuracy_score,
    confusion_matrix,
    f1_score,
    log_loss,
    precision_score,
    recall_score,
)
from .cluster import adjusted_rand_score, silhouette_samples, silhouette_score
from .ranking import auc, roc_auc_score, roc_curve
from .regression import (
    mean_absolute_error,
    mean_squared_error,
    r2_score,
    root_mean_squared_error,
)

__all__ = [
    "accuracy_score",
    "adjusted_rand_score",
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
    "silhouette_samples",
    "silhouette_score",
]
