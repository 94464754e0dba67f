"""Online learning: mistake-driven learners and learning with expert advice.

The perceptron itself lives in :mod:`mllib.linear_model` (scikit-learn's place
for it).
"""

from .datasets import (
    make_expert_advice,
    make_monotone_disjunction,
    make_separable,
)
from .experts import Halving, WeightedMajority
from .kernel_perceptron import KernelPerceptron
from .winnow import Winnow

__all__ = [
    "Halving",
    "KernelPerceptron",
    "WeightedMajority",
    "Winnow",
    "make_expert_advice",
    "make_monotone_disjunction",
    "make_separable",
]
