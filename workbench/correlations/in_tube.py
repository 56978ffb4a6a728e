"""Refrigerant-side heat transfer and two-phase pressure drop in round tubes, from ``ht`` and ``fluids``.

Thin wrappers around Caleb Bell's libraries: SI arguments with their units in the names, the
fluid properties passed in as numbers (no property calls inside, so the caller's backend and
its caching decide the cost), one return value. Each names the library function it calls; the
equations, ranges and accuracies are in that function's documentation and in
docs/correlations.md.

Defaults the geometric coils use (docs/correlations.md says why):

- boiling: Liu & Winterton (1991), ``ht.boiling_flow.Liu_Winterton``, with the wall superheat
  found from the heat flux (:func:`boiling_liu_winterton_heat_flux`);
- condensation: Shah (1979), ``ht.condensation.Shah``; Cavallini, Smith & Zecchin (1974) as
  the alternative; Shah's 2016 refit is in no library and is not written here;
- single phase: Gnielinski (1976), ``ht.conv_internal.turbulent_Gnielinski``, with the Darcy
  friction factor of ``fluids.friction.friction_factor`` (Clamond's exact Colebrook);
- supercritical: Jackson (2002), ``ht.conv_supercritical.Nu_Jackson``;
- two-phase pressure drop: Müller-Steinhagen & Heck (1986), ``fluids.two_phase``; Friedel
  (1979) as the alternative.
"""

from __future__ import annotations

from fluids.friction import friction_factor
from fluids.two_phase import Friedel, Muller_Steinhagen_Heck
from ht.boiling_flow import Liu_Winterton
from ht.condensation import Cavallini_Smith_Zecchin, Shah
from ht.conv_internal import turbulent_Gnielinski
from ht.conv_supercritical import Nu_Jackson
from scipy.optimize import brentq

__all__ = [
    "LAMINAR_NUSSELT",
    "boiling_liu_winterton",
    "boiling_liu_winterton_heat_flux",
    "condensation_cavallini",
    "condensation_shah",
    "dp_friedel",
    "dp_muller_steinhagen_heck",
    "single_phase_gnielinski",
    "supercritical_jackson",
]

#: Nusselt number of fully developed laminar flow at constant wall temperature [-].
LAMINAR_NUSSELT = 3.66


def single_phase_gnielinski(
    reynolds: float,
    prandtl: float,
    conductivity_w_m_k: float,
    diameter_m: float,
    relative_roughness: float = 0.0,
    darcy_friction: float | None = None,
) -> float:
    """Single-phase heat transfer coefficient in a tube, Gnielinski [W/(m^2 K)].

    Parameters
    ----------
    reynolds, prandtl : float
        Reynolds and Prandtl numbers of the bulk [-].
    conductivity_w_m_k : float
        Fluid conductivity [W/(m K)].
    diameter_m : float
        Inner diameter [m].
    relative_roughness : float
        Roughness over diameter [-].
    darcy_friction : float or None
        Darcy friction factor; by default ``fluids.friction.friction_factor(Re, eD)`` [-].

    Returns
    -------
    float
        ``h = Nu k / D`` with ``ht.conv_internal.turbulent_Gnielinski`` above Re 2300 and the
        laminar 3.66 below (the step at 2300 is the transition's, not smoothed) [W/(m^2 K)].
    """
    if reynolds < 2300.0:
        return LAMINAR_NUSSELT * conductivity_w_m_k / diameter_m
    fd = (
        darcy_friction
        if darcy_friction is not None
        else float(friction_factor(Re=reynolds, eD=relative_roughness))
    )
    return (
        float(turbulent_Gnielinski(Re=reynolds, Pr=prandtl, fd=fd))
        * conductivity_w_m_k
        / diameter_m
    )


def boiling_liu_winterton(
    mass_flow_kg_s: float,
    quality: float,
    diameter_m: float,
    rho_liquid_kg_m3: float,
    rho_vapour_kg_m3: float,
    mu_liquid_pa_s: float,
    k_liquid_w_m_k: float,
    cp_liquid_j_kg_k: float,
    molar_mass_g_mol: float,
    pressure_pa: float,
    critical_pressure_pa: float,
    wall_superheat_k: float,
) -> float:
    """Flow-boiling heat transfer coefficient, Liu & Winterton (1991) [W/(m^2 K)].

    Parameters
    ----------
    mass_flow_kg_s : float
        Mass flow in the tube [kg/s].
    quality : float
        Vapour quality [-].
    diameter_m : float
        Inner diameter [m].
    rho_liquid_kg_m3, rho_vapour_kg_m3 : float
        Saturated densities [kg/m^3].
    mu_liquid_pa_s, k_liquid_w_m_k, cp_liquid_j_kg_k : float
        Saturated-liquid viscosity [Pa s], conductivity [W/(m K)], specific heat [J/(kg K)].
    molar_mass_g_mol : float
        Molar mass [g/mol].
    pressure_pa, critical_pressure_pa : float
        Saturation and critical pressure [Pa].
    wall_superheat_k : float
        Wall temperature less saturation temperature [K].

    Returns
    -------
    float
        ``ht.boiling_flow.Liu_Winterton(...)`` [W/(m^2 K)].
    """
    return float(
        Liu_Winterton(
            m=mass_flow_kg_s,
            x=quality,
            D=diameter_m,
            rhol=rho_liquid_kg_m3,
            rhog=rho_vapour_kg_m3,
            mul=mu_liquid_pa_s,
            kl=k_liquid_w_m_k,
            Cpl=cp_liquid_j_kg_k,
            MW=molar_mass_g_mol,
            P=pressure_pa,
            Pc=critical_pressure_pa,
            Te=wall_superheat_k,
        )
    )


def boiling_liu_winterton_heat_flux(heat_flux_w_m2: float, **properties: float) -> float:
    """Liu & Winterton's coefficient at a heat flux, the wall superheat solved for [W/(m^2 K)].

    Parameters
    ----------
    heat_flux_w_m2 : float
        Heat flux into the refrigerant, positive [W/m^2].
    **properties : float
        The arguments of :func:`boiling_liu_winterton` except ``wall_superheat_k``.

    Returns
    -------
    float
        ``h`` such that ``h(dT) dT = q`` (Brent's method on dT from 1e-4 to 100 K) [W/(m^2 K)].
    """

    def residual(dt: float) -> float:
        return boiling_liu_winterton(**properties, wall_superheat_k=dt) * dt - heat_flux_w_m2

    dt = float(brentq(residual, 1e-4, 100.0, xtol=1e-10))
    return heat_flux_w_m2 / dt


def condensation_shah(
    mass_flow_kg_s: float,
    quality: float,
    diameter_m: float,
    rho_liquid_kg_m3: float,
    mu_liquid_pa_s: float,
    k_liquid_w_m_k: float,
    cp_liquid_j_kg_k: float,
    pressure_pa: float,
    critical_pressure_pa: float,
) -> float:
    """In-tube condensation heat transfer coefficient, Shah (1979) [W/(m^2 K)].

    Parameters
    ----------
    mass_flow_kg_s : float
        Mass flow in the tube [kg/s].
    quality : float
        Vapour quality [-].
    diameter_m : float
        Inner diameter [m].
    rho_liquid_kg_m3, mu_liquid_pa_s, k_liquid_w_m_k, cp_liquid_j_kg_k : float
        Saturated-liquid density [kg/m^3], viscosity [Pa s], conductivity [W/(m K)] and
        specific heat [J/(kg K)].
    pressure_pa, critical_pressure_pa : float
        Saturation and critical pressure [Pa].

    Returns
    -------
    float
        ``ht.condensation.Shah(...)``: ``h_L [(1-x)^0.8 + 3.8 x^0.76 (1-x)^0.04 / p_r^0.38]``
        with ``h_L`` Dittus-Boelter for the whole flow as liquid [W/(m^2 K)].
    """
    return float(
        Shah(
            m=mass_flow_kg_s,
            x=quality,
            D=diameter_m,
            rhol=rho_liquid_kg_m3,
            mul=mu_liquid_pa_s,
            kl=k_liquid_w_m_k,
            Cpl=cp_liquid_j_kg_k,
            P=pressure_pa,
            Pc=critical_pressure_pa,
        )
    )


def condensation_cavallini(
    mass_flow_kg_s: float,
    quality: float,
    diameter_m: float,
    rho_liquid_kg_m3: float,
    rho_vapour_kg_m3: float,
    mu_liquid_pa_s: float,
    mu_vapour_pa_s: float,
    k_liquid_w_m_k: float,
    cp_liquid_j_kg_k: float,
) -> float:
    """In-tube condensation, Cavallini, Smith & Zecchin (1974) [W/(m^2 K)].

    Parameters
    ----------
    mass_flow_kg_s, quality, diameter_m : float
        Mass flow [kg/s], vapour quality [-], inner diameter [m].
    rho_liquid_kg_m3, rho_vapour_kg_m3 : float
        Saturated densities [kg/m^3].
    mu_liquid_pa_s, mu_vapour_pa_s : float
        Saturated viscosities [Pa s].
    k_liquid_w_m_k, cp_liquid_j_kg_k : float
        Liquid conductivity [W/(m K)] and specific heat [J/(kg K)].

    Returns
    -------
    float
        ``ht.condensation.Cavallini_Smith_Zecchin(...)`` [W/(m^2 K)].
    """
    return float(
        Cavallini_Smith_Zecchin(
            m=mass_flow_kg_s,
            x=quality,
            D=diameter_m,
            rhol=rho_liquid_kg_m3,
            rhog=rho_vapour_kg_m3,
            mul=mu_liquid_pa_s,
            mug=mu_vapour_pa_s,
            kl=k_liquid_w_m_k,
            Cpl=cp_liquid_j_kg_k,
        )
    )


def supercritical_jackson(
    reynolds: float,
    prandtl: float,
    conductivity_w_m_k: float,
    diameter_m: float,
    rho_wall_kg_m3: float,
    rho_bulk_kg_m3: float,
    cp_average_j_kg_k: float,
    cp_bulk_j_kg_k: float,
    t_bulk_k: float,
    t_wall_k: float,
    t_pseudocritical_k: float,
) -> float:
    """Heat transfer of a supercritical fluid in a tube, Jackson (2002) [W/(m^2 K)].

    Parameters
    ----------
    reynolds, prandtl : float
        Bulk Reynolds and Prandtl numbers [-].
    conductivity_w_m_k, diameter_m : float
        Bulk conductivity [W/(m K)] and inner diameter [m].
    rho_wall_kg_m3, rho_bulk_kg_m3 : float
        Density at the wall and bulk temperatures [kg/m^3].
    cp_average_j_kg_k, cp_bulk_j_kg_k : float
        ``(h_w - h_b)/(T_w - T_b)`` and the bulk specific heat [J/(kg K)].
    t_bulk_k, t_wall_k, t_pseudocritical_k : float
        Bulk, wall and pseudocritical temperatures [K].

    Returns
    -------
    float
        ``Nu k / D`` with ``ht.conv_supercritical.Nu_Jackson(...)`` [W/(m^2 K)].
    """
    # ht 1.2 annotates the temperatures as int; they are floats in its own equations
    nu = Nu_Jackson(
        Re=reynolds,
        Pr=prandtl,
        rho_w=rho_wall_kg_m3,
        rho_b=rho_bulk_kg_m3,
        Cp_avg=cp_average_j_kg_k,
        Cp_b=cp_bulk_j_kg_k,
        T_b=t_bulk_k,  # type: ignore[arg-type]
        T_w=t_wall_k,  # type: ignore[arg-type]
        T_pc=t_pseudocritical_k,  # type: ignore[arg-type]
    )
    return float(nu) * conductivity_w_m_k / diameter_m


def dp_muller_steinhagen_heck(
    mass_flow_kg_s: float,
    quality: float,
    rho_liquid_kg_m3: float,
    rho_vapour_kg_m3: float,
    mu_liquid_pa_s: float,
    mu_vapour_pa_s: float,
    diameter_m: float,
    length_m: float,
    roughness_m: float = 0.0,
) -> float:
    """Frictional two-phase pressure drop in a tube, Müller-Steinhagen & Heck (1986) [Pa].

    Parameters
    ----------
    mass_flow_kg_s, quality : float
        Mass flow in the tube [kg/s] and vapour quality [-].
    rho_liquid_kg_m3, rho_vapour_kg_m3 : float
        Saturated densities [kg/m^3].
    mu_liquid_pa_s, mu_vapour_pa_s : float
        Saturated viscosities [Pa s].
    diameter_m, length_m, roughness_m : float
        Inner diameter, tube length and absolute roughness [m].

    Returns
    -------
    float
        ``fluids.two_phase.Muller_Steinhagen_Heck(...)`` over ``length_m`` [Pa].
    """
    return float(
        Muller_Steinhagen_Heck(
            m=mass_flow_kg_s,
            x=quality,
            rhol=rho_liquid_kg_m3,
            rhog=rho_vapour_kg_m3,
            mul=mu_liquid_pa_s,
            mug=mu_vapour_pa_s,
            D=diameter_m,
            roughness=roughness_m,
            L=length_m,
        )
    )


def dp_friedel(
    mass_flow_kg_s: float,
    quality: float,
    rho_liquid_kg_m3: float,
    rho_vapour_kg_m3: float,
    mu_liquid_pa_s: float,
    mu_vapour_pa_s: float,
    surface_tension_n_m: float,
    diameter_m: float,
    length_m: float,
    roughness_m: float = 0.0,
) -> float:
    """Frictional two-phase pressure drop in a tube, Friedel (1979) [Pa].

    Parameters
    ----------
    mass_flow_kg_s, quality : float
        Mass flow in the tube [kg/s] and vapour quality [-].
    rho_liquid_kg_m3, rho_vapour_kg_m3 : float
        Saturated densities [kg/m^3].
    mu_liquid_pa_s, mu_vapour_pa_s : float
        Saturated viscosities [Pa s].
    surface_tension_n_m : float
        Surface tension [N/m].
    diameter_m, length_m, roughness_m : float
        Inner diameter, tube length and absolute roughness [m].

    Returns
    -------
    float
        ``fluids.two_phase.Friedel(...)`` over ``length_m`` [Pa].
    """
    return float(
        Friedel(
            m=mass_flow_kg_s,
            x=quality,
            rhol=rho_liquid_kg_m3,
            rhog=rho_vapour_kg_m3,
            mul=mu_liquid_pa_s,
            mug=mu_vapour_pa_s,
            sigma=surface_tension_n_m,
            D=diameter_m,
            roughness=roughness_m,
            L=length_m,
        )
    )
