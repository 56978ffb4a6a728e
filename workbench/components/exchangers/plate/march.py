"""Counterflow segmented march of a brazed plate exchanger, shot on the secondary outlet.

Who reads it: :class:`~workbench.components.exchangers.plate.component.PlateCondenser` and
``PlateEvaporator`` (one :func:`solve_plate` per new inlet state, memoised by the component).

The refrigerant path is cut into ``N`` segments of equal plate length (area ``A/N``, friction
length ``L_pp/N``); the secondary (water or brine) flows the other way. The secondary outlet
temperature ``T_so`` (at the refrigerant inlet end) is unknown: :func:`solve_plate` shoots on it,
marching from the refrigerant inlet with the secondary going upstream, until the secondary
arrives at its inlet temperature, ``0 = T_s(end; T_so) - T_s,in``, by a safeguarded secant in a
bracket (``T_s,in`` and the refrigerant inlet temperature), from the last solution, to
:data:`SHOOT_TOLERANCE` of the temperature span.

A segment is cut further where the refrigerant crosses a saturation line, so each piece lies in
one phase. A piece of area ``a`` is a counterflow exchanger with constant capacity rates; with
``dT = s (T_ref - T_sec)`` (``s = +1`` condenser, ``-1`` evaporator) at its refrigerant inlet
end, the closed form is::

    1/UA = [1/(f_r h_ref) + t/k_plate + 1/(f_s h_sec)] / (z_ua a)
    R = 1/C_ref - 1/C_sec,     C_ref = m / (dT/dh)_p,   C_sec = m_s cp_s
    Q = dT1 (1 - exp(-UA R)) / R          (Q = dT1 UA as R -> 0)

In two phase ``(dT/dh)_p`` is the glide over the latent heat (zero for a pure fluid) and the
fall of the saturation temperature with the piece's pressure drop enters as a shift of ``dT1``
by half of it (second-order accurate in the piece length). The area a piece needs to reach a
saturation line inverts the same formula, ``UA_b = -ln(1 - Q_b R / dT1) / R``. The
refrigerant's coefficient of a two-phase piece depends on the heat flux and the quality
(:mod:`.sides`, evaluated through :class:`~.kernel.TwoPhaseKernel`), taken by Simpson's rule
over the piece's quality (``1/h`` at its start, middle and end; the friction likewise): the
piece's heat flow is the fixed point of its flux and end quality, converged by secant steps (:mod:`.segment`), so
the march is a function of its inputs alone, without jumps where a zone crosses a segment end. The secondary's state is carried as its enthalpy
(:meth:`~workbench.fluids.SecondaryFluid.h`), so ``sum Q = m_s (h_s,out - h_s,in)`` holds exactly.

Refrigerant pressure: ports (half of :data:`~workbench.correlations.plate_single_phase.PORT_VELOCITY_HEADS`
at the inlet density before the first segment, half at the outlet density after the last),
channel friction per piece (Martin or Amalfi), times ``z_dp`` and the correlation factor.
Static head and acceleration are left out (see docs/components.md for their size). Saturation
states along the march are linear in pressure from the inlet (``T_sat``, ``h_liq``, ``h_vap``
and their slopes at ``p_in``; the drop is a few kPa). Single-phase refrigerant properties are
taken at the piece's start temperature, kept at least about 0.1 K off the saturation line by a
smooth maximum, linear in temperature between the saturated state and the state at the zone's
far temperature, both at the inlet pressure (:meth:`.segment.Marcher.phase_props`; against a flash per
piece, 0.02 % of ``Q`` on the condenser of the tests).

References
----------
Incropera, DeWitt, Bergman, Lavine, Fundamentals of Heat and Mass Transfer, 6th ed., sec. 11.3
(counterflow log-mean form); Shah and Sekulic, Fundamentals of Heat Exchanger Design (2003),
sec. 3.4 (the counterflow effectiveness this closed form rearranges).
"""

from __future__ import annotations

import math
from dataclasses import replace

from workbench.components.exchangers.plate.records import MarchResult, Outside, Piece, PlateModel
from workbench.components.exchangers.plate.secondary_side import SecondaryFilm, secondary_film
from workbench.components.exchangers.plate.segment import Marcher, density, next_zone
from workbench.correlations.plate_single_phase import PORT_VELOCITY_HEADS
from workbench.errors import FluidPropertyError

__all__ = [
    "CURVATURE",
    "FIRST_SLOPE",
    "LINEAR_END",
    "NEIGHBOUR_SHARES",
    "SHOOT_TOLERANCE",
    "MarchResult",
    "Piece",
    "PlateModel",
    "march",
    "secondary_film",
    "solve_plate",
]

SHOOT_TOLERANCE = 1e-11
"""The shooting stops when the secondary misses its inlet by less than this share of the span
``|T_ref,in - T_s,in|`` [-]."""

FIRST_SLOPE = 1.0
"""``d(T_s,end)/d(T_s,out)`` [-] the shooting's first step assumes without a last solution."""

NEIGHBOUR_SHARES = (1e-7, 1e-3)
"""Distances of a shooting's other marches from its root, as shares of the span, that serve
the Jacobian's ``d/dT_so`` (:attr:`MarchResult.neighbour`) [-]: above the march's rounding,
below where its curvature shows (the forward difference's error is about half the distance
times ``d2/dT_so2``, under 1e-3 of the slope on the example)."""

LINEAR_END = 0.5
"""The shooting ends without its last march when the secant's root misses the true one by less
than this share of the tolerance [-] (:func:`_linear_end`; the miss estimated from the
residual's curvature, :data:`CURVATURE`)."""

CURVATURE = 100.0
"""A bound of ``|r''/r'|`` times the span [-] where the shooting has no three marches near its
root to measure it: about 80 on the example's condenser at its root (the slope of its residual
goes from 1.2 over 0.3 K to 1.48 at the root), 2 on its evaporator."""

_SHOOT_EVALUATIONS = 60


def march(
    model: PlateModel,
    p_in: float,
    h_in: float,
    m: float,
    t_sec_in: float,
    m_sec: float,
    t_sec_out: float,
    z_ua: float = 1.0,
    z_dp: float = 1.0,
    film: SecondaryFilm | None = None,
    hint: MarchResult | None = None,
) -> MarchResult:
    """One march from the refrigerant inlet with the secondary leaving at ``t_sec_out``.

    Parameters
    ----------
    model : PlateModel
        The exchanger.
    p_in, h_in : float
        Refrigerant inlet pressure [Pa] and enthalpy [J/kg].
    m : float
        Refrigerant mass flow of one exchanger [kg/s], positive.
    t_sec_in : float
        Secondary inlet temperature [K] (only to report; the march ends where it ends).
    m_sec : float
        Secondary mass flow of one exchanger [kg/s], positive.
    t_sec_out : float
        Secondary outlet temperature the march starts from [K].
    z_ua, z_dp : float
        Calibration factors of the conductance and the refrigerant pressure drop [-].
    film : callable, optional
        The secondary's film coefficient by temperature (:func:`solve_plate` passes its
        quadratic); exact at every piece when absent.
    hint : MarchResult, optional
        A march at nearby inputs: each two-phase piece's fixed point starts from the same
        piece's converged flux and ``dQ/dq`` (two evaluations instead of four when the inputs
        are close; converged to the same tolerance, so the march is the same to rounding).

    Returns
    -------
    MarchResult
        The pieces, the refrigerant outlet and the secondary's end temperature.

    Raises
    ------
    FluidPropertyError
        A property call failed, or the pressure drop takes more than half the inlet pressure.
    """
    st = Marcher(model, p_in, h_in, m, m_sec, z_ua, z_dp)
    st.film = film
    if hint is not None:
        st.hint = hint.fixed_points
    spec, sign = model.spec, st.sign
    g = spec.geometry
    zone = st.zone(p_in, h_in)
    # the inlet's flashes are the same for every march of a shooting (PlateModel.inlet_memo)
    key = ("inlet", p_in, h_in, m, st.f_dp)
    known = model.inlet_memo.get(key)
    if known is None:
        t_in = st.t_ref(p_in, h_in, zone)
        rho_in = density(st, p_in, h_in, zone)
        port_half = 0.5 * PORT_VELOCITY_HEADS * (m / spec.geometry.port_area_m2) ** 2 / 2.0
        p_first = p_in - st.f_dp * port_half / rho_in
        known = (t_in, rho_in, p_first, st.t_ref(p_first, h_in, zone))
        model.inlet_memo[key] = known
    t_in, rho_in = known[0], known[1]
    st.known_t = (known[2], h_in, known[3])
    if not st.supercritical:
        st.far = {
            "superheated": max(t_in, t_sec_in, st.sat_lin.t_dew + 1.0),
            "subcooled": min(t_in, t_sec_in, st.sat_lin.t_bub - 1.0),
        }
    port_half = 0.5 * PORT_VELOCITY_HEADS * (m / g.port_area_m2) ** 2 / 2.0
    dp_in = st.f_dp * port_half / rho_in
    p, h = p_in - dp_in, h_in
    st.t_sec = t_sec_out
    h_sec = st.liquid.h(t_sec_out)
    pieces: list[Piece] = []
    seg_area = st.area / spec.segments
    for _ in range(spec.segments):
        left = seg_area
        for _cut in range(3):
            piece, p, h, h_sec, bounded = st.piece(p, h, zone, h_sec, left)
            pieces.append(piece)
            left -= piece.area
            if not bounded:
                break
            zone = next_zone(zone, model.hot)
            if left <= 1e-12 * seg_area:
                break
        if p < 0.5 * p_in:
            raise FluidPropertyError(
                f"plate exchanger: refrigerant pressure drop exceeds half the inlet pressure "
                f"{p_in:.6g} Pa (mass flow {m:.4g} kg/s)"
            )
    t_end = st.secondary(h_sec)[0]
    rho_out = density(st, p, h, zone)
    dp_out = st.f_dp * port_half / rho_out
    q = sign * m * (h_in - h)
    return MarchResult(
        t_end, t_sec_out, h, p - dp_out, q, pieces, dp_in + dp_out, t_ref_in=t_in,
        fixed_points=st.fixed_points,
    )  # fmt: skip


def solve_plate(
    model: PlateModel,
    p_in: float,
    h_in: float,
    m: float,
    t_sec_in: float,
    m_sec: float,
    z_ua: float = 1.0,
    z_dp: float = 1.0,
    start: float | None = None,
    slope: float | None = None,
    tolerance: float = SHOOT_TOLERANCE,
    hint: MarchResult | None = None,
) -> MarchResult:
    """The march whose secondary ends at its inlet temperature (the shooting of the docstring).

    Parameters
    ----------
    model : PlateModel
        The exchanger.
    p_in, h_in : float
        Refrigerant inlet pressure [Pa] and enthalpy [J/kg].
    m : float
        Refrigerant mass flow of one exchanger [kg/s], positive.
    t_sec_in : float
        Secondary inlet temperature [K].
    m_sec : float
        Secondary mass flow of one exchanger [kg/s], positive.
    z_ua, z_dp : float
        Calibration factors [-].
    start : float, optional
        Secondary outlet temperature to start from [K] (the last solution).
    slope : float, optional
        The last solution's ``d(T_s,end)/d(T_s,out)`` [-], for the first secant step.
    tolerance : float, optional
        Share of the temperature span the secondary may miss its inlet by [-]
        (:data:`SHOOT_TOLERANCE`; looser only for estimates, never for a residual).
    hint : MarchResult, optional
        A march at nearby inputs (the last root) for the first march's fixed points; each
        later march starts its fixed points from the shooting's last (:func:`march`).

    Returns
    -------
    MarchResult
        The converged march.

    Raises
    ------
    FluidPropertyError
        A property call failed at the refrigerant inlet, or no root was found (the message
        names the bracket).
    """
    sign = 1.0 if model.hot else -1.0
    t_ref_in = float(model.fluid.T_ph(p_in, h_in))
    span = sign * (t_ref_in - t_sec_in)
    if span <= 0.0:
        # heat would flow the wrong way everywhere: no exchange is the only state without
        # a crossing (the component's check reports it)
        return march(model, p_in, h_in, m, t_sec_in, m_sec, t_sec_in, z_ua, z_dp)
    lo, hi = sorted((t_sec_in, t_ref_in))
    tol = tolerance * span
    found: dict[float, MarchResult] = {}
    film = secondary_film(model, t_ref_in, t_sec_in, m_sec)
    last = [hint]

    def residual(t: float) -> float:
        try:
            res = march(model, p_in, h_in, m, t_sec_in, m_sec, t, z_ua, z_dp, film, last[0])
        except Outside as out:
            return math.copysign(math.inf, out.direction)
        found[t] = last[0] = res
        return res.t_sec_end - t_sec_in

    t0 = start if start is not None and lo < start < hi else lo + 0.5 * (hi - lo)
    r_lo, r_hi = -math.inf, math.inf
    x0, r0 = t0, residual(t0)
    if abs(r0) <= tol:  # the start closes the march already (a converged Newton's last states)
        found[x0].slope = slope if slope is not None else math.nan
        return found[x0]
    if r0 < 0.0:
        lo, r_lo = x0, r0
    else:
        hi, r_hi = x0, r0
    # the first step: the last solution's slope, else 1 (the secondary's end moves about as
    # much as its outlet: 1.0-1.8 on the example), not a probe of 1e-3 of the span
    first = slope if slope is not None and slope > 0.0 else FIRST_SLOPE
    if math.isfinite(r0):
        x1 = x0 - r0 / first
        if not lo < x1 < hi or x1 == x0:
            x1 = x0 - math.copysign(min(1e-3 * span, 0.25 * (hi - lo)), r0)
    else:
        x1 = x0 - math.copysign(min(1e-3 * span, 0.25 * (hi - lo)), r0)
    x_prev, r_prev = x0, r0
    x_pp, r_pp = math.nan, math.nan  # the march before x_prev
    last_slope = slope if slope is not None else math.nan
    for _ in range(_SHOOT_EVALUATIONS):
        r1 = residual(x1)
        if abs(r1) <= tol and x1 in found:
            found[x1].slope = last_slope
            return _with_neighbour(found, x1, span)
        if r1 < 0.0:
            lo, r_lo = x1, r1
        else:
            hi, r_hi = x1, r1
        secant = math.isfinite(r1) and math.isfinite(r_prev) and r1 != r_prev
        if secant:
            last_slope = (r1 - r_prev) / (x1 - x_prev)
            x_new = x1 - r1 / last_slope
            if lo < x_new < hi and x1 in found and x_prev in found:
                # the secant's root misses the true one by (r''/2) |x_new - x1| |x_new - x_prev|
                # in the residual: r'' from the last three marches when they lie within 1e-3
                # of the span, else a bound of CURVATURE |r'| / span
                bend = CURVATURE * abs(last_slope) / span
                if x_pp in found and abs(x1 - x_pp) <= 1e-3 * span and x_pp != x1:
                    s0 = (r_prev - r_pp) / (x_prev - x_pp)
                    bend = 2.0 * abs((last_slope - s0) / (x1 - x_pp))  # twice the estimate
                miss = 0.5 * bend * abs(x_new - x1) * abs(x_new - x_prev)
                if miss <= LINEAR_END * tol:
                    return _linear_end(found, x_prev, x1, x_new, t_sec_in, span, last_slope)
        else:
            x_new = 0.5 * (lo + hi)
        if not lo < x_new < hi:
            if math.isfinite(r_lo) and math.isfinite(r_hi):
                x_new = lo - r_lo * (hi - lo) / (r_hi - r_lo)
                if not lo < x_new < hi:
                    x_new = 0.5 * (lo + hi)
            else:
                x_new = 0.5 * (lo + hi)
        if abs(x_new - x1) <= 1e-3 * tol and x1 in found:
            found[x1].slope = last_slope
            return _with_neighbour(found, x1, span)
        x_pp, r_pp = x_prev, r_prev
        x_prev, r_prev, x1 = x1, r1, x_new
    raise FluidPropertyError(
        f"plate exchanger: no secondary outlet temperature in [{lo:.6g}, {hi:.6g}] K closes the "
        f"march (secondary inlet {t_sec_in:.6g} K, refrigerant inlet {t_ref_in:.6g} K)"
    )


def _linear_end(
    found: dict[float, MarchResult],
    x0: float,
    x1: float,
    root: float,
    t_sec_in: float,
    span: float,
    slope: float,
) -> MarchResult:
    """The march at ``x1`` moved to the secant's ``root`` along the secant of ``x0`` and ``x1``.

    Heat flow, outlet enthalpy and pressure are extrapolated linearly in the secondary outlet
    temperature (as the Jacobian moves its columns' marches, :mod:`.jacobian`); the pieces are
    those of ``x1`` with their heat flows and pressure drops scaled by that last correction
    (under 1e-9 of them), so that they still sum to the exchanger's. The result's
    :attr:`~MarchResult.neighbour` is chosen as for a marched root.
    """
    a, b = found[x0], found[x1]
    w = (root - x1) / (x1 - x0)
    q = b.q + w * (b.q - a.q)
    p_out = b.p_out + w * (b.p_out - a.p_out)
    dp = sum(pc.dp for pc in b.pieces)
    f_q = q / b.q if b.q != 0.0 else 1.0
    f_dp = (dp + b.p_out - p_out) / dp if dp != 0.0 else 1.0
    pieces = [
        Piece(pc.zone, pc.area, pc.q * f_q, pc.ua, pc.h_ref, pc.h_sec, pc.dt_start, pc.dt_end,
              pc.dp * f_dp, pc.re_ref, pc.re_sec)
        for pc in b.pieces
    ]  # fmt: skip
    out = replace(
        b,
        t_sec_out=root,
        t_sec_end=t_sec_in,
        q=q,
        h_out=b.h_out + w * (b.h_out - a.h_out),
        p_out=p_out,
        pieces=pieces,
        slope=slope,
        neighbour=None,
    )
    found[root] = out
    return _with_neighbour(found, root, span)


def _with_neighbour(found: dict[float, MarchResult], root: float, span: float) -> MarchResult:
    """The march at ``root``, its :attr:`~MarchResult.neighbour` set.

    The neighbour is the shooting's march within :data:`NEIGHBOUR_SHARES` of the span from the
    root nearest ``1e-5`` of the span away (in log distance), or None.
    """
    lo, hi = NEIGHBOUR_SHARES[0] * span, NEIGHBOUR_SHARES[1] * span
    best, best_score = None, math.inf
    for t, res in found.items():
        d = abs(t - root)
        if lo <= d <= hi:
            score = abs(math.log(d / (1e-5 * span)))
            if score < best_score:
                best, best_score = res, score
    out = found[root]
    out.neighbour = best
    return out
