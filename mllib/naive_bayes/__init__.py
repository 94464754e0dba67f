"""Naive Bayes classifiers, with scikit-learn's names, parameters and fitted
attributes.

The one deliberate difference: ``alpha=0`` is used as given, so the discrete
models can return the exact maximum-likelihood estimates (see
:mod:`mllib.naive_bayes.base`).
"""

from .bernoulli import BernoulliNB
from .categorical import CategoricalNB
from .gaussian import GaussianNB
from .multinomial import MultinomialNB

__all__ = ["BernoulliNB", "CategoricalNB", "GaussianNB", "MultinomialNB"]
