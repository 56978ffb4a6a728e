"""The brazed plate cascade exchanger against an independent march, its UA twin and its balances.

The independent calculation here marches the plate area (not the heat, as the model does) from
the hot inlet in 300 steps with a midpoint rule, both refrigerants' temperatures and transport
properties read from CoolProp directly at each state (the model interpolates them), the film
coefficients and friction from the same correlation functions
(:mod:`workbench.components.exchangers.plate.sides`), each step's heat flux the fixed point of
``U(flux) dT``; the cold stream's outlet is shot with Brent's method until it meets its inlet.
Both take the temperatures at the inlet pressures (the model's documented approximation).
"""

from __future__ import annotations

import copy
import itertools
import json
import math
from pathlib import Path

import CoolProp.CoolProp as CP
import numpy as np
import pytest
from scipy.optimize import brentq

from workbench.components.exchangers.plate.cascade import CascadePlate
from workbench.components.exchangers.plate.sides import (
    single_phase_film,
    single_phase_friction_rate,
    two_phase_film,
    two_phase_friction_rate,
)
from workbench.components.exchangers.plate.spec import PlateSpec, parse_plate_spec
from workbench.components.exchangers.zones.coupled_profile import coupled_heat_flow
from workbench.correlations.plate_single_phase import PORT_VELOCITY_HEADS
from workbench.fluids.transport import PhaseTransport, SaturationTransport
from workbench.solver import prepare, solve
from workbench.solver.plate_coupling import PlateCoupling

EXAMPLE = (
    Path(__file__).resolve().parent.parent / "examples" / "scenarios" / "cascade_plate_v2.json"
)


def _doc() -> dict:
    return json.loads(EXAMPLE.read_text())


@pytest.fixture(scope="module")
def solved():
    doc = _doc()
    result = solve(doc)
    assert result.converged, result.message
    system = prepare(doc)
    coupling = next(b for b in system.blocks if isinstance(b, PlateCoupling))
    return doc, result, coupling


# -- the independent calculation ------------------------------------------------------------------
def _phase(fluid: str, p: float, t: float) -> PhaseTransport:
    props = [CP.PropsSI(k, "P", p, "T", t, fluid) for k in ("D", "V", "L", "C")]
    return PhaseTransport(p, t, *props)


def _saturation(fluid: str, p: float) -> SaturationTransport:
    out = []
    for q in (0, 1):
        t = CP.PropsSI("T", "P", p, "Q", q, fluid)
        props = [CP.PropsSI(k, "P", p, "Q", q, fluid) for k in ("D", "V", "L", "C")]
        out.append(PhaseTransport(p, t, *props))
    h_l, h_v = (CP.PropsSI("H", "P", p, "Q", q, fluid) for q in (0, 1))
    sigma = CP.PropsSI("I", "P", p, "Q", 0, fluid)
    return SaturationTransport(p, out[0], out[1], h_l, h_v, sigma)


class _Stream:
    """One stream of the independent march: film and friction at a state, CoolProp direct."""

    def __init__(self, spec: PlateSpec, fluid: str, hot: bool, p: float, m: float) -> None:
        g = spec.geometry
        channels = g.channels_refrigerant if hot else g.channels_secondary
        self.spec, self.fluid, self.hot, self.p = spec, fluid, hot, p
        self.g = m / (channels * g.channel_flow_area_m2)
        self.sat = _saturation(fluid, p)
        self.edge = tuple(
            single_phase_film(spec, self.g, s.rho, s.mu, s.k, s.cp)[0]
            for s in (self.sat.liquid, self.sat.vapour)
        )

    def t(self, h: float) -> float:
        return CP.PropsSI("T", "P", self.p, "H", h, self.fluid)

    def film(self, h: float, t: float, flux: float) -> tuple[float, float]:
        x = (h - self.sat.h_liq) / self.sat.h_fg
        if 0.0 < x < 1.0:
            return (
                two_phase_film(self.spec, self.hot, self.g, x, self.sat, flux, self.edge),
                two_phase_friction_rate(self.spec, self.g, x, self.sat),
            )
        near = self.sat.vapour if x >= 1.0 else self.sat.liquid
        t_eval = max(t, near.t + 0.05) if x >= 1.0 else min(t, near.t - 0.05)
        pr = _phase(self.fluid, self.p, t_eval)
        film = single_phase_film(self.spec, self.g, pr.rho, pr.mu, pr.k, pr.cp)[0]
        return film, single_phase_friction_rate(self.spec, self.g, pr.rho, pr.mu)

    def density(self, h: float) -> float:
        return CP.PropsSI("D", "P", self.p, "H", h, self.fluid)


def _rate(spec: PlateSpec, hot: _Stream, cold: _Stream, h_h: float, h_c: float):
    """``dq/dA`` [W/m^2] and both friction rates [Pa/m] at a state (flux a fixed point)."""
    t_h, t_c = hot.t(h_h), cold.t(h_c)
    dt = t_h - t_c
    flux = 2000.0 * abs(dt)
    r_wall = spec.geometry.wall_resistance_m2_k_w
    for _ in range(30):
        fh, rh = hot.film(h_h, t_h, flux)
        fc, rc = cold.film(h_c, t_c, flux)
        u = 1.0 / (1.0 / fh + r_wall + 1.0 / fc)
        new = max(abs(u * dt), 1.0)
        if abs(new - flux) <= 1e-10 * new:
            break
        flux = new
    return u * dt, rh, rc


def independent_march(spec, fluids, hot_in, cold_in, eff, steps=300):
    """Heat flow [W] and channel pressure drops [Pa] by an area march with a shooting."""
    hot = _Stream(spec, fluids[0], True, hot_in[0], hot_in[2])
    cold = _Stream(spec, fluids[1], False, cold_in[0], cold_in[2])
    m_h, m_c = hot_in[2], cold_in[2]
    area = spec.geometry.heat_transfer_area_m2
    da = area / steps
    length = spec.geometry.plate_length_m * da / area

    def run(h_co: float):
        h_h, h_c, dp_h, dp_c = hot_in[1], h_co, 0.0, 0.0
        for _ in range(steps):
            r1, _a, _b = _rate(spec, hot, cold, h_h, h_c)
            mid_h, mid_c = h_h - 0.5 * da * r1 / m_h, h_c - 0.5 * da * eff * r1 / m_c
            if mid_c < cold_in[1] - 2e4:
                break
            r2, rh, rc = _rate(spec, hot, cold, mid_h, mid_c)
            h_h -= da * r2 / m_h
            h_c -= da * eff * r2 / m_c
            if h_c < cold_in[1] - 2e4:  # far past the cold inlet: the guess was too low
                break
            dp_h += rh * length
            dp_c += rc * length
        return h_c, dp_h, dp_c

    t_hi = hot.t(hot_in[1])
    h_co_max = CP.PropsSI("H", "P", cold_in[0], "T", t_hi - 0.01, fluids[1])
    h_co = brentq(lambda h: run(h)[0] - cold_in[1], cold_in[1] + 1.0, h_co_max, xtol=1e-3)
    _end, dp_h, dp_c = run(h_co)
    return m_c * (h_co - cold_in[1]) / eff, dp_h, dp_c


def _inlets(coupling: PlateCoupling, x: np.ndarray):
    h, c = coupling.hot.port(x, "inlet"), coupling.cold.port(x, "inlet")
    return (h.p, h.h, h.m), (c.p, c.h, c.m)


# -- the checks -----------------------------------------------------------------------------------
def test_cascade_plate_heat_flow_matches_an_independent_area_march(solved):
    _, result, coupling = solved
    hot_in, cold_in = _inlets(coupling, result.x)
    entry = result.couplings[0]
    spec = coupling.spec
    q, dp_h, dp_c = independent_march(spec, ("R134a", "R134a"), hot_in, cold_in, 0.95)
    assert entry["heat_from_hot_w"] == pytest.approx(q, rel=1e-3)
    # the ports, half the velocity heads at each end's density (CoolProp at both ends)
    h_out = hot_in[1] - entry["heat_from_hot_w"] / hot_in[2]
    c_out = cold_in[1] + entry["heat_to_cold_w"] / cold_in[2]
    for stream, end, dp, key in (
        (hot_in, h_out, dp_h, "hot_pressure_drop"),
        (cold_in, c_out, dp_c, "cold_pressure_drop"),
    ):
        g_port = stream[2] / spec.geometry.port_area_m2
        heads = 0.5 * PORT_VELOCITY_HEADS * g_port**2 / 2.0
        rho_in, rho_out = (
            CP.PropsSI("D", "P", stream[0], "H", h, "R134a") for h in (stream[1], end)
        )
        ports = heads * (1.0 / rho_in + 1.0 / rho_out)
        assert ports > 0.02 * dp
        assert entry[key] == pytest.approx(dp + ports, rel=0.015)


def test_cascade_plate_given_its_effective_ua_a_ua_coupling_carries_the_same_heat(solved):
    doc, result, coupling = solved
    hot_in, cold_in = _inlets(coupling, result.x)
    entry = result.couplings[0]
    ua = entry["ua"]
    # at the same inlet states: the zone model with ua = sum U_k A_k (the same profile)
    twin = coupled_heat_flow(
        coupling.hot.fluid, hot_in, cold_in, ua, 0.95, cold_fluid=coupling.cold.fluid
    )
    assert twin.q == pytest.approx(entry["heat_from_hot_w"], rel=1e-8)
    # the whole machine with a UA coupling of that conductance (no plate pressure drops there)
    doc = copy.deepcopy(doc)
    coupling_doc = doc["thermal_couplings"][0]
    del coupling_doc["geometry"]
    coupling_doc["ua"] = ua
    other = solve(doc)
    assert other.converged
    assert other.couplings[0]["heat_from_hot_w"] == pytest.approx(
        entry["heat_from_hot_w"], rel=2e-3
    )


def test_cascade_plate_energy_balances_of_both_circuits(solved):
    result = solved[1]
    comps = result.to_dict()["components"]
    by = {c["name"]: c for c in comps}
    entry = result.couplings[0]
    assert by["lt_condenser"]["capacity"] == pytest.approx(entry["heat_from_hot_w"], rel=1e-9)
    assert by["ht_evaporator"]["capacity"] == pytest.approx(entry["heat_to_cold_w"], rel=1e-9)
    assert entry["heat_to_cold_w"] == pytest.approx(0.95 * entry["heat_from_hot_w"], rel=1e-12)
    # low stage: evaporator + compressor = cascade condenser; high stage likewise
    low = by["lt_evaporator"]["capacity"] + by["lt_compressor"]["power"]
    high = by["ht_evaporator"]["capacity"] + by["ht_compressor"]["power"]
    assert low == pytest.approx(by["lt_condenser"]["capacity"], rel=1e-8)
    assert high == pytest.approx(by["ht_condenser"]["capacity"], rel=1e-8)
    assert abs(result.summary["energy_balance_w"]) < 1e-6 * result.summary["compressor_power_w"]


def test_cascade_plate_pressure_drops_are_the_coupled_coils(solved):
    result = solved[1]
    by = {c["name"]: c for c in result.to_dict()["components"]}
    entry = result.couplings[0]
    assert entry["hot_pressure_drop"] > 0.0
    assert entry["cold_pressure_drop"] > 0.0
    assert by["lt_condenser"]["pressure_drop"] == pytest.approx(
        entry["hot_pressure_drop"], rel=1e-8
    )
    assert by["ht_evaporator"]["pressure_drop"] == pytest.approx(
        entry["cold_pressure_drop"], rel=1e-8
    )


def test_cascade_plate_charge_holds_rho_v_of_each_side(solved):
    _, result, coupling = solved
    g = coupling.spec.geometry
    items = {i["name"]: i for i in result.charge["items"]}
    for name, side in (("lt_condenser", "refrigerant"), ("ht_evaporator", "secondary")):
        item = items[name]
        volume = g.internal_volume_m3(side)
        assert volume > 0.0
        assert item["volume_m3"] == pytest.approx(volume, rel=1e-12)
        assert sum(z["volume_m3"] for z in item["zones"]) == pytest.approx(volume, rel=1e-12)
        assert item["kg"] == pytest.approx(
            sum(z["volume_m3"] * z["density_kg_m3"] for z in item["zones"]), rel=1e-12
        )
    # the condensing side holds liquid: more than its volume at the dew point's density
    hot = coupling.hot.port(result.x, "inlet")
    rho_v = CP.PropsSI("D", "P", hot.p, "Q", 1, "R134a")
    assert items["lt_condenser"]["kg"] > 2.0 * rho_v * g.internal_volume_m3("refrigerant")
    circuits = {c["circuit"]: c["kg"] for c in result.charge["circuits"]}
    assert circuits[0] >= items["lt_condenser"]["kg"]
    assert circuits[1] >= items["ht_evaporator"]["kg"]


def test_cascade_plate_results_report_films_volumes_and_a_positive_pinch(solved):
    _, result, coupling = solved
    entry = result.couplings[0]
    g = coupling.spec.geometry
    assert entry["geometry"] == "brazed_plate"
    assert entry["plates"] == g.plates
    assert entry["heat_transfer_area_m2"] == pytest.approx(g.heat_transfer_area_m2)
    assert 300.0 < entry["hot_heat_transfer_coefficient"] < 2e4
    assert 300.0 < entry["cold_heat_transfer_coefficient"] < 2e4
    assert entry["hot_internal_volume"] == pytest.approx(g.internal_volume_m3("refrigerant"))
    assert entry["cold_internal_volume"] == pytest.approx(g.internal_volume_m3("secondary"))
    assert entry["min_temperature_difference"] > 0.0
    # U A_plates lies between the two films' series value and UA_eff / A is the mean U
    sol = coupling.solution(result.x)
    assert sol is not None
    assert sol.area == pytest.approx(g.heat_transfer_area_m2, rel=1e-9)
    assert entry["ua"] == pytest.approx(sum(p.ua for p in sol.pieces))


def test_cascade_plate_correlation_factors_scale_films_and_pressure_drops(solved):
    _, result, coupling = solved
    hot_in, cold_in = _inlets(coupling, result.x)
    geometry = dict(coupling.config.geometry or {})
    base = CascadePlate(coupling.spec, coupling.hot.fluid, coupling.cold.fluid, 0.95)
    geometry["correlation_factors"] = {
        "refrigerant_pressure_drop": 2.0,
        "secondary_pressure_drop": 0.5,
        "refrigerant_side": 1.5,
    }
    spec = parse_plate_spec(geometry, "thermal_couplings[0]")
    scaled = CascadePlate(spec, coupling.hot.fluid, coupling.cold.fluid, 0.95)
    s0, s1 = base.state(hot_in, cold_in), scaled.state(hot_in, cold_in)
    q = 0.9 * s0.solve(None)
    a, b = s0.solution(q), s1.solution(q)
    # at the same heat flow the friction scales exactly (the film factor moves only the areas)
    channel_a = sum(p.dp_hot / p.area for p in a.pieces)
    channel_b = sum(p.dp_hot / p.area for p in b.pieces)
    assert channel_b == pytest.approx(2.0 * channel_a, rel=1e-9)
    cold_a = sum(p.dp_cold / p.area for p in a.pieces)
    cold_b = sum(p.dp_cold / p.area for p in b.pieces)
    assert cold_b == pytest.approx(0.5 * cold_a, rel=1e-9)
    # a better hot film carries more heat through the same plates
    assert s1.solve(None) > s0.solve(None)
    assert b.area < a.area


def test_cascade_plate_jacobian_matches_central_differences(solved):
    doc, result, _ = solved
    system = prepare(doc)
    block = next(b for b in system.blocks if isinstance(b, PlateCoupling))
    x = result.x.copy()
    x[block.hot.ports["inlet"].h] *= 1.01  # away from the solution
    f0 = block.residuals(x)
    entries = block.jacobian(x, f0, system.step)
    assert block.linearised(x) is not None  # the implicit block, not the fallback
    analytic: dict[tuple[int, int], float] = {}
    for r, c, v in entries:
        analytic[(r, c)] = analytic.get((r, c), 0.0) + v
    for col in block.local_vars:
        d = 1e-5 * max(abs(x[col]), 1e-3 * system.var_scale[col])
        xp, xm = x.copy(), x.copy()
        xp[col] += d
        xm[col] -= d
        numeric = (block.residuals(xp) - block.residuals(xm)) / (2 * d)
        typical = system.var_scale[col]
        for row in (0, 1):
            got = analytic.get((row, col), 0.0)
            assert got * typical == pytest.approx(numeric[row] * typical, rel=1e-4, abs=1e-2), (
                row,
                system.var_names[col],
            )
    # the coupled coils' pressure rows: d dp / dx against differences of the drop
    drop = block.hot.external_pressure_drop
    assert drop is not None
    for col, d_dp in drop.derivatives(x):
        d = 1e-5 * max(abs(x[col]), 1e-3 * system.var_scale[col])
        xp, xm = x.copy(), x.copy()
        xp[col] += d
        xm[col] -= d
        numeric = (drop.value(xp) - drop.value(xm)) / (2 * d)
        typical = system.var_scale[col]
        assert d_dp * typical == pytest.approx(numeric * typical, rel=1e-3, abs=1e-3)


def test_cascade_plate_heat_flow_is_smooth_and_below_the_pinch(solved):
    _, result, coupling = solved
    hot_in, cold_in = _inlets(coupling, result.x)
    state = coupling.plate.state(hot_in, cold_in)
    qs = np.linspace(0.05, 0.95, 19) * state.q_max
    areas = [state.area_needed(float(q)) for q in qs]
    assert all(b > a for a, b in itertools.pairwise(areas))  # increasing in Q
    assert math.isinf(state.area_needed(state.q_max))


def test_cascade_plate_warnings_name_the_stream_and_the_range(solved):
    result = solved[1]
    plate = [w for w in result.warnings if w.startswith("thermal_couplings[0]")]
    # the hot stream's condensate is slow: Martin's Reynolds range is left there
    subcooled = [w for w in plate if "hot stream subcooled: Martin: Reynolds number" in w]
    # out at both ends of the zone: one line, with both ends' numbers
    assert len(subcooled) == 1, plate
    assert "at the saturated end (" in subcooled[0]
    # the pieces follow the fine profile at the inlet pressures to 1 %: no accuracy warning
    assert not any("fine profile" in w for w in plate)


def test_cascade_plate_fixed_charge_round_trip_sets_the_subcooling(solved):
    # the low stage's computed charge (its side of the plates included) given back as its
    # fixed charge, without the subcooling spec: the solve finds the same 2 K
    doc, result, _ = solved
    kg = next(c["kg"] for c in result.charge["circuits"] if c["circuit"] == 0)
    fixed = copy.deepcopy(doc)
    fixed["circuits"][0]["charge_kg"] = kg
    cond = next(c for c in fixed["circuits"][0]["components"] if c["name"] == "lt_condenser")
    del cond["subcooling_k"]
    other = solve(fixed)
    assert other.converged, other.message
    assert other.components["lt_condenser"]["subcooling"] == pytest.approx(2.0, abs=1e-5)
    more = copy.deepcopy(fixed)
    more["circuits"][0]["charge_kg"] = 1.1 * kg
    assert solve(more).components["lt_condenser"]["subcooling"] > 3.0
