"""Receiver and accumulator: a vessel holding a liquid reserve at saturation.

Equations (SI), ``h_sat`` the saturated liquid enthalpy (receiver) or the saturated vapour
enthalpy (accumulator) at the vessel's pressure::

    0 = p_out - p_in                     (pressure)
    0 = h_out - h_in                     (energy; adiabatic)
    0 = h_out - h_sat(p_out)             (saturation: what leaves is saturated)

The third equation is the spec a receiver brings to its circuit instead of the condenser's
subcooling (an accumulator: instead of the evaporator's superheat): give the coil no
``subcooling_k`` / ``superheat_k``. At steady state the inlet is then saturated too.

Refrigerant held [kg], ``L`` the liquid level (share of the volume ``V`` filled with liquid)::

    m = V (L rho_l + (1 - L) rho_g)

``L`` is the parameter ``liquid_level`` (default 0.5); with a fixed circuit charge
(``circuits[i].charge_kg``) it is an unknown that the charge equation sets
(:mod:`workbench.solver.charge.block`), and a level outside 0..1 is reported: the vessel would be
empty or flooded at that charge.
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Component, Equation, ZoneCharge, register_component

__all__ = ["Accumulator", "Receiver", "Vessel"]


class Vessel(Component):
    """Shared model of receivers and accumulators (see module docstring)."""

    liquid_out: bool = True

    def configure(self) -> None:
        """The volume [m3] and the level (a parameter until a fixed charge frees it).

        Raises
        ------
        SpecificationError
            Without ``internal_volume_m3``.
        """
        if not self.has("internal_volume_m3"):
            raise self.error("needs internal_volume_m3 (the vessel's volume)")
        self.volume = float(self.params["internal_volume_m3"])
        self.level_index: int | None = None

    def free_level(self, index: int) -> None:
        """Make the liquid level the unknown ``index`` (a fixed circuit charge sets it)."""
        self.level_index = index
        self._local = sorted(set(self._local) | {index})

    def level(self, x: np.ndarray) -> float:
        """Liquid level [-]: the unknown when freed, else ``liquid_level``."""
        if self.level_index is not None:
            return float(x[self.level_index])
        return float(self.params["liquid_level"])

    def h_sat(self, p: float) -> float:
        """Enthalpy of what leaves [J/kg]: saturated liquid (receiver) or vapour (accumulator)."""
        return float(self.fluid.h_liq(p) if self.liquid_out else self.fluid.h_vap(p))

    def equations(self) -> tuple[Equation, ...]:
        """``pressure``, ``energy`` and ``saturation``."""
        return (
            Equation("pressure", "pressure"),
            Equation("energy", "enthalpy"),
            Equation("saturation", "enthalpy"),
        )

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Pressure [Pa], energy [J/kg] and saturation [J/kg] residuals (module docstring)."""
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        return np.array([outlet.p - inlet.p, outlet.h - inlet.h, outlet.h - self.h_sat(outlet.p)])

    def charge_zones(self, x: np.ndarray) -> list[ZoneCharge]:
        """The liquid and vapour in the vessel [kg per zone] (records of the inventory)."""
        p = self.port(x, "inlet").p
        rho_l = float(self.fluid.rho_ph(p, self.fluid.h_liq(p)))
        rho_g = float(self.fluid.rho_ph(p, self.fluid.h_vap(p)))
        level = self.level(x)
        v_l, v_g = self.volume * level, self.volume * (1.0 - level)
        return [
            ZoneCharge("liquid", v_l, rho_l, v_l * rho_l),
            ZoneCharge("vapour", v_g, rho_g, v_g * rho_g),
        ]

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """``massFlowRate`` [kg/s], ``pressure`` [Pa], ``temperature`` [K], ``liquid_level`` [-]."""
        outlet = self.port(x, "outlet")
        return {
            "massFlowRate": outlet.m,
            "pressure": outlet.p,
            "temperature": float(self.fluid.T_ph(outlet.p, outlet.h)),
            "liquid_level": self.level(x),
        }

    def check(self, x: np.ndarray) -> list[str]:
        """A level outside 0..1: the charge does not fit (flooded) or is missing (empty)."""
        level = self.level(x)
        if 0.0 <= level <= 1.0:
            return []
        state = (
            "flooded: the charge exceeds what it holds" if level > 1 else "empty: too little charge"
        )
        return [f"{self.type_name} {self.name!r}: liquid level {level:.3f} ({state})"]


@register_component
class Receiver(Vessel):
    """Liquid receiver: saturated liquid leaves (see module docstring)."""

    type_name = "Receiver"
    liquid_out = True


@register_component
class Accumulator(Vessel):
    """Suction accumulator: saturated vapour leaves (see module docstring)."""

    type_name = "Accumulator"
    liquid_out = False
