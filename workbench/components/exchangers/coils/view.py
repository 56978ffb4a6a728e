"""What a coil's checks and Jacobian read of a coil: the coil as a protocol.

:class:`~workbench.components.exchangers.coils.component.Coil` has every member;
:mod:`.checks` and :mod:`.jacobian` take this view, so they sit below the component that calls
them and never import it. Units: SI (Pa, K, J/kg, kg/s, W).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from workbench.components.base import PortState, PortVars
from workbench.components.exchangers.zones.heat_flow import CoilSensitivity, ZoneResult
from workbench.components.exchangers.zones.profile_memo import ProfileMemo
from workbench.fluids import FluidBackend

__all__ = ["CoilView", "ExternalDrop"]


class ExternalDrop(Protocol):
    """A coil's refrigerant pressure drop computed elsewhere (a brazed plate cascade exchanger)."""

    def value(self, x: np.ndarray) -> float:
        """Pressure drop [Pa] at the unknowns ``x``."""

    def derivatives(self, x: np.ndarray) -> list[tuple[int, float]]:
        """``(column, d dp / d x_column)`` [Pa per unit of x] of the unknowns it depends on."""


class CoilView(Protocol):
    """A condenser or evaporator as its checks and Jacobian see it (members of ``Coil``)."""

    @property
    def name(self) -> str:
        """Component name."""

    @property
    def type_name(self) -> str:
        """``"Condenser"`` or ``"Evaporator"``."""

    @property
    def fluid(self) -> FluidBackend:
        """The refrigerant's property backend."""

    @property
    def params(self) -> dict[str, Any]:
        """Parameters with defaults filled in."""

    @property
    def ports(self) -> dict[str, PortVars]:
        """Indices of each port's unknowns in the state vector."""

    @property
    def _local(self) -> list[int]:
        """Indices of the unknowns the residuals depend on."""

    @property
    def _profile_memo(self) -> ProfileMemo:
        """The memo of temperature-profile checks."""

    @property
    def refrigerant_is_hot(self) -> bool:
        """True for a condenser (the refrigerant releases heat)."""

    @property
    def sat_spec(self) -> str:
        """Name of the saturation-temperature parameter [K]."""

    @property
    def outlet_spec(self) -> str:
        """Name of the outlet subcooling / superheat parameter [K]."""

    @property
    def outlet_spec_given(self) -> bool:
        """True when the outlet specification is an equation."""

    @property
    def ua_mode(self) -> bool:
        """True when the heat flow comes from a UA and the secondary stream."""

    @property
    def has_secondary(self) -> bool:
        """True when a secondary inlet temperature is given."""

    @property
    def coupled(self) -> bool:
        """True when the other side is another circuit (a thermal coupling)."""

    @property
    def external_pressure_drop(self) -> ExternalDrop | None:
        """The pressure drop's source when a coupling built from hardware gives it, else None."""

    @property
    def n_coils(self) -> int:
        """Coils in parallel (circuits x coils per circuit)."""

    @property
    def t_sec_in(self) -> float:
        """Secondary inlet temperature [K] (NaN without a secondary)."""

    def has(self, name: str) -> bool:
        """True when parameter ``name`` was given."""

    def port(self, x: np.ndarray, port: str) -> PortState:
        """Mass flow [kg/s], pressure [Pa] and enthalpy [J/kg] at a port."""

    def factor(self, x: np.ndarray, name: str) -> float:
        """Calibration factor ``name`` [-] at state ``x``."""

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Scaled residuals of the coil's equations."""

    def heat_flow(self, x: np.ndarray) -> float:
        """Heat flow out of the refrigerant (condenser) or into it (evaporator) [W]."""

    def ua_total(self, x: np.ndarray) -> float:
        """Total conductance [W/K]."""

    def secondary_capacity_rate(self) -> float:
        """Secondary capacity rate [W/K]."""

    def reference_pressure(self, x: np.ndarray) -> float:
        """Pressure the saturation temperature is read at [Pa]."""

    def reference_temperature_slope(self, p: float) -> float:
        """Slope of the reference temperature with pressure [K/Pa]."""

    def subcooling_reference(self, p: float) -> float:
        """Temperature the subcooling is measured from [K]."""

    def outlet_target(self, p_out: float, delta: float) -> float:
        """Outlet enthalpy that meets ``delta`` [K] of subcooling or superheat [J/kg]."""

    def zones(self, x: np.ndarray) -> ZoneResult:
        """The zoned heat flow at ``x``."""

    def zone_sensitivity(self, x: np.ndarray) -> CoilSensitivity:
        """The zoned heat flow and its derivatives at ``x``."""
