"""``RefrigerantLine``: the line of an edge inside the Newton system.

The solver inserts one between the two ports of every edge with a ``"line"``
(:mod:`workbench.solver.lines`); the line's inlet and outlet share the edge's mass flow.
Equations (SI), at the mean state of the line (:mod:`.model`)::

    0 = p_in - p_out - (dp_friction + dp_fittings + dp_static)(m, p_m, h_m)      [Pa]
    0 = m (h_out - h_in + g dz) - Q_gain(T(p_m, h_m))                             [W]

``Q_gain = L (T_amb - T_m) / R'`` (0 without ``ambient_temp_c``), ``dz = elevation_m``. The
energy equation is written in watts so that it stays smooth through ``m = 0``; it carries the
potential energy ``g dz`` because the momentum equation carries the static head ``rho g dz``
(without it a downward liquid line would convert head into pressure for nothing and generate
negative entropy). The Jacobian is by forward differences over the mean state the model
reads, ``(m, p_m, h_m)``: three line points for the five unknowns (m, p_in, h_in, p_out, h_out),
:meth:`RefrigerantLine.jacobian`.

Outputs: ``pressure_drop`` [Pa] and its parts (``friction_pressure_drop``,
``fittings_pressure_drop``, ``static_pressure_drop``), ``saturation_temperature_drop`` [K]
(dew-point temperature at the inlet minus at the outlet; None above the critical pressure),
``heat_gain`` [W], ``velocity`` [m/s] (mean), ``mean_quality`` [-], ``volume_m3``,
``ambient_temperature`` [K] (None for an adiabatic line).

Oil return (:meth:`RefrigerantLine.warnings`): a suction or discharge line whose mean state is
vapour and whose velocity is below :func:`~workbench.correlations.line_sizes.minimum_oil_return_velocity`
(riser when ``elevation_m > 0``, horizontal when 0; no minimum downward) is a warning naming the
edge.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from fluids.constants import g as GRAVITY

from workbench.components.base import Component, Equation, StepFunction, register_component
from workbench.components.exchangers.lines.geometry import LineGeometry, line_geometry
from workbench.components.exchangers.lines.model import LinePoint, line_point
from workbench.correlations.line_sizes import minimum_oil_return_velocity
from workbench.errors import FluidPropertyError, ScenarioError
from workbench.fluids.transport import Transport, transport_for

__all__ = ["RefrigerantLine", "oil_return_minimum"]


def oil_return_minimum(role: str, elevation_m: float) -> float | None:
    """The minimum vapour velocity for oil return of a line [m/s], or None when none applies.

    Parameters
    ----------
    role : str
        ``suction``, ``discharge``, ``liquid`` or ``other``.
    elevation_m : float
        Outlet above inlet [m]: a riser above 0, horizontal at 0.

    Returns
    -------
    float or None
        ASHRAE's 1000 ft/min in risers, 500 ft/min horizontal; None for a liquid or other line
        and for a downward one.
    """
    if role not in ("suction", "discharge") or elevation_m < 0.0:
        return None
    return minimum_oil_return_velocity(role, "riser" if elevation_m > 0.0 else "horizontal")


@register_component
class RefrigerantLine(Component):
    """A refrigerant line (see module docstring)."""

    type_name = "RefrigerantLine"

    def configure(self) -> None:
        """The geometry, computed once, and the transport properties of the fluid.

        Raises
        ------
        SpecificationError
            A fitting kind the table does not know or a bad diameter (naming the edge).
        """
        line: dict[str, Any] = dict(self.params["line"])
        self.edge: str = str(self.params.get("edge", self.name))
        self.role: str = str(self.params.get("role", "other"))
        try:
            self.geometry: LineGeometry = line_geometry(line)
        except (ScenarioError, ValueError) as exc:
            raise self.error(f"line of edge {self.edge}: {exc}") from None
        self._transport: Transport | None = None

    @property
    def transport(self) -> Transport:
        """Viscosities and surface tension of the circuit's fluid (made on first use).

        Raises
        ------
        FluidPropertyError
            The fluid has no transport properties (the analytic ``Test`` backend).
        """
        if self._transport is None:
            self._transport = transport_for(self.fluid)
        return self._transport

    def equations(self) -> tuple[Equation, ...]:
        """``momentum`` (pressure) and ``energy`` (power)."""
        return (Equation("momentum", "pressure"), Equation("energy", "power"))

    def point(self, x: np.ndarray) -> LinePoint:
        """The line at the state ``x`` (:func:`.model.line_point`)."""
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        return line_point(
            self.fluid, self.transport, self.geometry, inlet.m, inlet.p, inlet.h, outlet.p, outlet.h
        )

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Pressure [Pa] and energy [W] residuals (module docstring)."""
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        pt = self.point(x)
        return np.array(
            [
                inlet.p - outlet.p - pt.drop.total_pa,
                inlet.m * (outlet.h - inlet.h + GRAVITY * self.geometry.elevation_m)
                - pt.heat_gain_w,
            ]
        )

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Forward differences over the mean state: three line points instead of five.

        :func:`.model.line_point` reads ``m``, ``p_m = (p_in + p_out) / 2`` and
        ``h_m = (h_in + h_out) / 2`` only, so with ``D`` and ``Q`` its drop and gain::

            d/dm     = (-D_m,             h_out - h_in + g dz - Q_m)
            d/dp_in  = ( 1 - D_p / 2,     -Q_p / 2)      d/dp_out = (-1 - D_p / 2, -Q_p / 2)
            d/dh_in  = (-D_h / 2,         -m - Q_h / 2)  d/dh_out = (-D_h / 2,     m - Q_h / 2)

        with ``D_m, D_p, D_h`` (and ``Q_...``) differenced at the mean (``D`` and ``Q`` at ``x``
        read from ``f0``), each step the solver's for the inlet's unknown. Where a forward
        step leaves the fluid's range the backward one is used, as in the base class.
        """
        pin, pout = self.ports["inlet"], self.ports["outlet"]
        if set(self.local_vars) != {pin.m, pin.p, pin.h, pout.p, pout.h} or pin.m != pout.m:
            return super().jacobian(x, f0, step)
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        m, p_m, h_m = inlet.m, 0.5 * (inlet.p + outlet.p), 0.5 * (inlet.h + outlet.h)
        dz = GRAVITY * self.geometry.elevation_m
        drop0 = inlet.p - outlet.p - f0[0]
        gain0 = m * (outlet.h - inlet.h + dz) - f0[1]

        def moved(dm: float, dp: float, dh: float) -> tuple[float, float]:
            pt = line_point(self.fluid, self.transport, self.geometry, m + dm,
                            inlet.p + dp, inlet.h + dh, outlet.p + dp, outlet.h + dh)  # fmt: skip
            return pt.drop.total_pa, pt.heat_gain_w

        slopes = []
        for col, at, k in ((pin.m, m, 0), (pin.p, p_m, 1), (pin.h, h_m, 2)):
            d = step(col, at)
            move = [0.0, 0.0, 0.0]
            try:
                move[k] = d
                drop, gain = moved(*move)
            except FluidPropertyError:
                d = -d
                move[k] = d
                drop, gain = moved(*move)
            slopes.append(((drop - drop0) / d, (gain - gain0) / d))
        (d_m, q_m), (d_p, q_p), (d_h, q_h) = slopes
        columns = (
            (pin.m, -d_m, outlet.h - inlet.h + dz - q_m),
            (pin.p, 1.0 - 0.5 * d_p, -0.5 * q_p),
            (pout.p, -1.0 - 0.5 * d_p, -0.5 * q_p),
            (pin.h, -0.5 * d_h, -m - 0.5 * q_h),
            (pout.h, -0.5 * d_h, m - 0.5 * q_h),
        )
        return [(row, col, float(v)) for col, *rows in columns for row, v in enumerate(rows) if v]

    def heat_gain(self, x: np.ndarray) -> float:
        """Heat into the refrigerant from the ambient at ``x`` [W]."""
        return self.point(x).heat_gain_w

    def potential_power(self, x: np.ndarray) -> float:
        """Potential energy the refrigerant gains per second, ``m g dz`` [W]."""
        return self.port(x, "inlet").m * GRAVITY * self.geometry.elevation_m

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """Flow, outlet state, pressure drop and its parts, heat gain, velocity (docstring)."""
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        pt = self.point(x)
        fl = self.fluid
        sat_drop = None
        if max(inlet.p, outlet.p) < fl.p_crit:
            sat_drop = float(fl.T_sat(inlet.p)) - float(fl.T_sat(outlet.p))
        return {
            "massFlowRate": inlet.m,
            "pressure": outlet.p,
            "temperature": float(fl.T_ph(outlet.p, outlet.h)),
            "pressure_drop": inlet.p - outlet.p,
            "friction_pressure_drop": pt.drop.friction_pa,
            "fittings_pressure_drop": pt.drop.fittings_pa,
            "static_pressure_drop": pt.drop.static_pa,
            "saturation_temperature_drop": sat_drop,
            "heat_gain": pt.heat_gain_w,
            "velocity": pt.drop.velocity_m_s,
            "mean_quality": pt.quality,
            "volume_m3": self.geometry.volume_m3,
            "ambient_temperature": self.geometry.ambient_temp_k,
        }

    def oil_return(self, x: np.ndarray) -> tuple[float, float] | None:
        """``(velocity, minimum)`` [m/s] of a vapour suction or discharge line; else None."""
        minimum = oil_return_minimum(self.role, self.geometry.elevation_m)
        if minimum is None:
            return None
        pt = self.point(x)
        below = pt.p_mean_pa < self.fluid.p_crit
        if below and (pt.two_phase or pt.h_mean_j_kg < float(self.fluid.h_vap(pt.p_mean_pa))):
            return None  # not a vapour line at this state
        return abs(pt.drop.velocity_m_s), minimum

    def warnings(self, x: np.ndarray) -> list[str]:
        """A vapour riser or horizontal vapour line too slow to carry the oil (docstring)."""
        found = self.oil_return(x)
        if found is None or found[0] >= found[1]:
            return []
        velocity, minimum = found
        where = "riser" if self.geometry.elevation_m > 0.0 else "horizontal line"
        return [
            f"line {self.edge} ({self.params.get('edge_path', self.path)}): {self.role} {where} "
            f"velocity {velocity:.2f} m/s is below the {minimum:.2f} m/s oil return needs "
            f"(ASHRAE); a smaller tube or a double riser keeps the oil moving"
        ]
