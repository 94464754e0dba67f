r"""What every naive Bayes classifier shares: Bayes' rule in log space.

A naive Bayes model stores a class prior :math:`\pi_k` and, for each class, a
density of the features that factorises over them (the naive Bayes assumption).
The joint log-likelihood :math:`j_k(x) = \log\pi_k + \sum_j\log p(x_j\mid k)`
is computed by each model; the posterior is

.. math:: \log P(k\mid x) = j_k(x) - \log\sum_l e^{j_l(x)},

normalised with ``logsumexp`` so that nothing underflows, however many features
multiply.

**Zero probabilities.** With ``alpha=0`` (the exact maximum-likelihood
estimate) a class can give probability 0 to a feature value; then :math:`j_k(x)
= -\infty` and the posterior of that class is exactly 0, computed without NaN
(:math:`0\cdot\log 0` is taken as 0 for outcomes that did not occur). If
*every* class gives probability 0 to a sample, its posterior is 0/0, undefined,
and prediction raises a ``ValueError``.
"""

import numbers

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..validation import check_sample_weight, encode_classes


class BaseNB(ClassifierMixin, BaseEstimator):
    """Prediction from ``_joint_log_likelihood(X)`` (n_samples, n_classes),
    which subclasses define."""

    def predict_joint_log_proba(self, X):
        r"""Joint log-likelihoods :math:`\log\pi_k + \log p(x\mid k)`, shape
        (n_samples, n_classes)."""
        jll = self._joint_log_likelihood(self._check_X(X))
        impossible = np.all(np.isneginf(jll), axis=1)
        if impossible.any():
            raise ValueError(
                f"{impossible.sum()} sample(s), the first at row "
                f"{np.argmax(impossible)}, have "
                "probability 0 under every class (a feature value that "
                "no class produced in "
                "training, estimated with alpha=0), so the posterior is "
                "0/0. Use alpha > 0."
            )
        return jll

    def predict_log_proba(self, X):
        """Log posterior probabilities, shape (n_samples, n_classes), columns
        in the order of ``classes_``."""
        jll = self.predict_joint_log_proba(X)
        return jll - logsumexp(jll, axis=1, keepdims=True)

    def predict_proba(self, X):
        """Posterior probabilities, shape (n_samples, n_classes)."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        """The class with the largest posterior for each row of ``X``, shape
        (n_samples,)."""
        jll = self.predict_joint_log_proba(X)
        return self.classes_[np.argmax(jll, axis=1)]

    def fit(self, X, y, sample_weight=None):
        """Fit to ``X`` of shape (n_samples, n_features) and labels ``y``
        (n_samples,), each sample counted with weight ``sample_weight``
        (n_samples,), default 1; return self."""
        # forget any earlier batches: fit starts afresh
        vars(self).pop("classes_", None)
        return self._learn_batch(X, y, sample_weight, classes=None, refit=True)

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Update the model with one more batch, as if it had been part of
        the data given to ``fit``; return self.

        ``classes`` (all the labels that may ever occur) is required on the
        first call and, if given again, must not change. The sufficient
        statistics (weighted counts, means and variances) are added to,
        so any split of the data into batches gives ``fit``'s model up to
        rounding.
        """
        return self._learn_batch(
            X, y, sample_weight, classes=classes, refit=False
        )

    def _learn_batch(self, X, y, sample_weight, classes, refit):
        """Add one weighted batch to the sufficient statistics; ``refit``:
        ``fit``'s first and only batch, whose labels define ``classes_``."""
        first_call = not hasattr(self, "classes_")
        if first_call and classes is None and not refit:
            raise ValueError(
                "classes must be passed on the first call to partial_fit: "
                "all the labels that may ever occur, e.g. np.unique(y_all)."
            )
        self._check_params()
        X, y = validate_data(self, X, y, dtype=np.float64, reset=first_call)
        X = self._check_features(X)
        weights = check_sample_weight(sample_weight, X.shape[0])
        if first_call:
            if refit:  # the labels present in y; one class is allowed,
                # as in scikit-learn: its posterior is 1 everywhere
                classes, y_index = encode_classes(
                    y, allow_one_class=True, estimator=self
                )
            else:
                check_classification_targets(classes)
                classes = np.unique(np.asarray(classes))
                y_index = _index_of_labels(y, classes)
            # set only once the labels are valid, so that after a failed
            # first call the next call is a first call again
            self.classes_ = classes
            self.class_count_ = np.zeros(len(self.classes_))
            self._start_counts(X.shape[1])
        else:
            if classes is not None and not np.array_equal(
                np.unique(classes), self.classes_
            ):
                raise ValueError(
                    f"classes={classes!r} differs from the classes of the "
                    f"first partial_fit call, {self.classes_!r}; call fit to "
                    "start again with other classes."
                )
            y_index = _index_of_labels(y, self.classes_)
        # one-hot labels times the weights: Y[i, k] = w_i [y_i = k], (n, K)
        Y = np.eye(len(self.classes_))[y_index] * weights[:, None]
        self.class_count_ = self.class_count_ + Y.sum(axis=0)
        self._add_counts(X, Y, y_index, weights)
        self._update_estimates()
        return self

    def _check_params(self):
        """Validate the hyperparameters (subclasses with some override)."""

    def _check_features(self, X):
        """Check (and for some models transform) validated features."""
        return X

    def _check_X(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._check_features(X)


def _index_of_labels(y, classes):
    """Index of each label of ``y`` in ``classes``; a ValueError for a label
    not in it."""
    check_classification_targets(y)
    y_index = np.searchsorted(classes, y)
    unknown = (y_index == len(classes)) | (
        classes[np.minimum(y_index, len(classes) - 1)] != y
    )
    if np.any(unknown):
        raise ValueError(
            f"The label(s) {np.unique(np.asarray(y)[unknown])!r} in y are not "
            f"among the classes {classes!r} given in the first partial_fit "
            "call."
        )
    return y_index


class DiscreteNB(BaseNB):
    """Shared by the count-based models: the class prior and the additive
    smoothing."""

    def _check_params(self):
        self._check_alpha()

    def _check_alpha(self):
        if (
            isinstance(self.alpha, bool)
            or not isinstance(self.alpha, numbers.Real)
            or not self.alpha >= 0
        ):
            raise ValueError(
                f"alpha must be a non-negative number; got {self.alpha!r}."
            )
        return float(self.alpha)

    def _set_class_log_prior(self):
        K = len(self.classes_)
        if self.class_prior is not None:
            prior = np.asarray(self.class_prior, dtype=float)
            if (
                prior.shape != (K,)
                or np.any(prior < 0)
                or not np.isclose(prior.sum(), 1.0)
            ):
                raise ValueError(
                    f"class_prior must be {K} non-negative probabilities "
                    "summing to 1 (one per "
                    f"class in {self.classes_}); got {self.class_prior!r}."
                )
            with np.errstate(divide="ignore"):
                self.class_log_prior_ = np.log(prior)
        elif self.fit_prior:
            # a class not seen yet (partial_fit) has prior 0: log 0 = -inf
            with np.errstate(divide="ignore"):
                self.class_log_prior_ = np.log(self.class_count_) - np.log(
                    self.class_count_.sum()
                )
        else:
            self.class_log_prior_ = np.full(K, -np.log(K))


def smoothed_log_frequencies(counts, alpha):
    r"""Row-wise :math:`\log\frac{c_{kv}+\alpha}{\sum_u (c_{ku}+\alpha)}`:
    add-:math:`\alpha` estimates.

    ``alpha = 0`` gives the maximum-likelihood frequencies, with :math:`\log
    0=-\infty` for outcomes never seen in a class.
    """
    smoothed = counts + alpha
    totals = smoothed.sum(axis=1, keepdims=True)
    if np.any(totals == 0):
        raise ValueError(
            "A class has no counts at all, so with alpha=0 its "
            "frequencies are 0/0. Use alpha > 0."
        )
    with np.errstate(divide="ignore"):  # log 0 = -inf is the intended value
        return np.log(smoothed) - np.log(totals)


def log_prob_product(counts, log_prob):
    r""":math:`\sum_j c_{ij}\log p_{kj}` for all samples i and classes k, shape
    (n, K), with :math:`0\log0=0`.

    A plain matrix product would give :math:`0\cdot(-\infty)=` NaN where a zero
    count meets a zero probability; here that term is 0, and a positive count
    on a zero probability gives :math:`-\infty` (the class cannot have produced
    the sample).
    """
    finite = np.isfinite(log_prob)
    result = counts @ np.where(finite, log_prob, 0.0).T
    if not finite.all():
        result[(counts > 0) @ (~finite).T] = -np.inf
    return result
