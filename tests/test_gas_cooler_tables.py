"""The gas cooler's temperature tables: once per pressure level, reused for every inlet.

:mod:`workbench.components.exchangers.gas_cooler.isobar` keeps one set of isobar nodes per pressure
level; these tests count the levels a solve builds, check that a level's table is the same
model as a table built for that inlet alone (to the discretisation), that it moves
continuously with the inlet enthalpy, that the profile's analytic slope is its derivative, and
that the Jacobian through the root holds when the heat flow sits at its end-temperature limit.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from test_gas_cooler import cycle

import workbench.components.exchangers.gas_cooler.model as model
from workbench.components.base import Component
from workbench.components.exchangers.gas_cooler.isobar import LEVEL_TOLERANCE
from workbench.components.exchangers.gas_cooler.levels import TableCache
from workbench.components.exchangers.gas_cooler.model import gas_cooler_heat_flow
from workbench.fluids import get_backend
from workbench.solver import solve
from workbench.solver.solve import prepare

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "scenarios" / "r744_heat_pump_v2.json"
P, M, T_SEC, C_SEC, UA = 9e6, 0.02, 288.15, 80.0, 900.0


@pytest.fixture(scope="module")
def co2():
    return get_backend("R744", "CoolProp")


def _levels(pressures: list[float]) -> int:
    """Distinct pressure levels (within the level tolerance) among ``pressures``."""
    kept: list[float] = []
    for p in pressures:
        if not any(abs(p - q) <= LEVEL_TOLERANCE * q for q in kept):
            kept.append(p)
    return len(kept)


def test_a_solve_builds_one_level_per_pressure_level(monkeypatch):
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    system = prepare(doc)
    seen: list[tuple[float, float]] = []
    real = model._setup

    def spy(fluid, p_in, dp, h_in, *rest):
        seen.append((p_in, h_in))
        return real(fluid, p_in, dp, h_in, *rest)

    monkeypatch.setattr(model, "_setup", spy)
    result = solve(doc, system=system)
    assert result.converged
    cache = system.components["gas_cooler"]._tables
    # every pressure level the model visited got its isobars once, however many inlet
    # enthalpies it served there (the Newton iterates at the controlled 90 bar, the
    # Jacobian's enthalpy and flow columns, the result tables)
    # (a pressure a hair from a kept level, the Jacobian's pressure column, moves that
    # level's nodes to first order instead: gas_cooler_isobar.ShiftedLevel)
    assert cache.levels_built + cache.levels_shifted == _levels([p for p, _ in seen])
    assert cache.levels_shifted >= 1
    assert len(set(seen)) >= 2 * cache.levels_built
    assert not cache.tables  # nothing below the critical pressure


def test_a_level_serves_other_inlets_within_the_discretisation(co2):
    shared = TableCache()
    first = gas_cooler_heat_flow(co2, P, 0.0, 470e3, M, T_SEC, C_SEC, UA, tables=shared)
    assert first.q > 0.0
    for h_in in (465e3, 475e3, 480e3, 490e3):
        reused = gas_cooler_heat_flow(co2, P, 0.0, h_in, M, T_SEC, C_SEC, UA, tables=shared)
        alone = gas_cooler_heat_flow(co2, P, 0.0, h_in, M, T_SEC, C_SEC, UA)
        # the same model on nodes a few per cent apart: equal to the discretisation error
        assert reused.q == pytest.approx(alone.q, rel=2e-4), h_in
        assert reused.h_out == pytest.approx(h_in - reused.q / M, rel=1e-12)
    assert shared.levels_built == 1


def test_the_table_moves_continuously_with_the_inlet(co2):
    cache = TableCache()
    gas_cooler_heat_flow(co2, P, 0.0, 480e3, M, T_SEC, C_SEC, UA, tables=cache)
    level = cache.levels[0]
    node = level.outlet.h[len(level.outlet.h) // 2 + 5]  # a node the inlet can pass

    def table(h_in):
        return level.table(co2, P, h_in, float(co2.T_ph(P, h_in)))

    # the inlet enthalpy at which the node joins the table (bisection on the node count)
    lo, hi = node - 1.0, node + 100.0
    n_lo = len(table(lo).h)
    assert len(table(hi).h) == n_lo + 1
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if len(table(mid).h) == n_lo else (lo, mid)
    assert hi - lo < 1e-6
    q = 0.5 * M * (node - level.h_lim)
    ua_lo = model._profile_function(table(lo), lo, M, T_SEC, C_SEC)(q)[0]
    ua_hi = model._profile_function(table(hi), hi, M, T_SEC, C_SEC)(q)[0]
    # the segment between the node and the inlet has shrunk to nothing: no jump
    assert ua_hi == pytest.approx(ua_lo, rel=1e-6)
    # the nodes below both inlets are the same exact states
    assert table(hi).h[: n_lo - 1] == table(lo).h[:-1]


@pytest.mark.parametrize("dp", [0.0, 2e5])
def test_the_profile_slope_is_its_derivative(co2, dp):
    setup = model._setup(co2, P, dp, 480e3, M, T_SEC, C_SEC, UA, 40, TableCache())
    assert setup.table is not None
    profile = model._profile_function(setup.table, 480e3, M, T_SEC, C_SEC)
    for share in (0.2, 0.5, 0.75):
        q = share * setup.q_hi
        total, smallest, slope = profile(q)
        assert math.isfinite(total)
        assert smallest > 0.0
        d = 1e-6 * q
        central = (profile(q + d)[0] - profile(q - d)[0]) / (2.0 * d)
        assert slope == pytest.approx(central, rel=1e-6), share


def fixed_cycle_doc() -> dict:
    """The pinch-at-the-outlet case of ``test_gas_cooler.py``: UA 20 kW/K, 90 bar fixed."""
    gc = {
        "pressure_pa": 90e5,
        "ua": 20000,
        "secondary_fluid": "water",
        "secondary_inlet_temp_k": 293.15,
        "secondary_mass_flow_kg_s": 0.08,
    }
    return cycle(gc, comp={"mass_flow_kg_s": 0.05}, evap={"t_evap_k": 268.15, "superheat_k": 5.0})


def test_jacobian_through_the_root_holds_at_an_outlet_pinch():
    """A large UA puts the heat flow a hair below its end-temperature limit.

    There ``UA_req`` grows like ``-ln(Q_max - Q)``: the linearisation in ``s = -ln(1 -
    Q/Q_max)`` follows ``Q_max`` where one in ``Q`` missed by orders of magnitude.
    """
    doc = fixed_cycle_doc()
    system = prepare(doc)
    result = solve(doc, system=system)
    assert result.converged
    gc = system.components["gc"]
    x = result.x.copy()
    base = gc.model(x)
    assert base.q_max - base.q < 1e-6 * base.q_max  # pinched at the outlet
    f0 = gc.residuals(x)
    n = len(x)
    ift = np.zeros((len(f0), n))
    for r, c, v in gc.jacobian(x, f0, system.step):
        ift[r, c] += v
    row = [e.name for e in gc.equations()].index("heat_transfer")
    # the row's natural scale: d(Q/m)/dm ~ (Q/m)/m; a linearisation in Q missed it by 1e7
    scale = base.q / x[gc.ports["inlet"].m] ** 2
    for col in (gc.ports["inlet"].p, gc.ports["inlet"].m):
        xi, dx = x[col], 1e-6 * max(abs(x[col]), 1.0)
        x[col] = xi + dx
        hi = gc.residuals(x)[row]
        x[col] = xi - dx
        lo = gc.residuals(x)[row]
        x[col] = xi
        central = (hi - lo) / (2.0 * dx)
        assert ift[row, col] == pytest.approx(central, rel=1e-3, abs=1e-6 * scale), col
    # the plain difference Jacobian (a root-find per column) agrees as well
    plain = np.zeros((len(f0), n))
    for r, c, v in Component.jacobian(gc, x, f0, system.step):
        plain[r, c] += v
    col = gc.ports["inlet"].p
    assert ift[row, col] == pytest.approx(plain[row, col], rel=1e-3)
