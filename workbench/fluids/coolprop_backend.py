"""The ``CoolProp`` backend: CoolProp's low-level ``AbstractState`` behind the backend interface.

One ``AbstractState`` per backend object, reused for every call (``PropsSI`` rebuilds one per
call and is 30-50x slower). (p, h) flashes go to a ring of :data:`HP_CACHE_SIZE` states of
their own, so ``T_ph``, ``s_ph``, ``rho_ph`` and derivatives at any of the last few (p, h)
inputs cost no flash, and the results of the last :data:`MEMO_SIZE` ``h_pT`` and ``h_ps``
calls are remembered by exact inputs (a solver revisits the same compressor and coil states
many times per solve). ``HEOS`` is the default; ``tabular=True`` uses
``BICUBIC&HEOS`` (tables built on first use and cached by CoolProp in ``~/.CoolProp``).

Saturation of zeotropic or pseudo-pure blends (R410A has a glide of about 0.1 K): ``h_liq``
and ``s_liq`` are bubble-point values (``Q = 0``), ``h_vap``, ``s_vap``, ``T_sat``, ``p_sat``
and ``dTsat_dp`` are dew-point values (``Q = 1``), the convention for superheat; ``T_bubble``
gives the bubble temperature. All saturation calls use ``PQ``/``QT`` inputs.

Every CoolProp failure and every NaN result becomes a
:class:`~workbench.errors.FluidPropertyError` naming fluid, backend and inputs.
The object is not thread-safe (one ``AbstractState``); use one backend per thread.
"""

from __future__ import annotations

import contextlib
import math
from typing import Any

import CoolProp.CoolProp as CP

from workbench.errors import FluidPropertyError
from workbench.fluids.base import FluidBackend, FluidState, fmt_inputs

__all__ = ["CoolPropBackend"]

_HP = CP.HmassP_INPUTS
_PQ = CP.PQ_INPUTS
_QT = CP.QT_INPUTS
_PT = CP.PT_INPUTS
_PS = CP.PSmass_INPUTS
_TWO_PHASE = CP.iphase_twophase
_T = CP.AbstractState.T
_H = CP.AbstractState.hmass
_S = CP.AbstractState.smass
HP_CACHE_SIZE = 6
"""Number of (p, h) states kept flashed by the CoolProp backend."""

MEMO_SIZE = 32
"""Number of remembered ``h_pT`` and ``h_ps`` results (exact inputs; oldest dropped first)."""


def _remember(
    memo: dict[tuple[float, float], float], key: tuple[float, float], value: float
) -> None:
    if len(memo) >= MEMO_SIZE:
        del memo[next(iter(memo))]
    memo[key] = value


_PHASES = {
    CP.iphase_liquid: "liquid",
    CP.iphase_gas: "vapour",
    CP.iphase_supercritical_gas: "vapour",
    CP.iphase_supercritical_liquid: "supercritical",
    CP.iphase_supercritical: "supercritical",
    CP.iphase_twophase: "two-phase",
}


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
            self._as = CP.AbstractState(self.cp_backend, fluid)
        except ValueError as exc:
            raise self.error("creating the AbstractState", str(exc)) from None
        a = self._as
        self.T_crit = a.T_critical()
        self.p_crit = a.p_critical()
        self._t_min = a.Tmin()
        self._t_max = a.Tmax()
        self.p_min = a.trivial_keyed_output(CP.iP_triple) or 1.0
        self.p_max = a.pmax()
        # HP flashes go to a small ring of their own AbstractStates, so that the few states a
        # solver revisits (compressor suction and discharge, coil outlets) stay flashed while
        # saturation and (p, T) calls use ``self._as``
        self._hp_states = [self._as_new() for _ in range(HP_CACHE_SIZE)]
        self._hp_keys: list[tuple[float, float]] = [(math.nan, math.nan)] * HP_CACHE_SIZE
        self._hp_next = 0
        self._hp_index: dict[tuple[float, float], Any] = {}
        # the last results of the expensive (p, T) and (p, s) flashes, by exact inputs
        self._memo_pt: dict[tuple[float, float], float] = {}
        self._memo_ps: dict[tuple[float, float], float] = {}
        self._sat_bounds: dict[float, tuple[float, float]] = {}  # bubble and dew T per p
        self._pure = CP.get_fluid_param_string(fluid, "pure") == "true"
        self._melting = a.has_melting_line()
        self._limits: dict[tuple[str, float], float] = {}  # cache of h_min / h_max per pressure

    def error(self, what: str, reason: str, /, **inputs: Any) -> FluidPropertyError:
        """:class:`FluidPropertyError` naming fluid, CoolProp backend string, operation, inputs."""
        return FluidPropertyError(
            f"{self.name} (CoolProp {self.cp_backend}): {what} failed for {fmt_inputs(**inputs)}: {reason}"
        )

    # == core ====================================================================================
    def _update(self, pair: int, a: float, b: float, what: str, **inputs: Any) -> None:
        self._flashes += 1
        try:
            self._as.update(pair, a, b)
        except ValueError as exc:
            raise self.error(what, str(exc).strip(), **inputs) from None

    def _as_new(self) -> Any:
        return CP.AbstractState(self.cp_backend, self.name)

    def _hp(self, p: float, h: float) -> Any:
        """Flash at (p, h) unless one of the cached HP states has these inputs."""
        self._calls += 1
        key = (p, h)
        state = self._hp_index.get(key)
        if state is not None:
            return state
        self._flashes += 1
        i = self._hp_next
        self._hp_next = (i + 1) % HP_CACHE_SIZE
        self._hp_index.pop(self._hp_keys[i], None)
        state = self._hp_states[i]
        try:
            state.update(_HP, h, p)
        except ValueError as exc:
            self._hp_keys[i] = (math.nan, math.nan)
            raise self.error("state from (p, h)", str(exc).strip(), p=p, h=h) from None
        self._hp_keys[i] = key
        self._hp_index[key] = state
        return state

    def _checked(self, value: float, what: str, **inputs: Any) -> float:
        if value != value or value in (math.inf, -math.inf):
            self._hp_keys = [(math.nan, math.nan)] * HP_CACHE_SIZE
            self._hp_index.clear()
            raise self.error(what, f"CoolProp returned {value}", **inputs)
        return value

    def _sat(self, p: float, q: float, what: str) -> Any:
        self._calls += 1
        self._update(_PQ, p, q, what, p=p, q=q)
        return self._as

    # == state from (p, h) =======================================================================
    def state_ph(self, p: float, h: float) -> FluidState:
        """Full state from pressure [Pa] and enthalpy [J/kg]."""
        a = self._hp(p, h)
        T, s, rho = a.T(), a.smass(), a.rhomass()
        if T != T or s != s or rho != rho:
            self._checked(math.nan, "state from (p, h)", p=p, h=h)
        phase = _PHASES.get(a.phase(), "vapour")
        if p >= self.p_crit:
            phase = "supercritical"
        quality = a.Q() if phase == "two-phase" else None
        return FluidState(p, h, T, s, rho, quality, phase)

    def T_ph(self, p: float, h: float) -> float:
        """Temperature [K] from pressure [Pa] and enthalpy [J/kg]."""
        T = self._hp(p, h).T()
        return T if T == T else self._checked(T, "T from (p, h)", p=p, h=h)

    def s_ph(self, p: float, h: float) -> float:
        """Entropy [J/kg/K] from pressure [Pa] and enthalpy [J/kg]."""
        s = self._hp(p, h).smass()
        return s if s == s else self._checked(s, "s from (p, h)", p=p, h=h)

    def rho_ph(self, p: float, h: float) -> float:
        """Density [kg/m3] from pressure [Pa] and enthalpy [J/kg]."""
        d = self._hp(p, h).rhomass()
        return d if d == d else self._checked(d, "rho from (p, h)", p=p, h=h)

    def quality_ph(self, p: float, h: float) -> float | None:
        """Quality [-] inside the dome, ``None`` outside."""
        a = self._hp(p, h)
        return a.Q() if a.phase() == _TWO_PHASE else None

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
        memo = self._memo_pt.get((p, T))
        if memo is not None:
            return memo
        self._flashes += 1
        state = self._as
        phase = self._tabular_phase(p, T) if self.tabular else None
        try:
            if phase is not None:
                state.specify_phase(phase)
            state.update(_PT, p, T)
        except ValueError as exc:
            raise self.error("h from (p, T)", str(exc).strip(), p=p, T=T) from None
        finally:
            if phase is not None:
                state.unspecify_phase()
        h = state.hmass()
        if h != h:
            self._checked(h, "h from (p, T)", p=p, T=T)
        _remember(self._memo_pt, (p, T), h)
        return h

    def _tabular_phase(self, p: float, t: float) -> int | None:
        """Phase to impose on a tabular (p, T) flash, which otherwise can pick the wrong side
        of the saturation line a few kelvin away from it (CoolProp issue #629)."""
        if p >= self.p_crit:
            return None
        bounds = self._sat_bounds.get(p)
        if bounds is None:
            bounds = (self.T_bubble(p), self.T_dew(p))
            if len(self._sat_bounds) >= MEMO_SIZE:
                del self._sat_bounds[next(iter(self._sat_bounds))]
            self._sat_bounds[p] = bounds
        if t < bounds[0]:
            return CP.iphase_liquid
        if t > bounds[1]:
            return CP.iphase_gas
        return None

    def h_ps(self, p: float, s: float) -> float:
        """Enthalpy [J/kg] from pressure [Pa] and entropy [J/kg/K]."""
        self._calls += 1
        memo = self._memo_ps.get((p, s))
        if memo is not None:
            return memo
        self._flashes += 1
        state = self._as
        try:
            state.update(_PS, p, s)
        except ValueError as exc:
            raise self.error("h from (p, s)", str(exc).strip(), p=p, s=s) from None
        h = state.hmass()
        if h != h:
            self._checked(h, "h from (p, s)", p=p, s=s)
        _remember(self._memo_ps, (p, s), h)
        return h

    # == saturation ==============================================================================
    def _sat_out(self, p: float, q: float, out: Any, what: str) -> float:
        """One ``PQ`` flash and one output; the hot path of every saturation property."""
        self._calls += 1
        self._flashes += 1
        try:
            self._as.update(_PQ, p, q)
        except ValueError as exc:
            raise self.error(what, str(exc).strip(), p=p, q=q) from None
        value = out(self._as)
        if value != value:
            raise self.error(what, f"CoolProp returned {value}", p=p, q=q)
        return value

    def T_sat(self, p: float) -> float:
        """Dew-point saturation temperature [K] at pressure [Pa] (``PQ``, ``Q = 1``)."""
        return self._sat_out(p, 1.0, _T, "T_sat")

    def T_dew(self, p: float) -> float:
        """Dew-point temperature [K] at pressure [Pa]."""
        return self._sat_out(p, 1.0, _T, "T_dew")

    def T_bubble(self, p: float) -> float:
        """Bubble-point temperature [K] at pressure [Pa] (``PQ``, ``Q = 0``)."""
        return self._sat_out(p, 0.0, _T, "T_bubble")

    def p_sat(self, T: float) -> float:
        """Dew-point saturation pressure [Pa] at temperature [K] (``QT``, ``Q = 1``)."""
        self._calls += 1
        self._update(_QT, 1.0, T, "p_sat", T=T)
        return self._checked(self._as.p(), "p_sat", T=T)

    def h_liq(self, p: float) -> float:
        """Saturated liquid (bubble) enthalpy [J/kg] at pressure [Pa]."""
        return self._sat_out(p, 0.0, _H, "h_liq")

    def h_vap(self, p: float) -> float:
        """Saturated vapour (dew) enthalpy [J/kg] at pressure [Pa]."""
        return self._sat_out(p, 1.0, _H, "h_vap")

    def s_liq(self, p: float) -> float:
        """Saturated liquid (bubble) entropy [J/kg/K] at pressure [Pa]."""
        return self._sat_out(p, 0.0, _S, "s_liq")

    def s_vap(self, p: float) -> float:
        """Saturated vapour (dew) entropy [J/kg/K] at pressure [Pa]."""
        return self._sat_out(p, 1.0, _S, "s_vap")

    def h_min(self, p: float) -> float:
        """Lowest valid enthalpy [J/kg] at pressure [Pa]: the state at ``T_min`` or on the melting line."""
        key = ("min", p)
        value = self._limits.get(key)
        if value is None:
            t_low = self._t_min
            if self._melting:
                with contextlib.suppress(ValueError):  # p outside the melting-line fit
                    t_low = max(t_low, self._as.melting_line(CP.iT, CP.iP, p))
            value = self._limit(key, p, t_low + 1e-3)
        return value

    def h_max(self, p: float) -> float:
        """Highest valid enthalpy [J/kg] at pressure [Pa]: the state at ``T_max``."""
        key = ("max", p)
        value = self._limits.get(key)
        return value if value is not None else self._limit(key, p, self._t_max)

    def _limit(self, key: tuple[str, float], p: float, temp: float) -> float:
        if len(self._limits) > 512:
            self._limits.clear()
        value = self._limits[key] = self.h_pT(p, temp)
        return value

    # == derivatives =============================================================================
    def _deriv(self, p: float, h: float, of: int, wrt: int, const: int, what: str) -> float:
        a = self._hp(p, h)
        try:
            if a.phase() == _TWO_PHASE:
                value = a.first_two_phase_deriv(of, wrt, const)
            else:
                value = a.first_partial_deriv(of, wrt, const)
        except ValueError as exc:
            raise self.error(what, str(exc).strip(), p=p, h=h) from None
        return self._checked(value, what, p=p, h=h)

    def dT_dh_p(self, p: float, h: float) -> float:
        """(dT/dh)_p [K kg/J]; inside the dome the glide slope (0 for a pure fluid)."""
        a = self._hp(p, h)
        if a.phase() != _TWO_PHASE:
            try:
                value = a.first_partial_deriv(CP.iT, CP.iHmass, CP.iP)
            except ValueError as exc:
                raise self.error("dT/dh", str(exc).strip(), p=p, h=h) from None
            return self._checked(value, "dT/dh", p=p, h=h)
        # T is linear in h between bubble and dew points at constant p.
        t_l, h_l = self.T_bubble(p), self._as.hmass()
        t_v, h_v = self.T_dew(p), self._as.hmass()
        return (t_v - t_l) / (h_v - h_l)

    def drho_dp_h(self, p: float, h: float) -> float:
        """(drho/dp)_h [kg/m3/Pa] (two-phase: CoolProp's homogeneous two-phase derivative)."""
        return self._deriv(p, h, CP.iDmass, CP.iP, CP.iHmass, "drho/dp")

    def drho_dh_p(self, p: float, h: float) -> float:
        """(drho/dh)_p [kg2/m3/J]."""
        return self._deriv(p, h, CP.iDmass, CP.iHmass, CP.iP, "drho/dh")

    def _sat_deriv(self, p: float, q: float, of: int, what: str) -> float:
        if not self._pure:
            # Blends (pseudo-pure R410A...): CoolProp's Clapeyron-based saturation derivative
            # disagrees with its own PQ flashes by up to 0.5 %; differentiate the flashes.
            out = _T if of == CP.iT else _H
            dp = 1e-4 * p
            hi = self._sat_out(p + dp, q, out, what)
            return (hi - self._sat_out(p - dp, q, out, what)) / (2.0 * dp)
        a = self._sat(p, q, what)
        try:
            value = a.first_saturation_deriv(of, CP.iP)
        except ValueError as exc:
            raise self.error(what, str(exc).strip(), p=p, q=q) from None
        return self._checked(value, what, p=p, q=q)

    def dhliq_dp(self, p: float) -> float:
        """dh_liq/dp along the bubble line [J/kg/Pa]."""
        return self._sat_deriv(p, 0.0, CP.iHmass, "dh_liq/dp")

    def dhvap_dp(self, p: float) -> float:
        """dh_vap/dp along the dew line [J/kg/Pa]."""
        return self._sat_deriv(p, 1.0, CP.iHmass, "dh_vap/dp")

    def dTsat_dp(self, p: float) -> float:
        """dT_sat/dp along the dew line [K/Pa]."""
        return self._sat_deriv(p, 1.0, CP.iT, "dT_sat/dp")
