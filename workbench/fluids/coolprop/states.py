"""The CoolProp backend's (p, h), (p, s) and (p, T) states: records, Newton, flashes.

The middle layer of :class:`~workbench.fluids.coolprop.backend.CoolPropBackend` (design in that
module's docstring). A (p, h) state below the critical pressure is found without CoolProp's
(p, h) flash: in closed form inside the dome, by :func:`~workbench.fluids.coolprop.newton.newton_rho_t`
outside it; a superheated (p, s) state by the same Newton iteration with the entropy as second
input. Elsewhere CoolProp flashes, and a (p, h) flash is checked and polished
(:func:`~workbench.fluids.coolprop.newton.polish_ph`).
"""

from __future__ import annotations

import math
from typing import Any

import CoolProp.CoolProp as CP

from workbench.errors import FluidPropertyError
from workbench.fluids.coolprop.isobars import (
    SLOPES_KEPT,
    CoolPropIsobars,
    Near,
    on_its_side,
)
from workbench.fluids.coolprop.newton import (
    BY_H,
    BY_S,
    newton_rho_t,
    polish_ph,
)
from workbench.fluids.coolprop.records import (
    DT,
    HP,
    MEMO_SIZE,
    NEAR_ISOBAR,
    OP_PH,
    OP_PQ,
    OP_PS,
    OP_PT,
    PH_PHASE,
    PH_QUALITY,
    PH_RHO,
    PH_T,
    PQ,
    PT,
    SAT_H,
    SAT_RHO,
    SAT_S,
    SAT_T,
    TWO_PHASE,
    PHRecord,
    SatRecord,
    is_bad,
)

__all__ = ["CoolPropStates"]


class CoolPropStates(CoolPropIsobars):
    """(p, h), (p, s) and (p, T) states of one fluid, each remembered by its exact inputs.

    Single-phase states start from the states kept by
    :class:`~workbench.fluids.coolprop.isobars.CoolPropIsobars`.

    Parameters
    ----------
    fluid : str
        Fluid name CoolProp understands (already resolved by :func:`get_backend`).
    tabular : bool
        Use ``BICUBIC&HEOS`` tables instead of the ``HEOS`` equation of state.
    """

    def __init__(self, fluid: str, tabular: bool = False) -> None:
        super().__init__(fluid, tabular)
        self._ph_held = None  # the (p, h) that _as_ph holds
        # two-phase (p, h) states in closed form from the saturation records (HEOS only: the
        # tables of BICUBIC interpolate their own two-phase values)
        self._closed_two_phase = not tabular
        self._near_ps: tuple[float, float, float] | None = None  # last (p, T, rho) from (p, s)

    # == (p, h) states ============================================================================
    def _ph(self, p: float, h: float, what: str = "state from (p, h)") -> PHRecord:
        """The record of the (p, h) flash: remembered, or flashed on ``_as_ph`` and read."""
        key = (OP_PH, p, h)
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
        if self._closed_two_phase and p >= self.p_crit:
            record = self._supercritical(p, h)
            if record is not None:
                memo = self._memo
                if len(memo) >= MEMO_SIZE:
                    del memo[next(iter(memo))]
                memo[key] = record
                return record
        state = self._as_ph
        self._flashes += 1
        try:
            state.update(HP, h, p)
        except ValueError as exc:
            self._ph_held = None
            raise self.error(what, self._ph_reason(p, h, str(exc).strip()), p=p, h=h) from None
        self._ph_held = (p, h)
        T = state.T()
        s = state.smass()
        rho = state.rhomass()
        phase = state.phase()
        quality = state.Q() if phase == TWO_PHASE else math.nan
        if T != T or s != s or rho != rho:  # NaN
            raise self.error(what, f"CoolProp returned T={T}, s={s}, rho={rho}", p=p, h=h)
        if self._closed_two_phase and phase != TWO_PHASE:
            polished = polish_ph(self._as_check, p, h, T, rho, phase)
            if polished is not None:
                T, s, rho = polished
                self._ph_held = None  # _as_ph holds the flash, not the polished state
        record = (T, s, rho, phase, quality)
        if self._closed_two_phase and p >= self.p_crit and phase != TWO_PHASE:
            state = self._as_check if self._ph_held is None else state
            try:
                t_h = state.first_partial_deriv(CP.iT, CP.iHmass, CP.iP)
                rho_h = state.first_partial_deriv(CP.iDmass, CP.iHmass, CP.iP)
            except ValueError:
                t_h = rho_h = 0.0
            self._keep_super((p, h, T, rho, t_h, rho_h))
        memo = self._memo
        if len(memo) >= MEMO_SIZE:
            del memo[next(iter(memo))]
        memo[key] = record
        return record

    def _ph_reason(self, p: float, h: float, coolprop: str) -> str:
        """Why a (p, h) flash failed, physically first: the pressure or enthalpy out of range.

        The fluid's pressure range, then its enthalpy range at ``p`` (:meth:`h_min` and
        :meth:`h_max`, the states at its lowest and highest temperature); CoolProp's own
        message follows in parentheses. Only CoolProp's message when neither is out of range.
        """
        if p != p or h != h:  # NaN
            return f"not a number (CoolProp: {coolprop})"
        if p > self.p_max or p < self.p_min:
            side = "above the highest" if p > self.p_max else "below the lowest"
            limit = self.p_max if p > self.p_max else self.p_min
            return (
                f"the pressure is {side} pressure of {self.name}'s equation of state, "
                f"{limit / 1e5:.4g} bar (CoolProp: {coolprop})"
            )
        bounds = []
        for bound in (self.h_min, self.h_max):
            try:
                bounds.append(float(bound(p)))
            except FluidPropertyError:
                bounds.append(math.nan)
        if h > bounds[1]:
            return (
                f"the enthalpy is above the highest {self.name} reaches at {p / 1e5:.4g} bar, "
                f"{bounds[1] / 1e3:.4g} kJ/kg at its highest temperature "
                f"{self._t_max:.5g} K (CoolProp: {coolprop})"
            )
        if h < bounds[0]:
            return (
                f"the enthalpy is below the lowest {self.name} reaches at {p / 1e5:.4g} bar, "
                f"{bounds[0] / 1e3:.4g} kJ/kg at its lowest temperature (CoolProp: {coolprop})"
            )
        return coolprop

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
        # (the last state on each side inline, the pool only when it is on another isobar:
        # this runs for every two-phase state too)
        reach = NEAR_ISOBAR * p
        near = self._near_vap
        if near is None or abs(near[0] - p) > reach:
            near = self._pool_vap.get(p) if self._pool_vap else None
        if near is not None:
            h_sat = near[6][SAT_H]
            if h > h_sat + max(1.0, 1e-6 * abs(h_sat)):
                return self._newton_ph(p, h, near[6], False, near)
        near = self._near_liq
        if near is None or abs(near[0] - p) > reach:
            near = self._pool_liq.get(p) if self._pool_liq else None
        if near is not None:
            h_sat = near[6][SAT_H]
            if h < h_sat - max(1.0, 1e-6 * abs(h_sat)):
                return self._newton_ph(p, h, near[6], True, near)
        memo = self._memo
        try:
            liq = memo.get((OP_PQ, p, 0.0)) or self._pq(p, 0.0, "h_liq")
            if h < liq[SAT_H]:
                return self._newton_ph(p, h, liq, True)
            vap = memo.get((OP_PQ, p, 1.0)) or self._pq(p, 1.0, "h_vap")
        except FluidPropertyError:
            return None
        h_l, h_v = liq[SAT_H], vap[SAT_H]
        if h > h_v:
            return self._newton_ph(p, h, vap, False)
        if h_v <= h_l:
            return None
        x = (h - h_l) / (h_v - h_l)
        v_l = 1.0 / liq[SAT_RHO]
        return (
            liq[SAT_T] + x * (vap[SAT_T] - liq[SAT_T]),
            liq[SAT_S] + x * (vap[SAT_S] - liq[SAT_S]),
            1.0 / (v_l + x * (1.0 / vap[SAT_RHO] - v_l)),
            TWO_PHASE,
            x,
        )

    def _newton_ph(
        self, p: float, h: float, sat: SatRecord, liquid: bool, near: Near | None = None
    ) -> PHRecord | None:
        """A single-phase (p, h) state by Newton's method on (T, rho) updates; None if it fails.

        :func:`~workbench.fluids.coolprop.newton.newton_rho_t` with the phase imposed, from
        the last state computed on this isobar on the same side of the dome (moved to first
        order along the isobar with its ``dT/dh`` and ``drho/dh``), else from the saturated
        state ``sat``. The result must be on its side of the dome (colder and denser than the
        saturated liquid, or hotter and lighter than the saturated vapour) and inside the
        fluid's temperature range.
        """
        if near is None:
            near = self._near_on(p, liquid)
        if near is not None and abs(near[1] - h) < abs(sat[SAT_H] - h):
            # first order along the isobar from the last state: one update lands within ~1e-6
            step = h - near[1]
            T, rho = near[2] + near[4] * step, near[3] + near[5] * step
        else:
            T, rho = sat[SAT_T], sat[SAT_RHO]
        phase = CP.iphase_liquid if liquid else CP.iphase_gas
        self._ph_held = None
        self._flashes += 1
        found = newton_rho_t(self._as_ph, phase, p, h, BY_H, T, rho, self._t_min, self._t_max, True)
        if found is None:
            return None
        T, rho, s, held, t_h, rho_h = found
        if not on_its_side(T, rho, sat, liquid):
            return None
        self._keep_near((p, h, T, rho, t_h, rho_h, sat), liquid)
        if is_bad(s):
            return None
        self._ph_held = (p, h) if held else None
        seen = self._slopes_seen
        if seen is None or len(seen) >= SLOPES_KEPT:
            seen = self._slopes_seen = {}
        seen[(p, h)] = t_h  # NaN only if CoolProp's derivative failed: dT_dh_p_estimate skips it
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
            if record[PH_PHASE] == TWO_PHASE:
                # a flash on the dome's edge may report a quality a rounding error beyond 0..1
                quality = min(max(record[PH_QUALITY], 0.0), 1.0)
                self._flash(state, PQ, p, quality, what, p=p, h=h)
            elif self.tabular:
                self._flash(state, HP, h, p, what, p=p, h=h)
            else:
                state.specify_phase(record[PH_PHASE])  # type: ignore[arg-type]  # an int code
                try:
                    self._flash(state, DT, record[PH_RHO], record[PH_T], what, p=p, h=h)
                finally:
                    state.unspecify_phase()
            self._ph_held = (p, h)
        return self._as_ph

    # == (p, T) and (p, s) states =================================================================
    def _h_from(self, op: int, pair: Any, p: float, b: float, what: str, b_name: str) -> float:
        """Enthalpy of a (p, T) or (p, s) flash (``b_name`` ``"T"`` or ``"s"``), remembered."""
        key = (op, p, b)
        memo = self._memo
        value: float | None = memo.get(key)
        if value is not None:
            return value
        if op == OP_PS and self._closed_two_phase and p < self.p_crit:
            found = self._newton_ps(p, b)
            if found is not None:
                if len(memo) >= MEMO_SIZE:
                    del memo[next(iter(memo))]
                memo[key] = found
                return found
        if op == OP_PS and self._closed_two_phase and p >= self.p_crit:
            found = self._supercritical_ps(p, b)
            if found is not None:
                if len(memo) >= MEMO_SIZE:
                    del memo[next(iter(memo))]
                memo[key] = found
                return found
        supercritical = op == OP_PT and self._closed_two_phase and p >= self.p_crit
        if supercritical:
            newton = self._supercritical_h(p, b)
            if newton is not None:
                if len(memo) >= MEMO_SIZE:
                    del memo[next(iter(memo))]
                memo[key] = newton
                return newton
        state = self._as
        phase = self._tabular_phase(p, b) if self.tabular and op == OP_PT else None
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
        if op == OP_PT and not supercritical:
            self._keep_pt_slopes(p, b, state)
        if op == OP_PS and self._closed_two_phase and p >= self.p_crit:
            self._near_ps_super = (p, state.T(), state.rhomass())
        if supercritical:
            h = self._polish_pt(p, b, h)
        if len(memo) >= MEMO_SIZE:
            del memo[next(iter(memo))]
        memo[key] = h
        return h

    # (p, T) states flashed below the critical pressure: (cp, (dh/dp)_T) read off the flashed
    # state, for the slope of a coil's outlet spec (h_pT_with_slopes); a new dict when full
    _pt_slopes: dict[tuple[float, float], tuple[float, float]] | None = None

    def _keep_pt_slopes(self, p: float, T: float, state: Any) -> None:
        """Remember ``cp`` and ``(dh/dp)_T`` of the (p, T) state ``state`` holds (two partials)."""
        try:
            cp = float(state.first_partial_deriv(CP.iHmass, CP.iT, CP.iP))
            h_p = float(state.first_partial_deriv(CP.iHmass, CP.iP, CP.iT))
        except ValueError:
            return
        if is_bad(cp) or is_bad(h_p) or not cp > 0.0:
            return
        seen = self._pt_slopes
        if seen is None or len(seen) >= SLOPES_KEPT:
            seen = self._pt_slopes = {}
        seen[(p, T)] = (cp, h_p)

    def h_pT_with_slopes(self, p: float, T: float) -> tuple[float, float, float] | None:
        """Enthalpy at a single-phase (p, T) with ``cp`` and ``(dh/dp)_T``; else None.

        Above the critical pressure :meth:`CoolPropSupercritical.h_pT_slopes` (which stays
        supercritical only: a gas cooler's levels shift to first order only there). Below it the
        enthalpy is :meth:`h_pT`'s (one counted call, the same value) and the slopes were read
        off the flashed state when it was flashed (else a (p, T) update of the check state
        gives them): a coil's outlet spec ``h(p, T_sat(p) +- delta)`` then has the analytic
        slope ``(dh/dp)_T + cp dT/dp`` instead of a second flash at a shifted pressure.

        Parameters
        ----------
        p : float
            Pressure [Pa].
        T : float
            Temperature [K].

        Returns
        -------
        tuple of float or None
            ``h`` [J/kg], ``cp`` [J/(kg K)] and ``(dh/dp)_T`` [J/(kg Pa)]; None with the
            tabular backend or when CoolProp gives no slopes there.

        Raises
        ------
        FluidPropertyError
            As :meth:`h_pT`.
        """
        if self.tabular or p >= self.p_crit:
            return self.h_pT_slopes(p, T)
        h = float(self.h_pT(p, T))
        seen = self._pt_slopes.get((p, T)) if self._pt_slopes else None
        if seen is None:
            state = self._as_check
            self._flashes += 1
            try:
                state.update(PT, p, T)
            except ValueError:
                return None
            self._keep_pt_slopes(p, T, state)
            seen = self._pt_slopes.get((p, T)) if self._pt_slopes else None
            if seen is None:
                return None
        return h, seen[0], seen[1]

    def _newton_ps(self, p: float, s: float) -> float | None:
        """Enthalpy [J/kg] of superheated vapour at (p, s) by Newton on (T, rho); else None.

        As :meth:`_newton_ph` with ``s(T, rho) = s`` for the second equation (a compressor's
        isentropic outlet: CoolProp's (p, s) flash costs 30-90 us), started from the last
        (p, s) state when it was on the same isobar, else from the saturated vapour. Only for
        ``s`` above the saturated vapour's entropy by a margin; None otherwise (the caller
        flashes).
        """
        try:
            vap = self._memo.get((OP_PQ, p, 1.0)) or self._pq(p, 1.0, "s_vap")
        except FluidPropertyError:
            return None
        if not s > vap[SAT_S] + max(1e-3, 1e-7 * abs(vap[SAT_S])):
            return None
        near = self._near_ps
        if near is not None and abs(near[0] - p) <= NEAR_ISOBAR * p:
            T, rho = near[1], near[2]
        else:
            T, rho = vap[SAT_T], vap[SAT_RHO]
        self._ph_held = None
        self._flashes += 1
        found = newton_rho_t(
            self._as_ph, CP.iphase_gas, p, s, BY_S, T, rho, self._t_min, self._t_max, False
        )
        if found is None:
            return None
        T, rho, h = found[0], found[1], found[2]
        if not (vap[SAT_T] <= T and rho <= vap[SAT_RHO]) or is_bad(h):
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
        if t < self._pq(p, 0.0, "T_bubble")[SAT_T]:
            return CP.iphase_liquid
        if t > self._pq(p, 1.0, "T_dew")[SAT_T]:
            return CP.iphase_gas
        return None

    def _liquid_h(self, p: float, T: float) -> float:
        """Enthalpy [J/kg] of the liquid at (p, T), the phase imposed on the (p, T) flash."""
        state = self._as
        self._flashes += 1
        state.specify_phase(CP.iphase_liquid)
        try:
            state.update(PT, p, T)
            h: float = state.hmass()
        except ValueError as exc:
            raise self.error("h_min", str(exc).strip(), p=p, T=T) from None
        finally:
            state.unspecify_phase()
        if is_bad(h):
            raise self.error("h_min", f"CoolProp returned {h}", p=p, T=T)
        return h
