"""Saturation dome, isotherms and isobars computed from a fluid backend (SI in, SI out)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend

__all__ = [
    "CriticalPoint",
    "Dome",
    "critical_point",
    "isobar_ts",
    "isotherm_ph",
    "nice_levels",
    "pressure_range",
    "saturation_dome",
]


@dataclass(frozen=True)
class CriticalPoint:
    """The critical point of a fluid [Pa, J/kg, K, J/kg/K]."""

    p_pa: float
    h_j_kg: float
    t_k: float
    s_j_kgk: float


@dataclass
class Dome:
    """Saturated liquid and vapour lines from ``p_low`` up to just below the critical point.

    Attributes
    ----------
    p_pa : ndarray
        Pressures [Pa] (ascending).
    h_liq, h_vap : ndarray
        Saturated liquid and vapour enthalpy [J/kg].
    s_liq, s_vap : ndarray
        Saturated liquid and vapour entropy [J/kg/K].
    t_k : ndarray
        Saturation (dew) temperature [K].
    critical : CriticalPoint or None
        Where the two lines meet; None when the backend's range ends below it (the ``Test``
        backend is subcritical only).
    t_bubble_k : ndarray or None
        Bubble temperature [K] of a zeotropic blend (below ``t_k`` by the glide); None for a
        pure fluid.
    p_crit_pa : float or None
        The fluid's critical pressure [Pa] when the dome ends below it (``critical`` None).
    end_reason : str
        Why the dome ends below the critical point (``"blend tables end"``);
        empty when it closes there.
    """

    p_pa: np.ndarray
    h_liq: np.ndarray
    h_vap: np.ndarray
    s_liq: np.ndarray
    s_vap: np.ndarray
    t_k: np.ndarray
    critical: CriticalPoint | None = None
    t_bubble_k: np.ndarray | None = None
    p_crit_pa: float | None = None
    end_reason: str = ""


def _safe(fn: Callable[..., float], *args: float) -> float:
    try:
        value = fn(*args)
    except (FluidPropertyError, ValueError, ZeroDivisionError):
        return float("nan")
    return float("nan") if value is None else float(value)


def _p_top(fluid: FluidBackend) -> float:
    """Highest pressure with a two-phase region [Pa]."""
    return min(float(fluid.p_crit), float(fluid.p_max)) * 0.998


def pressure_range(fluid: FluidBackend, p_cycle: Sequence[float] = ()) -> tuple[float, float]:
    """Pressure span [Pa] of a diagram: around the cycle, inside the backend's range."""
    p_lo_valid = float(fluid.p_min) * 1.02
    if len(p_cycle):
        lo = max(min(p_cycle) / 3.0, p_lo_valid)
        hi = min(max(max(p_cycle) * 2.0, _p_top(fluid)), float(fluid.p_max))
    else:
        lo = max(_p_top(fluid) / 100.0, p_lo_valid)
        hi = _p_top(fluid)
    return lo, hi


def critical_point(fluid: FluidBackend) -> CriticalPoint | None:
    """The fluid's critical state, or None when the backend cannot evaluate it."""
    p_c, t_c = float(fluid.p_crit), float(fluid.T_crit)
    if p_c > float(fluid.p_max):
        return None
    h_c = _safe(fluid.h_pT, p_c, t_c)
    s_c = _safe(fluid.s_ph, p_c, h_c) if np.isfinite(h_c) else float("nan")
    if not (np.isfinite(h_c) and np.isfinite(s_c)):
        return None
    return CriticalPoint(p_c, h_c, t_c, s_c)


def saturation_dome(fluid: FluidBackend, p_low: float, n: int = 80) -> Dome:
    """Saturation lines from ``p_low`` [Pa] to just below the critical pressure.

    Points are spaced geometrically in pressure, with extra points near the critical point
    where the two lines turn towards each other.
    """
    top = _p_top(fluid)
    p_low = min(p_low, top / 2.0)
    u = np.linspace(0.0, 1.0, n)
    # dense near the top: log-spaced, then squeezed towards the critical point
    p = np.exp(np.log(p_low) + (np.log(top) - np.log(p_low)) * (1.0 - (1.0 - u) ** 1.6))
    h_liq = np.array([_safe(fluid.h_liq, x) for x in p])
    h_vap = np.array([_safe(fluid.h_vap, x) for x in p])
    s_liq = np.array([_safe(fluid.s_liq, x) for x in p])
    s_vap = np.array([_safe(fluid.s_vap, x) for x in p])
    t = np.array([_safe(fluid.T_sat, x) for x in p])
    t_bubble = np.array([_safe(fluid.T_bubble, x) for x in p]) if fluid.zeotropic else None
    critical = critical_point(fluid)
    dome = Dome(p, h_liq, h_vap, s_liq, s_vap, t, critical, t_bubble)
    if critical is None:
        p_crit = float(fluid.p_crit)
        dome.p_crit_pa = p_crit if np.isfinite(p_crit) else None
        blend = "blend" in type(fluid).__name__.lower()
        dome.end_reason = "blend tables end" if blend else "backend range ends"
    return dome


def isotherm_ph(
    fluid: FluidBackend, t_k: float, p_low: float, p_high: float, n: int = 60
) -> tuple[np.ndarray, np.ndarray]:
    """An isotherm on the P-h chart: enthalpy [J/kg] against pressure [Pa].

    Below the critical temperature the line is the vapour branch (``p < p_sat``), the
    horizontal two-phase segment at ``p_sat`` and the liquid branch (``p > p_sat``). Above it
    the isotherm runs through the supercritical region without a plateau (for a zeotropic
    blend the two-phase segment slopes from the dew pressure up to the bubble pressure,
    :func:`_glide_segment`); near the critical
    temperature it bends sharply across the pseudo-critical pressure, where points are added
    until no step spans more than a fortieth of the line's enthalpy range.
    """
    p_sat = _safe(fluid.p_sat, t_k) if t_k < float(fluid.T_crit) else float("nan")
    ps = np.geomspace(p_low, p_high, n)
    if fluid.zeotropic and np.isfinite(p_sat):
        return _blend_isotherm(fluid, t_k, p_sat, ps)
    if np.isfinite(p_sat) and p_low < p_sat < p_high:
        eps = 1e-6 * p_sat
        vap = ps[ps < p_sat - eps]
        liq_p, liq_h = _refined(fluid, t_k, ps[ps > p_sat + eps])
        p_all = np.concatenate([vap, [p_sat - eps, p_sat - eps], [p_sat + eps], liq_p])
        h_all = np.concatenate(
            [
                [_safe(fluid.h_pT, x, t_k) for x in vap],
                [_safe(fluid.h_vap, p_sat), _safe(fluid.h_liq, p_sat)],
                [_safe(fluid.h_liq, p_sat)],
                liq_h,
            ]
        )
        return h_all, p_all
    p_all, h_all = _refined(fluid, t_k, ps)
    return h_all, p_all


def _blend_isotherm(
    fluid: FluidBackend, t_k: float, p_dew: float, ps: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Isotherm of a zeotropic blend: vapour, the sloped two-phase segment, liquid."""
    p_bubble = _safe(getattr(fluid, "p_bubble", fluid.p_sat), t_k)
    if not np.isfinite(p_bubble) or p_bubble <= p_dew:
        p_bubble = p_dew
    vap = ps[ps < p_dew]
    liq = ps[ps > p_bubble]
    h_glide, p_glide = _glide_segment(fluid, t_k, p_dew, p_bubble)
    h_all = np.concatenate(
        [
            [_safe(fluid.h_pT, x, t_k) for x in vap],
            h_glide,
            [_safe(fluid.h_pT, x, t_k) for x in liq],
        ]
    )
    return h_all, np.concatenate([vap, p_glide, liq])


def _glide_segment(
    fluid: FluidBackend, t_k: float, p_dew: float, p_bubble: float, n: int = 12
) -> tuple[np.ndarray, np.ndarray]:
    """Enthalpies [J/kg] and pressures [Pa] of the two-phase states at ``t_k`` of a blend.

    From the dew point (``p_dew``, ``h_vap``) to the bubble point (``p_bubble``, ``h_liq``):
    at each pressure between, the enthalpy inside the dome whose temperature is ``t_k``
    (bisection on ``T(p, h)``, which rises through the glide).
    """
    ps = np.geomspace(p_dew, p_bubble, n) if p_bubble > p_dew else np.array([p_dew])
    hs = []
    for k, p in enumerate(ps):
        lo, hi = _safe(fluid.h_liq, p), _safe(fluid.h_vap, p)
        if k == 0:
            hs.append(hi)
            continue
        if k == len(ps) - 1:
            hs.append(lo)
            continue
        for _ in range(50):
            mid = 0.5 * (lo + hi)
            t_mid = _safe(fluid.T_ph, p, mid)
            if not np.isfinite(t_mid):
                break
            if t_mid < t_k:
                lo = mid
            else:
                hi = mid
        hs.append(0.5 * (lo + hi))
    return np.array(hs), ps


def _refined(
    fluid: FluidBackend, t_k: float, ps: np.ndarray, passes: int = 4
) -> tuple[np.ndarray, np.ndarray]:
    """Pressures and enthalpies of an isotherm branch, refined where it bends sharply."""
    hs = np.array([_safe(fluid.h_pT, x, t_k) for x in ps])
    for _ in range(passes):
        finite = hs[np.isfinite(hs)]
        if ps.size < 2 or finite.size < 2:
            break
        limit = (finite.max() - finite.min()) / 40.0
        steep = np.flatnonzero(np.abs(np.diff(hs)) > limit)
        if steep.size == 0:
            break
        mids = np.sqrt(ps[steep] * ps[steep + 1])
        ps = np.insert(ps, steep + 1, mids)
        hs = np.insert(hs, steep + 1, [_safe(fluid.h_pT, x, t_k) for x in mids])
    return ps, hs


def isobar_ts(
    fluid: FluidBackend, p_pa: float, h_low: float, h_high: float, n: int = 60
) -> tuple[np.ndarray, np.ndarray]:
    """An isobar on the T-s chart: entropy [J/kg/K] and temperature [K] over an enthalpy span."""
    hs = np.linspace(h_low, h_high, n)
    s = np.array([_safe(fluid.s_ph, p_pa, h) for h in hs])
    t = np.array([_safe(fluid.T_ph, p_pa, h) for h in hs])
    return s, t


def nice_levels(lo: float, hi: float, count: int = 5) -> list[float]:
    """About ``count`` round values between ``lo`` and ``hi`` (steps of 1, 2, 2.5, 5 x 10^k)."""
    if not (np.isfinite(lo) and np.isfinite(hi)) or hi <= lo:
        return []
    raw = (hi - lo) / max(count, 1)
    mag = 10.0 ** np.floor(np.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10)), key=lambda st: abs(np.log(st / raw)))
    start = np.ceil(lo / step) * step
    # "+ 0.0" turns a negative zero (ceil of a small negative number) into 0.0: no "-0 °C"
    return [round(float(v), 10) + 0.0 for v in np.arange(start, hi + 1e-9 * step, step)]
