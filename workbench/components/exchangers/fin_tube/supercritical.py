"""The refrigerant side of a gas cooler from its geometry: one phase above the critical pressure.

Who reads it: the segment march of a gas cooler
(:class:`~workbench.components.exchangers.fin_tube.component.FinTubeGasCooler`), through the
same three methods as the subcritical :class:`~workbench.components.exchangers.fin_tube.tube_side.TubeFluid`
(``temperature``, ``film``, ``friction``). Above the critical pressure nothing condenses, but
the specific heat peaks at the pseudo-critical temperature, so nothing is interpolated: each
evaluation flashes ``T(p, h)`` with the backend and reads the transport properties at
``(p, T)`` (:mod:`workbench.fluids.transport`), about ten times the cost of a subcritical
evaluation.

Film coefficient: Gnielinski with the bulk properties (Jackson's 2002 correction for the
density and specific-heat variation between wall and bulk needs the wall state, a further
iteration per evaluation; it is not applied, docs/components.md). Friction: the Darcy factor
of ``fluids.friction.friction_factor`` (Clamond's Colebrook),
``dp/dz = f_D G^2 / (2 rho D)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from fluids.friction import friction_factor

from workbench.correlations.in_tube import single_phase_gnielinski
from workbench.fluids.base import FluidBackend
from workbench.fluids.transport import PhaseTransport, Transport

__all__ = ["SupercriticalFluid"]


@dataclass(frozen=True)
class SupercriticalFluid:
    """The refrigerant of one gas-cooler march.

    Attributes
    ----------
    transport : Transport
        Transport properties of the fluid.
    fluid : FluidBackend
        Its backend (``T(p, h)``).
    """

    transport: Transport
    fluid: FluidBackend

    def temperature(self, p: float, h: float) -> float:
        """Temperature at ``(p, h)`` [K] (the backend's flash)."""
        return float(self.fluid.T_ph(p, h))

    def _props(self, p: float, h: float) -> PhaseTransport:
        return self.transport.single_phase(p, self.temperature(p, h))

    def film(
        self,
        p: float,
        h: float,
        m_tube: float,
        diameter: float,
        evaporating: bool,
        flux: float,
        h_guess: float,
    ) -> float:
        """Gnielinski's coefficient with the bulk properties at ``(p, h)`` [W/(m^2 K)]."""
        props = self._props(p, h)
        mass_flux = m_tube / (math.pi * diameter**2 / 4.0)
        return single_phase_gnielinski(
            mass_flux * diameter / props.mu, props.prandtl, props.k, diameter
        )

    def friction(self, p: float, h: float, m_tube: float, diameter: float) -> float:
        """Single-phase friction gradient at ``(p, h)`` [Pa/m]."""
        props = self._props(p, h)
        mass_flux = m_tube / (math.pi * diameter**2 / 4.0)
        f_d = float(friction_factor(Re=mass_flux * diameter / props.mu, eD=0.0))
        return f_d * mass_flux**2 / (2.0 * props.rho * diameter)
