"""The public API of mllib's Gaussian-process kernels against scikit-learn's,
mechanically: the same public names on every class, and the same answers
from every method and property (``is_stationary``,
``requires_vector_input``, ``bounds``, ``n_dims``, ``theta`` and its
setter, ``hyperparameters`` and ``hyperparameter_<name>``,
``clone_with_theta``, ``get_params``, ``==``, ``repr``, ``diag`` and the
kernel matrices with gradients) on single kernels, sums, products and
powers, with free and with all-fixed hyperparameters."""

import itertools

import numpy as np
import pytest
from sklearn.gaussian_process import kernels as sk

from mllib.gaussian_process import kernels as ours

CLASSES = [
    "Kernel",
    "Hyperparameter",
    "RBF",
    "ConstantKernel",
    "WhiteKernel",
    "DotProduct",
    "RationalQuadratic",
    "ExpSineSquared",
    "Matern",
    "Sum",
    "Product",
    "Exponentiation",
]


def _bounds(fixed):
    return "fixed" if fixed else (1e-3, 1e3)


#: name -> function of (kernels module, fixed) giving the same kernel in
#: both; fixed=True fixes every hyperparameter.
SPECS = {
    "rbf": lambda m, f: m.RBF(0.7, _bounds(f)),
    "constant": lambda m, f: m.ConstantKernel(2.0, _bounds(f)),
    "white": lambda m, f: m.WhiteKernel(0.3, _bounds(f)),
    "dot": lambda m, f: m.DotProduct(0.5, _bounds(f)),
    "rq": lambda m, f: m.RationalQuadratic(0.8, 1.5, _bounds(f), _bounds(f)),
    "sine": lambda m, f: m.ExpSineSquared(0.9, 2.0, _bounds(f), _bounds(f)),
    "matern": lambda m, f: m.Matern(0.6, _bounds(f), nu=2.5),
    "rbf+white": lambda m, f: (
        m.RBF(0.7, _bounds(f)) + m.WhiteKernel(0.3, _bounds(f))
    ),
    "white+rbf": lambda m, f: (
        m.WhiteKernel(0.3, _bounds(f)) + m.RBF(0.7, _bounds(f))
    ),
    "c*dot": lambda m, f: (
        m.ConstantKernel(2.0, _bounds(f)) * m.DotProduct(0.5, _bounds(f))
    ),
    "sine**2": lambda m, f: m.ExpSineSquared(0.9, 2.0, _bounds(f)) ** 2,
    "(c*white)**3": lambda m, f: (
        (m.ConstantKernel(2.0, _bounds(f)) * m.WhiteKernel(0.3, _bounds(f)))
        ** 3
    ),
    "mixed": lambda m, f: (
        m.ConstantKernel(2.0) * m.RBF(0.7, "fixed")
        + m.WhiteKernel(0.3, _bounds(f))
    ),
}
CASES = [(name, fixed) for name in SPECS for fixed in (False, True)]


def _public(cls):
    return {name for name in dir(cls) if not name.startswith("_")}


@pytest.mark.parametrize("name", CLASSES)
def test_every_public_name_of_scikit_learns_class_exists(name):
    # mllib's kernels are BaseEstimators, so they may have more
    assert _public(getattr(sk, name)) <= _public(getattr(ours, name))


def _fields(h):
    bounds = h.bounds if isinstance(h.bounds, str) else h.bounds.tolist()
    return h.name, h.value_type, bounds, h.n_elements, h.fixed


@pytest.mark.parametrize("name, fixed", CASES)
def test_methods_and_properties_answer_as_scikit_learns(name, fixed):
    kernel, reference = SPECS[name](ours, fixed), SPECS[name](sk, fixed)
    X = np.random.default_rng(0).uniform(-2, 2, size=(6, 2))
    assert kernel.is_stationary() == reference.is_stationary()
    assert kernel.requires_vector_input == reference.requires_vector_input
    # log bounds, shape (n_dims, 2), or (0,) with no free hyperparameter
    assert kernel.bounds.shape == reference.bounds.shape
    np.testing.assert_allclose(kernel.bounds, reference.bounds, rtol=1e-14)
    assert kernel.n_dims == reference.n_dims
    np.testing.assert_allclose(kernel.theta, reference.theta, rtol=1e-14)
    assert [_fields(h) for h in kernel.hyperparameters] == [
        _fields(h) for h in reference.hyperparameters
    ]
    for attribute in _public(type(reference)):
        if attribute.startswith("hyperparameter_"):
            assert _fields(getattr(kernel, attribute)) == _fields(
                getattr(reference, attribute)
            )
    if hasattr(reference, "anisotropic"):
        assert kernel.anisotropic == reference.anisotropic
    for deep in (False, True):
        mine, theirs = kernel.get_params(deep), reference.get_params(deep)
        assert mine.keys() == theirs.keys()
        for key, value in mine.items():
            if not isinstance(value, ours.Kernel):
                assert value == theirs[key], key
    assert repr(kernel) == repr(reference)
    # the same formulas on the same numbers: rounding only
    np.testing.assert_allclose(kernel.diag(X), reference.diag(X), rtol=1e-13)
    K, dK = kernel(X, eval_gradient=True)
    K_sk, dK_sk = reference(X, eval_gradient=True)
    np.testing.assert_allclose(K, K_sk, rtol=1e-12, atol=1e-14)
    assert dK.shape == dK_sk.shape
    np.testing.assert_allclose(dK, dK_sk, rtol=1e-10, atol=1e-13)
    theta = kernel.theta + 0.25
    np.testing.assert_allclose(
        kernel.clone_with_theta(theta)(X),
        reference.clone_with_theta(theta)(X),
        rtol=1e-12,
        atol=1e-14,
    )
    kernel.theta, reference.theta = theta, theta
    np.testing.assert_allclose(kernel.theta, reference.theta, rtol=1e-14)
    with pytest.raises(ValueError):
        reference.theta = np.zeros(kernel.n_dims + 1)
    with pytest.raises(ValueError):
        kernel.theta = np.zeros(kernel.n_dims + 1)
    # __eq__ makes kernels unhashable, in both
    for k in (kernel, reference):
        with pytest.raises(TypeError):
            hash(k)


def test_equality_as_scikit_learns():
    # every pair of cases, so equal and unequal pairs, sums in either
    # order, and kernels that differ only in their bounds are all compared
    ok = [SPECS[name](ours, fixed) for name, fixed in CASES]
    theirs = [SPECS[name](sk, fixed) for name, fixed in CASES]
    for i, j in itertools.product(range(len(CASES)), repeat=2):
        assert (ok[i] == ok[j]) == (theirs[i] == theirs[j]), (
            CASES[i],
            CASES[j],
        )
    assert ours.RBF(0.7) == ours.RBF(0.7) != ours.RBF(0.8)
    assert ours.RBF(0.7) + ours.WhiteKernel() == (
        ours.WhiteKernel() + ours.RBF(0.7)
    )
    assert ours.RBF(0.7) != ours.Matern(0.7)


def test_counting_kernels_take_any_sequence_as_scikit_learns():
    # requires_vector_input is False: they only count their inputs
    words, more = ["a", "bb", "ccc"], ["dd", "e"]
    for name in ("ConstantKernel", "WhiteKernel"):
        kernel, reference = getattr(ours, name)(0.4), getattr(sk, name)(0.4)
        np.testing.assert_array_equal(kernel(words), reference(words))
        np.testing.assert_array_equal(
            kernel(words, more), reference(words, more)
        )
        np.testing.assert_array_equal(
            kernel.diag(words), reference.diag(words)
        )
        for got, expected in zip(
            kernel(words, eval_gradient=True),
            reference(words, eval_gradient=True),
        ):
            np.testing.assert_array_equal(got, expected)
        with pytest.raises(TypeError):
            kernel(3.0)


def test_hyperparameters_compare_field_by_field():
    a = ours.RBF(0.7).hyperparameter_length_scale
    assert a == ours.RBF(2.0).hyperparameter_length_scale
    assert a != ours.RBF(0.7, (1e-2, 1e2)).hyperparameter_length_scale
    assert a != ours.RBF(0.7, "fixed").hyperparameter_length_scale
