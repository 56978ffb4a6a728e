"""Single-phase heat transfer and pressure drop in the channels and ports of a chevron plate.

Who reads it: the plate exchanger's zones (water or brine side everywhere, the refrigerant side
in its superheated and subcooled zones). Each function returns one number from named SI
quantities; the Nusselt numbers and friction factors are Caleb Bell's ``ht.conv_plate`` and
``fluids.friction`` functions, wrapped only for the wall-viscosity correction and the units.

Equations (``G = m_dot / (N_side b W)`` the channel mass flux, ``Re = G D_h / mu``,
``D_h = 2 b / phi``)::

    Martin (VDI Heat Atlas 2010, N6; Martin 1996):
        1/sqrt(f) = cos(beta) / sqrt(0.18 tan(beta) + 0.36 sin(beta) + f0 / cos(beta))
                    + (1 - cos(beta)) / sqrt(3.8 f1)                      (Darcy f)
        f0 = 64/Re, f1 = 597/Re + 3.85                  (Re < 2000)
        f0 = (1.8 log10 Re - 1.5)^-2, f1 = 39 Re^-0.289 (Re >= 2000)
        Nu = 0.122 Pr^(1/3) (mu/mu_w)^(1/6) [f Re^2 sin(2 beta)]^0.374
    Muley and Manglik (1999), Re >= 1000, 30 <= beta <= 60 deg, 1 <= phi <= 1.5:
        Nu = [0.2668 - 0.006967 beta + 7.244e-5 beta^2]
             [20.7803 - 50.9372 phi + 41.1585 phi^2 - 10.1507 phi^3]
             Re^(0.728 + 0.0543 sin(pi beta / 45 + 3.7)) Pr^(1/3) (mu/mu_w)^0.14
        f/4 = [2.917 - 0.1277 beta + 2.016e-3 beta^2] [5.474 - 19.02 phi + 18.93 phi^2
              - 5.341 phi^3] Re^-(0.2 + 0.0577 sin(pi beta / 45 + 2.1))
    channels:  dp_ch   = f (L_pp / D_h) G^2 / (2 rho)
    ports:     dp_port = 1.4 N_pass G_port^2 / (2 rho),   G_port = m_dot / (pi D_port^2 / 4)

The port loss is the rule of Shah and Focke (1988) as given by Kakaç and Liu: 1.4 velocity heads
of the port mass flux per pass, for the inlet and outlet port of the pass together.

Martin's model rests on the flow along and across the crossing corrugations and covers laminar
to turbulent flow at any angle, hence the default; Muley-Manglik is a regression of turbulent data
and holds only inside its range. How far they part is a measure of the uncertainty: on the example
of docs/correlations_plates_lines.md (water, Re 634) Muley-Manglik gives a 13 % higher h and a 25 %
lower channel pressure drop than Martin. Beta is the corrugation angle to the main flow direction
(a high angle is the hard plate).

References
----------
.. [1] H. Martin, "A theoretical approach to predict the performance of chevron-type plate heat
   exchangers", Chem. Eng. Process. 35 (1996) 301-310; VDI Heat Atlas, 2nd ed. (2010), N6.
.. [2] A. Muley, R. M. Manglik, "Experimental study of turbulent flow heat transfer and pressure
   drop in a plate heat exchanger with chevron plates", J. Heat Transfer 121 (1999) 110-117;
   coefficients with the typo corrected as in Palm and Claesson (2005).
.. [3] R. K. Shah, W. W. Focke, "Plate heat exchangers and their design theory", in Heat
   Transfer Equipment Design, Hemisphere (1988); S. Kakaç, H. Liu, Heat Exchangers: Selection,
   Rating and Thermal Design, 2nd ed., CRC Press (2002), ch. 10 (port pressure drop).
.. [4] C. Bell, ht (``ht.conv_plate``) and fluids (``fluids.friction``), MIT licence.
"""

from __future__ import annotations

import math

from fluids.friction import (
    friction_plate_Martin_1999,
    friction_plate_Martin_VDI,
    friction_plate_Muley_Manglik,
)
from ht.conv_plate import Nu_plate_Martin, Nu_plate_Muley_Manglik

__all__ = [
    "PORT_VELOCITY_HEADS",
    "plate_channel_mass_flux",
    "plate_channel_pressure_drop",
    "plate_friction_factor",
    "plate_nusselt",
    "plate_port_pressure_drop",
    "plate_reynolds",
    "plate_single_phase_range_warnings",
]

PORT_VELOCITY_HEADS = 1.4
"""Velocity heads of the port mass flux lost per pass (Shah and Focke 1988) [-]."""

_METHODS = ("martin_vdi", "martin_1999", "muley_manglik")


def _check_method(method: str) -> None:
    if method not in _METHODS:
        raise ValueError(f"plate correlation must be one of {', '.join(_METHODS)}; got {method!r}")


def plate_channel_mass_flux(mass_flow_kg_s: float, channels: int, channel_area_m2: float) -> float:
    """Mass flux in one channel, the flow shared evenly among the side's channels [kg/(m^2 s)].

    Parameters
    ----------
    mass_flow_kg_s : float
        Mass flow of the side [kg/s].
    channels : int
        Channels of the side [-].
    channel_area_m2 : float
        Flow area of one channel, ``b W`` [m^2].

    Returns
    -------
    float
        ``G = m_dot / (N_side b W)`` [kg/(m^2 s)].
    """
    return mass_flow_kg_s / (channels * channel_area_m2)


def plate_reynolds(mass_flux: float, hydraulic_diameter_m: float, viscosity_pa_s: float) -> float:
    """Channel Reynolds number ``Re = G D_h / mu`` [-].

    Parameters
    ----------
    mass_flux : float
        Channel mass flux ``G`` [kg/(m^2 s)].
    hydraulic_diameter_m : float
        ``D_h = 2 b / phi`` [m].
    viscosity_pa_s : float
        Dynamic viscosity at the bulk temperature [Pa s].

    Returns
    -------
    float
        Reynolds number [-].
    """
    return mass_flux * hydraulic_diameter_m / viscosity_pa_s


def plate_friction_factor(
    reynolds: float,
    chevron_angle_deg: float,
    enlargement_factor: float,
    method: str = "martin_vdi",
) -> float:
    """Darcy friction factor of a chevron channel [-].

    Parameters
    ----------
    reynolds : float
        Channel Reynolds number on ``D_h`` [-].
    chevron_angle_deg : float
        Corrugation angle to the flow direction [deg].
    enlargement_factor : float
        Area enlargement ``phi`` [-] (used by Muley-Manglik only).
    method : {"martin_vdi", "martin_1999", "muley_manglik"}
        Correlation; Martin's VDI Heat Atlas form by default.

    Returns
    -------
    float
        Darcy friction factor, referred to the port-to-port length [-].

    Raises
    ------
    ValueError
        For an unknown method.

    Notes
    -----
    See the module docstring for the equations (``fluids.friction.friction_plate_*``).
    """
    _check_method(method)
    if method == "martin_vdi":
        return float(friction_plate_Martin_VDI(reynolds, chevron_angle_deg))
    if method == "martin_1999":
        return float(friction_plate_Martin_1999(reynolds, chevron_angle_deg))
    return float(friction_plate_Muley_Manglik(reynolds, chevron_angle_deg, enlargement_factor))


def plate_nusselt(
    reynolds: float,
    prandtl: float,
    chevron_angle_deg: float,
    enlargement_factor: float,
    method: str = "martin_vdi",
    viscosity_ratio: float = 1.0,
) -> float:
    """Nusselt number ``h D_h / k`` of single-phase flow in a chevron channel [-].

    Parameters
    ----------
    reynolds : float
        Channel Reynolds number on ``D_h`` [-].
    prandtl : float
        Prandtl number at the bulk temperature [-].
    chevron_angle_deg : float
        Corrugation angle to the flow direction [deg].
    enlargement_factor : float
        Area enlargement ``phi`` [-] (used by Muley-Manglik only).
    method : {"martin_vdi", "martin_1999", "muley_manglik"}
        Correlation; Martin with the VDI friction factor by default.
    viscosity_ratio : float, optional
        Bulk to wall viscosity ``mu / mu_w`` [-]; its power is 1/6 (Martin) or 0.14
        (Muley-Manglik). 1 leaves the correction out (gases, or wall temperature unknown).

    Returns
    -------
    float
        Nusselt number on ``D_h``, for the corrugated (enlarged) area [-].

    Raises
    ------
    ValueError
        For an unknown method.

    Notes
    -----
    ``ht.conv_plate.Nu_plate_Martin(variant="VDI" | "1999")`` and
    ``ht.conv_plate.Nu_plate_Muley_Manglik``; the equations are in the module docstring.
    """
    _check_method(method)
    if method == "muley_manglik":
        nu = Nu_plate_Muley_Manglik(reynolds, prandtl, chevron_angle_deg, enlargement_factor)
        return float(nu) * math.pow(viscosity_ratio, 0.14)
    variant = "VDI" if method == "martin_vdi" else "1999"
    nu = Nu_plate_Martin(reynolds, prandtl, chevron_angle_deg, variant=variant)
    return float(nu) * math.pow(viscosity_ratio, 1.0 / 6.0)


def plate_channel_pressure_drop(
    friction_factor: float,
    mass_flux: float,
    density_kg_m3: float,
    length_m: float,
    hydraulic_diameter_m: float,
) -> float:
    """Frictional pressure drop along the channels ``f (L / D_h) G^2 / (2 rho)`` [Pa].

    Parameters
    ----------
    friction_factor : float
        Darcy friction factor [-].
    mass_flux : float
        Channel mass flux [kg/(m^2 s)].
    density_kg_m3 : float
        Mean density [kg/m^3].
    length_m : float
        Port-centre to port-centre length ``L_pp`` (times the passes) [m].
    hydraulic_diameter_m : float
        ``D_h`` [m].

    Returns
    -------
    float
        Pressure drop [Pa].
    """
    return friction_factor * length_m / hydraulic_diameter_m * mass_flux**2 / (2.0 * density_kg_m3)


def plate_port_pressure_drop(
    mass_flow_kg_s: float,
    density_kg_m3: float,
    port_diameter_m: float,
    passes: int = 1,
) -> float:
    """Pressure drop in the ports, ``1.4 N_pass G_port^2 / (2 rho)`` [Pa].

    Parameters
    ----------
    mass_flow_kg_s : float
        Mass flow of the side [kg/s].
    density_kg_m3 : float
        Density in the ports (a two-phase side: the homogeneous density of the port) [kg/m^3].
    port_diameter_m : float
        Port diameter [m].
    passes : int, optional
        Passes of the side [-].

    Returns
    -------
    float
        Pressure drop of the inlet and outlet ports together [Pa].

    Notes
    -----
    Shah and Focke (1988), in Kakaç and Liu (2002) ch. 10.
    """
    g_port = mass_flow_kg_s / (0.25 * math.pi * port_diameter_m**2)
    return PORT_VELOCITY_HEADS * passes * g_port**2 / (2.0 * density_kg_m3)


def plate_single_phase_range_warnings(
    reynolds: float,
    chevron_angle_deg: float,
    enlargement_factor: float,
    method: str = "martin_vdi",
) -> list[str]:
    """Where the inputs leave the range the correlation was fitted in, one sentence each.

    Parameters
    ----------
    reynolds : float
        Channel Reynolds number [-].
    chevron_angle_deg : float
        Corrugation angle [deg].
    enlargement_factor : float
        Area enlargement [-].
    method : {"martin_vdi", "martin_1999", "muley_manglik"}
        Correlation.

    Returns
    -------
    list of str
        Empty inside the range; otherwise messages naming the quantity and the range.

    Raises
    ------
    ValueError
        For an unknown method.
    """
    _check_method(method)
    out: list[str] = []
    checks: tuple[tuple[str, float, float, float], ...]
    if method == "muley_manglik":
        checks = (
            ("Reynolds number", reynolds, 1000.0, math.inf),
            ("chevron angle [deg]", chevron_angle_deg, 30.0, 60.0),
            ("enlargement factor", enlargement_factor, 1.0, 1.5),
        )
        name = "Muley-Manglik"
    else:
        checks = (
            ("Reynolds number", reynolds, 200.0, 10000.0),
            ("chevron angle [deg]", chevron_angle_deg, 0.0, 80.0),
        )
        name = "Martin"
    for label, value, low, high in checks:
        if not low <= value <= high:
            out.append(f"{name}: {label} {value:.4g} outside [{low:g}, {high:g}]")
    return out
