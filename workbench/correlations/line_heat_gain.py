"""Heat exchanged between a refrigerant line and its surroundings, through wall and insulation.

Who reads it: the line of an edge (issue 41: ``"line": {"outer_diameter_m",
"insulation_thickness_m", "insulation_conductivity_w_m_k", "ambient_temp_c", ...}``). The heat
gain is positive into the refrigerant (a suction line in a warm room gains, a discharge line
loses: negative gain).

Series resistances per metre of line [K m/W], from the fluid outwards::

    R'_in   = 1 / (h_in pi D_i)                       inside convection (0 when h_in is None)
    R'_wall = ln(D_o / D_i) / (2 pi k_wall)           copper tube
    R'_ins  = ln(D_ins / D_o) / (2 pi k_ins),   D_ins = D_o + 2 t_ins
    R'_out  = 1 / (h_out pi D_ins)                    outside convection and radiation
    q' = (T_ambient - T_fluid) / (R'_in + R'_wall + R'_ins + R'_out)   [W/m],   Q = q' L

With the fluid temperature nearly constant (two-phase, or a gain small against ``m_dot c_p``) the
line's gain is ``q' L``. A single-phase line whose temperature moves follows
``T_out = T_amb + (T_in - T_amb) exp(-L / (m_dot c_p R'))`` (:func:`line_outlet_temperature`).

Defaults and why: the outside coefficient ``h_out = 9 W/(m^2 K)`` stands for natural convection
(about 3-5 W/(m^2 K) on a 20-60 mm horizontal cylinder at a few kelvin) plus radiation of a
non-metallic insulation surface (emissivity about 0.9: about 5 W/(m^2 K) near room temperature),
the order of the surface coefficients in EN ISO 12241 for indoor pipes. It matters little: with
13 mm of elastomeric foam (k = 0.035 W/(m K)) on a 22 mm tube the insulation holds about 80 % of
the resistance. The inside coefficient is left out by default (``h_in = None``): a refrigerant's
coefficient (1e3 to 1e4 W/(m^2 K)) gives less than 1 % of an insulated line's resistance; pass
one (e.g. Gnielinski from ``ht.conv_internal``) for a bare line. Copper Cu-DHP (C12200) conducts
about 340 W/(m K).

References
----------
.. [1] F. P. Incropera, D. P. DeWitt, T. L. Bergman, A. S. Lavine, Fundamentals of Heat and Mass
   Transfer, 6th ed., Wiley (2007), sec. 3.3 (radial systems) and 3.4 (critical radius).
.. [2] EN ISO 12241, Thermal insulation for building equipment and industrial installations,
   calculation rules (surface coefficients).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = [
    "COPPER_CONDUCTIVITY_W_M_K",
    "OUTER_COEFFICIENT_W_M2_K",
    "LineResistance",
    "line_heat_gain",
    "line_heat_gain_per_length",
    "line_outlet_temperature",
    "line_thermal_resistance",
]

COPPER_CONDUCTIVITY_W_M_K = 340.0
"""Thermal conductivity of phosphorus-deoxidised copper Cu-DHP (C12200) near 20 °C [W/(m K)]."""

OUTER_COEFFICIENT_W_M2_K = 9.0
"""Outside surface coefficient, natural convection and radiation in still indoor air [W/(m^2 K)]."""


@dataclass(frozen=True)
class LineResistance:
    """Thermal resistances of one metre of line, in series [K m/W].

    Attributes
    ----------
    inner : float
        Inside convection [K m/W] (0 when no inside coefficient is given).
    wall : float
        Tube wall [K m/W].
    insulation : float
        Insulation [K m/W] (0 for a bare line).
    outer : float
        Outside convection and radiation [K m/W].
    """

    inner: float
    wall: float
    insulation: float
    outer: float

    @property
    def total(self) -> float:
        """Sum of the four resistances [K m/W]."""
        return self.inner + self.wall + self.insulation + self.outer


def line_thermal_resistance(
    inner_diameter_m: float, outer_diameter_m: float, insulation_thickness_m: float = 0.0,
    insulation_conductivity_w_m_k: float = 0.035,
    outer_coefficient_w_m2_k: float = OUTER_COEFFICIENT_W_M2_K,
    inner_coefficient_w_m2_k: float | None = None,
    wall_conductivity_w_m_k: float = COPPER_CONDUCTIVITY_W_M_K,
) -> LineResistance:  # fmt: skip
    """Series thermal resistances of one metre of insulated tube [K m/W].

    Parameters
    ----------
    inner_diameter_m : float
        Inner diameter of the tube [m].
    outer_diameter_m : float
        Outer diameter of the tube [m].
    insulation_thickness_m : float, optional
        Insulation thickness [m]; 0 for a bare tube.
    insulation_conductivity_w_m_k : float, optional
        Insulation conductivity [W/(m K)]; elastomeric foam 0.035 by default.
    outer_coefficient_w_m2_k : float, optional
        Outside surface coefficient [W/(m^2 K)].
    inner_coefficient_w_m2_k : float or None, optional
        Inside coefficient [W/(m^2 K)]; None leaves its resistance out.
    wall_conductivity_w_m_k : float, optional
        Tube conductivity [W/(m K)]; copper by default.

    Returns
    -------
    LineResistance
        The four resistances.

    Raises
    ------
    ValueError
        When the outer diameter is not larger than the inner one or the thickness is negative.
    """
    if not outer_diameter_m > inner_diameter_m > 0.0:
        raise ValueError(
            f"outer_diameter_m ({outer_diameter_m}) must exceed inner_diameter_m "
            f"({inner_diameter_m}) > 0"
        )
    if insulation_thickness_m < 0.0:
        raise ValueError(f"insulation_thickness_m must be >= 0, got {insulation_thickness_m}")
    d_ins = outer_diameter_m + 2.0 * insulation_thickness_m
    inner = (
        0.0
        if inner_coefficient_w_m2_k is None
        else 1.0 / (inner_coefficient_w_m2_k * math.pi * inner_diameter_m)
    )
    insulation = (
        math.log(d_ins / outer_diameter_m) / (2.0 * math.pi * insulation_conductivity_w_m_k)
        if insulation_thickness_m > 0.0
        else 0.0
    )
    return LineResistance(
        inner=inner,
        wall=math.log(outer_diameter_m / inner_diameter_m)
        / (2.0 * math.pi * wall_conductivity_w_m_k),
        insulation=insulation,
        outer=1.0 / (outer_coefficient_w_m2_k * math.pi * d_ins),
    )


def line_heat_gain_per_length(
    fluid_temp_k: float, ambient_temp_k: float, resistance: LineResistance
) -> float:
    """Heat gained by the fluid per metre of line, ``(T_amb - T_fluid) / R'`` [W/m].

    Parameters
    ----------
    fluid_temp_k : float
        Refrigerant temperature [K].
    ambient_temp_k : float
        Ambient temperature [K].
    resistance : LineResistance
        Resistances of one metre (:func:`line_thermal_resistance`).

    Returns
    -------
    float
        Heat into the fluid [W/m]; negative when the line is warmer than the ambient.
    """
    return (ambient_temp_k - fluid_temp_k) / resistance.total


def line_heat_gain(
    fluid_temp_k: float, ambient_temp_k: float, resistance: LineResistance, length_m: float
) -> float:
    """Heat gained by the fluid over a line at a constant fluid temperature [W].

    Parameters
    ----------
    fluid_temp_k : float
        Refrigerant temperature [K].
    ambient_temp_k : float
        Ambient temperature [K].
    resistance : LineResistance
        Resistances of one metre.
    length_m : float
        Line length [m].

    Returns
    -------
    float
        ``q' L`` [W].
    """
    return line_heat_gain_per_length(fluid_temp_k, ambient_temp_k, resistance) * length_m


def line_outlet_temperature(
    inlet_temp_k: float, ambient_temp_k: float, resistance: LineResistance, length_m: float,
    mass_flow_kg_s: float, cp_j_kg_k: float,
) -> float:  # fmt: skip
    """Outlet temperature of a single-phase line exchanging heat with the ambient [K].

    Parameters
    ----------
    inlet_temp_k : float
        Inlet temperature [K].
    ambient_temp_k : float
        Ambient temperature [K].
    resistance : LineResistance
        Resistances of one metre.
    length_m : float
        Line length [m].
    mass_flow_kg_s : float
        Mass flow, positive [kg/s].
    cp_j_kg_k : float
        Isobaric heat capacity of the fluid [J/(kg K)].

    Returns
    -------
    float
        ``T_amb + (T_in - T_amb) exp(-L / (m_dot c_p R'))`` [K].
    """
    ntu = length_m / (mass_flow_kg_s * cp_j_kg_k * resistance.total)
    return ambient_temp_k + (inlet_temp_k - ambient_temp_k) * math.exp(-ntu)
