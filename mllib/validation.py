"""The checks mllib adds to scikit-learn's estimator contract.

Estimators validate their data with scikit-learn's public
``sklearn.utils.validation.validate_data`` and ``check_is_fitted`` (see
CONTRIBUTING.md). What is left here is what scikit-learn does not offer
publicly, or offers in a weaker form:

* ``encode_classes``: class labels as indices, with binary-only
  classifiers refused multiclass targets in scikit-learn's words;
* ``check_sample_weight``: one non-negative weight per sample;
* ``feature_names_in``: the input names ``get_feature_names_out`` builds
  on (scikit-learn's helper for it is private);
* ``check_scalar`` and ``check_int``: hyperparameters (scikit-learn's
  public ``check_scalar`` lets NaN and ``True`` through);
* ``check_random_state``: a ``numpy.random.Generator``, the generator the
  algorithms and chapters use (scikit-learn's returns a ``RandomState``),
  seeded from numpy's global state for ``None``, as scikit-learn's.
* ``available_if``: a method that exists only for some parameters (such
  as ``predict_proba`` of an SVC fitted without probabilities), whose
  ``AttributeError`` says why (scikit-learn's replaces the reason with a
  generic message).

None of them modifies the caller's arrays.
"""

import functools
import numbers
import types

import numpy as np
from sklearn.utils import check_array
from sklearn.utils.multiclass import (
    check_classification_targets,
    type_of_target,
)
from sklearn.utils.validation import check_is_fitted


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
    check_classification_targets(y)
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


def check_sample_weight(sample_weight, n_samples, *, non_negative=True):
    """Weights of shape (n_samples,), finite, non-negative, not all zero.

    ``None`` means a weight of one for every sample, and a number that
    weight for every sample (scikit-learn's broadcast). ``non_negative=False``
    lets negative weights through, for the estimators whose scikit-learn
    twin gives them a meaning (DBSCAN). Returns a float64 array, the
    caller's own when it already is one (mllib only reads it).
    """
    if sample_weight is None:
        return np.ones(n_samples)
    if isinstance(sample_weight, numbers.Real):
        sample_weight = np.full(n_samples, sample_weight, dtype=np.float64)
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
    if non_negative and np.any(sample_weight < 0):
        raise ValueError(
            "sample_weight must be non-negative; got "
            f"{np.count_nonzero(sample_weight < 0)} negative weight(s)."
        )
    if np.all(sample_weight == 0):
        raise ValueError(
            "Sample weights must contain at least one non-zero number; all "
            "weights are zero."
        )
    return sample_weight


def feature_names_in(estimator, input_features=None):
    """Names of a fitted estimator's input features, an object ndarray.

    ``input_features`` if given (it must match ``feature_names_in_``, when
    ``fit`` saw column names), else ``feature_names_in_``, else ``x0, x1,
    ...``: the rule of scikit-learn's ``get_feature_names_out``.
    """
    check_is_fitted(estimator, "n_features_in_")
    n_features = estimator.n_features_in_
    fitted = getattr(estimator, "feature_names_in_", None)
    if input_features is None:
        if fitted is not None:
            return fitted
        return np.array([f"x{j}" for j in range(n_features)], dtype=object)
    names = np.asarray(input_features, dtype=object)
    if len(names) != n_features:
        raise ValueError(
            "input_features should have length equal to number of features "
            f"({n_features}), got {len(names)}."
        )
    if fitted is not None and not np.array_equal(names, fitted):
        raise ValueError(
            "input_features is not equal to feature_names_in_: got "
            f"{list(names)}, but fit saw the columns {list(fitted)}."
        )
    return names


def check_random_state(seed):
    """Turn ``None``, an int, a ``numpy.random.Generator`` or a
    ``numpy.random.RandomState`` into a ``Generator``.

    Estimators call this inside ``fit``. An int seeds a new generator, so
    two fits with the same integer agree. ``None`` and a ``RandomState``
    draw the new generator's seed from numpy's global ``RandomState`` or
    from that instance, the streams scikit-learn's ``random_state=None``
    and instances use: once a script seeds numpy's global state, its fits
    repeat, with mllib's estimators as with scikit-learn's. The draws
    themselves are not scikit-learn's (a ``Generator`` is not a
    ``RandomState``), so a randomised estimator's results differ from
    scikit-learn's for the same seed.
    """
    if seed is None:  # numpy's global RandomState
        seed = np.random.randint(2**63 - 1, dtype=np.int64)
    if isinstance(seed, np.random.RandomState):
        seed = seed.randint(2**63 - 1, dtype=np.int64)
    if isinstance(seed, (numbers.Integral, np.integer)):
        return np.random.default_rng(seed)
    if isinstance(seed, np.random.Generator):
        return seed
    raise ValueError(
        "random_state must be None, an int, a numpy.random.Generator or a "
        f"numpy.random.RandomState; got {seed!r}."
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
    """Check that a hyperparameter is a real number in the given interval;
    return it as float.

    ``np.inf`` is accepted when the interval allows it (e.g. ``C=np.inf`` for a
    hard margin).
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
        interval = (
            f"{left}{'-inf' if low is None else low}, "
            f"{'inf' if high is None else high}{right}"
        )
        raise ValueError(f"{name} must be in {interval}; got {value!r}.")
    return float(value)


def check_int(value, name, *, low=None):
    """Check that a hyperparameter is an integer (``bool`` is not) of at least
    ``low``; return it as int.

    For counts such as ``n_clusters``, ``max_iter`` or ``min_samples``, where
    ``2.5`` or ``True`` is a mistake that a silent conversion would hide.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer; got {value!r}.")
    if low is not None and value < low:
        raise ValueError(f"{name} must be at least {low}; got {value!r}.")
    return int(value)


def available_if(check):
    """Decorate a method that exists only when ``check(estimator)`` passes.

    ``check`` raises ``AttributeError`` with the reason when the method is
    not available (e.g. "... only with probability=True"); reading the
    attribute then raises it, so ``hasattr`` is False, as with
    scikit-learn's ``available_if``. The bound method keeps its name and
    docstring, which scikit-learn's tools read.
    """

    def decorate(method):
        return _ConditionalMethod(method, check)

    return decorate


class _ConditionalMethod:
    def __init__(self, method, check):
        self.method, self.check = method, check
        functools.update_wrapper(self, method)

    def __get__(self, instance, owner=None):
        if instance is None:  # on the class: the plain function
            return self.method
        self.check(instance)
        return types.MethodType(self.method, instance)
