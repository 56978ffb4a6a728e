"""The backend of zeotropic blends: HEOS outside the dome, tables on and inside it.

A :class:`BlendBackend` is a :class:`~workbench.fluids.coolprop.backend.CoolPropBackend` whose
``AbstractState`` objects hold a HEOS mixture (the blend's components at its mole fractions)
and whose saturation and two-phase states come from the blend's tables
(:mod:`workbench.fluids.blend.tables`), because CoolProp 8's mixture (p, h) flash costs about
250 ms and its (p, Q) flash fails at some pressures:

- single-phase (p, h) and (p, s) states: Newton's method on exact HEOS (rho, T) updates with the
  phase imposed, from the tabulated bubble or dew point (as for pure fluids; each update about
  10 us for a mixture), so they are HEOS to 1e-13;
- (p, T) states: Newton's method on the density of HEOS (rho, T) updates with the phase
  imposed (liquid below the bubble point, gas above the dew point), else CoolProp's (p, T)
  flash with the phase imposed; inside the glide there is no (p, T) state (an error);
- saturation (bubble ``Q = 0`` and dew ``Q = 1``) and derivatives along the saturation lines:
  the tables' cubic splines in ``ln p``;
- inside the dome: the tables at ``z = (h - h_bubble) / (h_dew - h_bubble)``, giving T, s,
  rho and the quality, which for a blend is the **mass** vapour fraction (CoolProp's ``Q`` of a
  mixture is molar); the temperature slides from the bubble to the dew point (the glide);
  derivatives in the dome are central differences of the tables (a C2 spline).

Conventions: ``T_sat``, ``T_dew``, ``p_sat``, ``h_vap``, ``s_vap`` are dew-point values,
``T_bubble``, ``h_liq``, ``s_liq`` bubble-point values; :attr:`zeotropic` is True, which tells
the coils to measure subcooling from the bubble point.

Above the tables (a transcritical cycle's high side) the layer
:mod:`~workbench.fluids.blend.above` gives exact HEOS states from the blend's cricondenbar up
and refuses the band between the tables' top and the cricondenbar. A state below the tables'
lowest pressure, or in that band, raises a :class:`~workbench.errors.FluidPropertyError` naming
the state and the range, never an extrapolated value.
"""

from __future__ import annotations

import math
from typing import Any

import CoolProp
import CoolProp.CoolProp as CP

from workbench.errors import FluidPropertyError
from workbench.fluids.base import FluidBackend, FluidState
from workbench.fluids.blend.above import BlendAboveDome
from workbench.fluids.blend.spec import BlendSpec
from workbench.fluids.blend.tables import BlendTables
from workbench.fluids.coolprop.records import (
    DT,
    OP_PH,
    OP_PQ,
    PH_PHASE,
    PH_QUALITY,
    PT,
    SAT_H,
    SAT_RHO,
    SAT_T,
    TWO_PHASE,
    PHRecord,
    SatRecord,
    is_bad,
)

__all__ = ["BOUND_KEY", "NEWTON_PT_STEPS", "BlendBackend"]

BOUND_KEY = PT + 2000
"""Memo key offset of the enthalpy bounds ``h_min`` (+0) and ``h_max`` (+1) at a pressure."""

NEWTON_PT_STEPS = 30
"""Density updates a (p, T) state may take before the backend falls back to CoolProp's flash."""


class BlendBackend(BlendAboveDome):
    """Backend of one zeotropic blend (see the module docstring).

    Parameters
    ----------
    spec : BlendSpec
        The blend.
    tables : BlendTables
        Its saturation and two-phase tables.

    Attributes
    ----------
    spec : BlendSpec
        The blend.
    coolprop_version : str
        CoolProp version of the HEOS model and the tables.
    """

    zeotropic = True

    def __init__(self, spec: BlendSpec, tables: BlendTables) -> None:
        FluidBackend.__init__(self)
        self.spec = spec
        self.tables = tables
        self.name = spec.name
        self.tabular = False
        self.cp_backend = "HEOS"
        self.coolprop_version = CoolProp.__version__
        try:
            self._as = self._new_state()
            self._as_ph = self._new_state()
            self._as_check = self._new_state()
        except ValueError as exc:
            raise self.error("creating the AbstractState", str(exc)) from None
        self.T_crit = tables.t_crit
        self.p_crit = tables.p_crit
        self.p_min = tables.p_min
        self.p_max = tables.p_max
        self._t_min = float(self._as.Tmin())
        self._t_max = float(self._as.Tmax())
        self._pure = False
        self._melting = False
        self._sat_anchor: dict[float, Any] = {}
        self._memo: dict[tuple[int, float, float], Any] = {}
        self._ph_held = None
        self._closed_two_phase = True
        self._near_ps = None
        self._near_liq = None
        self._near_vap = None
        self._bound_rho: dict[bool, float] = {}  # last density of h_min (True), h_max (False)
        self._above_init()

    def _new_state(self) -> Any:
        state = CP.AbstractState("HEOS", self.spec.coolprop_fluids)
        state.set_mole_fractions(list(self.spec.mole_fractions))
        return state

    # == saturation from the tables ===============================================================
    def _pq(self, p: float, q: float, what: str) -> SatRecord:
        """Bubble (``q = 0``) or dew (``q = 1``) record (T, h, s, rho) from the tables."""
        key = (OP_PQ, p, q)
        record: SatRecord | None = self._memo.get(key)
        if record is not None:
            return record
        if q not in (0.0, 1.0):
            raise self.error(what, "only bubble (Q=0) and dew (Q=1) points are tabulated", p=p)
        self._flashes += 1
        try:
            row = self.tables.saturation(p, what)[int(q)]
        except FluidPropertyError as exc:
            raise self.error(what, str(exc), p=p, q=q) from None
        record = (float(row[0]), float(row[1]), float(row[2]), float(row[3]))
        return self._remember(key, record)  # type: ignore[no-any-return]

    def _sat_deriv(self, op: int, p: float, q: float, of: Any, what: str) -> float:
        """d(T or h)/dp along the bubble or dew line [per Pa], from the tables' spline."""
        try:
            slope = self.tables.saturation_slope(p, what)[int(q)]
        except FluidPropertyError as exc:
            raise self.error(what, str(exc), p=p, q=q) from None
        return float(slope[0] if of == CP.iT else slope[1])

    def p_sat(self, T: float) -> float:
        """Dew pressure [Pa] at temperature ``T`` [K] (the tables' dew line, inverted)."""
        self._calls += 1
        return self._pressure_at(T, 1.0, "p_sat")

    def p_bubble(self, T: float) -> float:
        """Bubble pressure [Pa] at temperature ``T`` [K]."""
        self._calls += 1
        return self._pressure_at(T, 0.0, "p_bubble")

    def _pressure_at(self, T: float, q: float, what: str) -> float:
        lo, hi = self.p_min, self.p_max
        t_lo, t_hi = self._pq(lo, q, what)[SAT_T], self._pq(hi, q, what)[SAT_T]
        if not t_lo <= T <= t_hi:
            raise self.error(what, f"outside the blend's tables ({t_lo:.2f} to {t_hi:.2f} K)", T=T)
        # Newton on ln p from a log-linear guess, bracketed
        u_lo, u_hi = math.log(lo), math.log(hi)
        u = u_lo + (u_hi - u_lo) * (T - t_lo) / (t_hi - t_lo)
        for _ in range(50):
            p = math.exp(u)
            miss = self._pq(p, q, what)[SAT_T] - T
            if abs(miss) < 1e-10:
                return p
            if miss > 0:
                u_hi = u
            else:
                u_lo = u
            slope = self._sat_deriv(0, p, q, CP.iT, what) * p
            step = -miss / slope if slope > 0 else math.nan
            u_new = u + step
            u = u_new if u_lo < u_new < u_hi else 0.5 * (u_lo + u_hi)
        raise self.error(what, "no convergence on the saturation line", T=T)

    # == the dome from the tables =================================================================
    def _dome(self, p: float, h: float, what: str) -> Any:
        """T, s, v, mass quality at (p, h) inside the dome (the z of ``h`` not clamped)."""
        liq, vap = self._pq(p, 0.0, what), self._pq(p, 1.0, what)
        z = (h - liq[SAT_H]) / (vap[SAT_H] - liq[SAT_H])
        return self.tables.dome_state(p, z, what)

    def _subcritical(self, p: float, h: float) -> PHRecord | None:
        """(p, h) record: tables inside the dome, Newton on HEOS outside (see module docstring)."""
        if h != h:  # NaN
            return None
        try:
            liq = self._memo.get((OP_PQ, p, 0.0)) or self._pq(p, 0.0, "h_liq")
            if h < liq[SAT_H]:
                return self._newton_ph(p, h, liq, True)
            vap = self._memo.get((OP_PQ, p, 1.0)) or self._pq(p, 1.0, "h_vap")
        except FluidPropertyError:
            return None
        if h > vap[SAT_H]:
            return self._newton_ph(p, h, vap, False)
        T, s, v, x = self._dome(p, h, "state from (p, h)")
        return (float(T), float(s), 1.0 / float(v), TWO_PHASE, min(max(float(x), 0.0), 1.0))

    def _ph(self, p: float, h: float, what: str = "state from (p, h)") -> PHRecord:
        """The (p, h) record; below the tables an error, above them exact HEOS (or an error)."""
        if p > self.p_max:
            key = (OP_PH, p, h)
            record: PHRecord | None = self._memo.get(key)
            if record is None:
                record = self._remember(key, self._above_ph(p, h, what))
            return record
        if not self.p_min <= p:
            raise self.error(
                what,
                f"the pressure is below the blend's tables ({self.p_min:.6g} to "
                f"{self.p_max:.6g} Pa)",
                p=p,
                h=h,
            )
        return super()._ph(p, h, what)

    def h_ps(self, p: float, s: float) -> float:
        """Enthalpy [J/kg] from pressure [Pa] and entropy [J/kg/K] (above the dome: exact HEOS)."""
        if p > self.p_max:
            self._calls += 1
            return self._above_ps(p, s, "h from (p, s)")
        return super().h_ps(p, s)

    # == (p, T) states with the phase imposed =====================================================
    def _phase_h(self, p: float, T: float, phase: Any, what: str) -> float:
        state = self._as
        self._flashes += 1
        state.specify_phase(phase)
        try:
            state.update(PT, p, T)
            h: float = state.hmass()
        except ValueError as exc:
            raise self.error(what, str(exc).strip(), p=p, T=T) from None
        finally:
            state.unspecify_phase()
        if is_bad(h):
            raise self.error(what, f"CoolProp returned {h}", p=p, T=T)
        return h

    def _newton_pt(self, p: float, T: float, phase: Any, rho: float) -> float | None:
        """Enthalpy [J/kg] at (p, T) by Newton's method on the density of HEOS (rho, T) updates.

        ``p(T, rho) = p`` with the phase imposed, from ``rho`` [kg/m3] (the saturated state's
        density, scaled for a gas): a few updates of about 10 us where CoolProp's phase-imposed
        (p, T) flash of a mixture costs up to 0.4 ms near the saturation line. None when it
        does not settle (the caller flashes).
        """
        state = self._as
        self._flashes += 1
        state.specify_phase(phase)
        try:
            for _ in range(NEWTON_PT_STEPS):
                state.update(DT, rho, T)
                miss = state.p() - p
                if abs(miss) <= 1e-12 * p:
                    h: float = state.hmass()
                    return None if is_bad(h) else h
                slope = state.first_partial_deriv(CP.iP, CP.iDmass, CP.iT)
                if not slope > 0.0:
                    return None
                rho = max(rho - miss / slope, 0.5 * rho)
        except ValueError:
            return None
        finally:
            state.unspecify_phase()
        return None

    def h_pT(self, p: float, T: float) -> float:
        """Enthalpy [J/kg] at (p, T) outside the glide (the phase imposed on the HEOS update).

        Raises
        ------
        FluidPropertyError
            ``T`` between the bubble and dew temperatures of ``p`` (no single state has it).
        """
        self._calls += 1
        key = (PT + 1000, p, T)
        value: float | None = self._memo.get(key)
        if value is not None:
            return value
        if p > self.p_max:
            return self._remember(key, self._above_pt(p, T, "h from (p, T)"))  # type: ignore[no-any-return]
        liq = self._pq(p, 0.0, "h from (p, T)")
        vap = self._pq(p, 1.0, "h from (p, T)")
        if liq[SAT_T] > T:
            h = self._newton_pt(p, T, CP.iphase_liquid, liq[SAT_RHO])
            if h is None:
                h = self._phase_h(p, T, CP.iphase_liquid, "h from (p, T)")
        elif vap[SAT_T] < T:
            h = self._newton_pt(p, T, CP.iphase_gas, vap[SAT_RHO] * vap[SAT_T] / T)
            if h is None:
                h = self._phase_h(p, T, CP.iphase_gas, "h from (p, T)")
        else:
            raise self.error(
                "h from (p, T)",
                f"T is inside the glide ({liq[SAT_T]:.3f} to {vap[SAT_T]:.3f} K): the "
                "temperature does not fix the state there",
                p=p,
                T=T,
            )
        return self._remember(key, h)  # type: ignore[no-any-return]

    def h_min(self, p: float) -> float:
        """Lowest enthalpy [J/kg] at ``p`` [Pa]: the liquid at the model's lowest temperature.

        Remembered per pressure; found by :meth:`_bound_h` (Newton from the last bound's
        density, else the phase-imposed flash).
        """
        self._calls += 1
        return self._bound_h(p, self._t_min + 1e-3, CP.iphase_liquid, "h_min")

    def h_max(self, p: float) -> float:
        """Highest enthalpy [J/kg] at ``p`` [Pa]: the vapour at the model's highest temperature."""
        self._calls += 1
        return self._bound_h(p, self._t_max, CP.iphase_gas, "h_max")

    def _bound_h(self, p: float, T: float, phase: Any, what: str) -> float:
        """Enthalpy [J/kg] at (p, T) with ``phase`` imposed: a step bound of the solver.

        The solver's step limiter asks for ``h_min`` and ``h_max`` at every state's trial
        pressure each iteration; a phase-imposed (p, T) flash of a mixture costs 0.1-0.2 ms.
        Here the state is remembered by its pressure, and a new pressure starts Newton's
        method on the density (:meth:`_newton_pt`, converged to 1e-12 of ``p``) from the
        density of the last bound on that side: one or two 10 us updates. The flash is the
        fallback when Newton does not settle.
        """
        liquid = phase == CP.iphase_liquid
        key = (BOUND_KEY + (0 if liquid else 1), p, T)
        value: float | None = self._memo.get(key)
        if value is not None:
            return value
        if p > self.p_max:
            return self._remember(key, self._above_bound(p, T, what))  # type: ignore[no-any-return]
        near = self._bound_rho.get(liquid)
        h = self._newton_pt(p, T, phase, near) if near is not None else None
        if h is None:
            h = self._phase_h(p, T, phase, what)
        self._bound_rho[liquid] = float(self._as.rhomass())
        return self._remember(key, h)  # type: ignore[no-any-return]

    # == derivatives inside the dome ==============================================================
    def _two_phase(self, p: float, h: float, what: str) -> bool:
        return bool(self._ph(p, h, what)[PH_PHASE] == TWO_PHASE)

    def _dome_fd(self, p: float, h: float, index: int, wrt_p: bool, what: str) -> float:
        """Central difference of a dome property (0 T, 2 v) in p at constant h, or in h."""
        if wrt_p:
            dp = 1e-6 * p
            a = self._dome(p + dp, h, what)[index]
            b = self._dome(p - dp, h, what)[index]
            return float(a - b) / (2.0 * dp)
        liq, vap = self._pq(p, 0.0, what), self._pq(p, 1.0, what)
        dh = 1e-5 * (vap[SAT_H] - liq[SAT_H])
        a = self._dome(p, h + dh, what)[index]
        b = self._dome(p, h - dh, what)[index]
        return float(a - b) / (2.0 * dh)

    def dT_dh_p(self, p: float, h: float) -> float:
        """(dT/dh)_p [K kg/J]; inside the dome the slope of the glide at this enthalpy."""
        if not self._two_phase(p, h, "dT/dh"):
            return super().dT_dh_p(p, h)
        self._calls += 1
        return self._dome_fd(p, h, 0, False, "dT/dh")

    def dT_dp_h(self, p: float, h: float) -> float:
        """(dT/dp)_h [K/Pa]."""
        if not self._two_phase(p, h, "dT/dp"):
            return super().dT_dp_h(p, h)
        self._calls += 1
        return self._dome_fd(p, h, 0, True, "dT/dp")

    def drho_dp_h(self, p: float, h: float) -> float:
        """(drho/dp)_h [kg/m3/Pa] (in the dome: -rho^2 dv/dp of the tables)."""
        if not self._two_phase(p, h, "drho/dp"):
            return super().drho_dp_h(p, h)
        self._calls += 1
        rho = self._ph(p, h)[2]
        return -rho * rho * self._dome_fd(p, h, 2, True, "drho/dp")

    def drho_dh_p(self, p: float, h: float) -> float:
        """(drho/dh)_p [kg2/m3/J] (in the dome: -rho^2 dv/dh of the tables)."""
        if not self._two_phase(p, h, "drho/dh"):
            return super().drho_dh_p(p, h)
        self._calls += 1
        rho = self._ph(p, h)[2]
        return -rho * rho * self._dome_fd(p, h, 2, False, "drho/dh")

    def state_ph(self, p: float, h: float) -> FluidState:
        """Full state from pressure [Pa] and enthalpy [J/kg]; quality is the mass vapour fraction."""
        self._calls += 1
        r = self._ph(p, h)
        phase = "two-phase" if r[PH_PHASE] == TWO_PHASE else None
        if p >= self.p_crit:
            phase = "supercritical"
        elif phase is None:
            phase = "liquid" if r[PH_PHASE] == CP.iphase_liquid else "vapour"
        quality = r[PH_QUALITY] if phase == "two-phase" else None
        return FluidState(p, h, r[0], r[1], r[2], quality, phase)
