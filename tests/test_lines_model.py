"""The line model at one operating point: friction, fittings, static head, two phase, continuity.

Each drop is rebuilt independently: CoolProp's PropsSI for the properties, ``fluids`` for the
friction and fittings, and by hand (Darcy with Churchill's and Colebrook's factors).
"""

from __future__ import annotations

import itertools
import math

import pytest
from CoolProp.CoolProp import PropsSI
from fluids.core import dP_from_K
from fluids.fittings import K_ball_valve_Crane, bend_rounded_Crane
from fluids.friction import one_phase_dP
from fluids.two_phase import Muller_Steinhagen_Heck
from fluids.two_phase_voidage import Rouhani_1

from workbench.components.exchangers.lines.geometry import line_geometry
from workbench.components.exchangers.lines.model import line_point
from workbench.fluids import get_backend
from workbench.fluids.transport import transport_for as line_transport

G_EARTH = 9.80665
D_34 = (0.750 - 2 * 0.042) * 0.0254  # 3/4 in ACR drawn: 16.92 mm
D_38 = (0.375 - 2 * 0.032) * 0.0254  # 3/8 in ACR coil: 7.90 mm


def _churchill_by_hand(re: float, ed: float) -> float:
    a = (2.457 * math.log(1.0 / ((7.0 / re) ** 0.9 + 0.27 * ed))) ** 16
    b = (37530.0 / re) ** 16
    return 8.0 * ((8.0 / re) ** 12 + (a + b) ** -1.5) ** (1.0 / 12.0)


@pytest.fixture(scope="module")
def r32():
    return get_backend("R32", "CoolProp")


def _geometry(d: float, **extra: object):
    return line_geometry({"length_m": 10.0, "inner_diameter_m": d, **extra})


def test_lines_model_vapour_against_fluids_and_churchill_by_hand(r32) -> None:
    # R32 suction vapour, 10 C saturated + 8 K superheat, 36 g/s through 10 m of 3/4 in
    p = PropsSI("P", "T", 283.15, "Q", 1, "R32")
    h_in = PropsSI("H", "T", 291.15, "P", p, "R32")
    p_out, h_out = p - 6000.0, h_in + 1500.0  # any outlet: the model reads the mean state
    geom = _geometry(D_34, fittings={"elbow_90": 4, "ball_valve": 1}, elevation_m=3.0)
    pt = line_point(r32, line_transport(r32), geom, 0.036, p, h_in, p_out, h_out)
    pm, hm = p - 3000.0, h_in + 750.0
    rho = PropsSI("D", "P", pm, "H", hm, "R32")
    t = PropsSI("T", "P", pm, "H", hm, "R32")
    mu = PropsSI("V", "P", pm, "T", t, "R32")
    # fluids on its own (Colebrook by Clamond's solution, Crane's fittings)
    assert pt.drop.friction_pa == pytest.approx(
        one_phase_dP(0.036, rho, mu, D_34, 1.5e-6, 10.0), rel=1e-6
    )
    k = 4 * bend_rounded_Crane(Di=D_34, angle=90.0, bend_diameters=1.5) + K_ball_valve_Crane(
        D_34, D_34, 0.0
    )
    v = 0.036 / (rho * math.pi * D_34**2 / 4)
    assert pt.drop.velocity_m_s == pytest.approx(v, rel=1e-6)
    assert pt.drop.fittings_pa == pytest.approx(dP_from_K(k, rho, v), rel=1e-6)
    assert pt.drop.static_pa == pytest.approx(rho * G_EARTH * 3.0, rel=1e-6)
    # by hand: Darcy with Churchill's factor, within Churchill's 2 % of Colebrook
    re = rho * v * D_34 / mu
    darcy = _churchill_by_hand(re, 1.5e-6 / D_34) * 10.0 / D_34 * rho * v**2 / 2
    assert pt.drop.friction_pa == pytest.approx(darcy, rel=0.02)
    assert pt.quality is None
    assert pt.t_mean_k == pytest.approx(t, abs=1e-6)


def test_lines_model_two_phase_against_muller_steinhagen_heck(r32) -> None:
    # R32 at 8 C, x = 0.25 at the mean state, 36 g/s in 3/8 in: a two-phase line
    p = PropsSI("P", "T", 281.15, "Q", 0, "R32")
    h_l, h_g = PropsSI("H", "P", p, "Q", 0, "R32"), PropsSI("H", "P", p, "Q", 1, "R32")
    hm = h_l + 0.25 * (h_g - h_l)
    geom = _geometry(D_38, fittings={"elbow_90": 2}, elevation_m=-2.0)
    pt = line_point(
        r32, line_transport(r32), geom, 0.036, p + 500.0, hm - 100.0, p - 500.0, hm + 100.0
    )
    assert pt.quality == pytest.approx(0.25, rel=1e-6)
    rho_l, rho_g = PropsSI("D", "P", p, "Q", 0, "R32"), PropsSI("D", "P", p, "Q", 1, "R32")
    mu_l, mu_g = PropsSI("V", "P", p, "Q", 0, "R32"), PropsSI("V", "P", p, "Q", 1, "R32")
    sigma = PropsSI("I", "P", p, "Q", 0, "R32")
    msh = Muller_Steinhagen_Heck(
        m=0.036,
        x=0.25,
        rhol=rho_l,
        rhog=rho_g,
        mul=mu_l,
        mug=mu_g,
        D=D_38,
        L=10.0,
        roughness=1.5e-6,
    )
    assert pt.drop.friction_pa == pytest.approx(msh, rel=1e-5)
    rho_h = 1.0 / (0.25 / rho_g + 0.75 / rho_l)
    v = 0.036 / (rho_h * math.pi * D_38**2 / 4)
    k = 2 * bend_rounded_Crane(Di=D_38, angle=90.0, bend_diameters=1.5)
    assert pt.drop.fittings_pa == pytest.approx(k * rho_h * v**2 / 2, rel=1e-5)
    alpha = Rouhani_1(x=0.25, rhol=rho_l, rhog=rho_g, sigma=sigma, m=0.036, D=D_38)
    assert pt.drop.static_pa == pytest.approx(
        (alpha * rho_g + (1 - alpha) * rho_l) * G_EARTH * -2.0, rel=1e-5
    )
    assert pt.t_mean_k == pytest.approx(281.15, abs=1e-3)


def test_lines_model_static_head_sign(r32) -> None:
    p = PropsSI("P", "T", 313.15, "Q", 0, "R32")
    h = PropsSI("H", "T", 309.15, "P", p, "R32")  # 4 K subcooled liquid
    transport = line_transport(r32)
    drops = {
        dz: line_point(r32, transport, _geometry(D_38, elevation_m=dz), 0.036, p, h, p, h).drop
        for dz in (-3.0, 0.0, 3.0)
    }
    rho = PropsSI("D", "P", p, "H", h, "R32")
    assert drops[3.0].static_pa == pytest.approx(rho * G_EARTH * 3.0, rel=1e-6)  # a riser loses
    assert drops[-3.0].static_pa == pytest.approx(-rho * G_EARTH * 3.0, rel=1e-6)  # down gains
    assert drops[0.0].static_pa == 0.0
    assert drops[3.0].friction_pa == pytest.approx(drops[-3.0].friction_pa, rel=1e-12)
    assert drops[-3.0].total_pa < 0.0  # 3 m of liquid head outweighs the friction of 10 m


@pytest.mark.parametrize("side", ["liquid", "vapour"])
def test_lines_model_pressure_drop_is_continuous_across_the_saturation_line(r32, side) -> None:
    p = PropsSI("P", "T", 283.15, "Q", 0, "R32")
    h_sat = PropsSI("H", "P", p, "Q", 0 if side == "liquid" else 1, "R32")
    transport = line_transport(r32)
    geom = _geometry(D_38, fittings={"elbow_90": 4}, elevation_m=1.0)
    below = line_point(r32, transport, geom, 0.03, p, h_sat - 5.0, p, h_sat - 5.0)
    above = line_point(r32, transport, geom, 0.03, p, h_sat + 5.0, p, h_sat + 5.0)
    assert (below.two_phase, above.two_phase) == (
        (False, True) if side == "liquid" else (True, False)
    )
    # 10 J/kg apart (quality 4e-5): no step between the regimes, only the slope changes
    assert above.drop.total_pa == pytest.approx(below.drop.total_pa, rel=5e-3)


def test_lines_model_heat_gain_through_wall_and_insulation(r32) -> None:
    p = PropsSI("P", "T", 283.15, "Q", 1, "R32")
    h = PropsSI("H", "T", 291.15, "P", p, "R32")
    d_o, t_ins, k_ins = 0.01905, 0.009, 0.035
    geom = _geometry(D_34, outer_diameter_m=d_o, insulation_thickness_m=t_ins,
                     insulation_conductivity_w_m_k=k_ins, ambient_temp_c=35.0)  # fmt: skip
    pt = line_point(r32, line_transport(r32), geom, 0.036, p, h, p, h)
    d_ins = d_o + 2 * t_ins
    r = (
        math.log(d_o / D_34) / (2 * math.pi * 340.0)
        + math.log(d_ins / d_o) / (2 * math.pi * k_ins)
        + 1.0 / (9.0 * math.pi * d_ins)
    )
    t = PropsSI("T", "P", p, "H", h, "R32")
    assert pt.heat_gain_w == pytest.approx(10.0 * (308.15 - t) / r, rel=1e-9)
    assert pt.heat_gain_w > 0.0  # a cold suction line in a warm room gains
    adiabatic = line_point(r32, line_transport(r32), _geometry(D_34), 0.036, p, h, p, h)
    assert adiabatic.heat_gain_w == 0.0


def test_lines_model_reverse_flow_reverses_friction_not_head(r32) -> None:
    p = PropsSI("P", "T", 313.15, "Q", 0, "R32")
    h = PropsSI("H", "T", 309.15, "P", p, "R32")
    geom = _geometry(D_38, elevation_m=2.0, fittings={"elbow_90": 1})
    tr = line_transport(r32)
    fwd = line_point(r32, tr, geom, 0.02, p, h, p, h).drop
    back = line_point(r32, tr, geom, -0.02, p, h, p, h).drop
    assert back.friction_pa == pytest.approx(-fwd.friction_pa, rel=1e-12)
    assert back.fittings_pa == pytest.approx(-fwd.fittings_pa, rel=1e-12)
    assert back.static_pa == fwd.static_pa


def test_lines_model_dryout_band_has_a_bounded_slope_and_meets_msh(r32) -> None:
    from workbench.components.exchangers.lines.model import DRYOUT_BAND

    p = PropsSI("P", "T", 283.15, "Q", 0, "R32")
    h_l, h_g = PropsSI("H", "P", p, "Q", 0, "R32"), PropsSI("H", "P", p, "Q", 1, "R32")
    tr, geom = line_transport(r32), _geometry(D_38)

    def friction(x: float) -> float:
        h = h_l + x * (h_g - h_l)
        return line_point(r32, tr, geom, 0.03, p, h, p, h).drop.friction_pa

    rho_l, rho_g = PropsSI("D", "P", p, "Q", 0, "R32"), PropsSI("D", "P", p, "Q", 1, "R32")
    mu_l, mu_g = PropsSI("V", "P", p, "Q", 0, "R32"), PropsSI("V", "P", p, "Q", 1, "R32")
    x_a = 1.0 - DRYOUT_BAND
    msh_a = Muller_Steinhagen_Heck(
        0.03, x_a, rho_l, rho_g, mu_l, mu_g, D=D_38, L=10.0, roughness=1.5e-6
    )
    assert friction(x_a - 1e-9) == pytest.approx(msh_a, rel=1e-6)
    assert friction(x_a + 1e-9) == pytest.approx(msh_a, rel=1e-6)
    # slope over the band: a few gas-only drops per unit quality, not MSH's vertical tangent
    go = Muller_Steinhagen_Heck(
        0.03, 1.0, rho_l, rho_g, mu_l, mu_g, D=D_38, L=10.0, roughness=1.5e-6
    )
    xs = [x_a + k * DRYOUT_BAND / 20 for k in range(20)] + [1.0 - 1e-6]
    slopes = [(friction(b) - friction(a)) / (b - a) for a, b in itertools.pairwise(xs)]
    assert max(abs(s) for s in slopes) < 20.0 * go
    assert friction(1.0 - 1e-6) == pytest.approx(go, rel=1e-3)
