"""The cascade heat exchanger between two refrigerant streams: its profile and heat flow.

A thermal coupling (:mod:`workbench.solver.couplings`) joins a hot refrigerant stream
``(p_h, h_hi, m_h)`` and a cold one ``(p_c, h_ci, m_c)`` (possibly of another fluid) in a
counterflow exchanger of conductance ``UA``; of the heat ``Q`` leaving the hot stream,
``efficiency * Q`` reaches the cold one. Along the exchanger, at the position ``xi`` in
``[0, 1]`` (0 at the hot inlet, where the cold stream leaves)::

    h_hot(xi)  = h_hi - xi Q / m_h,      h_cold(xi) = h_co - xi efficiency Q / m_c,
    h_co       = h_ci + efficiency Q / m_c

Both streams are cut at their saturation enthalpies; a segment where either side's
temperature is curved in enthalpy (single phase, a zeotrope's glide) is cut again into
:data:`SUB_CUTS` equal steps of ``xi`` (sub-cuts, whose two temperatures both move with ``Q``);
between two cuts both capacity rates are taken constant, so each segment is a counterflow zone
needing ``q_k / LMTD_k`` (epsilon-NTU, :mod:`workbench.components.exchangers.zones.counterflow`), and ``Q``
solves::

    0 = UA_z(Q, x) - UA,     UA_z = sum_k Q (xi_k+1 - xi_k) / LMTD(dT_k, dT_k+1)

with ``x`` the inlet states and ``dT_j`` the hot-minus-cold temperature at cut ``j``. ``Q`` lies
in ``(0, Q_max)``, the end-temperature limit (the hot outlet at the cold inlet temperature, or
the cold outlet at the hot inlet temperature).

At each cut one side's temperature is fixed by the cut itself (a saturation temperature, an
inlet) and only the other side's moves with ``Q``: an evaluation costs one ``T(p, h)`` per cut
(saturation states are remembered per pressure by :class:`SaturationMemo`). The root is found
by the exchangers' one root (:func:`~workbench.components.exchangers.zones.root.newton_in_s`):
Newton's method in ``s = -ln(1 - Q/Q_max)`` on ``UA_z/UA - 1`` with the slope ``dUA_z/dQ`` (the LMTD partials and ``dT/dh`` at the moving ends, the latter as the cut
states' own Newton iterations left it, to about 1e-6), inside a bracket that bisects when a
step leaves it or meets an internal pinch. The derivatives of the root for the
Newton system's Jacobian, ``dQ/dx = -(dUA_z/dx) / (dUA_z/dQ)`` by the implicit function
theorem on the same cuts, are in :mod:`workbench.components.exchangers.zones.coupled_jacobian`.

References
----------
Incropera, DeWitt, Bergman, Lavine, Fundamentals of Heat and Mass Transfer, 6th ed., sec. 11.3
(LMTD) and 11.4 (counterflow).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

from workbench.components.exchangers.zones.counterflow import counterflow_ua, lmtd_partials
from workbench.components.exchangers.zones.pieces import glide_pieces, single_phase_pieces
from workbench.components.exchangers.zones.root import Residual, bracketed_root, newton_in_s
from workbench.components.exchangers.zones.zone_profile import enthalpy_at
from workbench.fluids import FluidBackend

__all__ = [
    "SUB_CUTS",
    "CoupledProfile",
    "CoupledResult",
    "Cut",
    "SaturationMemo",
    "coupled_heat_flow",
    "coupled_root",
]

SUB_CUTS = 8
"""Most equal steps a segment whose temperature is curved on either side (single phase, a
zeotrope's glide) is cut into [-]: eight straight pieces follow CO2's desuperheating curve to
about 0.1 % of the conductance where one straight segment was up to 3 % off; a fluid whose
curve bends less takes fewer (:mod:`workbench.components.exchangers.zones.pieces`)."""


@dataclass(frozen=True)
class CoupledResult:
    """Heat flow between two refrigerant streams (a cascade heat exchanger).

    Attributes
    ----------
    q : float
        Heat leaving the hot refrigerant [W].
    q_cold : float
        Heat reaching the cold refrigerant, ``efficiency * q`` [W].
    min_dt : float
        Smallest hot-minus-cold temperature difference along the exchanger [K].
    zones : list of tuple
        ``(q [W], ua [W/K])`` per segment.
    q_max : float
        Pinch limit [W].
    """

    q: float
    q_cold: float
    min_dt: float
    zones: list[tuple[float, float]]
    q_max: float


class SaturationMemo:
    """Saturation states and slopes of a fluid per pressure, kept between evaluations.

    A coupling meets the same two pressures at every evaluation of a Newton iteration (the
    residuals, the Jacobian, the results); the backend remembers them too, but each look-up
    there is a counted property call.
    """

    _SIZE = 16

    def __init__(self) -> None:
        self._states: dict[tuple[int, float], tuple[float, float, float, float]] = {}
        self._slopes: dict[tuple[int, float], tuple[float, float, float, float]] = {}

    def states(self, fluid: FluidBackend, p: float) -> tuple[float, float, float, float]:
        """``(h_liq [J/kg], h_vap [J/kg], T at h_liq [K], T at h_vap [K])`` at ``p`` [Pa]."""
        key = (id(fluid), p)
        found = self._states.get(key)
        if found is None:
            hl, hv = float(fluid.h_liq(p)), float(fluid.h_vap(p))
            found = (hl, hv, float(fluid.T_ph(p, hl)), float(fluid.T_ph(p, hv)))
            _put(self._states, key, found, self._SIZE)
        return found

    def slopes(self, fluid: FluidBackend, p: float) -> tuple[float, float, float, float]:
        """``(dh_liq/dp, dh_vap/dp [J/kg/Pa], dT_bubble/dp, dT_dew/dp [K/Pa])`` at ``p``."""
        key = (id(fluid), p)
        found = self._slopes.get(key)
        if found is None:
            found = (
                float(fluid.dhliq_dp(p)),
                float(fluid.dhvap_dp(p)),
                float(fluid.dTbubble_dp(p)),
                float(fluid.dTsat_dp(p)),
            )
            _put(self._slopes, key, found, self._SIZE)
        return found


_SatKey = tuple[int, float]
_SatValue = tuple[float, float, float, float]


def _put(memo: dict[_SatKey, _SatValue], key: _SatKey, value: _SatValue, size: int) -> None:
    """``memo[key] = value``, dropping the oldest entry when ``memo`` holds ``size``."""
    if len(memo) >= size:
        del memo[next(iter(memo))]
    memo[key] = value


@dataclass
class Cut:
    """One cut of the profile: position, the side it fixes, both sides' states."""

    xi: float
    kind: str  # "in" (xi = 0), "out" (xi = 1), "hot" / "cold" (a saturation boundary), "sub"
    which: int  # the boundary: 0 the liquid, 1 the vapour line (for "hot" / "cold")
    h_hot: float
    h_cold: float
    t_hot: float
    t_cold: float
    share: float = 0.0  # a "sub" cut: its place between the cuts around it [-]


class CoupledProfile:
    """The exchanger's temperature profile at trial heat flows (see the module docstring).

    Parameters
    ----------
    fluid, cold_fluid : FluidBackend
        Refrigerants of the hot and the cold stream.
    hot, cold : tuple of float
        ``(p [Pa], h_in [J/kg], m [kg/s])`` of each stream.
    efficiency : float
        Share of the hot stream's heat that reaches the cold one [-].
    memo : SaturationMemo, optional
        Saturation states kept between profiles (a new one when not given).

    Attributes
    ----------
    q_max : float
        End-temperature limit of the heat flow [W]; 0 when the streams cannot exchange heat
        (then nothing else is computed).
    """

    def __init__(
        self,
        fluid: FluidBackend,
        cold_fluid: FluidBackend,
        hot: tuple[float, float, float],
        cold: tuple[float, float, float],
        efficiency: float,
        memo: SaturationMemo | None = None,
    ) -> None:
        self.fh, self.fc = fluid, cold_fluid
        self.p_h, self.h_hi, self.m_h = hot
        self.p_c, self.h_ci, self.m_c = cold
        self.eff = efficiency
        self.memo = memo if memo is not None else SaturationMemo()
        self.t_hi = float(fluid.T_ph(self.p_h, self.h_hi))
        self.t_ci = float(cold_fluid.T_ph(self.p_c, self.h_ci))
        self.q_max = 0.0
        self.last: tuple[float, list[Cut]] | None = None
        if self.t_hi <= self.t_ci or self.m_h <= 0.0 or self.m_c <= 0.0 or efficiency <= 0.0:
            return
        hl_h, hv_h, tl_h, tv_h = self.memo.states(fluid, self.p_h)
        hl_c, hv_c, tl_c, tv_c = self.memo.states(cold_fluid, self.p_c)
        self.sat_h, self.sat_c = (hl_h, hv_h, tl_h, tv_h), (hl_c, hv_c, tl_c, tv_c)
        self.h_ho_min = enthalpy_at(fluid, self.p_h, self.t_ci, hl_h, hv_h, tl_h, tv_h)
        self.h_co_max = enthalpy_at(cold_fluid, self.p_c, self.t_hi, hl_c, hv_c, tl_c, tv_c)
        q_hot = self.m_h * (self.h_hi - self.h_ho_min)
        q_cold = self.m_c * (self.h_co_max - self.h_ci) / efficiency
        self.hot_limits = q_hot <= q_cold
        self.q_max = max(min(q_hot, q_cold), 0.0)

    # == the profile at a heat flow ================================================================
    def cuts(self, q: float) -> list[Cut]:
        """The cuts at heat flow ``q`` [W] > 0, in order of ``xi`` (remembered for the last q)."""
        if self.last is not None and self.last[0] == q:
            return self.last[1]
        fh, fc, p_h, p_c, h_hi, h_ci = self.fh, self.fc, self.p_h, self.p_c, self.h_hi, self.h_ci
        dh_h, dh_c = q / self.m_h, self.eff * q / self.m_c
        h_ho, h_co = h_hi - dh_h, h_ci + dh_c
        found: dict[float, tuple[str, int]] = {0.0: ("in", 0), 1.0: ("out", 0)}
        for which in (1, 0):
            hb = self.sat_h[which]
            if h_ho < hb < h_hi:
                found.setdefault((h_hi - hb) / dh_h, ("hot", which))
        for which in (1, 0):
            cb = self.sat_c[which]
            if h_ci < cb < h_co:
                found.setdefault((h_co - cb) / dh_c, ("cold", which))
        primary = []
        for xi in sorted(found):
            kind, which = found[xi]
            if kind == "in":
                cut = Cut(0.0, kind, 0, h_hi, h_co, self.t_hi, float(fc.T_ph(p_c, h_co)))
            elif kind == "out":
                cut = Cut(1.0, kind, 0, h_ho, h_ci, float(fh.T_ph(p_h, h_ho)), self.t_ci)
            elif kind == "hot":
                hc = h_co - xi * dh_c
                t_b = self.sat_h[2 + which]
                cut = Cut(xi, kind, which, self.sat_h[which], hc, t_b, float(fc.T_ph(p_c, hc)))
            else:
                hh = h_hi - xi * dh_h
                t_b = self.sat_c[2 + which]
                cut = Cut(xi, kind, which, hh, self.sat_c[which], float(fh.T_ph(p_h, hh)), t_b)
            primary.append(cut)
        cuts = [primary[0]]
        for a, b in itertools.pairwise(primary):
            pieces = self._pieces(a, b)
            if pieces > 1:  # sub-cuts at equal steps: the curve in straight pieces
                for j in range(1, pieces):
                    f = j / pieces
                    xi = a.xi + f * (b.xi - a.xi)
                    hh, hc = h_hi - xi * dh_h, h_co - xi * dh_c
                    t_h, t_c = float(fh.T_ph(p_h, hh)), float(fc.T_ph(p_c, hc))
                    cuts.append(Cut(xi, "sub", 0, hh, hc, t_h, t_c, f))
            cuts.append(b)
        self.last = (q, cuts)
        return cuts

    def _pieces(self, a: Cut, b: Cut) -> int:
        """Straight pieces of the segment between cuts ``a`` and ``b`` [-].

        A pure fluid's two-phase stretch (constant temperature) is straight on its side; a
        glide takes :func:`~workbench.components.exchangers.zones.pieces.glide_pieces`, a
        single phase :func:`~workbench.components.exchangers.zones.pieces.single_phase_pieces`
        of its fluid; the segment takes the larger side's, at most :data:`SUB_CUTS`.
        """
        pieces = 1
        for fl, sat, h in (
            (self.fh, self.sat_h, 0.5 * (a.h_hot + b.h_hot)),
            (self.fc, self.sat_c, 0.5 * (a.h_cold + b.h_cold)),
        ):
            if not (sat[0] < h < sat[1]):
                pieces = max(pieces, single_phase_pieces(fl, SUB_CUTS))
            elif getattr(fl, "zeotropic", False):
                pieces = max(pieces, min(SUB_CUTS, glide_pieces(fl)))
        return pieces

    def conductance(self, q: float) -> tuple[float, list[tuple[float, float]], float]:
        """Conductance the zones need [W/K], each zone's ``(q [W], ua [W/K])``, smallest dT [K]."""
        cuts = self.cuts(q)
        dts = [c.t_hot - c.t_cold for c in cuts]
        zones = []
        total = 0.0
        for k in range(len(cuts) - 1):
            qk = q * (cuts[k + 1].xi - cuts[k].xi)
            uak = counterflow_ua(qk, dts[k], dts[k + 1])
            zones.append((qk, uak))
            total += uak
        return total, zones, min(dts)

    # == derivatives ===============================================================================
    def slope(self, q: float) -> float:
        """``dUA_z/dQ`` [1/K] at fixed inlets (0 where a difference is not positive).

        For the root's Newton steps only: ``(dT/dh)_p`` at the cuts comes from the backend's
        ``dT_dh_p_estimate`` where it has one (the cut states' own Newton iterations leave it,
        to about 1e-6), which steers the steps as well as the exact value and needs no property
        update; the Jacobian (:mod:`~workbench.components.exchangers.zones.coupled_jacobian`) takes exact ones.

        :func:`~workbench.components.exchangers.zones.coupled_jacobian.conductance_tangents` along ``Q`` alone, simplified: with ``d = Q/m`` on each side, a hot
        saturation cut moves by ``dxi/dQ = -xi/Q``, a cold one by ``(1 - xi)/Q``; the cold
        temperature moves by ``(dT/dh) efficiency/m_c`` where the cold side moves (the hot
        inlet end, hot cuts), the hot one by ``-(dT/dh)/m_h`` where the hot side moves.
        """
        cuts = self.cuts(q)
        dts = [c.t_hot - c.t_cold for c in cuts]
        if min(dts) <= 0.0:
            return 0.0
        k_h, k_c = 1.0 / self.m_h, self.eff / self.m_c
        t_h_hot, t_h_cold = _slope_estimate(self.fh), _slope_estimate(self.fc)
        dxis, ddts = [], []
        for cut in cuts:
            if cut.kind in ("in", "hot"):
                dxis.append(-cut.xi / q if cut.kind == "hot" else 0.0)
                ddts.append(-float(t_h_cold(self.p_c, cut.h_cold)) * k_c)
            elif cut.kind == "sub":
                dxis.append(math.nan)  # between the cuts around it: filled below
                ddts.append(math.nan)
            else:
                dxis.append((1.0 - cut.xi) / q if cut.kind == "cold" else 0.0)
                ddts.append(-float(t_h_hot(self.p_h, cut.h_hot)) * k_h)
        for i, cut in enumerate(cuts):  # a sub-cut moves with the cuts around it
            if cut.kind == "sub":
                a, b = _around(cuts, i)
                dxi = (1.0 - cut.share) * dxis[a] + cut.share * dxis[b]
                dh_hot = -dxi * q * k_h - cut.xi * k_h
                dh_cold = k_c - dxi * q * k_c - cut.xi * k_c
                dxis[i] = dxi
                ddts[i] = (
                    float(t_h_hot(self.p_h, cut.h_hot)) * dh_hot
                    - float(t_h_cold(self.p_c, cut.h_cold)) * dh_cold
                )
        total = 0.0
        for k in range(len(cuts) - 1):
            lmtd, l_a, l_b = lmtd_partials(dts[k], dts[k + 1])
            span = cuts[k + 1].xi - cuts[k].xi
            total += (span + q * (dxis[k + 1] - dxis[k])) / lmtd
            total -= q * span / (lmtd * lmtd) * (l_a * ddts[k] + l_b * ddts[k + 1])
        return total

    # == the root ==================================================================================
    def residual(self, ua: float) -> Residual:
        """``Q -> (UA_z/UA - 1, dUA_z/dQ / UA)``: the root's residual, ``inf`` at a pinch."""

        def r(q: float) -> tuple[float, float | None]:
            total = self.conductance(q)[0]
            if math.isinf(total):
                return math.inf, None
            return total / ua - 1.0, self.slope(q) / ua

        return r

    def solve(self, ua: float, q_guess: float | None) -> float | None:
        """The heat flow [W] at which the zones need ``ua`` [W/K], or None.

        The exchangers' one root (:func:`~workbench.components.exchangers.zones.root.newton_in_s`)
        on ``UA_z/UA - 1`` from ``q_guess`` (else ``s = 1``) to ``1e-12 Q_max``; None when it
        does not settle (the root at the edge of an internal pinch: the caller runs the
        bracketed search).
        """
        if not (self.q_max > 0.0 and ua > 0.0):
            return None
        return newton_in_s(self.residual(ua), self.q_max, q_guess)


def _around(cuts: list[Cut], i: int) -> tuple[int, int]:
    """Indices of the cuts that are not sub-cuts before and after cut ``i``."""
    a = i - 1
    while cuts[a].kind == "sub":
        a -= 1
    b = i + 1
    while cuts[b].kind == "sub":
        b += 1
    return a, b


def _slope_estimate(fluid: FluidBackend) -> Callable[[float, float], float]:
    """The backend's ``dT_dh_p_estimate`` (a root's slope), else its exact ``dT_dh_p``."""
    estimate: Callable[[float, float], float] | None = getattr(fluid, "dT_dh_p_estimate", None)
    return estimate if estimate is not None else fluid.dT_dh_p


def coupled_heat_flow(
    fluid: FluidBackend,
    hot: tuple[float, float, float],
    cold: tuple[float, float, float],
    ua: float,
    efficiency: float,
    q_guess: float | None = None,
    cold_fluid: FluidBackend | None = None,
    *,
    profile: CoupledProfile | None = None,
) -> CoupledResult:
    """Counterflow heat flow between a hot and a cold refrigerant stream.

    Parameters
    ----------
    fluid : FluidBackend
        Refrigerant of both streams (of the hot one when ``cold_fluid`` is given).
    hot, cold : tuple of float
        ``(p [Pa], h_in [J/kg], m [kg/s])`` of each stream.
    ua : float
        Conductance [W/K].
    efficiency : float
        Share of the heat leaving the hot stream that reaches the cold one [-]; the rest is
        lost to ambient, spread evenly along the exchanger.
    q_guess : float, optional
        A heat flow to start from [W].
    cold_fluid : FluidBackend, optional
        Refrigerant of the cold stream when it is another (a cascade of two fluids).
    profile : CoupledProfile, optional
        The profile of these inputs when the caller already built it (to keep it for
        :func:`~workbench.components.exchangers.zones.coupled_jacobian.coupled_sensitivity`).

    Returns
    -------
    CoupledResult
        Heat flows and the temperature profile's pinch. Both streams are cut into segments at
        their own saturation boundaries; each segment is a counterflow zone with conductance
        ``q_segment / LMTD`` (epsilon-NTU for constant capacity rates), and ``q`` makes the
        segments' conductances add up to ``ua``: :meth:`CoupledProfile.solve`, else Brent's
        method (:func:`~workbench.components.exchangers.zones.root.bracketed_root`) to
        ``1e-12 Q_max``.
    """
    prof = profile or CoupledProfile(fluid, cold_fluid or fluid, hot, cold, efficiency)
    q = coupled_root(prof, ua, q_guess)
    if q <= 0.0:
        return CoupledResult(0.0, 0.0, prof.t_hi - prof.t_ci, [], 0.0)
    _total, zones, min_dt = prof.conductance(q)
    return CoupledResult(q, efficiency * q, min_dt, zones, prof.q_max)


def coupled_root(profile: CoupledProfile, ua: float, q_guess: float | None) -> float:
    """The heat flow [W] of :func:`coupled_heat_flow` without its zones (0 without exchange).

    :meth:`CoupledProfile.solve`, else Brent's method
    (:func:`~workbench.components.exchangers.zones.root.bracketed_root`) to ``1e-12 Q_max``.
    """
    q_hi = profile.q_max
    if q_hi <= 0.0 or ua <= 0.0:
        return 0.0
    q = profile.solve(ua, q_guess)
    return q if q is not None else bracketed_root(profile.residual(ua), q_hi, q_guess)
