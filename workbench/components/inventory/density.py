"""Mean refrigerant density of a stretch of tube: single-phase, two-phase, and a whole path.

Who reads it: :mod:`workbench.components.inventory.items`, which multiplies each zone's volume by its
mean density.

Equations (``p`` the pressure of the stretch [Pa], enthalpy from ``h_a`` to ``h_b`` [J/kg])::

    single phase:  rho_mean = 1/(h_b - h_a) * integral rho(p, h) dh        (Gauss-Legendre)
    two-phase:     rho_mean = 1/(x_b - x_a) * integral rho_tp(x) dx
                   rho_tp(x) = alpha(x) rho_g + (1 - alpha(x)) rho_l

that is, the zone's length is taken as linear in enthalpy (in quality inside the dome): a
uniform heat flux along the zone, the usual assumption of moving-boundary charge models
(Rice 1987). For the homogeneous model the two-phase integral is closed-form::

    rho_mean = ln(v_b / v_a) / ((x_b - x_a) (v_g - v_l)),   v(x) = v_l + x (v_g - v_l)

with ``v = 1/rho``; the other void-fraction models use :data:`GAUSS_NODES`-point
Gauss-Legendre quadrature (fixed nodes, so the result is a smooth function of the state, which
the charge residual's finite-difference Jacobian needs). Above the critical pressure there is no
dome: the path is one single-phase stretch.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from workbench.components.inventory.void_fraction import Premoli, VoidFraction, homogeneous
from workbench.fluids import FluidBackend

__all__ = [
    "GAUSS_NODES",
    "ZoneDensity",
    "glide_density",
    "moved_zones",
    "path_zones",
    "point_density",
    "single_phase_density",
    "two_phase_density",
]

GAUSS_NODES = 16
"""Gauss-Legendre nodes of the two-phase quality integral."""

SINGLE_PHASE_NODES = 4
"""Gauss-Legendre nodes of the single-phase enthalpy integral."""

_GL2 = np.polynomial.legendre.leggauss(GAUSS_NODES)
_GL1 = np.polynomial.legendre.leggauss(SINGLE_PHASE_NODES)


@dataclass(frozen=True)
class ZoneDensity:
    """One zone of a refrigerant path.

    Attributes
    ----------
    name : str
        ``superheated``, ``two-phase``, ``subcooled`` or ``supercritical``.
    h_a, h_b : float
        Enthalpy at the zone's ends, in flow order [J/kg].
    density : float
        Mean density [kg/m3].
    """

    name: str
    h_a: float
    h_b: float
    density: float


def two_phase_density(
    model: VoidFraction, rho_l: float, rho_g: float, x_a: float, x_b: float
) -> float:
    """Mean two-phase density between qualities ``x_a`` and ``x_b`` [kg/m3].

    Parameters
    ----------
    model : callable
        Void fraction ``alpha(x, rho_l, rho_g)``.
    rho_l, rho_g : float
        Saturated liquid and vapour densities [kg/m3].
    x_a, x_b : float
        Qualities at the ends [-] (either order).
    """
    lo, hi = min(x_a, x_b), max(x_a, x_b)
    if hi - lo < 1e-12:
        mid = np.array([0.5 * (lo + hi)])
        alpha_mid = float(model(mid, rho_l, rho_g)[0])
        return alpha_mid * rho_g + (1.0 - alpha_mid) * rho_l
    if model is homogeneous:
        v_l, v_g = 1.0 / rho_l, 1.0 / rho_g
        v_a, v_b = v_l + lo * (v_g - v_l), v_l + hi * (v_g - v_l)
        return math.log(v_b / v_a) / ((hi - lo) * (v_g - v_l))
    nodes, weights = _GL2
    qualities = lo + 0.5 * (hi - lo) * (nodes + 1.0)
    alpha = model(qualities, rho_l, rho_g)
    rho = alpha * rho_g + (1.0 - alpha) * rho_l
    return float(0.5 * np.dot(weights, rho))


def _along_glide(fluid: FluidBackend, model: VoidFraction | Premoli) -> bool:
    """Whether the two-phase zone follows the glide: the homogeneous model of a zeotrope.

    Its density is the mixture's own at each enthalpy (local equilibrium, the blend tables'
    specific volume), not the bubble and dew points' densities combined linearly in the
    enthalpy share: for R455A that linear form is 2.9 % light over its glide (docs/charge.md).
    """
    return model is homogeneous and bool(getattr(fluid, "zeotropic", False))


def glide_density(fluid: FluidBackend, p: float, h_a: float, h_b: float) -> float:
    """Mean homogeneous density [kg/m3] of a zeotrope between ``h_a`` and ``h_b`` [J/kg].

    Inside the dome at ``p`` [Pa]: :data:`GAUSS_NODES`-point Gauss-Legendre quadrature of the
    mixture's density ``rho(p, h)``.
    """
    nodes, weights = _GL2
    mid, half = 0.5 * (h_a + h_b), 0.5 * (h_b - h_a)
    rho = [float(fluid.rho_ph(p, mid + half * t)) for t in nodes]
    return float(0.5 * np.dot(weights, rho))


def single_phase_density(fluid: FluidBackend, p: float, h_a: float, h_b: float) -> float:
    """Mean density over enthalpy from ``h_a`` to ``h_b`` at pressure ``p`` [kg/m3].

    Parameters
    ----------
    fluid : FluidBackend
        Refrigerant properties.
    p : float
        Pressure [Pa].
    h_a, h_b : float
        Enthalpies at the ends [J/kg].
    """
    if abs(h_b - h_a) < 1e-9:
        return float(fluid.rho_ph(p, h_a))
    nodes, weights = _GL1
    total = 0.0
    for t, w in zip(nodes, weights, strict=True):
        total += w * float(fluid.rho_ph(p, h_a + 0.5 * (h_b - h_a) * (t + 1.0)))
    return 0.5 * total


def path_zones(
    fluid: FluidBackend, p: float, h_in: float, h_out: float, model: VoidFraction | Premoli
) -> list[ZoneDensity]:
    """The zones of the path ``h_in -> h_out`` at pressure ``p`` and their mean densities.

    The path is cut at the saturated liquid and vapour enthalpies; a zone narrower than
    1e-6 J/kg is left out (a path that starts or ends on a saturation line).

    Parameters
    ----------
    fluid : FluidBackend
        Refrigerant properties.
    p : float
        Pressure [Pa].
    h_in, h_out : float
        Inlet and outlet enthalpy [J/kg].
    model : callable or Premoli
        Void fraction model of the two-phase zone (a :class:`Premoli` is bound to ``p``).
    """
    if p >= fluid.p_crit:
        return [
            ZoneDensity("supercritical", h_in, h_out, single_phase_density(fluid, p, h_in, h_out))
        ]
    h_liq, h_vap = float(fluid.h_liq(p)), float(fluid.h_vap(p))
    cuts = sorted(
        {h_in, h_out, *(h for h in (h_liq, h_vap) if min(h_in, h_out) < h < max(h_in, h_out))}
    )
    if h_out < h_in:
        cuts.reverse()
    zones = []
    rho_l = rho_g = 0.0
    for a, b in itertools.pairwise(cuts):
        if abs(b - a) < 1e-6:
            continue
        mid = 0.5 * (a + b)
        if mid >= h_vap:
            zones.append(ZoneDensity("superheated", a, b, single_phase_density(fluid, p, a, b)))
        elif mid <= h_liq:
            zones.append(ZoneDensity("subcooled", a, b, single_phase_density(fluid, p, a, b)))
        else:
            if isinstance(model, Premoli):
                model = model.bind(fluid, p)
            if _along_glide(fluid, model):
                zones.append(ZoneDensity("two-phase", a, b, glide_density(fluid, p, a, b)))
                continue
            if rho_l == 0.0:
                rho_l = float(fluid.rho_ph(p, h_liq))
                rho_g = float(fluid.rho_ph(p, h_vap))
            dh = h_vap - h_liq
            rho = two_phase_density(model, rho_l, rho_g, (a - h_liq) / dh, (b - h_liq) / dh)
            zones.append(ZoneDensity("two-phase", a, b, rho))
    if not zones:
        zones.append(
            ZoneDensity(
                _point_zone(h_in, h_liq, h_vap), h_in, h_out, point_density(fluid, p, h_in, model)
            )
        )
    return zones


def moved_zones(
    fluid: FluidBackend,
    p: float,
    zones: list[ZoneDensity],
    h_in: float,
    h_out: float,
    model: VoidFraction | Premoli,
) -> list[ZoneDensity] | None:
    """The zones of the path ``h_in -> h_out`` from those of a nearby path at the same ``p``.

    What :func:`path_zones` gives, with the path's ends moved and each zone's mean density
    moved to first order: the derivative of a mean over a stretch with respect to one end is
    exact (the fundamental theorem of calculus)::

        d rho_mean / d h_b = (rho(h_b) - rho_mean) / (h_b - h_a)
        d rho_mean / d h_a = (rho_mean - rho(h_a)) / (h_b - h_a)

    (in quality inside the dome, ``rho_tp(x)`` at the end). One property call per moved end
    (usually remembered by the backend) instead of the quadrature's nodes: what the charge
    Jacobian needs for a column that moves a coil's inlet or outlet enthalpy.

    Parameters
    ----------
    fluid : FluidBackend
        Refrigerant properties.
    p : float
        Pressure [Pa] of both paths.
    zones : list of ZoneDensity
        :func:`path_zones` of the nearby path at ``p``.
    h_in, h_out : float
        The new inlet and outlet enthalpy [J/kg].
    model : callable or Premoli
        Void fraction model of the two-phase zone.

    Returns
    -------
    list of ZoneDensity or None
        None when an end crosses a saturation enthalpy or a zone would vanish (then
        :func:`path_zones` must cut the path anew).
    """
    if not zones:
        return None
    out = list(zones)
    for k in {0, len(zones) - 1}:
        z = out[k]
        a = h_in if k == 0 else z.h_a
        b = h_out if k == len(zones) - 1 else z.h_b
        moved = _moved_zone(fluid, p, z, a, b, model)
        if moved is None:
            return None
        out[k] = moved
    return out


def _moved_zone(
    fluid: FluidBackend,
    p: float,
    zone: ZoneDensity,
    a: float,
    b: float,
    model: VoidFraction | Premoli,
) -> ZoneDensity | None:
    """``zone`` with its ends at ``a``, ``b`` [J/kg], its mean density to first order."""
    span = zone.h_b - zone.h_a
    if abs(span) < 1e-6 or abs(b - a) < 1e-6 or (b - a) * span <= 0.0:
        return None
    rho_of: Callable[[float], float] | None = None  # inside the dome: rho_tp(h)
    if zone.name == "supercritical":
        if p < fluid.p_crit:
            return None
    else:
        h_liq, h_vap = float(fluid.h_liq(p)), float(fluid.h_vap(p))
        lo, hi = min(a, b), max(a, b)
        if zone.name == "superheated" and lo < h_vap - 1e-6:
            return None
        if zone.name == "subcooled" and hi > h_liq + 1e-6:
            return None
        if zone.name == "two-phase":
            if lo < h_liq - 1e-6 or hi > h_vap + 1e-6:
                return None
            if _along_glide(fluid, model):  # the mixture's own density at each enthalpy
                rho = zone.density
                if b != zone.h_b:
                    rho += (float(fluid.rho_ph(p, zone.h_b)) - rho) / span * (b - zone.h_b)
                if a != zone.h_a:
                    rho += (zone.density - float(fluid.rho_ph(p, zone.h_a))) / span * (a - zone.h_a)
                return ZoneDensity(zone.name, a, b, rho)
            alpha_of = model.bind(fluid, p) if isinstance(model, Premoli) else model
            rho_l, rho_g = float(fluid.rho_ph(p, h_liq)), float(fluid.rho_ph(p, h_vap))
            dh = h_vap - h_liq

            def rho_tp(h: float) -> float:
                x = np.array([(h - h_liq) / dh])
                alpha = float(alpha_of(x, rho_l, rho_g)[0])
                return alpha * rho_g + (1.0 - alpha) * rho_l

            rho_of = rho_tp

    def rho_end(h: float) -> float:
        return float(fluid.rho_ph(p, h)) if rho_of is None else rho_of(h)

    rho = zone.density
    if b != zone.h_b:
        rho += (rho_end(zone.h_b) - zone.density) / span * (b - zone.h_b)
    if a != zone.h_a:
        rho += (zone.density - rho_end(zone.h_a)) / span * (a - zone.h_a)
    return ZoneDensity(zone.name, a, b, rho)


def _point_zone(h: float, h_liq: float, h_vap: float) -> str:
    if h >= h_vap:
        return "superheated"
    if h <= h_liq:
        return "subcooled"
    return "two-phase"


def point_density(fluid: FluidBackend, p: float, h: float, model: VoidFraction | Premoli) -> float:
    """Density of the refrigerant at one state [kg/m3]; inside the dome ``alpha rho_g + ...``.

    Parameters
    ----------
    fluid : FluidBackend
        Refrigerant properties.
    p : float
        Pressure [Pa].
    h : float
        Enthalpy [J/kg].
    model : callable
        Void fraction model.
    """
    if p < fluid.p_crit:
        h_liq, h_vap = float(fluid.h_liq(p)), float(fluid.h_vap(p))
        if h_liq < h < h_vap and not _along_glide(fluid, model):
            rho_l, rho_g = float(fluid.rho_ph(p, h_liq)), float(fluid.rho_ph(p, h_vap))
            x = np.array([(h - h_liq) / (h_vap - h_liq)])
            alpha_of = model.bind(fluid, p) if isinstance(model, Premoli) else model
            alpha = float(alpha_of(x, rho_l, rho_g)[0])
            return alpha * rho_g + (1.0 - alpha) * rho_l
    return float(fluid.rho_ph(p, h))
