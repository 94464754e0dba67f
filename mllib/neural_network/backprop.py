r"""Forward and backward passes of a multilayer perceptron: backpropagation in
matrix form.

Rows are samples, as everywhere in the book. Layer :math:`l=1,\dots,L` stores
``coefs[l-1]`` :math:`=W_l` of shape :math:`(n_{l-1}, n_l)` and
``intercepts[l-1]`` :math:`=b_l` of shape :math:`(n_l,)` (scikit-learn's
layout). For a batch :math:`A_0=X` of shape :math:`(n, d)`,

.. math::

    Z_l = A_{l-1}W_l + \mathbb 1 b_l^\top, \qquad A_l = g(Z_l)\quad(l<L),

and :math:`Z_L` are the output scores (logits). Per sample (column vectors)
this reads :math:`z_l = W_l^\top a_{l-1} + b_l`. The backward pass carries
:math:`\Delta_l=\partial J/\partial Z_l` (shape :math:`(n, n_l)`):

.. math::

    \Delta_L = \tfrac1S\,\operatorname{diag}(s)(\hat Y - Y),\qquad
    \Delta_{l} = (\Delta_{l+1}W_{l+1}^\top)\odot g'(Z_l),\qquad
    \nabla_{W_l}J = A_{l-1}^\top\Delta_l + \tfrac{\alpha}{S}W_l,\qquad
    \nabla_{b_l}J = \Delta_l^\top\mathbb 1,

where :math:`\hat Y` is the output (identity, logistic, softmax or
exponential of :math:`Z_L`) and each output is paired with its matching loss
(squared, binary or multinomial cross-entropy, Poisson deviance), which is
what makes :math:`\Delta_L` so simple. The samples carry weights
:math:`s_i\ge0` (all one unless given) of sum :math:`S` (:math:`n` for unit
weights): the objective is the weighted mean loss plus
:math:`\frac{\alpha}{2S}\sum_l\lVert W_l\rVert_F^2`, as in scikit-learn.
Reference: Goodfellow, Bengio & Courville, *Deep Learning* (2016), §6.5;
Rumelhart, Hinton & Williams (1986).
"""

import numpy as np
from scipy.special import expit, logsumexp, softmax, xlogy

# g and its derivative g'(z), the latter given z and a = g(z) (cheaper from a
# where possible)
ACTIVATIONS = {
    "identity": (lambda z: z, lambda z, a: np.ones_like(z)),
    "logistic": (expit, lambda z, a: a * (1 - a)),
    "tanh": (np.tanh, lambda z, a: 1 - a**2),
    "relu": (lambda z: np.maximum(z, 0), lambda z, a: (z > 0).astype(float)),
}

# output function of the scores Z (n, k), and the loss of each sample
# computed from Z directly (log-sum-exp / logaddexp: finite even where a
# probability underflows)
OUTPUT_LOSSES = {
    "squared_error": (
        lambda Z: Z,
        lambda Z, Y: 0.5 * np.sum((Z - Y) ** 2, axis=1),
    ),
    "binary_log_loss": (
        expit,
        lambda Z, Y: np.sum(np.logaddexp(0, Z) - Y * Z, axis=1),
    ),
    "log_loss": (
        lambda Z: softmax(Z, axis=1),
        lambda Z, Y: logsumexp(Z, axis=1) - np.sum(Y * Z, axis=1),
    ),
    # half the Poisson deviance, y log(y/ŷ) - y + ŷ with ŷ = exp(z)
    "poisson": (
        np.exp,
        lambda Z, Y: np.sum(np.exp(Z) - Y * Z + xlogy(Y, Y) - Y, axis=1),
    ),
}


def forward(X, coefs, intercepts, activation):
    """Pre-activations ``Z`` (one per layer, the last are the output scores)
    and activations ``A`` (``A[0] = X``, then one per hidden layer)."""
    g = ACTIVATIONS[activation][0]
    A, Z = [X], []
    for layer, (W, b) in enumerate(zip(coefs, intercepts)):
        Z.append(A[-1] @ W + b)
        if layer < len(coefs) - 1:
            A.append(g(Z[-1]))
    return Z, A


def loss_and_gradients(
    X, Y, coefs, intercepts, activation, loss, alpha, sample_weight=None
):
    r"""Objective :math:`J` (mean loss plus :math:`\frac{\alpha}{2S}\sum_l
    \lVert W_l\rVert_F^2`, each row weighted by ``sample_weight``, all one if
    None, of sum :math:`S`) and its gradients, shaped like ``coefs`` and
    ``intercepts``: ``(J, coef_grads, intercept_grads)``. The backward pass
    reuses the ``Z_l`` and ``A_l`` of the forward pass.
    """
    s = np.ones(len(X)) if sample_weight is None else sample_weight
    S = s.sum()
    Z, A = forward(X, coefs, intercepts, activation)
    output, sample_loss = OUTPUT_LOSSES[loss]
    value = s @ sample_loss(Z[-1], Y) / S + alpha / (2 * S) * sum(
        np.sum(W * W) for W in coefs
    )
    derivative = ACTIVATIONS[activation][1]
    delta = s[:, None] * (output(Z[-1]) - Y) / S  # ∂J/∂Z_L
    coef_grads, intercept_grads = [None] * len(coefs), [None] * len(coefs)
    for layer in range(len(coefs) - 1, -1, -1):
        coef_grads[layer] = A[layer].T @ delta + alpha / S * coefs[layer]
        intercept_grads[layer] = delta.sum(axis=0)
        if layer > 0:  # the δ recursion: back through W, then through g
            delta = (delta @ coefs[layer].T) * derivative(
                Z[layer - 1], A[layer]
            )
    return value, coef_grads, intercept_grads


def pack(coefs, intercepts):
    """All parameters as one flat vector: the weight matrices, then the
    intercepts (scikit-learn's order)."""
    return np.concatenate([p.ravel() for p in (*coefs, *intercepts)])


def unpack(theta, layer_sizes):
    """Inverse of :func:`pack` for layers of sizes ``(d, n_1, ..., n_L)``;
    returns views into ``theta``."""
    shapes = list(zip(layer_sizes[:-1], layer_sizes[1:]))
    sizes = [a * b for a, b in shapes] + [b for _, b in shapes]
    pieces = np.split(theta, np.cumsum(sizes)[:-1])
    L = len(shapes)
    return [p.reshape(s) for p, s in zip(pieces[:L], shapes)], pieces[L:]


def flat_objective(
    theta, X, Y, layer_sizes, activation, loss, alpha, sample_weight=None
):
    """``(J, ∇J)`` with all parameters in one vector: for scipy's L-BFGS, SGD
    and gradient checks."""
    value, coef_grads, intercept_grads = loss_and_gradients(
        X,
        Y,
        *unpack(theta, layer_sizes),
        activation,
        loss,
        alpha,
        sample_weight,
    )
    return value, pack(coef_grads, intercept_grads)


def glorot_uniform(layer_sizes, activation, rng):
    r"""Glorot-uniform initial weights and intercepts, as scikit-learn's MLPs.

    Every entry is drawn from the uniform distribution on :math:`[-r, r]`,
    :math:`r=\sqrt{6/(n_{\text{in}}+n_{\text{out}})}`
    (:math:`\sqrt{2/(n_{\text{in}}+n_{\text{out}})}` for the logistic
    activation), which keeps the variance of the activations and of the
    back-propagated gradients roughly constant from layer to layer (Glorot &
    Bengio, 2010).
    """
    factor = 2.0 if activation == "logistic" else 6.0
    coefs, intercepts = [], []
    for fan_in, fan_out in zip(layer_sizes[:-1], layer_sizes[1:]):
        bound = np.sqrt(factor / (fan_in + fan_out))
        coefs.append(rng.uniform(-bound, bound, (fan_in, fan_out)))
        intercepts.append(rng.uniform(-bound, bound, fan_out))
    return coefs, intercepts
