"""Support vector machines, with scikit-learn's names, parameters and
objectives (see the notation page)."""

from .pegasos import PegasosSVM, hinge_objective
from .smo import SMOResult, smo
from .svc import SVC

__all__ = ["SVC", "PegasosSVM", "hinge_objective", "smo", "SMOResult"]
