"""Thermal couplings: a two-circuit cascade solved as one system (issue 5)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import numpy as np
import pytest
from CoolProp.CoolProp import PropsSI

from workbench.components.base import PortVars
from workbench.components.exchangers.coils.component import Condenser, Evaporator
from workbench.components.exchangers.zones.step_share import GAP_KEPT
from workbench.errors import SpecificationError
from workbench.fluids import get_backend
from workbench.scenario.models import ThermalCouplingConfig
from workbench.solver import solve
from workbench.solver.couplings import ThermalCoupling
from workbench.solver.newton import _jacobian, _solve_linear, limit_step, safe_residuals
from workbench.solver.start.warm_start import start

newton_module = importlib.import_module("workbench.solver.newton")

CASCADE = Path(__file__).resolve().parent.parent / "examples" / "scenarios" / "cascade_v2.json"


def cascade(**coupling):
    doc = json.loads(CASCADE.read_text())
    doc["thermal_couplings"][0].update(coupling)
    return doc


def test_cascade_converges_and_closes_the_overall_energy_balance():
    result = solve(cascade())
    assert result.converged, result.report()
    c = result.components
    coupling = result.couplings[0]
    q_in = c["lt_evaporator"]["secondary_heat_flow"]
    q_out = c["ht_condenser"]["secondary_heat_flow"]
    power = c["lt_compressor"]["power"] + c["ht_compressor"]["power"]
    loss = coupling["loss_to_ambient_w"]
    assert q_in + power - q_out - loss == pytest.approx(0.0, abs=1e-6 * q_out)
    assert abs(result.summary["energy_balance_w"]) < 1e-6 * q_out
    # the coupled coils carry the coupling's heat flows
    assert coupling["heat_from_hot_w"] == pytest.approx(c["lt_condenser"]["capacity"], rel=1e-6)
    assert coupling["heat_to_cold_w"] == pytest.approx(c["ht_evaporator"]["capacity"], rel=1e-6)
    assert loss == pytest.approx(0.05 * coupling["heat_from_hot_w"], rel=1e-9)
    assert coupling["min_temperature_difference"] > 0.0


def test_cascade_summary_counts_only_external_heat():
    result = solve(cascade())
    c = result.components
    assert result.summary["cooling_capacity_w"] == pytest.approx(c["lt_evaporator"]["capacity"])
    assert result.summary["heating_capacity_w"] == pytest.approx(c["ht_condenser"]["capacity"])
    # the low stage condenses above where the high stage evaporates
    assert c["lt_condenser"]["saturationTemperature"] > c["ht_evaporator"]["saturationTemperature"]
    assert 1.0 < result.summary["cop_cooling"] < 3.5


def test_perfect_coupling_loses_nothing_and_more_ua_narrows_the_gap():
    base = solve(cascade(efficiency=1.0))
    big = solve(cascade(efficiency=1.0, ua=5000.0))
    assert base.converged
    assert big.converged
    assert base.couplings[0]["loss_to_ambient_w"] == pytest.approx(0.0, abs=1e-9)
    gap = lambda r: (  # noqa: E731
        r.components["lt_condenser"]["saturationTemperature"]
        - r.components["ht_evaporator"]["saturationTemperature"]
    )
    assert gap(big) < gap(base)


def test_coupling_without_a_free_coil_names_the_coupling():
    doc = cascade()
    lt_condenser = doc["circuits"][0]["components"][1]
    lt_condenser.update(air_inlet_temp_c=20.0)
    lt_condenser.update(ua=500.0, secondary_mass_flow_kg_s=0.5)
    with pytest.raises(
        SpecificationError, match=r"thermal_couplings\[0\]: circuit 0 needs exactly one Condenser"
    ):
        solve(doc)


# -- the cascade exchanger's fine temperature profile (issue 16: every exchanger stays honest) --


def _independent_min_dt(result, coupling):
    """Smallest hot-minus-cold difference on a 2,000-step PropsSI profile of the solved exchanger."""
    hot, cold = coupling["hot_component"], coupling["cold_component"]
    hi = next(e for e in result.edge_states if e.dst == hot)
    ho = next(e for e in result.edge_states if e.src == hot)
    ci = next(e for e in result.edge_states if e.dst == cold)
    co = next(e for e in result.edge_states if e.src == cold)
    xs = np.linspace(0.0, 1.0, 2001)
    t_hot = PropsSI(
        "T", "P", hi.p_pa + xs * (ho.p_pa - hi.p_pa), "H", hi.h_j_kg + xs * (ho.h_j_kg - hi.h_j_kg),
        "R134a",
    )  # fmt: skip
    t_cold = PropsSI(
        "T", "P", co.p_pa + xs * (ci.p_pa - co.p_pa), "H", co.h_j_kg + xs * (ci.h_j_kg - co.h_j_kg),
        "R134a",
    )  # fmt: skip
    return float(np.min(t_hot - t_cold))


@pytest.mark.parametrize("ua", [300.0, 1200.0, 5000.0])
def test_cascade_fine_profile_agrees_with_an_independent_propssi_profile(ua):
    result = solve(cascade(ua=ua))
    assert result.converged, result.report()
    coupling = result.couplings[0]
    reference = _independent_min_dt(result, coupling)
    assert reference > -0.01  # the solved exchanger does not cross
    assert coupling["profile_min_temperature_difference"] == pytest.approx(reference, abs=0.01)
    assert coupling["min_temperature_difference"] == pytest.approx(reference, abs=0.01)
    # a pinched exchanger (large ua) is not flagged as "needs less conductance"
    assert not [w for w in result.warnings if "thermal_couplings[0]" in w], result.warnings


def _co2_coupling():
    """A coupled condenser/evaporator pair of CO2 states whose ends are 2 K apart.

    The hot side desuperheats at 70 bar (reduced pressure 0.95) from 50 C to 0.5 K above its
    dew point, the cold side heats vapour at 30 bar from 2 K below that to 2 K below 50 C: the
    zone model sees 2 K at both ends, the true profile crosses by about 1.8 K in the middle.
    """
    fluid = get_backend("CO2", "CoolProp")
    t_hot_out = PropsSI("T", "P", 70e5, "Q", 1, "CO2") + 0.5
    hot_in = (70e5, PropsSI("H", "P", 70e5, "T", 323.15, "CO2"))
    hot_out = (70e5, PropsSI("H", "P", 70e5, "T", t_hot_out, "CO2"))
    cold_in = (30e5, PropsSI("H", "P", 30e5, "T", t_hot_out - 2.0, "CO2"))
    cold_out = (30e5, PropsSI("H", "P", 30e5, "T", 321.15, "CO2"))
    q = hot_in[1] - hot_out[1]  # W with 1 kg/s on the hot side
    m_cold = q / (cold_out[1] - cold_in[1])
    hot = Condenser("hot_condenser", {"subcooling_k": 0.0}, fluid)
    cold = Evaporator("cold_evaporator", {"superheat_k": 5.0}, fluid)
    hot.bind({"inlet": PortVars(0, 1, 2), "outlet": PortVars(0, 3, 4)})
    cold.bind({"inlet": PortVars(5, 6, 7), "outlet": PortVars(5, 8, 9)})
    config = ThermalCouplingConfig(hot_circuit=0, cold_circuit=1, ua=q / 2.0, efficiency=1.0)
    coupling = ThermalCoupling(0, config, hot, cold)
    x = np.array([1.0, *hot_in, *hot_out, m_cold, *cold_in, *cold_out])
    return coupling, x


def test_cascade_check_reports_a_crossing_the_zone_model_misses():
    coupling, x = _co2_coupling()
    zone = coupling.heat_flow(x)
    assert zone.min_dt > 1.0  # the zone model sees only the two ends
    (problem,) = coupling.check(x)
    assert "thermal_couplings[0]" in problem
    assert "'hot_condenser'" in problem
    assert "cross" in problem
    assert "reduced pressure" in problem  # the near-critical reason
    assert coupling.result(x)["profile_min_temperature_difference"] < -1.5


def _cold_step(doc):
    """The system, its cold start and the first Newton step (before any bound)."""
    solve_module = importlib.import_module("workbench.solver.solve")
    system = solve_module.prepare(doc)
    x = start(system, None, 1e-6).x
    f = safe_residuals(system, x)
    dx = _solve_linear(system, _jacobian(system, x, f), f)
    coupling = next(b for b in system.blocks if isinstance(b, ThermalCoupling))
    return system, coupling, x, dx


def _gap(coupling, x):
    hot, cold = coupling.hot.ports["inlet"].p, coupling.cold.ports["inlet"].p
    return float(coupling.hot.fluid.T_sat(x[hot])) - float(coupling.cold.fluid.T_sat(x[cold]))


def test_a_newton_step_keeps_a_share_of_the_coupled_temperature_difference():
    # the cold start is pinched (8 K apart around the stages' midpoint): Newton's step would
    # reverse the difference, where the exchanger's heat flow collapses
    system, coupling, x, dx = _cold_step(cascade())
    gap = _gap(coupling, x)
    assert gap > 0.0
    assert _gap(coupling, x + dx) < 0.0
    alpha = limit_step(system, x, dx)
    assert alpha < 1.0
    # interpolated linearly in the fraction while T_sat(p) is curved: about GAP_KEPT of it
    assert (GAP_KEPT - 0.05) * gap <= _gap(coupling, x + alpha * dx) <= (GAP_KEPT + 0.1) * gap
    # a step that widens the difference, or one that keeps enough of it, is not bounded by it
    xs, ds = x.tolist(), (-dx).tolist()
    assert coupling.step_fraction(xs, ds, 0.7) == 0.7
    assert coupling.step_fraction(xs, (0.01 * dx).tolist(), 1.0) == 1.0


def test_the_bound_saves_the_failed_trials_of_the_cold_cascade(monkeypatch):
    # measured: without it, 7 iterations and 11 residual evaluations (three trials rejected)
    counted = []
    original = newton_module.safe_residuals

    def counting(system, x):
        counted.append(1)
        return original(system, x)

    monkeypatch.setattr(newton_module, "safe_residuals", counting)
    bounded = solve(cascade())
    bounded_evaluations = len(counted)
    counted.clear()
    monkeypatch.setattr(ThermalCoupling, "step_fraction", lambda self, xs, ds, alpha: alpha)
    unbounded = solve(cascade())
    assert bounded.converged
    assert unbounded.converged
    np.testing.assert_allclose(bounded.x, unbounded.x, rtol=1e-9)
    assert bounded.iterations < unbounded.iterations
    assert bounded_evaluations < len(counted) - 2
