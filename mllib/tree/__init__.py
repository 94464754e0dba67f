"""Decision trees (CART): impurities, the split search, growth, node arrays and
pruning."""

from .classes import DecisionTreeClassifier, DecisionTreeRegressor
from .id3 import ID3Classifier, reduced_error_prune
from .plotting import plot_tree
from .pruning import (
    PruningPath,
    cost_complexity_pruning_path,
    prune,
    weakest_link_sequence,
)
from .splitting import Split, best_split, best_split_naive
from .structure import TREE_LEAF, TREE_UNDEFINED, Tree

__all__ = [
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "ID3Classifier",
    "reduced_error_prune",
    "Tree",
    "plot_tree",
    "TREE_LEAF",
    "TREE_UNDEFINED",
    "Split",
    "best_split",
    "best_split_naive",
    "PruningPath",
    "cost_complexity_pruning_path",
    "prune",
    "weakest_link_sequence",
]
