"""The R-134a textbook cycle against published values and a PropsSI hand calculation."""

from __future__ import annotations

import pytest
from CoolProp.CoolProp import PropsSI
from solver_cases import textbook_r134a

from workbench.fluids import get_backend
from workbench.solver import solve

P_EVAP, P_COND, M = 0.14e6, 0.8e6, 0.05


def hand_calculation(eta_s: float, superheat_k: float, subcooling_k: float) -> dict[str, float]:
    """Q_evap, W, Q_cond [W] from PropsSI, state by state."""
    t_evap = PropsSI("T", "P", P_EVAP, "Q", 1, "R134a")
    t_cond = PropsSI("T", "P", P_COND, "Q", 0, "R134a")
    if superheat_k:
        h1 = PropsSI("H", "P", P_EVAP, "T", t_evap + superheat_k, "R134a")
    else:
        h1 = PropsSI("H", "P", P_EVAP, "Q", 1, "R134a")
    s1 = PropsSI("S", "P", P_EVAP, "H", h1, "R134a")
    h2s = PropsSI("H", "P", P_COND, "S", s1, "R134a")
    h2 = h1 + (h2s - h1) / eta_s
    if subcooling_k:
        h3 = PropsSI("H", "P", P_COND, "T", t_cond - subcooling_k, "R134a")
    else:
        h3 = PropsSI("H", "P", P_COND, "Q", 0, "R134a")
    return {"q_evap": M * (h1 - h3), "w": M * (h2 - h1), "q_cond": M * (h2 - h3)}


def assert_energy_closes(result) -> None:
    s = result.summary
    total = s["cooling_capacity_w"] + s["compressor_power_w"]
    assert s["heating_capacity_w"] == pytest.approx(total, rel=1e-9)
    assert abs(s["energy_balance_w"]) < 1e-6 * total
    edges = result.edges
    assert edges["m_kg_s"].nunique() == 1  # one mass flow around the loop


@pytest.mark.parametrize("strategy", ["newton", "picard", "fallback"])
def test_textbook_ideal_cycle_matches_published_values(strategy):
    result = solve(textbook_r134a(strategy=strategy))
    assert result.converged, result.report()
    s = result.summary
    assert s["cooling_capacity_w"] / 1e3 == pytest.approx(7.18, abs=0.01)
    assert s["compressor_power_w"] / 1e3 == pytest.approx(1.81, abs=0.01)
    assert s["heating_capacity_w"] / 1e3 == pytest.approx(8.99, abs=0.01)
    assert s["cop_cooling"] == pytest.approx(3.97, abs=0.01)
    assert_energy_closes(result)


def test_textbook_real_cycle_matches_published_values():
    result = solve(textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0))
    assert result.converged, result.report()
    s = result.summary
    assert s["cooling_capacity_w"] / 1e3 == pytest.approx(7.61, abs=0.01)
    assert s["compressor_power_w"] / 1e3 == pytest.approx(2.48, abs=0.01)
    assert s["heating_capacity_w"] / 1e3 == pytest.approx(10.08, abs=0.01)
    assert s["cop_cooling"] == pytest.approx(3.07, abs=0.01)
    assert_energy_closes(result)


@pytest.mark.parametrize(
    ("eta_s", "superheat_k", "subcooling_k"), [(1.0, 0.0, 0.0), (0.75, 5.0, 3.0), (0.6, 12.0, 8.0)]
)
def test_textbook_cycle_matches_propssi_hand_calculation(eta_s, superheat_k, subcooling_k):
    result = solve(textbook_r134a(eta_s=eta_s, superheat_k=superheat_k, subcooling_k=subcooling_k))
    assert result.converged, result.report()
    ref = hand_calculation(eta_s, superheat_k, subcooling_k)
    s = result.summary
    assert s["cooling_capacity_w"] == pytest.approx(ref["q_evap"], rel=1e-6)
    assert s["compressor_power_w"] == pytest.approx(ref["w"], rel=1e-6)
    assert s["heating_capacity_w"] == pytest.approx(ref["q_cond"], rel=1e-6)
    # the states on the edges are the hand-calculated ones
    edges = result.edges.set_index("edge")
    assert edges.loc["cond:outlet -> valve:inlet", "p_bar"] == pytest.approx(8.0, rel=1e-7)
    assert edges.loc["evap:outlet -> comp:inlet", "p_bar"] == pytest.approx(1.4, rel=1e-7)
    t_suction = PropsSI("T", "P", P_EVAP, "Q", 1, "R134a") + superheat_k - 273.15
    assert edges.loc["evap:outlet -> comp:inlet", "t_c"] == pytest.approx(t_suction, abs=1e-6)
    assert_energy_closes(result)


def test_textbook_cycle_on_test_backend_matches_closed_form():
    result = solve(textbook_r134a(backend="Test"))
    assert result.converged, result.report()
    fl = get_backend("R134a", "Test")
    t_evap = PropsSI("T", "P", P_EVAP, "Q", 1, "R134a")
    t_cond = PropsSI("T", "P", P_COND, "Q", 1, "R134a")
    p_low, p_high = fl.p_sat(t_evap), fl.p_sat(t_cond)
    h1, h3 = fl.h_vap(p_low), fl.h_liq(p_high)
    h2 = fl.h_ps(p_high, fl.s_vap(p_low))
    s = result.summary
    assert s["cooling_capacity_w"] == pytest.approx(M * (h1 - h3), rel=1e-9)
    assert s["compressor_power_w"] == pytest.approx(M * (h2 - h1), rel=1e-9)
    # the analytic fluid is within a few per cent of the real one
    assert s["cop_cooling"] == pytest.approx(3.97, rel=0.05)
    assert_energy_closes(result)


def test_textbook_result_counts_property_calls_and_serialises():
    result = solve(textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0))
    assert result.property_calls > 0
    doc = result.to_dict()
    assert set(doc) >= {
        "converged",
        "iterations",
        "residual_norm",
        "summary",
        "components",
        "edges",
        "controls",
    }
    names = {c["name"]: c for c in doc["components"]}
    assert names["comp"]["type"] == "Compressor"
    assert names["evap"]["superheat"] == pytest.approx(5.0, abs=1e-6)
    assert names["cond"]["subcooling"] == pytest.approx(3.0, abs=1e-6)


def test_tabular_backend_reproduces_the_heos_cycle():
    doc = textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0)
    heos = solve(doc)
    table = solve(doc, tabular=True)
    assert table.converged, table.report()
    for key in ("cooling_capacity_w", "compressor_power_w", "cop_cooling"):
        assert table.summary[key] == pytest.approx(heos.summary[key], rel=1e-3)
