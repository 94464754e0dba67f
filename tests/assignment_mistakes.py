"""Plausible mistakes, one or two per question: each keeps the right shapes
(the public tests pass) but gets the mathematics wrong (a hidden test must
fail). Each is a replacement in the solutions notebook: (question, what is
wrong, the correct code, the mistaken code)."""

MISTAKES = {
    "gradients-and-duality": [
        (
            "q1",
            "the minimiser left at zero",
            "W_star = cho_solve(cho_factor(X1.T @ X1), X1.T @ Y1)",
            "W_star = np.zeros((4, 2))",
        ),
        (
            "q2",
            "the multiplier's sign flipped",
            "nu = -cho_solve(cho_factor(A @ A.T), b)\n"
            "    return -A.T @ nu, nu",
            "nu = cho_solve(cho_factor(A @ A.T), b)\n    return A.T @ nu, nu",
        ),
        (
            "q3",
            "the constraint always active",
            "lam = max((a @ c - beta) / (a @ a), 0.0)",
            "lam = (a @ c - beta) / (a @ a)",
        ),
    ],
    "ridge-and-model-selection": [
        (
            "q1",
            "the intercept without the x-mean term",
            "w = cho_solve(cho_factor(A), Xc.T @ yc)\n"
            "    return w, y_mean - x_mean @ w",
            "w = cho_solve(cho_factor(A), Xc.T @ yc)\n    return w, y_mean",
        ),
        (
            "q2",
            "the dual system on uncentred data",
            "c = cho_solve(cho_factor(Xc @ Xc.T + lam * np.eye(len(X))), yc)",
            "c = cho_solve(cho_factor(X @ X.T + lam * np.eye(len(X))), y)",
        ),
        (
            "q3",
            "the training error instead of the validation error",
            "errors.append(np.mean((y[valid] - X[valid] @ w - b) ** 2))",
            "errors.append(np.mean((y[train] - X[train] @ w - b) ** 2))",
        ),
    ],
    "kernels-and-svm-duality": [
        (
            "q1",
            "the distance instead of the squared distance",
            "return np.exp(-gamma * np.maximum(sq, 0.0))",
            "return np.exp(-gamma * np.sqrt(np.maximum(sq, 0.0)))",
        ),
        (
            "q2",
            "lambda added to every entry of K",
            "return cho_solve(cho_factor(K + lam * np.eye(len(X))), y)",
            "return np.linalg.solve(K + lam, y)",
        ),
        (
            "q3",
            "the dual without its factor 1/2",
            "dual = np.abs(alpha_y).sum() - 0.5 * w_norm_sq",
            "dual = np.abs(alpha_y).sum() - w_norm_sq",
        ),
    ],
    "logistic-newton-and-auc": [
        (
            "q1",
            "the Hessian without C",
            "return C * (X.T * (p * (1 - p))) @ X + np.eye(X.shape[1])",
            "return (X.T * (p * (1 - p))) @ X + np.eye(X.shape[1])",
        ),
        (
            "q2",
            "the Hessian of C = 1 whatever C",
            "w = w - cho_solve(cho_factor(hessian(w, X, y, C)), g)",
            "w = w - cho_solve(cho_factor(hessian(w, X, y, 1.0)), g)",
        ),
        (
            "q3",
            "ties not counted one half",
            "return float(np.mean((diff > 0) + 0.5 * (diff == 0)))",
            "return float(np.mean(diff > 0))",
        ),
    ],
    "trees-and-boosting": [
        (
            "q1",
            "thresholds between equal values",
            "decrease = np.where(xs[1:] > xs[:-1], decrease, -np.inf)",
            "decrease = np.where(True, decrease, -np.inf)",
        ),
        (
            "q1",
            "an empty node's impurity is not 0",
            "np.where(total[..., 0] > 0, 1.0",
            "np.where(True, 1.0",
        ),
        (
            "q2",
            "the vote without its factor 1/2",
            "alpha = 0.5 * np.log((1 - epsilon) / epsilon)",
            "alpha = np.log((1 - epsilon) / epsilon)",
        ),
        (
            "q2",
            "the error not divided by the total weight",
            "epsilon = float(D @ (h != y) / D.sum())",
            "epsilon = float(D @ (h != y))",
        ),
        (
            "q3",
            "boosting from zero instead of the mean",
            "np.full(len(y), y.mean()), np.full(len(X_new), y.mean())",
            "np.zeros(len(y)), np.zeros(len(X_new))",
        ),
        (
            "q3",
            "trees fitted to y instead of the residuals",
            "tree = DecisionTreeRegressor(max_depth=max_depth).fit(X, y - F)",
            "tree = DecisionTreeRegressor(max_depth=max_depth).fit(X, y)",
        ),
    ],
    "clustering-pca-and-em": [
        (
            "q1",
            "an empty cluster gets the mean of nothing",
            "        if members.any():\n"
            "            new[k] = X[members].mean(axis=0)",
            "        new[k] = X[members].mean(axis=0)",
        ),
        (
            "q1",
            "the objective recorded before the update",
            "        centers = update(X, labels, centers)\n"
            "        objective.append(np.sum((X - centers[labels]) ** 2))",
            "        objective.append(np.sum((X - centers[labels]) ** 2))\n"
            "        centers = update(X, labels, centers)",
        ),
        (
            "q2",
            "no sign convention",
            "return components * signs[:, None], singular[:k] ** 2",
            "return components * np.abs(signs)[:, None], singular[:k] ** 2",
        ),
        (
            "q2",
            "variances divided by n",
            "singular[:k] ** 2 / (len(X) - 1), mean",
            "singular[:k] ** 2 / len(X), mean",
        ),
        (
            "q3",
            "log(sum(exp)) instead of logsumexp",
            "log_norm = logsumexp(log_p, axis=1)",
            "log_norm = np.log(np.sum(np.exp(log_p), axis=1))",
        ),
        (
            "q3",
            "the covariances without reg_covar",
            "covariances[k] += reg_covar * np.eye(X.shape[1])",
            "covariances[k] += 1e-6 * np.eye(X.shape[1])",
        ),
    ],
    "theory-backprop-and-crf": [
        (
            "q1",
            "a two-sided deviation",
            "return float(np.mean(p - test_errors >= epsilon))",
            "return float(np.mean(np.abs(p - test_errors) >= epsilon))",
        ),
        (
            "q1",
            "the two-sided radius",
            "return math.sqrt(math.log(1 / delta) / (2 * n))",
            "return math.sqrt(math.log(2 / delta) / (2 * n))",
        ),
        (
            "q2",
            "log(sum(exp)) instead of logsumexp",
            "log_norm = logsumexp(Z2, axis=1)",
            "log_norm = np.log(np.sum(np.exp(Z2), axis=1))",
        ),
        (
            "q2",
            "no derivative of tanh",
            "D1 = (D2 @ W2.T) * (1 - A1**2)",
            "D1 = D2 @ W2.T",
        ),
        (
            "q3",
            "the forward messages only (filtering, not smoothing)",
            "return np.exp(log_alpha + log_beta - logsumexp(log_alpha[-1]))",
            "return np.exp(\n"
            "        log_alpha - logsumexp(log_alpha, axis=1)[:, None]\n"
            "    )",
        ),
        (
            "q3",
            "the partition function outside log space",
            "return float(logsumexp(log_alpha))",
            "return float(np.log(np.sum(np.exp(log_alpha))))",
        ),
    ],
}

# Mistakes a public test catches: each fails at least one public test of its
# question, and the student must read why in one sentence (in the notebook's
# check and in the grader's feedback) that contains the last string here,
# which names what the test checked.
PUBLIC_MISTAKES = {
    "gradients-and-duality": [
        (
            "q1",
            "the gradient transposed",
            "return X.T @ (X @ W - Y)",
            "return (X @ W - Y).T @ X",
            "the shape of W",
        ),
        (
            "q1",
            "the gradient's sign flipped",
            "return X.T @ (X @ W - Y)",
            "return X.T @ (Y - X @ W)",
            "disagrees with central differences",
        ),
        (
            "q2",
            "x recovered with the wrong sign",
            "return -A.T @ nu, nu",
            "return A.T @ nu, nu",
            "must satisfy the constraints A x = b",
        ),
        (
            "q3",
            "half the step to the boundary",
            "lam = max((a @ c - beta) / (a @ a), 0.0)",
            "lam = max((a @ c - beta) / (a @ a) / 2, 0.0)",
            "must be feasible",
        ),
        (
            "q3",
            "the dual's quadratic term with a plus sign",
            "return -0.5 * lam**2 * (a @ a)",
            "return 0.5 * lam**2 * (a @ a)",
            "weak duality fails",
        ),
    ],
    "ridge-and-model-selection": [
        (
            "q1",
            "w returned as a column",
            "return w, y_mean - x_mean @ w",
            "return w[:, None], y_mean - x_mean @ w",
            "must return w of shape (5,)",
        ),
        (
            "q1",
            "no intercept",
            "return w, y_mean - x_mean @ w",
            "return w, 0.0",
            "the intercept tends to mean(y)",
        ),
        (
            "q3",
            "the index of the best lambda instead of its value",
            "best_lam = lams[np.argmin(cv_errors)]",
            "best_lam = np.argmin(cv_errors)",
            "best_lam must be one of the values in lams",
        ),
    ],
    "kernels-and-svm-duality": [
        (
            "q1",
            "the Gram matrix transposed",
            "return np.exp(-gamma * np.maximum(sq, 0.0))",
            "return np.exp(-gamma * np.maximum(sq, 0.0)).T",
            "must have shape (40, 7)",
        ),
        (
            "q1",
            "the cross term of the squared distance with a plus sign",
            "- 2 * X @ Z.T",
            "+ 2 * X @ Z.T",
            "k(x, x) = 1",
        ),
        (
            "q2",
            "predictions at the training points",
            "return gaussian_gram(X_new, X_train, gamma) @ c",
            "return gaussian_gram(X_train, X_train, gamma) @ c",
            "must return 3 predictions",
        ),
        (
            "q3",
            "the dual's quadratic term with a plus sign",
            "dual = np.abs(alpha_y).sum() - 0.5 * w_norm_sq",
            "dual = np.abs(alpha_y).sum() + 0.5 * w_norm_sq",
            "weak duality fails",
        ),
    ],
    "logistic-newton-and-auc": [
        (
            "q1",
            "the log-loss not summed",
            "return C * np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * w @ w",
            "return C * (np.logaddexp(0.0, z) - y * z) + 0.5 * w @ w",
            "objective(w, X, y, C) must return one number",
        ),
        (
            "q1",
            "the gradient without the penalty's term",
            "return C * X.T @ (expit(X @ w) - y) + w",
            "return C * X.T @ (expit(X @ w) - y)",
            "disagrees with central differences",
        ),
        (
            "q2",
            "the Newton step added",
            "w = w - cho_solve(",
            "w = w + cho_solve(",
            "the number of iterations",
        ),
        (
            "q3",
            "negatives scored above positives",
            "diff = pos[:, None] - neg[None, :]",
            "diff = neg[:, None] - pos[None, :]",
            "auc_by_pairs must return 1.0",
        ),
    ],
    "trees-and-boosting": [
        (
            "q1",
            "the squares summed over the rows",
            "1.0 - np.sum(shares**2, axis=-1)",
            "1.0 - np.sum(shares**2, axis=0)",
            "gini raised ValueError",
        ),
        (
            "q1",
            "one plus the sum of squares",
            "1.0 - np.sum(shares**2, axis=-1)",
            "1.0 + np.sum(shares**2, axis=-1)",
            "Gini impurity 0.5",
        ),
        (
            "q2",
            "the new weights not normalised",
            "return epsilon, alpha, D_next / D_next.sum()",
            "return epsilon, alpha, D_next",
            "the new weights must sum to one",
        ),
        (
            "q3",
            "the last training error only",
            "return F, F_new, train_mse",
            "return F, F_new, train_mse[-1]",
            "must return 10 training errors",
        ),
    ],
    "clustering-pca-and-em": [
        (
            "q1",
            "labels counted from 1",
            "return np.argmin(squared, axis=1)",
            "return np.argmin(squared, axis=1) + 1",
            "labels in {0, 1, 2}",
        ),
        (
            "q1",
            "the last value of the objective only",
            "return centers, labels, np.array(objective)",
            "return centers, labels, objective[-1]",
            "the history of the objective",
        ),
        (
            "q2",
            "the axes scaled by their singular values",
            "return components * signs[:, None], singular[:k] ** 2",
            "return components * singular[:k, None], singular[:k] ** 2",
            "must be orthonormal rows",
        ),
        (
            "q3",
            "responsibilities not normalised",
            "return np.exp(log_p - log_norm[:, None])",
            "return np.exp(log_p)",
            "each row of responsibilities must sum to 1",
        ),
    ],
    "theory-backprop-and-crf": [
        (
            "q1",
            "the radius growing with n",
            "return math.sqrt(math.log(1 / delta) / (2 * n))",
            "return math.sqrt(math.log(1 / delta) * n / 2)",
            "the radius must shrink as n grows",
        ),
        (
            "q1",
            "a count instead of a frequency",
            "return float(np.mean(p - test_errors >= epsilon))",
            "return float(np.sum(p - test_errors >= epsilon))",
            "a fraction between 0 and 1",
        ),
        (
            "q2",
            "the biases' gradients summed over the wrong axis",
            "D1.sum(axis=0), dW2, D2.sum(axis=0)",
            "D1.sum(axis=1), dW2, D2.sum(axis=1)",
            "the gradients must have the shapes of W1, b1, W2 and b2",
        ),
        (
            "q3",
            "marginals not normalised",
            "return np.exp(log_alpha + log_beta - logsumexp(log_alpha[-1]))",
            "return np.exp(log_alpha + log_beta)",
            "must be a distribution at every position",
        ),
    ],
}
