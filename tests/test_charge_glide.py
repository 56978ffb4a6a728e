"""The charge of a zeotrope's two-phase zone: the workbench's integral against the glide.

With a slip void fraction the workbench integrates a two-phase zone between the bubble and
dew points with the saturated liquid density at the bubble point and the vapour density at the
dew point, the quality linear in enthalpy
(:func:`~workbench.components.inventory.density.two_phase_density`); with the homogeneous
model it integrates the mixture's own density along the glide
(:func:`~workbench.components.inventory.density.glide_density`).
Along a zeotrope's glide the phases in equilibrium change composition: the liquid and vapour
densities, and the mass vapour fraction at an enthalpy, differ from those end values. This
test integrates the same zone by local equilibrium on CoolProp's HEOS mixture ((p, Q) flashes:
each point's liquid and vapour densities and its mass vapour fraction from the phases'
compositions) and measures the difference for each void-fraction model; docs/charge.md
reports it.
"""

from __future__ import annotations

import CoolProp.CoolProp as CP
import numpy as np
import pytest

from workbench.components.inventory.density import path_zones
from workbench.components.inventory.void_fraction import void_fraction
from workbench.fluids import get_backend
from workbench.fluids.blend.spec import parse_blend

MODELS = ("homogeneous", "zivi", "smith", "lockhart_martinelli")


def _local_equilibrium(fluid: str, p: float, model_name: str, n: int = 400) -> float:
    """Mean density [kg/m3] of the dome at ``p`` by local equilibrium, uniform in enthalpy."""
    spec = parse_blend(fluid)
    st = CP.AbstractState("HEOS", spec.coolprop_fluids)
    st.set_mole_fractions(list(spec.mole_fractions))
    molar = np.array([CP.AbstractState("HEOS", c).molar_mass() for c in spec.components])
    model = void_fraction(model_name)
    hs, rhos = [], []
    for q in np.linspace(0.0, 1.0, n):
        st.update(CP.PQ_INPUTS, p, float(q))
        rho_l = st.saturated_liquid_keyed_output(CP.iDmass)
        rho_g = st.saturated_vapor_keyed_output(CP.iDmass)
        m_l = float(np.dot(st.mole_fractions_liquid(), molar))
        m_g = float(np.dot(st.mole_fractions_vapor(), molar))
        x = q * m_g / (q * m_g + (1.0 - q) * m_l)  # the mass vapour fraction
        alpha = float(model(np.array([x]), rho_l, rho_g)[0])
        hs.append(st.hmass())
        rhos.append(alpha * rho_g + (1.0 - alpha) * rho_l)
    hs_a, rhos_a = np.array(hs), np.array(rhos)
    return float(np.trapezoid(rhos_a, hs_a) / (hs_a[-1] - hs_a[0]))


def measured(fluid: str, t_dew: float) -> dict[str, float]:
    """Workbench minus local equilibrium, relative [-], per void-fraction model."""
    fl = get_backend(fluid, "CoolProp")
    p = fl.p_sat(t_dew)
    h_liq, h_vap = fl.h_liq(p), fl.h_vap(p)
    out = {}
    for name in MODELS:
        (zone,) = path_zones(fl, p, h_liq, h_vap, void_fraction(name))  # what a solve uses
        assert zone.name == "two-phase"
        out[name] = zone.density / _local_equilibrium(fluid, p, name) - 1.0
    return out


DOCUMENTED = {
    # (fluid, dew temperature [K]): workbench minus local equilibrium [%], as in docs/charge.md
    ("R407C", 318.15): {
        "homogeneous": 0.00,
        "zivi": -0.78,
        "smith": -0.50,
        "lockhart_martinelli": -0.47,
    },
    ("R407C", 275.15): {
        "homogeneous": -0.07,
        "zivi": -1.43,
        "smith": -1.04,
        "lockhart_martinelli": -1.60,
    },
    ("R449A", 313.15): {
        "homogeneous": 0.00,
        "zivi": -1.14,
        "smith": -0.74,
        "lockhart_martinelli": -0.63,
    },
    ("R454B", 318.15): {
        "homogeneous": 0.00,
        "zivi": -0.90,
        "smith": -0.62,
        "lockhart_martinelli": -0.39,
    },
    ("R455A", 268.15): {
        "homogeneous": -0.09,
        "zivi": -7.16,
        "smith": -5.20,
        "lockhart_martinelli": -6.13,
    },
}


@pytest.mark.parametrize(("fluid", "t_dew"), sorted(DOCUMENTED))
def test_the_glide_effect_on_the_two_phase_charge_is_the_documented_size(fluid, t_dew):
    diff = measured(fluid, t_dew)
    for name, percent in DOCUMENTED[(fluid, t_dew)].items():
        assert 100.0 * diff[name] == pytest.approx(percent, abs=0.01), name
        if name != "homogeneous":
            assert diff[name] < 0.0  # the slip models hold less than local equilibrium


def test_a_pure_fluid_has_no_glide_effect():
    # the same integral for a pure fluid's dome: the densities are constant along it
    fl = get_backend("R32", "CoolProp")
    p = fl.p_sat(318.15)
    rho_l, rho_g = fl.rho_ph(p, fl.h_liq(p)), fl.rho_ph(p, fl.h_vap(p))
    ref_l = CP.PropsSI("D", "P", p, "Q", 0, "R32")
    ref_g = CP.PropsSI("D", "P", p, "Q", 1, "R32")
    assert rho_l == pytest.approx(ref_l, rel=1e-9)
    assert rho_g == pytest.approx(ref_g, rel=1e-9)
