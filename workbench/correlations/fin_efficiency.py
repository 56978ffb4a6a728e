"""Fin efficiency of plate fins on round tubes (Schmidt) and of straight fins, dry and wet.

Who reads it: the geometric coils, for the surface efficiency ``eta_o`` that multiplies the
air-side conductance, ``UA_air = eta_o h A_o``.

Plate fins: Schmidt (1949) replaces the hexagonal (staggered tubes) or rectangular (inline)
fin cell around one tube by a circular fin of the same efficiency, of radius ``R_e``:

- staggered: ``R_e / r = 1.27 (X_M / r) sqrt(X_L / X_M - 0.3)``, ``X_M = P_t / 2``,
  ``X_L = sqrt((P_t/2)^2 + P_l^2) / 2``;
- inline: ``R_e / r = 1.28 (X_M / r) sqrt(X_L / X_M - 0.2)``, ``X_M`` half the smaller pitch,
  ``X_L`` half the larger;

and approximates the circular fin's efficiency by a straight fin of corrected length,
``eta = tanh(m r phi) / (m r phi)``, ``phi = (R_e/r - 1)(1 + 0.35 ln(R_e/r))``,
``m = sqrt(2 h / (k t))``. ``r`` is the collar radius. The exact circular fin (Bessel
functions) is ``ht.fin_efficiency_Kern_Kraus``; Schmidt's form stays 0.3–1.6 % below it at coil
conditions (tests).

Wet fins: with condensation the driving potential is the enthalpy difference between the air
and saturated air at the fin surface, and the fin equation keeps its form with
``m_wet = sqrt(2 h b_w / (c_p k t))``, where ``b_w`` is the slope of the saturated-air
enthalpy with temperature at the fin (Threlkeld 1970; Braun, Klein & Mitchell 1989) and
``h / c_p`` the mass-transfer coefficient of the Lewis analogy (Le = 1).
"""

from __future__ import annotations

import math

__all__ = [
    "fin_parameter",
    "schmidt_efficiency",
    "schmidt_equivalent_radius",
    "straight_fin_efficiency",
    "surface_efficiency",
    "wet_fin_parameter",
]


def schmidt_equivalent_radius(
    transverse_pitch_m: float,
    longitudinal_pitch_m: float,
    staggered: bool = True,
) -> float:
    r"""Radius of Schmidt's circular fin equivalent to a plate-fin cell [m].

    Parameters
    ----------
    transverse_pitch_m, longitudinal_pitch_m : float
        Tube pitches P_t and P_l [m].
    staggered : bool
        Hexagonal cell of a staggered array; False for the rectangular cell of an inline one.

    Returns
    -------
    float
        Equivalent fin radius R_e [m].

    Notes
    -----
    Staggered: :math:`R_e = 1.27 X_M \sqrt{X_L/X_M - 0.3}`, :math:`X_M = P_t/2`,
    :math:`X_L = \sqrt{(P_t/2)^2 + P_l^2}/2`. Inline: :math:`R_e = 1.28 X_M
    \sqrt{X_L/X_M - 0.2}` with :math:`X_M, X_L` the half of the smaller and larger pitch.

    References
    ----------
    .. [1] T. E. Schmidt, "Heat transfer calculations for extended surfaces", Refrigerating
       Engineering 57 (1949) 351–357.
    .. [2] T. Perrotin, D. Clodic, "Fin efficiency calculation in enhanced fin-and-tube heat
       exchangers in dry conditions", Int. Congress of Refrigeration (2003), ICR0026.
    """
    if staggered:
        x_m = transverse_pitch_m / 2.0
        x_l = math.hypot(transverse_pitch_m / 2.0, longitudinal_pitch_m) / 2.0
        return 1.27 * x_m * math.sqrt(x_l / x_m - 0.3)
    x_m = min(transverse_pitch_m, longitudinal_pitch_m) / 2.0
    x_l = max(transverse_pitch_m, longitudinal_pitch_m) / 2.0
    return 1.28 * x_m * math.sqrt(x_l / x_m - 0.2)


def fin_parameter(h_w_m2_k: float, conductivity_w_m_k: float, thickness_m: float) -> float:
    """Fin parameter of a thin fin cooled on both faces, ``m = sqrt(2 h / (k t))`` [1/m].

    Parameters
    ----------
    h_w_m2_k : float
        Air-side heat transfer coefficient [W/(m^2 K)].
    conductivity_w_m_k : float
        Fin conductivity [W/(m K)].
    thickness_m : float
        Fin thickness [m].
    """
    return math.sqrt(2.0 * h_w_m2_k / (conductivity_w_m_k * thickness_m))


def wet_fin_parameter(
    h_w_m2_k: float,
    conductivity_w_m_k: float,
    thickness_m: float,
    saturation_slope_j_kg_k: float,
    cp_air_j_kg_k: float,
) -> float:
    """Fin parameter of a wet fin, ``m_wet = sqrt(2 h b_w / (c_p k t))`` [1/m].

    Parameters
    ----------
    h_w_m2_k : float
        Sensible air-side heat transfer coefficient [W/(m^2 K)].
    conductivity_w_m_k, thickness_m : float
        Fin conductivity [W/(m K)] and thickness [m].
    saturation_slope_j_kg_k : float
        Slope of the saturated-air enthalpy at the fin, b_w = dh_s/dT [J/(kg_da K)].
    cp_air_j_kg_k : float
        Moist-air specific heat [J/(kg_da K)].

    Notes
    -----
    Threlkeld's wet fin: the fin conducts heat, the air side drives enthalpy; with the
    saturated-air enthalpy linear in the fin temperature (slope b_w) and ``h_m = h / c_p``, the
    fin equation in the surface enthalpy has ``m^2 = 2 h b_w / (c_p k t)``. ``b_w > c_p`` near
    room temperature, so a wet fin is less efficient than the same fin dry.

    References
    ----------
    .. [1] J. L. Threlkeld, Thermal Environmental Engineering, 2nd ed., Prentice-Hall (1970).
    .. [2] J. E. Braun, S. A. Klein, J. W. Mitchell, "Effectiveness models for cooling towers
       and cooling coils", ASHRAE Trans. 95(2) (1989) 164–174.
    """
    return math.sqrt(
        2.0
        * h_w_m2_k
        * saturation_slope_j_kg_k
        / (cp_air_j_kg_k * conductivity_w_m_k * thickness_m)
    )


def schmidt_efficiency(m_per_m: float, collar_radius_m: float, equivalent_radius_m: float) -> float:
    r"""Efficiency of a circular fin by Schmidt's approximation [-].

    Parameters
    ----------
    m_per_m : float
        Fin parameter, dry (:func:`fin_parameter`) or wet (:func:`wet_fin_parameter`) [1/m].
    collar_radius_m : float
        Fin root radius r [m].
    equivalent_radius_m : float
        Outer radius R_e (:func:`schmidt_equivalent_radius`) [m].

    Returns
    -------
    float
        :math:`\eta = \tanh(m r \phi)/(m r \phi)`, :math:`\phi = (R_e/r - 1)(1 + 0.35
        \ln(R_e/r))`; 1 when ``m`` is 0 [-].

    References
    ----------
    .. [1] T. E. Schmidt, Refrigerating Engineering 57 (1949) 351–357.
    """
    ratio = equivalent_radius_m / collar_radius_m
    phi = (ratio - 1.0) * (1.0 + 0.35 * math.log(ratio))
    x = m_per_m * collar_radius_m * phi
    if x < 1e-12:
        return 1.0
    return math.tanh(x) / x


def straight_fin_efficiency(m_per_m: float, length_m: float) -> float:
    """Efficiency of a straight fin with an adiabatic tip, ``tanh(m L) / (m L)`` [-].

    For the louvered fins of a microchannel coil, heated from both tubes, ``L`` is half the
    fin length between the tubes (Kim & Bullard 2002 use ``F_l/2 - t``).

    Parameters
    ----------
    m_per_m : float
        Fin parameter [1/m].
    length_m : float
        Fin length from root to the adiabatic line [m].
    """
    x = m_per_m * length_m
    if x < 1e-12:
        return 1.0
    return math.tanh(x) / x


def surface_efficiency(fin_efficiency: float, fin_area_fraction: float) -> float:
    """Surface (overall) efficiency of a finned surface, ``eta_o = 1 - (A_f/A_o)(1 - eta_f)`` [-].

    Parameters
    ----------
    fin_efficiency : float
        Fin efficiency eta_f [-].
    fin_area_fraction : float
        Fin share of the air-side area A_f / A_o [-].
    """
    return 1.0 - fin_area_fraction * (1.0 - fin_efficiency)
