"""The analytic ``Test`` backend: a closed-form, thermodynamically consistent fluid model.

Model (equations and derivation in ``docs/fluids.md``), with ``t = T_sat(p)``:

- saturation: Antoine, ``ln p = A - B / (t + C)``, so ``t = B / (A - ln p) - C`` exactly;
- latent heat: Watson, ``L(t) = L_ref * ((T_c - t) / (T_c - T_ref)) ** n``, zero at ``T_c``;
- liquid: incompressible, ``h = h_ref + cp_l (T - T_ref) + v_l (p - p_ref)``,
  ``s = s_ref + cp_l ln(T / T_ref)``;
- saturated vapour: ``h_vs = h_ls + L``, ``s_vs = s_ls + L / t`` (equal Gibbs energies);
- superheated vapour: ``h = h_vs(p) + cp_v (T - t)``, ``s = s_vs(p) + cp_v ln(T / t)``;
- two-phase: linear in quality, ``T = t``.

Because ``(dh/dT)_p = T (ds/dT)_p`` in every phase, a Gibbs function exists and the specific
volume follows from ``v = (dh/dp)_T - T (ds/dp)_T``; the Clausius-Clapeyron relation holds
exactly on the dome. Scalars use :mod:`math`, arrays use numpy (same equations).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from workbench.fluids.analytic.derivatives import LIQ as _LIQ
from workbench.fluids.analytic.derivatives import TWO as _TWO
from workbench.fluids.analytic.derivatives import VAP as _VAP
from workbench.fluids.analytic.derivatives import AnalyticDerivatives
from workbench.fluids.analytic.params import AnalyticFluid
from workbench.fluids.base import FluidBackend, FluidState

__all__ = ["AnalyticBackend"]

_PHASE_NAMES = np.array(["liquid", "two-phase", "vapour"], dtype=object)
_PHASE_TUPLE = ("liquid", "two-phase", "vapour")
_log = math.log
_exp = math.exp


_SCALAR_TYPES = (float, int, np.floating, np.integer)
_FAST = frozenset((float, np.float64))  # types served by the scalar fast paths


def _as_scalar(x: Any) -> float | None:
    """``x`` as a float when it is a scalar (or a 0-d array), else ``None``."""
    if type(x) in _FAST:
        return float(x)
    if isinstance(x, _SCALAR_TYPES) or (isinstance(x, np.ndarray) and x.ndim == 0):
        return float(x)
    return None


def _scalar_pair(a: Any, b: Any) -> tuple[float, float] | None:
    """Both inputs as floats when both are scalars, else ``None``."""
    if type(a) in _FAST and type(b) in _FAST:
        return a, b
    fa, fb = _as_scalar(a), _as_scalar(b)
    if fa is None or fb is None:
        return None
    return fa, fb


class AnalyticBackend(AnalyticDerivatives, FluidBackend):
    """``Test`` backend for one fluid; see the module docstring for the equations.

    Parameters
    ----------
    params : AnalyticFluid
        Fitted parameters of the fluid.

    Notes
    -----
    Valid for ``p_min <= p <= p_max`` (``p_max`` is the saturation pressure at ``T_sat_max``, 0.5 K below
    the critical temperature: the model is subcritical) and ``T_min <= T <= T_max``; outside it
    raises :class:`~workbench.errors.FluidPropertyError`. Every method accepts floats or numpy
    arrays (broadcast); arrays return arrays.
    """

    backend_name = "Test"

    def __init__(self, params: AnalyticFluid) -> None:
        super().__init__()
        self.params = params
        self.name = params.name
        self.T_crit = params.T_crit
        self.p_crit = params.p_crit
        self.p_min = math.exp(params.A - params.B / (params.T_min + params.C))
        self.T_sat_max = params.T_crit - 0.5
        self.p_max = math.exp(params.A - params.B / (self.T_sat_max + params.C))
        self._dt_ref = params.T_crit - params.T_ref
        P = params
        self._ksat = (
            P.A,
            P.B,
            P.C,
            P.T_crit,
            self._dt_ref,
            P.L_ref,
            P.n_watson,
            P.cp_l,
            P.v_l,
            P.h_ref,
            P.T_ref,
            P.p_ref,
        )
        self._t_min, self._t_max = P.T_min, P.T_max
        self._kph = (P.cp_l, P.cp_v, P.v_l, P.h_ref, P.s_ref, P.T_ref, P.p_ref, P.T_min, P.T_max)

    # == saturation core (works for floats with math and arrays with numpy) ======================
    def _check_p(self, p: Any, what: str, /, **inputs: Any) -> None:
        if isinstance(p, np.ndarray):
            bad = ~((p >= self.p_min) & (p <= self.p_max))
            if bad.any():
                i = int(np.flatnonzero(bad.ravel())[0])
                vals = {k: (np.broadcast_to(v, p.shape).ravel()[i]) for k, v in inputs.items()}
                raise self.error(what, self._p_reason(), index=i, **vals)
        elif not (self.p_min <= p <= self.p_max):
            raise self.error(what, self._p_reason(), **inputs)

    def _p_reason(self) -> str:
        return (
            f"pressure outside the Test backend range {self.p_min:.6g}..{self.p_max:.6g} Pa "
            "(subcritical only; use fluid_backend 'CoolProp' near or above the critical point)"
        )

    def _sat(self, p: Any, m: Any) -> tuple[Any, Any, Any, Any, Any]:
        """Saturation quantities at ``p``: ``t`` [K], ``p_t = dp/dt`` [Pa/K], ``L``, ``L_t``, ``h_ls``."""
        P = self.params
        d = P.A - m.log(p)
        t = P.B / d - P.C
        p_t = p * d * d / P.B
        dtc = P.T_crit - t
        latent = P.L_ref * (dtc / self._dt_ref) ** P.n_watson
        h_ls = P.h_ref + P.cp_l * (t - P.T_ref) + P.v_l * (p - P.p_ref)
        return t, p_t, latent, -P.n_watson * latent / dtc, h_ls

    def _sat_s(
        self, p: float, what: str, /, **inputs: Any
    ) -> tuple[float, float, float, float, float]:
        """Scalar :meth:`_sat` with the range check, tuned for call overhead."""
        if not (self.p_min <= p <= self.p_max):
            raise self.error(what, self._p_reason(), **(inputs or {"p": p}))
        a, b, c, tc, dt_ref, l_ref, n, cp_l, v_l, h_ref, t_ref, p_ref = self._ksat
        d = a - _log(p)
        t = b / d - c
        dtc = tc - t
        lat = l_ref * (dtc / dt_ref) ** n
        return t, p * d * d / b, lat, -n * lat / dtc, h_ref + cp_l * (t - t_ref) + v_l * (p - p_ref)

    # == state from (p, h) =======================================================================
    def _ph_scalar(self, p: float, h: float) -> tuple[float, float, float, float | None, int]:
        t, p_t, lat, lat_t, h_ls = self._sat_s(p, "state from (p, h)", p=p, h=h)
        cp_l, cp_v, v_l, _h_ref, s_ref, t_ref, _p_ref, t_min, t_max = self._kph
        if h < h_ls:
            tk = t + (h - h_ls) / cp_l
            if tk < t_min:
                raise self.error("state from (p, h)", f"liquid below T_min={t_min} K", p=p, h=h)
            return tk, s_ref + cp_l * _log(tk / t_ref), 1.0 / v_l, None, _LIQ
        s_ls = s_ref + cp_l * _log(t / t_ref)
        dh = h - h_ls
        g = t * p_t
        if dh <= lat:
            x = dh / lat
            return t, s_ls + dh / t, 1.0 / (v_l + dh / g), x, _TWO
        dh -= lat
        tk = t + dh / cp_v
        if tk > t_max:
            raise self.error("state from (p, h)", f"vapour above T_max={t_max} K", p=p, h=h)
        v = v_l + lat / g + dh * (cp_v - cp_l - lat_t + lat / t) / (g * cp_v)
        return tk, s_ls + lat / t + cp_v * _log(tk / t), 1.0 / v, None, _VAP

    def _ph_array(self, p: np.ndarray, h: np.ndarray) -> tuple[np.ndarray, ...]:
        p, h = np.broadcast_arrays(np.asarray(p, dtype=float), np.asarray(h, dtype=float))
        self._check_p(p, "state from (p, h)", p=p, h=h)
        P = self.params
        t, p_t, lat, lat_t, h_ls = self._sat(p, np)
        g = t * p_t
        s_ls = P.s_ref + P.cp_l * np.log(t / P.T_ref)
        dh = h - h_ls
        code = np.where(dh < 0.0, _LIQ, np.where(dh <= lat, _TWO, _VAP))
        with np.errstate(all="ignore"):
            T_l = t + dh / P.cp_l
            T_v = t + (dh - lat) / P.cp_v
            T = np.where(code == _LIQ, T_l, np.where(code == _TWO, t, T_v))
            bad = ((code == _LIQ) & (T_l < P.T_min)) | ((code == _VAP) & (T_v > P.T_max))
            if bad.any():
                i = int(np.flatnonzero(bad.ravel())[0])
                raise self.error(
                    "state from (p, h)",
                    f"temperature outside {P.T_min}..{P.T_max} K",
                    index=i,
                    p=float(p.ravel()[i]),
                    h=float(h.ravel()[i]),
                )
            x2 = dh / lat
            s = np.where(
                code == _LIQ,
                P.s_ref + P.cp_l * np.log(T_l / P.T_ref),
                np.where(
                    code == _TWO, s_ls + x2 * lat / t, s_ls + lat / t + P.cp_v * np.log(T_v / t)
                ),
            )
            k = (P.cp_v - P.cp_l - lat_t + lat / t) / g
            v = np.where(
                code == _LIQ,
                P.v_l,
                np.where(code == _TWO, P.v_l + dh / g, P.v_l + lat / g + (dh - lat) * k / P.cp_v),
            )
            x = np.where(code == _TWO, x2, np.nan)
        return T, s, 1.0 / v, x, code

    def _ph(self, p: Any, h: Any) -> tuple[Any, ...]:
        self._calls += 1
        self._flashes += 1
        if type(p) in _FAST and type(h) in _FAST:
            return self._ph_scalar(p, h)
        pair = _scalar_pair(p, h)
        if pair is not None:
            return self._ph_scalar(*pair)
        return self._ph_array(p, h)

    def state_ph(self, p: Any, h: Any) -> FluidState:
        """Full state from pressure [Pa] and enthalpy [J/kg] (floats or arrays)."""
        if type(p) in _FAST and type(h) in _FAST:
            self._calls += 1
            self._flashes += 1
            T, s, rho, x, code = self._ph_scalar(p, h)
            return FluidState(p, h, T, s, rho, x, _PHASE_TUPLE[code])
        T, s, rho, x, code = self._ph(p, h)
        if isinstance(code, np.ndarray):
            p, h = np.broadcast_arrays(np.asarray(p, dtype=float), np.asarray(h, dtype=float))
            return FluidState(p, h, T, s, rho, x, _PHASE_NAMES[code])
        return FluidState(float(p), float(h), T, s, rho, x, _PHASE_TUPLE[code])

    def T_ph(self, p: Any, h: Any) -> Any:
        """Temperature [K] from pressure [Pa] and enthalpy [J/kg]."""
        if type(p) not in _FAST or type(h) not in _FAST or not self.p_min <= p <= self.p_max:
            return self._ph(p, h)[0]
        # scalar hot path of the solver: the same equations as _ph_scalar, T only
        self._calls += 1
        self._flashes += 1
        a, b, c, tc, dt_ref, l_ref, n, cp_l, v_l, h_ref, t_ref, p_ref = self._ksat
        d = a - _log(p)
        t = b / d - c
        dh = h - (h_ref + cp_l * (t - t_ref) + v_l * (p - p_ref))
        if dh < 0.0:
            tk = t + dh / cp_l
            if tk < self.params.T_min:
                raise self.error(
                    "state from (p, h)", f"liquid below T_min={self.params.T_min} K", p=p, h=h
                )
            return tk
        lat = l_ref * ((tc - t) / dt_ref) ** n
        if dh <= lat:
            return t
        tk = t + (dh - lat) / self._kph[1]
        if tk > self.params.T_max:
            raise self.error(
                "state from (p, h)", f"vapour above T_max={self.params.T_max} K", p=p, h=h
            )
        return tk

    def s_ph(self, p: Any, h: Any) -> Any:
        """Entropy [J/kg/K] from pressure [Pa] and enthalpy [J/kg]."""
        return self._ph(p, h)[1]

    def rho_ph(self, p: Any, h: Any) -> Any:
        """Density [kg/m3] from pressure [Pa] and enthalpy [J/kg]."""
        return self._ph(p, h)[2]

    def quality_ph(self, p: Any, h: Any) -> Any:
        """Quality [-] inside the dome; ``None`` (scalar) or ``nan`` (array) outside."""
        return self._ph(p, h)[3]

    # == other input pairs =======================================================================
    def h_pT(self, p: Any, T: Any) -> Any:
        """Enthalpy [J/kg] from pressure [Pa] and temperature [K], outside the dome.

        Raises
        ------
        FluidPropertyError
            If ``T`` equals ``T_sat(p)`` exactly (the phase is ambiguous: give the quality
            instead), or the inputs are outside the valid range.
        """
        self._calls += 1
        self._flashes += 1
        if (
            type(p) in _FAST
            and type(T) in _FAST
            and self.p_min <= p <= self.p_max
            and self._t_min <= T <= self._t_max
        ):
            a, b, c, tc, dt_ref, l_ref, n, cp_l, v_l, h_ref, t_ref, p_ref = self._ksat
            t = b / (a - _log(p)) - c
            subcooling = t - T
            if subcooling > 0.0:
                return h_ref + cp_l * (T - t_ref) + v_l * (p - p_ref)
            if subcooling < 0.0:
                lat = l_ref * ((tc - t) / dt_ref) ** n
                return h_ref + cp_l * (t - t_ref) + v_l * (p - p_ref) + lat + self._kph[1] * (T - t)
        P = self.params
        pair = _scalar_pair(p, T)
        m = math if pair else np
        tk: Any
        if pair:
            p, tk = pair
        else:
            p, tk = np.broadcast_arrays(np.asarray(p, dtype=float), np.asarray(T, dtype=float))
        if pair:
            t, _, lat, _, h_ls = self._sat_s(p, "h from (p, T)", p=p, T=tk)
        else:
            self._check_p(p, "h from (p, T)", p=p, T=tk)
            t, _, lat, _, h_ls = self._sat(p, m)
        h_l = P.h_ref + P.cp_l * (tk - P.T_ref) + P.v_l * (p - P.p_ref)
        h_v = h_ls + lat + P.cp_v * (tk - t)
        if pair:
            if not (P.T_min <= tk <= P.T_max):
                raise self.error("h from (p, T)", f"T outside {P.T_min}..{P.T_max} K", p=p, T=tk)
            if tk == t:
                raise self.error(
                    "h from (p, T)",
                    "T equals T_sat(p): the phase is ambiguous, give a quality",
                    p=p,
                    T=tk,
                )
            return h_l if tk < t else h_v
        if np.any(tk == t) or not np.all((tk >= P.T_min) & (tk <= P.T_max)):
            raise self.error(
                "h from (p, T)", "T on the saturation line or outside the valid range", p=p, T=tk
            )
        return np.where(tk < t, h_l, h_v)

    def h_ps(self, p: Any, s: Any) -> Any:
        """Enthalpy [J/kg] from pressure [Pa] and entropy [J/kg/K] (isentropic states)."""
        self._calls += 1
        self._flashes += 1
        P = self.params
        pair = _scalar_pair(p, s)
        if pair:
            p, s = pair
            t, _, lat, _, h_ls = self._sat_s(p, "h from (p, s)", p=p, s=s)
            s_ls = P.s_ref + P.cp_l * math.log(t / P.T_ref)
            if s < s_ls:
                tk = P.T_ref * math.exp((s - P.s_ref) / P.cp_l)
                return P.h_ref + P.cp_l * (tk - P.T_ref) + P.v_l * (p - P.p_ref)
            if s <= s_ls + lat / t:
                return h_ls + (s - s_ls) * t
            tk = t * math.exp((s - s_ls - lat / t) / P.cp_v)
            if tk > P.T_max:
                raise self.error("h from (p, s)", f"vapour above T_max={P.T_max} K", p=p, s=s)
            return h_ls + lat + P.cp_v * (tk - t)
        p, s = np.broadcast_arrays(np.asarray(p, dtype=float), np.asarray(s, dtype=float))
        self._check_p(p, "h from (p, s)", p=p, s=s)
        t, _, lat, _, h_ls = self._sat(p, np)
        s_ls = P.s_ref + P.cp_l * np.log(t / P.T_ref)
        s_vs = s_ls + lat / t
        with np.errstate(over="ignore"):
            T_l = P.T_ref * np.exp((s - P.s_ref) / P.cp_l)
            T_v = t * np.exp((s - s_vs) / P.cp_v)
        h_l = P.h_ref + P.cp_l * (T_l - P.T_ref) + P.v_l * (p - P.p_ref)
        h_v = h_ls + lat + P.cp_v * (T_v - t)
        return np.where(s < s_ls, h_l, np.where(s <= s_vs, h_ls + (s - s_ls) * t, h_v))

    # == saturation ==============================================================================
    def _sat_call(self, p: Any, what: str) -> tuple[Any, ...]:
        self._calls += 1
        self._flashes += 1
        if type(p) in _FAST:
            return p, self._sat_s(p, what)
        fp = _as_scalar(p)
        if fp is not None:
            return fp, self._sat_s(fp, what)
        p = np.asarray(p, dtype=float)
        self._check_p(p, what, p=p)
        return p, self._sat(p, np)

    def T_sat(self, p: Any) -> Any:
        """Saturation temperature [K] at pressure [Pa] (Antoine, exact inverse)."""
        if type(p) in _FAST and self.p_min <= p <= self.p_max:
            self._calls += 1
            self._flashes += 1
            k = self._ksat
            return k[1] / (k[0] - _log(p)) - k[2]
        return self._sat_call(p, "T_sat")[1][0]

    def p_sat(self, T: Any) -> Any:
        """Saturation pressure [Pa] at temperature [K] (Antoine)."""
        self._calls += 1
        self._flashes += 1
        P = self.params
        ft = _as_scalar(T)
        m = math if ft is not None else np
        tk = ft if ft is not None else np.asarray(T, dtype=float)
        ok = (tk >= P.T_min) & (tk <= self.T_sat_max)
        if not np.all(ok):
            raise self.error("p_sat", f"T outside {P.T_min}..{self.T_sat_max:.6g} K", T=tk)
        return m.exp(P.A - P.B / (tk + P.C))

    def h_liq(self, p: Any) -> Any:
        """Saturated liquid enthalpy [J/kg] at pressure [Pa]."""
        if type(p) in _FAST and self.p_min <= p <= self.p_max:
            self._calls += 1
            self._flashes += 1
            a, b, c, _, _, _, _, cp_l, v_l, h_ref, t_ref, p_ref = self._ksat
            return h_ref + cp_l * (b / (a - _log(p)) - c - t_ref) + v_l * (p - p_ref)
        return self._sat_call(p, "h_liq")[1][4]

    def h_vap(self, p: Any) -> Any:
        """Saturated vapour enthalpy [J/kg] at pressure [Pa]."""
        if type(p) in _FAST and self.p_min <= p <= self.p_max:
            self._calls += 1
            self._flashes += 1
            a, b, c, tc, dt_ref, l_ref, n, cp_l, v_l, h_ref, t_ref, p_ref = self._ksat
            t = b / (a - _log(p)) - c
            lat = l_ref * ((tc - t) / dt_ref) ** n
            return h_ref + cp_l * (t - t_ref) + v_l * (p - p_ref) + lat
        _, (_, _, lat, _, h_ls) = self._sat_call(p, "h_vap")
        return h_ls + lat

    def s_liq(self, p: Any) -> Any:
        """Saturated liquid entropy [J/kg/K] at pressure [Pa]."""
        p, (t, *_) = self._sat_call(p, "s_liq")
        m = np if isinstance(p, np.ndarray) else math
        return self.params.s_ref + self.params.cp_l * m.log(t / self.params.T_ref)

    def s_vap(self, p: Any) -> Any:
        """Saturated vapour entropy [J/kg/K] at pressure [Pa]."""
        p, (t, _, lat, _, _) = self._sat_call(p, "s_vap")
        m = np if isinstance(p, np.ndarray) else math
        return self.params.s_ref + self.params.cp_l * m.log(t / self.params.T_ref) + lat / t

    def h_min(self, p: Any) -> Any:
        """Lowest valid enthalpy [J/kg]: liquid at ``T_min``."""
        P = self.params
        return P.h_ref + P.cp_l * (P.T_min - P.T_ref) + P.v_l * (p - P.p_ref)

    def h_max(self, p: Any) -> Any:
        """Highest valid enthalpy [J/kg]: vapour at ``T_max``."""
        _, (t, _, lat, _, h_ls) = self._sat_call(p, "h_max")
        return h_ls + lat + self.params.cp_v * (self.params.T_max - t)
