r"""Multilayer perceptrons for classification and regression, with
scikit-learn's objective, solvers, stopping rules and random streams.

For parameters :math:`\theta=(W_1,b_1,\dots,W_L,b_L)` and a batch :math:`B`
of samples both estimators minimise

.. math::

    J_B(\theta) = \frac1{|B|}\sum_{i\in B} \ell\bigl(y_i, f_\theta(x_i)\bigr)
              + \frac{\alpha}{2|B|}\sum_{l=1}^L\lVert W_l\rVert_F^2,

with :math:`\ell(y,\hat y)=\frac12\lVert y-\hat y\rVert^2` and an identity
output (regression, any number of outputs), half the Poisson deviance with
an exponential output (``loss="poisson"``), or the cross-entropy with a
logistic (two classes) or softmax (:math:`K>2`) output (classification);
intercepts are not penalised. ``"lbfgs"`` minimises :math:`J` on all
:math:`n` samples (:math:`B` the whole set). ``"sgd"`` and ``"adam"`` take
one step per minibatch on :math:`J_B` (the steps are in
:mod:`mllib.neural_network.stochastic_optimizers`); as in scikit-learn the
penalty is divided by :math:`|B|`, not :math:`n`, so with minibatches of
size :math:`b` they settle where :math:`\frac1n\sum_i\ell_i+
\frac{\alpha}{2b}\sum_l\lVert W_l\rVert_F^2` is stationary: the penalty of
the full objective multiplied by :math:`n/b`. ``batch_size="auto"`` is
:math:`\min(200, n)`, so this matters only for more than 200 samples.

This is ``sklearn.neural_network.MLPRegressor`` / ``MLPClassifier`` with the
same parameters and defaults, and an integer ``random_state`` draws the same
stream as there (a ``numpy.random.RandomState``): the same initial weights,
the same minibatches and the same early-stopping split, so the stochastic
solvers follow scikit-learn's iterates to rounding. One deliberate
difference: with several outputs and the squared error scikit-learn's
reported loss averages over the outputs while its gradient sums over them
(scikit-learn issue #8349); here :math:`\ell` sums over the outputs, the
function whose gradient both compute, so ``loss_`` is :math:`k` times larger
in its data term for :math:`k` outputs, and ``"lbfgs"``, whose line search
needs the matching function, may take other steps there. The passes are in
:mod:`mllib.neural_network.backprop`.
"""

import itertools
import math
import numbers
import warnings

import numpy as np
from scipy.optimize import minimize
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    check_is_fitted,
    column_or_1d,
    validate_data,
)

from ..exceptions import ConvergenceWarning
from ..metrics import r2_score
from ..validation import (
    available_if,
    check_int,
    check_sample_weight,
    check_scalar,
    encode_classes,
)
from .backprop import (
    ACTIVATIONS,
    OUTPUT_LOSSES,
    flat_objective,
    forward,
    glorot_uniform,
    loss_and_gradients,
    pack,
    unpack,
)
from .stochastic_optimizers import Adam, MomentumSGD

SOLVERS = ("lbfgs", "sgd", "adam")
SCHEDULES = ("constant", "invscaling", "adaptive")
#: out_activation_ -> the output function (identity, exp, logistic, softmax)
OUTPUT_FUNCTIONS = {
    "identity": OUTPUT_LOSSES["squared_error"][0],
    "exp": OUTPUT_LOSSES["poisson"][0],
    "logistic": OUTPUT_LOSSES["binary_log_loss"][0],
    "softmax": OUTPUT_LOSSES["log_loss"][0],
}


class _BaseMLP(BaseEstimator):
    def __init__(
        self,
        hidden_layer_sizes=(100,),
        activation="relu",
        *,
        solver="adam",
        alpha=1e-4,
        batch_size="auto",
        learning_rate="constant",
        learning_rate_init=1e-3,
        power_t=0.5,
        max_iter=200,
        shuffle=True,
        random_state=None,
        tol=1e-4,
        verbose=False,
        warm_start=False,
        momentum=0.9,
        nesterovs_momentum=True,
        early_stopping=False,
        validation_fraction=0.1,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-8,
        n_iter_no_change=10,
        max_fun=15000,
    ):
        _store_parameters(self, locals())

    def _check_params(self):
        hidden = self.hidden_layer_sizes
        hidden = (
            (hidden,)
            if isinstance(hidden, numbers.Integral)
            else tuple(hidden)
        )
        if any(
            isinstance(h, bool) or not isinstance(h, numbers.Integral) or h < 1
            for h in hidden
        ):
            raise ValueError(
                "hidden_layer_sizes must be positive integers; got "
                f"{self.hidden_layer_sizes!r}."
            )
        for name, options in (
            ("activation", sorted(ACTIVATIONS)),
            ("solver", SOLVERS),
            ("learning_rate", SCHEDULES),
        ):
            if getattr(self, name) not in options:
                raise ValueError(
                    f"{name} must be one of {list(options)}; got "
                    f"{getattr(self, name)!r}."
                )
        if self.batch_size != "auto":
            check_int(self.batch_size, "batch_size", low=1)
        check_scalar(self.alpha, "alpha", low=0)
        check_scalar(
            self.learning_rate_init,
            "learning_rate_init",
            low=0,
            low_inclusive=False,
        )
        check_scalar(self.power_t, "power_t", low=0)
        check_scalar(self.tol, "tol", low=0)
        check_scalar(self.momentum, "momentum", low=0, high=1)
        check_scalar(
            self.validation_fraction,
            "validation_fraction",
            low=0,
            high=1,
            high_inclusive=False,
        )
        for name in ("beta_1", "beta_2"):
            check_scalar(
                getattr(self, name), name, low=0, high=1, high_inclusive=False
            )
        check_scalar(self.epsilon, "epsilon", low=0, low_inclusive=False)
        check_int(self.max_iter, "max_iter", low=1)
        check_int(self.max_fun, "max_fun", low=1)
        if self.n_iter_no_change != np.inf:
            check_int(self.n_iter_no_change, "n_iter_no_change", low=1)
        for name in (
            "shuffle",
            "warm_start",
            "nesterovs_momentum",
            "early_stopping",
        ):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(
                    f"{name} must be True or False; got "
                    f"{getattr(self, name)!r}."
                )
        return [int(h) for h in hidden]

    def _starts_afresh(self, incremental):
        """Whether this fit draws new random weights: always for ``fit``
        unless ``warm_start``, for ``partial_fit`` only the first time."""
        return not hasattr(self, "coefs_") or not (
            self.warm_start or incremental
        )

    def _fit(self, X, Y, loss, sample_weight, incremental):
        layer_sizes = [X.shape[1], *self._check_params(), Y.shape[1]]
        if incremental and self.early_stopping:
            raise ValueError(
                "partial_fit does not support early_stopping=True: there is "
                "no held-out set across calls. Set early_stopping=False, or "
                "use fit."
            )
        weights = check_sample_weight(sample_weight, len(X))
        # a fresh stream per call, as scikit-learn: refits with an int seed
        # repeat their minibatches and validation split
        rng = random_stream(self.random_state)
        fresh = self._starts_afresh(incremental)
        if fresh:
            coefs, intercepts = glorot_uniform(
                layer_sizes, self.activation, rng
            )
        else:
            if [W.shape for W in self.coefs_] != list(
                zip(layer_sizes[:-1], layer_sizes[1:])
            ):
                raise ValueError(
                    "The coefs_ of the previous fit do not match the layer "
                    f"sizes {layer_sizes} of this one (warm_start or "
                    "partial_fit continue a fit with the same features, "
                    "layers and outputs)."
                )
            # copies: the previous coefs_ are not modified
            coefs = [np.array(W, dtype=float) for W in self.coefs_]
            intercepts = [np.array(b, dtype=float) for b in self.intercepts_]
        self.n_layers_, self.n_outputs_ = len(layer_sizes), layer_sizes[-1]
        if self.solver == "lbfgs":
            coefs, intercepts = self._fit_lbfgs(
                X, Y, weights, loss, layer_sizes, coefs, intercepts
            )
        else:
            self._fit_stochastic(
                X, Y, weights, loss, coefs, intercepts, rng, fresh, incremental
            )
        if not all(np.isfinite(p).all() for p in coefs + intercepts):
            raise ValueError(
                "Solver produced non-finite parameter weights. The input "
                "data may contain large values and need to be "
                "preprocessed (e.g. StandardScaler), or learning_rate_init "
                "lowered."
            )
        self.coefs_, self.intercepts_ = list(coefs), list(intercepts)
        return self

    def _is_stochastic(self):
        """``partial_fit`` exists for the minibatch solvers only."""
        if self.solver == "lbfgs":
            raise AttributeError(
                "partial_fit is only available for the stochastic solvers "
                '"sgd" and "adam"; "lbfgs" is not stochastic.'
            )

    def _fit_lbfgs(self, X, Y, weights, loss, layer_sizes, coefs, intercepts):
        """scipy's L-BFGS-B on the full objective, as scikit-learn's."""
        args = (X, Y, layer_sizes, self.activation, loss, self.alpha, weights)
        iteration = itertools.count(1)
        result = minimize(
            flat_objective,
            pack(coefs, intercepts),
            args=args,
            jac=True,
            method="L-BFGS-B",
            options={
                "maxiter": self.max_iter,
                "maxfun": self.max_fun,
                "gtol": self.tol,
            },
            callback=(
                (
                    lambda intermediate_result: print(
                        f"Iteration {next(iteration)}, loss = "
                        f"{intermediate_result.fun:.8f}"
                    )
                )
                if self.verbose
                else None
            ),
        )
        if not result.success:
            warnings.warn(
                f"L-BFGS-B stopped before convergence: {result.message}. "
                "Increase max_iter (or max_fun).",
                ConvergenceWarning,
                stacklevel=4,
            )
        self.loss_ = float(result.fun)
        self.n_iter_ = min(int(result.nit), self.max_iter)
        return unpack(result.x.copy(), layer_sizes)

    def _fit_stochastic(
        self, X, Y, weights, loss, coefs, intercepts, rng, fresh, incremental
    ):
        """Epochs of minibatch steps ("sgd" or "adam") with scikit-learn's
        shuffles, stopping rules and attributes; one epoch for
        ``partial_fit``, whose optimizer (moments, velocities, rate) carries
        on from the previous call."""
        early = bool(self.early_stopping)
        # a warm start continues the curves and counters of a previous
        # stochastic fit of the same kind, as scikit-learn's
        resume = (
            not fresh
            and hasattr(self, "loss_curve_")
            and (self.validation_scores_ is not None) == early
        )
        if not resume:
            self.t_, self.loss_curve_ = 0, []
            self._no_improvement_count = 0
            self.best_loss_ = None if early else np.inf
            self.validation_scores_ = [] if early else None
            self.best_validation_score_ = -np.inf if early else None
            self._best_params = [p.copy() for p in coefs + intercepts]
        if early:
            train, validation = validation_split(
                len(X),
                self.validation_fraction,
                rng,
                self._stratify_labels(Y),
            )
            X_train, Y_train, w_train = X[train], Y[train], weights[train]
            X_val, Y_val = X[validation], Y[validation]
            w_val = weights[validation]
        else:
            X_train, Y_train, w_train = X, Y, weights
        n = len(X_train)
        if self.batch_size == "auto":
            batch = min(200, n)
        else:
            if self.batch_size > n:
                warnings.warn(
                    f"batch_size={self.batch_size} is larger than the "
                    f"{n} training samples; it is clipped to {n}.",
                    UserWarning,
                    stacklevel=4,
                )
            batch = min(self.batch_size, n)
        params = coefs + intercepts  # the optimizers update these in place
        if not incremental or not hasattr(self, "_optimizer"):
            self._optimizer = (
                Adam(
                    params,
                    self.learning_rate_init,
                    self.beta_1,
                    self.beta_2,
                    self.epsilon,
                )
                if self.solver == "adam"
                else MomentumSGD(
                    params,
                    self.learning_rate_init,
                    self.learning_rate,
                    self.momentum,
                    self.nesterovs_momentum,
                    self.power_t,
                )
            )
        optimizer = self._optimizer
        order = np.arange(n)
        self.n_iter_ = 0
        for _ in range(1 if incremental else self.max_iter):
            if self.shuffle:
                order = order[rng.permutation(n)]
            epoch_loss = 0.0
            for start in range(0, n, batch):
                rows = order[start : start + batch]
                value, coef_grads, intercept_grads = loss_and_gradients(
                    X_train[rows],
                    Y_train[rows],
                    coefs,
                    intercepts,
                    self.activation,
                    loss,
                    self.alpha,
                    w_train[rows],
                )
                epoch_loss += value * len(rows)
                optimizer.step(params, coef_grads + intercept_grads)
            self.n_iter_ += 1
            self.t_ += n
            # the mean of the minibatch objectives met during the epoch
            self.loss_ = epoch_loss / n
            self.loss_curve_.append(self.loss_)
            if self.verbose:
                print(f"Iteration {self.n_iter_}, loss = {self.loss_:.8f}")
            if early:
                self._track_validation(X_val, Y_val, w_val, coefs, intercepts)
            else:
                self._track_loss()
            optimizer.end_epoch(self.t_)
            if self._no_improvement_count > self.n_iter_no_change:
                what = (
                    "Validation score did not improve"
                    if early
                    else "Training loss did not improve"
                )
                message = (
                    f"{what} more than tol={self.tol:f} for "
                    f"{self.n_iter_no_change} consecutive epochs."
                )
                if optimizer.stop(message, self.verbose):
                    break
                self._no_improvement_count = 0
            if self.n_iter_ == self.max_iter and not incremental:
                warnings.warn(
                    f"Stochastic Optimizer: Maximum iterations "
                    f"({self.max_iter}) reached and the optimization hasn't "
                    "converged yet.",
                    ConvergenceWarning,
                    stacklevel=4,
                )
        if early:  # back to the parameters of the best validation score
            for param, best in zip(params, self._best_params):
                param[...] = best

    def _track_loss(self):
        """An epoch counts as no improvement unless it lowers the best
        training loss so far by more than ``tol``."""
        loss = self.loss_curve_[-1]
        if loss > self.best_loss_ - self.tol:
            self._no_improvement_count += 1
        else:
            self._no_improvement_count = 0
        self.best_loss_ = min(self.best_loss_, loss)

    def _track_validation(self, X_val, Y_val, w_val, coefs, intercepts):
        """The same rule on the validation score (accuracy or R², weighted,
        higher is better), remembering the parameters of the best one."""
        output = self._output(X_val, coefs, intercepts)
        score = (
            self._validation_score(Y_val, output, w_val)
            if np.isfinite(output).all()
            else np.nan
        )
        self.validation_scores_.append(score)
        if self.verbose:
            print(f"Validation score: {score:f}")
        if score < self.best_validation_score_ + self.tol:
            self._no_improvement_count += 1
        else:
            self._no_improvement_count = 0
        if score > self.best_validation_score_:
            self.best_validation_score_ = score
            self._best_params = [p.copy() for p in coefs + intercepts]

    def _stratify_labels(self, Y):
        """Labels to stratify the validation split by, or None."""
        return None

    def _output(self, X, coefs, intercepts):
        """The network's output (after the output function), rows of X."""
        scores = forward(X, coefs, intercepts, self.activation)[0][-1]
        return OUTPUT_FUNCTIONS[self.out_activation_](scores)

    def _predict_output(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._output(X, self.coefs_, self.intercepts_)


class MLPClassifier(ClassifierMixin, _BaseMLP):
    r"""Multilayer perceptron classifier: cross-entropy with a logistic or
    softmax output.

    Parameters
    ----------
    hidden_layer_sizes : tuple of int, default (100,)
        Widths :math:`n_1,\dots,n_{L-1}` of the hidden layers; ``()`` gives
        logistic regression.
    activation : {"relu", "tanh", "logistic", "identity"}, default "relu"
        The hidden activation :math:`g`.
    solver : {"adam", "sgd", "lbfgs"}, default "adam"
        ``"adam"``: Adam on minibatches (Kingma & Ba 2015); ``"sgd"``:
        minibatch SGD with momentum and a learning-rate schedule;
        ``"lbfgs"``: scipy's L-BFGS-B on the full objective, the best choice
        for small data sets. The updates are derived in
        :mod:`mllib.neural_network.stochastic_optimizers`.
    alpha : float, default 1e-4
        L2 penalty :math:`\alpha`; the objective on a batch :math:`B` adds
        :math:`\frac{\alpha}{2|B|}\sum_l\lVert W_l\rVert_F^2`.
    batch_size : int or "auto", default "auto"
        Minibatch size of ``"sgd"`` and ``"adam"``; ``"auto"`` is
        ``min(200, n)``; larger than ``n`` warns and is clipped.
    learning_rate : {"constant", "invscaling", "adaptive"}, default
        "constant"
        ``"sgd"`` only: the schedule of :math:`\eta` (see the optimizers).
    learning_rate_init : float, default 1e-3
        :math:`\eta_0` of ``"sgd"`` and ``"adam"``.
    power_t : float, default 0.5
        Exponent of ``"invscaling"``: :math:`\eta=\eta_0/(s+1)^{p}` after
        :math:`s` samples.
    max_iter : int, default 200
        Iterations of L-BFGS, or epochs of ``"sgd"``/``"adam"``.
    shuffle : bool, default True
        Shuffle the training samples before each epoch (``"sgd"``,
        ``"adam"``).
    random_state : None, int, numpy.random.RandomState or Generator
        Initial weights (Glorot-uniform), shuffles and the validation split,
        drawn in this order from one stream. An int seeds a ``RandomState``,
        as scikit-learn does, so the same int gives scikit-learn's draws;
        ``None`` seeds a fresh one (numpy's global state is never used).
    tol : float, default 1e-4
        L-BFGS: projected-gradient tolerance. ``"sgd"``/``"adam"``: an epoch
        improves only if it lowers the best training loss (or raises the
        best validation score) by more than ``tol``.
    verbose : bool, default False
        Print the loss of each iteration (and the validation score).
    warm_start : bool, default False
        Start from the current ``coefs_`` and ``intercepts_`` (a previous
        fit, or set by hand) instead of a random initialisation; a previous
        stochastic fit's ``loss_curve_`` and counters are continued.
    momentum : float in [0, 1], default 0.9
        ``"sgd"``: the momentum :math:`\mu`; 0 is plain SGD.
    nesterovs_momentum : bool, default True
        ``"sgd"`` with ``momentum > 0``: Nesterov's momentum.
    early_stopping : bool, default False
        ``"sgd"``/``"adam"``: hold out ``validation_fraction`` of the data
        (stratified for two classes, as scikit-learn), stop when the
        validation score (accuracy) has not improved by ``tol`` for more
        than ``n_iter_no_change`` epochs, and return the parameters of the
        best score.
    validation_fraction : float in (0, 1), default 0.1
        The held-out share, :math:`\lceil fn\rceil` samples.
    beta_1, beta_2 : float in [0, 1), defaults 0.9 and 0.999
        Adam's decay rates of the first and second moment estimates.
    epsilon : float, default 1e-8
        Adam's :math:`\epsilon`, added to :math:`\sqrt{v_t}`.
    n_iter_no_change : int or np.inf, default 10
        ``"sgd"``/``"adam"``: stop (``"adaptive"``: divide :math:`\eta` by
        5) after more than this many epochs without improvement.
    max_fun : int, default 15000
        L-BFGS: the cap on function evaluations.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    coefs_ : list of ndarray, ``coefs_[l-1]`` of shape (n_{l-1}, n_l)
    intercepts_ : list of ndarray, ``intercepts_[l-1]`` of shape (n_l,)
    loss_ : float
        L-BFGS: the objective :math:`J` (penalty included) at the returned
        parameters. ``"sgd"``/``"adam"``: the mean of the minibatch
        objectives :math:`J_B` over the last epoch, weighted by
        :math:`|B|`, as scikit-learn.
    loss_curve_ : list of float
        ``"sgd"``/``"adam"``: ``loss_`` after each epoch.
    best_loss_ : float or None
        ``"sgd"``/``"adam"``: the smallest of ``loss_curve_`` (None with
        early stopping).
    validation_scores_ : list of float or None
        Early stopping: the validation accuracy after each epoch.
    best_validation_score_ : float or None
        Early stopping: its largest value, that of the returned parameters.
    t_ : int
        ``"sgd"``/``"adam"``: training samples seen (``invscaling``'s
        :math:`s`).
    n_iter_ : int
    n_layers_ : int
    n_outputs_ : int
    out_activation_ : {"logistic", "softmax"}

    References
    ----------
    Goodfellow, Bengio & Courville, *Deep Learning* (2016), ch. 6 and 8;
    Kingma & Ba, "Adam" (ICLR 2015). The same parameters, defaults and
    attributes as ``sklearn.neural_network.MLPClassifier`` (whose
    multilabel ``y`` is not offered here).
    """

    def fit(self, X, y, sample_weight=None):
        """Fit to ``X`` of shape (n_samples, n_features) and labels ``y``,
        the samples weighted by ``sample_weight`` (shape (n_samples,), all
        one if None); return self."""
        return self._fit_labels(X, y, sample_weight, None, incremental=False)

    @available_if(_BaseMLP._is_stochastic)
    def partial_fit(self, X, y, sample_weight=None, classes=None):
        """One epoch of ``"sgd"`` or ``"adam"`` over ``X, y``, continuing
        from the previous call (its weights, optimizer state and curves);
        ``classes``, every label the stream will contain, is needed on the
        first call. Return self."""
        return self._fit_labels(X, y, sample_weight, classes, incremental=True)

    def _fit_labels(self, X, y, sample_weight, classes, incremental):
        shape = np.asarray(y).shape
        if len(shape) == 2 and shape[1] > 1:
            raise ValueError(
                "MLPClassifier takes one label per sample (y of shape "
                "(n_samples,)); for a multilabel indicator matrix use "
                "sklearn.neural_network.MLPClassifier."
            )
        fresh = self._starts_afresh(incremental)
        X, y = validate_data(self, X, y, dtype=np.float64, reset=fresh)
        if incremental:
            y_index = self._partial_fit_labels(y, classes)
        else:
            # one class is fitted, as scikit-learn does: see predict_proba
            classes, y_index = encode_classes(
                y, allow_one_class=True, estimator=self
            )
            previous = getattr(self, "classes_", classes)
            if not fresh and not np.array_equal(classes, previous):
                raise ValueError(
                    "warm_start can only be used where y has the same "
                    f"classes as in the previous call to fit. Previously "
                    f"got {previous}, y has {classes}."
                )
            self.classes_ = classes
        # one logistic output for two classes (the probability of the
        # second) and for one (the probability of a class y never has)
        binary = len(self.classes_) <= 2
        Y = (
            y_index[:, None].astype(float)
            if binary
            else np.eye(len(self.classes_))[y_index]
        )
        self.out_activation_ = "logistic" if binary else "softmax"
        loss = "binary_log_loss" if binary else "log_loss"
        return self._fit(X, Y, loss, sample_weight, incremental)

    def _partial_fit_labels(self, y, classes):
        """Positions of the labels ``y`` in ``classes_``, which the first
        call of ``partial_fit`` sets from ``classes``."""
        if classes is not None:
            check_classification_targets(classes)
            classes = np.unique(classes)
            if not hasattr(self, "classes_"):
                self.classes_ = classes
            elif not np.array_equal(classes, self.classes_):
                raise ValueError(
                    f"classes={classes.tolist()} is not the same as on the "
                    f"last call to partial_fit, {self.classes_.tolist()}."
                )
        elif not hasattr(self, "classes_"):
            raise ValueError(
                "classes must be passed on the first call to partial_fit: "
                "every label the data will contain, e.g. np.unique(y) of "
                "the whole data set."
            )
        check_classification_targets(y)
        unknown = np.setdiff1d(y, self.classes_)
        if unknown.size:
            raise ValueError(
                f"y has classes not in classes_ {self.classes_.tolist()}: "
                f"{unknown.tolist()}. Pass every class in `classes` on the "
                "first call to partial_fit."
            )
        return np.searchsorted(self.classes_, y)

    def _stratify_labels(self, Y):
        # scikit-learn stratifies a single output only (two classes)
        return Y[:, 0] if Y.shape[1] == 1 else None

    def _validation_score(self, Y_val, output, weights):
        # accuracy, weighted: the predicted class is that of predict
        if len(self.classes_) == 1:
            correct = np.ones(len(Y_val), dtype=bool)
        elif Y_val.shape[1] == 1:
            correct = (output[:, 0] > 0.5) == (Y_val[:, 0] == 1)
        else:
            correct = output.argmax(axis=1) == Y_val.argmax(axis=1)
        return np.average(correct, weights=weights)

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, K), columns in the order of
        ``classes_``.

        With one class (``K = 1``) the shape is (n_samples, 2), as in
        scikit-learn: the network has one logistic output :math:`p`, fitted
        to the target 0 on every sample (the probability of a class that
        ``y`` never has), and the columns are :math:`1-p`, the probability
        of ``classes_[0]``, and :math:`p`."""
        proba = self._predict_output(X)
        if len(self.classes_) <= 2:
            return np.column_stack([1 - proba[:, 0], proba[:, 0]])
        return proba

    def predict_log_proba(self, X):
        """The logarithm of :meth:`predict_proba`, as scikit-learn's."""
        return np.log(self.predict_proba(X))

    def predict(self, X):
        """The most probable class for each row of ``X``, shape
        (n_samples,); ``classes_[0]`` everywhere if there is one class."""
        # first, so that an unfitted model raises NotFittedError
        proba = self.predict_proba(X)
        # [:, :K]: with one class the second column is no class of ours
        return self.classes_[np.argmax(proba[:, : len(self.classes_)], axis=1)]


class MLPRegressor(RegressorMixin, _BaseMLP):
    r"""Multilayer perceptron regressor, one or several outputs.

    Parameters and attributes as :class:`MLPClassifier` (the validation
    score of early stopping is :math:`R^2`, averaged over the outputs, and
    never stratified), plus ``loss`` (no ``classes_``). ``loss``,
    ``hidden_layer_sizes`` and ``activation`` are positional in this order,
    the rest keyword-only, as in scikit-learn.

    Parameters
    ----------
    loss : {"squared_error", "poisson"}, default "squared_error"
        ``"squared_error"``: :math:`\ell=\frac12\lVert y-\hat y\rVert^2`,
        summed over the outputs, with an identity output. ``"poisson"``:
        half the Poisson deviance :math:`\sum_k y_k\log(y_k/\hat y_k)-y_k+
        \hat y_k` with :math:`\hat y=e^{z}` (log link); needs
        :math:`y\ge0`. Both pair an output with its canonical loss, so the
        output error is :math:`\hat y-y` in both.

    Attributes
    ----------
    out_activation_ : {"identity", "exp"}
    n_outputs_ : int
        The number of targets :math:`k`; ``predict`` returns shape
        (n_samples,) if ``y`` was 1-D (or a single column), else
        (n_samples, k).
    """

    def __init__(
        self,
        loss="squared_error",
        hidden_layer_sizes=(100,),
        activation="relu",
        *,
        solver="adam",
        alpha=1e-4,
        batch_size="auto",
        learning_rate="constant",
        learning_rate_init=1e-3,
        power_t=0.5,
        max_iter=200,
        shuffle=True,
        random_state=None,
        tol=1e-4,
        verbose=False,
        warm_start=False,
        momentum=0.9,
        nesterovs_momentum=True,
        early_stopping=False,
        validation_fraction=0.1,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-8,
        n_iter_no_change=10,
        max_fun=15000,
    ):
        _store_parameters(self, locals())

    def fit(self, X, y, sample_weight=None):
        """Fit to ``X`` of shape (n_samples, n_features) and targets ``y`` of
        shape (n_samples,) or (n_samples, n_outputs), the samples weighted by
        ``sample_weight`` (shape (n_samples,), all one if None); return
        self."""
        return self._fit_targets(X, y, sample_weight, incremental=False)

    @available_if(_BaseMLP._is_stochastic)
    def partial_fit(self, X, y, sample_weight=None):
        """One epoch of ``"sgd"`` or ``"adam"`` over ``X, y``, continuing
        from the previous call (its weights, optimizer state and curves);
        return self."""
        return self._fit_targets(X, y, sample_weight, incremental=True)

    def _fit_targets(self, X, y, sample_weight, incremental):
        if self.loss not in ("squared_error", "poisson"):
            raise ValueError(
                'loss must be "squared_error" or "poisson"; got '
                f"{self.loss!r}."
            )
        X, y = validate_data(
            self,
            X,
            y,
            dtype=np.float64,
            y_numeric=True,
            multi_output=True,
            reset=self._starts_afresh(incremental),
        )
        if y.ndim == 2 and y.shape[1] == 1:
            y = column_or_1d(y, warn=True)
        if self.loss == "poisson" and np.any(y < 0):
            raise ValueError(
                'loss="poisson" needs non-negative targets y (counts or '
                "rates); use the squared error for signed targets."
            )
        self.out_activation_ = "exp" if self.loss == "poisson" else "identity"
        Y = y.reshape(len(y), -1)
        return self._fit(X, Y, self.loss, sample_weight, incremental)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags

    def _validation_score(self, Y_val, output, weights):
        # weighted R², averaged over the outputs (scikit-learn's r2_score)
        return np.mean(
            [
                r2_score(Y_val[:, k], output[:, k], sample_weight=weights)
                for k in range(Y_val.shape[1])
            ]
        )

    def predict(self, X):
        """Predictions, shape (n_samples,) for one output, else
        (n_samples, n_outputs)."""
        output = self._predict_output(X)
        return output[:, 0] if self.n_outputs_ == 1 else output


def _store_parameters(estimator, arguments):
    """Set each constructor argument as an attribute of the same name (the
    estimator contract: ``__init__`` stores its parameters unchanged)."""
    for name, value in arguments.items():
        if name not in ("self", "__class__"):
            setattr(estimator, name, value)


def random_stream(random_state):
    """The random stream of one fit: an int seeds a ``RandomState`` as
    scikit-learn's MLPs do (so the same int draws the same weights,
    minibatches and split); ``None`` seeds a fresh one from the operating
    system; a ``RandomState`` or ``Generator`` is used as it is."""
    if random_state is None or (
        isinstance(random_state, (numbers.Integral, np.integer))
        and not isinstance(random_state, bool)
    ):
        return np.random.RandomState(random_state)
    if isinstance(random_state, (np.random.RandomState, np.random.Generator)):
        return random_state
    raise ValueError(
        "random_state must be None, an int, a numpy.random.RandomState or "
        f"a numpy.random.Generator; got {random_state!r}."
    )


def validation_split(n, fraction, rng, labels=None):
    """Indices ``(train, validation)`` of early stopping, drawn from ``rng``
    as scikit-learn's ``train_test_split(test_size=fraction,
    stratify=labels)`` draws them: :math:`\\lceil fn\\rceil` validation
    samples; without labels the first ones of a random permutation; with
    labels each class contributes in proportion to its size."""
    n_val = math.ceil(fraction * n)
    if not 0 < fraction < 1 or n_val >= n:
        raise ValueError(
            f"early_stopping needs validation_fraction in (0, 1) leaving "
            f"training samples; got {fraction!r} for {n} samples."
        )
    if n_val < 2:
        raise ValueError(
            f"The validation set is too small ({n_val} of {n} samples). "
            "Increase validation_fraction or the size of the data set."
        )
    if labels is None:
        permutation = rng.permutation(n)
        return permutation[n_val:], permutation[:n_val]
    n_train = n - n_val
    classes, index, counts = np.unique(
        labels, return_inverse=True, return_counts=True
    )
    if counts.min() < 2 or min(n_train, n_val) < len(classes):
        raise ValueError(
            "A stratified validation split needs at least 2 samples of "
            f"each class and {len(classes)} samples on each side; got "
            f"class counts {counts.tolist()} and {n_val} validation "
            "samples. Change validation_fraction or set "
            "early_stopping=False."
        )
    members = np.split(
        np.argsort(index, kind="stable"), np.cumsum(counts)[:-1]
    )
    train_counts = _proportional_counts(counts, n_train, rng)
    val_counts = _proportional_counts(counts - train_counts, n_val, rng)
    train, validation = [], []
    for rows, n_tr, n_va in zip(members, train_counts, val_counts):
        rows = rows[rng.permutation(len(rows))]
        train.extend(rows[:n_tr])
        validation.extend(rows[n_tr : n_tr + n_va])
    return rng.permutation(train), rng.permutation(validation)


def _proportional_counts(counts, n_draws, rng):
    """``n_draws`` shared in proportion to ``counts``: the floors of the
    proportional shares, then one more to the largest remainders, ties
    broken at random (scikit-learn's draws, for the same stream)."""
    share = counts / counts.sum() * n_draws
    taken = np.floor(share)
    missing = int(n_draws - taken.sum())
    remainder = share - taken
    for value in np.sort(np.unique(remainder))[::-1]:
        if missing == 0:
            break
        (tied,) = np.where(remainder == value)
        chosen = rng.choice(tied, size=min(len(tied), missing), replace=False)
        taken[chosen] += 1
        missing -= len(chosen)
    return taken.astype(int)
