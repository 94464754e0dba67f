"""Random splits of a data set into batches, for the partial_fit tests."""

import numpy as np


def random_batches(rng, n):
    """The indices 0..n-1 shuffled and cut into 1 to 5 non-empty batches."""
    cuts = rng.choice(np.arange(1, n), size=rng.integers(0, 5), replace=False)
    return np.split(rng.permutation(n), np.sort(cuts))
