"""Evaporation, condensation and two-phase friction in the channels of a chevron plate.

Who reads it: the plate exchanger's two-phase zones (evaporator, condenser, cascade coupling).
Quantities of one channel: ``G`` the channel mass flux [kg/(m^2 s)], ``x`` the vapour quality,
``D_h = 2 b / phi`` (see :mod:`.plate_geometry`), ``q`` the heat flux on the corrugated area.

Evaporation, Amalfi, Vakili-Farahani and Thome (2016) part 2 (default)::

    Bd = g (rho_l - rho_g) D_h^2 / sigma,  Bo = q / (G h_lv),  rho* = rho_l / rho_g,
    beta* = beta / 70 deg,  We_m = G^2 D_h / (rho_m sigma),  1/rho_m = x/rho_g + (1-x)/rho_l
    Bd <  4:  Nu = 982    beta*^1.101 We_m^0.315 Bo^0.320 rho*^-0.224
    Bd >= 4:  Nu = 18.495 beta*^0.248 Re_g^0.135 Re_lo^0.351 Bd^0.235 Bo^0.198 rho*^-0.223
              Re_g = G x D_h / mu_g,  Re_lo = G D_h / mu_l;            h = Nu k_l / D_h

``ht.boiling_plate.h_boiling_Amalfi`` (ht 1.2.0) evaluates these with ``beta_max = 45 deg`` and
the exponent 0.135 on ``beta*`` in the macro-scale branch; its own docstring prints 0.248, and
two independent implementations we read use 70 deg and 0.248 (so ``beta* <= 1`` over the usual
plates). We follow those: we call ht and multiply by the factor that restores them,
``(45/70)^1.101`` or ``(beta/70)^0.248 / (beta/45)^0.135``; at beta = 45 deg and the
macro-scale branch the two differ only by ``(45/70)^0.248``. Those implementations also write
``rho*^+0.223`` in the macro-scale branch; we keep ht's ``-0.223``, the sign of the micro-scale
branch and of the density-ratio effect in both. The correlation was fitted
to a database of 1903 points (R134a, ammonia, R236fa, R600a, R290, R1270, R1234yf, R410A,
R507A, ammonia/water and air/water), the widest of the plate boiling methods.

Evaporation, Yan and Lin (1999), via ``ht.boiling_plate.h_boiling_Yan_Lin``::

    G_eq = G [1 - x + x (rho_l / rho_g)^0.5],  Re_eq = G_eq D_h / mu_l,  Bo_eq = q / (G_eq h_lv)
    h = 1.926 (k_l / D_h) Re_eq Pr_l^(1/3) Bo_eq^0.3 Re_lo^-0.5       (2000 < Re_eq < 10000)

Condensation, Longo, Righetti and Zilio (2015) (default)::

    Re_eq < 1600:   h = 0.943 phi [k_l^3 rho_l^2 g h_lv / (mu_l dT_w L)]^(1/4)   (Nusselt film)
    Re_eq >= 1600:  h = 1.875 phi (k_l / D_h) Re_eq^0.445 Pr_l^(1/3)            (forced convection)

with ``dT_w = T_sat - T_wall`` and ``L`` the plate length, fitted to HFC, HFO and hydrocarbon
data in brazed plates. ``ht`` has no plate condensation correlation: written from the published
equations as quoted by independent implementations (not checked against the paper's text here),
``D_h = 2 b / phi`` as everywhere in this package (check the paper's nomenclature before
comparing with its figures). Condensation, Yan, Lio and Lin (1999):
``h = 4.118 (k_l / D_h) Re_eq^0.4 Pr_l^(1/3)``, from R134a in one plate of beta = 60 deg.

Two-phase friction, Amalfi et al. (2016) part 2 (for evaporation and, lacking a
better general method, condensation)::

    f_tp = C 15.698 We_m^-0.475 Bd^0.255 rho*^-0.571,   C = 2.125 beta*^9.993 + 0.955
    dp_f = 2 f_tp G^2 L / (rho_m D_h)

(``f_tp`` a Fanning-type factor), fitted to the adiabatic and boiling data of the same database.

References
----------
.. [1] R. L. Amalfi, F. Vakili-Farahani, J. R. Thome, "Flow boiling and frictional pressure
   gradients in plate heat exchangers. Part 2: Comparison of literature methods to database and
   new prediction methods", Int. J. Refrig. 61 (2016) 185-203.
.. [2] Y.-Y. Yan, T.-F. Lin, "Evaporation heat transfer and pressure drop of refrigerant R-134a
   in a plate heat exchanger", J. Heat Transfer 121 (1999) 118-127.
.. [3] G. A. Longo, G. Righetti, C. Zilio, "A new computational procedure for refrigerant
   condensation inside herringbone-type brazed plate heat exchangers", Int. J. Heat Mass
   Transfer 82 (2015) 530-536.
.. [4] Y.-Y. Yan, H.-C. Lio, T.-F. Lin, "Condensation heat transfer and pressure drop of
   refrigerant R-134a in a plate heat exchanger", Int. J. Heat Mass Transfer 42 (1999)
   993-1006.
.. [5] C. Bell, ht (``ht.boiling_plate``) and fluids (``fluids.core.Bond``), MIT licence.
"""

from __future__ import annotations

import math

from fluids.constants import g as GRAVITY
from fluids.core import Bond
from ht.boiling_plate import h_boiling_Amalfi, h_boiling_Yan_Lin

__all__ = [
    "AMALFI_BETA_MAX_DEG",
    "LONGO_RE_EQ_TRANSITION",
    "plate_condensation_longo",
    "plate_condensation_yan_lio_lin",
    "plate_equivalent_reynolds",
    "plate_evaporation_amalfi",
    "plate_evaporation_yan_lin",
    "plate_two_phase_friction_amalfi",
    "plate_two_phase_pressure_drop_amalfi",
    "plate_two_phase_range_warnings",
]

AMALFI_BETA_MAX_DEG = 70.0
"""The reference chevron angle of Amalfi et al. (2016), ``beta* = beta / 70 deg`` [deg]."""

LONGO_RE_EQ_TRANSITION = 1600.0
"""Equivalent Reynolds number where Longo et al. switch from film to forced convection [-]."""

_HT_AMALFI_BETA_MAX_DEG = 45.0


def _homogeneous_density(quality: float, rho_l: float, rho_g: float) -> float:
    return 1.0 / (quality / rho_g + (1.0 - quality) / rho_l)


def plate_equivalent_reynolds(
    mass_flux: float, quality: float, hydraulic_diameter_m: float, rho_l: float, rho_g: float,
    mu_l: float,
) -> float:  # fmt: skip
    """Equivalent Reynolds number of Akers, ``G [1 - x + x (rho_l/rho_g)^0.5] D_h / mu_l`` [-].

    Parameters
    ----------
    mass_flux : float
        Channel mass flux [kg/(m^2 s)].
    quality : float
        Vapour quality [-].
    hydraulic_diameter_m : float
        ``D_h`` [m].
    rho_l, rho_g : float
        Saturated liquid and vapour densities [kg/m^3].
    mu_l : float
        Saturated liquid viscosity [Pa s].

    Returns
    -------
    float
        ``Re_eq`` [-].
    """
    g_eq = mass_flux * (1.0 - quality + quality * math.sqrt(rho_l / rho_g))
    return g_eq * hydraulic_diameter_m / mu_l


def plate_evaporation_amalfi(
    mass_flux: float, quality: float, hydraulic_diameter_m: float, rho_l: float, rho_g: float,
    mu_l: float, mu_g: float, k_l: float, h_lv: float, sigma: float, heat_flux: float,
    chevron_angle_deg: float,
) -> float:  # fmt: skip
    """Flow-boiling heat-transfer coefficient of Amalfi et al. (2016) [W/(m^2 K)].

    Parameters
    ----------
    mass_flux : float
        Channel mass flux [kg/(m^2 s)].
    quality : float
        Vapour quality, 0 < x < 1 [-].
    hydraulic_diameter_m : float
        ``D_h = 2 b / phi`` [m].
    rho_l, rho_g : float
        Saturated liquid and vapour densities [kg/m^3].
    mu_l, mu_g : float
        Saturated liquid and vapour viscosities [Pa s].
    k_l : float
        Liquid thermal conductivity [W/(m K)].
    h_lv : float
        Latent heat [J/kg].
    sigma : float
        Surface tension [N/m].
    heat_flux : float
        Heat flux on the corrugated area, positive [W/m^2].
    chevron_angle_deg : float
        Corrugation angle to the flow direction [deg].

    Returns
    -------
    float
        Heat-transfer coefficient on the corrugated area [W/(m^2 K)].

    Notes
    -----
    ``ht.boiling_plate.h_boiling_Amalfi`` times the factor restoring
    ``beta_max = 70 deg`` and exponent 0.248 (module docstring).
    """
    h_ht = h_boiling_Amalfi(
        m=mass_flux, x=quality, Dh=hydraulic_diameter_m, rhol=rho_l, rhog=rho_g, mul=mu_l,
        mug=mu_g, kl=k_l, Hvap=h_lv, sigma=sigma, q=heat_flux, A_channel_flow=1.0,
        chevron_angle=chevron_angle_deg,
    )  # fmt: skip
    bond = Bond(rhol=rho_l, rhog=rho_g, sigma=sigma, L=hydraulic_diameter_m)
    beta_paper = chevron_angle_deg / AMALFI_BETA_MAX_DEG
    beta_ht = chevron_angle_deg / _HT_AMALFI_BETA_MAX_DEG
    if bond < 4.0:
        factor = math.pow(beta_paper / beta_ht, 1.101)
    else:
        factor = math.pow(beta_paper, 0.248) / math.pow(beta_ht, 0.135)
    return float(h_ht) * factor


def plate_evaporation_yan_lin(
    mass_flux: float, quality: float, hydraulic_diameter_m: float, rho_l: float, rho_g: float,
    mu_l: float, k_l: float, h_lv: float, cp_l: float, heat_flux: float,
) -> float:  # fmt: skip
    """Flow-boiling heat-transfer coefficient of Yan and Lin (1999) [W/(m^2 K)].

    Parameters
    ----------
    mass_flux : float
        Channel mass flux [kg/(m^2 s)].
    quality : float
        Vapour quality [-].
    hydraulic_diameter_m : float
        ``D_h`` [m].
    rho_l, rho_g : float
        Saturated liquid and vapour densities [kg/m^3].
    mu_l : float
        Liquid viscosity [Pa s].
    k_l : float
        Liquid thermal conductivity [W/(m K)].
    h_lv : float
        Latent heat [J/kg].
    cp_l : float
        Liquid isobaric heat capacity [J/(kg K)].
    heat_flux : float
        Heat flux, positive [W/m^2].

    Returns
    -------
    float
        Heat-transfer coefficient [W/(m^2 K)].

    Notes
    -----
    ``ht.boiling_plate.h_boiling_Yan_Lin``; equation in the module docstring.
    """
    return float(
        h_boiling_Yan_Lin(
            m=mass_flux,
            x=quality,
            Dh=hydraulic_diameter_m,
            rhol=rho_l,
            rhog=rho_g,
            mul=mu_l,
            kl=k_l,
            Hvap=h_lv,
            Cpl=cp_l,
            q=heat_flux,
            A_channel_flow=1.0,
        )
    )


def plate_condensation_longo(
    mass_flux: float, quality: float, hydraulic_diameter_m: float, rho_l: float, rho_g: float,
    mu_l: float, k_l: float, cp_l: float, h_lv: float, enlargement_factor: float,
    wall_subcooling_k: float | None = None, plate_length_m: float | None = None,
) -> float:  # fmt: skip
    """Condensation heat-transfer coefficient of Longo et al. (2015) [W/(m^2 K)].

    Parameters
    ----------
    mass_flux : float
        Channel mass flux [kg/(m^2 s)].
    quality : float
        Vapour quality [-].
    hydraulic_diameter_m : float
        ``D_h`` [m].
    rho_l, rho_g : float
        Saturated liquid and vapour densities [kg/m^3].
    mu_l : float
        Liquid viscosity [Pa s].
    k_l : float
        Liquid thermal conductivity [W/(m K)].
    cp_l : float
        Liquid isobaric heat capacity [J/(kg K)].
    h_lv : float
        Latent heat [J/kg].
    enlargement_factor : float
        Area enlargement ``phi`` [-].
    wall_subcooling_k : float, optional
        ``T_sat - T_wall`` [K], needed below ``Re_eq = 1600`` (gravity-controlled film).
    plate_length_m : float, optional
        Plate length [m], needed below ``Re_eq = 1600``.

    Returns
    -------
    float
        Heat-transfer coefficient [W/(m^2 K)].

    Raises
    ------
    ValueError
        Below ``Re_eq = 1600`` without a positive ``wall_subcooling_k`` and ``plate_length_m``.
    """
    re_eq = plate_equivalent_reynolds(mass_flux, quality, hydraulic_diameter_m, rho_l, rho_g, mu_l)
    if re_eq >= LONGO_RE_EQ_TRANSITION:
        prandtl = cp_l * mu_l / k_l
        return (
            1.875
            * enlargement_factor
            * k_l
            / hydraulic_diameter_m
            * math.pow(re_eq, 0.445)
            * math.pow(prandtl, 1.0 / 3.0)
        )
    if wall_subcooling_k is None or plate_length_m is None or wall_subcooling_k <= 0.0:
        raise ValueError(
            f"Longo condensation at Re_eq = {re_eq:.0f} < 1600 is film condensation: it needs "
            "wall_subcooling_k > 0 (T_sat - T_wall) and plate_length_m"
        )
    film = k_l**3 * rho_l**2 * GRAVITY * h_lv / (mu_l * wall_subcooling_k * plate_length_m)
    return 0.943 * enlargement_factor * math.pow(film, 0.25)


def plate_condensation_yan_lio_lin(
    mass_flux: float, quality: float, hydraulic_diameter_m: float, rho_l: float, rho_g: float,
    mu_l: float, k_l: float, cp_l: float,
) -> float:  # fmt: skip
    """Condensation heat-transfer coefficient of Yan, Lio and Lin (1999) [W/(m^2 K)].

    Parameters
    ----------
    mass_flux : float
        Channel mass flux [kg/(m^2 s)].
    quality : float
        Vapour quality [-].
    hydraulic_diameter_m : float
        ``D_h`` [m].
    rho_l, rho_g : float
        Saturated liquid and vapour densities [kg/m^3].
    mu_l : float
        Liquid viscosity [Pa s].
    k_l : float
        Liquid thermal conductivity [W/(m K)].
    cp_l : float
        Liquid isobaric heat capacity [J/(kg K)].

    Returns
    -------
    float
        ``4.118 (k_l / D_h) Re_eq^0.4 Pr_l^(1/3)`` [W/(m^2 K)].
    """
    re_eq = plate_equivalent_reynolds(mass_flux, quality, hydraulic_diameter_m, rho_l, rho_g, mu_l)
    prandtl = cp_l * mu_l / k_l
    return 4.118 * k_l / hydraulic_diameter_m * math.pow(re_eq, 0.4) * math.pow(prandtl, 1.0 / 3.0)


def plate_two_phase_friction_amalfi(
    mass_flux: float, quality: float, hydraulic_diameter_m: float, rho_l: float, rho_g: float,
    sigma: float, chevron_angle_deg: float,
) -> float:  # fmt: skip
    """Two-phase friction factor of Amalfi et al. (2016), Fanning type [-].

    Parameters
    ----------
    mass_flux : float
        Channel mass flux [kg/(m^2 s)].
    quality : float
        Vapour quality [-].
    hydraulic_diameter_m : float
        ``D_h`` [m].
    rho_l, rho_g : float
        Saturated liquid and vapour densities [kg/m^3].
    sigma : float
        Surface tension [N/m].
    chevron_angle_deg : float
        Corrugation angle to the flow direction [deg].

    Returns
    -------
    float
        ``f_tp = C 15.698 We_m^-0.475 Bd^0.255 (rho_l/rho_g)^-0.571`` [-].
    """
    rho_m = _homogeneous_density(quality, rho_l, rho_g)
    weber = mass_flux**2 * hydraulic_diameter_m / (rho_m * sigma)
    bond = GRAVITY * (rho_l - rho_g) * hydraulic_diameter_m**2 / sigma
    beta = chevron_angle_deg / AMALFI_BETA_MAX_DEG
    c = 2.125 * math.pow(beta, 9.993) + 0.955
    return (
        c
        * 15.698
        * math.pow(weber, -0.475)
        * math.pow(bond, 0.255)
        * math.pow(rho_l / rho_g, -0.571)
    )


def plate_two_phase_pressure_drop_amalfi(
    mass_flux: float, quality: float, hydraulic_diameter_m: float, rho_l: float, rho_g: float,
    sigma: float, chevron_angle_deg: float, length_m: float,
) -> float:  # fmt: skip
    """Frictional two-phase pressure drop over a length of channel, Amalfi et al. (2016) [Pa].

    Parameters
    ----------
    mass_flux : float
        Channel mass flux [kg/(m^2 s)].
    quality : float
        Vapour quality (the zone's mean) [-].
    hydraulic_diameter_m : float
        ``D_h`` [m].
    rho_l, rho_g : float
        Saturated liquid and vapour densities [kg/m^3].
    sigma : float
        Surface tension [N/m].
    chevron_angle_deg : float
        Corrugation angle to the flow direction [deg].
    length_m : float
        Length of channel the zone covers [m].

    Returns
    -------
    float
        ``2 f_tp G^2 L / (rho_m D_h)`` [Pa].
    """
    f_tp = plate_two_phase_friction_amalfi(
        mass_flux, quality, hydraulic_diameter_m, rho_l, rho_g, sigma, chevron_angle_deg
    )
    rho_m = _homogeneous_density(quality, rho_l, rho_g)
    return 2.0 * f_tp * mass_flux**2 * length_m / (rho_m * hydraulic_diameter_m)


def plate_two_phase_range_warnings(
    method: str, chevron_angle_deg: float, equivalent_reynolds: float | None = None
) -> list[str]:
    """Where the inputs leave the range a two-phase correlation was fitted in, one sentence each.

    Parameters
    ----------
    method : {"amalfi", "yan_lin", "longo", "yan_lio_lin"}
        Correlation.
    chevron_angle_deg : float
        Corrugation angle [deg].
    equivalent_reynolds : float, optional
        ``Re_eq`` [-] (Yan-Lin's stated range 2000-10000).

    Returns
    -------
    list of str
        Empty inside the range; otherwise messages naming the quantity and the range.

    Raises
    ------
    ValueError
        For an unknown method.
    """
    if method not in ("amalfi", "yan_lin", "longo", "yan_lio_lin"):
        raise ValueError(
            f"two-phase plate method must be amalfi, yan_lin, longo or yan_lio_lin; got {method!r}"
        )
    out: list[str] = []
    if method == "amalfi" and chevron_angle_deg > AMALFI_BETA_MAX_DEG:
        out.append(f"Amalfi: chevron angle [deg] {chevron_angle_deg:.4g} outside [0, 70]")
    if method in ("yan_lin", "yan_lio_lin") and chevron_angle_deg != 60.0:
        name = "Yan-Lin" if method == "yan_lin" else "Yan-Lio-Lin"
        out.append(f"{name}: chevron angle [deg] {chevron_angle_deg:.4g}, fitted at 60 only")
    if (
        method == "yan_lin"
        and equivalent_reynolds is not None
        and not 2000.0 <= equivalent_reynolds <= 10000.0
    ):
        out.append(f"Yan-Lin: Re_eq {equivalent_reynolds:.4g} outside [2000, 10000]")
    return out
