"""The gas cooler's root in ``s = -ln(1 - Q/Q_max)`` and its reuse by the Jacobian.

:func:`workbench.components.exchangers.zones.root.root_in_s` runs Newton's method on ``1/UA - 1/UA_z``;
checked against a bracketed Brent search on required conductances with an end pinch and with
an internal pinch (where ``UA_z`` blows up like ``-ln(s_pinch - s)``), and at the edge of an
internal pinch that the conductance never reaches. The model's result carries its root's
evaluation, which the Jacobian's linearisation reuses: the numbers of evaluating again.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest
from scipy.optimize import brentq

from workbench.components.exchangers.gas_cooler.jacobian import Linearisation
from workbench.components.exchangers.zones.root import root_in_s
from workbench.solver import solve
from workbench.solver.solve import prepare

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "scenarios" / "r744_heat_pump_v2.json"
Q_MAX = 4000.0


def _end_pinch(q: float) -> float:
    """``UA_z = -C ln(1 - Q/Q_max)`` (a single counterflow zone at its end pinch)."""
    return -250.0 * math.log1p(-q / Q_MAX) if q < Q_MAX else math.inf


def _internal_pinch(q: float, q_pinch: float = 3100.0) -> float:
    """A conductance that blows up like ``-ln(Q_pinch - Q)`` at an internal pinch."""
    if q >= q_pinch:
        return math.inf
    return 0.08 * q - 150.0 * math.log((q_pinch - q) / q_pinch)


def _slope(f, q: float) -> float:
    d = 1e-6 * q
    return (f(q + d) - f(q - d)) / (2.0 * d)


@pytest.mark.parametrize("f", [_end_pinch, _internal_pinch])
@pytest.mark.parametrize("ua", [100.0, 900.0, 3000.0])
@pytest.mark.parametrize("guess", [None, 500.0, 3050.0])
def test_root_matches_a_bracketed_search(f, ua, guess):
    found = root_in_s(f, Q_MAX, ua, guess, lambda q: _slope(f, q))
    hi = (Q_MAX if f is _end_pinch else 3100.0) * (1 - 1e-15)
    ref = brentq(lambda q: f(q) - ua, 1e-9, hi, xtol=1e-12, rtol=1e-15)
    assert found == pytest.approx(ref, rel=1e-9)
    # also without the analytic slope (secant slopes)
    assert root_in_s(f, Q_MAX, ua, guess) == pytest.approx(ref, rel=1e-9)


def test_no_root_at_the_edge_of_an_internal_pinch():
    # the conductance jumps to infinity at 3000 W without reaching 5000 W/K there
    def f(q: float) -> float:
        return math.inf if q >= 3000.0 else 0.5 * q

    assert root_in_s(f, Q_MAX, 5000.0, 1000.0, lambda q: 0.5) is None


def test_the_jacobian_reuses_the_roots_evaluation():
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    system = prepare(doc)
    x = solve(doc, system=system).x.copy()
    gc = system.components["gas_cooler"]
    key = gc.model_inputs(x)
    base = gc.model(x)
    assert base.table is not None
    assert base.ua_required == pytest.approx(key[4], rel=1e-6)  # the root: UA_req = UA
    reused = Linearisation.at(gc, key, base)
    fresh = Linearisation.at(gc, key, dataclasses.replace(base, slope=math.nan, table=None))
    assert reused is not None
    assert fresh is not None
    # the root's last step is taken without an evaluation: UA_req moved there by its slope
    assert reused.g0 == pytest.approx(fresh.g0, abs=1e-9 * key[4])
    assert reused.g_s == pytest.approx(fresh.g_s, rel=1e-9)
    assert reused.table is not None
    assert reused.table.h == fresh.table.h
