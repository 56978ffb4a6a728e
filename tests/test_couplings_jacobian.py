"""The thermal coupling's Jacobian by the implicit function theorem against differences of Q.

The coupling's rows are differentiated through the zone model's root
(``dQ/dx = -(dUA_z/dx) / (dUA_z/dQ)``, :mod:`workbench.solver.couplings`); here every column is
compared with a central difference of the residuals themselves, each of which runs the full
bracketed root-find of :func:`workbench.components.zones.coupled_heat_flow`.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from workbench.components.base import Component
from workbench.solver import prepare, solve
from workbench.solver.couplings import ThermalCoupling


def _cascade():
    with open("examples/scenarios/cascade_v2.json") as fh:
        return json.load(fh)


@pytest.mark.parametrize("shift", [0.0, 0.02])
def test_implicit_jacobian_matches_differences_of_the_residuals(shift):
    doc = _cascade()
    result = solve(doc)
    assert result.converged
    system = prepare(doc)
    coupling = next(b for b in system.blocks if isinstance(b, ThermalCoupling))
    x = result.x.copy()
    x[system.var_kinds.index("h")] *= 1.0 + shift  # also away from the solution
    f0 = coupling.residuals(x)
    analytic = {}
    for r, c, v in coupling.jacobian(x, f0, system.step):
        analytic[(r, c)] = analytic.get((r, c), 0.0) + v
    for col in coupling.local_vars:
        d = 1e-6 * max(abs(x[col]), 1e-3 * system.var_scale[col])
        xp, xm = x.copy(), x.copy()
        xp[col] += d
        xm[col] -= d
        numeric = (coupling.residuals(xp) - coupling.residuals(xm)) / (2 * d)
        for row in (0, 1):
            expected = numeric[row]
            got = analytic.get((row, col), 0.0)
            # residuals in J/kg: an entry is compared in J/kg per typical change of its unknown
            typical = system.var_scale[col]
            assert got * typical == pytest.approx(expected * typical, rel=1e-4, abs=1e-3), (
                row,
                col,
            )


def test_the_implicit_jacobian_runs_no_root_find_per_column(monkeypatch):
    doc = _cascade()
    result = solve(doc)
    system = prepare(doc)
    coupling = next(b for b in system.blocks if isinstance(b, ThermalCoupling))
    x = result.x.copy()
    f0 = coupling.residuals(x)
    import workbench.solver.couplings as couplings

    roots = []
    original = couplings._solve_q
    monkeypatch.setattr(couplings, "_solve_q", lambda *a: roots.append(1) or original(*a))
    before = system.fluid.stats.calls
    coupling.jacobian(x, f0, system.step)
    assert roots == []  # the root at x is remembered; no column solves it again
    implicit_calls = system.fluid.stats.calls - before
    before = system.fluid.stats.calls
    Component.jacobian(coupling, x, f0, system.step)  # type: ignore[arg-type]
    assert len(roots) >= 6  # differences: a root per column
    assert 2 * implicit_calls < system.fluid.stats.calls - before


def test_the_residuals_heat_flow_is_the_bracketed_searchs_root():
    from workbench.components.zones import coupled_heat_flow

    doc = _cascade()
    result = solve(doc)
    system = prepare(doc)
    coupling = next(b for b in system.blocks if isinstance(b, ThermalCoupling))
    for shift in (0.0, 0.01, -0.01):
        x = result.x.copy()
        x[coupling.hot.ports["inlet"].h] *= 1.0 + shift
        h, c = coupling.hot.port(x, "inlet"), coupling.cold.port(x, "inlet")
        ref = coupled_heat_flow(
            system.fluid,
            (h.p, h.h, h.m),
            (c.p, c.h, c.m),
            float(coupling.config.ua),
            float(coupling.config.efficiency),
        )
        coupling._memo = coupling._fast = None
        assert coupling._q(x) == pytest.approx(ref.q, rel=1e-10)


def test_cascade_results_are_those_of_the_difference_jacobian(monkeypatch):
    doc = _cascade()
    implicit = solve(doc)
    monkeypatch.setattr(ThermalCoupling, "_implicit_jacobian", lambda self, x, step: None)
    differences = solve(doc)
    assert implicit.converged
    assert differences.converged
    scale = np.maximum(np.abs(differences.x), 1.0)
    assert np.max(np.abs(implicit.x - differences.x) / scale) < 1e-8
    assert implicit.property_calls < differences.property_calls
