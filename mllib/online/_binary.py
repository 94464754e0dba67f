"""The {0, 1} inputs of the Boolean online learners (expert advice, Winnow)."""

import numpy as np


def check_binary(array, name):
    """Return ``array`` unchanged if every entry is 0 or 1, else raise a
    ``ValueError``."""
    bad = ~np.isin(array, (0.0, 1.0))
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(
            f"{name} must contain only 0 and 1 (Boolean predictions, "
            "features or labels); "
            f"found {np.count_nonzero(bad)} other value(s), the first "
            f"{array[first]!r} at index "
            f"{first}. Encode two-valued data as 0/1 first."
        )
    return array
