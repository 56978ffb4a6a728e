"""The segment march: a dry coil against epsilon-NTU, segment-count independence."""

from __future__ import annotations

import math

import pytest
from fin_tube_cases import (
    EVAPORATOR_GEOMETRY,
    assert_air_balances,
    component,
    example_doc,
    with_params,
)

from workbench import solve
from workbench.components.exchangers.fin_tube.air_side import AirInlet, air_side
from workbench.components.exchangers.fin_tube.geometry import parse_geometry
from workbench.components.exchangers.fin_tube.march import march
from workbench.components.exchangers.fin_tube.tube_side import molar_mass_g_mol, tube_fluid
from workbench.correlations import humid_air as ha
from workbench.correlations.air_side import fin_tube_j_f
from workbench.correlations.fin_efficiency import (
    fin_parameter,
    schmidt_efficiency,
    schmidt_equivalent_radius,
)
from workbench.fluids import get_backend
from workbench.fluids.transport import transport_for


def test_dry_coil_with_boiling_refrigerant_is_epsilon_ntu_of_its_conductance():
    """A dry coil on boiling refrigerant is one stream against a constant temperature.

    Dry air, a two-phase pure refrigerant (no pressure drop, a film coefficient made very
    large): Q = m_da c_p (T_in - T_r)(1 - exp(-UA / (m_da c_p))), UA from the coefficients
    computed here.
    """
    geo = parse_geometry(EVAPORATOR_GEOMETRY)
    g = geo.fins
    t_in, m_air = 299.85, 0.2
    air = air_side(geo, AirInlet(t_in, 0.0, 101325.0, m_air))
    # the air side rebuilt from the floor's pieces
    mu, k, cp = ha.viscosity(t_in), ha.conductivity(t_in), ha.cp_moist(0.0)
    mass_flux = m_air / g.min_flow_area_m2
    j, _f = fin_tube_j_f(g, mass_flux * g.collar_diameter_m / mu)
    h_o = j * mass_flux * cp / (mu * cp / k) ** (2 / 3)
    r_e = schmidt_equivalent_radius(g.transverse_pitch_m, g.longitudinal_pitch_m)
    eta_f = schmidt_efficiency(
        fin_parameter(h_o, 237.0, g.fin_thickness_m), g.collar_diameter_m / 2, r_e
    )
    eta_o = 1 - g.fin_area_m2 / (g.fin_area_m2 + g.tube_outer_area_m2) * (1 - eta_f)
    ua_air = eta_o * h_o * g.air_area_m2
    assert air.conductance_w_k == pytest.approx(ua_air, rel=1e-12)
    r_wall = math.log(g.tube_outer_diameter_m / g.tube_inner_diameter_m) / (
        2 * math.pi * 390.0 * g.tubes * g.tube_length_m
    )
    ua = 1.0 / (1.0 / ua_air + r_wall)
    fl = get_backend("R32", "CoolProp")
    tr = transport_for(fl)
    p = float(fl.p_sat(280.0))
    h_in = 0.8 * float(fl.h_liq(p)) + 0.2 * float(fl.h_vap(p))
    m_ref = 0.05  # enough flow to stay inside the dome
    tube = tube_fluid(tr, p, h_in, 280.0, molar_mass_g_mol(tr), m_ref / 3, g.tube_inner_diameter_m)
    r = march(geo, air, tube, m_ref, p, h_in, True, ref_factor=1e9, dp_factor=0.0)
    assert fl.quality_ph(p, r.h_out) < 0.9
    expected = m_air * cp * (t_in - 280.0) * (1.0 - math.exp(-ua / (m_air * cp)))
    assert r.q == pytest.approx(expected, rel=1e-6)
    assert r.ua == pytest.approx(ua, rel=1e-6)
    assert r.condensate_kg_s == 0.0
    assert r.wet_fraction == 0.0
    assert r.dp == 0.0


def _with_segments(doc: dict, n: int) -> dict:
    for name in ("condenser", "evaporator"):
        doc = with_params(doc, name, geometry={**component(doc, name)["geometry"], "segments": n})
    return doc


def test_split_unit_capacities_do_not_depend_on_the_segment_count():
    doc = example_doc()
    coarse_doc, fine_doc = _with_segments(doc, 20), _with_segments(doc, 80)
    coarse, fine = solve(coarse_doc), solve(fine_doc)
    assert coarse.converged
    assert fine.converged
    assert_air_balances(coarse, coarse_doc)
    assert_air_balances(fine, fine_doc)
    for key in ("cooling_capacity_w", "heating_capacity_w", "compressor_power_w"):
        assert coarse.summary[key] == pytest.approx(fine.summary[key], rel=3e-3), key
    for name in ("condenser", "evaporator"):
        for key in ("latent_capacity", "refrigerant_pressure_drop"):
            a, b = coarse.components[name][key], fine.components[name][key]
            assert a == pytest.approx(b, rel=1e-2, abs=1.0), (name, key)
