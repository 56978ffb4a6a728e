"""Void-fraction models: the share of a two-phase tube's cross-section the vapour fills.

Who reads them: :mod:`workbench.components.inventory.density`, which integrates the two-phase density
``rho = alpha rho_g + (1 - alpha) rho_l`` over quality for a coil's two-phase zone and an edge
(line set) with two-phase flow. Each model is ``alpha(x, rho_l, rho_g)`` with the quality
``x`` [-] and the saturated liquid and vapour densities [kg/m3]; all but Premoli need only
densities, so they work with every fluid backend (Premoli is bound to a pressure first, for
the liquid viscosity and the surface tension: :meth:`Premoli.bind`).

Slip-ratio form (homogeneous, Zivi, Smith)::

    alpha = 1 / (1 + (1 - x) / x * S * rho_g / rho_l)

* ``homogeneous``: ``S = 1`` (both phases at one velocity; the least charge of all models).
* ``zivi``: ``S = (rho_l / rho_g)^(1/3)`` (minimum entropy production in annular flow;
  Zivi 1964). The default: a simple, widely used estimate (ACHP, Rice 1987's comparison)
  between the homogeneous model and the empirical ones.
* ``smith``: ``S = e + (1 - e) sqrt((rho_l / rho_g + e (1 - x) / x) / (1 + e (1 - x) / x))``
  with ``e = 0.4`` the entrained liquid fraction (Smith 1969).
* ``lockhart_martinelli`` (density-only form of the turbulent-turbulent parameter with the
  viscosity ratio left out; Rice 1987)::

      X = ((1 - x) / x)^0.9 (rho_g / rho_l)^0.5,   alpha = (1 + X^0.8)^(-0.378)

* ``premoli`` (CISE correlation; Premoli, Di Francesco, Prina 1970), which also needs the
  mass flux ``G`` [kg/(m2 s)], the tube's inner diameter ``D`` [m], the liquid viscosity
  ``mu_l`` [Pa s] and the surface tension ``sigma`` [N/m] (from CoolProp at the zone's
  pressure; ``G`` and ``D`` from the scenario's ``charge`` block)::

      beta = x rho_l / (x rho_l + (1 - x) rho_g),   y = beta / (1 - beta)
      Re = G D / mu_l,   We = G^2 D / (sigma rho_l)
      E1 = 1.578 Re^-0.19 (rho_l / rho_g)^0.22,   E2 = 0.0273 We Re^-0.51 (rho_l / rho_g)^-0.08
      S = 1 + E1 sqrt(max(y / (1 + y E2) - y E2, 0))

References
----------
Premoli, A., Di Francesco, D., Prina, A., "An empirical correlation for evaluating two-phase
mixture density under adiabatic conditions", European Two-Phase Flow Group Meeting, Milan, 1970
(as given by Rice 1987).
Zivi, S. M., "Estimation of steady-state steam void-fraction by means of the principle of
minimum entropy production", J. Heat Transfer 86 (1964) 247-252.
Smith, S. L., "Void fractions in two-phase flow: a correlation based upon an equal velocity
head model", Proc. Inst. Mech. Eng. 184 (1969) 647-664.
Lockhart, R. W., Martinelli, R. C., Chem. Eng. Prog. 45 (1949) 39-48.
Rice, C. K., "The effect of void fraction correlation and heat flux assumption on refrigerant
charge inventory predictions", ASHRAE Trans. 93(1) (1987) 341-367.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "DEFAULT_VOID_FRACTION",
    "STATE_MODELS",
    "VOID_FRACTION_MODELS",
    "Premoli",
    "VoidFraction",
    "homogeneous",
    "lockhart_martinelli",
    "premoli",
    "smith",
    "void_fraction",
    "zivi",
]

VoidFraction = Callable[[np.ndarray, float, float], np.ndarray]
"""``alpha(x, rho_l, rho_g)``: void fraction [-] at qualities ``x`` [-]."""

DEFAULT_VOID_FRACTION = "zivi"
"""The model used when a scenario's ``charge.void_fraction`` is absent."""

SMITH_ENTRAINMENT = 0.4
"""Smith's (1969) entrained liquid fraction ``e`` [-]."""


def _slip(x: np.ndarray, rho_l: float, rho_g: float, slip: np.ndarray | float) -> np.ndarray:
    x = np.clip(np.asarray(x, dtype=float), 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = 1.0 / (1.0 + (1.0 - x) / x * slip * rho_g / rho_l)
    out: np.ndarray = np.where(x <= 0.0, 0.0, np.where(x >= 1.0, 1.0, alpha))
    return out


def homogeneous(x: np.ndarray, rho_l: float, rho_g: float) -> np.ndarray:
    """Homogeneous void fraction (slip ratio 1) [-]."""
    return _slip(x, rho_l, rho_g, 1.0)


def zivi(x: np.ndarray, rho_l: float, rho_g: float) -> np.ndarray:
    """Zivi (1964) void fraction, slip ``(rho_l / rho_g)^(1/3)`` [-]."""
    return _slip(x, rho_l, rho_g, (rho_l / rho_g) ** (1.0 / 3.0))


def smith(x: np.ndarray, rho_l: float, rho_g: float) -> np.ndarray:
    """Smith (1969) void fraction with entrained liquid fraction 0.4 [-]."""
    e = SMITH_ENTRAINMENT
    xc = np.clip(np.asarray(x, dtype=float), 1e-12, 1.0)
    ratio = (1.0 - xc) / xc
    slip = e + (1.0 - e) * np.sqrt((rho_l / rho_g + e * ratio) / (1.0 + e * ratio))
    return _slip(x, rho_l, rho_g, slip)


def lockhart_martinelli(x: np.ndarray, rho_l: float, rho_g: float) -> np.ndarray:
    """Lockhart-Martinelli void fraction, density-only Martinelli parameter [-]."""
    x = np.clip(np.asarray(x, dtype=float), 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        big_x = ((1.0 - x) / x) ** 0.9 * (rho_g / rho_l) ** 0.5
        alpha = (1.0 + big_x**0.8) ** -0.378
    out: np.ndarray = np.where(x <= 0.0, 0.0, np.where(x >= 1.0, 1.0, alpha))
    return out


@dataclass(frozen=True)
class Premoli:
    """The Premoli (CISE) void fraction for a mass flux and a tube diameter.

    Parameters
    ----------
    mass_flux_kg_m2s : float
        Refrigerant mass flux ``G`` [kg/(m2 s)].
    tube_diameter_m : float
        Inner tube diameter ``D`` [m].
    """

    mass_flux_kg_m2s: float = 200.0
    tube_diameter_m: float = 0.007

    def bind(self, fluid: Any, p: float) -> VoidFraction:
        """The model at pressure ``p`` [Pa]: liquid viscosity and surface tension from CoolProp.

        Raises
        ------
        FluidPropertyError
            The fluid has no CoolProp viscosity or surface tension (the Test backend).
        """
        from CoolProp.CoolProp import PropsSI

        from workbench.errors import FluidPropertyError

        try:
            mu_l = float(PropsSI("V", "P", p, "Q", 0, fluid.name))
            sigma = float(PropsSI("I", "P", p, "Q", 0, fluid.name))
        except ValueError as exc:
            raise FluidPropertyError(
                f"the premoli void fraction needs CoolProp's viscosity and surface tension of "
                f"{fluid.name}: {exc}"
            ) from None
        g, d = self.mass_flux_kg_m2s, self.tube_diameter_m

        def alpha(x: np.ndarray, rho_l: float, rho_g: float) -> np.ndarray:
            return premoli(x, rho_l, rho_g, mu_l=mu_l, sigma=sigma, mass_flux=g, diameter=d)

        return alpha


def premoli(
    x: np.ndarray,
    rho_l: float,
    rho_g: float,
    *,
    mu_l: float,
    sigma: float,
    mass_flux: float,
    diameter: float,
) -> np.ndarray:
    """Premoli (CISE) void fraction [-] (module docstring).

    Parameters
    ----------
    x : ndarray
        Quality [-].
    rho_l, rho_g : float
        Saturated liquid and vapour density [kg/m3].
    mu_l : float
        Liquid viscosity [Pa s].
    sigma : float
        Surface tension [N/m].
    mass_flux : float
        Mass flux [kg/(m2 s)].
    diameter : float
        Inner tube diameter [m].
    """
    xc = np.clip(np.asarray(x, dtype=float), 1e-12, 1.0 - 1e-12)
    re = mass_flux * diameter / mu_l
    we = mass_flux**2 * diameter / (sigma * rho_l)
    e1 = 1.578 * re**-0.19 * (rho_l / rho_g) ** 0.22
    e2 = 0.0273 * we * re**-0.51 * (rho_l / rho_g) ** -0.08
    beta = xc * rho_l / (xc * rho_l + (1.0 - xc) * rho_g)
    y = beta / (1.0 - beta)
    slip = 1.0 + e1 * np.sqrt(np.maximum(y / (1.0 + y * e2) - y * e2, 0.0))
    return _slip(x, rho_l, rho_g, slip)


VOID_FRACTION_MODELS: dict[str, VoidFraction] = {
    "homogeneous": homogeneous,
    "zivi": zivi,
    "smith": smith,
    "lockhart_martinelli": lockhart_martinelli,
}
"""The models a scenario's ``charge.void_fraction`` may name, besides ``premoli``
(:class:`Premoli`, which needs the mass flux and tube diameter of the ``charge`` block)."""

STATE_MODELS = ("premoli",)
"""Models that need the state and the tube (bound per pressure with ``bind(fluid, p)``)."""


def void_fraction(name: str) -> VoidFraction:
    """The model called ``name``.

    Raises
    ------
    KeyError
        An unknown name; the message lists the models.
    """
    try:
        return VOID_FRACTION_MODELS[name]
    except KeyError:
        raise KeyError(
            f"unknown void fraction model {name!r}; models: {', '.join(VOID_FRACTION_MODELS)}"
        ) from None
