"""Temperature profiles of solved heat exchangers on a fine grid, and the crossing check.

A zone model (constant capacity rates per zone, :mod:`workbench.components.exchangers.zones.heat_flow`) and the
mean-capacity epsilon-NTU of the internal heat exchanger only look at a few points of the
exchanger. Where cp varies strongly inside a zone (near the critical point, in desuperheating
zones at high reduced pressure, along the pseudo-critical line of a gas cooler) the true
profile can cross the other stream between those points although the model's ends do not.
This module rebuilds the profile of a *solved* exchanger from its inlet and outlet states
alone, on a fine grid, so that a converged result never hides a crossing.

Refrigerant against a secondary stream (condenser, evaporator, gas cooler), counterflow, with
``s = +1`` when the refrigerant is the hot stream and ``-1`` when it is the cold one::

    x_k    = k / N                               k = 0..N, plus the saturation points
    h_k    = h_in + x_k (h_out - h_in)           refrigerant enthalpy [J/kg]
    p_k    = p_in + x_k (p_out - p_in)           pressure, linear along the enthalpy [Pa]
    T_k    = T(p_k, h_k)                         refrigerant temperature [K]
    Ts_k   = Ts_in + m (h_k - h_out) / C_sec     secondary temperature [K] (it enters at the
                                                 refrigerant outlet; constant cp)
    dT_k   = s (T_k - Ts_k)                      hot minus cold [K]
    UA_req = sum_k m |h_k+1 - h_k| / LMTD(dT_k, dT_k+1)      conductance the profile needs [W/K]

Two refrigerant streams (the internal heat exchanger), counterflow: the hot stream runs from
``x = 0`` to ``1``, the cold stream from ``x = 1`` to ``0``, both linear in enthalpy and
pressure, ``dT_k = T_hot(x_k) - T_cold(x_k)``.

The grid has :data:`PROFILE_SEGMENTS` equal enthalpy steps: equal steps in enthalpy are dense
in temperature where cp is large, which is where the profile bends. Around the smallest
``dT_k`` the minimum is then located exactly on the two neighbouring segments (successive
parabolic interpolation of ``dT(x)`` started from the three grid points, golden-section steps
as a safeguard, to 1e-6 of the two segments; about five evaluations where a bounded Brent
search from scratch took thirty; at an end of the grid one probe decides whether the end is
the minimum), so the reported minimum does not depend on the grid. A profile
*crosses* when that minimum is below ``-CROSSING_TOLERANCE_K``.

How a component reports it (:func:`crossing_problem`): a crossing is a physical impossibility
(the result is not converged, with the place and size of the crossing and what to use
instead); :func:`accuracy_warning` warns when the conductance the fine profile needs for the
solved heat flow differs from the model's by more than :data:`UA_WARNING_RATIO`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from workbench.components.exchangers.zones.heat_flow import counterflow_ua
from workbench.components.exchangers.zones.profile_grid import (
    _refine_minimum,
    _saturation_cuts,
    sample,
)
from workbench.fluids import FluidBackend

__all__ = [
    "CROSSING_TOLERANCE_K",
    "NEAR_CRITICAL",
    "PINCHED_K",
    "PROFILE_SEGMENTS",
    "UA_WARNING_RATIO",
    "ProfileCheck",
    "accuracy_warning",
    "crossing_problem",
    "near_critical_note",
    "secondary_profile",
    "two_stream_profile",
]

PROFILE_SEGMENTS = 64
"""Equal enthalpy steps of the check grid (the saturation points are added to them)."""

CROSSING_TOLERANCE_K = 1e-3
"""A hot-minus-cold difference below ``-CROSSING_TOLERANCE_K`` [K] is a crossing; within it,
the difference is the noise of the property calls at a pinch."""

PINCHED_K = 0.01
"""Below this smallest difference [K] an exchanger is pinched: its heat flow is the pinch limit,
no longer set by its conductance, and the conductance a profile "needs" (the logarithm of a
vanishing difference) says nothing, so :func:`accuracy_warning` gives none (the pinch itself is
reported)."""
UA_WARNING_RATIO = 0.10
"""A warning is given when the fine profile needs a conductance that differs from the model's
by more than this fraction (the model's heat flow is then inaccurate, not impossible)."""

NEAR_CRITICAL = 0.98
"""Reduced pressure ``p / p_crit`` [-] from which a condenser or evaporator is warned about
(whatever its profile): the zone model and the saturation specs lose their meaning there."""


@dataclass(frozen=True)
class ProfileCheck:
    """The temperature profile of a solved exchanger, summarised.

    Attributes
    ----------
    min_dt : float
        Smallest hot-minus-cold temperature difference along the exchanger [K] (negative: the
        streams cross).
    fraction : float
        Where the minimum is, as the fraction of the refrigerant's (the hot stream's)
        enthalpy change from its inlet [-].
    t_refrigerant, t_other : float
        Refrigerant (hot stream) and secondary (cold stream) temperature at the minimum [K].
    p : float
        Refrigerant (hot stream) pressure at the minimum [Pa].
    ua_required : float
        Conductance the fine profile needs for the solved heat flow [W/K]; ``inf`` when the
        streams touch or cross.
    segments : int
        Segments of the grid [-].
    q : float
        Heat flow of the profile [W].
    """

    min_dt: float
    fraction: float
    t_refrigerant: float
    t_other: float
    p: float
    ua_required: float
    segments: int
    q: float

    @property
    def crosses(self) -> bool:
        """True when the streams cross by more than :data:`CROSSING_TOLERANCE_K`."""
        return self.min_dt < -CROSSING_TOLERANCE_K


ENDPOINT_PROBE = 1e-3
"""Where a minimum at an end of the grid is probed: this fraction of the end segment inwards."""


def _profile(
    dt_at: Callable[[float], tuple[float, float, float, float]],
    xs: list[float],
    q: float,
    values: list[tuple[float, float, float, float]] | None = None,
    kinks: Sequence[float] = (),
) -> ProfileCheck:
    """Minimum and required conductance of a profile ``dt_at(x) -> (dT, T_hot, T_cold, p)``.

    The grid's smallest difference is refined on its two neighbouring segments
    (:func:`_refine_minimum`, to ``1e-6`` of their length). At an end of the grid, one probe
    :data:`ENDPOINT_PROBE` of the end segment inwards decides: where the difference grows
    inwards (the usual pinch at an outlet) the end is the minimum (a dip below it inside one
    smooth segment would need two inflection points in 1/64 of the exchanger); where it falls,
    the probe brackets a minimum inside the segment, which is then refined. A grid point in
    ``kinks`` (a saturation point, where the profile's slope jumps: the usual pinch of a
    condenser at its dew point) is treated as two ends: one probe into each neighbouring
    segment, the kink the minimum where both grow; a parabola through a kink converges no
    faster than golden sections (some 30 evaluations to 1e-6 of the bracket).
    """
    if values is None:
        values = [dt_at(x) for x in xs]
    dts = [v[0] for v in values]
    ua = 0.0
    for k in range(len(xs) - 1):
        ua += counterflow_ua(q * (xs[k + 1] - xs[k]), dts[k], dts[k + 1])
    k_min = min(range(len(xs)), key=dts.__getitem__)
    x_min, best = xs[k_min], values[k_min]
    seen: dict[float, tuple[float, float, float, float]] = {}

    def dt_only(x: float) -> float:
        value = dt_at(x)
        seen[x] = value
        return value[0]

    bracket = None
    if 0 < k_min < len(xs) - 1 and x_min in kinks:
        for k_side in (k_min - 1, k_min + 1):
            side = xs[k_side]
            probe = x_min + ENDPOINT_PROBE * (side - x_min)
            if dt_only(probe) < best[0]:
                lo, hi = min(x_min, side), max(x_min, side)
                ends = ((x_min, best[0]), (side, dts[k_side]))
                a, c = (ends[0], ends[1]) if side > x_min else (ends[1], ends[0])
                bracket = (a, (probe, seen[probe][0]), c)
                break
    elif 0 < k_min < len(xs) - 1:
        lo, hi = xs[k_min - 1], xs[k_min + 1]
        bracket = ((lo, dts[k_min - 1]), (x_min, best[0]), (hi, dts[k_min + 1]))
    elif len(xs) > 1:
        inner = xs[1] if k_min == 0 else xs[-2]
        lo, hi = min(x_min, inner), max(x_min, inner)
        probe = x_min + ENDPOINT_PROBE * (inner - x_min)
        if dt_only(probe) < best[0]:
            d_inner = dts[1] if k_min == 0 else dts[-2]
            ends = ((x_min, best[0]), (inner, d_inner))
            a, c = (ends[0], ends[1]) if k_min == 0 else (ends[1], ends[0])
            bracket = (a, (probe, seen[probe][0]), c)
    if bracket is not None:
        x_found, d_found = _refine_minimum(dt_only, bracket, 1e-6 * (hi - lo))
        if d_found < best[0]:
            x_min, best = x_found, seen[x_found]
    if best[0] <= 0.0:
        ua = math.inf
    return ProfileCheck(
        min_dt=best[0],
        fraction=x_min,
        t_refrigerant=best[1],
        t_other=best[2],
        p=best[3],
        ua_required=ua,
        segments=len(xs) - 1,
        q=q,
    )


def secondary_profile(
    fluid: FluidBackend,
    refrigerant_in: tuple[float, float],
    refrigerant_out: tuple[float, float],
    m: float,
    t_sec_in: float,
    c_sec: float,
    refrigerant_is_hot: bool,
    segments: int = PROFILE_SEGMENTS,
) -> ProfileCheck:
    """Fine profile of a solved refrigerant-against-secondary counterflow exchanger.

    Parameters
    ----------
    fluid : FluidBackend
        Refrigerant properties.
    refrigerant_in, refrigerant_out : tuple of float
        Solved ``(p [Pa], h [J/kg])`` at the refrigerant inlet and outlet.
    m : float
        Refrigerant mass flow [kg/s].
    t_sec_in : float
        Secondary inlet temperature [K].
    c_sec : float
        Secondary capacity rate ``m_sec cp_sec`` [W/K], > 0.
    refrigerant_is_hot : bool
        True for a condenser or gas cooler, False for an evaporator.
    segments : int
        Equal enthalpy steps of the grid.

    Returns
    -------
    ProfileCheck
        ``t_refrigerant`` is the refrigerant and ``t_other`` the secondary temperature at the
        minimum.

    Raises
    ------
    FluidPropertyError
        A property call along the path failed.
    """
    p_in, h_in = refrigerant_in
    p_out, h_out = refrigerant_out
    sign = 1.0 if refrigerant_is_hot else -1.0

    def dt_at(x: float) -> tuple[float, float, float, float]:
        h = h_in + x * (h_out - h_in)
        p = p_in + x * (p_out - p_in)
        t = float(fluid.T_ph(p, h))
        t_sec = t_sec_in + m * (h - h_out) / c_sec
        return sign * (t - t_sec), t, t_sec, p

    cuts = _saturation_cuts(fluid, p_in, h_in, p_out, h_out)
    xs, values = sample(dt_at, segments, cuts)
    return _profile(dt_at, xs, abs(m * (h_in - h_out)), values, cuts)


def two_stream_profile(
    fluid: FluidBackend,
    hot: tuple[tuple[float, float], tuple[float, float]],
    cold: tuple[tuple[float, float], tuple[float, float]],
    q: float,
    segments: int = PROFILE_SEGMENTS,
    cold_fluid: FluidBackend | None = None,
) -> ProfileCheck:
    """Fine profile of a solved counterflow exchanger between two refrigerant streams.

    Parameters
    ----------
    fluid : FluidBackend
        Properties of both streams (of the hot one when ``cold_fluid`` is given).
    hot, cold : tuple
        ``((p_in, h_in), (p_out, h_out))`` of each stream [Pa, J/kg].
    q : float
        Heat flow [W].
    segments : int
        Equal steps of the grid.
    cold_fluid : FluidBackend, optional
        Properties of the cold stream when its fluid is another (a cascade of two fluids).

    Returns
    -------
    ProfileCheck
        ``fraction`` counts along the hot stream; ``t_refrigerant`` is the hot and
        ``t_other`` the cold stream's temperature at the minimum.

    Raises
    ------
    FluidPropertyError
        A property call along the path failed.
    """
    (ph_in, hh_in), (ph_out, hh_out) = hot
    (pc_in, hc_in), (pc_out, hc_out) = cold
    cold_props = cold_fluid or fluid

    def dt_at(x: float) -> tuple[float, float, float, float]:
        p_h = ph_in + x * (ph_out - ph_in)
        t_h = float(fluid.T_ph(p_h, hh_in + x * (hh_out - hh_in)))
        # counterflow: the cold stream leaves where the hot one enters (x = 0)
        t_c = float(cold_props.T_ph(pc_out + x * (pc_in - pc_out), hc_out + x * (hc_in - hc_out)))
        return t_h - t_c, t_h, t_c, p_h

    cuts = _saturation_cuts(fluid, ph_in, hh_in, ph_out, hh_out)
    cuts += [1.0 - c for c in _saturation_cuts(cold_props, pc_in, hc_in, pc_out, hc_out)]
    xs, values = sample(dt_at, segments, cuts)
    return _profile(dt_at, xs, q, values, cuts)


def near_critical_note(fluid: FluidBackend, p: float, rejects_heat: bool = True) -> str:
    """Why a zone model may misrepresent an exchanger at pressure ``p`` [Pa], if it may.

    Parameters
    ----------
    fluid : FluidBackend
        The refrigerant.
    p : float
        The refrigerant's pressure in the exchanger [Pa].
    rejects_heat : bool
        Whether the refrigerant gives heat there (a condenser, a gas cooler, the hot side of an
        internal or cascade exchanger); only then is a GasCooler the remedy to name. An
        evaporator near the critical pressure is told to evaporate lower instead.
    """
    reduced = p / fluid.p_crit
    if reduced >= 1.0:
        if not rejects_heat:
            return (
                f"The refrigerant is at {p / 1e5:.2f} bar, at or above its critical pressure "
                f"{fluid.p_crit / 1e5:.2f} bar, where nothing evaporates: an evaporator needs "
                "a pressure below it."
            )
        return (
            f"The refrigerant is at {p / 1e5:.2f} bar, at or above its critical pressure "
            f"{fluid.p_crit / 1e5:.2f} bar, where nothing condenses: heat rejection there needs "
            "a GasCooler."
        )
    if reduced >= 0.8:
        base = (
            f"At reduced pressure {reduced:.4f} cp varies strongly inside a zone, which the zone "
            "model (constant cp per zone) cannot represent; "
        )
        if not rejects_heat:
            return base + (
                "evaporating further below the critical pressure keeps the zones accurate."
            )
        return base + (
            "for heat rejection near or above the critical point use a GasCooler (its profile "
            "is discretised along the enthalpy)."
        )
    return ""


def crossing_problem(
    label: str,
    check: ProfileCheck,
    names: tuple[str, str] = ("refrigerant", "secondary"),
    first_is_hot: bool = True,
    note: str = "",
) -> str | None:
    """The problem text of a crossing profile, or None when the profile does not cross.

    Parameters
    ----------
    label : str
        ``<type> '<name>'`` of the component.
    check : ProfileCheck
        The fine profile.
    names : tuple of str
        Names of the stream of ``check.t_refrigerant`` and of ``check.t_other``.
    first_is_hot : bool
        True when the first stream is the hot one.
    note : str
        Why the component's model missed it (appended).
    """
    if not check.crosses:
        return None
    hot, cold = names if first_is_hot else names[::-1]
    return (
        f"{label}: temperatures cross inside the exchanger: on a profile of {check.segments} "
        f"segments along the enthalpy the {hot} is {-check.min_dt:.2f} K below the {cold} at "
        f"{100 * check.fraction:.0f} % of the way from the inlet ({names[0]} "
        f"{check.t_refrigerant - 273.15:.2f} C at {check.p / 1e5:.2f} bar, {names[1]} "
        f"{check.t_other - 273.15:.2f} C): heat would flow uphill there.{' ' + note if note else ''}"
    )


def accuracy_warning(
    label: str,
    check: ProfileCheck,
    ua_model: float,
    note: str = "",
    ratio_limit: float = UA_WARNING_RATIO,
) -> str | None:
    """A warning when the fine profile needs a conductance far from the model's, else None.

    Parameters
    ----------
    label : str
        ``<type> '<name>'`` of the component.
    check : ProfileCheck
        The fine profile of the solved exchanger.
    ua_model : float
        The conductance the model used [W/K].
    note : str
        Why the model may be inaccurate (appended).
    ratio_limit : float
        Largest share [-] by which the needed conductance may differ from ``ua_model`` without
        a warning (default :data:`UA_WARNING_RATIO`).
    """
    if check.crosses or ua_model <= 0.0 or check.q <= 0.0 or check.min_dt < PINCHED_K:
        return None
    ratio = check.ua_required / ua_model
    if abs(ratio - 1.0) <= ratio_limit:
        return None
    needed = "an unbounded" if math.isinf(ratio) else f"{ratio:.3g} x the"
    return (
        f"{label}: the solved heat flow {check.q / 1e3:.3f} kW needs {needed} conductance "
        f"{ua_model:.4g} W/K on a fine profile of the exchanger (smallest temperature difference "
        f"{check.min_dt:.2f} K): the zone model's heat flow is inaccurate here."
        f"{' ' + note if note else ''}"
    )
