"""In-tube wrappers: each equals the library call and one hand value.

Properties are R32-like numbers at about 7 C (typed in, as the wrappers take numbers).
"""

import math

import pytest
from fluids.friction import friction_factor
from fluids.two_phase import Friedel, Muller_Steinhagen_Heck
from ht.boiling_flow import Liu_Winterton
from ht.condensation import Cavallini_Smith_Zecchin, Shah
from ht.conv_internal import turbulent_Gnielinski
from ht.conv_supercritical import Nu_Jackson

from workbench.correlations import in_tube as it

M, D = 0.01, 0.0088
RHOL, RHOG, MUL, MUG, KL, CPL = 1055.0, 30.0, 1.3e-4, 1.2e-5, 0.135, 1790.0
SIGMA, MW, P, PC = 0.0085, 52.02, 1.0e6, 5.782e6
G = M / (math.pi * D**2 / 4)
RE_LO = G * D / MUL
PR_L = CPL * MUL / KL
DITTUS_BOELTER = 0.023 * RE_LO**0.8 * PR_L**0.4 * KL / D


def test_in_tube_gnielinski() -> None:
    h = it.single_phase_gnielinski(1e4, 4.0, 0.1, 0.01)
    fd = friction_factor(Re=1e4, eD=0.0)
    assert h == pytest.approx(turbulent_Gnielinski(Re=1e4, Pr=4.0, fd=fd) * 0.1 / 0.01)
    # by hand with Petukhov's f = (0.79 ln Re - 1.64)^-2 = 0.031480:
    # Nu = (f/8)(Re - 1000) Pr / (1 + 12.7 sqrt(f/8)(Pr^(2/3) - 1)) = 141.66 / 2.2108 = 64.08
    petukhov = (0.79 * math.log(1e4) - 1.64) ** -2
    h_hand = it.single_phase_gnielinski(1e4, 4.0, 0.1, 0.01, darcy_friction=petukhov)
    assert h_hand == pytest.approx(64.08 * 0.1 / 0.01, rel=1e-3)
    assert it.single_phase_gnielinski(1000.0, 4.0, 0.1, 0.01) == pytest.approx(3.66 * 10)


def test_in_tube_boiling_liu_winterton() -> None:
    props = dict(
        mass_flow_kg_s=M,
        quality=0.3,
        diameter_m=D,
        rho_liquid_kg_m3=RHOL,
        rho_vapour_kg_m3=RHOG,
        mu_liquid_pa_s=MUL,
        k_liquid_w_m_k=KL,
        cp_liquid_j_kg_k=CPL,
        molar_mass_g_mol=MW,
        pressure_pa=P,
        critical_pressure_pa=PC,
    )
    h = it.boiling_liu_winterton(**props, wall_superheat_k=3.0)
    direct = Liu_Winterton(
        m=M, x=0.3, D=D, rhol=RHOL, rhog=RHOG, mul=MUL, kl=KL, Cpl=CPL, MW=MW, P=P, Pc=PC, Te=3.0
    )
    assert h == direct
    # at a vanishing superheat and quality 0 only the liquid's Dittus-Boelter remains (F = 1)
    props0 = dict(props, quality=0.0)
    assert it.boiling_liu_winterton(**props0, wall_superheat_k=1e-9) == pytest.approx(
        DITTUS_BOELTER, rel=1e-6
    )
    # from the heat flux: h(dT) dT = q
    q = 15000.0
    h_q = it.boiling_liu_winterton_heat_flux(q, **props)
    assert it.boiling_liu_winterton(**props, wall_superheat_k=q / h_q) == pytest.approx(h_q)


def test_in_tube_condensation() -> None:
    args = (M, 0.5, D, RHOL, MUL, KL, CPL, P, PC)
    assert it.condensation_shah(*args) == Shah(
        m=M, x=0.5, D=D, rhol=RHOL, mul=MUL, kl=KL, Cpl=CPL, P=P, Pc=PC
    )
    # Shah at quality 0 is Dittus-Boelter of the whole flow as liquid
    assert it.condensation_shah(M, 0.0, D, RHOL, MUL, KL, CPL, P, PC) == pytest.approx(
        DITTUS_BOELTER, rel=1e-9
    )
    # and at x = 0.5: h_L [0.5^0.8 + 3.8 0.5^0.76 0.5^0.04 / pr^0.38]
    pr = P / PC
    hand = DITTUS_BOELTER * (0.5**0.8 + 3.8 * 0.5**0.76 * 0.5**0.04 / pr**0.38)
    assert it.condensation_shah(*args) == pytest.approx(hand, rel=1e-9)
    cav = it.condensation_cavallini(M, 0.5, D, RHOL, RHOG, MUL, MUG, KL, CPL)
    assert cav == Cavallini_Smith_Zecchin(
        m=M, x=0.5, D=D, rhol=RHOL, rhog=RHOG, mul=MUL, mug=MUG, kl=KL, Cpl=CPL
    )


def test_in_tube_supercritical_jackson() -> None:
    h = it.supercritical_jackson(5e4, 2.0, 0.08, 0.005, 500.0, 600.0, 4000.0, 3500.0, 310, 300, 308)
    nu = Nu_Jackson(
        Re=5e4,
        Pr=2.0,
        rho_w=500.0,
        rho_b=600.0,
        Cp_avg=4000.0,
        Cp_b=3500.0,
        T_b=310,
        T_w=300,
        T_pc=308,
    )
    assert h == pytest.approx(nu * 0.08 / 0.005)
    # with equal wall and bulk properties: Nu = 0.0183 Re^0.82 Pr^0.5
    flat = it.supercritical_jackson(
        5e4, 2.0, 0.08, 0.005, 600.0, 600.0, 3500.0, 3500.0, 290, 280, 308
    )
    assert flat == pytest.approx(0.0183 * 5e4**0.82 * 2.0**0.5 * 0.08 / 0.005, rel=1e-9)


def test_in_tube_two_phase_pressure_drop() -> None:
    msh = it.dp_muller_steinhagen_heck(M, 0.4, RHOL, RHOG, MUL, MUG, D, 2.0)
    assert msh == Muller_Steinhagen_Heck(
        m=M, x=0.4, rhol=RHOL, rhog=RHOG, mul=MUL, mug=MUG, D=D, roughness=0.0, L=2.0
    )
    fr = it.dp_friedel(M, 0.4, RHOL, RHOG, MUL, MUG, SIGMA, D, 2.0)
    assert fr == Friedel(
        m=M, x=0.4, rhol=RHOL, rhog=RHOG, mul=MUL, mug=MUG, sigma=SIGMA, D=D, roughness=0.0, L=2.0
    )
    # at quality 0 both are the liquid-only Darcy-Weisbach drop f G^2 L / (2 rho_l D)
    liquid = friction_factor(Re=RE_LO, eD=0.0) * G**2 * 2.0 / (2 * RHOL * D)
    assert it.dp_muller_steinhagen_heck(M, 0.0, RHOL, RHOG, MUL, MUG, D, 2.0) == pytest.approx(
        liquid, rel=1e-3
    )
    assert it.dp_friedel(M, 0.0, RHOL, RHOG, MUL, MUG, SIGMA, D, 2.0) == pytest.approx(
        liquid, rel=1e-3
    )
    # two-phase flow costs more than the liquid alone
    assert msh > liquid
    assert fr > liquid
