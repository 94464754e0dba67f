"""Shared argument checks for metrics."""

import numpy as np


def check_consistent_targets(y_true, y_pred, *, numeric):
    """Return ``y_true`` and ``y_pred`` as 1-D arrays of equal length (float if
    ``numeric``)."""
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        if y.ndim != 1:
            raise ValueError(f"{name} must be 1-D; got shape {y.shape}.")
    if len(y_true) != len(y_pred):
        raise ValueError(
            f"y_true and y_pred have different lengths ({len(y_true)} "
            f"and {len(y_pred)}); "
            "they must describe the same samples."
        )
    if len(y_true) == 0:
        raise ValueError(
            "y_true and y_pred are empty; a metric needs at least one sample."
        )
    if numeric:
        y_true, y_pred = y_true.astype(float), y_pred.astype(float)
        if not (np.all(np.isfinite(y_true)) and np.all(np.isfinite(y_pred))):
            raise ValueError(
                "y_true and y_pred must be finite (no NaN or infinity)."
            )
    return y_true, y_pred
