import numpy as np
import pytest
from scipy.optimize import minimize

from mllib.kkt import kkt_residuals


def test_projection_onto_halfspace_is_a_kkt_point():
    """min ½‖x − c‖² s.t. aᵀx ≤ β has x* = c − λa with λ = (aᵀc − β)/‖a‖² when aᵀc > β."""
    a, c, beta = np.array([1.0, 2.0]), np.array([3.0, 3.0]), 1.0
    lam = (a @ c - beta) / (a @ a)
    x = c - lam * a
    r = kkt_residuals(x - c, g=[a @ x - beta], jac_g=a, lam=[lam])
    assert r.max() < 1e-12
    wrong = kkt_residuals(x - c, g=[a @ x - beta], jac_g=a, lam=[-lam])
    assert wrong.stationarity > 1 and wrong.dual_feasibility == pytest.approx(
        lam
    )


def test_each_residual_detects_its_own_violation():
    r = kkt_residuals(
        [1.0, 0.0],
        g=[0.5, -1.0],
        jac_g=np.eye(2),
        lam=[-0.1, 2.0],
        h=[0.25],
        jac_h=[[0.0, 1.0]],
        nu=[0.0],
    )
    assert r.stationarity == pytest.approx(2.0)  # (1 − 0.1, 2)
    assert r.primal_feasibility == pytest.approx(0.5)
    assert r.dual_feasibility == pytest.approx(0.1)
    assert r.complementary_slackness == pytest.approx(2.0)


def test_equality_multipliers_enter_stationarity_with_their_jacobian(rng):
    """min ½‖x‖² s.t. Ax = b: x* = Aᵀ(AAᵀ)⁻¹b, ν* = −(AAᵀ)⁻¹b, so ∇f + Aᵀν* = x* + Aᵀν* = 0."""
    A, b = rng.normal(size=(2, 5)), rng.normal(size=2)
    nu = -np.linalg.solve(A @ A.T, b)
    x = -A.T @ nu
    assert kkt_residuals(x, h=A @ x - b, jac_h=A, nu=nu).max() < 1e-12
    wrong_sign = kkt_residuals(x, h=A @ x - b, jac_h=A, nu=-nu)
    assert wrong_sign.stationarity == pytest.approx(2 * np.abs(x).max())
    infeasible = kkt_residuals(
        x, h=[-0.3, 0.1], jac_h=A, nu=nu
    )  # |h| counts on both sides of 0
    assert infeasible.primal_feasibility == pytest.approx(0.3)


@pytest.mark.parametrize("seed", range(10))
def test_residuals_at_scipy_solution_of_a_small_qp(seed):
    """SLSQP's multipliers satisfy the KKT conditions of random strictly
    convex QPs, feasible by construction (h = Gx₀ + a positive slack). One
    QP alone was luck: SLSQP solved the first one with scipy 1.17 and gave up
    with 1.16, and a third of the old construction's seeds failed."""
    rng = np.random.default_rng(seed)
    P = rng.normal(size=(3, 3))
    P = P @ P.T + np.eye(3)
    q = rng.normal(size=3)
    G = rng.normal(size=(4, 3))
    h = G @ rng.normal(size=3) + rng.uniform(0.1, 1.0, size=4)
    res = minimize(
        lambda x: 0.5 * x @ P @ x + q @ x,
        np.zeros(3),
        jac=lambda x: P @ x + q,
        constraints=[
            {"type": "ineq", "fun": lambda x: h - G @ x, "jac": lambda x: -G}
        ],
        method="SLSQP",
        options={"ftol": 1e-14},
    )
    assert res.success, res.message
    r = kkt_residuals(
        P @ res.x + q, g=G @ res.x - h, jac_g=G, lam=res.multipliers
    )
    # SLSQP's multipliers come from its last QP subproblem: 1e-5 is far above
    # what 200 seeds showed (2e-7) and far below a wrong multiplier's O(1).
    assert r.max() < 1e-5
    wrong = kkt_residuals(
        P @ res.x + q, g=G @ res.x - h, jac_g=G, lam=2 * res.multipliers
    )
    assert wrong.max() > 1e-3 or np.all(res.multipliers < 1e-8)


def test_incomplete_or_misshapen_blocks_are_rejected():
    with pytest.raises(ValueError, match="all three"):
        kkt_residuals([0.0, 0.0], g=[1.0])
    with pytest.raises(ValueError, match="Inconsistent"):
        kkt_residuals(
            [0.0, 0.0], g=[1.0, 2.0], jac_g=np.eye(2).T[:, :1], lam=[0.0, 0.0]
        )
