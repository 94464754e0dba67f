"""The checks mllib adds to scikit-learn's estimator contract.

Estimators validate their data with scikit-learn's public
``sklearn.utils.validation.validate_data`` and ``check_is_fitted`` (see
CONTRIBUTING.md). What is left here is what scikit-learn does not offer
publicly, or offers in a weaker form:

* ``encode_classes``: class labels as indices, with binary-only
  classifiers refused multiclass targets in scikit-learn's words;
* ``check_sample_weight``: one non-negative weight per sample;
* ``check_scalar`` and ``check_int``: hyperparameters (scikit-learn's
  public ``check_scalar`` lets NaN and ``True`` through);
* ``check_random_state``: a ``numpy.random.Generator``, the generator the
  algorithms and chapters use (scikit-learn's returns a ``RandomState``).

None of them modifies the caller's arrays.
"""

import numbers

import numpy as np
from sklearn.utils import check_array
from sklearn.utils.multiclass import (
    check_classification_targets as check_label_type,
)
from sklearn.utils.multiclass import type_of_target

from .exceptions import NotFittedError


def encode_classes(
    y, *, binary_only=False, allow_one_class=False, estimator=None
):
    """Return ``(classes, y_index)`` with ``classes[y_index] == y``.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Class labels (numbers or strings), already validated as 1-D.
    binary_only : bool
        Refuse more than two classes, as scikit-learn does for an estimator
        whose ``classifier_tags.multi_class`` is False.
    allow_one_class : bool
        Accept a single class (for models that then predict it
        everywhere, such as a tree on a bootstrap sample of one class).
    estimator : estimator object, optional
        Whose class name the messages use.

    Raises
    ------
    ValueError
        For continuous targets ("Unknown label type", scikit-learn's
        check), more than two classes when ``binary_only``, or a single
        class unless ``allow_one_class``.
    """
    check_label_type(y)
    classes, y_index = np.unique(y, return_inverse=True)
    name = "this classifier" if estimator is None else type(estimator).__name__
    if binary_only and len(classes) > 2:
        raise ValueError(
            "Only binary classification is supported. The type of the target "
            f"is {type_of_target(y)!r} ({len(classes)} classes). For more "
            f"classes, wrap {name} in mllib.multiclass.OneVsRestClassifier."
        )
    if len(classes) < 2 and not allow_one_class:
        raise ValueError(
            f"y contains only one class ({classes[0]!r}); {name} needs at "
            "least two classes to tell apart."
        )
    return classes, y_index.reshape(-1)


def check_sample_weight(sample_weight, n_samples):
    """Weights of shape (n_samples,), non-negative, not all zero.

    ``None`` means a weight of one for every sample. Returns a new float
    array or a read-only view of the caller's (never written to).
    """
    if sample_weight is None:
        return np.ones(n_samples)
    sample_weight = check_array(
        sample_weight,
        ensure_2d=False,
        dtype=np.float64,
        input_name="sample_weight",
    )
    if sample_weight.shape != (n_samples,):
        raise ValueError(
            f"sample_weight must have shape ({n_samples},), one weight per "
            f"sample; got shape {sample_weight.shape}."
        )
    if np.any(sample_weight < 0):
        raise ValueError("sample_weight must be non-negative.")
    if not np.any(sample_weight > 0):
        raise ValueError(
            "Sample weights must contain at least one non-zero number; all "
            "weights are zero."
        )
    return sample_weight


def check_random_state(seed):
    """Turn ``None``, an int or a ``numpy.random.Generator`` into a ``Generator``.

    Estimators call this inside ``fit`` so that two fits with the same integer seed
    agree, and no estimator ever touches numpy's global random state.
    """
    if seed is None or isinstance(seed, (numbers.Integral, np.integer)):
        return np.random.default_rng(seed)
    if isinstance(seed, np.random.Generator):
        return seed
    raise ValueError(
        f"random_state must be None, an int or a numpy.random.Generator; got {seed!r}."
    )


def check_scalar(
    value,
    name,
    *,
    low=None,
    high=None,
    low_inclusive=True,
    high_inclusive=True,
):
    """Check that a hyperparameter is a real number in the given interval; return it as float.

    ``np.inf`` is accepted when the interval allows it (e.g. ``C=np.inf`` for a hard margin).
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or np.isnan(value)
    ):
        raise ValueError(f"{name} must be a real number; got {value!r}.")
    too_low = low is not None and (
        value < low or (value == low and not low_inclusive)
    )
    too_high = high is not None and (
        value > high or (value == high and not high_inclusive)
    )
    if too_low or too_high:
        left = "[" if low_inclusive else "("
        right = "]" if high_inclusive else ")"
        interval = f"{left}{'-inf' if low is None else low}, {'inf' if high is None else high}{right}"
        raise ValueError(f"{name} must be in {interval}; got {value!r}.")
    return float(value)


def check_int(value, name, *, low=None):
    """Check that a hyperparameter is an integer (``bool`` is not) of at least ``low``; return it as int.

    For counts such as ``n_clusters``, ``max_iter`` or ``min_samples``, where ``2.5`` or ``True``
    is a mistake that a silent conversion would hide.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer; got {value!r}.")
    if low is not None and value < low:
        raise ValueError(f"{name} must be at least {low}; got {value!r}.")
    return int(value)


# Transitional: removed once every estimator uses validate_data (issue 14).


def check_array(X, *, name="X", ensure_2d=True, dtype=float):  # noqa: F811
    """Return ``X`` as a finite floating-point ndarray, 2-D unless ``ensure_2d=False``.

    Parameters
    ----------
    X : array-like
        Data, usually of shape (n_samples, n_features).
    name : str
        Name used in error messages.
    ensure_2d : bool
        Require two dimensions (rows are samples, columns are features).
    dtype : numpy dtype
        Target dtype; the result is a view when no conversion is needed.
    """
    try:
        array = np.asarray(X, dtype=dtype)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"{name} must contain numbers only; converting it to {np.dtype(dtype).name} failed "
            f"({error}). Encode text or categorical columns as numbers first."
        ) from None
    if ensure_2d and array.ndim != 2:
        hint = (
            f" Reshape it with {name}.reshape(-1, 1) if it holds one feature, "
            f"or {name}.reshape(1, -1) if it holds one sample."
            if array.ndim == 1
            else ""
        )
        raise ValueError(
            f"{name} must be a 2-D array of shape (n_samples, n_features); "
            f"got {array.ndim} dimension(s) with shape {array.shape}.{hint}"
        )
    if array.ndim >= 1 and array.shape[0] == 0:
        raise ValueError(
            f"{name} has 0 samples (shape {array.shape}); at least one is needed."
        )
    if ensure_2d and array.shape[1] == 0:
        raise ValueError(
            f"{name} has 0 features (shape {array.shape}); at least one is needed."
        )
    if np.issubdtype(array.dtype, np.inexact) and not np.all(
        np.isfinite(array)
    ):
        bad = np.argwhere(~np.isfinite(array))
        raise ValueError(
            f"{name} contains NaN or infinity ({len(bad)} entries, the first at index "
            f"{tuple(int(i) for i in bad[0])}). Remove or impute these values first."
        )
    return array


def check_X_y(X, y, *, y_numeric=True):
    """Validate a training set: ``X`` 2-D and finite, ``y`` 1-D with one entry per row of ``X``.

    A column vector ``y`` of shape (n_samples, 1) is flattened. With ``y_numeric=False``
    the labels keep their dtype (strings are allowed as class labels).
    """
    X = check_array(X)
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1:
        raise ValueError(
            f"y must be 1-D with one target per sample; got shape {y.shape}. "
            "Fit one model per output column if you have several targets."
        )
    if len(y) != len(X):
        raise ValueError(
            f"X and y have different numbers of samples: X has {len(X)} rows, y has {len(y)} "
            "entries. Each row of X needs exactly one target."
        )
    if y_numeric:
        y = check_array(y, name="y", ensure_2d=False)
    return X, y


def check_is_fitted(estimator):
    """Raise ``NotFittedError`` unless ``fit`` has set at least one attribute ending in ``_``."""
    fitted = [
        k
        for k in vars(estimator)
        if k.endswith("_") and not k.startswith("__")
    ]
    if not fitted:
        name = type(estimator).__name__
        raise NotFittedError(
            f"This {name} instance is not fitted yet. Call 'fit' with training data "
            "before using this method."
        )


def check_n_features(estimator, X):
    """Raise ``ValueError`` if ``X`` has a different number of columns than at fit time."""
    expected = estimator.n_features_in_
    if X.shape[1] != expected:
        raise ValueError(
            f"X has {X.shape[1]} features, but {type(estimator).__name__} was fitted with "
            f"{expected}. Pass data with the same columns, in the same order, as in fit."
        )


def check_classification_targets(
    y, *, n_classes=None, estimator_name="This estimator"
):
    """Return ``(classes, y_index)`` where ``classes[y_index] == y``.

    Rejects continuous targets (floats that are not whole numbers) and, when
    ``n_classes`` is given, any other number of distinct labels.
    """
    y = np.asarray(y)
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError(
            "y contains NaN or infinity; class labels must be finite."
        )
    if y.dtype.kind == "f" and np.any(y != np.round(y)):
        raise ValueError(
            "y looks continuous (it has non-integer floats), but a classifier needs class "
            "labels. Use a regressor, or convert y to integer or string labels."
        )
    classes, y_index = np.unique(y, return_inverse=True)
    if n_classes is not None and len(classes) != n_classes:
        raise ValueError(
            f"{estimator_name} needs exactly {n_classes} classes in y; got {len(classes)}: "
            f"{classes[:10]}{' ...' if len(classes) > 10 else ''}."
        )
    if len(classes) < 2:
        raise ValueError(
            f"y has a single class ({classes[0]!r}); a classifier needs at least two."
        )
    return classes, y_index.reshape(-1)
