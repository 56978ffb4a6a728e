"""The internal heat exchanger in UA mode against an independent 400-segment model (PropsSI).

The reference cuts the counterflow exchanger into 400 slices of equal heat, takes every node's
temperature from CoolProp's PropsSI (no workbench code), sums ``dQ / LMTD`` per slice and finds
the heat flow whose sum is the given UA by Brent's method. The model must agree within 0.5 % on
strongly varying properties: transcritical R744 (gas cooler outlet against the suction) and
R290 near its critical point.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from CoolProp.CoolProp import PropsSI
from scipy.optimize import brentq

from workbench.components.base import PortVars
from workbench.components.exchangers.ihx.component import HeatExchanger
from workbench.fluids import get_backend
from workbench.scenario.reference_cases import textbook_r134a
from workbench.solver import solve

REFERENCE_SEGMENTS = 400


def reference_heat_flow(fluid, hot, cold, ua):
    """Heat flow [W] of a 400-slice counterflow model; ``hot``/``cold`` = (m, p, T_in)."""
    (m_h, p_h, t_hi), (m_c, p_c, t_ci) = hot, cold
    h_hi, h_ci = PropsSI("H", "P", p_h, "T", t_hi, fluid), PropsSI("H", "P", p_c, "T", t_ci, fluid)
    q_max = min(
        m_h * (h_hi - PropsSI("H", "P", p_h, "T", t_ci, fluid)),
        m_c * (PropsSI("H", "P", p_c, "T", t_hi, fluid) - h_ci),
    )
    k = np.arange(REFERENCE_SEGMENTS + 1) / REFERENCE_SEGMENTS

    def needed(q):
        t_h = PropsSI("T", "P", p_h, "H", h_hi - k * q / m_h, fluid)
        t_c = PropsSI("T", "P", p_c, "H", h_ci + (1.0 - k) * q / m_c, fluid)
        dt = t_h - t_c
        if np.min(dt) <= 0.0:
            return math.inf
        a, b = dt[:-1], dt[1:]
        lmtd = np.where(
            np.isclose(a, b, rtol=1e-9), a, (a - b) / np.log(a / np.where(a == b, 1, b))
        )
        return float(np.sum(q / REFERENCE_SEGMENTS / lmtd))

    return brentq(lambda q: min(needed(q), 1e30) - ua, 1e-9 * q_max, q_max * (1 - 1e-12), xtol=1e-6)


def model_heat_flow(fluid, hot, cold, ua):
    """The component's heat flow [W] for the same inlet states."""
    (m_h, p_h, t_hi), (m_c, p_c, t_ci) = hot, cold
    hx = HeatExchanger("ihx", {"ua": ua}, get_backend(fluid, "CoolProp"))
    hx.bind(
        {
            "hot_inlet": PortVars(0, 1, 2),
            "hot_outlet": PortVars(0, 3, 4),
            "cold_inlet": PortVars(5, 6, 7),
            "cold_outlet": PortVars(5, 8, 9),
        }
    )
    h_hi, h_ci = PropsSI("H", "P", p_h, "T", t_hi, fluid), PropsSI("H", "P", p_c, "T", t_ci, fluid)
    x = np.array([m_h, p_h, h_hi, p_h, h_hi, m_c, p_c, h_ci, p_c, h_ci])
    return hx, x, hx.heat_flow(x)


R744 = ("CO2", (0.05, 90e5, 308.15), (0.05, 35e5, 278.15))
"""Gas cooler outlet at 90 bar and 35 C against suction vapour at 35 bar and 5 C."""

R290 = ("R290", (0.03, 40e5, 358.15), (0.03, 5e5, 275.15))
"""Liquid at 40 bar (reduced pressure 0.94) and 85 C against suction vapour at 5 bar, 2 C."""


@pytest.mark.parametrize(("case", "ua"), [(R744, 100.0), (R744, 500.0), (R290, 20.0), (R290, 80.0)])
def test_ua_mode_matches_a_400_segment_model(case, ua):
    fluid, hot, cold = case
    _hx, _x, q = model_heat_flow(fluid, hot, cold, ua)
    ref = reference_heat_flow(fluid, hot, cold, ua)
    assert q == pytest.approx(ref, rel=5e-3)


def test_r744_effectiveness_is_that_of_the_fine_model_not_the_mean_capacity_one():
    fluid, hot, cold = R744
    _hx, _x, q = model_heat_flow(fluid, hot, cold, 100.0)
    (_m_h, _p_h, t_hi), (m_c, p_c, t_ci) = hot, cold
    h_ci = PropsSI("H", "P", p_c, "T", t_ci, fluid)
    q_max = m_c * (PropsSI("H", "P", p_c, "T", t_hi, fluid) - h_ci)
    # the figures: 0.600 from a 400-segment model, 0.564 from mean capacity rates
    assert q / q_max == pytest.approx(
        reference_heat_flow(fluid, hot, cold, 100.0) / q_max, abs=2e-3
    )
    assert q / q_max > 0.59


def test_the_solved_exchanger_needs_the_given_ua_on_the_fine_profile():
    fluid, hot, cold = R744
    hx, x, q = model_heat_flow(fluid, hot, cold, 500.0)
    x[4] = x[2] - q / x[0]  # outlets from the heat flow
    x[9] = x[7] + q / x[5]
    check, why = hx.profile_check(x)
    assert why is None
    assert check.ua_required == pytest.approx(500.0, rel=0.02)
    assert hx.warnings(x) == []


def test_accuracy_warning_applies_to_the_internal_heat_exchanger():
    fluid, hot, cold = R744
    hx, x, q = model_heat_flow(fluid, hot, cold, 500.0)
    x[4] = x[2] - 0.7 * q / x[0]  # a heat flow that needs far less than the given UA
    x[9] = x[7] + 0.7 * q / x[5]
    (warning,) = hx.warnings(x)
    assert "HeatExchanger 'ihx'" in warning
    assert "conductance 500 W/K" in warning


def test_r134a_suction_line_hx_in_ua_mode_balances_and_matches_the_reference():
    doc = textbook_r134a(eta_s=0.75, superheat_k=2.0, subcooling_k=2.0)
    circuit = doc["circuits"][0]
    circuit["components"].append({"name": "ihx", "type": "HeatExchanger", "ua": 20.0})
    circuit["edges"] = [
        {"from": "comp:outlet", "to": "cond:inlet"},
        {"from": "cond:outlet", "to": "ihx:hot_inlet"},
        {"from": "ihx:hot_outlet", "to": "valve:inlet"},
        {"from": "valve:outlet", "to": "evap:inlet"},
        {"from": "evap:outlet", "to": "ihx:cold_inlet"},
        {"from": "ihx:cold_outlet", "to": "comp:inlet"},
    ]
    result = solve(doc)
    assert result.converged, result.report()
    e = result.edges.set_index("edge")
    hot_in, cold_in = e.loc["cond:outlet -> ihx:hot_inlet"], e.loc["evap:outlet -> ihx:cold_inlet"]
    hot = (hot_in["m_kg_s"], hot_in["p_bar"] * 1e5, hot_in["t_c"] + 273.15)
    cold = (cold_in["m_kg_s"], cold_in["p_bar"] * 1e5, cold_in["t_c"] + 273.15)
    ref = reference_heat_flow("R134a", hot, cold, 20.0)
    assert result.components["ihx"]["heatTransferRate"] == pytest.approx(ref, rel=5e-3)
    assert abs(result.summary["energy_balance_w"]) < 1e-6 * result.summary["heating_capacity_w"]
