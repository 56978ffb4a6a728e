"""The thermal coupling's Jacobian by the implicit function theorem against differences of Q.

The coupling's rows are differentiated through the exchanger's root
(``dQ/dx = -(dUA_z/dx) / (dUA_z/dQ)``, :mod:`workbench.components.exchangers.zones.coupled_profile`); here every
column is compared with a central difference of the residuals themselves, each of which solves
the root again, on the three cascade examples (one fluid; R744 under R290; R744 under R717).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import workbench.components.exchangers.zones.coupled_profile as coupled_profile
from workbench.components.base import Component
from workbench.components.exchangers.zones.counterflow import find_root
from workbench.components.exchangers.zones.coupled_jacobian import (
    PINCHED,
    REUSE_S,
    conductance_tangents,
    coupled_sensitivity,
    evaluated_near,
    pinch_sensitivity,
)
from workbench.components.exchangers.zones.coupled_profile import CoupledProfile
from workbench.solver import prepare, solve
from workbench.solver.couplings import ThermalCoupling
from workbench.solver.start.initial import initial_guess

CASCADES = ["cascade_v2", "r744_r290_cascade_v2", "r744_r717_cascade_v2"]


def _example(name: str) -> dict:
    with open(f"examples/scenarios/{name}.json") as fh:
        return json.load(fh)


def _coupling(system) -> ThermalCoupling:
    return next(b for b in system.blocks if isinstance(b, ThermalCoupling))


def _shifted(coupling: ThermalCoupling, x: np.ndarray, shift: float) -> np.ndarray:
    """``x`` with the hot inlet enthalpy and the cold mass flow moved (away from the solution)."""
    x = x.copy()
    x[coupling.hot.ports["inlet"].h] *= 1.0 + shift
    x[coupling.cold.ports["inlet"].m] *= 1.0 - shift
    return x


def _profile(coupling: ThermalCoupling, x: np.ndarray) -> CoupledProfile:
    h, c = coupling.hot.port(x, "inlet"), coupling.cold.port(x, "inlet")
    return CoupledProfile(
        coupling.hot.fluid,
        coupling.cold.fluid,
        (h.p, h.h, h.m),
        (c.p, c.h, c.m),
        float(coupling.config.efficiency),
    )


@pytest.mark.parametrize("shift", [0.0, 0.02])
@pytest.mark.parametrize("name", CASCADES)
def test_implicit_jacobian_matches_central_differences_of_the_residuals(name, shift):
    doc = _example(name)
    result = solve(doc)
    assert result.converged
    system = prepare(doc)
    coupling = _coupling(system)
    x = _shifted(coupling, result.x, shift)
    f0 = coupling.residuals(x)
    entries = coupling.implicit_jacobian(x)
    assert entries is not None  # neither pinched nor without heat flow: the analytic block
    analytic: dict[tuple[int, int], float] = {}
    for r, c, v in entries:
        analytic[(r, c)] = analytic.get((r, c), 0.0) + v
    assert coupling.jacobian(x, f0, system.step) == entries
    compared = 0
    for col in coupling.local_vars:
        d = 1e-6 * max(abs(x[col]), 1e-3 * system.var_scale[col])
        xp, xm = x.copy(), x.copy()
        xp[col] += d
        xm[col] -= d
        numeric = (coupling.residuals(xp) - coupling.residuals(xm)) / (2 * d)
        for row in (0, 1):
            got, expected = analytic.get((row, col), 0.0), numeric[row]
            # in J/kg per typical change of the unknown; 1e-6 J/kg is below the differences' noise
            typical = system.var_scale[col]
            assert got * typical == pytest.approx(expected * typical, rel=1e-6, abs=1e-6), (
                row,
                system.var_names[col],
            )
            compared += abs(expected) > 0.0
    assert compared >= 12  # both rows depend on both inlets' m, p, h and their own outlet h


def test_at_the_pinch_the_derivatives_are_those_of_the_pinch_limit():
    # the cascade's starting point is pinched: Q within 1e-9 of Q_max
    doc = _example("cascade_v2")
    system = prepare(doc)
    coupling = _coupling(system)
    x = initial_guess(system)
    flow = coupling.heat_flow(x)
    assert flow.q > (1.0 - PINCHED) * flow.q_max
    assert coupling.implicit_jacobian(x) is not None
    assert coupling._linear is not None
    dq = coupling._linear[2]
    for i, col in enumerate(coupling._inlet_cols()):
        d = 1e-6 * abs(x[col])
        xp, xm = x.copy(), x.copy()
        xp[col] += d
        xm[col] -= d
        numeric = (coupling.heat_flow(xp).q - coupling.heat_flow(xm).q) / (2 * d)
        typical = system.var_scale[col]
        # Q_max - Q (< 1e-9 Q_max) moves too: its share of the derivative is below 1e-3 of Q's
        assert dq[i] * typical == pytest.approx(numeric * typical, rel=1e-3, abs=1e-3 * flow.q)


def test_the_cold_limited_pinch_derivatives_are_those_of_q_max():
    # a small cold stream: the limit is the cold outlet reaching the hot inlet temperature
    doc = _example("cascade_v2")
    result = solve(doc)
    system = prepare(doc)
    coupling = _coupling(system)
    x = result.x.copy()
    x[coupling.cold.ports["inlet"].m] *= 0.05
    prof = _profile(coupling, x)
    assert not prof.hot_limits
    dq = pinch_sensitivity(prof)
    assert dq is not None
    # the exchanger is pinched there: the coupling's block takes these derivatives
    flow = coupling.heat_flow(x)
    assert flow.q >= (1.0 - PINCHED) * flow.q_max
    assert coupling.implicit_jacobian(x) is not None
    assert coupling._linear is not None
    assert coupling._linear[2] == pytest.approx(dq, rel=1e-12)
    for i, col in enumerate(coupling._inlet_cols()):
        d = 1e-6 * abs(x[col])
        xp, xm = x.copy(), x.copy()
        xp[col] += d
        xm[col] -= d
        numeric = (_profile(coupling, xp).q_max - _profile(coupling, xm).q_max) / (2 * d)
        typical = system.var_scale[col]
        assert dq[i] * typical == pytest.approx(numeric * typical, rel=1e-6, abs=1e-6), i


@pytest.mark.parametrize("name", CASCADES)
def test_the_implicit_jacobian_runs_no_root_find_per_column(name, monkeypatch):
    doc = _example(name)
    result = solve(doc)
    system = prepare(doc)
    coupling = _coupling(system)
    x = result.x.copy()
    f0 = coupling.residuals(x)
    roots: list[str] = []
    newton, brent = CoupledProfile.solve, coupled_profile.bracketed_root

    def counted_newton(self, *args):
        roots.append("newton")
        return newton(self, *args)

    def counted_brent(*args):
        roots.append("brent")
        return brent(*args)

    monkeypatch.setattr(CoupledProfile, "solve", counted_newton)
    monkeypatch.setattr(coupled_profile, "bracketed_root", counted_brent)
    fluids = system.all_fluids()
    before = sum(f.stats.calls for f in fluids)
    coupling.jacobian(x, f0, system.step)
    implicit_calls = sum(f.stats.calls for f in fluids) - before
    assert roots == []  # the root at x is remembered; no column solves it again
    # one derivative per cut and per inlet, the saturation slopes of both pressures, and four
    # to six per sub-cut of a curved segment (dT/dh and dT/dp on both sides, and the backends'
    # own derivative calls)
    q = coupling.heat_flow(x).q
    subs = sum(c.kind == "sub" for c in _profile(coupling, x).cuts(q))
    assert implicit_calls <= 40 + 6 * subs
    before = sum(f.stats.calls for f in fluids)
    Component.jacobian(coupling, x, f0, system.step)  # type: ignore[arg-type]
    assert roots.count("newton") >= 6  # differences: a root per column
    assert 2 * implicit_calls < sum(f.stats.calls for f in fluids) - before


@pytest.mark.parametrize("shift", [0.0, 0.01, -0.01])
@pytest.mark.parametrize("name", CASCADES)
def test_the_newton_root_is_the_bracketed_searchs_root(name, shift):
    doc = _example(name)
    result = solve(doc)
    system = prepare(doc)
    coupling = _coupling(system)
    x = _shifted(coupling, result.x, shift)
    ua = float(coupling.config.ua)
    prof = _profile(coupling, x)
    q = prof.solve(ua, None)
    assert q is not None

    def g(q: float) -> float:
        if q >= prof.q_max:
            return 0.5
        total = prof.conductance(q)[0]
        return 0.5 if np.isinf(total) else total / (total + ua) - 0.5

    assert q == pytest.approx(find_root(g, prof.q_max, None), rel=1e-10)
    assert prof.conductance(q)[0] == pytest.approx(ua, rel=1e-9)
    assert coupling.heat_flow(x).q == pytest.approx(q, rel=1e-10)  # from a predicted start


@pytest.mark.parametrize("name", CASCADES)
def test_cascade_results_are_those_of_the_difference_jacobian(name, monkeypatch):
    doc = _example(name)
    implicit = solve(doc)
    monkeypatch.setattr(ThermalCoupling, "implicit_jacobian", lambda self, x: None)
    differences = solve(doc)
    assert implicit.converged
    assert differences.converged
    scale = np.maximum(np.abs(differences.x), 1.0)
    assert np.max(np.abs(implicit.x - differences.x) / scale) < 1e-8
    assert implicit.property_calls < differences.property_calls


@pytest.mark.parametrize("name", CASCADES)
def test_the_roots_slope_is_the_tangent_along_q(name):
    doc = _example(name)
    result = solve(doc)
    system = prepare(doc)
    coupling = _coupling(system)
    x = _shifted(coupling, result.x, 0.01)
    prof = _profile(coupling, x)
    q = prof.solve(float(coupling.config.ua), None)
    assert q is not None
    for trial in (q, 0.5 * q):
        tangent = conductance_tangents(prof, trial)
        assert tangent is not None
        d = 1e-6 * trial
        numeric = (prof.conductance(trial + d)[0] - prof.conductance(trial - d)[0]) / (2 * d)
        assert prof.slope(trial) == pytest.approx(tangent[0], rel=1e-12)
        assert prof.slope(trial) == pytest.approx(numeric, rel=1e-6)


@pytest.mark.parametrize("shift", [0.01, -0.01])
@pytest.mark.parametrize("name", CASCADES)
def test_the_jacobian_on_the_roots_last_evaluation_is_that_at_the_root(name, shift, monkeypatch):
    # the root's last Newton step is not evaluated; the block takes the derivatives on the
    # profile of the last evaluation (evaluated_near) and must equal those at the root itself
    doc = _example(name)
    result = solve(doc)
    system = prepare(doc)
    coupling = _coupling(system)
    x = _shifted(coupling, result.x, shift)
    ua = float(coupling.config.ua)
    _key, profile, q = coupling._solved(x)
    q_at = evaluated_near(profile, q)
    assert abs(q_at - q) <= REUSE_S * (profile.q_max - q)
    # the derivatives are taken on the root's last evaluation (at the root itself when the
    # last step fell below the resolution of q), else the last step was too long to stand in
    reused_profile = profile.last is not None and profile.last[0] == q_at
    new_cuts: list[float] = []
    cuts = CoupledProfile.cuts

    def counted_cuts(self, trial):
        if self.last is None or self.last[0] != trial:
            new_cuts.append(trial)
        return cuts(self, trial)

    monkeypatch.setattr(CoupledProfile, "cuts", counted_cuts)
    assert coupling.implicit_jacobian(x) is not None
    assert (new_cuts == []) == reused_profile  # no cut state computed for the Jacobian
    REUSED.append(reused_profile)
    assert coupling._linear is not None
    reused = coupling._linear[2]
    fresh = coupled_sensitivity(_profile(coupling, x), q, ua)
    assert fresh is not None
    assert new_cuts  # the fresh profile at the root computed its cuts
    for i, col in enumerate(coupling._inlet_cols()):
        typical = system.var_scale[col]
        assert reused[i] * typical == pytest.approx(fresh[i] * typical, rel=1e-6, abs=1e-9 * q)


REUSED: list[bool] = []


def test_most_jacobians_reused_the_roots_last_evaluation():
    # after the parametrised test above (pytest runs a module's tests in order)
    assert len(REUSED) == 2 * len(CASCADES)
    # 3 of 6 since the curved segments' sub-cuts (5 of 6 before): the root's last step is
    # then more often beyond the reach where its profile stands in for the root's
    assert sum(REUSED) >= len(REUSED) - 3


def test_evaluated_near_keeps_the_root_beyond_reach():
    doc = _example("r744_r290_cascade_v2")
    result = solve(doc)
    system = prepare(doc)
    coupling = _coupling(system)
    prof = _profile(coupling, result.x)
    q = prof.solve(float(coupling.config.ua), None)
    assert q is not None
    prof.conductance(0.99 * q)  # a profile remembered far from the root
    assert evaluated_near(prof, q) == q
    prof.conductance(q * (1.0 + 1e-9))
    assert evaluated_near(prof, q) == q * (1.0 + 1e-9)
