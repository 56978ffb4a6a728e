"""Secondary fluids of the heat exchangers: air, liquid water and water-glycol mixtures.

Each one is an incompressible-style fluid with a polynomial heat capacity in ``theta = T - 273.15``::

    cp(T) = c0 + c1 theta + c2 theta^2 + c3 theta^3 (+ c4 theta^4)      [J/kg/K]
    h(T)  = integral of cp from 273.15 K, so h(273.15 K) = 0 and dh/dT = cp exactly

Air (dry, 1 atm, 223-423 K) and water (liquid, 273.15-373 K) coefficients were fitted once to
CoolProp 8 (max deviation 0.001 % and 0.04 %). Glycol mixtures are fitted when first requested
to CoolProp's incompressible library (``INCOMP::MEG-30%``) between the freezing point and 373 K.

Names: ``air``, ``water``, ``glycol`` (= ``MEG30``), ``MEG<n>`` (ethylene glycol, ``n`` mass
percent 10-60) and ``MPG<n>`` (propylene glycol, 10-60); ``MEG-30``, ``MEG-30%`` and
``INCOMP::MEG-30%`` are accepted too. Case-insensitive.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from workbench.errors import FluidPropertyError, UnknownFluidError
from workbench.fluids.base import fmt_inputs

__all__ = ["SECONDARY_NAMES", "SecondaryFluid", "get_secondary"]

_T0 = 273.15
SECONDARY_NAMES = ("air", "water", "glycol", "MEG<n>", "MPG<n>")
"""Accepted secondary-fluid names (``n``: glycol mass percent, 10 to 60)."""


@dataclass(frozen=True)
class SecondaryFluid:
    """A secondary fluid with polynomial ``cp(T)``.

    Parameters
    ----------
    name : str
        Canonical name (``air``, ``water``, ``MEG30``...).
    coeffs : tuple of float
        ``cp = sum(c_i * (T - 273.15)**i)`` [J/kg/K].
    T_min, T_max : float
        Valid temperature range [K] (for glycols ``T_min`` is the freezing point).
    rho : float
        Density at 20 degC [kg/m3] (for volume flows).
    """

    name: str
    coeffs: tuple[float, ...]
    T_min: float
    T_max: float
    rho: float

    def _theta(self, T: Any, what: str) -> Any:
        arr = np.asarray(T, dtype=float)
        if not np.all((arr >= self.T_min) & (arr <= self.T_max)):
            bad = arr[~((arr >= self.T_min) & (arr <= self.T_max))].ravel()[0]
            raise FluidPropertyError(
                f"secondary fluid {self.name}: {what} failed for {fmt_inputs(T=float(bad))}: "
                f"outside the valid range {self.T_min:.2f}..{self.T_max:.2f} K"
            )
        return (float(T) if arr.ndim == 0 else arr) - _T0

    def cp(self, T: Any) -> Any:
        """Isobaric heat capacity [J/kg/K] at temperature ``T`` [K] (float or array)."""
        theta = self._theta(T, "cp")
        out = 0.0
        for c in reversed(self.coeffs):
            out = out * theta + c
        return out

    def h(self, T: Any) -> Any:
        """Specific enthalpy [J/kg] relative to 273.15 K, at temperature ``T`` [K]."""
        theta = self._theta(T, "h")
        out = 0.0
        for i in range(len(self.coeffs) - 1, -1, -1):
            out = out * theta + self.coeffs[i] / (i + 1)
        return out * theta

    def T_h(self, h: float) -> float:
        """Temperature [K] from enthalpy [J/kg] (Newton on the monotone polynomial)."""
        T = _T0 + h / self.cp(min(max(_T0, self.T_min), self.T_max))
        for _ in range(50):
            T_c = min(max(T, self.T_min), self.T_max)
            step = (self.h(T_c) - h) / self.cp(T_c)
            T = T_c - step
            if abs(step) < 1e-10:
                break
        self._theta(T, "T from h")
        return float(T)


_AIR = SecondaryFluid(
    "air", (1005.68076, 1.49962742e-02, 3.96922093e-04, 8.26218165e-08), 223.15, 423.15, 1.204
)
_WATER = SecondaryFluid(
    "water",
    (4216.9529, -2.80812297, 6.94987854e-02, -6.93634661e-04, 2.78631929e-06),
    273.15,
    373.15,
    998.2,
)


@lru_cache(maxsize=32)
def _glycol(kind: str, percent: int) -> SecondaryFluid:
    """Fit ``cp(T)`` of ``INCOMP::<kind>-<percent>%`` (CoolProp) between freezing and 373 K."""
    import CoolProp.CoolProp as CP

    name = f"INCOMP::{kind}-{percent}%"
    try:
        t_freeze = CP.PropsSI("T_freeze", "T", 293.15, "P", 3e5, name)
        t_min = max(t_freeze, CP.PropsSI("Tmin", "T", 293.15, "P", 3e5, name))
        t_max = min(373.15, CP.PropsSI("Tmax", "T", 293.15, "P", 3e5, name))
        temps = np.linspace(t_min, t_max, 40)
        cps = np.array([CP.PropsSI("C", "T", float(t), "P", 3e5, name) for t in temps])
        rho = CP.PropsSI("D", "T", 293.15, "P", 3e5, name)
    except ValueError as exc:
        raise FluidPropertyError(
            f"secondary fluid {kind}{percent}: CoolProp failed: {exc}"
        ) from None
    coeffs = np.polyfit(temps - _T0, cps, 3)[::-1]
    return SecondaryFluid(f"{kind}{percent}", tuple(float(c) for c in coeffs), t_min, t_max, rho)


_GLYCOL = re.compile(r"^(?:INCOMP::)?(MEG|MPG)[-_ ]?(\d+(?:\.\d+)?)\s*%?$", re.IGNORECASE)


def get_secondary(name: str) -> SecondaryFluid:
    """Secondary fluid by name.

    Parameters
    ----------
    name : str
        ``air``, ``water``, ``glycol`` (= ``MEG30``), ``MEG<n>`` or ``MPG<n>`` with ``n`` the
        glycol mass percent (10 to 60); case-insensitive.

    Raises
    ------
    UnknownFluidError
        For an unknown name or a concentration outside 10..60 %.
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    if key == "air":
        return _AIR
    if key == "water":
        return _WATER
    if key in ("glycol", "meg", "ethylene glycol"):
        return _glycol("MEG", 30)
    match = _GLYCOL.match(name.strip()) if key else None
    if match:
        percent = float(match.group(2))
        if percent == int(percent) and 10 <= percent <= 60:
            return _glycol(match.group(1).upper(), int(percent))
        raise UnknownFluidError(
            f"secondary fluid {name!r}: glycol mass percent must be a whole number 10..60, got {match.group(2)}"
        )
    close = difflib.get_close_matches(key, _SPELLINGS, n=2, cutoff=0.6)
    hint = f"did you mean {' or '.join(_SPELLINGS[c] for c in close)}? " if close else ""
    raise UnknownFluidError(
        f"unknown secondary fluid {name!r}; {hint}valid names: air, water, glycol (= MEG30), "
        "MEG<n> (ethylene glycol), MPG<n> (propylene glycol), n = mass percent 10..60"
    )


_SPELLINGS = {
    "air": "air",
    "water": "water",
    "glycol": "glycol",
    "meg": "MEG30",
    "mpg": "MPG30",
    "ethylene glycol": "MEG30",
    "propylene glycol": "MPG30",
}
"""Lower-case spellings compared with an unknown name -> the name suggested."""
