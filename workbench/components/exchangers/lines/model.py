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
go to the phase's density there, so ``dp(p, h, m)`` is continuous across both saturation lines
(its slope in ``h`` changes there; Newton's finite differences see a kink, not a step).
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
from workbench.components.exchangers.lines.transport import LineTransport
from workbench.correlations.line_pressure_drop import (
    LinePressureDrop,
    line_single_phase_pressure_drop,
    line_two_phase_pressure_drop,
)
from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend

__all__ = ["MIN_MASS_FLOW_KG_S", "LinePoint", "line_point"]

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
    fluid: FluidBackend, transport: LineTransport, geometry: LineGeometry, m: float,
    p_in: float, h_in: float, p_out: float, h_out: float,
) -> LinePoint:  # fmt: skip
    """Pressure drop and heat gain of a line (see module docstring).

    Parameters
    ----------
    fluid : FluidBackend
        The refrigerant.
    transport : LineTransport
        Its viscosities and surface tension.
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
    quality = None
    if p_m < fluid.p_crit:
        h_l, h_g = float(fluid.h_liq(p_m)), float(fluid.h_vap(p_m))
        x = (h_m - h_l) / (h_g - h_l)
        if 0.0 < x < 1.0:
            quality = x
    g = geometry
    if quality is not None:
        sat = transport.saturation(p_m)
        rho_l = float(fluid.rho_ph(p_m, h_l))
        rho_g = float(fluid.rho_ph(p_m, h_g))
        drop = line_two_phase_pressure_drop(
            flow, quality, rho_l, rho_g, sat.mu_l, sat.mu_g, sat.sigma, g.inner_diameter_m,
            g.length_m, g.roughness_m, g.fittings_k, g.elevation_m,
        )  # fmt: skip
        t_m = float(fluid.T_ph(p_m, h_m))
    else:
        state = fluid.state_ph(p_m, h_m)
        t_m, rho = float(state.T), float(state.rho)
        mu = transport.viscosity(p_m, t_m)
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
