"""Ensembles of trees (or other models): bagging, random forests, AdaBoost and
gradient boosting."""

from .adaboost import AdaBoostClassifier
from .bagging import BaggingClassifier, BaggingRegressor
from .forest import RandomForestClassifier, RandomForestRegressor
from .gradient_boosting import (
    GradientBoostingClassifier,
    GradientBoostingRegressor,
)

__all__ = [
    "AdaBoostClassifier",
    "BaggingClassifier",
    "BaggingRegressor",
    "GradientBoostingClassifier",
    "GradientBoostingRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
]
