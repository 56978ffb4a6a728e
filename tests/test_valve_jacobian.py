"""The orifice valve's analytic Jacobian against differences of its residuals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from workbench.components.base import Component
from workbench.solver import solve
from workbench.solver.solve import prepare

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "scenarios" / "r744_heat_pump_v2.json"


def _dense(entries, n_rows, n_cols):
    out = np.zeros((n_rows, n_cols))
    for r, c, v in entries:
        out[r, c] += v
    return out


def test_orifice_jacobian_matches_central_differences():
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    system = prepare(doc)
    x = solve(doc, system=system).x.copy()
    valve = system.components["valve"]
    x[valve.ports["inlet"].p] *= 1.01  # away from the solution
    x[valve.ports["inlet"].h] += 2e3
    f0 = valve.residuals(x)
    analytic = _dense(valve.jacobian(x, f0, system.step), len(f0), len(x))
    central = np.zeros_like(analytic)
    for col in valve.local_vars:
        xi = x[col]
        dx = 1e-6 * max(abs(xi), 1.0)
        x[col] = xi + dx
        hi = valve.residuals(x)
        x[col] = xi - dx
        lo = valve.residuals(x)
        x[col] = xi
        central[:, col] = (hi - lo) / (2.0 * dx)
    # every column the flow depends on, the control loop's included, is there
    assert np.count_nonzero(central[1]) >= 4
    np.testing.assert_allclose(analytic, central, rtol=1e-6, atol=1e-14)
    # the same as the default one-sided differences, to their step
    plain = _dense(Component.jacobian(valve, x, f0, system.step), len(f0), len(x))
    np.testing.assert_allclose(analytic, plain, rtol=1e-4, atol=1e-14)
