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

The backend is built in layers, one module each: :mod:`~workbench.fluids.coolprop.records`
(input codes, memo keys, record layouts, the fluid's constants),
:mod:`~workbench.fluids.coolprop.core` (the ``AbstractState`` objects, the memo, counted
flashes and saturation records), :mod:`~workbench.fluids.coolprop.newton` (the Newton
iteration on (rho, T) updates, for (p, h) and (p, s) states alike, and the polish of a
(p, h) flash), :mod:`~workbench.fluids.coolprop.states` ((p, h), (p, s) and (p, T) states)
and this module (the public methods: states, saturation, limits, derivatives).

Every CoolProp failure and every NaN result becomes a
:class:`~workbench.errors.FluidPropertyError` naming fluid, backend and inputs.
The object is not thread-safe (its states hold the last flash); use one backend per thread
(:func:`workbench.fluids.lease_backend` lends one).
"""

from __future__ import annotations

import contextlib
from typing import Any

import CoolProp.CoolProp as CP

from workbench.errors import FluidPropertyError
from workbench.fluids.base import FluidState
from workbench.fluids.coolprop.newton import BY_H, newton_rho_t
from workbench.fluids.coolprop.records import (
    MEMO_SIZE,
    NEAR_ISOBAR,
    OP_DHLIQ,
    OP_DHVAP,
    OP_DRHO_DH,
    OP_DRHO_DP,
    OP_DTBUB,
    OP_DTDH,
    OP_DTDP,
    OP_DTSAT,
    OP_H_MIN,
    OP_PH,
    OP_PQ,
    OP_PS,
    OP_PT,
    OP_QT,
    PH_PHASE,
    PH_QUALITY,
    PH_RHO,
    PH_S,
    PH_T,
    PHASE_NAMES,
    PS,
    PT,
    QT,
    SAT_H,
    SAT_S,
    SAT_T,
    TWO_PHASE,
    PHRecord,
    SatRecord,
    is_bad,
)
from workbench.fluids.coolprop.states import CoolPropStates

__all__ = ["MEMO_SIZE", "NEAR_ISOBAR", "CoolPropBackend", "PHRecord", "SatRecord"]


class CoolPropBackend(CoolPropStates):
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

    def __init__(self, fluid: str, tabular: bool = False) -> None:
        super().__init__(fluid, tabular)
        # the last state T_rho_ph_outside found on each side: p, h, T, rho, dT/dh, drho/dh
        self._near_outside: dict[bool, tuple[float, ...]] = {}
        self._outside_memo: dict[tuple[float, float, bool], tuple[float, float]] = {}

    # == state from (p, h) =======================================================================
    def state_ph(self, p: float, h: float) -> FluidState:
        """Full state from pressure [Pa] and enthalpy [J/kg]."""
        self._calls += 1
        r = self._ph(p, h)
        phase = "supercritical" if p >= self.p_crit else PHASE_NAMES.get(r[PH_PHASE], "vapour")
        quality = r[PH_QUALITY] if phase == "two-phase" else None
        return FluidState(p, h, r[PH_T], r[PH_S], r[PH_RHO], quality, phase)

    def T_ph(self, p: float, h: float) -> float:
        """Temperature [K] from pressure [Pa] and enthalpy [J/kg]."""
        self._calls += 1
        record = self._memo.get((OP_PH, p, h))  # the remembered record without a call
        return (record if record is not None else self._ph(p, h))[PH_T]

    def s_ph(self, p: float, h: float) -> float:
        """Entropy [J/kg/K] from pressure [Pa] and enthalpy [J/kg]."""
        self._calls += 1
        return self._ph(p, h)[PH_S]

    def rho_ph(self, p: float, h: float) -> float:
        """Density [kg/m3] from pressure [Pa] and enthalpy [J/kg]."""
        self._calls += 1
        return self._ph(p, h)[PH_RHO]

    def T_rho_ph_outside(self, p: float, h: float, liquid: bool) -> tuple[float, float]:
        """Temperature [K] and density [kg/m3] of a (p, h) state the caller knows is single phase.

        For a march along a falling pressure (a plate exchanger's pieces in one zone): each
        state is on a new isobar, where :meth:`T_ph` flashes the saturation at ``p`` to find
        the side of the dome and starts Newton from the saturated state (about 20 us); this
        starts it from the last state this method found on the side ``liquid`` names (moved
        to first order along its isobar), without a saturation flash (about 6 us). The same
        Newton iteration to the same 1e-13, so the same state as :meth:`T_ph`'s to rounding;
        nothing is remembered for the other methods (the side is the caller's). :meth:`T_ph`
        and :meth:`rho_ph` answer at or above the critical pressure, for tables, without a
        last state within 5 % of ``p``, or when Newton fails.
        """
        self._calls += 1
        known = self._outside_memo.get((p, h, liquid))
        if known is not None:
            return known
        record = self._memo.get((OP_PH, p, h))
        near = self._near_outside.get(liquid)
        if (
            record is None
            and near is not None
            and not self.tabular
            and p < self.p_crit
            and abs(near[0] - p) <= 0.05 * p
        ):
            step = h - near[1]
            phase = CP.iphase_liquid if liquid else CP.iphase_gas
            self._ph_held = None
            self._flashes += 1
            found = newton_rho_t(
                self._as_ph, phase, p, h, BY_H, near[2] + near[4] * step,
                near[3] + near[5] * step, self._t_min, self._t_max, True,
            )  # fmt: skip
            if found is not None and not is_bad(found[2]):
                self._near_outside[liquid] = (p, h, found[0], found[1], found[4], found[5])
                return self._remember_outside(p, h, liquid, (found[0], found[1]))
        if record is None:
            record = self._ph(p, h)
            kept = self._near_liq if liquid else self._near_vap
            if kept is not None and kept[0] == p and kept[1] == h:  # the state _ph's Newton found
                self._near_outside[liquid] = kept[:6]
        return self._remember_outside(p, h, liquid, (record[PH_T], record[PH_RHO]))

    def _remember_outside(
        self, p: float, h: float, liquid: bool, value: tuple[float, float]
    ) -> tuple[float, float]:
        """Keep a :meth:`T_rho_ph_outside` answer by its exact inputs (the same answer again)."""
        memo = self._outside_memo
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[(p, h, liquid)] = value
        return value

    def quality_ph(self, p: float, h: float) -> float | None:
        """Quality [-] inside the dome, ``None`` outside."""
        self._calls += 1
        r = self._ph(p, h)
        return r[PH_QUALITY] if r[PH_PHASE] == TWO_PHASE else None

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
        return self._h_from(OP_PT, PT, p, T, "h from (p, T)", "T")

    def h_ps(self, p: float, s: float) -> float:
        """Enthalpy [J/kg] from pressure [Pa] and entropy [J/kg/K]."""
        self._calls += 1
        return self._h_from(OP_PS, PS, p, s, "h from (p, s)", "s")

    # == saturation ==============================================================================
    def T_sat(self, p: float) -> float:
        """Dew-point saturation temperature [K] at pressure [Pa] (``PQ``, ``Q = 1``)."""
        self._calls += 1
        record = self._memo.get((OP_PQ, p, 1.0))
        return (record if record is not None else self._pq(p, 1.0, "T_sat"))[SAT_T]

    def T_dew(self, p: float) -> float:
        """Dew-point temperature [K] at pressure [Pa]."""
        self._calls += 1
        return self._pq(p, 1.0, "T_dew")[SAT_T]

    def T_bubble(self, p: float) -> float:
        """Bubble-point temperature [K] at pressure [Pa] (``PQ``, ``Q = 0``)."""
        self._calls += 1
        return self._pq(p, 0.0, "T_bubble")[SAT_T]

    def p_sat(self, T: float) -> float:
        """Dew-point saturation pressure [Pa] at temperature [K] (``QT``, ``Q = 1``)."""
        self._calls += 1
        key = (OP_QT, 1.0, T)
        value = self._memo.get(key)
        if value is not None:
            return value  # type: ignore[no-any-return]
        self._flash(self._as, QT, 1.0, T, "p_sat", T=T)
        p = self._as.p()
        if is_bad(p):
            raise self.error("p_sat", f"CoolProp returned {p}", T=T)
        return self._remember(key, p)  # type: ignore[no-any-return]

    def h_liq(self, p: float) -> float:
        """Saturated liquid (bubble) enthalpy [J/kg] at pressure [Pa]."""
        self._calls += 1
        record = self._memo.get((OP_PQ, p, 0.0))
        return (record if record is not None else self._pq(p, 0.0, "h_liq"))[SAT_H]

    def h_vap(self, p: float) -> float:
        """Saturated vapour (dew) enthalpy [J/kg] at pressure [Pa]."""
        self._calls += 1
        record = self._memo.get((OP_PQ, p, 1.0))
        return (record if record is not None else self._pq(p, 1.0, "h_vap"))[SAT_H]

    def s_liq(self, p: float) -> float:
        """Saturated liquid (bubble) entropy [J/kg/K] at pressure [Pa]."""
        self._calls += 1
        return self._pq(p, 0.0, "s_liq")[SAT_S]

    def s_vap(self, p: float) -> float:
        """Saturated vapour (dew) entropy [J/kg/K] at pressure [Pa]."""
        self._calls += 1
        return self._pq(p, 1.0, "s_vap")[SAT_S]

    def h_min(self, p: float) -> float:
        """Lowest valid enthalpy [J/kg] at pressure [Pa]: the state at ``T_min`` or on the melting line."""
        self._calls += 1
        key = (OP_H_MIN, p, 0.0)
        value = self._memo.get(key)
        if value is not None:
            return value  # type: ignore[no-any-return]
        t_low = self._t_min
        if self._melting:
            with contextlib.suppress(ValueError):  # p outside the melting-line fit
                t_low = max(t_low, self._as.melting_line(CP.iT, CP.iP, p))
        try:
            h = self._h_from(OP_PT, PT, p, t_low + 1e-3, "h_min", "T")
        except FluidPropertyError:
            # CoolProp's (p, T) density guess can miss the cold liquid (R410A at 200 K): the
            # state at the lowest temperature is liquid at any pressure above the triple point
            h = self._liquid_h(p, t_low + 1e-3)
        return self._remember(key, h)  # type: ignore[no-any-return]

    def h_max(self, p: float) -> float:
        """Highest valid enthalpy [J/kg] at pressure [Pa]: the state at ``T_max``."""
        self._calls += 1
        return self._h_from(OP_PT, PT, p, self._t_max, "h_max", "T")

    # == derivatives =============================================================================
    def _ph_deriv(
        self, op: int, p: float, h: float, of: Any, wrt: Any, const: Any, what: str
    ) -> float:
        key = (op, p, h)
        value = self._memo.get(key)
        if value is not None:
            return value  # type: ignore[no-any-return]
        two_phase = self._ph(p, h, what)[PH_PHASE] == TWO_PHASE
        state = self._held_ph(p, h, what)
        try:
            if two_phase:
                value = state.first_two_phase_deriv(of, wrt, const)
            else:
                value = state.first_partial_deriv(of, wrt, const)
        except ValueError as exc:
            raise self.error(what, str(exc).strip(), p=p, h=h) from None
        if is_bad(value):
            raise self.error(what, f"CoolProp returned {value}", p=p, h=h)
        return self._remember(key, value)  # type: ignore[no-any-return]

    def dT_dh_p(self, p: float, h: float) -> float:
        """(dT/dh)_p [K kg/J]; inside the dome the glide slope (0 for a pure fluid)."""
        self._calls += 1
        if self._ph(p, h, "dT/dh")[PH_PHASE] != TWO_PHASE:
            return self._ph_deriv(OP_DTDH, p, h, CP.iT, CP.iHmass, CP.iP, "dT/dh")
        # T is linear in h between bubble and dew points at constant p
        bubble = self._pq(p, 0.0, "dT/dh")
        dew = self._pq(p, 1.0, "dT/dh")
        return (dew[SAT_T] - bubble[SAT_T]) / (dew[SAT_H] - bubble[SAT_H])

    def dT_dh_p_estimate(self, p: float, h: float) -> float:
        """(dT/dh)_p [K kg/J] to about 1e-6 relative, for the slope of an iteration.

        A single-phase state found by Newton's method ends with a step below 1e-7 taken to
        first order; its (dT/dh)_p at the update before that step is kept (the last
        :data:`~workbench.fluids.coolprop.isobars.SLOPES_KEPT`) and returned here without the
        (rho, T) update that :meth:`dT_dh_p` needs to bring the state back. Elsewhere (when
        the exact value is remembered, or none was kept) :meth:`dT_dh_p` itself. Not for a Jacobian or a result: a root-find's
        slope only steers its steps.
        """
        seen = self._slopes_seen
        if seen is not None and (OP_DTDH, p, h) not in self._memo:
            value = seen.get((p, h))
            if value is not None and value == value:  # not NaN
                self._calls += 1
                return value
        return self.dT_dh_p(p, h)

    def dT_dp_h(self, p: float, h: float) -> float:
        """(dT/dp)_h [K/Pa]; inside the dome the derivative of the quality-weighted temperature."""
        self._calls += 1
        record = self._ph(p, h, "dT/dp")
        if record[PH_PHASE] != TWO_PHASE:
            return self._ph_deriv(OP_DTDP, p, h, CP.iT, CP.iP, CP.iHmass, "dT/dp")
        dt_v = self._sat_deriv(OP_DTSAT, p, 1.0, CP.iT, "dT_sat/dp")
        if self._pure:
            return dt_v
        # blend: T = T_l + x (T_v - T_l), x = (h - h_l) / (h_v - h_l), everything a function of p
        liq, vap = self._pq(p, 0.0, "dT/dp"), self._pq(p, 1.0, "dT/dp")
        dt_l = self._sat_deriv(OP_DTBUB, p, 0.0, CP.iT, "dT_bubble/dp")
        dh_l = self._sat_deriv(OP_DHLIQ, p, 0.0, CP.iHmass, "dh_liq/dp")
        dh_v = self._sat_deriv(OP_DHVAP, p, 1.0, CP.iHmass, "dh_vap/dp")
        span = vap[SAT_H] - liq[SAT_H]
        x = record[PH_QUALITY]
        dx = (-dh_l - x * (dh_v - dh_l)) / span
        return dt_l + x * (dt_v - dt_l) + (vap[SAT_T] - liq[SAT_T]) * dx

    def drho_dp_h(self, p: float, h: float) -> float:
        """(drho/dp)_h [kg/m3/Pa] (two-phase: CoolProp's homogeneous two-phase derivative)."""
        self._calls += 1
        return self._ph_deriv(OP_DRHO_DP, p, h, CP.iDmass, CP.iP, CP.iHmass, "drho/dp")

    def drho_dh_p(self, p: float, h: float) -> float:
        """(drho/dh)_p [kg2/m3/J]."""
        self._calls += 1
        return self._ph_deriv(OP_DRHO_DH, p, h, CP.iDmass, CP.iHmass, CP.iP, "drho/dh")

    def dhliq_dp(self, p: float) -> float:
        """dh_liq/dp along the bubble line [J/kg/Pa]."""
        self._calls += 1
        return self._sat_deriv(OP_DHLIQ, p, 0.0, CP.iHmass, "dh_liq/dp")

    def dhvap_dp(self, p: float) -> float:
        """dh_vap/dp along the dew line [J/kg/Pa]."""
        self._calls += 1
        return self._sat_deriv(OP_DHVAP, p, 1.0, CP.iHmass, "dh_vap/dp")

    def dTbubble_dp(self, p: float) -> float:
        """dT_bubble/dp along the bubble line [K/Pa] (equal to :meth:`dTsat_dp` for a pure fluid)."""
        self._calls += 1
        if self._pure:
            return self._sat_deriv(OP_DTSAT, p, 1.0, CP.iT, "dT_sat/dp")
        return self._sat_deriv(OP_DTBUB, p, 0.0, CP.iT, "dT_bubble/dp")

    def dTsat_dp(self, p: float) -> float:
        """dT_sat/dp along the dew line [K/Pa]."""
        self._calls += 1
        return self._sat_deriv(OP_DTSAT, p, 1.0, CP.iT, "dT_sat/dp")
