"""The cascade heat exchanger built from brazed plates: two refrigerant streams in counterflow.

Who reads it: the thermal coupling of a cascade whose ``geometry`` is ``brazed_plate``
(:class:`workbench.solver.plate_coupling.PlateCoupling`). The hot circuit's refrigerant
condenses in the refrigerant channels (desuperheating, condensing, subcooling), the cold
circuit's evaporates (and superheats) in the other channels, in counterflow.

**Profile.** The temperatures along the exchanger are those of the UA coupling's zone model
(:class:`~workbench.components.exchangers.zones.coupled_profile.CoupledProfile`): at a heat flow
``Q``, with ``xi`` in ``[0, 1]`` from the hot inlet (where the cold stream leaves)::

    h_hot(xi) = h_hi - xi Q / m_h,    h_cold(xi) = h_co - xi efficiency Q / m_c

cut at both streams' saturation enthalpies and, where either temperature is curved in
enthalpy, into the profile's sub-cuts; both streams at their inlet pressures (the pressure
drops are computed, reported and applied to the coupled coils' outlets, not fed back into the
temperatures). Each interval between two cuts is cut where either stream's film coefficient
starts its blend to single phase (qualities :data:`~.sides.X_BLEND` and ``1 - X_BLEND``: a
bend the pieces must not straddle) and then into pieces of equal heat: :data:`SUB_PIECES`
where the profile already has sub-cuts, :data:`STRAIGHT_PIECES` where both temperatures are
straight (a pure fluid's two-phase stretch on both sides), since the film coefficients still
change with quality there. The counts are fixed, so the area is smooth in ``Q`` and the inlets
(a stretch appears or vanishes with zero width). Temperatures are linear in ``xi`` between
cuts, as in the zone model.

**Area.** A piece carrying ``dq`` between the differences ``dT_a``, ``dT_b`` needs::

    A_k  = dq / (U_k LMTD_k),   1 / U_k = 1 / h_hot,k + t / k_plate + 1 / h_cold,k

with both film coefficients from :class:`~.stream_side.StreamSide` at the piece's mean
enthalpies (two phase: mean quality, and the heat flux ``dq / A_k = U_k LMTD_k``, a fixed point
solved by secant steps to :data:`FLUX_TOLERANCE`; single phase: the piece's mean temperature),
on the corrugated area of the plates between the end plates. ``Q`` solves::

    0 = sum_k A_k(Q, x) / A_plates - 1

(``x`` the inlet states), increasing in ``Q`` and infinite at the pinch limit ``Q_max``: the
exchangers' one root (:func:`~workbench.components.exchangers.zones.root.newton_in_s`, secant
steps in ``s = -ln(1 - Q/Q_max)``), else Brent's method. The conductance the exchanger shows,
``UA_eff = sum_k U_k A_k = sum_k dq_k / LMTD_k``, is the UA the zone model would need for the
same ``Q`` (the same profile): a UA coupling given ``UA_eff`` reproduces ``Q``.

**Pressure drops.** Per piece ``rate_k L_pp A_k / A_plates`` of each stream (Amalfi's
two-phase friction, Martin / Muley-Manglik single phase), plus the ports, half the velocity
heads (:data:`~workbench.correlations.plate_single_phase.PORT_VELOCITY_HEADS`) at each end's
density, as the plate march.

References
----------
Incropera, DeWitt, Bergman, Lavine, Fundamentals of Heat and Mass Transfer, 6th ed., sec. 11.3.
The correlations: docs/correlations_plates_lines.md.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workbench.components.exchangers.plate.sides import X_BLEND
from workbench.components.exchangers.plate.spec import KIND, PlateSpec, parse_plate_spec
from workbench.components.exchangers.plate.stream_side import StreamSide
from workbench.components.exchangers.zones.counterflow import counterflow_ua
from workbench.components.exchangers.zones.coupled_profile import (
    CoupledProfile,
    Cut,
    SaturationMemo,
)
from workbench.components.exchangers.zones.root import bracketed_root, newton_in_s
from workbench.correlations.plate_single_phase import (
    PORT_VELOCITY_HEADS,
    plate_reynolds,
    plate_single_phase_range_warnings,
)
from workbench.correlations.plate_two_phase import plate_two_phase_range_warnings
from workbench.errors import ScenarioError
from workbench.fluids import FluidBackend
from workbench.fluids.transport import Transport, transport_for

__all__ = [
    "FLUX_TOLERANCE",
    "STRAIGHT_PIECES",
    "SUB_PIECES",
    "CascadePiece",
    "CascadePlate",
    "CascadeSolution",
    "CascadeState",
    "cascade_geometry_problems",
    "cascade_range_warnings",
]

STRAIGHT_PIECES = 6
"""Pieces of equal heat an interval with both temperatures straight is cut into (between the
quality blends' ends) [-]."""

SUB_PIECES = 1
"""Pieces of equal heat each interval between the profile's sub-cuts is cut into [-] (the
sub-cuts already follow the curved temperature: two pieces move ``Q`` by 3e-5 to 2e-4 on the
three cascade examples with plates; 6/1 is within 1e-5, 1.1e-4 and 3.4e-4 of 60/16)."""

FLUX_TOLERANCE = 1e-12
"""A piece's heat flux is converged when ``f = U(f) LMTD`` holds to this share [-]."""

_FLUX_STEPS = 40


@dataclass(frozen=True)
class CascadePiece:
    """One piece of the cascade plate exchanger.

    Attributes
    ----------
    q : float
        Heat leaving the hot stream in the piece [W].
    area : float
        Plate area it needs [m^2].
    ua : float
        Its conductance ``U A`` [W/K].
    h_hot, h_cold : float
        Film coefficients of the hot and the cold stream [W/(m^2 K)].
    dp_hot, dp_cold : float
        Channel pressure drops of the two streams over the piece [Pa].
    zone_hot, zone_cold : str
        The streams' phases at the piece's middle.
    dt_a, dt_b : float
        Hot-minus-cold temperature differences at its two ends [K].
    """

    q: float
    area: float
    ua: float
    h_hot: float
    h_cold: float
    dp_hot: float
    dp_cold: float
    zone_hot: str
    zone_cold: str
    dt_a: float
    dt_b: float


@dataclass(frozen=True)
class CascadeSolution:
    """The exchanger at a heat flow: its pieces and what they add up to.

    Attributes
    ----------
    q : float
        Heat leaving the hot stream [W].
    q_max : float
        Pinch limit [W].
    pieces : list of CascadePiece
        Along the exchanger from the hot inlet.
    area : float
        Plate area the pieces need [m^2] (the plates' at the root).
    ua : float
        ``sum U_k A_k`` [W/K].
    dp_hot, dp_cold : float
        Pressure drops of the streams, channels and ports [Pa].
    min_dt : float
        Smallest hot-minus-cold difference at a cut [K].
    """

    q: float
    q_max: float
    pieces: list[CascadePiece]
    area: float
    ua: float
    dp_hot: float
    dp_cold: float
    min_dt: float

    def mean_film(self, hot: bool) -> float:
        """Area-weighted mean film coefficient of a stream [W/(m^2 K)] (0 without pieces)."""
        if self.area <= 0.0 or not math.isfinite(self.area):
            return 0.0
        return sum((p.h_hot if hot else p.h_cold) * p.area for p in self.pieces) / self.area

    def zone_areas(self, hot: bool) -> dict[str, float]:
        """Plate area by the stream's phase [m^2]."""
        out: dict[str, float] = {}
        for p in self.pieces:
            zone = p.zone_hot if hot else p.zone_cold
            out[zone] = out.get(zone, 0.0) + p.area
        return out


class CascadePlate:
    """The hardware and fluids of one cascade plate exchanger (read once).

    Parameters
    ----------
    spec : PlateSpec
        Geometry, correlations and correlation factors.
    hot_fluid, cold_fluid : FluidBackend
        Refrigerants of the hot (condensing) and cold (evaporating) streams.
    efficiency : float
        Share of the hot stream's heat that reaches the cold one [-].

    Raises
    ------
    FluidPropertyError
        A backend without transport properties.
    """

    def __init__(
        self,
        spec: PlateSpec,
        hot_fluid: FluidBackend,
        cold_fluid: FluidBackend,
        efficiency: float,
    ) -> None:
        self.spec, self.hot_fluid, self.cold_fluid, self.efficiency = (
            spec,
            hot_fluid,
            cold_fluid,
            efficiency,
        )
        self.hot_transport: Transport = transport_for(hot_fluid)
        self.cold_transport: Transport = transport_for(cold_fluid)
        self.memo = SaturationMemo()
        g = spec.geometry
        self.area = g.heat_transfer_area_m2
        self.r_wall = g.wall_resistance_m2_k_w

    def state(
        self, hot: tuple[float, float, float], cold: tuple[float, float, float]
    ) -> CascadeState:
        """The exchanger at inlet states ``(p [Pa], h [J/kg], m [kg/s])`` of each stream."""
        return CascadeState(self, hot, cold)


class CascadeState:
    """The exchanger at given inlet states (module docstring): area needed, root, solution."""

    def __init__(
        self,
        plate: CascadePlate,
        hot: tuple[float, float, float],
        cold: tuple[float, float, float],
    ) -> None:
        self.plate = plate
        self.hot, self.cold = hot, cold
        self.profile = CoupledProfile(
            plate.hot_fluid, plate.cold_fluid, hot, cold, plate.efficiency, plate.memo
        )
        self.q_max = self.profile.q_max
        self._flux = 0.0
        self._last: tuple[float, CascadeSolution] | None = None
        if self.q_max <= 0.0:
            return
        far = (self.profile.t_hi, self.profile.t_ci)
        spec = plate.spec
        self.hot_side = StreamSide(spec, plate.hot_transport, True, hot[0], hot[2], far)
        self.cold_side = StreamSide(spec, plate.cold_transport, False, cold[0], cold[2], far)

    # -- one piece -------------------------------------------------------------------------------
    @staticmethod
    def _side(side: StreamSide, h: float, t: float) -> tuple[str, float, float, float]:
        """``(zone, film or 0 in two phase [W/(m^2 K)], friction [Pa/m], quality [-])``.

        What does not depend on the heat flux, read once per piece: a single-phase film and
        both frictions; a two-phase film follows the flux (:meth:`_piece`).
        """
        zone = side.zone(h)
        if zone == "two-phase":
            x = side.quality(h)
            return zone, 0.0, side.f_dp * side.kernel.friction_rate(x), x
        film, rate = side.single_phase(zone, t)
        return zone, film, rate, 0.0

    def _piece(
        self, dq: float, a: tuple[float, float, float, float], b: tuple[float, float, float, float]
    ) -> CascadePiece:
        """A piece between the ends ``(h_hot, h_cold, T_hot, T_cold)`` ``a`` and ``b``."""
        dt_a, dt_b = a[2] - a[3], b[2] - b[3]
        ua = counterflow_ua(dq, dt_a, dt_b)
        h_h, h_c = 0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1])
        t_h, t_c = 0.5 * (a[2] + b[2]), 0.5 * (a[3] + b[3])
        hot, cold, r_wall = self.hot_side, self.cold_side, self.plate.r_wall
        if not math.isfinite(ua) or ua <= 0.0:
            return CascadePiece(dq, math.inf if dq > 0.0 else 0.0, ua, 0.0, 0.0, 0.0, 0.0,
                                hot.zone(h_h), cold.zone(h_c), dt_a, dt_b)  # fmt: skip
        lmtd = dq / ua
        zone_h, film_h, rate_h, x_h = self._side(hot, h_h, t_h)
        zone_c, film_c, rate_c, x_c = self._side(cold, h_c, t_c)
        boil_h, boil_c = zone_h == "two-phase", zone_c == "two-phase"

        def u_of(flux: float) -> tuple[float, float, float]:
            fh = hot.f_film * hot.kernel.film(x_h, flux) if boil_h else film_h
            fc = cold.f_film * cold.kernel.film(x_c, flux) if boil_c else film_c
            return 1.0 / (1.0 / fh + r_wall + 1.0 / fc), fh, fc

        if not (boil_h or boil_c):
            u, fh, fc = u_of(0.0)
        else:  # the flux is the fixed point f = U(f) LMTD (secant steps)
            f_a = self._flux if self._flux > 0.0 else 2000.0 * lmtd
            u, fh, fc = u_of(f_a)
            g_a = u * lmtd - f_a
            f_b = u * lmtd
            for _ in range(_FLUX_STEPS):
                u, fh, fc = u_of(f_b)
                g_b = u * lmtd - f_b
                if abs(g_b) <= FLUX_TOLERANCE * f_b:
                    break
                f_next = f_b - g_b * (f_b - f_a) / (g_b - g_a) if g_b != g_a else u * lmtd
                f_a, g_a, f_b = f_b, g_b, max(f_next, 1e-3 * f_b)
            self._flux = u * lmtd
        area = ua / u
        scale = self.plate.spec.geometry.plate_length_m * area / self.plate.area
        return CascadePiece(dq, area, ua, fh, fc, rate_h * scale, rate_c * scale, zone_h, zone_c,
                            dt_a, dt_b)  # fmt: skip

    # -- the exchanger at a heat flow ------------------------------------------------------------
    def solution(self, q: float) -> CascadeSolution:
        """The pieces at heat flow ``q`` [W] in ``(0, Q_max)`` (remembered for the last ``q``)."""
        if self._last is not None and self._last[0] == q:
            return self._last[1]
        cuts = self.profile.cuts(q)
        self._flux = 0.0
        pieces: list[CascadePiece] = []
        for a, b in itertools.pairwise(cuts):
            n = SUB_PIECES if "sub" in (a.kind, b.kind) else STRAIGHT_PIECES
            shares = [0.0, *self._blend_shares(a, b), 1.0]
            for f0, f1 in itertools.pairwise(shares):
                ends = [_between(a, b, f0 + (f1 - f0) * j / n) for j in range(n + 1)]
                dq = q * (b.xi - a.xi) * (f1 - f0) / n
                for j in range(n):
                    pieces.append(self._piece(dq, ends[j], ends[j + 1]))
        area = sum(p.area for p in pieces)
        dp_h = sum(p.dp_hot for p in pieces)
        dp_c = sum(p.dp_cold for p in pieces)
        if math.isfinite(area):
            first, last = cuts[0], cuts[-1]
            dp_h += self._ports(self.hot_side, self.hot[2], (first.h_hot, first.t_hot),
                                (last.h_hot, last.t_hot))  # fmt: skip
            dp_c += self._ports(self.cold_side, self.cold[2], (last.h_cold, last.t_cold),
                                (first.h_cold, first.t_cold))  # fmt: skip
        sol = CascadeSolution(
            q,
            self.q_max,
            pieces,
            area,
            sum(p.ua for p in pieces),
            dp_h,
            dp_c,
            min(c.t_hot - c.t_cold for c in cuts),
        )
        self._last = (q, sol)
        return sol

    def _blend_shares(self, a: Cut, b: Cut) -> list[float]:
        """Shares of the interval ``a``-``b`` where either stream's film blend begins or ends.

        At the qualities :data:`~.sides.X_BLEND` and ``1 - X_BLEND`` the two-phase coefficient
        starts its blend to the single-phase one: a bend a piece should not straddle.
        """
        found = set()
        for side, h_a, h_b in (
            (self.hot_side, a.h_hot, b.h_hot),
            (self.cold_side, a.h_cold, b.h_cold),
        ):
            h_fg = side.h_vap - side.h_liq
            for x in (X_BLEND, 1.0 - X_BLEND):
                h = side.h_liq + x * h_fg
                f = (h - h_a) / (h_b - h_a) if h_b != h_a else -1.0
                if 1e-9 < f < 1.0 - 1e-9:
                    found.add(f)
        return sorted(found)

    def _ports(
        self, side: StreamSide, m: float, inlet: tuple[float, float], outlet: tuple[float, float]
    ) -> float:
        """Inlet and outlet port pressure drop of a stream [Pa] (half the heads at each end)."""
        half = 0.5 * PORT_VELOCITY_HEADS * (m / self.plate.spec.geometry.port_area_m2) ** 2 / 2.0
        return side.f_dp * half * (1.0 / side.density(*inlet) + 1.0 / side.density(*outlet))

    def area_needed(self, q: float) -> float:
        """Plate area the exchanger needs to carry ``q`` [W] (``inf`` at or past a pinch) [m^2]."""
        if q <= 0.0:
            return 0.0
        if q >= self.q_max:
            return math.inf
        return self.solution(q).area

    def solve(self, q_guess: float | None) -> float:
        """The heat flow [W] at which the pieces need the plates' area (0 without exchange)."""
        if self.q_max <= 0.0:
            return 0.0
        a_plates = self.plate.area

        def residual(q: float) -> tuple[float, float | None]:
            area = self.area_needed(q)
            if math.isnan(area):
                return math.inf, None
            return area / a_plates - 1.0, None

        q = newton_in_s(residual, self.q_max, q_guess)
        return q if q is not None else bracketed_root(residual, self.q_max, q_guess)


def _between(a: Cut, b: Cut, f: float) -> tuple[float, float, float, float]:
    """``(h_hot, h_cold, T_hot, T_cold)`` at the share ``f`` from cut ``a`` to cut ``b``."""
    return (
        a.h_hot + f * (b.h_hot - a.h_hot),
        a.h_cold + f * (b.h_cold - a.h_cold),
        a.t_hot + f * (b.t_hot - a.t_hot),
        a.t_cold + f * (b.t_cold - a.t_cold),
    )


def cascade_geometry_problems(geometry: Any) -> list[tuple[str, str]]:
    """Problems of a thermal coupling's ``geometry`` as ``(subpath, message)`` (``.plates``...).

    Only ``brazed_plate`` builds a cascade exchanger; ``subpath`` is ``""`` or ``.<key>``.
    """
    if not isinstance(geometry, Mapping) or geometry.get("kind") != KIND:
        kind = geometry.get("kind") if isinstance(geometry, Mapping) else None
        sub = ".kind" if isinstance(geometry, Mapping) else ""
        return [(sub, f"a thermal coupling's geometry must have kind {KIND!r}, got {kind!r}")]
    try:
        parse_plate_spec(geometry, "")
    except ScenarioError as exc:
        return [(i.path.removeprefix("geometry"), i.message) for i in exc.issues]
    return []


def cascade_range_warnings(state: CascadeState, sol: CascadeSolution, label: str) -> list[str]:
    """Correlations used outside their fitted ranges, each naming the exchanger and stream.

    The single-phase Reynolds numbers of each stream's vapour and liquid zones at their two ends
    (the saturated and the far state), and the two-phase correlation of each stream at the
    plates' chevron angle (as the plate condenser and evaporator warn).
    """
    spec = state.plate.spec
    g = spec.geometry
    found: list[str] = []
    for side, hot, name in ((state.hot_side, True, "hot"), (state.cold_side, False, "cold")):
        zones = {p.zone_hot if hot else p.zone_cold for p in sol.pieces if p.area > 0.0}
        for zone in sorted(zones - {"two-phase"}):
            near = side.sat.vapour if zone == "superheated" else side.sat.liquid
            ends = []
            for props in (near, side.far[zone]):
                re = plate_reynolds(side.mass_flux, spec.hydraulic_diameter_m, props.mu)
                texts = plate_single_phase_range_warnings(
                    re, g.chevron_angle_deg, g.enlargement_factor, spec.single_phase
                )
                ends.append((re, texts))
            (_, at_sat), (re_far, at_far) = ends
            common = [t for t in at_sat if t in at_far]
            own_sat = [t for t in at_sat if t not in at_far]
            own_far = [t for t in at_far if t not in at_sat]
            if own_sat and own_far:  # the Reynolds number out at both ends: one line, both values
                own_sat = [f"{t} at the saturated end ({re_far:.4g} at the other)" for t in own_sat]
                own_far = []
            for text in common + own_sat + own_far:
                found.append(f"{label}, {name} stream {zone}: {text}")
        if "two-phase" in zones:
            method = spec.condensation if hot else spec.evaporation
            for text in plate_two_phase_range_warnings(method, g.chevron_angle_deg):
                found.append(f"{label}, {name} stream two phase: {text}")
    return list(dict.fromkeys(found))
