"""mllib builds on scikit-learn's public estimator contract and nothing more.

The algorithms are the book's own: mllib may import scikit-learn's base
classes and mixins, its public input validation and tags, and its
exceptions, but never its estimators, metrics, solvers or private modules.
This test reads every import statement in the package.
"""

import ast
from pathlib import Path

import pytest
import sklearn.utils

PACKAGE = Path(__file__).resolve().parents[1] / "mllib"

# The modules mllib may import from, and why.
ALLOWED_MODULES = {
    "sklearn.base": "BaseEstimator, the mixins, clone",
    "sklearn.utils": "public helpers and the Tags dataclasses",
    "sklearn.utils.validation": "validate_data, check_is_fitted, ...",
    "sklearn.utils.multiclass": "type_of_target and the label checks",
    "sklearn.exceptions": "NotFittedError, ConvergenceWarning, ...",
}


def forbidden_imports(source):
    """(line, text) of every scikit-learn import outside the contract."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "sklearn":
                    # a bare module import would reach any submodule
                    problems.append((node.lineno, f"import {alias.name}"))
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] != "sklearn":
                continue
            names = [alias.name for alias in node.names]
            text = f"from {node.module} import {', '.join(names)}"
            private = [n for n in names if n.startswith("_") or n == "*"]
            hidden = node.module == "sklearn.utils" and any(
                n not in sklearn.utils.__all__ for n in names
            )
            if node.module not in ALLOWED_MODULES or private or hidden:
                problems.append((node.lineno, text))
    return problems


@pytest.mark.parametrize(
    "path",
    sorted(PACKAGE.rglob("*.py")),
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_mllib_imports_only_the_public_estimator_contract(path):
    assert forbidden_imports(path.read_text()) == []


@pytest.mark.parametrize(
    "line",
    [
        "from sklearn.linear_model import Ridge",
        "from sklearn.metrics import accuracy_score",
        "import sklearn.metrics",
        "import sklearn",
        "from sklearn import tree",
        "from sklearn.utils._tags import Tags",
        "from sklearn.utils.validation import _check_sample_weight",
        "from sklearn.utils import _safe_indexing",
        "from sklearn.utils import *",
        "from sklearn.utils.extmath import safe_sparse_dot",
        "def f():\n    from sklearn.svm import SVC",
    ],
)
def test_the_scan_catches_what_the_rule_forbids(line):
    assert forbidden_imports(line)


def test_the_scan_lets_the_contract_through():
    source = (
        "from sklearn.base import BaseEstimator, ClassifierMixin\n"
        "from sklearn.utils import Tags\n"
        "from sklearn.utils.validation import check_is_fitted\n"
        "from sklearn.exceptions import NotFittedError\n"
    )
    assert forbidden_imports(source) == []
