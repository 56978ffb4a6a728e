"""Analytic Jacobian blocks against finite differences."""

from __future__ import annotations

import numpy as np
import pytest
from solver_cases import textbook_r134a, ua_heat_pump

from workbench.components.base import Component
from workbench.solver import solve
from workbench.solver.solve import prepare


def _dense(entries, n_rows, n_cols):
    out = np.zeros((n_rows, n_cols))
    for r, c, v in entries:
        out[r, c] += v
    return out


@pytest.mark.parametrize("backend", ["CoolProp", "Test"])
@pytest.mark.parametrize("case", ["fixed", "displacement"])
def test_compressor_analytic_jacobian_matches_finite_differences(backend, case):
    doc = textbook_r134a(eta_s=0.7, superheat_k=5.0, subcooling_k=3.0, backend=backend)
    if case == "displacement":
        doc = ua_heat_pump(backend=backend)
    system = prepare(doc)
    x = solve(doc, system=system).x.copy()
    x[system.components["comp"].ports["outlet"].h] += 5e3  # away from the solution
    comp = system.components["comp"]
    f0 = comp.residuals(x)
    analytic = _dense(comp.jacobian(x, f0, system.step), len(f0), system.n_vars)

    def step(i, xi):
        return 1e-6 * max(abs(xi), 1.0)

    numeric = _dense(Component.jacobian(comp, x, f0, step), len(f0), system.n_vars)
    scale = np.maximum(np.abs(numeric).max(axis=1, keepdims=True), 1e-300)
    np.testing.assert_allclose(analytic / scale, numeric / scale, atol=2e-5)
