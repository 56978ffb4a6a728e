"""A refrigerant line at one operating point: pressure drop, heat gain, velocity, phase.

Who reads it: :class:`.component.RefrigerantLine` (its two residuals and outputs), the charge
inventory (the mean state) and the line sizing (``workbench.lines.size``, through the solved
lines' outputs). Pure of the solver: inputs are the fluid backend, the transport properties,
the geometry and the inlet and outlet states.

The line is evaluated at its **mean state** ``p_m = (p_in + p_out)/2``, ``h_m = (h_in + h_out)/2``
(the midpoint rule; exact for the friction of a line whose properties vary linearly along it,
second order otherwise), in one of two regimes chosen by the equilibrium quality
``x = (h_m - h_l(p_m)) / (h_g(p_m) - h_l(p_m))``:

- single phase (``x <= 0``, ``x >= 1`` or above the critical pressure):
  Darcy friction with Colebrook's factor (Clamond's solution, ``fluids``), fittings on the
  mean density, static head ``rho_m g dz`` (:func:`~workbench.correlations.line_pressure_drop.line_single_phase_pressure_drop`);
- two phase (``0 < x < 1``): Muller-Steinhagen and Heck (1986) friction, fittings on the
  homogeneous density, static head on Rouhani and Axelsson's void fraction
  (:func:`~workbench.correlations.line_pressure_drop.line_two_phase_pressure_drop`).

The two regimes meet without a jump: Muller-Steinhagen-Heck is the liquid-only Colebrook drop at
``x = 0`` and the gas-only one at ``x = 1``, the homogeneous density and Rouhani's void fraction
go to the phase's density there, so ``dp(p, h, m)`` is continuous across both saturation lines.
Near ``x = 1`` the correlation's ``(1 - x)^(1/3)`` gives it a vertical tangent: it falls by
by 40 % of the gas-only drop over the last 1 % of quality (R32, 3/8 in), which Newton cannot follow.
Over the last :data:`DRYOUT_BAND` of quality the friction is therefore the cubic Hermite
interpolant between the correlation at ``x_a = 1 - DRYOUT_BAND`` (value and slope, the slope
from the correlation's closed form with its liquid-only and gas-only drops) and the gas-only drop
at ``x = 1`` with zero slope: ``dp`` is then continuous with a bounded slope everywhere (a kink at
``x_a`` and at ``x = 1``, no step). The band departs from the correlation by less than its
+-30 % scatter (R32, 3/8 in, 30 g/s: -11 % at x = 0.97, -24 % at x = 0.99).
Acceleration is neglected (below 1 % of the friction of a line sized for 1 K, see
:mod:`workbench.correlations.line_pressure_drop`).

Heat gain ``Q = L (T_amb - T_m) / R'`` with ``T_m = T(p_m, h_m)`` (the saturation temperature
in two phase), ``R'`` the series resistance of one metre (:mod:`.geometry`); 0 for an
adiabatic line.

References
----------
.. [1] H. Muller-Steinhagen, K. Heck, Chem. Eng. Process. 20 (1986) 297-308.
.. [2] C. F. Colebrook (1939); D. Clamond, Ind. Eng. Chem. Res. 48 (2009) 3665-3671.
.. [3] S. Z. Rouhani, E. Axelsson, Int. J. Heat Mass Transfer 13 (1970) 383-393.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from workbench.components.exchangers.lines.geometry import LineGeometry
from workbench.correlations.line_pressure_drop import (
    LinePressureDrop,
    line_single_phase_pressure_drop,
    line_two_phase_frictional_pressure_drop,
    line_two_phase_pressure_drop,
)
from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend
from workbench.fluids.transport import Transport

__all__ = ["DRYOUT_BAND", "MIN_MASS_FLOW_KG_S", "SATURATED_BAND", "LinePoint", "line_point"]

SATURATED_BAND = 1e-4
"""A single-phase mean state this close to the dome in quality (``x`` in ``[-1e-4, 0]`` or
``[1, 1 + 1e-4]``) takes the saturated phase's viscosity: its ``(p, T)`` lies on the saturation
line, where a ``(p, T)`` state is not defined (a saturated vapour outlet, ``superheat_k = 0``)."""

DRYOUT_BAND = 0.05
"""Width in quality of the band below ``x = 1`` where the friction is interpolated [-]."""

MIN_MASS_FLOW_KG_S = 1e-9
"""The friction of a smaller (or negative) flow is taken at this magnitude, with its sign."""


@dataclass(frozen=True)
class LinePoint:
    """A line at one operating point.

    Attributes
    ----------
    drop : LinePressureDrop
        Friction, fittings, static head [Pa] (``p_in - p_out``) and mean velocity [m/s].
    heat_gain_w : float
        Heat into the refrigerant [W].
    p_mean_pa, h_mean_j_kg : float
        The mean state [Pa, J/kg].
    t_mean_k : float
        Refrigerant temperature at the mean state [K].
    quality : float or None
        Equilibrium quality of the mean state inside the dome, else None [-].
    """

    drop: LinePressureDrop
    heat_gain_w: float
    p_mean_pa: float
    h_mean_j_kg: float
    t_mean_k: float
    quality: float | None

    @property
    def two_phase(self) -> bool:
        """True when the mean state is inside the dome."""
        return self.quality is not None


def line_point(
    fluid: FluidBackend, transport: Transport, geometry: LineGeometry, m: float,
    p_in: float, h_in: float, p_out: float, h_out: float,
) -> LinePoint:  # fmt: skip
    """Pressure drop and heat gain of a line (see module docstring).

    Parameters
    ----------
    fluid : FluidBackend
        The refrigerant.
    transport : Transport
        Its viscosities and surface tension (:func:`workbench.fluids.transport.transport_for`).
    geometry : LineGeometry
        The line's hardware.
    m : float
        Mass flow [kg/s] (the sign gives the direction of friction).
    p_in, h_in, p_out, h_out : float
        Inlet and outlet pressure [Pa] and enthalpy [J/kg].

    Returns
    -------
    LinePoint
        Parts of the pressure drop, velocity, heat gain and the mean state.

    Raises
    ------
    FluidPropertyError
        A property call failed at the mean state.
    """
    p_m, h_m = 0.5 * (p_in + p_out), 0.5 * (h_in + h_out)
    flow = max(abs(m), MIN_MASS_FLOW_KG_S)
    sign = 1.0 if m >= 0.0 else -1.0
    quality = x = None
    if p_m < fluid.p_crit:
        h_l, h_g = float(fluid.h_liq(p_m)), float(fluid.h_vap(p_m))
        x = (h_m - h_l) / (h_g - h_l)
        if 0.0 < x < 1.0:
            quality = x
    g = geometry
    if quality is not None:
        sat = transport.saturation(p_m)
        rho_l, rho_g = sat.liquid.rho, sat.vapour.rho
        mu_l, mu_g = sat.liquid.mu, sat.vapour.mu
        drop = line_two_phase_pressure_drop(
            flow, quality, rho_l, rho_g, mu_l, mu_g, sat.sigma, g.inner_diameter_m,
            g.length_m, g.roughness_m, g.fittings_k, g.elevation_m,
        )  # fmt: skip
        if quality > 1.0 - DRYOUT_BAND:
            friction = _dryout_friction(quality, flow, rho_l, rho_g, mu_l, mu_g, g)
            drop = LinePressureDrop(friction, drop.fittings_pa, drop.static_pa, drop.velocity_m_s)
        t_m = float(fluid.T_ph(p_m, h_m))
    else:
        state = fluid.state_ph(p_m, h_m)
        t_m, rho = float(state.T), float(state.rho)
        if x is not None and min(abs(x), abs(x - 1.0)) < SATURATED_BAND:
            # on the saturation line a (p, T) state is not defined: the saturated phase's
            sat = transport.saturation(p_m)
            mu = (sat.vapour if x > 0.5 else sat.liquid).mu
        else:
            mu = transport.single_phase(p_m, t_m).mu
        drop = line_single_phase_pressure_drop(
            flow, rho, mu, g.inner_diameter_m, g.length_m, g.roughness_m, g.fittings_k,
            g.elevation_m,
        )  # fmt: skip
    if sign < 0.0:
        drop = LinePressureDrop(
            -drop.friction_pa, -drop.fittings_pa, drop.static_pa, -drop.velocity_m_s
        )
    if not math.isfinite(drop.total_pa):
        raise FluidPropertyError(
            f"line pressure drop is not finite at p = {p_m:.6g} Pa, h = {h_m:.6g} J/kg, "
            f"m = {m:.6g} kg/s"
        )
    return LinePoint(drop, g.heat_gain_w(t_m), p_m, h_m, t_m, quality)


def _dryout_friction(
    x: float, m: float, rho_l: float, rho_g: float, mu_l: float, mu_g: float, g: LineGeometry
) -> float:
    """Friction [Pa] in the dry-out band: Hermite between MSH at ``x_a`` and gas-only at 1."""

    def msh(q: float) -> float:
        return line_two_phase_frictional_pressure_drop(
            m, q, rho_l, rho_g, mu_l, mu_g, 0.0, g.inner_diameter_m, g.length_m, g.roughness_m
        )

    x_a = 1.0 - DRYOUT_BAND
    dp_lo, dp_go, y0 = msh(0.0), msh(1.0), msh(x_a)
    # d/dx [(dp_lo + 2 (dp_go - dp_lo) x) (1 - x)^(1/3) + dp_go x^3] at x_a
    c = (1.0 - x_a) ** (1.0 / 3.0)
    slope = (
        2.0 * (dp_go - dp_lo) * c
        - (dp_lo + 2.0 * (dp_go - dp_lo) * x_a) / (3.0 * c * c)
        + 3.0 * dp_go * x_a * x_a
    )
    t = (x - x_a) / DRYOUT_BAND
    h00, h10, h01 = 2 * t**3 - 3 * t**2 + 1, t**3 - 2 * t**2 + t, -2 * t**3 + 3 * t**2
    return float(h00 * y0 + h10 * DRYOUT_BAND * slope + h01 * dp_go)
