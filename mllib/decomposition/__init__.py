"""Matrix decompositions for unsupervised learning, with scikit-learn's names
(``sklearn.decomposition``)."""

from .pca import PCA

__all__ = ["PCA"]
