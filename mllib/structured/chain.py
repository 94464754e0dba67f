r"""The linear-chain model shared by the structured perceptron and SVM.

An input sequence :math:`x=(x_1,\dots,x_T)`, :math:`x_t\in\mathbb R^d`, and a
label sequence :math:`y\in\{0,\dots,k-1\}^T` score

.. math:: s(x,y)=\sum_{t=1}^Tw_{y_t}^\top x_t+\sum_{t=2}^TP_{y_{t-1},y_t}
          =\langle(W,P),\psi(x,y)\rangle,\qquad
          \psi(x,y)=\Bigl(\sum_te_{y_t}x_t^\top,\
          \sum_{t\ge2}e_{y_{t-1}}e_{y_t}^\top\Bigr),

the features of :mod:`mllib.crf`, with :math:`w_j` the rows of
:math:`W\in\mathbb R^{k\times d}` and :math:`P` the transition scores.
The code stores :math:`W^\top` (``coef_``, shape (d, k), so that the unary
scores are ``x @ coef_``), and :math:`\psi` in the same layout: a
:math:`d\times k` block of unary features and a :math:`k\times k` block of
Markov features. Prediction is the Viterbi
argmax of :func:`mllib.crf.viterbi`. The Hamming loss
:math:`\Delta(y,y')=\sum_t\mathbb 1[y_t\ne y'_t]` decomposes over positions,
so the loss-augmented argmax :math:`\max_{y'}\Delta(y,y')+s(x,y')` is a
Viterbi pass with 1 added to the unary score of every wrong label.
"""

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_array
from sklearn.utils.validation import check_is_fitted

from ..crf import viterbi


def joint_features(x, y, n_labels):
    r""":math:`\psi(x,y)` as the pair (unary block of shape (d, k), Markov
    block of shape (k, k)), for ``x`` of shape (T, d) and integer labels
    ``y`` of shape (T,) in ``0..n_labels-1``."""
    one_hot = np.eye(n_labels)[y]
    return x.T @ one_hot, one_hot[:-1].T @ one_hot[1:]


def hamming_loss(y, y_other):
    r""":math:`\Delta(y,y')=\sum_t\mathbb 1[y_t\ne y'_t]`, the number of
    wrong positions (not divided by :math:`T`)."""
    return int(np.count_nonzero(np.asarray(y) != np.asarray(y_other)))


def loss_augmented_viterbi(unary, pairwise, y):
    r""":math:`\arg\max_{y'}\ \Delta(y,y')+s(y')` and its value, in
    :math:`O(Tk^2)`.

    ``unary`` (T, k) and ``pairwise`` (k, k) are the scores of
    :func:`mllib.crf.viterbi`; ``y`` (T,) the true labels. Adding
    :math:`\mathbb 1[y'_t\ne y_t]` to the unary scores adds
    :math:`\Delta(y,y')` to every sequence's score (margin rescaling,
    Tsochantaridis et al. 2005, with the Hamming loss).
    """
    unary = np.asarray(unary, dtype=float)
    augmented = unary + 1.0
    augmented[np.arange(len(y)), y] -= 1.0
    return viterbi(augmented, pairwise)


class LinearChainEstimator(BaseEstimator):
    """Validation and Viterbi prediction for estimators of ``coef_`` (d, k)
    and ``transitions_`` (k, k) on lists of sequences."""

    def _validate_fit_data(self, sequences, labels):
        """Return (sequences, label indices); set ``classes_``."""
        sequences = self._validate_sequences(sequences)
        labels = [np.asarray(y) for y in labels]
        if len(labels) != len(sequences) or any(
            y.shape != (len(x),) for x, y in zip(sequences, labels)
        ):
            raise ValueError(
                "need one 1-D label sequence per input sequence, of the same "
                "length; got lengths "
                f"{[len(x) for x in sequences]} and "
                f"{[np.shape(y) for y in labels]}."
            )
        self.classes_, index = np.unique(
            np.concatenate(labels), return_inverse=True
        )
        bounds = np.cumsum([len(y) for y in labels])[:-1]
        return sequences, np.split(index, bounds)

    def _validate_sequences(self, sequences, *, reset=True):
        if isinstance(sequences, np.ndarray) and sequences.ndim == 2:
            raise ValueError(
                "sequences must be a list of 2-D arrays (one (T, d) array per "
                "sequence); got one 2-D array. Wrap it in a list if it is a "
                "single sequence."
            )
        sequences = [
            check_array(x, dtype=np.float64, input_name="each sequence")
            for x in sequences
        ]
        if not sequences:
            raise ValueError("need at least one sequence.")
        widths = {x.shape[1] for x in sequences}
        expected = widths if reset else {self.n_features_in_}
        if len(widths) != 1 or widths != expected:
            raise ValueError(
                f"every sequence must have {sorted(expected)} features per "
                f"position; got {sorted(widths)}."
            )
        if reset:
            self.n_features_in_ = sequences[0].shape[1]
        return sequences

    def predict(self, sequences):
        """The Viterbi label sequence of each input sequence, a list of
        arrays of ``classes_``."""
        check_is_fitted(self)
        sequences = self._validate_sequences(sequences, reset=False)
        return [
            self.classes_[viterbi(x @ self.coef_, self.transitions_)[0]]
            for x in sequences
        ]
