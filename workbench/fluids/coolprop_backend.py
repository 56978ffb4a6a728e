"""The ``CoolProp`` backend: CoolProp's low-level ``AbstractState`` behind the backend interface.

Three ``AbstractState`` objects per backend, reused for every call (``PropsSI`` rebuilds one
per call and is many times slower, see docs/benchmarks.md): one for (p, h) states, whose state
the derivatives read, one for every other input pair (saturation, (p, T), (p, s)), and one that
checks CoolProp's own (p, h) flashes. ``HEOS`` is the default;
``tabular=True`` uses ``BICUBIC&HEOS`` (tables built on first use and cached by CoolProp in
``~/.CoolProp``).

One memo, one rule. Every flash is explicit: :meth:`CoolPropBackend._flash` updates a state,
and the outputs a caller may want from that flash are read right after it, one statement
each, into a record (a (p, h) flash gives T, s, rho, phase and quality; a saturation flash
gives T, h and s). Records, and the results of (p, T), (p, s) flashes, enthalpy limits and
derivatives, are remembered in one dict keyed by (operation, exact inputs) with one eviction
rule: at :data:`MEMO_SIZE` entries the oldest goes first. A solver revisits the same states
many times per solve (compressor suction and discharge, coil outlets, the saturation state of
each pressure), so most calls are answered without a flash, and since every key holds exact
inputs a remembered value is the value a fresh computation gives (to the 1e-13 below).

(p, h) states below the critical pressure without CoolProp's (p, h) flash (``HEOS`` only):

- inside the dome in closed form: a two-phase mixture's temperature, entropy and specific
  volume are linear in the quality ``x = (h - h_liq) / (h_vap - h_liq)`` between the two
  saturation records; that is what CoolProp's (p, h) flash returns (to 1e-13 relative, for
  pure fluids and pseudo-pure blends alike), without its iteration (about 50 us for R410A);
- outside it by Newton's method on ``p(T, rho) = p``, ``h(T, rho) = h`` with (rho, T) updates
  (about 1 us each, one to five of them) and the phase imposed, from the last state computed
  on the isobar (moved to first order) or from the saturated state on that side, to 1e-13
  relative (a last step below 1e-7 is taken to first order): CoolProp's
  (p, h) flash costs 25-35 us (over 100 us near the saturation line) and stops at about 3e-10,
  and its state jumps by that much between neighbouring inputs, which stalls a solver
  converging to 1e-4 J/kg (seen on R410A). Such a state counts as one flash.

Near and above the critical point, or when Newton does not settle (or lands on the wrong side
of the dome), CoolProp's flash is used, and its state is checked by a (rho, T) update and
corrected by one Newton step when it missed its inputs. Derivatives read a state that the
(p, h) ``AbstractState`` is brought back to from the record: a (rho, T) update with the
record's phase imposed (about 1 us), or a (p, Q) update inside the dome.

Saturation of zeotropic or pseudo-pure blends (R410A has a glide of about 0.1 K): ``h_liq``
and ``s_liq`` are bubble-point values (``Q = 0``), ``h_vap``, ``s_vap``, ``T_sat``, ``p_sat``
and ``dTsat_dp`` are dew-point values (``Q = 1``), the convention for superheat; ``T_bubble``
gives the bubble temperature. All saturation calls use ``PQ``/``QT`` inputs.

Every CoolProp failure and every NaN result becomes a
:class:`~workbench.errors.FluidPropertyError` naming fluid, backend and inputs.
The object is not thread-safe (its states hold the last flash); use one backend per thread
(:func:`workbench.fluids.lease_backend` lends one).
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from functools import cache
from typing import Any

import CoolProp.CoolProp as CP

from workbench.errors import FluidPropertyError
from workbench.fluids.base import FluidBackend, FluidState, fmt_inputs

__all__ = ["MEMO_SIZE", "CoolPropBackend"]

MEMO_SIZE = 256
"""Entries the backend remembers (records of flashes and derived values); oldest dropped first."""

_HP = CP.HmassP_INPUTS
_PQ = CP.PQ_INPUTS
_QT = CP.QT_INPUTS
_PT = CP.PT_INPUTS
_PS = CP.PSmass_INPUTS
_DT = CP.DmassT_INPUTS
_NEWTON_STEPS = 10  # (rho, T) updates a single-phase (p, h) state may take before a flash
_LAST_STEP = 1e-7  # a Newton step on (T, rho) below this (relative) is the last one
NEAR_ISOBAR = 1e-9
"""Pressures this close (relative) count as one isobar for a single-phase state's start and
side of the dome: the saturation enthalpies move by about 1e-4 J/kg over it, far inside the
1 J/kg margin kept from them."""
_TWO_PHASE = CP.iphase_twophase

# operations of the memo keys: (operation, input a, input b)
_OP_PH, _OP_PQ, _OP_QT, _OP_PT, _OP_PS = range(5)
_OP_H_MIN, _OP_H_MAX = 5, 6
_OP_DTDH, _OP_DRHO_DP, _OP_DRHO_DH = 7, 8, 9
_OP_DHLIQ, _OP_DHVAP, _OP_DTSAT = 10, 11, 12
_OP_DTDP, _OP_DTBUB = 13, 14

_PHASES: dict[Any, str] = {
    CP.iphase_liquid: "liquid",
    CP.iphase_gas: "vapour",
    CP.iphase_supercritical_gas: "vapour",
    CP.iphase_supercritical_liquid: "supercritical",
    CP.iphase_supercritical: "supercritical",
    CP.iphase_twophase: "two-phase",
}


# A (p, h) record is the tuple (T [K], s [J/kg/K], rho [kg/m3], CoolProp phase, quality [-]);
# a saturation record (PQ) is (T [K], h [J/kg], s [J/kg/K], rho [kg/m3]). Plain tuples: they
# are built on every flash, and a named tuple costs several times more to build.
_T, _S, _RHO, _PHASE, _QUALITY = 0, 1, 2, 3, 4  # fields of a (p, h) record
_SAT_T, _SAT_H, _SAT_S, _SAT_RHO = 0, 1, 2, 3  # fields of a saturation record
PHRecord = tuple[float, float, float, int, float]
SatRecord = tuple[float, float, float, float]


@dataclass(frozen=True)
class _Constants:
    """What a fluid is, independent of any state (read once per fluid and backend string)."""

    T_crit: float
    p_crit: float
    t_min: float
    t_max: float
    p_min: float
    p_max: float
    pure: bool
    melting: bool


@cache
def _constants(cp_backend: str, fluid: str) -> _Constants:
    """Critical point, limits and kind of ``fluid`` (immutable facts, so cached per process)."""
    a = CP.AbstractState(cp_backend, fluid)
    return _Constants(
        T_crit=a.T_critical(),
        p_crit=a.p_critical(),
        t_min=a.Tmin(),
        t_max=a.Tmax(),
        p_min=a.trivial_keyed_output(CP.iP_triple) or 1.0,
        p_max=a.pmax(),
        pure=CP.get_fluid_param_string(fluid, "pure") == "true",
        melting=a.has_melting_line(),
    )


def _bad(value: float) -> bool:
    return value != value or value in (math.inf, -math.inf)


class CoolPropBackend(FluidBackend):
    """``CoolProp`` backend for one fluid.

    Parameters
    ----------
    fluid : str
        Fluid name CoolProp understands (already resolved by :func:`get_backend`).
    tabular : bool
        Use ``BICUBIC&HEOS`` tables instead of the ``HEOS`` equation of state.

    Notes
    -----
    Inputs are floats (use :meth:`map` for arrays). Phase ``supercritical`` means
    ``p >= p_crit``; above ``T_crit`` at lower pressure the phase is ``vapour``.
    """

    backend_name = "CoolProp"

    def __init__(self, fluid: str, tabular: bool = False) -> None:
        super().__init__()
        self.name = fluid
        self.tabular = tabular
        self.cp_backend = "BICUBIC&HEOS" if tabular else "HEOS"
        try:
            consts = _constants(self.cp_backend, fluid)
            self._as = CP.AbstractState(self.cp_backend, fluid)
            self._as_ph = CP.AbstractState(self.cp_backend, fluid)
            self._as_check = CP.AbstractState(self.cp_backend, fluid)  # polishes (p, h) flashes
        except ValueError as exc:
            raise self.error("creating the AbstractState", str(exc)) from None
        self.T_crit = consts.T_crit
        self.p_crit = consts.p_crit
        self.p_min = consts.p_min
        self.p_max = consts.p_max
        self._t_min = consts.t_min
        self._t_max = consts.t_max
        self._pure = consts.pure
        self._melting = consts.melting
        self._ph_held: tuple[float, float] | None = None  # the (p, h) that _as_ph holds
        # two-phase (p, h) states in closed form from the saturation records (HEOS only: the
        # tables of BICUBIC interpolate their own two-phase values)
        self._closed_two_phase = not tabular
        # the last single-phase states computed by Newton, (p, h, T, rho, dT/dh, drho/dh, and
        # the saturation record of p on that side): first-order starts along an isobar
        Near = tuple[float, float, float, float, float, float, SatRecord]
        self._near_ps: tuple[float, float, float] | None = None  # last (p, T, rho) from (p, s)
        # per quality: the last saturation record flashed, (p, record, its slopes along the
        # saturation line, computed when first needed)
        self._sat_anchor: dict[
            float, tuple[float, SatRecord, tuple[float, float, float, float] | None]
        ] = {}
        self._near_liq: Near | None = None
        self._near_vap: Near | None = None
        self._memo: dict[tuple[int, float, float], Any] = {}

    def error(self, what: str, reason: str, /, **inputs: Any) -> FluidPropertyError:
        """:class:`FluidPropertyError` naming fluid, CoolProp backend string, operation, inputs."""
        return FluidPropertyError(
            f"{self.name} ({self.backend_name} {self.cp_backend}): {what} failed for "
            f"{fmt_inputs(**inputs)}: {reason}"
        )

    # == the memo and the flashes =================================================================
    def _remember(self, key: tuple[int, float, float], value: Any) -> Any:
        """Store ``value`` under ``key`` (dropping the oldest entry when full); return it."""
        memo = self._memo
        if len(memo) >= MEMO_SIZE:
            del memo[next(iter(memo))]
        memo[key] = value
        return value

    def _flash(
        self, state: Any, pair: Any, a: float, b: float, what: str, /, **inputs: Any
    ) -> None:
        """Update ``state`` with the input ``pair`` (one counted flash); errors name the inputs."""
        self._flashes += 1
        try:
            state.update(pair, a, b)
        except ValueError as exc:
            raise self.error(what, str(exc).strip(), **inputs) from None

    def _ph(self, p: float, h: float, what: str = "state from (p, h)") -> PHRecord:
        """The record of the (p, h) flash: remembered, or flashed on ``_as_ph`` and read."""
        key = (_OP_PH, p, h)
        record: PHRecord | None = self._memo.get(key)
        if record is not None:
            return record
        if self._closed_two_phase and p < self.p_crit:
            record = self._subcritical(p, h)
            if record is not None:
                memo = self._memo
                if len(memo) >= MEMO_SIZE:
                    del memo[next(iter(memo))]
                memo[key] = record
                return record
        state = self._as_ph
        self._flashes += 1
        try:
            state.update(_HP, h, p)
        except ValueError as exc:
            self._ph_held = None
            raise self.error(what, str(exc).strip(), p=p, h=h) from None
        self._ph_held = (p, h)
        T = state.T()
        s = state.smass()
        rho = state.rhomass()
        phase = state.phase()
        quality = state.Q() if phase == _TWO_PHASE else math.nan
        if T != T or s != s or rho != rho:  # NaN
            raise self.error(what, f"CoolProp returned T={T}, s={s}, rho={rho}", p=p, h=h)
        if self._closed_two_phase and phase != _TWO_PHASE:
            polished = self._polish(p, h, T, rho, phase)
            if polished is not None:
                T, s, rho = polished
                self._ph_held = None  # _as_ph holds the flash, not the polished state
        record = (T, s, rho, phase, quality)
        memo = self._memo
        if len(memo) >= MEMO_SIZE:
            del memo[next(iter(memo))]
        memo[key] = record
        return record

    def _polish(
        self, p: float, h: float, T: float, rho: float, phase: Any
    ) -> tuple[float, float, float] | None:
        """One Newton step on (T, rho) when a (p, h) flash missed its inputs; else None.

        CoolProp's (p, h) flash stops at a tolerance: now and then its state's own enthalpy
        is 1e-4 J/kg (3e-10 relative) away from the input, and which inputs miss jumps with
        the input, so T and s jitter by 1e-7 K and 1e-7 J/kg/K over steps of 1e-9. A solver
        converging to 1e-4 J/kg sees that as noise and stalls. The state is checked with a
        (rho, T) update (about 1 us) and, when it misses, corrected by one Newton step on
        ``p(T, rho) = p``, ``h(T, rho) = h`` (to machine precision from there).
        """
        check = self._as_check
        check.specify_phase(phase)
        try:
            check.update(_DT, rho, T)
            miss_p, miss_h = check.p() - p, check.hmass() - h
            if abs(miss_h) <= 1e-13 * abs(h) + 1e-9 and abs(miss_p) <= 1e-13 * p:
                return None
            p_t = check.first_partial_deriv(CP.iP, CP.iT, CP.iDmass)
            p_r = check.first_partial_deriv(CP.iP, CP.iDmass, CP.iT)
            h_t = check.first_partial_deriv(CP.iHmass, CP.iT, CP.iDmass)
            h_r = check.first_partial_deriv(CP.iHmass, CP.iDmass, CP.iT)
            det = p_t * h_r - p_r * h_t
            if det == 0.0 or det != det:
                return None
            T_new = T + (-miss_p * h_r + p_r * miss_h) / det
            rho_new = rho + (-h_t * -miss_p - p_t * miss_h) / det
            check.update(_DT, rho_new, T_new)
            s_new = check.smass()
        except ValueError:
            return None
        finally:
            check.unspecify_phase()
        if _bad(T_new) or _bad(rho_new) or _bad(s_new):
            return None
        return T_new, s_new, rho_new

    def _subcritical(self, p: float, h: float) -> PHRecord | None:
        """The record of a (p, h) state below the critical pressure without a (p, h) flash.

        Inside the dome in closed form: between the saturated liquid and vapour of ``p``, T,
        s and v are linear in the quality (CoolProp's (p, h) flash gives the same to 1e-13).
        Outside it by :meth:`_newton_ph` from the saturated state on that side. None when the
        saturation flashes fail (near the critical point) or Newton does not settle, so that
        the caller flashes.
        """
        if h != h:  # NaN
            return None
        # a state well outside the dome next to the last one on (nearly) the same isobar: its
        # side of the dome is known without this pressure's saturation records (a solved coil's
        # pressures differ by rounding, 1e-10 Pa, and a profile along it asks for many states)
        near = self._near_vap
        if near is not None and abs(near[0] - p) <= NEAR_ISOBAR * p:
            h_sat = near[6][_SAT_H]
            if h > h_sat + max(1.0, 1e-6 * abs(h_sat)):
                return self._newton_ph(p, h, near[6], False)
        near = self._near_liq
        if near is not None and abs(near[0] - p) <= NEAR_ISOBAR * p:
            h_sat = near[6][_SAT_H]
            if h < h_sat - max(1.0, 1e-6 * abs(h_sat)):
                return self._newton_ph(p, h, near[6], True)
        memo = self._memo
        try:
            liq = memo.get((_OP_PQ, p, 0.0)) or self._pq(p, 0.0, "h_liq")
            if h < liq[_SAT_H]:
                return self._newton_ph(p, h, liq, True)
            vap = memo.get((_OP_PQ, p, 1.0)) or self._pq(p, 1.0, "h_vap")
        except FluidPropertyError:
            return None
        h_l, h_v = liq[_SAT_H], vap[_SAT_H]
        if h > h_v:
            return self._newton_ph(p, h, vap, False)
        if h_v <= h_l:
            return None
        x = (h - h_l) / (h_v - h_l)
        v_l = 1.0 / liq[_SAT_RHO]
        return (
            liq[_SAT_T] + x * (vap[_SAT_T] - liq[_SAT_T]),
            liq[_SAT_S] + x * (vap[_SAT_S] - liq[_SAT_S]),
            1.0 / (v_l + x * (1.0 / vap[_SAT_RHO] - v_l)),
            _TWO_PHASE,
            x,
        )

    def _newton_ph(self, p: float, h: float, sat: SatRecord, liquid: bool) -> PHRecord | None:
        """A single-phase (p, h) state by Newton's method on (T, rho) updates; None if it fails.

        Solves ``p(T, rho) = p``, ``h(T, rho) = h`` with the phase imposed, from the last state
        computed on this isobar on the same side of the dome (moved to first order along the
        isobar with its ``dT/dh`` and ``drho/dh``), else from the saturated state ``sat``. A (rho, T) update costs about 1 us and two to five steps reach 1e-13, where
        CoolProp's own (p, h) flash costs 25-35 us (more near the saturation line) and stops at
        about 3e-10. The result must be on its side of the dome (colder and denser than the
        saturated liquid, or hotter and lighter than the saturated vapour) and inside the
        fluid's temperature range.
        """
        near = self._near_liq if liquid else self._near_vap
        if (
            near is not None
            and abs(near[0] - p) <= NEAR_ISOBAR * p
            and abs(near[1] - h) < abs(sat[_SAT_H] - h)
        ):
            # first order along the isobar from the last state: one update lands within ~1e-6
            step = h - near[1]
            T, rho = near[2] + near[4] * step, near[3] + near[5] * step
        else:
            T, rho = sat[_SAT_T], sat[_SAT_RHO]
        phase = CP.iphase_liquid if liquid else CP.iphase_gas
        state = self._as_ph
        self._ph_held = None
        self._flashes += 1
        state.specify_phase(phase)
        held = True
        partial = state.first_partial_deriv
        try:
            for _ in range(_NEWTON_STEPS):
                state.update(_DT, rho, T)
                miss_p, miss_h = state.p() - p, state.hmass() - h
                if abs(miss_h) <= 1e-13 * abs(h) + 1e-9 and abs(miss_p) <= 1e-13 * p:
                    s = state.smass()
                    break
                p_t = partial(CP.iP, CP.iT, CP.iDmass)
                p_r = partial(CP.iP, CP.iDmass, CP.iT)
                h_t = partial(CP.iHmass, CP.iT, CP.iDmass)
                h_r = partial(CP.iHmass, CP.iDmass, CP.iT)
                det = p_t * h_r - p_r * h_t
                if det == 0.0 or det != det:
                    return None
                d_t = (-miss_p * h_r + p_r * miss_h) / det
                d_rho = (h_t * miss_p - p_t * miss_h) / det
                if abs(d_t) <= _LAST_STEP * T and abs(d_rho) <= _LAST_STEP * rho:
                    # a step this small leaves an error of its square: take it to first
                    # order (s along it) instead of one more update to confirm it
                    s = state.smass() + partial(CP.iSmass, CP.iT, CP.iDmass) * d_t
                    s += partial(CP.iSmass, CP.iDmass, CP.iT) * d_rho
                    T, rho, held = T + d_t, rho + d_rho, False
                    break
                T += d_t
                rho += d_rho
                if not (rho > 0.0 and self._t_min <= T <= self._t_max):
                    return None
            else:
                return None
            t_h = partial(CP.iT, CP.iHmass, CP.iP)
            rho_h = partial(CP.iDmass, CP.iHmass, CP.iP)
        except ValueError:
            return None
        finally:
            state.unspecify_phase()
        t_sat, rho_sat = sat[_SAT_T], sat[_SAT_RHO]
        if liquid:
            if not (t_sat >= T and rho >= rho_sat):
                return None
            self._near_liq = (p, h, T, rho, t_h, rho_h, sat)
        else:
            if not (t_sat <= T and rho <= rho_sat):
                return None
            self._near_vap = (p, h, T, rho, t_h, rho_h, sat)
        if _bad(s):
            return None
        self._ph_held = (p, h) if held else None
        return (T, s, rho, phase, math.nan)

    def _held_ph(self, p: float, h: float, what: str) -> Any:
        """``_as_ph`` holding the (p, h) state (for derivatives).

        Brought back from the state's record when another state replaced it: a (rho, T) update
        with the record's phase imposed outside the dome, a (p, Q) update inside it; both about
        1 us where a (p, h) flash costs 25-35 us, and the same (T, rho) to the last bit.
        """
        if self._ph_held != (p, h):
            record = self._ph(p, h, what)
            state = self._as_ph
            self._ph_held = None
            if record[_PHASE] == _TWO_PHASE:
                # a flash on the dome's edge may report a quality a rounding error beyond 0..1
                quality = min(max(record[_QUALITY], 0.0), 1.0)
                self._flash(state, _PQ, p, quality, what, p=p, h=h)
            elif self.tabular:
                self._flash(state, _HP, h, p, what, p=p, h=h)
            else:
                state.specify_phase(record[_PHASE])  # type: ignore[arg-type]  # an int code
                try:
                    self._flash(state, _DT, record[_RHO], record[_T], what, p=p, h=h)
                finally:
                    state.unspecify_phase()
            self._ph_held = (p, h)
        return self._as_ph

    def _pq(self, p: float, q: float, what: str) -> SatRecord:
        """The record of the saturation flash at ``p`` and quality ``q`` (remembered or new).

        A pressure within :data:`NEAR_ISOBAR` of the last one flashed at this quality (a solved
        coil's outlet differs from its inlet by rounding, and a profile along it asks for every
        pressure in between) gets that record moved to first order along the saturation line
        (:meth:`_sat_slopes`), without a flash: the second-order term is 1e-18 of the value.
        """
        key = (_OP_PQ, p, q)
        memo = self._memo
        record: SatRecord | None = memo.get(key)
        if record is not None:
            return record
        anchor = self._sat_anchor.get(q)
        if anchor is not None and abs(anchor[0] - p) <= NEAR_ISOBAR * p and not self.tabular:
            p0, base, slopes = anchor
            if slopes is None:
                slopes = self._sat_slopes(p0, q, base, what)
                self._sat_anchor[q] = (p0, base, slopes)
            if slopes is not None:
                dp = p - p0
                record = (
                    base[0] + slopes[0] * dp,
                    base[1] + slopes[1] * dp,
                    base[2] + slopes[2] * dp,
                    base[3] + slopes[3] * dp,
                )
                if len(memo) >= MEMO_SIZE:
                    del memo[next(iter(memo))]
                memo[key] = record
                return record
        state = self._as
        self._flashes += 1
        try:
            state.update(_PQ, p, q)
        except ValueError as exc:
            raise self.error(what, str(exc).strip(), p=p, q=q) from None
        T = state.T()
        h = state.hmass()
        s = state.smass()
        rho = state.rhomass()
        if T != T or h != h or s != s or rho != rho:  # NaN
            raise self.error(what, f"CoolProp returned T={T}, h={h}, s={s}", p=p, q=q)
        record = (T, h, s, rho)
        if len(memo) >= MEMO_SIZE:
            del memo[next(iter(memo))]
        memo[key] = record
        self._sat_anchor[q] = (p, record, None)
        return record

    def _sat_slopes(
        self, p: float, q: float, record: SatRecord, what: str
    ) -> tuple[float, float, float, float] | None:
        """d(T, h, s, rho)/dp along the saturation line at ``p`` (None if CoolProp fails).

        Pure fluids: CoolProp's saturation derivatives after a (p, Q) update. Blends: central
        differences of two (p, Q) updates 1e-6 p apart (CoolProp's own derivative of a
        pseudo-pure blend is 0.5 % off its flashes, see :meth:`_sat_deriv`).
        """
        state = self._as
        keys = (CP.iT, CP.iHmass, CP.iSmass, CP.iDmass)
        try:
            if self._pure:
                self._flash(state, _PQ, p, q, what, p=p, q=q)
                d = tuple(float(state.first_saturation_deriv(k, CP.iP)) for k in keys)
            else:
                dp = 1e-6 * p
                self._flash(state, _PQ, p + dp, q, what, p=p + dp, q=q)
                up = (state.T(), state.hmass(), state.smass(), state.rhomass())
                self._flash(state, _PQ, p - dp, q, what, p=p - dp, q=q)
                down = (state.T(), state.hmass(), state.smass(), state.rhomass())
                d = tuple((a - b) / (2.0 * dp) for a, b in zip(up, down))
        except (FluidPropertyError, ValueError):
            return None
        if any(_bad(v) for v in d):
            return None
        del record
        return d[0], d[1], d[2], d[3]

    def _h_from(self, op: int, pair: Any, p: float, b: float, what: str, b_name: str) -> float:
        """Enthalpy of a (p, T) or (p, s) flash (``b_name`` ``"T"`` or ``"s"``), remembered."""
        key = (op, p, b)
        memo = self._memo
        value: float | None = memo.get(key)
        if value is not None:
            return value
        if op == _OP_PS and self._closed_two_phase and p < self.p_crit:
            found = self._newton_ps(p, b)
            if found is not None:
                if len(memo) >= MEMO_SIZE:
                    del memo[next(iter(memo))]
                memo[key] = found
                return found
        state = self._as
        phase = self._tabular_phase(p, b) if self.tabular and op == _OP_PT else None
        self._flashes += 1
        try:
            if phase is None:
                state.update(pair, p, b)
            else:
                state.specify_phase(phase)
                try:
                    state.update(pair, p, b)
                finally:
                    state.unspecify_phase()
        except ValueError as exc:
            raise self.error(what, str(exc).strip(), p=p, **{b_name: b}) from None
        h: float = state.hmass()
        if h != h:  # NaN
            raise self.error(what, f"CoolProp returned {h}", p=p, **{b_name: b})
        if len(memo) >= MEMO_SIZE:
            del memo[next(iter(memo))]
        memo[key] = h
        return h

    def _newton_ps(self, p: float, s: float) -> float | None:
        """Enthalpy [J/kg] of superheated vapour at (p, s) by Newton on (T, rho); else None.

        As :meth:`_newton_ph` with ``s(T, rho) = s`` for the second equation (a compressor's
        isentropic outlet: CoolProp's (p, s) flash costs 30-90 us), started from the last
        (p, s) state when it was on the same isobar, else from the saturated vapour. Only for
        ``s`` above the saturated vapour's entropy by a margin; None otherwise (the caller
        flashes).
        """
        try:
            vap = self._memo.get((_OP_PQ, p, 1.0)) or self._pq(p, 1.0, "s_vap")
        except FluidPropertyError:
            return None
        if not s > vap[_SAT_S] + max(1e-3, 1e-7 * abs(vap[_SAT_S])):
            return None
        near = self._near_ps
        if near is not None and abs(near[0] - p) <= NEAR_ISOBAR * p:
            T, rho = near[1], near[2]
        else:
            T, rho = vap[_SAT_T], vap[_SAT_RHO]
        state = self._as_ph
        self._ph_held = None
        self._flashes += 1
        partial = state.first_partial_deriv
        state.specify_phase(CP.iphase_gas)
        try:
            for _ in range(_NEWTON_STEPS):
                state.update(_DT, rho, T)
                miss_p, miss_s = state.p() - p, state.smass() - s
                if abs(miss_s) <= 1e-13 * abs(s) + 1e-12 and abs(miss_p) <= 1e-13 * p:
                    h = state.hmass()
                    break
                p_t = partial(CP.iP, CP.iT, CP.iDmass)
                p_r = partial(CP.iP, CP.iDmass, CP.iT)
                s_t = partial(CP.iSmass, CP.iT, CP.iDmass)
                s_r = partial(CP.iSmass, CP.iDmass, CP.iT)
                det = p_t * s_r - p_r * s_t
                if det == 0.0 or det != det:
                    return None
                d_t = (-miss_p * s_r + p_r * miss_s) / det
                d_rho = (s_t * miss_p - p_t * miss_s) / det
                if abs(d_t) <= _LAST_STEP * T and abs(d_rho) <= _LAST_STEP * rho:
                    h = state.hmass() + partial(CP.iHmass, CP.iT, CP.iDmass) * d_t
                    h += partial(CP.iHmass, CP.iDmass, CP.iT) * d_rho
                    T, rho = T + d_t, rho + d_rho
                    break
                T += d_t
                rho += d_rho
                if not (rho > 0.0 and self._t_min <= T <= self._t_max):
                    return None
            else:
                return None
        except ValueError:
            return None
        finally:
            state.unspecify_phase()
        if not (vap[_SAT_T] <= T and rho <= vap[_SAT_RHO]) or _bad(h):
            return None
        self._near_ps = (p, T, rho)
        return float(h)

    def _tabular_phase(self, p: float, t: float) -> Any | None:
        """Phase to impose on a tabular (p, T) flash, or None.

        Without it a tabular flash can pick the wrong side of the saturation line a few kelvin
        away from it (CoolProp issue #629).
        """
        if p >= self.p_crit:
            return None
        if t < self._pq(p, 0.0, "T_bubble")[_SAT_T]:
            return CP.iphase_liquid
        if t > self._pq(p, 1.0, "T_dew")[_SAT_T]:
            return CP.iphase_gas
        return None

    # == state from (p, h) =======================================================================
    def state_ph(self, p: float, h: float) -> FluidState:
        """Full state from pressure [Pa] and enthalpy [J/kg]."""
        self._calls += 1
        r = self._ph(p, h)
        phase = "supercritical" if p >= self.p_crit else _PHASES.get(r[_PHASE], "vapour")
        quality = r[_QUALITY] if phase == "two-phase" else None
        return FluidState(p, h, r[_T], r[_S], r[_RHO], quality, phase)

    def T_ph(self, p: float, h: float) -> float:
        """Temperature [K] from pressure [Pa] and enthalpy [J/kg]."""
        self._calls += 1
        return self._ph(p, h)[_T]

    def s_ph(self, p: float, h: float) -> float:
        """Entropy [J/kg/K] from pressure [Pa] and enthalpy [J/kg]."""
        self._calls += 1
        return self._ph(p, h)[_S]

    def rho_ph(self, p: float, h: float) -> float:
        """Density [kg/m3] from pressure [Pa] and enthalpy [J/kg]."""
        self._calls += 1
        return self._ph(p, h)[_RHO]

    def quality_ph(self, p: float, h: float) -> float | None:
        """Quality [-] inside the dome, ``None`` outside."""
        self._calls += 1
        r = self._ph(p, h)
        return r[_QUALITY] if r[_PHASE] == _TWO_PHASE else None

    # == other input pairs =======================================================================
    def h_pT(self, p: float, T: float) -> float:
        """Enthalpy [J/kg] from pressure [Pa] and temperature [K], outside the dome.

        Raises
        ------
        FluidPropertyError
            If CoolProp cannot flash (for example ``T`` on the saturation line or inside the
            glide of a blend).
        """
        self._calls += 1
        return self._h_from(_OP_PT, _PT, p, T, "h from (p, T)", "T")

    def h_ps(self, p: float, s: float) -> float:
        """Enthalpy [J/kg] from pressure [Pa] and entropy [J/kg/K]."""
        self._calls += 1
        return self._h_from(_OP_PS, _PS, p, s, "h from (p, s)", "s")

    # == saturation ==============================================================================
    def T_sat(self, p: float) -> float:
        """Dew-point saturation temperature [K] at pressure [Pa] (``PQ``, ``Q = 1``)."""
        self._calls += 1
        return self._pq(p, 1.0, "T_sat")[_SAT_T]

    def T_dew(self, p: float) -> float:
        """Dew-point temperature [K] at pressure [Pa]."""
        self._calls += 1
        return self._pq(p, 1.0, "T_dew")[_SAT_T]

    def T_bubble(self, p: float) -> float:
        """Bubble-point temperature [K] at pressure [Pa] (``PQ``, ``Q = 0``)."""
        self._calls += 1
        return self._pq(p, 0.0, "T_bubble")[_SAT_T]

    def p_sat(self, T: float) -> float:
        """Dew-point saturation pressure [Pa] at temperature [K] (``QT``, ``Q = 1``)."""
        self._calls += 1
        key = (_OP_QT, 1.0, T)
        value = self._memo.get(key)
        if value is not None:
            return value  # type: ignore[no-any-return]
        self._flash(self._as, _QT, 1.0, T, "p_sat", T=T)
        p = self._as.p()
        if _bad(p):
            raise self.error("p_sat", f"CoolProp returned {p}", T=T)
        return self._remember(key, p)  # type: ignore[no-any-return]

    def h_liq(self, p: float) -> float:
        """Saturated liquid (bubble) enthalpy [J/kg] at pressure [Pa]."""
        self._calls += 1
        return self._pq(p, 0.0, "h_liq")[_SAT_H]

    def h_vap(self, p: float) -> float:
        """Saturated vapour (dew) enthalpy [J/kg] at pressure [Pa]."""
        self._calls += 1
        return self._pq(p, 1.0, "h_vap")[_SAT_H]

    def s_liq(self, p: float) -> float:
        """Saturated liquid (bubble) entropy [J/kg/K] at pressure [Pa]."""
        self._calls += 1
        return self._pq(p, 0.0, "s_liq")[_SAT_S]

    def s_vap(self, p: float) -> float:
        """Saturated vapour (dew) entropy [J/kg/K] at pressure [Pa]."""
        self._calls += 1
        return self._pq(p, 1.0, "s_vap")[_SAT_S]

    def h_min(self, p: float) -> float:
        """Lowest valid enthalpy [J/kg] at pressure [Pa]: the state at ``T_min`` or on the melting line."""
        self._calls += 1
        key = (_OP_H_MIN, p, 0.0)
        value = self._memo.get(key)
        if value is not None:
            return value  # type: ignore[no-any-return]
        t_low = self._t_min
        if self._melting:
            with contextlib.suppress(ValueError):  # p outside the melting-line fit
                t_low = max(t_low, self._as.melting_line(CP.iT, CP.iP, p))
        try:
            h = self._h_from(_OP_PT, _PT, p, t_low + 1e-3, "h_min", "T")
        except FluidPropertyError:
            # CoolProp's (p, T) density guess can miss the cold liquid (R410A at 200 K): the
            # state at the lowest temperature is liquid at any pressure above the triple point
            h = self._liquid_h(p, t_low + 1e-3)
        return self._remember(key, h)  # type: ignore[no-any-return]

    def _liquid_h(self, p: float, T: float) -> float:
        """Enthalpy [J/kg] of the liquid at (p, T), the phase imposed on the (p, T) flash."""
        state = self._as
        self._flashes += 1
        state.specify_phase(CP.iphase_liquid)
        try:
            state.update(_PT, p, T)
            h: float = state.hmass()
        except ValueError as exc:
            raise self.error("h_min", str(exc).strip(), p=p, T=T) from None
        finally:
            state.unspecify_phase()
        if _bad(h):
            raise self.error("h_min", f"CoolProp returned {h}", p=p, T=T)
        return h

    def h_max(self, p: float) -> float:
        """Highest valid enthalpy [J/kg] at pressure [Pa]: the state at ``T_max``."""
        self._calls += 1
        return self._h_from(_OP_PT, _PT, p, self._t_max, "h_max", "T")

    # == derivatives =============================================================================
    def _ph_deriv(
        self, op: int, p: float, h: float, of: Any, wrt: Any, const: Any, what: str
    ) -> float:
        key = (op, p, h)
        value = self._memo.get(key)
        if value is not None:
            return value  # type: ignore[no-any-return]
        two_phase = self._ph(p, h, what)[_PHASE] == _TWO_PHASE
        state = self._held_ph(p, h, what)
        try:
            if two_phase:
                value = state.first_two_phase_deriv(of, wrt, const)
            else:
                value = state.first_partial_deriv(of, wrt, const)
        except ValueError as exc:
            raise self.error(what, str(exc).strip(), p=p, h=h) from None
        if _bad(value):
            raise self.error(what, f"CoolProp returned {value}", p=p, h=h)
        return self._remember(key, value)  # type: ignore[no-any-return]

    def dT_dh_p(self, p: float, h: float) -> float:
        """(dT/dh)_p [K kg/J]; inside the dome the glide slope (0 for a pure fluid)."""
        self._calls += 1
        if self._ph(p, h, "dT/dh")[_PHASE] != _TWO_PHASE:
            return self._ph_deriv(_OP_DTDH, p, h, CP.iT, CP.iHmass, CP.iP, "dT/dh")
        # T is linear in h between bubble and dew points at constant p
        bubble = self._pq(p, 0.0, "dT/dh")
        dew = self._pq(p, 1.0, "dT/dh")
        return (dew[_SAT_T] - bubble[_SAT_T]) / (dew[_SAT_H] - bubble[_SAT_H])

    def dT_dp_h(self, p: float, h: float) -> float:
        """(dT/dp)_h [K/Pa]; inside the dome the derivative of the quality-weighted temperature."""
        self._calls += 1
        record = self._ph(p, h, "dT/dp")
        if record[_PHASE] != _TWO_PHASE:
            return self._ph_deriv(_OP_DTDP, p, h, CP.iT, CP.iP, CP.iHmass, "dT/dp")
        dt_v = self._sat_deriv(_OP_DTSAT, p, 1.0, CP.iT, "dT_sat/dp")
        if self._pure:
            return dt_v
        # blend: T = T_l + x (T_v - T_l), x = (h - h_l) / (h_v - h_l), everything a function of p
        liq, vap = self._pq(p, 0.0, "dT/dp"), self._pq(p, 1.0, "dT/dp")
        dt_l = self._sat_deriv(_OP_DTBUB, p, 0.0, CP.iT, "dT_bubble/dp")
        dh_l = self._sat_deriv(_OP_DHLIQ, p, 0.0, CP.iHmass, "dh_liq/dp")
        dh_v = self._sat_deriv(_OP_DHVAP, p, 1.0, CP.iHmass, "dh_vap/dp")
        span = vap[_SAT_H] - liq[_SAT_H]
        x = record[_QUALITY]
        dx = (-dh_l - x * (dh_v - dh_l)) / span
        return dt_l + x * (dt_v - dt_l) + (vap[_SAT_T] - liq[_SAT_T]) * dx

    def drho_dp_h(self, p: float, h: float) -> float:
        """(drho/dp)_h [kg/m3/Pa] (two-phase: CoolProp's homogeneous two-phase derivative)."""
        self._calls += 1
        return self._ph_deriv(_OP_DRHO_DP, p, h, CP.iDmass, CP.iP, CP.iHmass, "drho/dp")

    def drho_dh_p(self, p: float, h: float) -> float:
        """(drho/dh)_p [kg2/m3/J]."""
        self._calls += 1
        return self._ph_deriv(_OP_DRHO_DH, p, h, CP.iDmass, CP.iHmass, CP.iP, "drho/dh")

    def _sat_deriv(self, op: int, p: float, q: float, of: Any, what: str) -> float:
        key = (op, p, q)
        value = self._memo.get(key)
        if value is not None:
            return value  # type: ignore[no-any-return]
        if not self._pure:
            # Blends (pseudo-pure R410A...): CoolProp's Clapeyron-based saturation derivative
            # disagrees with its own PQ flashes by up to 0.5 %; differentiate the flashes.
            dp = 1e-4 * p
            above = self._pq(p + dp, q, what)
            below = self._pq(p - dp, q, what)
            field = _SAT_T if of == CP.iT else _SAT_H
            value = (above[field] - below[field]) / (2.0 * dp)
        else:
            self._flash(self._as, _PQ, p, q, what, p=p, q=q)
            try:
                value = self._as.first_saturation_deriv(of, CP.iP)
            except ValueError as exc:
                raise self.error(what, str(exc).strip(), p=p, q=q) from None
        if _bad(value):
            raise self.error(what, f"CoolProp returned {value}", p=p, q=q)
        return self._remember(key, value)  # type: ignore[no-any-return]

    def dhliq_dp(self, p: float) -> float:
        """dh_liq/dp along the bubble line [J/kg/Pa]."""
        self._calls += 1
        return self._sat_deriv(_OP_DHLIQ, p, 0.0, CP.iHmass, "dh_liq/dp")

    def dhvap_dp(self, p: float) -> float:
        """dh_vap/dp along the dew line [J/kg/Pa]."""
        self._calls += 1
        return self._sat_deriv(_OP_DHVAP, p, 1.0, CP.iHmass, "dh_vap/dp")

    def dTbubble_dp(self, p: float) -> float:
        """dT_bubble/dp along the bubble line [K/Pa] (equal to :meth:`dTsat_dp` for a pure fluid)."""
        self._calls += 1
        if self._pure:
            return self._sat_deriv(_OP_DTSAT, p, 1.0, CP.iT, "dT_sat/dp")
        return self._sat_deriv(_OP_DTBUB, p, 0.0, CP.iT, "dT_bubble/dp")

    def dTsat_dp(self, p: float) -> float:
        """dT_sat/dp along the dew line [K/Pa]."""
        self._calls += 1
        return self._sat_deriv(_OP_DTSAT, p, 1.0, CP.iT, "dT_sat/dp")
