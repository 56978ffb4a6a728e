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
refrigerant's coefficient of a two-phase piece depends on the heat flux and the mean quality
(:mod:`.sides`, evaluated through :class:`~.kernel.TwoPhaseKernel`): three fixed-point passes from the last piece's flux, a fixed count so the march
stays a smooth function of its inputs. The secondary's state is carried as its enthalpy
(:meth:`~workbench.fluids.SecondaryFluid.h`), so ``sum Q = m_s (h_s,out - h_s,in)`` holds exactly.

Refrigerant pressure: ports (half of :data:`~workbench.correlations.plate_single_phase.PORT_VELOCITY_HEADS`
at the inlet density before the first segment, half at the outlet density after the last),
channel friction per piece (Martin or Amalfi), times ``z_dp`` and the correlation factor.
Static head and acceleration are left out (see docs/components.md for their size). Saturation
states along the march are linear in pressure from the inlet (``T_sat``, ``h_liq``, ``h_vap``
and their slopes at ``p_in``; the drop is a few kPa). Single-phase refrigerant properties are
taken at the piece's start temperature, kept at least about 0.1 K off the saturation line by a
smooth maximum, linear in temperature between the saturated state and the state at the zone's
far temperature, both at the inlet pressure (:meth:`_March.phase_props`; against a flash per
piece, 0.02 % of ``Q`` on the condenser of the tests).

References
----------
Incropera, DeWitt, Bergman, Lavine, Fundamentals of Heat and Mass Transfer, 6th ed., sec. 11.3
(counterflow log-mean form); Shah and Sekulic, Fundamentals of Heat Exchanger Design (2003),
sec. 3.4 (the counterflow effectiveness this closed form rearranges).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from workbench.components.exchangers.plate.kernel import TwoPhaseKernel
from workbench.components.exchangers.plate.sides import (
    phase_film,
    single_phase_film,
    single_phase_friction_rate,
)
from workbench.components.exchangers.plate.spec import PlateSpec
from workbench.correlations.plate_single_phase import PORT_VELOCITY_HEADS
from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend, SecondaryFluid
from workbench.fluids.secondary_transport import SecondaryTransport
from workbench.fluids.transport import PhaseTransport, Transport

__all__ = [
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

FILM_PASSES = 3
"""Fixed-point passes of a two-phase piece's heat flux and mean quality [-]."""

_OFFSET_K = 0.1
"""Single-phase properties are read at least about this far from the saturation line [K]."""

_SHOOT_EVALUATIONS = 60


class _Outside(Exception):
    """The secondary left its fluid's range during a march (``direction`` +1 above, -1 below)."""

    def __init__(self, direction: float) -> None:
        super().__init__(direction)
        self.direction = direction


@dataclass(frozen=True)
class PlateModel:
    """What a march needs that does not change during a solve.

    Attributes
    ----------
    spec : PlateSpec
        Geometry, options and correlation factors.
    fluid : FluidBackend
        The refrigerant.
    transport : Transport
        Its transport properties.
    secondary : SecondaryFluid
        The water or brine (``cp``, ``h``, ``T_h``).
    secondary_transport : SecondaryTransport
        Its ``rho``, ``mu``, ``k``.
    hot : bool
        True when the refrigerant is the hot stream (condenser).
    """

    spec: PlateSpec
    fluid: FluidBackend
    transport: Transport
    secondary: SecondaryFluid
    secondary_transport: SecondaryTransport
    hot: bool


@dataclass(frozen=True)
class Piece:
    """One piece of the march (a segment, or its part in one phase).

    Attributes
    ----------
    zone : str
        ``superheated``, ``two-phase`` or ``subcooled``.
    area : float
        Heat-transfer area [m^2].
    q : float
        Heat flow [W] (positive from hot to cold).
    ua : float
        Conductance [W/K].
    h_ref, h_sec : float
        Film coefficients with their correlation factors [W/(m^2 K)].
    dt_start, dt_end : float
        Hot minus cold temperature at the piece's refrigerant inlet and outlet ends [K].
    dp : float
        Refrigerant channel pressure drop of the piece [Pa].
    re_ref : float
        Refrigerant Reynolds number (single phase) or equivalent Reynolds number (two phase,
        liquid-only on ``D_h``) [-].
    re_sec : float
        Secondary Reynolds number [-].
    """

    zone: str
    area: float
    q: float
    ua: float
    h_ref: float
    h_sec: float
    dt_start: float
    dt_end: float
    dp: float
    re_ref: float
    re_sec: float


@dataclass
class MarchResult:
    """A march from the refrigerant inlet (per exchanger of a bank).

    Attributes
    ----------
    t_sec_end : float
        Secondary temperature at the refrigerant outlet end [K] (its inlet, at the root).
    t_sec_out : float
        Secondary outlet temperature the march started from [K].
    h_out, p_out : float
        Refrigerant outlet enthalpy [J/kg] and pressure after the outlet port [Pa].
    q : float
        Heat flow [W] (positive from hot to cold).
    pieces : list of Piece
        The pieces in refrigerant flow order.
    dp_ports : float
        Port pressure drop of the refrigerant [Pa].
    """

    t_sec_end: float
    t_sec_out: float
    h_out: float
    p_out: float
    q: float
    pieces: list[Piece] = field(default_factory=list)
    dp_ports: float = 0.0
    slope: float = math.nan
    """d(t_sec_end)/d(t_sec_out) of the shooting's last secant [-] (the next solve's start)."""


class _Saturation:
    """Saturation states linear in pressure from the inlet (module docstring)."""

    def __init__(self, fluid: FluidBackend, p0: float) -> None:
        self.p0 = p0
        self.t_dew = float(fluid.T_sat(p0))
        self.t_bub = float(fluid.T_bubble(p0)) if fluid.zeotropic else self.t_dew
        self.h_l = float(fluid.h_liq(p0))
        self.h_v = float(fluid.h_vap(p0))
        self.dt_dew = float(fluid.dTsat_dp(p0))
        self.dt_bub = float(fluid.dTbubble_dp(p0)) if fluid.zeotropic else self.dt_dew
        self.dh_l = float(fluid.dhliq_dp(p0))
        self.dh_v = float(fluid.dhvap_dp(p0))

    def at(self, p: float) -> tuple[float, float, float, float]:
        """``(h_liq, h_vap, T_bubble, T_dew)`` at ``p`` [J/kg, J/kg, K, K]."""
        d = p - self.p0
        return (
            self.h_l + self.dh_l * d,
            self.h_v + self.dh_v * d,
            self.t_bub + self.dt_bub * d,
            self.t_dew + self.dt_dew * d,
        )


def _smooth_max(a: float, b: float) -> float:
    """A smooth maximum of ``a`` and ``b`` within :data:`_OFFSET_K` of the sharp one."""
    d = a - b
    return b + 0.5 * (d + math.sqrt(d * d + 4.0 * _OFFSET_K * _OFFSET_K))


def _exchange(dt1: float, ua: float, r: float) -> float:
    """Counterflow heat flow ``dT1 (1 - exp(-UA R)) / R`` [W] (``dT1 UA`` as ``R -> 0``)."""
    x = ua * r
    if abs(x) < 1e-9:
        return dt1 * ua * (1.0 - 0.5 * x)
    return dt1 * -math.expm1(-x) / r


def _area_to(q_b: float, dt1: float, u: float, r: float) -> float | None:
    """Conductance ``UA_b`` [W/K] that carries ``q_b`` from ``dT1``; None if it cannot."""
    if dt1 <= 0.0:
        return None
    y = q_b * r / dt1
    if abs(y) < 1e-12:
        return q_b / dt1
    if y >= 1.0:
        return None
    return -math.log1p(-y) / r


class _Liquid:
    """Scalar ``cp``, ``h`` and ``T(h)`` of the secondary from its polynomial (fast path).

    The same polynomials as :class:`~workbench.fluids.SecondaryFluid` without its array
    handling; ``T(h)`` by Newton from a nearby temperature. Outside the fluid's range it raises
    :class:`_Outside` (the shooting reads it as the residual's sign).
    """

    def __init__(self, fluid: SecondaryFluid) -> None:
        self.c = fluid.coeffs
        self.hc = tuple(c / (i + 1) for i, c in enumerate(fluid.coeffs))
        self.t_min, self.t_max = fluid.T_min, fluid.T_max

    def cp(self, t: float) -> float:
        theta, out = t - 273.15, 0.0
        for c in reversed(self.c):
            out = out * theta + c
        return out

    def h(self, t: float) -> float:
        theta, out = t - 273.15, 0.0
        for c in reversed(self.hc):
            out = out * theta + c
        return out * theta

    def t_h(self, h: float, t: float) -> float:
        for _ in range(30):
            step = (self.h(t) - h) / self.cp(t)
            t -= step
            if abs(step) < 1e-12 * t:
                break
        if t < self.t_min - 1e-9:
            raise _Outside(-1.0)
        if t > self.t_max + 1e-9:
            raise _Outside(1.0)
        return t


class _SecondaryFilm:
    """The secondary's film coefficient and Reynolds number, quadratic in temperature.

    Evaluated exactly (Martin or Muley-Manglik with the fluid's polynomials) at the ends and
    the middle of the shooting's bracket, once per solve, and interpolated by Lagrange's
    quadratic for every piece: over the few kelvin a secondary spans, its ``h`` is a smooth
    function of temperature (through the viscosity), reproduced to about 0.1 %.
    """

    def __init__(self, model: PlateModel, g_sec: float, lo: float, hi: float) -> None:
        st, liquid = model.secondary_transport, _Liquid(model.secondary)
        lo, hi = max(lo, liquid.t_min), min(hi, liquid.t_max)
        if hi - lo < 1e-3:
            lo, hi = lo - 5e-4, hi + 5e-4
        self.t = (lo, 0.5 * (lo + hi), hi)
        self.h: list[float] = []
        self.re: list[float] = []
        for t in self.t:
            h, re = single_phase_film(model.spec, g_sec, st.rho(t), st.mu(t), st.k(t), liquid.cp(t))
            self.h.append(h)
            self.re.append(re)

    def __call__(self, t: float) -> tuple[float, float]:
        t0, t1, t2 = self.t
        w0 = (t - t1) * (t - t2) / ((t0 - t1) * (t0 - t2))
        w1 = (t - t0) * (t - t2) / ((t1 - t0) * (t1 - t2))
        w2 = (t - t0) * (t - t1) / ((t2 - t0) * (t2 - t1))
        h = w0 * self.h[0] + w1 * self.h[1] + w2 * self.h[2]
        re = w0 * self.re[0] + w1 * self.re[1] + w2 * self.re[2]
        return h, re


class _March:
    """State of one march (pieces appended as it goes)."""

    def __init__(self, model: PlateModel, p_in: float, h_in: float, m: float, m_sec: float,
                 z_ua: float, z_dp: float) -> None:  # fmt: skip
        self.model, self.m, self.m_sec, self.z_ua, self.z_dp = model, m, m_sec, z_ua, z_dp
        spec = model.spec
        g = spec.geometry
        self.sign = 1.0 if model.hot else -1.0
        self.area = g.heat_transfer_area_m2
        self.length = g.plate_length_m
        self.g_ref = m / (g.channels_refrigerant * g.channel_flow_area_m2)
        self.g_sec = m_sec / (g.channels_secondary * g.channel_flow_area_m2)
        self.r_wall = g.wall_resistance_m2_k_w
        self.f_ref = spec.factor("refrigerant_side")
        self.f_sec = spec.factor("secondary_side")
        self.f_dp = spec.factor("refrigerant_pressure_drop") * z_dp
        self.sat_lin = _Saturation(model.fluid, p_in)
        self.sat = model.transport.saturation(p_in)
        self.edge = (
            phase_film(spec, self.g_ref, self.sat.liquid)[0],
            phase_film(spec, self.g_ref, self.sat.vapour)[0],
        )
        self.kernel = TwoPhaseKernel(spec, model.hot, self.g_ref, self.sat, self.edge)
        self.flux = 0.0
        self.dx_per_area = 0.0
        self.liquid = _Liquid(model.secondary)
        self.film: _SecondaryFilm | None = None
        self.far: dict[str, float] = {}
        self.t_sec = 0.5 * (model.secondary.T_min + model.secondary.T_max)

    # -- helpers -----------------------------------------------------------------------------
    def zone(self, p: float, h: float) -> str:
        h_l, h_v, _tb, _td = self.sat_lin.at(p)
        if h >= h_v:
            return "superheated"
        if h <= h_l:
            return "subcooled"
        return "two-phase"

    def t_ref(self, p: float, h: float, zone: str) -> float:
        h_l, h_v, t_b, t_d = self.sat_lin.at(p)
        if zone == "two-phase":
            x = min(max((h - h_l) / (h_v - h_l), 0.0), 1.0)
            return t_b + x * (t_d - t_b)
        return float(self.model.fluid.T_ph(p, h))

    def secondary(self, h_sec: float) -> tuple[float, float, float, float]:
        """``(T, cp, h_film, Re)`` of the secondary at enthalpy ``h_sec``."""
        t = self.liquid.t_h(h_sec, self.t_sec)
        self.t_sec = t
        cp = self.liquid.cp(t)
        if self.film is not None:
            h, re = self.film(t)
            return t, cp, h * self.f_sec, re
        st = self.model.secondary_transport
        h, re = single_phase_film(self.model.spec, self.g_sec, st.rho(t), st.mu(t), st.k(t), cp)
        return t, cp, h * self.f_sec, re

    def phase_props(self, zone: str, t: float) -> PhaseTransport:
        """Single-phase refrigerant properties at ``t`` [K], linear between two records.

        The saturated vapour (liquid) at the inlet pressure and the state at the inlet pressure
        and the far temperature of the zone (the hotter of the refrigerant and secondary inlets
        for vapour, the colder for liquid): the two ends a zone's temperatures lie between, read
        once per solve (the transport memo keeps them), instead of a flash per piece. Inside
        the two ends ``rho``, ``mu``, ``k`` and ``cp`` are linear in temperature (docs).
        """
        near = self.sat.vapour if zone == "superheated" else self.sat.liquid
        t_far = self.far[zone]
        far = self.model.transport.single_phase(self.sat.p, t_far)
        w = min(max((t - near.t) / (t_far - near.t), 0.0), 1.0)
        return PhaseTransport(
            near.p,
            t,
            near.rho + w * (far.rho - near.rho),
            near.mu + w * (far.mu - near.mu),
            near.k + w * (far.k - near.k),
            near.cp + w * (far.cp - near.cp),
        )

    # -- one piece ---------------------------------------------------------------------------
    def piece(
        self, p: float, h: float, zone: str, h_sec: float, area: float
    ) -> tuple[Piece, float, float, float, bool]:
        """Exchange over ``area`` or up to the next saturation line.

        Returns the piece, the refrigerant's end pressure and enthalpy, the secondary's end
        enthalpy, and whether the piece stopped at a saturation line.
        """
        model, spec, sign, m = self.model, self.model.spec, self.sign, self.m
        t_sec, cp_sec, h_sec_film, re_sec = self.secondary(h_sec)
        t_r = self.t_ref(p, h, zone)
        dt1 = sign * (t_r - t_sec)
        inv_c_sec = 1.0 / (self.m_sec * cp_sec)
        h_l, h_v, t_b, t_d = self.sat_lin.at(p)
        length = self.length * area / self.area
        if zone == "two-phase":
            inv_c_ref = (t_d - t_b) / (h_v - h_l) / m
            x0 = (h - h_l) / (h_v - h_l)
            # the last two-phase piece's heat flux and quality change per area start the passes
            x_end = x0 + self.dx_per_area * area
            flux = self.flux if self.flux > 0.0 else abs(dt1) * 2000.0
            for _ in range(FILM_PASSES):
                x_mean = 0.5 * (x0 + min(max(x_end, 0.0), 1.0))
                h_film = self.f_ref * self.kernel.film(x_mean, flux)
                rate = self.f_dp * self.kernel.friction_rate(x_mean)
                dp = rate * length
                shift = -0.5 * sign * self.sat_lin.dt_dew * dp
                u = 1.0 / (1.0 / h_film + self.r_wall + 1.0 / h_sec_film)
                ua = self.z_ua * u * area
                r = inv_c_ref - inv_c_sec
                q = _exchange(dt1 + shift, ua, r)
                flux = max(abs(q) / area, 1.0)
                x_end = (h - sign * q / m - h_l) / (h_v - h_l)
            liq = self.sat.liquid
            re_ref = self.g_ref * spec.hydraulic_diameter_m / liq.mu
            h_bound = h_l if model.hot else h_v
        else:
            t_eval = _smooth_max(t_r, t_d) if zone == "superheated" else -_smooth_max(-t_r, -t_b)
            props = self.phase_props(zone, t_eval)
            h_film0, re_ref = phase_film(spec, self.g_ref, props)
            h_film = self.f_ref * h_film0
            rate = self.f_dp * single_phase_friction_rate(spec, self.g_ref, props.rho, props.mu)
            dp = rate * length
            u = 1.0 / (1.0 / h_film + self.r_wall + 1.0 / h_sec_film)
            ua = self.z_ua * u * area
            r = 1.0 / (m * props.cp) - inv_c_sec
            shift = 0.0
            q = _exchange(dt1, ua, r)
            # the saturation line ahead in the flow direction (none for the last zone)
            if model.hot:
                h_bound = h_v if zone == "superheated" else -math.inf
            else:
                h_bound = h_l if zone == "subcooled" else math.inf
        h_end = h - sign * q / m
        bounded = math.isfinite(h_bound) and sign * (h_end - h_bound) < 0.0
        if bounded:
            q_b = sign * (h - h_bound) * m
            ua_b = _area_to(q_b, dt1 + shift, self.z_ua * u, r) if q_b > 0.0 else 0.0
            if ua_b is not None:
                share = min(max(ua_b / ua, 0.0), 1.0)
                area, ua, q, dp, h_end = area * share, ua * share, q_b, dp * share, h_bound
            else:
                bounded = False
        if area > 0.0 and zone == "two-phase":
            self.flux = max(abs(q) / area, 1.0)
            self.dx_per_area = -sign * q / m / (h_v - h_l) / area
        h_sec_end = h_sec - sign * q / self.m_sec
        dt2 = dt1 + shift * 2.0 - q * r
        piece = Piece(zone, area, q, ua, h_film, h_sec_film, dt1, dt2, dp, re_ref, re_sec)
        return piece, p - dp, h_end, h_sec_end, bounded


def _next_zone(zone: str, hot: bool) -> str:
    if hot:
        return "two-phase" if zone == "superheated" else "subcooled"
    return "two-phase" if zone == "subcooled" else "superheated"


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
    film: _SecondaryFilm | None = None,
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

    Returns
    -------
    MarchResult
        The pieces, the refrigerant outlet and the secondary's end temperature.

    Raises
    ------
    FluidPropertyError
        A property call failed, or the pressure drop takes more than half the inlet pressure.
    """
    st = _March(model, p_in, h_in, m, m_sec, z_ua, z_dp)
    st.film = film
    spec, sign = model.spec, st.sign
    g = spec.geometry
    zone = st.zone(p_in, h_in)
    t_in = st.t_ref(p_in, h_in, zone)
    st.far = {
        "superheated": max(t_in, t_sec_in, st.sat_lin.t_dew + 1.0),
        "subcooled": min(t_in, t_sec_in, st.sat_lin.t_bub - 1.0),
    }
    rho_in = _density(st, p_in, h_in, zone)
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
            zone = _next_zone(zone, model.hot)
            if left <= 1e-12 * seg_area:
                break
        if p < 0.5 * p_in:
            raise FluidPropertyError(
                f"plate exchanger: refrigerant pressure drop exceeds half the inlet pressure "
                f"{p_in:.6g} Pa (mass flow {m:.4g} kg/s)"
            )
    t_end = st.secondary(h_sec)[0]
    rho_out = _density(st, p, h, zone)
    dp_out = st.f_dp * port_half / rho_out
    q = sign * m * (h_in - h)
    return MarchResult(t_end, t_sec_out, h, p - dp_out, q, pieces, dp_in + dp_out)


def _density(st: _March, p: float, h: float, zone: str) -> float:
    """Refrigerant density at a port [kg/m^3] (homogeneous in two phase)."""
    if zone == "two-phase":
        h_l, h_v, _tb, _td = st.sat_lin.at(p)
        x = min(max((h - h_l) / (h_v - h_l), 0.0), 1.0)
        return 1.0 / (x / st.sat.vapour.rho + (1.0 - x) / st.sat.liquid.rho)
    return float(st.model.fluid.rho_ph(p, h))


def secondary_film(
    model: PlateModel, t_ref_in: float, t_sec_in: float, m_sec: float
) -> _SecondaryFilm:
    """The secondary's film coefficient by temperature over the shooting's bracket.

    Parameters
    ----------
    model : PlateModel
        The exchanger.
    t_ref_in : float
        Refrigerant inlet temperature [K] (one end of the bracket).
    t_sec_in : float
        Secondary inlet temperature [K] (the other end).
    m_sec : float
        Secondary mass flow of one exchanger [kg/s].

    Returns
    -------
    callable
        ``T [K] -> (h [W/(m^2 K)], Re [-])``, the quadratic :func:`solve_plate` marches with.
    """
    g = model.spec.geometry
    lo, hi = sorted((t_sec_in, t_ref_in))
    return _SecondaryFilm(model, m_sec / (g.channels_secondary * g.channel_flow_area_m2), lo, hi)


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

    def residual(t: float) -> float:
        try:
            res = march(model, p_in, h_in, m, t_sec_in, m_sec, t, z_ua, z_dp, film)
        except _Outside as out:
            return math.copysign(math.inf, out.direction)
        found[t] = res
        return res.t_sec_end - t_sec_in

    t0 = start if start is not None and lo < start < hi else lo + 0.5 * (hi - lo)
    r_lo, r_hi = -math.inf, math.inf
    x0, r0 = t0, residual(t0)
    if r0 == 0.0:
        return found[x0]
    if r0 < 0.0:
        lo, r_lo = x0, r0
    else:
        hi, r_hi = x0, r0
    if slope is not None and slope > 0.0 and math.isfinite(r0):
        x1 = x0 - r0 / slope
        if not lo < x1 < hi or x1 == x0:
            x1 = x0 - math.copysign(min(1e-3 * span, 0.25 * (hi - lo)), r0)
    else:
        x1 = x0 - math.copysign(min(1e-3 * span, 0.25 * (hi - lo)), r0)
    x_prev, r_prev = x0, r0
    last_slope = slope if slope is not None else math.nan
    for _ in range(_SHOOT_EVALUATIONS):
        r1 = residual(x1)
        if abs(r1) <= tol and x1 in found:
            found[x1].slope = last_slope
            return found[x1]
        if r1 < 0.0:
            lo, r_lo = x1, r1
        else:
            hi, r_hi = x1, r1
        if math.isfinite(r1) and math.isfinite(r_prev) and r1 != r_prev:
            last_slope = (r1 - r_prev) / (x1 - x_prev)
            x_new = x1 - r1 / last_slope
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
            return found[x1]
        x_prev, r_prev, x1 = x1, r1, x_new
    raise FluidPropertyError(
        f"plate exchanger: no secondary outlet temperature in [{lo:.6g}, {hi:.6g}] K closes the "
        f"march (secondary inlet {t_sec_in:.6g} K, refrigerant inlet {t_ref_in:.6g} K)"
    )
