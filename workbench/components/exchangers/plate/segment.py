"""One piece of the plate march: a counterflow step in one phase (the equations of :mod:`.march`).

Who reads it: :func:`workbench.components.exchangers.plate.march.march`, which walks the
segments with a :class:`Marcher`. A piece exchanges over its area, or up to the next saturation
line (the area that takes inverts the same closed form); its refrigerant film coefficient comes
from :class:`~.kernel.TwoPhaseKernel` (two phase: the piece's heat flow is the fixed point of
its heat flux and mean quality, solved by secant steps to :data:`FIXED_POINT_TOLERANCE`, so a
piece never depends on where its iteration started) or :mod:`.sides` (single phase), the secondary's from
:mod:`.secondary_side`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from workbench.components.exchangers.plate.kernel import TwoPhaseKernel
from workbench.components.exchangers.plate.records import Piece, PlateModel
from workbench.components.exchangers.plate.secondary_side import SecondaryFilm, liquid_of
from workbench.components.exchangers.plate.sides import (
    phase_film,
    single_phase_film,
    single_phase_friction_rate,
)
from workbench.fluids import FluidBackend
from workbench.fluids.transport import PhaseTransport, SaturationTransport

__all__ = [
    "FIXED_POINT_EVALUATIONS",
    "FIXED_POINT_TOLERANCE",
    "Marcher",
    "Saturation",
    "area_to",
    "density",
    "exchange",
    "next_zone",
    "smooth_max",
]

FIXED_POINT_TOLERANCE = 1e-13
"""A two-phase piece's heat flow is converged when ``q = Q(q)`` holds to this share [-]."""

FIXED_POINT_EVALUATIONS = 30
"""Secant steps of that fixed point at most (usually three or four) [-]."""

_INLET_MEMO = 64
"""Entries a :class:`~.records.PlateModel` keeps (inlet records, inlet flashes, secondary films;
then it starts afresh): a cold solve of the example makes about 60."""

_CLEAR_J_KG = 50.0
"""A single-phase state this far from the linear saturation lines [J/kg] is read on its known
side of the dome (:meth:`Marcher.clear_of_dome`); the lines' own error is about 1 J/kg."""

_OFFSET_K = 0.1
"""Single-phase properties are read at least about this far from the saturation line [K]."""


class Saturation:
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


def smooth_max(a: float, b: float) -> float:
    """A smooth maximum of ``a`` and ``b`` within :data:`_OFFSET_K` of the sharp one."""
    d = a - b
    return b + 0.5 * (d + math.sqrt(d * d + 4.0 * _OFFSET_K * _OFFSET_K))


def exchange(dt1: float, ua: float, r: float) -> float:
    """Counterflow heat flow ``dT1 (1 - exp(-UA R)) / R`` [W] (``dT1 UA`` as ``R -> 0``)."""
    x = ua * r
    if abs(x) < 1e-9:
        return dt1 * ua * (1.0 - 0.5 * x)
    return dt1 * -math.expm1(-x) / r


def area_to(q_b: float, dt1: float, u: float, r: float) -> float | None:
    """Conductance ``UA_b`` [W/K] that carries ``q_b`` from ``dT1``; None if it cannot."""
    if dt1 <= 0.0:
        return None
    y = q_b * r / dt1
    if abs(y) < 1e-12:
        return q_b / dt1
    if y >= 1.0:
        return None
    return -math.log1p(-y) / r


class Marcher:
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
        # at or above the critical pressure (a gas cooler) nothing condenses: one zone
        self.supercritical = p_in >= model.fluid.p_crit
        if not self.supercritical:
            # the same for every march of a shooting: read once per inlet (PlateModel.inlet_memo)
            memo = model.inlet_memo
            found = memo.get((p_in, m))
            if found is None:
                sat = model.transport.saturation(p_in)
                edge = (
                    phase_film(spec, self.g_ref, sat.liquid)[0],
                    phase_film(spec, self.g_ref, sat.vapour)[0],
                )
                kernel = TwoPhaseKernel(spec, model.hot, self.g_ref, sat, edge)
                found = (Saturation(model.fluid, p_in), sat, edge, kernel)
                if len(memo) >= _INLET_MEMO:
                    memo.clear()  # the march's own inlet entry is made afresh after this
                memo[(p_in, m)] = found
            self.sat_lin: Saturation = found[0]
            self.sat: SaturationTransport = found[1]
            self.edge: tuple[float, float] = found[2]
            self.kernel: TwoPhaseKernel = found[3]
        self.outside: Callable[[float, float, bool], tuple[float, float]] | None = getattr(
            model.fluid, "T_rho_ph_outside", None
        )
        """``(T [K], rho [kg/m^3])`` of a state on a known side of the dome, without the
        saturation flashes of ``T_ph`` at each piece's new pressure, where the backend has it
        (:meth:`~workbench.fluids.coolprop.backend.CoolPropBackend.T_rho_ph_outside`)."""
        self.flux = 0.0
        self.flux_before = 0.0
        self.fp_slope = 0.0
        self.known_t: tuple[float, float, float] | None = None
        """``(p, h, T)`` of the first piece's start, read once per inlet (:func:`.march.march`)."""
        self.liquid = liquid_of(model.secondary)
        self.film: SecondaryFilm | None = None
        self.far: dict[str, float] = {}
        self.t_sec = 0.5 * (model.secondary.T_min + model.secondary.T_max)
        self._h_sec_last: float | None = None
        self._cp_sec_last = 1.0
        self.hint: list[tuple[float, float] | None] | None = None
        """A nearby march's ``(flux [W/m^2], dQ/dq [-])`` of each two-phase piece (else None)
        by piece index: where each piece's fixed point starts (:func:`.march.march`)."""
        self.fixed_points: list[tuple[float, float] | None] = []
        """This march's own, piece by piece (the next march's :attr:`hint`)."""
        self.hint_ratio = 1.0
        """The last hinted piece's converged flux over its hint's [-]."""

    # -- helpers -----------------------------------------------------------------------------
    def zone(self, p: float, h: float) -> str:
        """The phase of ``(p, h)``: ``superheated``, ``two-phase``, ``subcooled``, ``supercritical``."""
        if self.supercritical:
            return "supercritical"
        h_l, h_v, _tb, _td = self.sat_lin.at(p)
        if h >= h_v:
            return "superheated"
        if h <= h_l:
            return "subcooled"
        return "two-phase"

    def t_ref(self, p: float, h: float, zone: str) -> float:
        """Refrigerant temperature [K] at ``(p, h)`` in ``zone`` (linear in the dome)."""
        if zone != "two-phase":
            known = self.known_t
            if known is not None and known[0] == p and known[1] == h:
                return known[2]
            if self.clear_of_dome(p, h, zone):
                return self.outside(p, h, zone == "subcooled")[0]  # type: ignore[misc]
            return float(self.model.fluid.T_ph(p, h))
        h_l, h_v, t_b, t_d = self.sat_lin.at(p)
        if zone == "two-phase":
            x = min(max((h - h_l) / (h_v - h_l), 0.0), 1.0)
            return t_b + x * (t_d - t_b)
        return float(self.model.fluid.T_ph(p, h))

    def clear_of_dome(self, p: float, h: float, zone: str) -> bool:
        """Whether the backend may read ``(p, h)`` on its zone's known side of the dome.

        True when the state lies more than :data:`_CLEAR_J_KG` outside the linear saturation
        lines on its zone's side and the backend has :attr:`outside`. A piece that starts on a
        line (where the last one stopped) is read by ``T_ph``, which puts it on the dome as the
        linear lines miss it by up to about 1 J/kg (a metastable state there would be up to
        4e-4 K off).
        """
        if self.outside is None or zone == "supercritical":
            return False
        h_l, h_v, _tb, _td = self.sat_lin.at(p)
        if zone == "superheated":
            return h > h_v + _CLEAR_J_KG
        return h < h_l - _CLEAR_J_KG

    def secondary(self, h_sec: float) -> tuple[float, float, float, float]:
        """``(T, cp, h_film, Re)`` of the secondary at enthalpy ``h_sec``.

        Newton on the enthalpy from the last piece's temperature moved by its enthalpy change
        over its ``cp`` (one step fewer than from the last temperature itself).
        """
        start = self.t_sec
        if self._h_sec_last is not None:
            start += (h_sec - self._h_sec_last) / self._cp_sec_last
        t = self.liquid.t_h(h_sec, start)
        cp = self.liquid.cp(t)
        self.t_sec, self._h_sec_last, self._cp_sec_last = t, h_sec, cp
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

    def _supercritical(
        self, p: float, h: float, t_r: float, dt1: float, inv_c_sec: float, area: float,
        length: float, h_sec_film: float, re_sec: float, h_sec: float,
    ) -> tuple[Piece, float, float, float, bool]:  # fmt: skip
        """A piece above the critical pressure: single phase, cp taken over the piece.

        Near the pseudo-critical temperature ``cp`` changes several-fold over a few kelvin, so
        the capacity rate of the closed form is the piece's own secant ``(h - h_end) /
        (T - T_end)`` after a first pass with ``cp`` at the start; the properties of the film
        coefficient and the friction are read at the start (a flash per piece, no interpolation).
        """
        model, spec, sign, m = self.model, self.model.spec, self.sign, self.m
        props = model.transport.single_phase(p, t_r)
        h_film0, re_ref = phase_film(spec, self.g_ref, props)
        h_film = self.f_ref * h_film0
        rate = self.f_dp * single_phase_friction_rate(spec, self.g_ref, props.rho, props.mu)
        dp = rate * length
        u = 1.0 / (1.0 / h_film + self.r_wall + 1.0 / h_sec_film)
        ua = self.z_ua * u * area
        cp = props.cp
        r = 1.0 / (m * cp) - inv_c_sec
        q = exchange(dt1, ua, r)
        h_end = h - sign * q / m
        t_end = float(model.fluid.T_ph(p - dp, h_end))
        if abs(t_r - t_end) > 1e-9:
            cp = max((h - h_end) / (t_r - t_end), 1.0)
            r = 1.0 / (m * cp) - inv_c_sec
            q = exchange(dt1, ua, r)
            h_end = h - sign * q / m
        h_sec_end = h_sec - sign * q / self.m_sec
        piece = Piece("supercritical", area, q, ua, h_film, h_sec_film, dt1, dt1 - q * r, dp,
                      re_ref, re_sec)  # fmt: skip
        return piece, p - dp, h_end, h_sec_end, False

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
        inv_c_sec = 1.0 / (self.m_sec * cp_sec)
        length = self.length * area / self.area
        if zone == "supercritical":
            self.fixed_points.append(None)
            t_r = self.t_ref(p, h, zone)
            dt1 = sign * (t_r - t_sec)
            return self._supercritical(
                p, h, t_r, dt1, inv_c_sec, area, length, h_sec_film, re_sec, h_sec
            )
        h_l, h_v, t_b, t_d = self.sat_lin.at(p)
        if zone == "two-phase":
            # the refrigerant temperature as t_ref's, without reading the lines twice
            dh_lv = h_v - h_l
            x0 = (h - h_l) / dh_lv
            x_s = min(max(x0, 0.0), 1.0)
            t_r = t_b + x_s * (t_d - t_b)
            dt1 = sign * (t_r - t_sec)
            inv_c_ref = (t_d - t_b) / dh_lv / m
            r = inv_c_ref - inv_c_sec
            film_friction = self.kernel.film_friction
            f_ref, f_dp, r_wall, z_ua = self.f_ref, self.f_dp, self.r_wall, self.z_ua
            inv_h_sec = 1.0 / h_sec_film
            shift_per_dp = -0.5 * sign * self.sat_lin.dt_dew
            expm1 = math.expm1

            # the heat flow is the fixed point q = Q(q): from the same piece of a nearby march
            # (hint) or the last two pieces' fluxes extrapolated, a Newton step with that
            # piece's (or the last piece's) dQ/dq, then secant steps, to FIXED_POINT_TOLERANCE,
            # so the piece does not depend on the start (two evaluations a piece from a close
            # hint, four from the last fluxes). Q(q) is written out in the loop (its flux and
            # mean quality, then exchange() in the same operations and order).
            hint = self.hint
            n_done = len(self.fixed_points)
            known = hint[n_done] if hint and n_done < len(hint) else None
            if known is not None:  # the same piece of a nearby march, and its dQ/dq, the
                # flux scaled as the last piece's moved from the nearby march's
                fp_slope = known[1]
                q_t = known[0] * self.hint_ratio * area * math.copysign(1.0, dt1)
            else:
                fp_slope = self.fp_slope
                if self.flux > 0.0:  # the last two pieces' fluxes extrapolated (equal areas)
                    guess = (
                        2.0 * self.flux - self.flux_before if self.flux_before > 0.0 else self.flux
                    )
                    guess = min(max(guess, 0.5 * self.flux), 2.0 * self.flux)
                else:
                    guess = abs(dt1) * 2000.0
                q_t = guess * area * math.copysign(1.0, dt1)
            last_slope = fp_slope
            first = True
            q_a = g_a = 0.0
            for k in range(FIXED_POINT_EVALUATIONS + 1):
                flux = max(abs(q_t) / area, 1.0)
                x_end = (h - sign * q_t / m - h_l) / dh_lv
                x_e = min(max(x_end, 0.0), 1.0)
                # Simpson's rule over the piece (quality linear in its heat): the film as
                # 1/h at both ends and the middle, the friction rate likewise
                film_0, rate_0 = film_friction(x_s, flux)
                film, rate = film_friction(0.5 * (x0 + x_e), flux)
                film_1, rate_1 = film_friction(x_e, flux)
                film = 6.0 / (1.0 / film_0 + 4.0 / film + 1.0 / film_1)
                rate = (rate_0 + 4.0 * rate + rate_1) / 6.0
                h_film = f_ref * film
                dp = f_dp * rate * length
                shift = shift_per_dp * dp
                u = 1.0 / (1.0 / h_film + r_wall + inv_h_sec)
                ua = z_ua * u * area
                y = ua * r
                if abs(y) < 1e-9:
                    q = (dt1 + shift) * ua * (1.0 - 0.5 * y)
                else:
                    q = (dt1 + shift) * -expm1(-y) / r
                g = q - q_t
                if k == 0:
                    # the first step: Newton's with the known dQ/dq, else the fixed-point step
                    q_a, g_a = q_t, g
                    q_t = q_t + g / (1.0 - fp_slope) if abs(fp_slope) < 0.9 else q
                    continue
                if abs(g) <= FIXED_POINT_TOLERANCE * max(abs(q), 1e-9):
                    break
                if g != g_a and q_t != q_a:
                    slope = (g - g_a) / (q_t - q_a)
                    last_slope = slope + 1.0
                    if first:
                        self.fp_slope = last_slope
                        first = False
                    q_next = q_t - g / slope
                else:
                    q_next = q
                q_a, g_a, q_t = q_t, g, q_next
            record: tuple[float, float] | None = (max(abs(q) / area, 1.0), last_slope)
            if known is not None:
                self.hint_ratio = max(abs(q) / area, 1.0) / known[0]
            liq = self.sat.liquid
            re_ref = self.g_ref * spec.hydraulic_diameter_m / liq.mu
            h_bound = h_l if model.hot else h_v
        else:
            t_r = self.t_ref(p, h, zone)
            dt1 = sign * (t_r - t_sec)
            t_eval = smooth_max(t_r, t_d) if zone == "superheated" else -smooth_max(-t_r, -t_b)
            props = self.phase_props(zone, t_eval)
            h_film0, re_ref = phase_film(spec, self.g_ref, props)
            h_film = self.f_ref * h_film0
            rate = self.f_dp * single_phase_friction_rate(spec, self.g_ref, props.rho, props.mu)
            dp = rate * length
            u = 1.0 / (1.0 / h_film + self.r_wall + 1.0 / h_sec_film)
            ua = self.z_ua * u * area
            r = 1.0 / (m * props.cp) - inv_c_sec
            shift = 0.0
            record = None
            q = exchange(dt1, ua, r)
            # the saturation line ahead in the flow direction (none for the last zone)
            if model.hot:
                h_bound = h_v if zone == "superheated" else -math.inf
            else:
                h_bound = h_l if zone == "subcooled" else math.inf
        h_end = h - sign * q / m
        bounded = math.isfinite(h_bound) and sign * (h_end - h_bound) < 0.0
        if bounded:
            # a piece that starts past its line already (the line moved with the last piece's
            # pressure drop, by dh_sat/dp dp: the previous segment ended within that of it) is
            # empty and leaves the state as it is; moving it back onto the line took a heat
            # flow of the wrong sign (0.23 W on the example's evaporator) and made the march
            # jump where a saturation point crosses a segment end
            q_b = max(sign * (h - h_bound) * m, 0.0)
            ua_b = area_to(q_b, dt1 + shift, self.z_ua * u, r) if q_b > 0.0 else 0.0
            if ua_b is not None:
                share = min(max(ua_b / ua, 0.0), 1.0)
                h_end = h - sign * q_b / m if q_b == 0.0 else h_bound
                area, ua, q, dp = area * share, ua * share, q_b, dp * share
            else:
                bounded = False
        self.fixed_points.append(record)
        if area > 0.0 and zone == "two-phase":
            self.flux_before = self.flux if not bounded else 0.0
            self.flux = max(abs(q) / area, 1.0)
        h_sec_end = h_sec - sign * q / self.m_sec
        dt2 = dt1 + shift * 2.0 - q * r
        piece = Piece(zone, area, q, ua, h_film, h_sec_film, dt1, dt2, dp, re_ref, re_sec)
        return piece, p - dp, h_end, h_sec_end, bounded


def next_zone(zone: str, hot: bool) -> str:
    """The zone after ``zone`` along the refrigerant path of a condenser or evaporator."""
    if hot:
        return "two-phase" if zone == "superheated" else "subcooled"
    return "two-phase" if zone == "subcooled" else "superheated"


def density(st: Marcher, p: float, h: float, zone: str) -> float:
    """Refrigerant density at a port [kg/m^3] (homogeneous in two phase)."""
    if zone == "supercritical":
        return float(st.model.fluid.rho_ph(p, h))
    if zone == "two-phase":
        h_l, h_v, _tb, _td = st.sat_lin.at(p)
        x = min(max((h - h_l) / (h_v - h_l), 0.0), 1.0)
        return 1.0 / (x / st.sat.vapour.rho + (1.0 - x) / st.sat.liquid.rho)
    if st.clear_of_dome(p, h, zone):
        return st.outside(p, h, zone == "subcooled")[1]  # type: ignore[misc]
    return float(st.model.fluid.rho_ph(p, h))
