"""Structured prediction on linear chains: Collins' perceptron and the
structured SVM, on the features and Viterbi decoder of :mod:`mllib.crf`."""

from .chain import hamming_loss, joint_features, loss_augmented_viterbi
from .perceptron import StructuredPerceptron
from .svm import StructuredSVM, structured_hinge_objective

__all__ = [
    "StructuredPerceptron",
    "StructuredSVM",
    "hamming_loss",
    "joint_features",
    "loss_augmented_viterbi",
    "structured_hinge_objective",
]
