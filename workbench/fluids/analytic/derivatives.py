"""Analytic derivatives of the ``Test`` backend (a mixin of :class:`AnalyticBackend`).

Equations in ``docs/fluids.md``. With ``t = T_sat(p)``, ``p_t = dp_sat/dt`` and ``g = t p_t``:
the two-phase volume is ``v = v_l + (h - h_ls) / g`` and the vapour volume
``v = v_l + L / g + (h - h_vs) k / cp_v`` with ``k = (cp_v - cp_l - dL/dt + L/t) / g``;
the derivatives below differentiate these through ``t(p)`` by the chain rule.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["LIQ", "TWO", "VAP", "AnalyticDerivatives"]

LIQ, TWO, VAP = 0, 1, 2
"""Phase codes of the analytic backend."""


class AnalyticDerivatives:
    """Derivative methods; relies on ``params``, ``_sat``, ``_sat_call`` and ``_ph`` of the host."""

    params: Any
    _sat: Any
    _sat_call: Any
    _ph: Any

    def dTsat_dp(self, p: Any) -> Any:
        """dT_sat/dp [K/Pa] = 1 / (dp_sat/dT)."""
        return 1.0 / self._sat_call(p, "dTsat_dp")[1][1]

    def dhliq_dp(self, p: Any) -> Any:
        """dh_liq/dp along saturation [J/kg/Pa] = cp_l dt/dp + v_l."""
        _, (_, p_t, *_) = self._sat_call(p, "dhliq_dp")
        return self.params.cp_l / p_t + self.params.v_l

    def dhvap_dp(self, p: Any) -> Any:
        """dh_vap/dp along saturation [J/kg/Pa] = (cp_l + dL/dt) dt/dp + v_l."""
        _, (_, p_t, _, lat_t, _) = self._sat_call(p, "dhvap_dp")
        return (self.params.cp_l + lat_t) / p_t + self.params.v_l

    def dT_dh_p(self, p: Any, h: Any) -> Any:
        """(dT/dh)_p [K kg/J]: 1/cp_l, 0 in the dome, 1/cp_v."""
        code = self._ph(p, h)[4]
        table = np.array([1.0 / self.params.cp_l, 0.0, 1.0 / self.params.cp_v])
        return table[code] if isinstance(code, np.ndarray) else float(table[code])

    def dT_dp_h(self, p: Any, h: Any) -> Any:
        """(dT/dp)_h [K/Pa]: ``-v_l / cp_l`` (liquid), ``dt/dp`` (dome), ``dt/dp - dh_vap/dp / cp_v``."""
        code = self._ph(p, h)[4]
        P = self.params
        dt = self.dTsat_dp(p)
        vap = dt - self.dhvap_dp(p) / P.cp_v
        if isinstance(code, np.ndarray):
            return np.where(code == LIQ, -P.v_l / P.cp_l, np.where(code == TWO, dt, vap))
        if code == LIQ:
            return -P.v_l / P.cp_l
        return float(dt) if code == TWO else float(vap)

    def _dv(self, p: Any, h: Any) -> tuple[Any, Any, Any]:
        """``rho``, ``(dv/dp)_h`` and ``(dv/dh)_p`` from the closed-form volume."""
        _, _, rho, _, code = self._ph(p, h)
        P = self.params
        arr = isinstance(code, np.ndarray)
        if arr:
            p, h = np.broadcast_arrays(np.asarray(p, dtype=float), np.asarray(h, dtype=float))
        else:
            p, h = float(p), float(h)
        t, p_t, lat, lat_t, h_ls = self._sat(p, np if arr else math)
        n, dtc = P.n_watson, P.T_crit - t
        d = P.A - (np.log(p) if arr else math.log(p))
        g = t * p_t  # dv/dh in the dome
        g_p = 1.0 + t * d * (d - 2.0) / P.B  # dg/dp
        hls_p = P.cp_l / p_t + P.v_l
        dh = h - h_ls
        # two-phase: v = v_l + (h - h_ls) / g
        dvp_2 = (-hls_p * g - dh * g_p) / (g * g)
        # vapour: v = v_l + L/g + (h - h_vs) k / cp_v, k = N / g
        lat_tt = n * (n - 1.0) * lat / (dtc * dtc)
        big_n = P.cp_v - P.cp_l - lat_t + lat / t
        big_n_p = (-lat_tt + lat_t / t - lat / (t * t)) / p_t
        k = big_n / g
        k_p = big_n_p / g - big_n * g_p / (g * g)
        vvs_p = lat_t / p_t / g - lat * g_p / (g * g)
        hvs_p = hls_p + lat_t / p_t
        dvp_v = vvs_p - hvs_p * k / P.cp_v + (dh - lat) * k_p / P.cp_v
        if arr:
            dvp = np.where(code == LIQ, 0.0, np.where(code == TWO, dvp_2, dvp_v))
            dvh = np.where(code == LIQ, 0.0, np.where(code == TWO, 1.0 / g, k / P.cp_v))
            return rho, dvp, dvh
        if code == LIQ:
            return rho, 0.0, 0.0
        if code == TWO:
            return rho, dvp_2, 1.0 / g
        return rho, dvp_v, k / P.cp_v

    def drho_dp_h(self, p: Any, h: Any) -> Any:
        """(drho/dp)_h [kg/m3/Pa]; 0 for the incompressible liquid."""
        rho, dvp, _ = self._dv(p, h)
        return -rho * rho * dvp

    def drho_dh_p(self, p: Any, h: Any) -> Any:
        """(drho/dh)_p [kg2/m3/J]; 0 for the incompressible liquid."""
        rho, _, dvh = self._dv(p, h)
        return -rho * rho * dvh
