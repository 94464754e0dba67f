r"""Feature transformations: standardisation and polynomial basis expansions.

Both are fitted on training data only and then applied unchanged to new data,
so that a model never sees statistics of its test set. Same names, parameters,
attributes and column order as ``sklearn.preprocessing``.
"""

from itertools import chain, combinations, combinations_with_replacement
from numbers import Integral

import numpy as np
from sklearn.base import (
    BaseEstimator,
    OneToOneFeatureMixin,
    TransformerMixin,
)
from sklearn.utils.validation import check_is_fitted, validate_data

from .validation import check_sample_weight, feature_names_in
from .weighted_moments import batch_moments, merge_moments


class StandardScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    r"""Standardise each feature: :math:`z_{ij} = (x_{ij} - \mu_j) / s_j`.

    :math:`\mu_j` is the training mean and :math:`s_j` the training standard
    deviation (population version, dividing by :math:`n`) of feature :math:`j`;
    with weights :math:`w_i\ge0` (``sample_weight``),

    .. math::

        n = \sum_i w_i, \quad \mu_j = \frac1n\sum_i w_i x_{ij}, \quad
        s_j^2 = \frac1n\sum_i w_i (x_{ij}-\mu_j)^2,

    so an integer weight counts as that many copies of the row.
    Penalised models (ridge, lasso) need it: their penalty treats every
    coefficient alike, which is only meaningful when the features are on the
    same scale.

    Parameters
    ----------
    with_mean : bool, default=True
        Subtract the mean.
    with_std : bool, default=True
        Divide by the standard deviation.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,) or None
        Training means; ``None`` when neither option is set.
    var_ : ndarray of shape (n_features,) or None
        Training variances; ``None`` unless ``with_std``.
    scale_ : ndarray of shape (n_features,) or None
        Standard deviations, with 1 for (numerically) constant features so that
        they are left unscaled instead of divided by zero; ``None`` unless
        ``with_std``.
    n_samples_seen_ : int or float
        :math:`n`, summed over all ``partial_fit`` calls since ``fit``.
    n_features_in_ : int

    Notes
    -----
    Equivalent to ``sklearn.preprocessing.StandardScaler`` (without sparse
    input or missing values), including its test for constant features and
    ``partial_fit``. ``n_samples_seen_`` is the number of rows seen while no
    ``sample_weight`` was given, else the total weight.
    """

    def __init__(self, with_mean=True, with_std=True):
        self.with_mean = with_mean
        self.with_std = with_std

    def fit(self, X, y=None, sample_weight=None):
        """Learn the means and standard deviations of ``X``, shape (n_samples,
        n_features), each row weighted by ``sample_weight`` (n_samples,)."""
        # forget any earlier batches: fit starts afresh
        for attribute in ("n_samples_seen_", "mean_", "var_", "scale_"):
            vars(self).pop(attribute, None)
        return self.partial_fit(X, y, sample_weight)

    def partial_fit(self, X, y=None, sample_weight=None):
        r"""Update the statistics with one more batch ``X`` (n_samples,
        n_features); ``sample_weight`` (n_samples,) weights its rows.

        The total weight :math:`n`, the means and the variances of the data
        seen so far are merged with the batch's by Chan, Golub & LeVeque's
        pairwise formula (:func:`mllib.weighted_moments.merge_moments`), so
        any split of the data into batches gives the statistics of ``fit`` on
        all of it, up to rounding.
        """
        first_call = not hasattr(self, "n_samples_seen_")
        X = validate_data(self, X, dtype=np.float64, reset=first_call)
        weights = check_sample_weight(sample_weight, X.shape[0])
        n_batch, mean_batch, var_batch = batch_moments(X, weights)
        if first_call:
            n_seen, mean_seen, var_seen = 0, 0.0, 0.0
        else:
            n_seen, mean_seen, var_seen = self.n_samples_seen_, *self._moments
        n, mean, var = merge_moments(
            n_seen, mean_seen, var_seen, n_batch, mean_batch, var_batch
        )
        self._moments = mean, var
        # a count of rows while no weights were given, as in scikit-learn,
        # else the total weight
        weighted = sample_weight is not None or isinstance(n_seen, float)
        self.n_samples_seen_ = float(n) if weighted else int(n)
        self.mean_ = mean if (self.with_mean or self.with_std) else None
        self.var_ = self.scale_ = None
        if self.with_std:
            self.var_ = var
            # A feature is constant if its computed variance is within the
            # rounding error of the two-pass variance algorithm (Chan, Golub &
            # LeVeque, 1983), as in scikit-learn; dividing by its standard
            # deviation would amplify noise.
            eps = np.finfo(np.float64).eps
            constant = var <= n * eps * var + (n * mean * eps) ** 2
            self.scale_ = np.where(constant, 1.0, np.sqrt(var))
        return self

    def transform(self, X):
        """Standardise ``X`` with the training statistics; returns a new
        array."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if self.with_mean:
            X = X - self.mean_
        if self.with_std:
            X = X / self.scale_
        return X

    def inverse_transform(self, X):
        r"""Undo :meth:`transform`: :math:`x_{ij} = z_{ij} s_j + \mu_j`;
        returns a new array."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if self.with_std:
            X = X * self.scale_
        if self.with_mean:
            X = X + self.mean_
        return X


class PolynomialFeatures(TransformerMixin, BaseEstimator):
    r"""All monomials of the features up to a given degree.

    For :math:`x\in\mathbb R^d` the output has one column per monomial
    :math:`\prod_j x_j^{p_j}` with :math:`\sum_j p_j \le` ``degree``: there are
    :math:`\binom{d + \text{degree}}{d}` of them (including the constant 1).
    For one feature this is the Vandermonde row :math:`(1, x, x^2, \dots)`. A
    linear model in these features is a polynomial in the original ones: a
    *basis expansion*.

    Parameters
    ----------
    degree : int, default=2
    interaction_only : bool, default=False
        Only products of distinct features (every :math:`p_j \le 1`).
    include_bias : bool, default=True
        Include the constant column (all :math:`p_j = 0`).

    Attributes
    ----------
    powers_ : ndarray of shape (n_output_features_, n_features_in_)
        ``powers_[k, j]`` is the exponent of feature ``j`` in output column
        ``k``. Columns are ordered by degree, then lexicographically by feature
        index, as in scikit-learn: for two features and degree 2, :math:`1,
        x_0, x_1, x_0^2, x_0x_1, x_1^2`.
    n_output_features_ : int
    n_features_in_ : int

    Notes
    -----
    Equivalent to ``sklearn.preprocessing.PolynomialFeatures`` for an integer
    ``degree``. High degrees on raw inputs give badly scaled, nearly collinear
    columns; standardise the input first or keep the degree small.
    """

    def __init__(self, degree=2, interaction_only=False, include_bias=True):
        self.degree = degree
        self.interaction_only = interaction_only
        self.include_bias = include_bias

    def fit(self, X, y=None):
        """Work out the output columns (``powers_``) for ``X`` of shape
        (n_samples, n_features)."""
        X = validate_data(self, X, dtype=np.float64)
        if (
            isinstance(self.degree, bool)
            or not isinstance(self.degree, Integral)
            or self.degree < 0
        ):
            raise ValueError(
                f"degree must be a non-negative integer; got {self.degree!r}."
            )
        if self.degree == 0 and not self.include_bias:
            raise ValueError(
                "degree=0 with include_bias=False would output no features."
            )
        n_features = X.shape[1]
        choose = (
            combinations
            if self.interaction_only
            else combinations_with_replacement
        )
        lowest = 0 if self.include_bias else 1
        monomials = chain.from_iterable(
            choose(range(n_features), k)
            for k in range(lowest, self.degree + 1)
        )
        self.powers_ = np.array(
            [
                np.bincount(np.array(m, dtype=int), minlength=n_features)
                for m in monomials
            ]
        ).reshape(-1, n_features)
        self.n_output_features_ = len(self.powers_)
        return self

    def transform(self, X):
        """The monomials of each row of ``X``.

        Returns an array of shape (n_samples, n_output_features_).
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        features = np.arange(X.shape[1])
        # Column k multiplies input column j by itself powers_[k, j] times:
        # the product over j of x_j ** powers_[k, j]. The empty product (the
        # bias column) is 1.
        return np.column_stack(
            [
                np.prod(X[:, np.repeat(features, p)], axis=1)
                for p in self.powers_
            ]
        )

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns, e.g. ``1, x0, x1, x0^2, x0 x1, x1^2``.

        The inputs are named ``input_features``, the column names seen in
        ``fit``, or ``x0, x1, ...``, in that order of preference.
        """
        input_features = feature_names_in(self, input_features)
        names = []
        for p in self.powers_:
            factors = [
                name if e == 1 else f"{name}^{e}"
                for name, e in zip(input_features, p)
                if e
            ]
            names.append(" ".join(factors) or "1")
        return np.array(names, dtype=object)
