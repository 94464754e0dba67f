"""Clustering, with scikit-learn's names, parameters and fitted attributes."""

from .agglomerative import AgglomerativeClustering
from .dbscan import DBSCAN
from .kmeans import KMeans
from .kmeans_plusplus import kmeans_plusplus

__all__ = ["AgglomerativeClustering", "DBSCAN", "KMeans", "kmeans_plusplus"]
