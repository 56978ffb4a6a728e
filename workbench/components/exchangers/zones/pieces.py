"""How many straight pieces a curved temperature profile is cut into, decided once per fluid.

A zone model takes each piece between two cuts as a counterflow zone with constant capacity
rates: straight temperatures in enthalpy. Where a temperature is curved in enthalpy (a
zeotrope's glide; a single-phase stretch, most of all CO2 desuperheating near its critical
point) the straight pieces' error falls as ``bow / n^2`` with ``n`` pieces, ``bow`` the curve's
largest distance from its chord. So each fluid gets the pieces its own bend needs, measured once
on reference isobars and never per state: the heat flow stays a continuous function of the
exchanger's inputs.

* :func:`glide_pieces`: a blend's two-phase zone (UA coils, cascade exchangers).
* :func:`single_phase_pieces`: a single-phase segment of a cascade exchanger
  (:mod:`workbench.components.exchangers.zones.coupled_profile`).
"""

from __future__ import annotations

import math
import weakref

from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend

__all__ = [
    "GLIDE_BOW_FULL_K",
    "GLIDE_CUTS",
    "GLIDE_MIN_K",
    "GLIDE_REFERENCE_DEW_K",
    "SINGLE_PHASE_BOW_FULL_K",
    "glide_bow",
    "glide_pieces",
    "single_phase_bow",
    "single_phase_pieces",
]

GLIDE_CUTS = 8
"""Most pieces a zeotrope's two-phase zone is cut into (equal enthalpy steps) [-]: its
temperature glide is curved in enthalpy, a straight line across the whole glide (one zone)
needs up to 1.9 % too little conductance (R449A condenser, 1 K approach); eight straight pieces
follow R455A's curve, the most bent of the common blends, to about 0.03 %. The error falls as
the square of the step, so a blend whose curve bends less needs fewer pieces
(:func:`glide_pieces`)."""

GLIDE_MIN_K = 0.05
"""A glide below this [K] (R410A's pseudo-pure 0.1 K is above it) is one straight zone."""

GLIDE_BOW_FULL_K = 1.5
"""The bow [K] that takes all :data:`GLIDE_CUTS` pieces: R455A's (1.52 K at -20 degC dew)."""

GLIDE_REFERENCE_DEW_K = (253.15, 273.15, 313.15)
"""Dew temperatures [K] where a blend's bow is measured (the largest is kept)."""

_PIECES: weakref.WeakKeyDictionary[FluidBackend, int] = weakref.WeakKeyDictionary()


def _bow_of(fluid: FluidBackend, p: float, h_a: float, h_b: float, points: int = 17) -> float:
    """Largest distance [K] of ``T(p, h)`` from its chord between ``h_a`` and ``h_b``."""
    t_a, t_b = float(fluid.T_ph(p, h_a)), float(fluid.T_ph(p, h_b))
    bow = 0.0
    for k in range(1, points - 1):
        f = k / (points - 1)
        t = float(fluid.T_ph(p, h_a + f * (h_b - h_a)))
        bow = max(bow, abs(t - (t_a + f * (t_b - t_a))))
    return bow


def _pieces_for(bow: float, full_bow: float, most: int) -> int:
    """``ceil(most sqrt(bow / full_bow))`` between 2 and ``most``; ``most`` for an unknown bow."""
    if not math.isfinite(bow):
        return most
    return min(most, max(2, math.ceil(most * math.sqrt(bow / full_bow) - 1e-9)))


def glide_bow(fluid: FluidBackend, p: float, points: int = 17) -> float:
    """Largest distance [K] of the two-phase ``T(h)`` from its chord at pressure ``p`` [Pa]."""
    return _bow_of(fluid, p, float(fluid.h_liq(p)), float(fluid.h_vap(p)), points)


def glide_pieces(fluid: FluidBackend) -> int:
    """Straight pieces of a blend's two-phase zone [-], one number per fluid.

    ``ceil(GLIDE_CUTS * sqrt(bow / GLIDE_BOW_FULL_K))`` between 2 and :data:`GLIDE_CUTS`, with
    ``bow`` the largest :func:`glide_bow` at :data:`GLIDE_REFERENCE_DEW_K` (those in the fluid's
    range): the straight pieces' error scales as ``bow / n^2``, so every blend gets R455A's
    accuracy at eight pieces (R407C 3 pieces, R449A and R454B 4). Fixed per fluid, never per
    state, so the heat flow stays a continuous function of the coil's inputs. A fluid whose bow
    cannot be measured gets :data:`GLIDE_CUTS`.
    """
    found = _PIECES.get(fluid)
    if found is not None:
        return found
    bows = []
    for t_dew in GLIDE_REFERENCE_DEW_K:
        try:
            bows.append(glide_bow(fluid, float(fluid.p_sat(t_dew))))
        except (FluidPropertyError, ValueError):
            continue
    pieces = _pieces_for(max(bows) if bows else math.inf, GLIDE_BOW_FULL_K, GLIDE_CUTS)
    _PIECES[fluid] = pieces
    return pieces


SINGLE_PHASE_BOW_FULL_K = 3.2
"""The single-phase bow [K] that takes all the pieces: CO2's (vapour from its dew point to 40 K
of superheat at a 10 degC dew point, 3.19 K)."""

SINGLE_PHASE_REFERENCE_DEW_K = (233.15, 253.15, 273.15, 283.15, 313.15)
"""Dew temperatures [K] of the reference isobars (those below the critical point and in the
fluid's range)."""

SUPERHEAT_SPAN_K = 40.0
"""Superheat [K] over which a vapour's bow is measured (a cascade's desuperheating zone)."""

SUBCOOLING_SPAN_K = 15.0
"""Subcooling [K] over which a liquid's bow is measured."""

_SINGLE: weakref.WeakKeyDictionary[FluidBackend, float] = weakref.WeakKeyDictionary()


def single_phase_bow(fluid: FluidBackend) -> float:
    """Largest single-phase bow [K] of a fluid on its reference isobars (kept per fluid).

    The vapour from its dew point to :data:`SUPERHEAT_SPAN_K` above it and the liquid from
    :data:`SUBCOOLING_SPAN_K` below its bubble point to it, at each of
    :data:`SINGLE_PHASE_REFERENCE_DEW_K` the fluid reaches. ``inf`` when none can be measured.
    """
    found = _SINGLE.get(fluid)
    if found is not None:
        return found
    bows = []
    for t_dew in SINGLE_PHASE_REFERENCE_DEW_K:
        try:
            p = float(fluid.p_sat(t_dew))
            h_vap, h_liq = float(fluid.h_vap(p)), float(fluid.h_liq(p))
            t_bubble = float(fluid.T_ph(p, h_liq))
            bows.append(_bow_of(fluid, p, h_vap, float(fluid.h_pT(p, t_dew + SUPERHEAT_SPAN_K))))
            h_sub = float(fluid.h_pT(p, t_bubble - SUBCOOLING_SPAN_K))
            bows.append(_bow_of(fluid, p, h_sub, h_liq))
        except (FluidPropertyError, ValueError):
            continue
    bow = max(bows) if bows else math.inf
    _SINGLE[fluid] = bow
    return bow


def single_phase_pieces(fluid: FluidBackend, most: int) -> int:
    """Straight pieces of a fluid's single-phase segment [-], at most ``most``.

    ``ceil(most * sqrt(bow / SINGLE_PHASE_BOW_FULL_K))`` between 2 and ``most``: CO2 keeps all,
    R134a and R290 take 3 of 8, R717 5 (:func:`single_phase_bow`).
    """
    if most <= 2:
        return most
    return _pieces_for(single_phase_bow(fluid), SINGLE_PHASE_BOW_FULL_K, most)
