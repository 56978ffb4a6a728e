"""Supercritical states of the CoolProp backend by Newton's method from remembered states.

The layer between :class:`~workbench.fluids.coolprop.core.CoolPropCore` and
:class:`~workbench.fluids.coolprop.states.CoolPropStates`. Above the critical pressure
CoolProp's flashes of CO2 are slow (a (p, h) flash near the pseudo-critical temperature 0.2-1
ms, a (p, T) flash 30-60 us, a (p, s) flash 0.1-0.3 ms), while a (rho, T) update costs a few
microseconds. The backend remembers the last :data:`SUPER_ANCHORS` supercritical states it
found (pressure, enthalpy, temperature, density and their slopes along the isobar) and finds a
new one by Newton's method on (rho, T) updates
(:func:`~workbench.fluids.coolprop.newton.newton_rho_t`; for (p, T) Halley's method on the
density alone, :func:`~workbench.fluids.coolprop.newton.newton_rho_at_t`) from the nearest of
them, moved to first order along its isobar; only a start within :data:`SUPERCRITICAL_REACH`
in enthalpy and :data:`SUPER_PRESSURE_REACH` in pressure is used, so that Newton never crosses
the pseudo-critical region in one go. The states are converged to 1e-13 relative, to where
CoolProp's own flashes stop (its (p, T) flash of CO2 near the pseudo-critical temperature
misses its pressure by up to 5e-9). A start that fails, or a result on the wrong side of the
critical density below the critical temperature, falls back to the flash.
"""

from __future__ import annotations

import math

import CoolProp.CoolProp as CP

from workbench.fluids.coolprop.core import CoolPropCore
from workbench.fluids.coolprop.newton import BY_H, BY_S, newton_rho_at_t, newton_rho_t
from workbench.fluids.coolprop.records import MEMO_SIZE, OP_PT, PHRecord, is_bad
from workbench.fluids.coolprop.supercritical_isobars import IsobarAnchors, SuperState, hermite

__all__ = [
    "NEAREST_ENOUGH",
    "PRESSURE_WEIGHT",
    "SUPERCRITICAL",
    "SUPERCRITICAL_LIQUID",
    "SUPERCRITICAL_REACH",
    "SUPER_ANCHORS",
    "SUPER_PRESSURE_REACH",
    "CoolPropSupercritical",
    "SuperState",
]

SUPERCRITICAL_REACH = 0.05
"""A supercritical (p, h) or (p, T) state is found by Newton's method from a remembered one
when their enthalpies (estimated to first order for a (p, T) state) differ by at most this
share [-]; farther, it is flashed."""

SUPER_PRESSURE_REACH = 0.2
"""... and their pressures by at most this share [-] (a Newton iterate's new high-side
pressure, a gas cooler with a pressure drop); a start that does not converge falls back to
the flash."""

PRESSURE_WEIGHT = 0.2
"""Weight of the relative pressure distance against the relative enthalpy distance when the
nearest remembered state is chosen [-] (Newton closes a pressure gap more easily)."""

NEAREST_ENOUGH = 0.03
"""A remembered state this near (relative distance) is taken without looking further."""

SUPER_ANCHORS = 96
"""Supercritical states remembered as starts (a gas cooler's temperature tables span their
isobars with about 45 each; the newest is tried first)."""

SUPERCRITICAL = int(CP.iphase_supercritical)
SUPERCRITICAL_LIQUID = int(CP.iphase_supercritical_liquid)


class CoolPropSupercritical(CoolPropCore):
    """Supercritical (p, h), (p, T) and (p, s) states by Newton's method (module docstring).

    Parameters
    ----------
    fluid : str
        Fluid name CoolProp understands (already resolved by :func:`get_backend`).
    tabular : bool
        Use ``BICUBIC&HEOS`` tables instead of the ``HEOS`` equation of state (then nothing
        here is used: the tables interpolate their own states).
    """

    _ph_held: tuple[float, float] | None

    def __init__(self, fluid: str, tabular: bool = False) -> None:
        super().__init__(fluid, tabular)
        self._ph_held = None  # the (p, h) that _as_ph holds
        # the last supercritical states, newest last (starts for Newton's method)
        self._super: list[SuperState] = []
        self._isobars = IsobarAnchors()  # the same states by isobar, sorted along it
        self._near_ps_super: tuple[float, float, float] | None = None  # last (p, T, rho) of (p, s)
        # the last supercritical (p, T) state found by Newton: p, T, cp and (dh/dp)_T
        self._pt_last: tuple[float, float, float, float] | None = None
        self._t_crit_k = float(self._as_ph.T_critical()) if not tabular else math.inf
        self._rho_crit = float(self._as_ph.rhomass_critical()) if not tabular else math.nan

    def _supercritical(self, p: float, h: float) -> PHRecord | None:
        """A (p, h) state above the critical pressure by Newton's method; None if it fails.

        Near a remembered supercritical state (a gas cooler's profile, its temperature table,
        a finite-difference column, the last iterate's pressure): :func:`~workbench.fluids.
        coolprop_newton.newton_rho_t` from it, moved to first order along its isobar, with the
        phase imposed: a few 1 us (rho, T) updates where CoolProp's (p, h) flash of CO2 near
        its pseudo-critical temperature costs 0.2-1 ms, converged to 1e-13 (the flash and its
        polish reach the same state). Only a start within :data:`SUPERCRITICAL_REACH` of the
        state's enthalpy and :data:`SUPER_PRESSURE_REACH` of its pressure is used, so that
        Newton never crosses the pseudo-critical region in one go.
        """
        starts = self._isobars.around(p, h, False, SUPERCRITICAL_REACH)
        near, partner = starts if starts is not None else (self._super_anchor(p, h, None), None)
        if near is None:
            return None
        if partner is None:
            step = h - near[1]
            T, rho = near[2] + near[4] * step, near[3] + near[5] * step
        else:  # the cubic along the isobar through both states (their values and slopes)
            T = hermite(h, partner[1], near[1], partner[2], near[2], partner[4], near[4])
            rho = hermite(h, partner[1], near[1], partner[3], near[3], partner[5], near[5])
        if not rho > 0.0:
            T, rho = near[2], near[3]
        self._ph_held = None
        self._flashes += 1
        phase = SUPERCRITICAL if self._t_crit_k <= T else SUPERCRITICAL_LIQUID
        found = newton_rho_t(self._as_ph, phase, p, h, BY_H, T, rho, self._t_min, self._t_max, True)
        if found is None:
            return None
        T, rho, s, held, t_h, rho_h = found
        if is_bad(s) or (self._t_crit_k > T and rho < self._rho_crit):
            return None
        self._ph_held = (p, h) if held else None
        # CoolProp's phase above the critical pressure: by the temperature alone
        phase = SUPERCRITICAL if self._t_crit_k <= T else SUPERCRITICAL_LIQUID
        self._keep_super((p, h, T, rho, t_h, rho_h))
        return (T, s, rho, phase, math.nan)

    def _super_anchor(self, p: float, h: float, t: float | None) -> SuperState | None:
        """The remembered supercritical state nearest to ``(p, h)`` (or ``(p, T)``), or None.

        With ``t`` given the enthalpy distance is estimated to first order, ``(T - T0) /
        (dT/dh)_p``. Nearest by the relative enthalpy distance plus the relative pressure
        distance, within :data:`SUPERCRITICAL_REACH` and :data:`SUPER_PRESSURE_REACH`.
        """
        kept = self._super
        if not kept:
            return None
        best: SuperState | None = None
        best_d = SUPERCRITICAL_REACH
        p_reach = SUPER_PRESSURE_REACH * p
        for k in range(len(kept) - 1, -1, -1):
            near = kept[k]
            dp = abs(near[0] - p)
            if dp > p_reach:
                continue
            if t is None:
                dh = abs(h - near[1])
            elif near[4] > 0.0:
                dh = abs((t - near[2]) / near[4])
            else:
                continue
            d = dh / max(abs(near[1]), 1.0) + PRESSURE_WEIGHT * dp / p
            if d <= best_d:
                if d <= NEAREST_ENOUGH:
                    return near  # the newest state this close: no better start to look for
                best, best_d = near, d
        return best

    def _keep_super(self, state: SuperState) -> None:
        """Remember a supercritical state as a start (the oldest of :data:`SUPER_ANCHORS` goes)."""
        kept = self._super
        kept.append(state)
        if len(kept) > SUPER_ANCHORS:
            del kept[0]
        self._isobars.add(state)

    def _supercritical_h(self, p: float, T: float) -> float | None:
        """Enthalpy [J/kg] at (p, T) above the critical pressure by Newton's method; else None.

        :func:`~workbench.fluids.coolprop.newton.newton_rho_at_t` (the density at the given
        temperature) from the nearest remembered supercritical state, its density moved to
        first order in the temperature: a gas cooler's temperature table steps along its
        isobar, each node next to the last.
        """
        starts = self._isobars.around(p, T, True, SUPERCRITICAL_REACH)
        near, partner = starts if starts is not None else (self._super_anchor(p, math.nan, T), None)
        if near is None:
            return None
        if partner is None:
            rho = near[3] + near[5] / near[4] * (T - near[2])
        else:  # the cubic in T along the isobar through both states: (drho/dT)_p = rho_h / T_h
            rho = hermite(
                T,
                partner[2],
                near[2],
                partner[3],
                near[3],
                partner[5] / partner[4],
                near[5] / near[4],
            )
        if not rho > 0.0:
            rho = near[3]
        phase = SUPERCRITICAL if self._t_crit_k <= T else SUPERCRITICAL_LIQUID
        self._flashes += 1
        found = newton_rho_at_t(self._as, phase, p, T, rho)
        if found is None:
            return None
        rho, h, t_h, rho_h, h_p = found
        if self._t_crit_k > T and rho < self._rho_crit:
            return None
        self._keep_super((p, h, T, rho, t_h, rho_h))
        self._pt_last = (p, T, 1.0 / t_h, h_p)
        return h

    def _polish_pt(self, p: float, T: float, h: float) -> float:
        """The enthalpy [J/kg] of a (p, T) flash above the critical pressure, made exact.

        CoolProp's (p, T) flash of CO2 near the pseudo-critical temperature misses its pressure
        by up to 5e-9; Halley's method from the flashed density
        (:func:`~workbench.fluids.coolprop.newton.newton_rho_at_t`, one or two updates) brings
        it to the state the Newton path finds, so that a state does not depend on whether it
        was flashed or found from a neighbour. The state is remembered as a start. ``h`` (the
        flash's) when that fails.
        """
        state = self._as
        rho = float(state.rhomass())
        phase = SUPERCRITICAL if self._t_crit_k <= T else SUPERCRITICAL_LIQUID
        found = newton_rho_at_t(state, phase, p, T, rho)
        if found is None:
            return h
        rho, h_exact, t_h, rho_h, h_p = found
        self._keep_super((p, h_exact, T, rho, t_h, rho_h))
        self._pt_last = (p, T, 1.0 / t_h, h_p)
        return h_exact

    def h_pT_slopes(self, p: float, T: float) -> tuple[float, float, float] | None:
        """Enthalpy at (p, T) above the critical pressure with its two slopes; else None.

        The enthalpy is :meth:`h_pT`'s (one counted call, the same value); the slopes
        ``cp = (dh/dT)_p`` and ``(dh/dp)_T`` come with the Newton state that found it (no
        further update) or, when the enthalpy was remembered or flashed, from a (p, T) update
        of the check state. A gas cooler's isobar carries them to follow its nodes to first
        order in the pressure (:mod:`workbench.components.exchangers.gas_cooler.isobar`).

        Parameters
        ----------
        p : float
            Pressure [Pa].
        T : float
            Temperature [K].

        Returns
        -------
        tuple of float or None
            ``h`` [J/kg], ``cp`` [J/(kg K)] and ``(dh/dp)_T`` [J/(kg Pa)]; None below the
            critical pressure or with the tabular backend.

        Raises
        ------
        FluidPropertyError
            As :meth:`h_pT`.
        """
        if self.tabular or not p >= self.p_crit:
            return None
        # h_pT's path without its layers: the remembered value, else Newton, else the flash
        self._calls += 1
        key = (OP_PT, p, T)
        memo = self._memo
        remembered: float | None = memo.get(key)
        if remembered is not None:
            h = remembered
        else:
            newton = self._supercritical_h(p, T)
            if newton is None:  # h_pT flashes (and counts the call)
                self._calls -= 1
                h = float(self.h_pT(p, T))
            else:
                h = newton
                if len(memo) >= MEMO_SIZE:
                    del memo[next(iter(memo))]
                memo[key] = h
        last = self._pt_last
        if last is not None and last[0] == p and last[1] == T:
            return h, last[2], last[3]
        state = self._as_check
        self._flashes += 1
        try:
            state.update(CP.PT_INPUTS, p, T)
            cp = float(state.first_partial_deriv(CP.iHmass, CP.iT, CP.iP))
            h_p = float(state.first_partial_deriv(CP.iHmass, CP.iP, CP.iT))
        except ValueError:
            return None
        if is_bad(cp) or is_bad(h_p) or not cp > 0.0:
            return None
        self._pt_last = (p, T, cp, h_p)
        return h, cp, h_p

    def _supercritical_ps(self, p: float, s: float) -> float | None:
        """Enthalpy [J/kg] at (p, s) above the critical pressure by Newton; else None.

        :func:`~workbench.fluids.coolprop.newton.newton_rho_t` with the entropy as second
        input, from the last supercritical (p, s) state when its pressure is within
        :data:`SUPER_PRESSURE_REACH` (a compressor's isentropic discharge from one iterate to
        the next: CoolProp's (p, s) flash of CO2 there costs 0.1-0.3 ms).
        """
        near = self._near_ps_super
        if near is None or abs(near[0] - p) > SUPER_PRESSURE_REACH * p:
            return None
        T, rho = near[1], near[2]
        phase = SUPERCRITICAL if self._t_crit_k <= T else SUPERCRITICAL_LIQUID
        self._ph_held = None
        self._flashes += 1
        found = newton_rho_t(
            self._as_ph, phase, p, s, BY_S, T, rho, self._t_min, self._t_max, False
        )
        if found is None:
            return None
        T, rho, h = found[0], found[1], found[2]
        if is_bad(h) or (self._t_crit_k > T and rho < self._rho_crit):
            return None
        self._near_ps_super = (p, T, rho)
        return float(h)
