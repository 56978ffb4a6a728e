"""Pressure drop of a refrigerant line: friction, fittings and static head, single and two phase.

Who reads it: the line of an edge (issue 41: ``"line": {"length_m", "inner_diameter_m",
"elevation_m", "roughness_m", "fittings", ...}``) in the Newton system and the line sizing.
All pressure drops are ``p_inlet - p_outlet`` [Pa], positive for a loss.

Equations (``A = pi D^2 / 4``, ``G = m_dot / A``)::

    single phase:  dp_f = f (L / D) G^2 / (2 rho),  f = Darcy factor of Colebrook (1939), solved
                   to machine precision by Clamond's (2009) algorithm (fluids' "Clamond"), or
                   Churchill (1977) (fluids' "Churchill_1977");
                   64/Re below Re = 2040 (fluids)
                   dp_K = (sum n K) G^2 / (2 rho)                      fittings (.line_fittings)
                   dp_z = rho g dz                                     dz = elevation_m, outlet up
    two phase:     dp_f from fluids.two_phase: Muller-Steinhagen and Heck (1986, default),
                   Friedel (1979) or Lockhart and Martinelli (1949)
                   dp_K = (sum n K) G^2 / (2 rho_h),  1/rho_h = x/rho_g + (1-x)/rho_l   (homogeneous)
                   dp_z = [alpha rho_g + (1 - alpha) rho_l] g dz,  alpha of Rouhani and Axelsson
                   (1970) with C0 = 1 + 0.2 (1 - x), the drift-flux form for vertical flow
                   (fluids.two_phase_voidage.Rouhani_1)

The acceleration term is neglected: a line is nearly adiabatic, its quality and density change
only through the heat gain and the pressure drop, and ``G^2 d(1/rho)`` is then below 1 % of the
friction of any line sized for a 1 K saturation drop. The static head uses a slip void fraction
rather than the homogeneous one because in a riser the vapour overtakes the liquid: the
homogeneous density would understate the liquid held in, and the head of, a riser.

Accuracy: Colebrook is the reference for commercial pipe; Churchill's explicit fit stays within
2 % of it for 4e3 <= Re <= 1e7 and 1 % above Re = 1e4, smooth to 1e-3 relative roughness
(measured in the tests).
Muller-Steinhagen and Heck came out as the most reliable general method against a large
air-water, air-oil and refrigerant database (Tribbe and Muller-Steinhagen 2000), hence the default;
Friedel is Whalley's recommendation for mu_l/mu_g < 1000; Lockhart-Martinelli is the historical
method, kept for comparison. Two-phase frictional correlations scatter by +-30 % or more about
refrigerant data; the choice matters less than the quality assumed along the line.

References
----------
.. [1] C. F. Colebrook, "Turbulent flow in pipes ...", J. ICE 11 (1939) 133-156; S. W. Churchill,
   "Friction-factor equation spans all fluid-flow regimes", Chem. Eng. 84 (1977) 91-92.
.. [2] D. Clamond, "Efficient resolution of the Colebrook equation", Ind. Eng. Chem. Res. 48
   (2009) 3665-3671.
.. [3] H. Muller-Steinhagen, K. Heck, "A simple friction pressure drop correlation for two-phase
   flow in pipes", Chem. Eng. Process. 20 (1986) 297-308.
.. [4] L. Friedel, "Improved friction pressure drop correlations for horizontal and vertical
   two-phase pipe flow", European Two-Phase Flow Group Meeting, Ispra (1979), paper E2.
.. [5] R. W. Lockhart, R. C. Martinelli, "Proposed correlation of data for isothermal two-phase,
   two-component flow in pipes", Chem. Eng. Prog. 45 (1949) 39-48.
.. [6] S. Z. Rouhani, E. Axelsson, "Calculation of void volume fraction in the subcooled and
   quality boiling regions", Int. J. Heat Mass Transfer 13 (1970) 383-393.
.. [7] C. Tribbe, H. M. Muller-Steinhagen, "An evaluation of the performance of phenomenological
   models for predicting pressure gradient during gas-liquid flow in horizontal pipelines",
   Int. J. Multiphase Flow 26 (2000) 1019-1036.
.. [8] C. Bell, fluids (``fluids.friction``, ``fluids.two_phase``,
   ``fluids.two_phase_voidage``), MIT licence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from fluids.constants import g as GRAVITY
from fluids.friction import friction_factor
from fluids.two_phase import Friedel, Lockhart_Martinelli, Muller_Steinhagen_Heck
from fluids.two_phase_voidage import Rouhani_1

__all__ = [
    "FRICTION_METHODS",
    "TWO_PHASE_METHODS",
    "LinePressureDrop",
    "line_friction_factor",
    "line_single_phase_pressure_drop",
    "line_two_phase_frictional_pressure_drop",
    "line_two_phase_pressure_drop",
    "line_velocity",
    "line_void_fraction",
]

FRICTION_METHODS = {"colebrook": "Clamond", "churchill": "Churchill_1977"}
"""Single-phase friction factor methods: our name -> fluids' ``Method``."""

TWO_PHASE_METHODS = ("muller_steinhagen_heck", "friedel", "lockhart_martinelli")
"""Two-phase frictional methods, the default first."""


@dataclass(frozen=True)
class LinePressureDrop:
    """Parts of a line's pressure drop, each ``p_in - p_out`` [Pa].

    Attributes
    ----------
    friction_pa : float
        Wall friction over the straight length [Pa].
    fittings_pa : float
        Bends, valves and tees [Pa].
    static_pa : float
        Static head, negative in a downward line [Pa].
    velocity_m_s : float
        Mean velocity, of the homogeneous mixture in two phase [m/s].
    """

    friction_pa: float
    fittings_pa: float
    static_pa: float
    velocity_m_s: float

    @property
    def total_pa(self) -> float:
        """Friction, fittings and static head together [Pa]."""
        return self.friction_pa + self.fittings_pa + self.static_pa


def line_velocity(mass_flow_kg_s: float, density_kg_m3: float, inner_diameter_m: float) -> float:
    """Mean velocity ``m_dot / (rho pi D^2 / 4)`` [m/s].

    Parameters
    ----------
    mass_flow_kg_s : float
        Mass flow [kg/s].
    density_kg_m3 : float
        Density [kg/m^3].
    inner_diameter_m : float
        Inner diameter [m].

    Returns
    -------
    float
        Velocity [m/s].
    """
    return mass_flow_kg_s / (density_kg_m3 * 0.25 * math.pi * inner_diameter_m**2)


def line_friction_factor(
    reynolds: float, relative_roughness: float, method: str = "colebrook"
) -> float:
    """Darcy friction factor of a round tube [-].

    Parameters
    ----------
    reynolds : float
        Reynolds number on the inner diameter [-].
    relative_roughness : float
        Roughness over inner diameter [-] (drawn copper: 1.5e-6 m absolute).
    method : {"colebrook", "churchill"}
        Colebrook's implicit equation (solved by Clamond's algorithm) or Churchill's explicit fit.

    Returns
    -------
    float
        Darcy friction factor [-].

    Raises
    ------
    ValueError
        For an unknown method.
    """
    if method not in FRICTION_METHODS:
        raise ValueError(
            f"friction method must be one of {', '.join(FRICTION_METHODS)}; got {method!r}"
        )
    return float(
        friction_factor(Re=reynolds, eD=relative_roughness, Method=FRICTION_METHODS[method])
    )


def line_single_phase_pressure_drop(
    mass_flow_kg_s: float, density_kg_m3: float, viscosity_pa_s: float, inner_diameter_m: float,
    length_m: float, roughness_m: float = 1.5e-6, fittings_k: float = 0.0,
    elevation_m: float = 0.0, method: str = "colebrook",
) -> LinePressureDrop:  # fmt: skip
    """Pressure drop of a line in single-phase flow [Pa].

    Parameters
    ----------
    mass_flow_kg_s : float
        Mass flow [kg/s].
    density_kg_m3 : float
        Mean density [kg/m^3].
    viscosity_pa_s : float
        Mean viscosity [Pa s].
    inner_diameter_m : float
        Inner diameter [m].
    length_m : float
        Straight length [m].
    roughness_m : float, optional
        Absolute roughness [m]; drawn copper 1.5e-6 by default.
    fittings_k : float, optional
        Sum of the fittings' loss coefficients [-] (:func:`.fittings_loss_coefficient`).
    elevation_m : float, optional
        Outlet above inlet [m].
    method : {"colebrook", "churchill"}
        Friction factor.

    Returns
    -------
    LinePressureDrop
        Friction, fittings, static head and velocity.
    """
    velocity = line_velocity(mass_flow_kg_s, density_kg_m3, inner_diameter_m)
    reynolds = density_kg_m3 * velocity * inner_diameter_m / viscosity_pa_s
    f = line_friction_factor(reynolds, roughness_m / inner_diameter_m, method)
    head = 0.5 * density_kg_m3 * velocity**2
    return LinePressureDrop(
        friction_pa=f * length_m / inner_diameter_m * head,
        fittings_pa=fittings_k * head,
        static_pa=density_kg_m3 * GRAVITY * elevation_m,
        velocity_m_s=velocity,
    )


def line_two_phase_frictional_pressure_drop(
    mass_flow_kg_s: float, quality: float, rho_l: float, rho_g: float, mu_l: float, mu_g: float,
    sigma: float, inner_diameter_m: float, length_m: float, roughness_m: float = 1.5e-6,
    method: str = "muller_steinhagen_heck",
) -> float:  # fmt: skip
    """Frictional pressure drop of two-phase flow in a straight tube [Pa].

    Parameters
    ----------
    mass_flow_kg_s : float
        Total mass flow [kg/s].
    quality : float
        Vapour quality, 0 <= x <= 1 [-].
    rho_l, rho_g : float
        Saturated liquid and vapour densities [kg/m^3].
    mu_l, mu_g : float
        Saturated liquid and vapour viscosities [Pa s].
    sigma : float
        Surface tension [N/m] (Friedel only).
    inner_diameter_m : float
        Inner diameter [m].
    length_m : float
        Straight length [m].
    roughness_m : float, optional
        Absolute roughness [m] (not used by Lockhart-Martinelli, which fluids evaluates smooth).
    method : {"muller_steinhagen_heck", "friedel", "lockhart_martinelli"}
        Correlation.

    Returns
    -------
    float
        Frictional pressure drop [Pa].

    Raises
    ------
    ValueError
        For an unknown method.
    """
    common = {
        "m": mass_flow_kg_s, "x": quality, "rhol": rho_l, "rhog": rho_g, "mul": mu_l,
        "mug": mu_g, "D": inner_diameter_m, "L": length_m,
    }  # fmt: skip
    if method == "muller_steinhagen_heck":
        return float(Muller_Steinhagen_Heck(**common, roughness=roughness_m))
    if method == "friedel":
        return float(Friedel(**common, sigma=sigma, roughness=roughness_m))
    if method == "lockhart_martinelli":
        return float(Lockhart_Martinelli(**common))
    raise ValueError(
        f"two-phase method must be one of {', '.join(TWO_PHASE_METHODS)}; got {method!r}"
    )


def line_void_fraction(
    quality: float, rho_l: float, rho_g: float, sigma: float, mass_flow_kg_s: float,
    inner_diameter_m: float,
) -> float:  # fmt: skip
    """Void fraction of Rouhani and Axelsson (1970), vertical drift-flux form [-].

    Parameters
    ----------
    quality : float
        Vapour quality [-].
    rho_l, rho_g : float
        Saturated liquid and vapour densities [kg/m^3].
    sigma : float
        Surface tension [N/m].
    mass_flow_kg_s : float
        Total mass flow [kg/s].
    inner_diameter_m : float
        Inner diameter [m].

    Returns
    -------
    float
        Vapour area fraction [-].

    Notes
    -----
    ``alpha = (x/rho_g) [C0 (x/rho_g + (1-x)/rho_l) + v_gj/G]^-1``,
    ``C0 = 1 + 0.2 (1-x)``, ``v_gj = 1.18 (1-x) [g sigma (rho_l - rho_g)]^(1/4) / rho_l^(1/2)``
    (``fluids.two_phase_voidage.Rouhani_1``).
    """
    if quality <= 0.0:
        return 0.0
    if quality >= 1.0:
        return 1.0
    return float(
        Rouhani_1(
            x=quality, rhol=rho_l, rhog=rho_g, sigma=sigma, m=mass_flow_kg_s, D=inner_diameter_m
        )
    )


def line_two_phase_pressure_drop(
    mass_flow_kg_s: float, quality: float, rho_l: float, rho_g: float, mu_l: float, mu_g: float,
    sigma: float, inner_diameter_m: float, length_m: float, roughness_m: float = 1.5e-6,
    fittings_k: float = 0.0, elevation_m: float = 0.0, method: str = "muller_steinhagen_heck",
) -> LinePressureDrop:  # fmt: skip
    """Pressure drop of a line in two-phase flow at one quality [Pa].

    Parameters
    ----------
    mass_flow_kg_s : float
        Total mass flow [kg/s].
    quality : float
        Vapour quality (the line's mean) [-].
    rho_l, rho_g : float
        Saturated liquid and vapour densities [kg/m^3].
    mu_l, mu_g : float
        Saturated liquid and vapour viscosities [Pa s].
    sigma : float
        Surface tension [N/m].
    inner_diameter_m : float
        Inner diameter [m].
    length_m : float
        Straight length [m].
    roughness_m : float, optional
        Absolute roughness [m].
    fittings_k : float, optional
        Sum of the fittings' loss coefficients [-].
    elevation_m : float, optional
        Outlet above inlet [m].
    method : {"muller_steinhagen_heck", "friedel", "lockhart_martinelli"}
        Frictional correlation.

    Returns
    -------
    LinePressureDrop
        Friction, fittings (homogeneous density), static head (Rouhani-Axelsson void fraction)
        and the homogeneous velocity.
    """
    friction = line_two_phase_frictional_pressure_drop(
        mass_flow_kg_s, quality, rho_l, rho_g, mu_l, mu_g, sigma, inner_diameter_m, length_m,
        roughness_m, method,
    )  # fmt: skip
    rho_h = 1.0 / (quality / rho_g + (1.0 - quality) / rho_l)
    velocity = line_velocity(mass_flow_kg_s, rho_h, inner_diameter_m)
    alpha = line_void_fraction(quality, rho_l, rho_g, sigma, mass_flow_kg_s, inner_diameter_m)
    rho_static = alpha * rho_g + (1.0 - alpha) * rho_l
    return LinePressureDrop(
        friction_pa=friction,
        fittings_pa=fittings_k * 0.5 * rho_h * velocity**2,
        static_pa=rho_static * GRAVITY * elevation_m,
        velocity_m_s=velocity,
    )
