"""Linear models, with scikit-learn's names, parameters and objectives (see the notation page)."""

__all__ = []
