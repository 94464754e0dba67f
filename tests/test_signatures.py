"""Every public mllib class with a scikit-learn namesake has scikit-learn's
constructor: the same parameters, the same defaults, and scikit-learn's
positional parameters in scikit-learn's order.

A default that differs from scikit-learn's is a silent wrong answer (issue
24): code written for scikit-learn runs with mllib and gives other numbers.
So the comparison is mechanical, over every class ``pkgutil`` finds in both
packages, and each difference is either fixed or listed in ``DIFFERENCES``
below with its reason. The test fails on a difference that is not listed,
and on a listed one that no longer exists (so the table stays true).

Three kinds of difference are listed:

* ``"absent"``: a scikit-learn parameter mllib does not have. Code that
  never sets it gets scikit-learn's behaviour (the reason says why: mllib
  does what the default does); code that sets it fails loudly, with
  Python's ``TypeError`` in the constructor and scikit-learn's
  ``ValueError`` in ``set_params`` (checked below).
* ``"extra"``: an mllib parameter scikit-learn does not have; its default
  must reproduce scikit-learn's behaviour.
* ``"default"``: both have the parameter with different defaults; the
  reason says why the numbers still agree, or marks the difference OPEN
  where they do not (each such row names the issue item that closes it).

Methods are compared too: every method both classes have takes
scikit-learn's argument names, and scikit-learn's positions (so
``pca.inverse_transform(X=Z)`` works in both).
"""

import importlib
import inspect
import numbers
import pkgutil

import pytest
import sklearn

import mllib

# --- Reasons shared by many rows ------------------------------------------

RUNTIME = (
    "how the work is run, cached or printed, not what is computed: mllib "
    "runs serially, prints nothing and keeps no cache"
)
NO_COPY = (
    "mllib never modifies the caller's arrays (DEVELOPERS.md), which is "
    "what the default copy=True guarantees"
)
NO_WARM_START = (
    "mllib always fits from scratch, as warm_start=False does; warm starts "
    "are issue 24 items 4 and 6"
)
NO_SAMPLE_WEIGHTS = (
    "only acts through sample weights or class weights, which this mllib "
    "estimator does not take (issue 24 item 7); the default does nothing"
)
EXACT_NEIGHBOURS = (
    "chooses the search structure (tree, brute force) or its tuning; every "
    "choice returns the same exact neighbours"
)
EUCLIDEAN_ONLY = (
    "mllib measures Euclidean distance only, which is the default "
    "(minkowski with p=2, or 'euclidean')"
)
GROWTH_DEFAULTS = (
    "a stopping or pruning rule whose default never acts (no limit, no "
    "minimum decrease, no pruning, no monotonic constraint); trees grow "
    "until the parameters mllib does have stop them"
)
BEST_SPLITTER = (
    "mllib always takes the best split, scikit-learn's default splitter='best'"
)
NO_EARLY_STOPPING = (
    "early stopping on a held-out fraction; off by default "
    "(early_stopping=False / n_iter_no_change=None), and mllib never holds "
    "data out"
)
OTHER_SOLVERS_ONLY = (
    "only used by scikit-learn's iterative or randomized solvers, which its "
    "default solver choice does not use on dense data"
)
CONVEX_SOLVER = (
    "picks the algorithm for a strictly convex objective with one "
    "minimiser; mllib's solver reaches the same minimiser (to its "
    "tolerance), so the numbers agree to the solvers' stopping rules"
)
UNOFFERED_LOSS_OR_PENALTY = (
    "only used by penalties or losses mllib's estimator does not offer "
    "(elastic-net mixing, epsilon-insensitive or Huber losses); the "
    "defaults (l2 penalty, squared loss) do not use it"
)

# --- The table ------------------------------------------------------------


def absent(reason):
    return "absent", reason


def extra(reason):
    return "extra", reason


def default(reason):
    return "default", reason


#: (class name, parameter) -> (kind, reason).
DIFFERENCES = {
    # clustering
    ("AgglomerativeClustering", "compute_distances"): absent(
        "only stores distances_ (scikit-learn's default does not); the "
        "labels do not depend on it",
    ),
    ("AgglomerativeClustering", "memory"): absent(RUNTIME),
    ("DBSCAN", "algorithm"): absent(EXACT_NEIGHBOURS),
    ("DBSCAN", "leaf_size"): absent(EXACT_NEIGHBOURS),
    ("DBSCAN", "metric"): absent(EUCLIDEAN_ONLY),
    ("DBSCAN", "metric_params"): absent(EUCLIDEAN_ONLY),
    ("DBSCAN", "p"): absent(EUCLIDEAN_ONLY),
    ("DBSCAN", "n_jobs"): absent(RUNTIME),
    ("KMeans", "algorithm"): absent(
        "mllib runs Lloyd's algorithm, scikit-learn's default 'lloyd' "
        "('elkan' reaches the same fixed point with fewer distances)",
    ),
    ("KMeans", "copy_x"): absent(NO_COPY),
    ("KMeans", "verbose"): absent(RUNTIME),
    ("GaussianMixture", "verbose"): absent(RUNTIME),
    ("GaussianMixture", "verbose_interval"): absent(RUNTIME),
    ("GaussianMixture", "warm_start"): absent(NO_WARM_START),
    ("PCA", "copy"): absent(NO_COPY),
    ("PCA", "iterated_power"): absent(
        "only for the randomized solver, which mllib does not have: where "
        "scikit-learn's svd_solver='auto' would pick it (large data, few "
        "components), mllib's 'auto' computes the exact SVD it approximates",
    ),
    ("PCA", "n_oversamples"): absent(
        "only for the randomized solver" + "; see iterated_power",
    ),
    ("PCA", "power_iteration_normalizer"): absent(
        "only for the randomized solver; see iterated_power",
    ),
    ("PCA", "random_state"): absent(
        "only for the randomized and ARPACK solvers; the exact SVD draws "
        "nothing",
    ),
    ("PCA", "tol"): absent(
        "only for the ARPACK solver, which mllib " + "does not have",
    ),
    # dummy estimators
    ("DummyClassifier", "constant"): absent(
        "only for strategy='constant', which mllib rejects with a "
        "ValueError (it offers 'prior' and 'most_frequent')",
    ),
    ("DummyClassifier", "random_state"): absent(
        "only for the random strategies 'stratified' and 'uniform', which "
        "mllib rejects with a ValueError",
    ),
    # ensembles
    ("BaggingClassifier", "n_jobs"): absent(RUNTIME),
    ("BaggingClassifier", "verbose"): absent(RUNTIME),
    ("BaggingRegressor", "n_jobs"): absent(RUNTIME),
    ("BaggingRegressor", "verbose"): absent(RUNTIME),
    ("RandomForestClassifier", "class_weight"): absent(
        NO_SAMPLE_WEIGHTS,
    ),
    ("RandomForestClassifier", "min_impurity_decrease"): absent(
        GROWTH_DEFAULTS,
    ),
    ("RandomForestClassifier", "min_weight_fraction_leaf"): absent(
        GROWTH_DEFAULTS,
    ),
    ("RandomForestClassifier", "monotonic_cst"): absent(GROWTH_DEFAULTS),
    ("RandomForestClassifier", "n_jobs"): absent(RUNTIME),
    ("RandomForestClassifier", "verbose"): absent(RUNTIME),
    ("RandomForestRegressor", "min_impurity_decrease"): absent(
        GROWTH_DEFAULTS,
    ),
    ("RandomForestRegressor", "min_weight_fraction_leaf"): absent(
        GROWTH_DEFAULTS,
    ),
    ("RandomForestRegressor", "monotonic_cst"): absent(GROWTH_DEFAULTS),
    ("RandomForestRegressor", "n_jobs"): absent(RUNTIME),
    ("RandomForestRegressor", "verbose"): absent(RUNTIME),
    **{
        (boosting, parameter): absent(reason)
        for boosting in (
            "GradientBoostingClassifier",
            "GradientBoostingRegressor",
        )
        for parameter, reason in {
            "min_impurity_decrease": GROWTH_DEFAULTS,
            "min_weight_fraction_leaf": GROWTH_DEFAULTS,
            "criterion": (
                "deprecated in scikit-learn 1.9, where it 'has no "
                "effect'; mllib's trees split on the squared error"
            ),
            "init": (
                "the default None starts from the loss's best constant "
                "(scikit-learn's DummyRegressor or DummyClassifier: the "
                "mean, the loss's quantile, the class priors), as mllib "
                "always does"
            ),
            "n_iter_no_change": NO_EARLY_STOPPING,
            "validation_fraction": NO_EARLY_STOPPING,
            "tol": "only used with early stopping; " + NO_EARLY_STOPPING,
            "verbose": RUNTIME,
            "warm_start": NO_WARM_START,
        }.items()
    },
    # trees
    **{
        (tree, parameter): absent(reason)
        for tree in ("DecisionTreeClassifier", "DecisionTreeRegressor")
        for parameter, reason in {
            "min_impurity_decrease": GROWTH_DEFAULTS,
            "min_weight_fraction_leaf": GROWTH_DEFAULTS,
            "monotonic_cst": GROWTH_DEFAULTS,
            "splitter": BEST_SPLITTER,
        }.items()
    },
    ("DecisionTreeClassifier", "class_weight"): absent(NO_SAMPLE_WEIGHTS),
    # linear models
    ("LinearRegression", "copy_X"): absent(NO_COPY),
    ("LinearRegression", "n_jobs"): absent(RUNTIME),
    ("LinearRegression", "positive"): absent(
        "a sign constraint; the default False (unconstrained least "
        "squares) is what mllib solves",
    ),
    ("Ridge", "copy_X"): absent(NO_COPY),
    ("Ridge", "max_iter"): absent(OTHER_SOLVERS_ONLY),
    ("Ridge", "tol"): absent(OTHER_SOLVERS_ONLY),
    ("Ridge", "random_state"): absent(OTHER_SOLVERS_ONLY),
    ("Ridge", "positive"): absent(
        "a sign constraint; the default False is what mllib solves",
    ),
    **{
        (model, parameter): absent(reason)
        for model in ("Lasso", "ElasticNet")
        for parameter, reason in {
            "copy_X": NO_COPY,
            "precompute": (
                "whether to precompute the Gram matrix, a speed choice "
                "that gives the same coordinate updates"
            ),
            "selection": (
                "mllib updates coordinates cyclically, the default "
                "selection='cyclic'"
            ),
            "random_state": (
                "only for selection='random'; the cyclic updates mllib "
                "makes draw nothing"
            ),
        }.items()
    },
    ("LogisticRegression", "solver"): default(
        "mllib's default 'newton' (Newton's method with a Cholesky solve, "
        "the book's IRLS) and scikit-learn's 'lbfgs' minimise the same "
        "strictly convex objective, which has one minimiser; Newton "
        "reaches it to rounding, lbfgs to tol, so the coefficients agree "
        "to scikit-learn's own stopping rule. solver='lbfgs' is offered "
        "too, and 'newton' runs proximal Newton for l1_ratio > 0, where "
        "scikit-learn needs 'saga' (which mllib has too), and 'liblinear' "
        "minimises LIBLINEAR's objective (penalised intercept); the solvers "
        "mllib lacks raise a "
        "ValueError (the agreement: "
        "test_logistic.py::test_default_settings_agree_with_sklearn_"
        "defaults)",
    ),
    ("LogisticRegression", "dual"): absent(
        "the dual formulation of liblinear; the default False (the primal) "
        "is what mllib solves",
    ),
    ("LogisticRegression", "n_jobs"): absent(RUNTIME),
    ("LogisticRegression", "verbose"): absent(RUNTIME),
    ("PoissonRegressor", "solver"): absent(CONVEX_SOLVER),
    ("PoissonRegressor", "verbose"): absent(RUNTIME),
    ("PoissonRegressor", "warm_start"): absent(NO_WARM_START),
    ("SGDRegressor", "batch_size"): extra(
        "minibatch size; the default 1 is scikit-learn's per-sample update",
    ),
    ("SGDRegressor", "loss"): absent(
        "mllib's SGDRegressor minimises the squared loss, the default "
        "'squared_error'",
    ),
    ("SGDRegressor", "l1_ratio"): absent(UNOFFERED_LOSS_OR_PENALTY),
    ("SGDRegressor", "epsilon"): absent(UNOFFERED_LOSS_OR_PENALTY),
    ("SGDRegressor", "shuffle"): absent(
        "mllib shuffles the samples every epoch, as the default "
        "shuffle=True does (with its own generator: runs agree at "
        "convergence, not step by step)",
    ),
    ("SGDRegressor", "average"): absent(
        "iterate averaging; the default False returns the last iterate, "
        "as mllib does",
    ),
    ("SGDRegressor", "early_stopping"): absent(NO_EARLY_STOPPING),
    ("SGDRegressor", "validation_fraction"): absent(NO_EARLY_STOPPING),
    ("SGDRegressor", "verbose"): absent(RUNTIME),
    ("SGDRegressor", "warm_start"): absent(NO_WARM_START),
    # model selection and meta-estimators
    ("GridSearchCV", "refit"): absent(
        "mllib always refits the best candidate on all the data, as the "
        "default refit=True does",
    ),
    ("GridSearchCV", "error_score"): absent(
        "mllib lets a failing fit raise (loud), where scikit-learn's "
        "default scores it NaN with a warning; no number differs silently",
    ),
    ("GridSearchCV", "return_train_score"): absent(
        "whether cv_results_ also holds training scores; the test scores "
        "and the chosen candidate do not depend on it",
    ),
    ("GridSearchCV", "n_jobs"): absent(RUNTIME),
    ("GridSearchCV", "pre_dispatch"): absent(RUNTIME),
    ("GridSearchCV", "verbose"): absent(RUNTIME),
    ("SequentialFeatureSelector", "n_jobs"): absent(RUNTIME),
    ("OneVsOneClassifier", "n_jobs"): absent(RUNTIME),
    ("OneVsRestClassifier", "n_jobs"): absent(RUNTIME),
    ("OneVsRestClassifier", "verbose"): absent(RUNTIME),
    ("OutputCodeClassifier", "n_jobs"): absent(RUNTIME),
    ("OutputCodeClassifier", "code_book"): extra(
        "a code book of one's own; the default None draws a random one, "
        "as scikit-learn always does",
    ),
    ("OutputCodeClassifier", "decoding"): extra(
        "the decoding rule; the default 'euclidean' is scikit-learn's "
        "(its only one)",
    ),
    # naive Bayes
    **{
        (model, "force_alpha"): absent(
            "mllib uses alpha as given, as the default force_alpha=True "
            "does (False would raise a small alpha to 1e-10)",
        )
        for model in ("BernoulliNB", "CategoricalNB", "MultinomialNB")
    },
    # neighbours
    **{
        (model, parameter): absent(reason)
        for model in ("KNeighborsClassifier", "KNeighborsRegressor")
        for parameter, reason in {
            "metric": EUCLIDEAN_ONLY,
            "metric_params": EUCLIDEAN_ONLY,
            "p": EUCLIDEAN_ONLY,
            "n_jobs": RUNTIME,
        }.items()
    },
    # preprocessing
    ("PolynomialFeatures", "order"): absent(
        "the memory layout of the output array; its values do not depend "
        "on it",
    ),
    ("StandardScaler", "copy"): absent(NO_COPY),
    # SVM
    ("SVC", "probability"): default(
        "scikit-learn 1.9 deprecated probability (default 'deprecated', "
        "which means False); mllib's default False is the same",
    ),
}

#: Arguments for the parameters without defaults, to build instances.
REQUIRED_ARGUMENTS = {
    "estimator": lambda: mllib.dummy.DummyClassifier(),
    "param_grid": dict,
    "k1": lambda: mllib.gaussian_process.kernels.RBF(),
    "k2": lambda: mllib.gaussian_process.kernels.RBF(),
}


def public_modules(package, skip=()):
    """``package`` and its submodules, except private ones (a name part
    starting with ``_``), tests and ``skip``."""
    yield package
    for info in pkgutil.walk_packages(
        package.__path__, package.__name__ + "."
    ):
        parts = info.name.split(".")[1:]
        if any(p.startswith("_") or p in ("tests",) + skip for p in parts):
            continue
        try:
            yield importlib.import_module(info.name)
        except ImportError:  # an optional dependency scikit-learn lacks
            continue


def public_classes(package, skip=()):
    """{name: set of classes}: the public classes each public module of
    ``package`` defines or exports."""
    found = {}
    for module in public_modules(package, skip):
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and not name.startswith("_")
                and value.__module__.split(".")[0] == package.__name__
            ):
                found.setdefault(name, set()).add(value)
    return found


def counterparts():
    """{mllib class: scikit-learn class of the same name}, for every public
    mllib class whose name scikit-learn's public modules use."""
    theirs = public_classes(sklearn, skip=("externals", "experimental"))
    pairs = {}
    for name, classes in public_classes(mllib).items():
        for ours in classes:
            candidates = theirs.get(name, set())
            # the same subpackage first (gaussian_process.kernels.RBF)
            same_place = {
                c
                for c in candidates
                if c.__module__.split(".")[1] == ours.__module__.split(".")[1]
            }
            # abstract bases (BaseDecisionTree, Kernel) are never built
            chosen = {
                c
                for c in same_place or candidates
                if not inspect.isabstract(c)
            }
            assert len(chosen) <= 1, (name, chosen)
            if chosen:
                pairs[ours] = chosen.pop()
    return pairs


def parameters(cls):
    return {
        name: p
        for name, p in inspect.signature(cls).parameters.items()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    }


def same_default(a, b):
    """Equal defaults: the same type and value, or numbers of equal value
    (``1`` and ``1.0``), or the same object (classes, functions)."""
    if a is b:
        return True
    if isinstance(a, numbers.Number) and isinstance(b, numbers.Number):
        if isinstance(a, bool) or isinstance(b, bool):
            return type(a) is type(b) and a == b
        return a == b
    if type(a) is not type(b) or callable(a):
        return False
    return a == b


def differences(pairs):
    """{(class name, parameter): kind} over all pairs. Where scikit-learn
    has no default (the argument is required) code written for it always
    passes one, so mllib's default, if any, never decides a result."""
    found = {}
    for ours, theirs in pairs.items():
        mine, other = parameters(ours), parameters(theirs)
        for name in other.keys() - mine.keys():
            found[ours.__name__, name] = "absent"
        for name in mine.keys() - other.keys():
            found[ours.__name__, name] = "extra"
        for name in mine.keys() & other.keys():
            theirs_default = other[name].default
            if theirs_default is inspect.Parameter.empty:
                continue
            if not same_default(mine[name].default, theirs_default):
                found[ours.__name__, name] = "default"
    return found


PAIRS = counterparts()


def test_the_comparison_sees_the_estimators_it_should():
    """A guard on the discovery itself: a broken walk would pass vacuously."""
    names = {cls.__name__ for cls in PAIRS}
    for expected in (
        "GaussianProcessRegressor",
        "RBF",
        "SVC",
        "LogisticRegression",
        "KMeans",
        "MLPClassifier",
        "KFold",
        "OutputCodeClassifier",
    ):
        assert expected in names
    assert len(PAIRS) >= 50


def test_every_difference_from_scikit_learn_is_listed_with_a_reason():
    found = differences(PAIRS)
    listed = {key: kind for key, (kind, _) in DIFFERENCES.items()}
    unexplained = {k: v for k, v in found.items() if k not in listed}
    assert not unexplained, (
        "constructor differences from scikit-learn that DIFFERENCES does "
        "not explain (fix them, or list them with a reason): "
        f"{sorted(unexplained.items())}"
    )
    stale = sorted(set(listed) - set(found))
    assert not stale, f"listed differences that no longer exist: {stale}"
    wrong_kind = {
        k: (listed[k], found[k]) for k in found if listed[k] != found[k]
    }
    assert not wrong_kind, wrong_kind
    for key, (_, reason) in DIFFERENCES.items():
        assert len(reason) > 40, key


@pytest.mark.parametrize(
    "ours",
    sorted(PAIRS, key=lambda c: c.__module__ + c.__name__),
    ids=lambda c: c.__name__,
)
def test_scikit_learns_positional_parameters_come_first_in_its_order(ours):
    """Where scikit-learn takes arguments by position (``SVC`` takes none,
    ``KMeans`` takes ``n_clusters``), mllib reads the same positions as the
    same parameters (``LogisticRegression("l2")`` must not set ``C``)."""
    theirs, mine = positional(PAIRS[ours]), positional(ours)
    # a call scikit-learn accepts either means the same in mllib or, where
    # mllib takes fewer arguments by position, raises a TypeError
    shared = min(len(theirs), len(mine))
    assert mine[:shared] == theirs[:shared]


def positional(cls):
    """The names of the parameters ``cls`` (or a function) accepts by
    position, in order."""
    return [
        name
        for name, p in parameters(cls).items()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]


def build(cls):
    required = [
        name
        for name, p in parameters(cls).items()
        if p.default is inspect.Parameter.empty
    ]
    return cls(**{name: REQUIRED_ARGUMENTS[name]() for name in required})


ABSENT = sorted(k for k, (kind, _) in DIFFERENCES.items() if kind == "absent")


@pytest.mark.parametrize("name, parameter", ABSENT)
def test_a_parameter_mllib_lacks_fails_loudly_when_set(name, parameter):
    (ours,) = [cls for cls in PAIRS if cls.__name__ == name]
    value = parameters(PAIRS[ours])[parameter].default
    with pytest.raises(TypeError, match=parameter):
        ours(**{parameter: value})
    with pytest.raises(ValueError, match=parameter):
        build(ours).set_params(**{parameter: value})


# --- Methods --------------------------------------------------------------


def shared_methods(ours, theirs):
    """{name: (mllib's, scikit-learn's)}: the public methods both classes
    have (properties and nested classes excluded)."""
    found = {}
    for name in dir(ours):
        if name.startswith("_") or isinstance(
            inspect.getattr_static(ours, name), property
        ):
            continue
        mine, other = getattr(ours, name), getattr(theirs, name, None)
        if callable(mine) and callable(other) and not inspect.isclass(mine):
            found[name] = mine, other
    return found


METHOD_PAIRS = sorted(
    (ours.__name__, name, mine, other)
    for ours, theirs in PAIRS.items()
    for name, (mine, other) in shared_methods(ours, theirs).items()
)


def test_the_method_comparison_sees_the_methods_it_should():
    names = {(cls, name) for cls, name, _, _ in METHOD_PAIRS}
    for expected in (
        ("PCA", "inverse_transform"),
        ("PCA", "transform"),
        ("StandardScaler", "inverse_transform"),
        ("SGDRegressor", "fit"),
        ("MLPClassifier", "predict_proba"),
    ):
        assert expected in names
    assert len(names) >= 300


@pytest.mark.parametrize(
    "mine, other",
    [pair[2:] for pair in METHOD_PAIRS],
    ids=[f"{cls}.{name}" for cls, name, _, _ in METHOD_PAIRS],
)
def test_methods_take_scikit_learns_argument_names_and_positions(mine, other):
    """Code written for scikit-learn passes method arguments by name
    (``pca.inverse_transform(X=Z)``, ``fit(X, y, sample_weight=w)``) or by
    position: every argument an mllib method takes has the name
    scikit-learn's method gives it, and the arguments mllib reads by
    position are scikit-learn's, in its order. An argument scikit-learn has
    and mllib lacks then fails loudly (a ``TypeError``), never silently.
    Where scikit-learn's takes ``**params`` (``ElasticNet.path`` passes
    ``max_iter`` and ``tol`` on to its solver that way), mllib may name
    them."""
    takes_any = any(
        p.kind == p.VAR_KEYWORD
        for p in inspect.signature(other).parameters.values()
    )
    assert takes_any or set(parameters(mine)) <= set(parameters(other))
    theirs, ours = positional(other), positional(mine)
    shared = min(len(theirs), len(ours))
    assert ours[:shared] == theirs[:shared]
