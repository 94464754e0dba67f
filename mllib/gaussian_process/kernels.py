r"""Covariance functions for Gaussian processes, with hyperparameters in log
space.

A kernel is called like a function, ``kernel(X, Y=None, eval_gradient=False)``,
and returns the matrix :math:`K_{ij}=k(x_i, y_j)`. Each positive hyperparameter
:math:`\theta_j` (a length-scale, a variance, a noise level) is exposed through
``kernel.theta``, the vector of :math:`\log\theta_j`, and ``kernel.bounds``,
its box in log space, because the evidence is maximised over :math:`\log\theta`
(positivity for free, and the scale of a length-scale is multiplicative). With
``eval_gradient=True`` the kernel also returns :math:`\partial
K/\partial\log\theta_j` as an array of shape (n, n, n_dims), which is
:math:`\theta_j\,\partial K/\partial\theta_j`. A hyperparameter whose bounds
are ``"fixed"`` is left out of ``theta``. ``k1 + k2`` and ``k1 * k2`` build
sums and products, and a number in either acts as a :class:`ConstantKernel`;
``k ** p`` raises a kernel to a power (:class:`Exponentiation`).

Names, defaults, bounds and ``theta`` ordering are those of
``sklearn.gaussian_process.kernels``, so a kernel here and there with the same
hyperparameters gives the same matrices and the same ``theta``. Reference:
Rasmussen & Williams (2006), *Gaussian Processes for Machine Learning*, ch.
4–5.
"""

from collections import namedtuple

import numpy as np
from scipy.spatial.distance import cdist, pdist, squareform
from sklearn.base import BaseEstimator, clone
from sklearn.utils import check_array

from ..kernels import squared_euclidean_distances


class Hyperparameter(
    namedtuple(
        "Hyperparameter",
        ("name", "value_type", "bounds", "n_elements", "fixed"),
    )
):
    """One hyperparameter's description, with scikit-learn's fields and
    defaults: its name (``k1__k2__length_scale`` inside sums and products),
    bounds (a (1, 2) array, not in log space) or ``"fixed"``, how many
    values it has (1: length-scales are scalars here), and whether it is
    fixed (by default, whether ``bounds`` is ``"fixed"``)."""

    __slots__ = ()

    def __new__(cls, name, value_type, bounds, n_elements=1, fixed=None):
        if fixed is None:
            fixed = _is_fixed(bounds)
        return super().__new__(
            cls, name, value_type, bounds, n_elements, fixed
        )

    def __eq__(self, other):
        # field by field: the tuple's own == would compare the bounds
        # arrays elementwise and fail on their truth value
        return (
            self.name == other.name
            and self.value_type == other.value_type
            and np.all(self.bounds == other.bounds)
            and self.n_elements == other.n_elements
            and self.fixed == other.fixed
        )

    def __ne__(self, other):
        # scikit-learn's inherits the tuple's, which raises on the arrays
        return not self == other

    __hash__ = None  # equal bounds arrays need not hash alike


class Kernel(BaseEstimator):
    """Base class: log-space hyperparameters, bounds, ``+`` and ``*``.

    Subclasses list their positive hyperparameters in ``_hyperparameters``; the
    bounds of hyperparameter ``name`` live in the constructor argument ``name +
    "_bounds"``, and its description is the property
    ``hyperparameter_<name>``, as in scikit-learn. Two kernels are equal
    (``==``) when they are of the same class with equal parameters; like
    scikit-learn's, kernels are therefore not hashable.
    """

    _hyperparameters = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in cls.__dict__.get("_hyperparameters", ()):
            setattr(
                cls,
                f"hyperparameter_{name}",
                property(
                    lambda self, name=name: self._describe(name),
                    doc=f"The :class:`Hyperparameter` ``{name}``.",
                ),
            )

    def _describe(self, name):
        bounds = getattr(self, f"{name}_bounds")
        if not _is_fixed(bounds):
            bounds = np.array([_check_bounds(bounds, name)])
        return Hyperparameter(name, "numeric", bounds)

    def _free(self):
        return [
            name
            for name in self._hyperparameters
            if not _is_fixed(getattr(self, f"{name}_bounds"))
        ]

    @property
    def theta(self):
        """Log of the free hyperparameters, shape (n_dims,)."""
        values = [
            _positive(getattr(self, name), name) for name in self._free()
        ]
        return np.log(np.array(values, dtype=float))

    @theta.setter
    def theta(self, theta):
        theta = np.asarray(theta, dtype=float).reshape(-1)
        if len(theta) != self.n_dims:
            raise ValueError(
                f"theta has {len(theta)} entries; this kernel has "
                f"{self.n_dims}."
            )
        for name, value in zip(self._free(), theta):
            setattr(self, name, float(np.exp(value)))

    @property
    def bounds(self):
        """Log of the bounds of the free hyperparameters, shape (n_dims, 2);
        shape (0,), scikit-learn's ``np.array([])``, when every
        hyperparameter is fixed."""
        pairs = [
            _check_bounds(getattr(self, f"{name}_bounds"), name)
            for name in self._free()
        ]
        if not pairs:
            return np.array([])
        return np.log(np.array(pairs, dtype=float))

    @property
    def n_dims(self):
        return len(self._free())

    @property
    def hyperparameters(self):
        """Every hyperparameter, fixed or free, in ``theta``'s order."""
        return [self._describe(name) for name in self._hyperparameters]

    def is_stationary(self):
        """Whether :math:`k(x, x')` depends on :math:`x - x'` only: true of
        every kernel here but :class:`DotProduct` (and the combinations
        that contain it)."""
        return True

    @property
    def requires_vector_input(self):
        """Whether the kernel needs its inputs as rows of numbers: all but
        :class:`ConstantKernel` and :class:`WhiteKernel`, which only count
        them (as in scikit-learn, they take any sequence)."""
        return True

    def __eq__(self, other):
        if type(self) is not type(other):
            return False
        mine, theirs = self.get_params(), other.get_params()
        return not any(
            np.any(mine.get(key) != theirs.get(key))
            for key in mine.keys() | theirs.keys()
        )

    def _gradient(self, *dKs):
        """Stack the ``dKs`` = ∂K/∂log θ_j, given in ``_hyperparameters``'
        order, of the free θ_j as (n, n, n_dims); (n, n, 0) when all are
        fixed."""
        free = set(self._free())
        kept = [
            dK for name, dK in zip(self._hyperparameters, dKs) if name in free
        ]
        if not kept:
            return np.empty(dKs[0].shape + (0,))
        return np.stack(kept, axis=2)

    def clone_with_theta(self, theta):
        """A copy of this kernel with ``theta`` set (the original is left
        unchanged)."""
        kernel = clone(self)
        kernel.theta = theta
        return kernel

    def diag(self, X):
        """The diagonal of ``kernel(X)``, shape (n,), without forming the
        matrix."""
        raise NotImplementedError

    def __add__(self, other):
        return Sum(self, _as_kernel(other))

    def __radd__(self, other):
        return Sum(_as_kernel(other), self)

    def __mul__(self, other):
        return Product(self, _as_kernel(other))

    def __rmul__(self, other):
        return Product(_as_kernel(other), self)

    def __pow__(self, exponent):
        return Exponentiation(self, exponent)


class _UnitDiagonal:
    r"""``diag`` for the kernels of :math:`\lVert x-x'\rVert` with
    :math:`k(x,x)=1`."""

    def diag(self, X):
        return np.ones(len(_floats(X)))


class RBF(_UnitDiagonal, Kernel):
    r"""Squared-exponential kernel
    :math:`k(x,x')=\exp\bigl(-\lVert x-x'\rVert^2/(2\ell^2)\bigr)`.

    :math:`\partial K/\partial\log\ell = K\odot D/\ell^2` with
    :math:`D_{ij}=\lVert x_i-x_j\rVert^2`. The Gaussian kernel
    :math:`\exp(-\gamma\lVert x-x'\rVert^2)` of the kernel chapters is the
    same function with :math:`\gamma=1/(2\ell^2)`. Only an isotropic
    (scalar) ``length_scale`` is supported.
    """

    _hyperparameters = ("length_scale",)

    def __init__(self, length_scale=1.0, length_scale_bounds=(1e-5, 1e5)):
        self.length_scale = length_scale
        self.length_scale_bounds = length_scale_bounds

    def __call__(self, X, Y=None, eval_gradient=False):
        _check_gradient_request(Y, eval_gradient)
        length_scale = _positive(self.length_scale, "length_scale")
        # D/ℓ²: squared distances in units of ℓ, as scikit-learn computes them
        scaled = squared_euclidean_distances(
            _floats(X) / length_scale,
            None if Y is None else _floats(Y, "Y") / length_scale,
        )
        K = np.exp(-0.5 * scaled)
        if not eval_gradient:
            return K
        return K, self._gradient(K * scaled)  # ∂K/∂log ℓ = K ⊙ D/ℓ²

    @property
    def anisotropic(self):
        """Whether ``length_scale`` has one entry per feature
        (scikit-learn's test; such a kernel fails when called here)."""
        return _anisotropic(self.length_scale)

    def __repr__(self):
        return f"RBF(length_scale={_short(self.length_scale)})"


class ConstantKernel(Kernel):
    r"""Constant kernel :math:`k(x,x')=c`; multiplied with another kernel it
    sets the signal variance.

    :math:`\partial K/\partial\log c = K`. Printed as ``s**2`` with
    :math:`s=\sqrt c`, as in scikit-learn. It only counts its inputs, so
    they may be any sequence (``requires_vector_input`` is False).
    """

    _hyperparameters = ("constant_value",)

    def __init__(self, constant_value=1.0, constant_value_bounds=(1e-5, 1e5)):
        self.constant_value = constant_value
        self.constant_value_bounds = constant_value_bounds

    def __call__(self, X, Y=None, eval_gradient=False):
        _check_gradient_request(Y, eval_gradient)
        n = _n_samples(X)
        m = n if Y is None else _n_samples(Y)
        K = np.full(
            (n, m),
            _positive(self.constant_value, "constant_value"),
            dtype=float,
        )
        if not eval_gradient:
            return K
        return K, self._gradient(K.copy())

    def diag(self, X):
        return np.full(_n_samples(X), float(self.constant_value))

    @property
    def requires_vector_input(self):
        return False

    def __repr__(self):
        try:
            return f"{np.sqrt(float(self.constant_value)):.3g}**2"
        except (TypeError, ValueError):  # not a number: fit will say so
            return f"ConstantKernel(constant_value={self.constant_value!r})"


class WhiteKernel(Kernel):
    r"""White noise :math:`k(x_i,x_j)=s\,\mathbb 1[i=j]` within one set of
    points, 0 between two sets.

    Inside ``kernel(X)`` it adds :math:`sI`, so it models observation noise
    whose level is learnt with the other hyperparameters; ``kernel(X, Y)`` gets
    nothing from it, so it never enters the cross-covariances used for the
    predictive mean. :math:`\partial K/\partial\log s = sI`. It only
    counts its inputs, so they may be any sequence
    (``requires_vector_input`` is False).
    """

    _hyperparameters = ("noise_level",)

    def __init__(self, noise_level=1.0, noise_level_bounds=(1e-5, 1e5)):
        self.noise_level = noise_level
        self.noise_level_bounds = noise_level_bounds

    def __call__(self, X, Y=None, eval_gradient=False):
        _check_gradient_request(Y, eval_gradient)
        noise = _positive(self.noise_level, "noise_level")
        if Y is not None:
            return np.zeros((_n_samples(X), _n_samples(Y)))
        K = noise * np.eye(_n_samples(X))
        if not eval_gradient:
            return K
        return K, self._gradient(K.copy())

    def diag(self, X):
        return np.full(_n_samples(X), float(self.noise_level))

    @property
    def requires_vector_input(self):
        return False

    def __repr__(self):
        return f"WhiteKernel(noise_level={_short(self.noise_level)})"


class DotProduct(Kernel):
    r"""Linear kernel :math:`k(x,x')=\sigma_0^2+x^\top x'`.

    Bayesian linear regression with prior :math:`w\sim\mathcal N(0,\tau^2I)` is
    the GP with kernel ``ConstantKernel(tau**2) * DotProduct(sigma_0=0,
    sigma_0_bounds="fixed")``; a positive :math:`\sigma_0` adds an intercept
    with prior variance :math:`\tau^2\sigma_0^2`. :math:`\partial
    K/\partial\log\sigma_0 = 2\sigma_0^2`. ``sigma_0=0`` needs fixed bounds
    (:math:`\log 0` is not a hyperparameter value).
    """

    _hyperparameters = ("sigma_0",)

    def __init__(self, sigma_0=1.0, sigma_0_bounds=(1e-5, 1e5)):
        self.sigma_0 = sigma_0
        self.sigma_0_bounds = sigma_0_bounds

    def __call__(self, X, Y=None, eval_gradient=False):
        _check_gradient_request(Y, eval_gradient)
        X = _floats(X)
        Y = X if Y is None else _floats(Y, "Y")
        if self.sigma_0 < 0:
            raise ValueError(
                f"sigma_0 must be non-negative; got {self.sigma_0!r}."
            )
        K = X @ Y.T + self.sigma_0**2
        if not eval_gradient:
            return K
        return K, self._gradient(np.full(K.shape, 2.0 * self.sigma_0**2))

    def diag(self, X):
        X = _floats(X)
        return np.einsum("ij,ij->i", X, X) + self.sigma_0**2

    def is_stationary(self):
        return False

    def __repr__(self):
        return f"DotProduct(sigma_0={_short(self.sigma_0)})"


class RationalQuadratic(_UnitDiagonal, Kernel):
    r"""Rational quadratic kernel
    :math:`k(x,x')=\bigl(1+d^2/(2\alpha\ell^2)\bigr)^{-\alpha}`,
    :math:`d=\lVert x-x'\rVert`.

    A scale mixture of RBF kernels: integrating
    :math:`\exp(-\tau d^2/2)` over a Gamma(:math:`\alpha`, rate
    :math:`\alpha\ell^2`) precision :math:`\tau` gives it (R&W eq. 4.20), so
    it varies on many length-scales at once; :math:`\alpha\to\infty` is the
    RBF with length-scale :math:`\ell`. With :math:`b=1+d^2/(2\alpha\ell^2)`,
    :math:`\log k=-\alpha\log b` and

    .. math::

        \frac{\partial k}{\partial\log\ell}=\frac{d^2}{\ell^2 b}\,k,\qquad
        \frac{\partial k}{\partial\log\alpha}=
        \Bigl(\frac{d^2}{2\ell^2 b}-\alpha\log b\Bigr)k.

    ``theta`` is :math:`(\log\alpha, \log\ell)`, scikit-learn's
    (alphabetical) order. Only an isotropic (scalar) ``length_scale`` is
    supported, as in scikit-learn.
    """

    _hyperparameters = ("alpha", "length_scale")

    def __init__(
        self,
        length_scale=1.0,
        alpha=1.0,
        length_scale_bounds=(1e-5, 1e5),
        alpha_bounds=(1e-5, 1e5),
    ):
        self.length_scale = length_scale
        self.alpha = alpha
        self.length_scale_bounds = length_scale_bounds
        self.alpha_bounds = alpha_bounds

    def __call__(self, X, Y=None, eval_gradient=False):
        _check_gradient_request(Y, eval_gradient)
        length_scale = _positive(self.length_scale, "length_scale")
        alpha = _positive(self.alpha, "alpha")
        squared = _pairwise(X, Y, "sqeuclidean")
        # log b = log1p(d²/(2αℓ²)) keeps every digit when α is large: 1 + t
        # would round t away, where k tends to the RBF (log1p(t) ≈ t)
        ratio = squared / (2.0 * alpha * length_scale**2)
        log_base = np.log1p(ratio)
        K = np.exp(-alpha * log_base)
        if not eval_gradient:
            return K
        # the derivatives of log k times k: no power of b is formed twice
        fit = squared / (length_scale**2 * (1.0 + ratio))
        return K, self._gradient(K * (0.5 * fit - alpha * log_base), K * fit)

    def __repr__(self):
        return (
            f"RationalQuadratic(alpha={_short(self.alpha)}, "
            f"length_scale={_short(self.length_scale)})"
        )


class ExpSineSquared(_UnitDiagonal, Kernel):
    r"""Periodic kernel
    :math:`k(x,x')=\exp\bigl(-2\sin^2(\pi d/p)/\ell^2\bigr)`,
    :math:`d=\lVert x-x'\rVert`, of period :math:`p` (MacKay's periodic
    kernel, R&W eq. 4.31: the RBF of the warped input
    :math:`(\cos(2\pi x/p), \sin(2\pi x/p))`).

    With :math:`u=\pi d/p` (so :math:`\partial u/\partial\log p=-u`),

    .. math::

        \frac{\partial k}{\partial\log\ell}=\frac{4\sin^2u}{\ell^2}\,k,
        \qquad
        \frac{\partial k}{\partial\log p}=\frac{4u\sin u\cos u}{\ell^2}\,k.

    ``theta`` is :math:`(\log\ell, \log p)`. Only an isotropic (scalar)
    ``length_scale`` is supported, as in scikit-learn.
    """

    _hyperparameters = ("length_scale", "periodicity")

    def __init__(
        self,
        length_scale=1.0,
        periodicity=1.0,
        length_scale_bounds=(1e-5, 1e5),
        periodicity_bounds=(1e-5, 1e5),
    ):
        self.length_scale = length_scale
        self.periodicity = periodicity
        self.length_scale_bounds = length_scale_bounds
        self.periodicity_bounds = periodicity_bounds

    def __call__(self, X, Y=None, eval_gradient=False):
        _check_gradient_request(Y, eval_gradient)
        length_scale = _positive(self.length_scale, "length_scale")
        periodicity = _positive(self.periodicity, "periodicity")
        arg = np.pi * _pairwise(X, Y, "euclidean") / periodicity
        sin = np.sin(arg)
        K = np.exp(-2.0 * (sin / length_scale) ** 2)
        if not eval_gradient:
            return K
        factor = 4.0 / length_scale**2 * sin * K
        return K, self._gradient(factor * sin, factor * arg * np.cos(arg))

    def __repr__(self):
        return (
            f"ExpSineSquared(length_scale={_short(self.length_scale)}, "
            f"periodicity={_short(self.periodicity)})"
        )


class Matern(_UnitDiagonal, Kernel):
    r"""Matérn kernel of smoothness :math:`\nu` for
    :math:`\nu\in\{1/2, 3/2, 5/2, \infty\}`, where it has closed forms in
    :math:`r=\lVert x-x'\rVert/\ell` (R&W eq. 4.16–4.17):

    .. math::

        k_{1/2}=e^{-r},\quad
        k_{3/2}=(1+\sqrt3\,r)\,e^{-\sqrt3\,r},\quad
        k_{5/2}=\bigl(1+\sqrt5\,r+\tfrac53r^2\bigr)e^{-\sqrt5\,r},\quad
        k_\infty=e^{-r^2/2}\ (\text{the RBF}).

    Its sample paths are :math:`\lceil\nu\rceil-1` times differentiable.
    Since :math:`\partial r/\partial\log\ell=-r`,
    :math:`\partial k/\partial\log\ell=-r\,k'(r)`:

    .. math::

        r\,e^{-r},\quad 3r^2e^{-\sqrt3\,r},\quad
        \tfrac53r^2(1+\sqrt5\,r)\,e^{-\sqrt5\,r},\quad r^2e^{-r^2/2}.

    Any other :math:`\nu` needs the modified Bessel function
    :math:`K_\nu` and numerical gradients, which scikit-learn's ``Matern``
    has and this one does not (ValueError). ``nu`` is not a
    hyperparameter: ``theta`` is :math:`(\log\ell)`. Only an isotropic
    (scalar) ``length_scale`` is supported.
    """

    _hyperparameters = ("length_scale",)

    def __init__(
        self, length_scale=1.0, length_scale_bounds=(1e-5, 1e5), nu=1.5
    ):
        self.length_scale = length_scale
        self.length_scale_bounds = length_scale_bounds
        self.nu = nu

    def __call__(self, X, Y=None, eval_gradient=False):
        _check_gradient_request(Y, eval_gradient)
        length_scale = _positive(self.length_scale, "length_scale")
        # r: distances in units of ℓ, scaled first as scikit-learn does
        r = _pairwise(
            _floats(X) / length_scale,
            None if Y is None else _floats(Y, "Y") / length_scale,
            "euclidean",
        )
        if self.nu == 0.5:
            K = np.exp(-r)
            dK = r * K
        elif self.nu == 1.5:
            root = np.sqrt(3.0) * r
            decay = np.exp(-root)
            K, dK = (1.0 + root) * decay, 3.0 * r**2 * decay
        elif self.nu == 2.5:
            root = np.sqrt(5.0) * r
            decay = np.exp(-root)
            K = (1.0 + root + root**2 / 3.0) * decay
            dK = 5.0 / 3.0 * r**2 * (1.0 + root) * decay
        elif self.nu == np.inf:
            K = np.exp(-0.5 * r**2)
            dK = r**2 * K
        else:
            raise ValueError(
                "nu must be 0.5, 1.5, 2.5 or inf, where the Matérn kernel "
                f"has closed forms; got nu={self.nu!r}. Another nu needs "
                "Bessel functions and numerical gradients: use "
                "sklearn.gaussian_process.kernels.Matern with "
                "sklearn.gaussian_process.GaussianProcessRegressor."
            )
        if not eval_gradient:
            return K
        return K, self._gradient(dK)

    @property
    def anisotropic(self):
        """Whether ``length_scale`` has one entry per feature
        (scikit-learn's test; such a kernel fails when called here)."""
        return _anisotropic(self.length_scale)

    def __repr__(self):
        return (
            f"Matern(length_scale={_short(self.length_scale)}, "
            f"nu={_short(self.nu)})"
        )


class _Combination(Kernel):
    """Shared parts of ``Sum`` and ``Product``: ``theta`` is ``k1``'s followed
    by ``k2``'s."""

    def __init__(self, k1, k2):
        self.k1 = k1
        self.k2 = k2

    @property
    def theta(self):
        return np.concatenate([self.k1.theta, self.k2.theta])

    @theta.setter
    def theta(self, theta):
        theta = np.asarray(theta, dtype=float).reshape(-1)
        if len(theta) != self.n_dims:
            raise ValueError(
                f"theta has {len(theta)} entries; this kernel has "
                f"{self.n_dims}."
            )
        self.k1.theta, self.k2.theta = (
            theta[: self.k1.n_dims],
            theta[self.k1.n_dims :],
        )

    @property
    def bounds(self):
        """``k1``'s log bounds stacked on ``k2``'s, shape (n_dims, 2), or
        (0,) when every hyperparameter is fixed (scikit-learn's)."""
        if self.k1.bounds.size == 0:
            return self.k2.bounds
        if self.k2.bounds.size == 0:
            return self.k1.bounds
        return np.vstack([self.k1.bounds, self.k2.bounds])

    @property
    def n_dims(self):
        return self.k1.n_dims + self.k2.n_dims

    @property
    def hyperparameters(self):
        return [
            h._replace(name=f"{prefix}__{h.name}")
            for prefix, part in (("k1", self.k1), ("k2", self.k2))
            for h in part.hyperparameters
        ]

    def __eq__(self, other):
        # k1 + k2 == k2 + k1 (and likewise for products), as scikit-learn
        if type(self) is not type(other):
            return False
        return (self.k1 == other.k1 and self.k2 == other.k2) or (
            self.k1 == other.k2 and self.k2 == other.k1
        )

    def is_stationary(self):
        return self.k1.is_stationary() and self.k2.is_stationary()

    @property
    def requires_vector_input(self):
        return self.k1.requires_vector_input or self.k2.requires_vector_input

    def _parts(self, X, Y, eval_gradient):
        _check_gradient_request(Y, eval_gradient)
        if not eval_gradient:
            return self.k1(X, Y), self.k2(X, Y)
        return self.k1(X, eval_gradient=True), self.k2(X, eval_gradient=True)


class Sum(_Combination):
    r""":math:`k(x,x')=k_1(x,x')+k_2(x,x')`; the gradients are stacked."""

    def __call__(self, X, Y=None, eval_gradient=False):
        first, second = self._parts(X, Y, eval_gradient)
        if not eval_gradient:
            return first + second
        (K1, dK1), (K2, dK2) = first, second
        return K1 + K2, np.concatenate([dK1, dK2], axis=2)

    def diag(self, X):
        return self.k1.diag(X) + self.k2.diag(X)

    def __repr__(self):
        return f"{self.k1!r} + {self.k2!r}"


class Product(_Combination):
    r""":math:`k(x,x')=k_1(x,x')\,k_2(x,x')`; by the product rule
    :math:`\partial K/\partial\theta_1 = (\partial K_1/\partial\theta_1)\odot
    K_2` and likewise for :math:`\theta_2`."""

    def __call__(self, X, Y=None, eval_gradient=False):
        first, second = self._parts(X, Y, eval_gradient)
        if not eval_gradient:
            return first * second
        (K1, dK1), (K2, dK2) = first, second
        return K1 * K2, np.concatenate(
            [dK1 * K2[:, :, None], K1[:, :, None] * dK2], axis=2
        )

    def diag(self, X):
        return self.k1.diag(X) * self.k2.diag(X)

    def __repr__(self):
        return f"{self.k1!r} * {self.k2!r}"


class Exponentiation(Kernel):
    r""":math:`k(x,x')=k_0(x,x')^p` for a kernel :math:`k_0` and a number
    :math:`p` (``kernel ** p``). ``theta``, ``bounds`` and the
    hyperparameters (named ``kernel__...``) are :math:`k_0`'s; by the chain
    rule :math:`\partial K/\partial\theta=p\,K_0^{p-1}\odot\partial
    K_0/\partial\theta`. :math:`K_0^p` is a covariance for every integer
    :math:`p\ge1` (Schur product theorem); for other :math:`p` it need
    not be, as in scikit-learn.
    """

    def __init__(self, kernel, exponent):
        self.kernel = kernel
        self.exponent = exponent

    @property
    def theta(self):
        return self.kernel.theta

    @theta.setter
    def theta(self, theta):
        self.kernel.theta = theta

    @property
    def bounds(self):
        return self.kernel.bounds

    @property
    def n_dims(self):
        return self.kernel.n_dims

    @property
    def hyperparameters(self):
        return [
            h._replace(name=f"kernel__{h.name}")
            for h in self.kernel.hyperparameters
        ]

    def __call__(self, X, Y=None, eval_gradient=False):
        _check_gradient_request(Y, eval_gradient)
        exponent = _real(self.exponent, "exponent")
        if not eval_gradient:
            return self.kernel(X, Y) ** exponent
        K, dK = self.kernel(X, eval_gradient=True)
        return K**exponent, exponent * K[:, :, None] ** (exponent - 1) * dK

    def diag(self, X):
        return self.kernel.diag(X) ** _real(self.exponent, "exponent")

    def __eq__(self, other):
        if type(self) is not type(other):
            return False
        return self.kernel == other.kernel and self.exponent == other.exponent

    def is_stationary(self):
        return self.kernel.is_stationary()

    @property
    def requires_vector_input(self):
        return self.kernel.requires_vector_input

    def __repr__(self):
        return f"{self.kernel!r} ** {self.exponent}"


def _as_kernel(value):
    if isinstance(value, Kernel):
        return value
    if np.isscalar(value) and not isinstance(value, (str, bool)):
        return ConstantKernel(value)
    raise TypeError(
        f"kernels combine with kernels or numbers, not {type(value).__name__}."
    )


def _is_fixed(bounds):
    return isinstance(bounds, str) and bounds == "fixed"


def _check_bounds(bounds, name):
    try:
        low, high = (float(b) for b in bounds)
    except (TypeError, ValueError):
        raise ValueError(
            f'{name}_bounds must be "fixed" or a pair (low, high); got '
            f"{bounds!r}."
        ) from None
    if not 0 < low <= high < np.inf:
        raise ValueError(
            f"{name}_bounds must satisfy 0 < low <= high < inf; got "
            f"{bounds!r}."
        )
    return low, high


def _positive(value, name):
    if not np.isscalar(value):  # scikit-learn's RBF takes one per feature
        raise ValueError(
            f"{name} must be one positive number: mllib's kernels are "
            "isotropic. For one per feature (automatic relevance "
            "determination) use scikit-learn's kernels with "
            f"sklearn.gaussian_process.GaussianProcessRegressor; got "
            f"{value!r}."
        )
    if not (np.isfinite(value) and value > 0):
        raise ValueError(
            f"{name} must be a positive finite number; got {value!r}."
        )
    return float(value)


def _real(value, name):
    if not (
        np.isscalar(value)
        and not isinstance(value, (str, bool))
        and np.isfinite(value)
    ):
        raise ValueError(f"{name} must be a finite number; got {value!r}.")
    return float(value)


def _pairwise(X, Y, metric):
    """Distances between the rows of ``X`` and ``Y`` (of ``X`` when ``Y``
    is None, then exactly symmetric with a zero diagonal), with
    scipy.spatial.distance as scikit-learn's kernels compute them."""
    X = _floats(X)
    if Y is None:
        return squareform(pdist(X, metric))
    return cdist(X, _floats(Y, "Y"), metric)


def _short(value):
    """A hyperparameter as a kernel prints it, to 3 significant digits; a
    value that is not a number as it is (printing never fails: fit says
    what is wrong with it)."""
    try:
        return f"{float(value):.3g}"
    except (TypeError, ValueError):
        return repr(value)


def _check_gradient_request(Y, eval_gradient):
    if eval_gradient and Y is not None:
        raise ValueError(
            "eval_gradient=True is only defined for kernel(X), not "
            "kernel(X, Y)."
        )


def _anisotropic(length_scale):
    return bool(np.iterable(length_scale) and len(length_scale) > 1)


def _n_samples(X):
    """How many inputs ``X`` holds: the rows of an array, the items of any
    other sequence (for the kernels that only count their inputs)."""
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) > 0:
        return shape[0]
    try:
        return len(X)
    except TypeError:
        raise TypeError(
            f"X must be a sequence or an array; got {type(X).__name__}."
        ) from None


def _floats(X, name="X"):
    """``X`` as a finite 2-D float64 array (scikit-learn's ``check_array``)."""
    return check_array(X, dtype=np.float64, input_name=name)
