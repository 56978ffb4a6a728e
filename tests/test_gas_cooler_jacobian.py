"""The gas cooler's Jacobian through its root (implicit function theorem) against the root-find."""

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


def _central(comp, x, n_rows, n_cols, rel=1e-6):
    """Central differences of the residuals, every column a full root-find of the model."""
    out = np.zeros((n_rows, n_cols))
    for col in comp._local:
        xi = x[col]
        dx = rel * max(abs(xi), 1.0)
        x[col] = xi + dx
        f_hi = comp.residuals(x)
        x[col] = xi - dx
        f_lo = comp.residuals(x)
        x[col] = xi
        out[:, col] = (f_hi - f_lo) / (2.0 * dx)
    return out


def test_ift_jacobian_matches_differences_through_the_root_find():
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    system = prepare(doc)
    x = solve(doc, system=system).x.copy()
    gc = system.components["gas_cooler"]
    x[gc.ports["inlet"].h] += 4e3  # away from the solution
    x[gc.ports["inlet"].p] *= 1.02
    f0 = gc.residuals(x)
    ift = _dense(gc.jacobian(x, f0, system.step), len(f0), system.n_vars)
    assert gc._linear is None  # the linearisation lives only while the Jacobian runs
    exact = _central(gc, x, len(f0), system.n_vars)
    row = [e.name for e in gc.equations()].index("heat_transfer")
    cols = [gc.ports["inlet"].p, gc.ports["inlet"].h, gc.ports["inlet"].m]
    # the heat flow depends on all three (not a trivially zero block)
    assert all(abs(exact[row, c]) > 0.0 for c in cols)
    # d(Q/m)/dx: the row minus the -1 of h_in; the enthalpy column holds the table's nodes,
    # equal up to the derivative of the discretisation error (measured 3e-4 here)
    plus = np.array([0.0, 1.0, 0.0])
    np.testing.assert_allclose(ift[row, cols] + plus, exact[row, cols] + plus, rtol=1e-3)
    # the pressure and flow columns see the same table as the root-find: to the difference steps
    np.testing.assert_allclose(ift[row, cols[::2]], exact[row, cols[::2]], rtol=1e-4)
    others = [r for r in range(len(f0)) if r != row]
    np.testing.assert_allclose(ift[others], exact[others], rtol=1e-5, atol=1e-9)


def test_ift_jacobian_runs_no_root_find_per_column(monkeypatch):
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    system = prepare(doc)
    x = solve(doc, system=system).x.copy()
    gc = system.components["gas_cooler"]
    x[gc.ports["inlet"].h] += 1e3
    f0 = gc.residuals(x)  # the root at x itself
    import workbench.components.exchangers.gas_cooler.component as module

    calls = []
    real = module.gas_cooler_heat_flow
    monkeypatch.setattr(
        module, "gas_cooler_heat_flow", lambda *a, **k: calls.append(a) or real(*a, **k)
    )
    gc.jacobian(x, f0, system.step)
    assert calls == []
    # the plain difference Jacobian runs one root-find per input column
    Component.jacobian(gc, x, f0, system.step)
    assert len(calls) >= 3
