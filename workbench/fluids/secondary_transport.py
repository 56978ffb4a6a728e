"""Density, viscosity and conductivity of the liquid secondary fluids (water, MEG, MPG brines).

Who reads it: the water or brine side of a brazed plate heat exchanger
(:mod:`workbench.components.exchangers.plate`), whose Martin or Muley-Manglik coefficient and
channel pressure drop need ``rho``, ``mu`` and ``k`` besides the ``cp`` that
:mod:`workbench.fluids.secondary` gives. Each property is a polynomial in
``theta = T - 273.15`` fitted once per process, on first request, to CoolProp between the
fluid's lower limit (the freezing point of a brine) and 373.15 K at 3 bar::

    rho(T)   = sum a_i theta^i          [kg/m^3]
    ln mu(T) = sum b_i theta^i          [ln(Pa s)]
    k(T)     = sum c_i theta^i          [W/(m K)]

Sources: water from CoolProp's IAPWS-95 (``Water``, HEOS), degree 5 (largest deviation over
0-100 °C: rho 1e-5, mu 5e-4, k 1e-4 of the value); glycols from CoolProp's incompressible
library (``INCOMP::MEG-30%``, ``INCOMP::MPG-30%``: Melinder's polynomials), degree 5 (their
own form, reproduced to 1e-12). ``cp`` stays with :class:`~workbench.fluids.SecondaryFluid`.
Air has no liquid transport here: a plate exchanger against air raises an error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from workbench.errors import FluidPropertyError
from workbench.fluids.secondary import get_secondary

__all__ = ["SecondaryTransport", "secondary_transport"]

_T0 = 273.15
_DEGREE = 5
_FIT_PRESSURE_PA = 3.0e5


def _poly(coeffs: tuple[float, ...], theta: float) -> float:
    out = 0.0
    for c in reversed(coeffs):
        out = out * theta + c
    return out


@dataclass(frozen=True)
class SecondaryTransport:
    """Transport properties of one liquid secondary fluid as polynomials in ``T - 273.15``.

    Parameters
    ----------
    name : str
        Canonical secondary name (``water``, ``MPG30``...).
    rho_coeffs, ln_mu_coeffs, k_coeffs : tuple of float
        Ascending polynomial coefficients of ``rho`` [kg/m^3], ``ln mu`` [ln(Pa s)] and
        ``k`` [W/(m K)] in ``theta = T - 273.15`` [°C].
    T_min, T_max : float
        Range of the fit [K].
    """

    name: str
    rho_coeffs: tuple[float, ...]
    ln_mu_coeffs: tuple[float, ...]
    k_coeffs: tuple[float, ...]
    T_min: float
    T_max: float

    def _theta(self, T: float, what: str) -> float:
        if not self.T_min - 1e-9 <= T <= self.T_max + 1e-9:
            raise FluidPropertyError(
                f"secondary fluid {self.name}: {what} failed for T={T!r} K: outside the valid "
                f"range {self.T_min:.2f}..{self.T_max:.2f} K"
            )
        return T - _T0

    def rho(self, T: float) -> float:
        """Density [kg/m^3] at ``T`` [K]."""
        return _poly(self.rho_coeffs, self._theta(T, "rho"))

    def mu(self, T: float) -> float:
        """Dynamic viscosity [Pa s] at ``T`` [K]."""
        return math.exp(_poly(self.ln_mu_coeffs, self._theta(T, "mu")))

    def k(self, T: float) -> float:
        """Thermal conductivity [W/(m K)] at ``T`` [K]."""
        return _poly(self.k_coeffs, self._theta(T, "k"))


@lru_cache(maxsize=32)
def _fit(name: str) -> SecondaryTransport:
    import CoolProp.CoolProp as CP

    fluid = get_secondary(name)
    if fluid.name == "air":
        raise FluidPropertyError(
            "secondary fluid air: no liquid transport properties (a plate exchanger needs "
            "water, MEG<n> or MPG<n>)"
        )
    if fluid.name == "water":
        source, t_min = "Water", _T0 + 0.01
    else:
        kind, percent = fluid.name[:3], fluid.name[3:]
        source, t_min = f"INCOMP::{kind}-{percent}%", fluid.T_min
    temps = np.linspace(t_min, fluid.T_max, 60)
    try:
        rho = [CP.PropsSI("D", "T", float(t), "P", _FIT_PRESSURE_PA, source) for t in temps]
        mu = [CP.PropsSI("V", "T", float(t), "P", _FIT_PRESSURE_PA, source) for t in temps]
        k = [CP.PropsSI("L", "T", float(t), "P", _FIT_PRESSURE_PA, source) for t in temps]
    except ValueError as exc:
        raise FluidPropertyError(f"secondary fluid {fluid.name}: CoolProp failed: {exc}") from None
    theta = temps - _T0

    def fit(values: list[float] | np.ndarray) -> tuple[float, ...]:
        return tuple(float(c) for c in np.polyfit(theta, values, _DEGREE)[::-1])

    return SecondaryTransport(
        fluid.name, fit(rho), fit(np.log(mu)), fit(k), fluid.T_min, fluid.T_max
    )


def secondary_transport(name: str) -> SecondaryTransport:
    """Transport properties of a liquid secondary fluid, fitted once per process.

    Parameters
    ----------
    name : str
        ``water``, ``glycol``, ``MEG<n>`` or ``MPG<n>`` (the names of
        :func:`~workbench.fluids.get_secondary`).

    Returns
    -------
    SecondaryTransport
        ``rho``, ``mu`` and ``k`` as functions of temperature [K].

    Raises
    ------
    FluidPropertyError
        For air (no liquid transport), or when CoolProp fails.
    UnknownFluidError
        For an unknown name (from :func:`~workbench.fluids.get_secondary`).
    """
    return _fit(get_secondary(name).name)
