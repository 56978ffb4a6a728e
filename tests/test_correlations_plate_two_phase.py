"""Plate evaporation, condensation and two-phase friction against the papers' equations by hand."""

from __future__ import annotations

import math

import pytest
from CoolProp.CoolProp import PropsSI
from ht.boiling_plate import h_boiling_Amalfi, h_boiling_Yan_Lin

from workbench.correlations.plate_two_phase import (
    plate_condensation_longo,
    plate_condensation_yan_lio_lin,
    plate_equivalent_reynolds,
    plate_evaporation_amalfi,
    plate_evaporation_yan_lin,
    plate_two_phase_friction_amalfi,
    plate_two_phase_pressure_drop_amalfi,
    plate_two_phase_range_warnings,
)

G_EARTH = 9.80665


def _saturation(fluid: str, t_k: float) -> dict[str, float]:
    p = {
        "rho_l": PropsSI("D", "T", t_k, "Q", 0, fluid),
        "rho_g": PropsSI("D", "T", t_k, "Q", 1, fluid),
        "mu_l": PropsSI("V", "T", t_k, "Q", 0, fluid),
        "mu_g": PropsSI("V", "T", t_k, "Q", 1, fluid),
        "k_l": PropsSI("L", "T", t_k, "Q", 0, fluid),
        "cp_l": PropsSI("C", "T", t_k, "Q", 0, fluid),
        "sigma": PropsSI("I", "T", t_k, "Q", 0, fluid),
    }
    p["h_lv"] = PropsSI("H", "T", t_k, "Q", 1, fluid) - PropsSI("H", "T", t_k, "Q", 0, fluid)
    return p


R290_EVAP = _saturation("R290", 271.15)
R290_COND = _saturation("R290", 318.15)


def _amalfi_by_hand(
    g: float, x: float, dh: float, q: float, beta: float, s: dict[str, float]
) -> float:
    bd = G_EARTH * (s["rho_l"] - s["rho_g"]) * dh**2 / s["sigma"]
    bo = q / (g * s["h_lv"])
    rho_star = s["rho_l"] / s["rho_g"]
    beta_star = beta / 70.0
    if bd < 4:
        rho_m = 1 / (x / s["rho_g"] + (1 - x) / s["rho_l"])
        we = g**2 * dh / (rho_m * s["sigma"])
        nu = 982 * beta_star**1.101 * we**0.315 * bo**0.320 * rho_star**-0.224
    else:
        re_g = g * x * dh / s["mu_g"]
        re_lo = g * dh / s["mu_l"]
        nu = 18.495 * beta_star**0.248 * re_g**0.135 * re_lo**0.351 * bd**0.235 * bo**0.198
        nu *= rho_star**-0.223
    return nu * s["k_l"] / dh


@pytest.mark.parametrize(("dh", "beta"), [(3.4e-3, 60.0), (3.4e-3, 45.0), (1.5e-3, 65.0)])
def test_plate_amalfi_matches_paper_equations(dh: float, beta: float) -> None:
    s = R290_EVAP
    args = (30.0, 0.4, dh, s["rho_l"], s["rho_g"], s["mu_l"], s["mu_g"], s["k_l"], s["h_lv"])
    h = plate_evaporation_amalfi(*args, s["sigma"], 8e3, beta)
    assert h == pytest.approx(_amalfi_by_hand(30.0, 0.4, dh, 8e3, beta, s), rel=1e-6)
    # against ht itself: the documented factor between beta_max 45/70 and the exponent
    h_ht = h_boiling_Amalfi(
        m=30.0, x=0.4, Dh=dh, rhol=s["rho_l"], rhog=s["rho_g"], mul=s["mu_l"], mug=s["mu_g"],
        kl=s["k_l"], Hvap=s["h_lv"], sigma=s["sigma"], q=8e3, A_channel_flow=1.0,
        chevron_angle=beta,
    )  # fmt: skip
    bond = G_EARTH * (s["rho_l"] - s["rho_g"]) * dh**2 / s["sigma"]
    factor = (45 / 70) ** 1.101 if bond < 4 else (beta / 70) ** 0.248 / (beta / 45) ** 0.135
    assert h == pytest.approx(h_ht * factor, rel=1e-12)
    assert 500.0 < h < 2e4


def test_plate_amalfi_grows_with_heat_flux_and_quality() -> None:
    s = R290_EVAP
    base = (30.0, 0.4, 3.4e-3, s["rho_l"], s["rho_g"], s["mu_l"], s["mu_g"], s["k_l"], s["h_lv"])
    low = plate_evaporation_amalfi(*base, s["sigma"], 5e3, 60.0)
    high = plate_evaporation_amalfi(*base, s["sigma"], 10e3, 60.0)
    assert high / low == pytest.approx(2.0**0.198, rel=1e-9)


def test_plate_yan_lin_is_ht() -> None:
    s = R290_EVAP
    h = plate_evaporation_yan_lin(
        40.0, 0.5, 3.4e-3, s["rho_l"], s["rho_g"], s["mu_l"], s["k_l"], s["h_lv"], s["cp_l"], 1e4
    )
    g_eq = 40.0 * (0.5 + 0.5 * math.sqrt(s["rho_l"] / s["rho_g"]))
    re_eq = g_eq * 3.4e-3 / s["mu_l"]
    pr = s["cp_l"] * s["mu_l"] / s["k_l"]
    by_hand = 1.926 * s["k_l"] / 3.4e-3 * re_eq * pr ** (1 / 3) * (1e4 / (g_eq * s["h_lv"])) ** 0.3
    by_hand *= (40.0 * 3.4e-3 / s["mu_l"]) ** -0.5
    assert h == pytest.approx(by_hand, rel=1e-12)
    assert h == pytest.approx(
        h_boiling_Yan_Lin(
            m=40.0,
            x=0.5,
            Dh=3.4e-3,
            rhol=s["rho_l"],
            rhog=s["rho_g"],
            mul=s["mu_l"],
            kl=s["k_l"],
            Hvap=s["h_lv"],
            Cpl=s["cp_l"],
            q=1e4,
            A_channel_flow=1.0,
        ),
        rel=1e-12,
    )


def test_plate_longo_forced_and_film_branches() -> None:
    s = R290_COND
    props = (s["rho_l"], s["rho_g"], s["mu_l"], s["k_l"], s["cp_l"], s["h_lv"])
    re_eq = plate_equivalent_reynolds(30.0, 0.5, 3.4e-3, s["rho_l"], s["rho_g"], s["mu_l"])
    assert re_eq > 1600
    pr = s["cp_l"] * s["mu_l"] / s["k_l"]
    h = plate_condensation_longo(30.0, 0.5, 3.4e-3, *props, 1.17)
    assert h == pytest.approx(1.875 * 1.17 * s["k_l"] / 3.4e-3 * re_eq**0.445 * pr ** (1 / 3))
    # low flux at low quality: gravity-controlled film, needs the wall subcooling
    re_low = plate_equivalent_reynolds(5.0, 0.1, 3.4e-3, s["rho_l"], s["rho_g"], s["mu_l"])
    assert re_low < 1600
    with pytest.raises(ValueError, match="wall_subcooling_k"):
        plate_condensation_longo(5.0, 0.1, 3.4e-3, *props, 1.17)
    h_film = plate_condensation_longo(
        5.0, 0.1, 3.4e-3, *props, 1.17, wall_subcooling_k=3.0, plate_length_m=0.25
    )
    nusselt = (
        s["k_l"] ** 3 * s["rho_l"] ** 2 * G_EARTH * s["h_lv"] / (s["mu_l"] * 3.0 * 0.25)
    ) ** 0.25
    assert h_film == pytest.approx(0.943 * 1.17 * nusselt, rel=1e-6)
    assert 300.0 < h_film < h * 3


def test_plate_yan_lio_lin_condensation() -> None:
    s = R290_COND
    h = plate_condensation_yan_lio_lin(
        60.0, 0.5, 3.4e-3, s["rho_l"], s["rho_g"], s["mu_l"], s["k_l"], s["cp_l"]
    )
    re_eq = plate_equivalent_reynolds(60.0, 0.5, 3.4e-3, s["rho_l"], s["rho_g"], s["mu_l"])
    pr = s["cp_l"] * s["mu_l"] / s["k_l"]
    assert h == pytest.approx(4.118 * s["k_l"] / 3.4e-3 * re_eq**0.4 * pr ** (1 / 3))


def test_plate_amalfi_friction_by_hand() -> None:
    s = R290_EVAP
    g, x, dh, beta = 30.0, 0.5, 3.4e-3, 60.0
    rho_m = 1 / (x / s["rho_g"] + (1 - x) / s["rho_l"])
    we = g**2 * dh / (rho_m * s["sigma"])
    bd = G_EARTH * (s["rho_l"] - s["rho_g"]) * dh**2 / s["sigma"]
    c = 2.125 * (beta / 70) ** 9.993 + 0.955
    f = c * 15.698 * we**-0.475 * bd**0.255 * (s["rho_l"] / s["rho_g"]) ** -0.571
    args = (g, x, dh, s["rho_l"], s["rho_g"], s["sigma"], beta)
    assert plate_two_phase_friction_amalfi(*args) == pytest.approx(f, rel=1e-12)
    dp = plate_two_phase_pressure_drop_amalfi(*args, 0.25)
    assert dp == pytest.approx(2 * f * g**2 * 0.25 / (rho_m * dh), rel=1e-12)
    # a soft plate (low angle) loses less than a hard one
    soft = plate_two_phase_pressure_drop_amalfi(
        g, x, dh, s["rho_l"], s["rho_g"], s["sigma"], 30.0, 0.25
    )
    assert soft < dp
    assert 100.0 < dp < 1e5


def test_plate_two_phase_range_warnings() -> None:
    assert plate_two_phase_range_warnings("amalfi", 65.0) == []
    assert plate_two_phase_range_warnings("amalfi", 75.0) == [
        "Amalfi: chevron angle [deg] 75 outside [0, 70]"
    ]
    out = plate_two_phase_range_warnings("yan_lin", 45.0, 1500.0)
    assert out == [
        "Yan-Lin: chevron angle [deg] 45, fitted at 60 only",
        "Yan-Lin: Re_eq 1500 outside [2000, 10000]",
    ]
    assert plate_two_phase_range_warnings("longo", 65.0) == []
    with pytest.raises(ValueError, match="amalfi, yan_lin"):
        plate_two_phase_range_warnings("shah", 60.0)
