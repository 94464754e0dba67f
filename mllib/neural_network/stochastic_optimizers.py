r"""The steps of the stochastic solvers of the MLPs: SGD with momentum
(``solver="sgd"``) and Adam (``solver="adam"``), as scikit-learn takes them.

Both update a list of parameter arrays :math:`\theta` (the weight matrices,
then the intercepts) in place, given the gradient
:math:`g_t=\nabla J_{B_t}(\theta_{t-1})` of the objective on the minibatch
:math:`B_t` of step :math:`t=1,2,\dots`; all operations are elementwise, so
every array keeps its shape.

**SGD with momentum** (Polyak's heavy ball; Sutskever, Martens, Dahl &
Hinton 2013). A velocity accumulates the steps, :math:`v_0=0`,

.. math::

    v_t = \mu v_{t-1} - \eta_t g_t, \qquad \theta_t = \theta_{t-1} + v_t,

so that along a direction where the gradient stays :math:`g` the step grows
to :math:`\eta g/(1-\mu)` (ten times :math:`\eta g` for :math:`\mu=0.9`),
while oscillating components cancel. **Nesterov's momentum** takes the
gradient at the look-ahead point :math:`\theta_{t-1}+\mu v_{t-1}` instead.
Stored as that look-ahead point, :math:`\varphi_t=\theta_t+\mu v_t`, the
method needs the gradient at the stored parameters only:

.. math::

    \varphi_t = \varphi_{t-1} - \mu v_{t-1} + (1+\mu) v_t
              = \varphi_{t-1} + \mu v_t - \eta_t\nabla J(\varphi_{t-1}),

(Bengio, Boulanger-Lewandowski & Pascanu 2013, eq. 7), which is the update
scikit-learn applies with ``nesterovs_momentum=True``. ``momentum=0`` is
plain SGD, :math:`\theta_t=\theta_{t-1}-\eta_t g_t`, either way.

The rate :math:`\eta_t` follows ``learning_rate``: ``"constant"`` keeps
``learning_rate_init``; ``"invscaling"`` sets
:math:`\eta=\eta_0/(s+1)^{p}` at the end of each epoch, :math:`s` the number
of training samples seen so far and :math:`p` ``power_t``; ``"adaptive"``
divides :math:`\eta` by 5 each time the stopping rule would end training,
and stops only once :math:`\eta\le 10^{-6}`.

**Adam** (Kingma & Ba 2015, Algorithm 1). Exponential moving averages of the
gradient and of its elementwise square, :math:`m_0=v_0=0`,

.. math::

    m_t = \beta_1 m_{t-1} + (1-\beta_1) g_t, \qquad
    v_t = \beta_2 v_{t-1} + (1-\beta_2) g_t^2,

are biased towards their zero start: :math:`m_t=(1-\beta_1)\sum_{i\le t}
\beta_1^{t-i}g_i`, whose weights sum to :math:`1-\beta_1^t`, so if the
gradients have a constant mean, :math:`\mathbb E[m_t]=(1-\beta_1^t)
\mathbb E[g]`. Dividing by that factor gives unbiased estimates,
:math:`\hat m_t=m_t/(1-\beta_1^t)`, :math:`\hat v_t=v_t/(1-\beta_2^t)`, and
the step :math:`\theta_t=\theta_{t-1}-\eta\,\hat m_t/(\sqrt{\hat v_t}+
\epsilon)`: about :math:`\eta` per coordinate while the gradient's sign is
consistent, whatever its scale. Like scikit-learn (and Kingma & Ba's remark
at the end of their §2) the two corrections are folded into the rate,

.. math::

    \eta_t = \eta\,\frac{\sqrt{1-\beta_2^t}}{1-\beta_1^t}, \qquad
    \theta_t = \theta_{t-1} - \eta_t\,\frac{m_t}{\sqrt{v_t}+\epsilon},

which is the corrected step with :math:`\epsilon` replaced by
:math:`\epsilon/\sqrt{1-\beta_2^t}`. At :math:`t=1` it moves each
coordinate by :math:`\eta\,g/(|g|+\epsilon/\sqrt{1-\beta_2})`, almost
exactly :math:`\eta` against the sign of its gradient.

References
----------
Polyak, "Some methods of speeding up the convergence of iteration methods"
(1964); Sutskever, Martens, Dahl & Hinton, "On the importance of
initialization and momentum in deep learning", ICML 2013; Bengio,
Boulanger-Lewandowski & Pascanu, "Advances in optimizing recurrent
networks", ICASSP 2013; Kingma & Ba, "Adam: a method for stochastic
optimization", ICLR 2015.
"""

import numpy as np

#: ``"adaptive"`` stops once its rate has fallen to this (scikit-learn's)
SMALLEST_ADAPTIVE_RATE = 1e-6


class MomentumSGD:
    """SGD with momentum :math:`\\mu` (classical or Nesterov's) and a
    learning-rate schedule; ``velocities`` are shaped like ``params``."""

    def __init__(
        self,
        params,
        learning_rate_init,
        schedule="constant",
        momentum=0.9,
        nesterov=True,
        power_t=0.5,
    ):
        self.learning_rate_init = learning_rate_init
        self.learning_rate = float(learning_rate_init)
        self.schedule = schedule
        self.momentum = momentum
        self.nesterov = nesterov
        self.power_t = power_t
        self.velocities = [np.zeros_like(p) for p in params]

    def step(self, params, grads):
        """One update of every array in ``params``, in place."""
        mu, eta = self.momentum, self.learning_rate
        for param, velocity, grad in zip(params, self.velocities, grads):
            velocity *= mu
            velocity -= eta * grad  # v_t = μ v_{t-1} - η g_t
            if self.nesterov:  # φ_t = φ_{t-1} + μ v_t - η g_t
                param += mu * velocity - eta * grad
            else:
                param += velocity

    def end_epoch(self, n_seen):
        """``"invscaling"``: the rate for the next epoch, after ``n_seen``
        samples."""
        if self.schedule == "invscaling":
            self.learning_rate = (
                float(self.learning_rate_init) / (n_seen + 1) ** self.power_t
            )

    def stop(self, message, verbose):
        """The stopping rule has fired: True to stop, or (``"adaptive"``)
        divide the rate by 5 and go on."""
        if self.schedule != "adaptive":
            return _stopping(message + " Stopping.", verbose)
        if self.learning_rate <= SMALLEST_ADAPTIVE_RATE:
            return _stopping(
                message + " Learning rate too small. Stopping.", verbose
            )
        self.learning_rate /= 5.0
        if verbose:
            print(f"{message} Setting learning rate to {self.learning_rate:f}")
        return False


class Adam:
    """Adam with bias-corrected moment estimates; ``ms`` and ``vs`` (the
    first and second moments) are shaped like ``params``."""

    def __init__(
        self,
        params,
        learning_rate_init=1e-3,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-8,
    ):
        self.learning_rate_init = learning_rate_init
        self.learning_rate = float(learning_rate_init)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self.t = 0
        self.ms = [np.zeros_like(p) for p in params]
        self.vs = [np.zeros_like(p) for p in params]

    def step(self, params, grads):
        """One update of every array in ``params``, in place."""
        self.t += 1
        b1, b2 = self.beta_1, self.beta_2
        # both bias corrections folded into the rate (Kingma & Ba, §2)
        self.learning_rate = (
            self.learning_rate_init
            * np.sqrt(1 - b2**self.t)
            / (1 - b1**self.t)
        )
        for param, m, v, grad in zip(params, self.ms, self.vs, grads):
            m *= b1
            m += (1 - b1) * grad
            v *= b2
            v += (1 - b2) * grad**2
            param -= self.learning_rate * m / (np.sqrt(v) + self.epsilon)

    def end_epoch(self, n_seen):
        """Adam's rate has no schedule."""

    def stop(self, message, verbose):
        """The stopping rule has fired: stop."""
        return _stopping(message + " Stopping.", verbose)


def _stopping(message, verbose):
    if verbose:
        print(message)
    return True
