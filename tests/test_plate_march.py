"""The brazed plate march against independent calculations (real CoolProp, R290).

The zone reference is built here from the floor correlations and CoolProp's ``PropsSI`` alone:
a moving-boundary model (desuperheating, condensing, subcooling zones, each a counterflow
exchanger with its zone-mean coefficients, ``UA_z = Q_z / LMTD_z``) whose zone areas must add up
to the plate area. The march shares no code with it but the floor's correlation functions.
"""

from __future__ import annotations

import itertools
import math

import CoolProp.CoolProp as CP
import pytest
from scipy.optimize import brentq

from workbench.components.exchangers.plate.march import PlateModel, march, solve_plate
from workbench.components.exchangers.plate.spec import parse_plate_spec
from workbench.correlations.plate_single_phase import (
    plate_channel_mass_flux,
    plate_nusselt,
    plate_reynolds,
)
from workbench.correlations.plate_two_phase import plate_condensation_longo
from workbench.fluids import get_backend, get_secondary
from workbench.fluids.secondary_transport import secondary_transport
from workbench.fluids.transport import transport_for

GEOMETRY = {
    "kind": "brazed_plate",
    "plates": 34,
    "plate_length_m": 0.278,
    "plate_width_m": 0.112,
    "chevron_angle_deg": 60,
    "corrugation_pitch_m": 0.007,
    "channel_gap_m": 0.002,
    "plate_thickness_m": 0.0004,
    "port_diameter_m": 0.024,
}
FLUID = "R290"
T_W_IN = 303.15
M_W = 0.38


def _model(hot: bool, secondary: str = "water", **extra: object) -> PlateModel:
    spec = parse_plate_spec({**GEOMETRY, **extra}, "condenser" if hot else "evaporator")
    fl = get_backend(FLUID, "CoolProp")
    return PlateModel(
        spec, fl, transport_for(fl), get_secondary(secondary), secondary_transport(secondary), hot
    )


def _condenser_inlet() -> tuple[float, float, float]:
    p = CP.PropsSI("P", "T", 313.15, "Q", 1, FLUID)
    h = CP.PropsSI("H", "T", 338.15, "P", p, FLUID)
    return p, h, 0.021


def _water(t: float) -> tuple[float, float, float, float]:
    """rho, mu, k, cp of water at 3 bar [SI] from CoolProp (independent of the fits)."""
    return tuple(CP.PropsSI(k, "T", t, "P", 3e5, "Water") for k in ("D", "V", "L", "C"))  # type: ignore[return-value]


def _film_single(model: PlateModel, m: float, side: str, rho: float, mu: float, k: float,
                 cp: float) -> float:  # fmt: skip
    g = model.spec.geometry
    flux = plate_channel_mass_flux(m, g.side_channels(side), g.channel_flow_area_m2)
    re = plate_reynolds(flux, g.hydraulic_diameter_m, mu)
    nu = plate_nusselt(re, cp * mu / k, g.chevron_angle_deg, g.enlargement_factor)
    return nu * k / g.hydraulic_diameter_m


def _lmtd(d1: float, d2: float) -> float:
    return d1 if abs(d1 - d2) < 1e-9 else (d1 - d2) / math.log(d1 / d2)


def _zone_reference(model: PlateModel, p: float, h_in: float, m: float) -> float:
    """Heat flow [W] of the three-zone counterflow model at constant pressure (module doc)."""
    g = model.spec.geometry
    area = g.heat_transfer_area_m2
    water = get_secondary("water")
    h_l = CP.PropsSI("H", "P", p, "Q", 0, FLUID)
    h_v = CP.PropsSI("H", "P", p, "Q", 1, FLUID)
    t_sat = CP.PropsSI("T", "P", p, "Q", 0, FLUID)
    sat = {
        key: CP.PropsSI(prop, "P", p, "Q", q, FLUID)
        for key, prop, q in (
            ("rho_l", "D", 0), ("rho_g", "D", 1), ("mu_l", "V", 0), ("k_l", "L", 0),
            ("cp_l", "C", 0),
        )
    }  # fmt: skip
    flux_ref = plate_channel_mass_flux(m, g.channels_refrigerant, g.channel_flow_area_m2)
    r_wall = g.wall_resistance_m2_k_w

    def areas(q: float) -> float:
        h_out = h_in - q / m
        cuts = [h_in, max(h_v, h_out)]
        if h_out < h_v:
            cuts.append(max(h_l, h_out))
        if h_out < h_l:
            cuts.append(h_out)
        total = 0.0
        hw = water.h(T_W_IN)
        # the water leaves at the refrigerant inlet: walk from the refrigerant outlet end
        temps_w = [0.0] * len(cuts)
        temps_w[-1] = T_W_IN
        for i in range(len(cuts) - 1, 0, -1):
            hw += m * (cuts[i - 1] - cuts[i]) / M_W
            temps_w[i - 1] = water.T_h(hw)
        for i in range(len(cuts) - 1):
            a, b = cuts[i], cuts[i + 1]
            if a - b <= 0.0:
                continue
            q_z = m * (a - b)
            t_a = CP.PropsSI("T", "P", p, "H", a, FLUID) if a > h_v or a < h_l else t_sat
            t_b = CP.PropsSI("T", "P", p, "H", b, FLUID) if b > h_v or b < h_l else t_sat
            d1, d2 = t_a - temps_w[i], t_b - temps_w[i + 1]
            if d1 <= 0 or d2 <= 0:
                return math.inf
            ua = q_z / _lmtd(d1, d2)
            t_wm = 0.5 * (temps_w[i] + temps_w[i + 1])
            h_w = _film_single(model, M_W, "secondary", *_water(t_wm))
            if a > h_v - 1e-6 and b >= h_v - 1e-6:  # vapour
                t_m = 0.5 * (t_a + t_b) + 0.05
                props = [CP.PropsSI(k, "T", t_m, "P", p, FLUID) for k in ("D", "V", "L", "C")]
                h_r = _film_single(model, m, "refrigerant", *props)
            elif b < h_l + 1e-6 and a <= h_l + 1e-6:  # liquid
                t_m = 0.5 * (t_a + t_b) - 0.05
                props = [CP.PropsSI(k, "T", t_m, "P", p, FLUID) for k in ("D", "V", "L", "C")]
                h_r = _film_single(model, m, "refrigerant", *props)
            else:  # condensing: Longo averaged over the zone's quality, flux iterated
                x_a, x_b = (a - h_l) / (h_v - h_l), (b - h_l) / (h_v - h_l)
                flux_q, h_r = 1e4, 2000.0
                for _ in range(20):
                    nodes = [x_b + (x_a - x_b) * (j + 0.5) / 8 for j in range(8)]
                    values = []
                    for x in nodes:
                        try:
                            values.append(plate_condensation_longo(
                                flux_ref, x, g.hydraulic_diameter_m, sat["rho_l"], sat["rho_g"],
                                sat["mu_l"], sat["k_l"], sat["cp_l"], h_v - h_l,
                                g.enlargement_factor, flux_q / h_r, g.plate_length_m,
                            ))  # fmt: skip
                        except ValueError:
                            values.append(h_r)
                    h_r = sum(values) / len(values)
                    u = 1.0 / (1.0 / h_r + r_wall + 1.0 / h_w)
                    flux_q = u * _lmtd(d1, d2)  # the zone-mean heat flux
            u = 1.0 / (1.0 / h_r + r_wall + 1.0 / h_w)
            total += ua / u
        return total

    q_hi = m * (h_in - CP.PropsSI("H", "P", p, "T", T_W_IN + 0.01, FLUID))
    return float(brentq(lambda q: areas(q) - area, 1.0, q_hi * 0.999999, xtol=1e-6))


def test_plate_condenser_against_zone_reference() -> None:
    # no refrigerant pressure drop in either (the zone model holds the pressure)
    model = _model(True, correlation_factors={"refrigerant_pressure_drop": 1e-9})
    p, h, m = _condenser_inlet()
    res = solve_plate(model, p, h, m, T_W_IN, M_W)
    q_ref = _zone_reference(model, p, h, m)
    # measured 7597 W against 7731 W (1.7 % below: the march blends the condensing coefficient
    # to the vapour's over the last 5 % of quality, the zone model does not; 7633 W with the
    # midpoint pieces of 20 segments before 2026-11-28, 7578 W the march's own limit)
    assert res.q == pytest.approx(q_ref, rel=0.03)
    assert abs(res.q - q_ref) > 0.0  # two different models: not the same number


def test_plate_march_default_segments_against_80() -> None:
    p, h, m = _condenser_inlet()
    coarse = solve_plate(_model(True), p, h, m, T_W_IN, M_W)
    fine = solve_plate(_model(True, segments=80), p, h, m, T_W_IN, M_W)
    finer = solve_plate(_model(True, segments=160), p, h, m, T_W_IN, M_W)
    # measured: 7590.4 W (the default N = 12, two-phase pieces by Simpson's rule), 7579.5 W
    # (80), 7578.8 W (160), 7578.5 W (320); the midpoint pieces gave 7632 W with N = 20
    assert coarse.q == pytest.approx(fine.q, rel=3e-3)
    assert len(coarse.pieces) < len(finer.pieces) / 10  # the default: 12 segments
    assert fine.q == pytest.approx(finer.q, rel=2e-3)
    assert abs(fine.q - finer.q) < abs(coarse.q - fine.q)
    assert p - coarse.p_out == pytest.approx(p - fine.p_out, rel=2e-2)
    assert coarse.t_sec_out == pytest.approx(fine.t_sec_out, abs=0.05)


def test_plate_evaporator_segments_and_energy_balance() -> None:
    model = _model(False, secondary="MPG30")
    p = CP.PropsSI("P", "T", 266.15, "Q", 1, FLUID)
    h = CP.PropsSI("H", "T", 309.15, "Q", 0, FLUID)
    res = solve_plate(model, p, h, 0.021, 273.15, 0.55)
    fine = solve_plate(_model(False, secondary="MPG30", segments=80), p, h, 0.021, 273.15, 0.55)
    assert res.q == pytest.approx(fine.q, rel=1e-2)
    brine = get_secondary("MPG30")
    q_brine = 0.55 * (brine.h(273.15) - brine.h(res.t_sec_out))
    assert res.q == pytest.approx(q_brine, rel=1e-9)
    assert res.t_sec_end == pytest.approx(273.15, abs=1e-8)


def test_plate_condenser_energy_balance_m_cp_dt() -> None:
    p, h, m = _condenser_inlet()
    res = solve_plate(_model(True), p, h, m, T_W_IN, M_W)
    # refrigerant Q = m_w cp dT with the water's cp of CoolProp at the mean temperature
    t_mean = 0.5 * (T_W_IN + res.t_sec_out)
    cp = CP.PropsSI("C", "T", t_mean, "P", 3e5, "Water")
    assert res.q == pytest.approx(M_W * cp * (res.t_sec_out - T_W_IN), rel=2e-3)
    assert res.q == pytest.approx(m * (h - res.h_out), rel=1e-12)
    assert res.t_sec_end == pytest.approx(T_W_IN, abs=1e-8)


def test_plate_march_is_smooth_for_finite_differences() -> None:
    model = _model(True)
    p, h, m = _condenser_inlet()
    base = solve_plate(model, p, h, m, T_W_IN, M_W)
    slopes = []
    for dh in (1.0, 4.0, 16.0):
        moved = solve_plate(model, p, h + dh, m, T_W_IN, M_W, start=base.t_sec_out)
        slopes.append((moved.q - base.q) / dh)
    # forward differences of step 1, 4 and 16 J/kg agree (no noise, no kink)
    assert slopes[0] == pytest.approx(slopes[1], rel=2e-3, abs=1e-4)
    assert slopes[1] == pytest.approx(slopes[2], rel=1e-2, abs=1e-4)


def test_plate_shooting_does_not_depend_on_its_start() -> None:
    model = _model(True)
    p, h, m = _condenser_inlet()
    a = solve_plate(model, p, h, m, T_W_IN, M_W)
    b = solve_plate(model, p, h, m, T_W_IN, M_W, start=T_W_IN + 0.3, slope=0.5)
    assert a.q == pytest.approx(b.q, rel=1e-9)


def test_plate_march_pieces_cover_the_plate() -> None:
    model = _model(True)
    p, h, m = _condenser_inlet()
    res = solve_plate(model, p, h, m, T_W_IN, M_W)
    g = model.spec.geometry
    assert sum(pc.area for pc in res.pieces) == pytest.approx(g.heat_transfer_area_m2, rel=1e-12)
    assert sum(pc.q for pc in res.pieces) == pytest.approx(res.q, rel=1e-12)
    zones = [pc.zone for pc in res.pieces]
    assert zones[0] == "superheated"
    assert "two-phase" in zones
    # a march from a colder secondary outlet ends colder (the shooting's monotonic residual)
    cold = march(model, p, h, m, T_W_IN, M_W, res.t_sec_out - 0.5)
    assert cold.t_sec_end < res.t_sec_end


@pytest.mark.parametrize(
    ("hot", "options"),
    [
        (True, {}),
        (False, {}),
        (True, {"condensation_correlation": "yan_lio_lin"}),
        (False, {"evaporation_correlation": "yan_lin"}),
        (False, {"channel_gap_m": 0.0045, "corrugation_pitch_m": 0.012}),  # Amalfi's Bd >= 4
    ],
)
def test_plate_kernel_equals_the_correlations(hot: bool, options: dict[str, object]) -> None:
    from fluids.core import Bond

    from workbench.components.exchangers.plate.kernel import TwoPhaseKernel
    from workbench.components.exchangers.plate.sides import (
        phase_film,
        two_phase_film,
        two_phase_friction_rate,
    )

    model = _model(hot, **options)
    spec = model.spec
    p = CP.PropsSI("P", "T", 313.15 if hot else 266.15, "Q", 1, FLUID)
    sat = model.transport.saturation(p)
    flux = 30.0
    edge = (phase_film(spec, flux, sat.liquid)[0], phase_film(spec, flux, sat.vapour)[0])
    kernel = TwoPhaseKernel(spec, hot, flux, sat, edge)
    for x in (0.001, 0.03, 0.2, 0.5, 0.8, 0.97, 0.999):
        for q in (500.0, 5e3, 4e4):
            direct = two_phase_film(spec, hot, flux, x, sat, q, edge)
            assert kernel.film(x, q) == pytest.approx(direct, rel=1e-12)
        rate = two_phase_friction_rate(spec, flux, x, sat)
        assert kernel.friction_rate(x) == pytest.approx(rate, rel=1e-12)
    if "channel_gap_m" in options:  # the macro-scale branch was exercised
        d_h = spec.hydraulic_diameter_m
        assert Bond(rhol=sat.liquid.rho, rhog=sat.vapour.rho, sigma=sat.sigma, L=d_h) >= 4.0


def test_plate_march_has_no_jump_where_a_zone_crosses_a_segment_end() -> None:
    # the dew point moves along the plate as the secondary outlet does; where it crosses a
    # segment end the heat flow must not jump (a jump of 4.5 W here once made the shooting's
    # bracket collapse without a root: the piece's fixed point is now converged)
    from workbench.components.exchangers.plate.march import secondary_film

    model = _model(True)
    p, h, m = _condenser_inlet()
    base = solve_plate(model, p, h, m, T_W_IN, M_W)
    film = secondary_film(model, float(model.fluid.T_ph(p, h)), T_W_IN, M_W)
    temps = [base.t_sec_out - 1.0 + 2.0 * i / 2000 for i in range(2001)]
    qs = [march(model, p, h, m, T_W_IN, M_W, t, 1.0, 1.0, film).q for t in temps]
    steps = sorted(abs(b - a) for a, b in itertools.pairwise(qs))
    median = steps[len(steps) // 2]
    assert steps[-1] < 3.0 * median
