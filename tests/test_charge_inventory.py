import math

import numpy as np
import pytest
from charge_cases import charge_doc
from CoolProp.CoolProp import PropsSI
from scipy.integrate import quad

import workbench
from workbench.components.inventory.density import (
    path_zones,
    single_phase_density,
    two_phase_density,
)
from workbench.components.inventory.void_fraction import (
    STATE_MODELS,
    VOID_FRACTION_MODELS,
    homogeneous,
    lockhart_martinelli,
    premoli,
    smith,
    zivi,
)
from workbench.fluids import get_backend
from workbench.scenario.models import VOID_FRACTION_NAMES
from workbench.solver.results import SUMMARY_KEYS


@pytest.fixture(scope="module")
def fixed_subcooling():
    return workbench.solve(charge_doc(subcooling_k=3.0, void_fraction="homogeneous"))


def _item(result, name):
    return next(i for i in result.charge["items"] if i["name"] == name)


def test_liquid_full_line_holds_rho_times_volume(fixed_subcooling):
    r = fixed_subcooling
    state = next(s for s in r.edge_states if s.src == "condenser" and s.dst == "valve")
    assert state.phase == "liquid"
    rho = PropsSI("D", "P", state.p_pa, "H", state.h_j_kg, "R290")
    item = _item(r, "condenser:outlet -> valve:inlet")
    assert item["kg"] == pytest.approx(rho * 1e-4, rel=1e-9)


def test_homogeneous_two_phase_zone_equals_quad_over_quality(fixed_subcooling):
    r = fixed_subcooling
    inlet = next(s for s in r.edge_states if s.dst == "evaporator")
    p, h = inlet.p_pa, inlet.h_j_kg
    rho_l = PropsSI("D", "P", p, "Q", 0, "R290")
    rho_g = PropsSI("D", "P", p, "Q", 1, "R290")
    x_in = PropsSI("Q", "P", p, "H", h, "R290")

    def rho_hom(x):
        return 1.0 / (x / rho_g + (1.0 - x) / rho_l)

    integral, _err = quad(rho_hom, x_in, 1.0, epsabs=1e-12, epsrel=1e-12)
    expected = integral / (1.0 - x_in)
    zone = next(z for z in _item(r, "evaporator")["zones"] if z["zone"] == "two-phase")
    assert zone["density_kg_m3"] == pytest.approx(expected, rel=1e-7)
    assert zone["kg"] == pytest.approx(zone["volume_m3"] * expected, rel=1e-7)


@pytest.mark.parametrize("model", [zivi, smith, lockhart_martinelli])
def test_gauss_legendre_two_phase_density_matches_quad(model):
    rho_l, rho_g = 500.0, 12.0

    def rho(x):
        a = float(model(np.array([x]), rho_l, rho_g)[0])
        return a * rho_g + (1 - a) * rho_l

    for xa, xb in [(0.2, 1.0), (0.0, 1.0), (0.3, 0.6)]:
        expected = quad(rho, xa, xb, epsabs=1e-12, limit=200)[0] / (xb - xa)
        assert two_phase_density(model, rho_l, rho_g, xa, xb) == pytest.approx(expected, rel=2e-3)


def test_homogeneous_closed_form_matches_quad():
    rho_l, rho_g = 480.0, 30.0
    expected = quad(lambda x: 1 / (x / rho_g + (1 - x) / rho_l), 0.25, 0.9)[0] / 0.65
    assert two_phase_density(homogeneous, rho_l, rho_g, 0.25, 0.9) == pytest.approx(
        expected, rel=1e-10
    )


def test_zivi_void_fraction_by_hand():
    rho_l, rho_g, x = 500.0, 10.0, 0.3
    slip = (rho_l / rho_g) ** (1 / 3)
    alpha = 1 / (1 + (1 - x) / x * slip * rho_g / rho_l)
    assert float(zivi(np.array([x]), rho_l, rho_g)[0]) == pytest.approx(alpha, rel=1e-12)


@pytest.mark.parametrize("name", sorted(VOID_FRACTION_MODELS))
def test_void_fraction_is_bounded_and_rises_with_quality(name):
    model = VOID_FRACTION_MODELS[name]
    x = np.linspace(0.0, 1.0, 101)
    alpha = model(x, 520.0, 15.0)
    assert alpha[0] == 0.0
    assert alpha[-1] == 1.0
    assert np.all(np.diff(alpha) > 0)


@pytest.mark.parametrize("model", [zivi, smith])
def test_slip_models_hold_less_vapour_than_homogeneous(model):
    # a slip ratio above 1 makes the vapour faster: less of the tube is vapour
    x = np.linspace(0.01, 0.99, 99)
    assert np.all(model(x, 520.0, 15.0) < homogeneous(x, 520.0, 15.0))


def test_scenario_void_fraction_names_are_the_models():
    assert set(VOID_FRACTION_NAMES) == set(VOID_FRACTION_MODELS) | set(STATE_MODELS)


def test_premoli_by_hand():
    rho_l, rho_g, x = 480.0, 30.0, 0.4
    mu_l, sigma, g, d = 1e-4, 5e-3, 250.0, 0.008
    re, we = g * d / mu_l, g**2 * d / (sigma * rho_l)
    e1 = 1.578 * re**-0.19 * (rho_l / rho_g) ** 0.22
    e2 = 0.0273 * we * re**-0.51 * (rho_l / rho_g) ** -0.08
    beta = x * rho_l / (x * rho_l + (1 - x) * rho_g)
    y = beta / (1 - beta)
    slip = 1 + e1 * math.sqrt(y / (1 + y * e2) - y * e2)
    alpha = 1 / (1 + (1 - x) / x * slip * rho_g / rho_l)
    got = premoli(np.array([x]), rho_l, rho_g, mu_l=mu_l, sigma=sigma, mass_flux=g, diameter=d)
    assert float(got[0]) == pytest.approx(alpha, rel=1e-12)
    assert slip > 1.0


def test_premoli_scenario_uses_coolprop_viscosity_and_surface_tension():
    doc = charge_doc(subcooling_k=3.0)
    doc["charge"] = {"void_fraction": "premoli", "mass_flux_kg_m2s": 300, "tube_diameter_m": 0.006}
    r = workbench.solve(doc)
    assert r.converged
    assert r.charge["void_fraction"] == "premoli"
    zone = next(z for z in _item(r, "evaporator")["zones"] if z["zone"] == "two-phase")
    inlet = next(s for s in r.edge_states if s.dst == "evaporator")
    p = inlet.p_pa
    rho_l = PropsSI("D", "P", p, "Q", 0, "R290")
    rho_g = PropsSI("D", "P", p, "Q", 1, "R290")
    mu_l, sigma = PropsSI("V", "P", p, "Q", 0, "R290"), PropsSI("I", "P", p, "Q", 0, "R290")
    x_in = PropsSI("Q", "P", p, "H", inlet.h_j_kg, "R290")

    def rho(x):
        a = premoli(
            np.array([x]), rho_l, rho_g, mu_l=mu_l, sigma=sigma, mass_flux=300, diameter=0.006
        )[0]
        return a * rho_g + (1 - a) * rho_l

    expected = quad(rho, x_in, 1.0, limit=200)[0] / (1.0 - x_in)
    assert zone["density_kg_m3"] == pytest.approx(expected, rel=2e-3)


def test_single_phase_density_is_the_enthalpy_mean():
    fluid = get_backend("R290", "CoolProp")
    p = 15e5
    h_a, h_b = (
        PropsSI("H", "P", p, "Q", 1, "R290") + 1e3,
        PropsSI("H", "P", p, "Q", 1, "R290") + 6e4,
    )
    expected = quad(lambda h: PropsSI("D", "P", p, "H", h, "R290"), h_a, h_b)[0] / (h_b - h_a)
    assert single_phase_density(fluid, p, h_a, h_b) == pytest.approx(expected, rel=1e-5)


def test_path_zones_cut_at_saturation():
    fluid = get_backend("R290", "CoolProp")
    p = 15e5
    h_l, h_v = PropsSI("H", "P", p, "Q", 0, "R290"), PropsSI("H", "P", p, "Q", 1, "R290")
    zones = path_zones(fluid, p, h_v + 5e4, h_l - 2e4, zivi)
    assert [z.name for z in zones] == ["superheated", "two-phase", "subcooled"]
    assert zones[1].h_a == pytest.approx(h_v)
    assert zones[1].h_b == pytest.approx(h_l)
    assert zones[0].density < zones[1].density < zones[2].density


def test_coil_zone_volumes_are_the_ua_shares(fixed_subcooling):
    r = fixed_subcooling
    cond = r.components["condenser"]
    item = _item(r, "condenser")
    assert sum(z["volume_m3"] for z in item["zones"]) == pytest.approx(8e-4, rel=1e-12)
    for z in item["zones"]:
        ua = cond[f"zone_{z['zone'].replace('-', '_')}_ua"]
        assert z["volume_m3"] / 8e-4 == pytest.approx(ua / cond["ua"], rel=1e-6)
    assert item["kg"] == pytest.approx(sum(z["kg"] for z in item["zones"]), rel=1e-12)


def test_total_is_the_sum_of_the_items_and_in_the_summary(fixed_subcooling):
    r = fixed_subcooling
    total = sum(i["kg"] for i in r.charge["items"])
    assert r.charge["total_kg"] == pytest.approx(total, rel=1e-12)
    assert r.summary["charge_kg"] == pytest.approx(total, rel=1e-12)
    doc = r.to_dict()
    assert doc["charge"]["total_kg"] == pytest.approx(total)
    assert len(doc["charge"]["items"]) == 6


def test_slip_models_hold_more_charge_than_homogeneous(fixed_subcooling):
    zivi_result = workbench.solve(charge_doc(subcooling_k=3.0, void_fraction="zivi"))
    assert zivi_result.summary["charge_kg"] > fixed_subcooling.summary["charge_kg"]
    # the cycle itself does not depend on the void fraction model when the subcooling is fixed
    assert zivi_result.summary["cop_heating"] == pytest.approx(
        fixed_subcooling.summary["cop_heating"], rel=1e-9
    )


def test_no_volumes_changes_nothing():
    with_volumes = workbench.solve(charge_doc(subcooling_k=3.0))
    without = workbench.solve(charge_doc(subcooling_k=3.0, volumes=False))
    assert without.charge is None
    assert without.safety is None
    assert tuple(without.summary) == SUMMARY_KEYS
    assert "charge" not in without.to_dict()
    for key in SUMMARY_KEYS:
        assert without.summary[key] == pytest.approx(with_volumes.summary[key], rel=1e-9, abs=1e-6)


def test_heat_pump_v1_result_has_no_charge():
    r = workbench.solve("examples/scenarios/heat_pump_v1.json")
    assert r.charge is None
    assert "charge_kg" not in r.summary


def test_safety_verdict_in_the_result(fixed_subcooling):
    r = workbench.solve(charge_doc(subcooling_k=3.0))
    s = r.safety
    assert s["fluid"] == "R290"
    assert s["charge_kg"] == pytest.approx(r.summary["charge_kg"])
    assert s["m_max_kg"] == pytest.approx(2.5 * 0.038**1.25 * 1.8 * math.sqrt(15), rel=1e-12)
    assert s["complies"] is (r.summary["charge_kg"] <= s["allowed_kg"])
