"""The interface every property backend implements, and the state record it returns.

A backend is bound to one working fluid. All inputs and outputs are SI: pressure [Pa],
specific enthalpy [J/kg], specific entropy [J/kg/K], temperature [K], density [kg/m3].
Methods are named output-from-inputs (``T_ph``, ``h_ps``); derivatives are named
``d<of>_d<wrt>_<constant>``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.errors import FluidPropertyError

__all__ = [
    "PHASES",
    "FluidBackend",
    "FluidState",
    "PropertyStats",
    "fmt_inputs",
]

PHASES = ("liquid", "two-phase", "vapour", "supercritical")
"""Phase labels of :attr:`FluidState.phase`. ``supercritical`` means ``p >= p_crit``."""


@dataclass(frozen=True, slots=True)
class FluidState:
    """One thermodynamic state (scalars, or numpy arrays from a vectorised call).

    Attributes
    ----------
    p : float
        Pressure [Pa].
    h : float
        Specific enthalpy [J/kg].
    T : float
        Temperature [K].
    s : float
        Specific entropy [J/kg/K].
    rho : float
        Density [kg/m3].
    quality : float or None
        Vapour mass fraction [-] inside the dome (0..1); ``None`` outside it for a scalar
        state, ``nan`` outside it for array states.
    phase : str
        One of :data:`PHASES` (an array of them for array states).
    """

    p: Any
    h: Any
    T: Any
    s: Any
    rho: Any
    quality: Any
    phase: Any


@dataclass(frozen=True, slots=True)
class PropertyStats:
    """Counters of one backend since it was made or last reset.

    The owner resets them with :meth:`FluidBackend.reset_stats`; subtract two readings for what
    a run used.

    Attributes
    ----------
    calls : int
        Public property evaluations (every method call that returns a property counts once).
    flashes : int
        Underlying state updates actually computed (CoolProp ``update`` calls; for the
        analytic backend equal to ``calls``).
    """

    calls: int
    flashes: int

    def __int__(self) -> int:
        """The number of property calls: ``int(backend.stats)``."""
        return self.calls

    def __sub__(self, earlier: PropertyStats) -> PropertyStats:
        """The counts between ``earlier`` and this reading (what one run used)."""
        return PropertyStats(self.calls - earlier.calls, self.flashes - earlier.flashes)


def fmt_inputs(**inputs: Any) -> str:
    """Format named inputs for an error message, e.g. ``p=300000.0 Pa, h=4.1e5 J/kg``."""
    units = {"p": "Pa", "h": "J/kg", "s": "J/kg/K", "T": "K", "q": "-"}
    parts = []
    for key, value in inputs.items():
        if isinstance(value, np.ndarray):
            value = f"array(shape={value.shape})"
        parts.append(f"{key}={value!r} {units.get(key, '')}".rstrip())
    return ", ".join(parts)


class FluidBackend(ABC):
    """Property backend bound to one fluid (abstract base).

    Attributes
    ----------
    name : str
        Canonical fluid name (``R134a``, ``CO2``, ...).
    backend_name : str
        ``"Test"`` or ``"CoolProp"``.
    zeotropic : bool
        A blend with a glide (:class:`~workbench.fluids.blend.backend.BlendBackend`).
    T_crit : float
        Critical temperature [K].
    p_crit : float
        Critical pressure [Pa].
    p_min, p_max : float
        Pressure range where the backend is valid [Pa].
    """

    name: str
    backend_name: str
    zeotropic: bool = False
    """True for a blend with a glide: subcooling is then measured from the bubble point."""
    T_crit: float
    p_crit: float
    p_min: float
    p_max: float

    def __init__(self) -> None:
        self._calls = 0
        self._flashes = 0

    # -- bookkeeping ---------------------------------------------------------------------------
    @property
    def stats(self) -> PropertyStats:
        """Counters of property evaluations since the last :meth:`reset_stats`."""
        return PropertyStats(self._calls, self._flashes)

    def reset_stats(self) -> None:
        """Set the call counters back to zero."""
        self._calls = 0
        self._flashes = 0

    def error(self, what: str, reason: str, /, **inputs: Any) -> FluidPropertyError:
        """Build a :class:`FluidPropertyError` naming fluid, backend, operation and inputs."""
        return FluidPropertyError(
            f"{self.name} ({self.backend_name}): {what} failed for {fmt_inputs(**inputs)}: {reason}"
        )

    def __repr__(self) -> str:
        """``<ClassName fluid (backend)>``."""
        return f"<{type(self).__name__} {self.name} ({self.backend_name})>"

    # -- states ----------------------------------------------------------------------------------
    @abstractmethod
    def state_ph(self, p: Any, h: Any) -> FluidState:
        """Full state from pressure [Pa] and specific enthalpy [J/kg]."""

    @abstractmethod
    def T_ph(self, p: Any, h: Any) -> Any:
        """Temperature [K] from pressure [Pa] and enthalpy [J/kg]."""

    @abstractmethod
    def s_ph(self, p: Any, h: Any) -> Any:
        """Specific entropy [J/kg/K] from pressure [Pa] and enthalpy [J/kg]."""

    @abstractmethod
    def rho_ph(self, p: Any, h: Any) -> Any:
        """Density [kg/m3] from pressure [Pa] and enthalpy [J/kg]."""

    @abstractmethod
    def quality_ph(self, p: Any, h: Any) -> Any:
        """Vapour quality [-] inside the dome, ``None`` (``nan`` in arrays) outside."""

    @abstractmethod
    def h_pT(self, p: Any, T: Any) -> Any:
        """Specific enthalpy [J/kg] from pressure [Pa] and temperature [K], outside the dome."""

    @abstractmethod
    def h_ps(self, p: Any, s: Any) -> Any:
        """Specific enthalpy [J/kg] from pressure [Pa] and entropy [J/kg/K] (isentropic)."""

    # -- saturation ------------------------------------------------------------------------------
    @abstractmethod
    def T_sat(self, p: Any) -> Any:
        """Saturation (dew) temperature [K] at pressure [Pa]."""

    @abstractmethod
    def p_sat(self, T: Any) -> Any:
        """Saturation (dew) pressure [Pa] at temperature [K]."""

    @abstractmethod
    def h_liq(self, p: Any) -> Any:
        """Saturated liquid (bubble point) enthalpy [J/kg] at pressure [Pa]."""

    @abstractmethod
    def h_vap(self, p: Any) -> Any:
        """Saturated vapour (dew point) enthalpy [J/kg] at pressure [Pa]."""

    @abstractmethod
    def s_liq(self, p: Any) -> Any:
        """Saturated liquid entropy [J/kg/K] at pressure [Pa]."""

    @abstractmethod
    def s_vap(self, p: Any) -> Any:
        """Saturated vapour entropy [J/kg/K] at pressure [Pa]."""

    @abstractmethod
    def h_min(self, p: Any) -> Any:
        """Lowest valid enthalpy [J/kg] at pressure [Pa]."""

    @abstractmethod
    def h_max(self, p: Any) -> Any:
        """Highest valid enthalpy [J/kg] at pressure [Pa]."""

    # -- derivatives -----------------------------------------------------------------------------
    @abstractmethod
    def dT_dh_p(self, p: Any, h: Any) -> Any:
        """(dT/dh) at constant p [K kg/J]; 0 inside the dome of a pure fluid."""

    def dTbubble_dp(self, p: Any) -> Any:
        """d(T_bubble)/dp along the bubble line [K/Pa]; :meth:`dTsat_dp` for a pure fluid."""
        return self.dTsat_dp(p)

    def dT_dp_h(self, p: Any, h: Any) -> Any:
        """(dT/dp) at constant h [K/Pa]; inside the dome the slope of the saturation line.

        The default differentiates :meth:`T_ph` (central differences of 1e-6 relative);
        backends override it with exact derivatives.
        """
        dp = 1e-6 * float(p)
        return (self.T_ph(p + dp, h) - self.T_ph(p - dp, h)) / (2.0 * dp)

    @abstractmethod
    def drho_dp_h(self, p: Any, h: Any) -> Any:
        """(drho/dp) at constant h [kg/m3/Pa]."""

    @abstractmethod
    def drho_dh_p(self, p: Any, h: Any) -> Any:
        """(drho/dh) at constant p [kg2/m3/J]."""

    @abstractmethod
    def dhliq_dp(self, p: Any) -> Any:
        """d(h_liq)/dp along the saturation line [J/kg/Pa]."""

    @abstractmethod
    def dhvap_dp(self, p: Any) -> Any:
        """d(h_vap)/dp along the saturation line [J/kg/Pa]."""

    @abstractmethod
    def dTsat_dp(self, p: Any) -> Any:
        """d(T_sat)/dp along the saturation line [K/Pa]."""

    # -- convenience -----------------------------------------------------------------------------
    def T_bubble(self, p: Any) -> Any:
        """Bubble-point temperature [K]; equal to :meth:`T_sat` for a pure fluid."""
        return self.T_sat(p)

    def T_dew(self, p: Any) -> Any:
        """Dew-point temperature [K]; the same as :meth:`T_sat`."""
        return self.T_sat(p)

    def map(self, method: str, *args: Any) -> np.ndarray:
        """Evaluate a scalar method element-wise over broadcast arrays.

        Parameters
        ----------
        method : str
            Name of a method of this backend, e.g. ``"T_ph"``.
        *args : array_like
            Inputs, broadcast against each other.

        Returns
        -------
        numpy.ndarray
            Results with the broadcast shape (float).
        """
        fn = getattr(self, method)
        arrays = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in args))
        out = np.empty(arrays[0].shape)
        for index in np.ndindex(out.shape):
            value = fn(*(float(a[index]) for a in arrays))
            out[index] = np.nan if value is None else value
        return out
