"""Base classes for mllib estimators, following scikit-learn's conventions.

The contract (the same as scikit-learn's, so readers can move between the two):

* ``__init__`` only stores its keyword arguments, under the same names; all
  validation happens in ``fit``.
* ``fit`` returns ``self``; what it learns is stored in attributes ending in ``_``.
* ``get_params`` / ``set_params`` / ``clone`` work on those constructor arguments.
* Randomness comes from a ``random_state`` argument resolved inside ``fit``.
"""

import copy
import inspect

import numpy as np

from .metrics import accuracy_score, r2_score
from .validation import (
    check_array,
    check_is_fitted,
    check_n_features,
    check_X_y,
)


class BaseEstimator:
    """Parameter handling and input validation shared by all estimators."""

    @classmethod
    def _get_param_names(cls):
        signature = inspect.signature(cls.__init__)
        names = []
        for p in signature.parameters.values():
            if p.name == "self":
                continue
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(
                    f"{cls.__name__}.__init__ must list its parameters explicitly (no *args or **kwargs)."
                )
            names.append(p.name)
        return sorted(names)

    def get_params(self, deep=True):
        """Constructor parameters as a dict; with ``deep=True`` also those of nested estimators,
        as ``"<name>__<param>"``."""
        params = {}
        for name in self._get_param_names():
            value = getattr(self, name)
            params[name] = value
            if deep and isinstance(value, BaseEstimator):
                params.update(
                    {f"{name}__{k}": v for k, v in value.get_params().items()}
                )
        return params

    def set_params(self, **params):
        """Set constructor parameters (``"<name>__<param>"`` reaches nested estimators); return self."""
        valid = self._get_param_names()
        for key, value in params.items():
            name, _, sub_key = key.partition("__")
            if name not in valid:
                raise ValueError(
                    f"Invalid parameter {name!r} for {type(self).__name__}. "
                    f"Valid parameters are: {valid}."
                )
            if sub_key:
                getattr(self, name).set_params(**{sub_key: value})
            else:
                setattr(self, name, value)
        return self

    def __repr__(self):
        defaults = {
            p.name: p.default
            for p in inspect.signature(type(self).__init__).parameters.values()
        }
        changed = [
            f"{name}={value!r}"
            for name, value in self.get_params(deep=False).items()
            if not _same(value, defaults.get(name))
        ]
        return f"{type(self).__name__}({', '.join(changed)})"

    def _validate_data(self, X, y=None, *, reset, y_numeric=True):
        """Validate ``X`` (and ``y``); record ``n_features_in_`` at fit time (``reset=True``)
        and check it at predict time (``reset=False``, which also checks the model is fitted)."""
        if not reset:
            check_is_fitted(self)
        if y is None:
            X = check_array(X)
        else:
            X, y = check_X_y(X, y, y_numeric=y_numeric)
        if reset:
            self.n_features_in_ = X.shape[1]
        else:
            check_n_features(self, X)
        return X if y is None else (X, y)


def _same(a, b):
    """Parameter equality for ``__repr__`` that tolerates arrays and NaN."""
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return False
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def clone(estimator):
    """A new, unfitted estimator with the same parameters (nested estimators cloned too)."""
    if isinstance(estimator, (list, tuple)):
        return type(estimator)(clone(e) for e in estimator)
    if not isinstance(estimator, BaseEstimator):
        return copy.deepcopy(estimator)
    params = {k: clone(v) for k, v in estimator.get_params(deep=False).items()}
    return type(estimator)(**params)


class RegressorMixin:
    """``score`` is the coefficient of determination R² on the given data."""

    _estimator_type = "regressor"

    def score(self, X, y):
        return r2_score(y, self.predict(X))


class ClassifierMixin:
    """``score`` is the accuracy (fraction of correct predictions) on the given data."""

    _estimator_type = "classifier"

    def score(self, X, y):
        return accuracy_score(y, self.predict(X))


class TransformerMixin:
    """``fit_transform(X)`` is ``fit(X).transform(X)``."""

    def fit_transform(self, X, y=None):
        return self.fit(X, y).transform(X)
