"""Gaussian naive Bayes, for real-valued features."""

import numpy as np

from ..validation import check_scalar
from ..weighted_moments import batch_moments, merge_moments
from .base import BaseNB


class GaussianNB(BaseNB):
    r"""Naive Bayes with independent Gaussian features: :math:`x_j\mid
    k\sim\mathcal N(\mu_{kj}, \sigma^2_{kj})`.

    The maximum-likelihood estimates, with weights :math:`w_i\ge0`
    (``sample_weight``, default 1), are the weighted class counts, means and
    (biased, divide-by-:math:`N_k`) variances

    .. math::

        N_k = \sum_{i:\,y_i=k} w_i, \qquad
        \mu_{kj} = \frac1{N_k}\sum_{i:\,y_i=k} w_i x_{ij}, \qquad
        \sigma^2_{kj} = \frac1{N_k}\sum_{i:\,y_i=k} w_i (x_{ij}-\mu_{kj})^2,

    so an integer weight counts as that many copies of the row and a zero
    weight drops it. Every variance is increased by :math:`\epsilon = `
    ``var_smoothing`` :math:`\times\max_j\operatorname{Var}_w(x_j)` (the
    weighted variance of all rows) so that a constant feature cannot divide
    by 0.

    .. math::

        \log\pi_k + \log p(x\mid k) = \log\pi_k
            - \frac12\sum_j\Bigl(\log(2\pi\sigma^2_{kj})
            + \frac{(x_j-\mu_{kj})^2}{\sigma^2_{kj}}\Bigr).

    **Learning in batches.** ``partial_fit`` merges a batch's
    :math:`(N^b_k, \mu^b_k, \sigma^{2,b}_k)` into the statistics seen so far
    :math:`(N^a_k, \mu^a_k, \sigma^{2,a}_k)` by Chan, Golub & LeVeque's
    pairwise formula, with :math:`\delta = \mu^b_k - \mu^a_k` and
    :math:`N_k = N^a_k + N^b_k`:

    .. math::

        \begin{aligned}
        \mu_k &= \mu^a_k + \delta\,N^b_k / N_k,\\
        N_k\sigma^2_k &= N^a_k\sigma^{2,a}_k + N^b_k\sigma^{2,b}_k
            + \delta^2 N^a_k N^b_k / N_k,
        \end{aligned}

    on the variances without :math:`\epsilon`; :math:`\epsilon` is then
    recomputed from the merged variance of all rows. Any split of the data
    into batches therefore gives ``fit``'s model, up to rounding.

    **Difference from scikit-learn** (of order ``var_smoothing`` relative to
    the variances): scikit-learn computes :math:`\epsilon` from the
    *unweighted* variance of the *latest batch* only, and before merging
    subtracts that new :math:`\epsilon` from variances that hold the previous
    one, so its ``partial_fit`` drifts from its ``fit`` and a zero weight
    does not quite drop a row. Here :math:`\epsilon` always belongs to all
    the (weighted) data seen, as a scikit-learn maintainer suggests in
    scikit-learn issue #14054.

    Parameters
    ----------
    priors : array-like of shape (n_classes,), optional
        Fixed class priors; default the class frequencies.
    var_smoothing : float, default 1e-9

    Attributes
    ----------
    classes_, class_count_, class_prior_ : ndarray of shape (n_classes,)
    theta_ : ndarray of shape (n_classes, n_features)
        :math:`\mu_{kj}`.
    var_ : ndarray of shape (n_classes, n_features)
        :math:`\sigma^2_{kj}`, including :math:`\epsilon`.
    epsilon_ : float
        :math:`\epsilon`.
    n_features_in_ : int

    References
    ----------
    Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*,
    §6.6.3. Chan, Golub & LeVeque, "Updating formulae and a pairwise
    algorithm for computing sample variances", STAN-CS-79-773 (1979).
    Equivalent to ``sklearn.naive_bayes.GaussianNB`` up to :math:`\epsilon`
    as above.
    """

    def __init__(self, priors=None, var_smoothing=1e-9):
        self.priors = priors
        self.var_smoothing = var_smoothing

    def _check_params(self):
        check_scalar(self.var_smoothing, "var_smoothing", low=0)

    def _start_counts(self, n_features):
        K = len(self.classes_)
        self.theta_ = np.zeros((K, n_features))
        self.var_ = np.zeros((K, n_features))
        self.epsilon_ = 0.0
        # weight, mean and variance of all the rows seen, for epsilon_
        self._all_rows = 0.0, np.zeros(n_features), np.zeros(n_features)

    def _add_counts(self, X, Y, y_index, weights):
        # Chan, Golub & LeVeque's pairwise update, per class and for all rows
        # (mllib.weighted_moments); the variances are merged without the
        # smoothing epsilon_, which is added back for the new total below
        per_class = [
            batch_moments(X[y_index == k], weights[y_index == k])
            for k in range(Y.shape[1])
        ]
        n_batch, mean_batch, var_batch = (np.array(a) for a in zip(*per_class))
        n_seen = self.class_count_ - n_batch  # class_count_ includes the batch
        _, self.theta_, var = merge_moments(
            n_seen[:, None],
            self.theta_,
            self.var_ - self.epsilon_,
            n_batch[:, None],
            mean_batch,
            var_batch,
        )
        self._all_rows = merge_moments(
            *self._all_rows, *batch_moments(X, weights)
        )
        self.epsilon_ = self.var_smoothing * float(self._all_rows[2].max())
        self.var_ = var + self.epsilon_

    def _update_estimates(self):
        if np.any(self.var_[self.class_count_ > 0] == 0):
            if self.var_smoothing == 0:
                cause = "var_smoothing is 0"
                remedy = "Use var_smoothing > 0 (the default is 1e-9)."
            else:  # epsilon_ = var_smoothing * (largest variance) = 0
                cause = (
                    "every feature is constant over all the training rows "
                    "(one sample, or identical rows), so the smoothing "
                    "epsilon_, var_smoothing times the largest variance, "
                    "is 0 too"
                )
                remedy = "Fit on rows that differ in at least one feature."
            raise ValueError(
                f"A feature is constant within a class and {cause}, so its "
                f"Gaussian has variance 0. {remedy}"
            )
        if self.priors is None:
            self.class_prior_ = self.class_count_ / self.class_count_.sum()
        else:
            prior = np.asarray(self.priors, dtype=float)
            if (
                prior.shape != self.class_count_.shape
                or np.any(prior < 0)
                or not np.isclose(prior.sum(), 1)
            ):
                raise ValueError(
                    f"priors must be {len(self.classes_)} non-negative "
                    "probabilities summing to 1; "
                    f"got {self.priors!r}."
                )
            self.class_prior_ = prior

    def _joint_log_likelihood(self, X):
        # a zero prior gives log 0 = -inf for its class
        with np.errstate(divide="ignore"):
            log_prior = np.log(self.class_prior_)
        # a class no batch has shown yet (partial_fit) has prior 0 and, with
        # var_smoothing=0, variances 0: its column is -inf, not inf - inf
        seen = self.class_count_ > 0
        jll = np.full((len(X), len(self.classes_)), -np.inf)
        log_normaliser = -0.5 * np.sum(np.log(2 * np.pi * self.var_[seen]), 1)
        squared = [
            np.sum((X - mu) ** 2 / var, axis=1)
            for mu, var in zip(self.theta_[seen], self.var_[seen])
        ]
        jll[:, seen] = (
            log_prior[seen] + log_normaliser - 0.5 * np.column_stack(squared)
        )
        return jll
