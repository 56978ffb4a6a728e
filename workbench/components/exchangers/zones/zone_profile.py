"""The temperature profile along a coil at a trial heat flow, and its derivatives.

What :func:`workbench.components.exchangers.zones.heat_flow.coil_heat_flow` evaluates at each Newton step: the zone
boundaries (inlet, the saturation enthalpies crossed, outlet), the refrigerant and secondary
temperatures there, the conductance the zones need (``q_zone / LMTD`` each) and the directional
derivative of that conductance for any change of the boundaries' enthalpies and temperatures,
the mass flow and the secondary capacity rate (the chain rule through
:func:`workbench.components.exchangers.zones.counterflow.lmtd_partials`).
"""

from __future__ import annotations

import itertools

from workbench.components.exchangers.zones.counterflow import counterflow_ua, lmtd_partials
from workbench.components.exchangers.zones.pieces import (
    GLIDE_CUTS,
    GLIDE_MIN_K,
    glide_bow,
    glide_pieces,
)
from workbench.fluids import FluidBackend

__all__ = [
    "GLIDE_CUTS",
    "GLIDE_MIN_K",
    "ZoneProfile",
    "enthalpy_at",
    "glide_bow",
    "glide_pieces",
    "merge_zones",
    "zone_name",
]


def merge_zones(zones: list[tuple[str, float, float]]) -> list[tuple[str, float, float]]:
    """Adjacent zones of one name merged: ``(name, q [W], ua [W/K])`` summed.

    The sub-zones of a glide are one two-phase zone to whoever reads the split.
    """
    out: list[tuple[str, float, float]] = []
    for name, q, ua in zones:
        if out and out[-1][0] == name:
            out[-1] = (name, out[-1][1] + q, out[-1][2] + ua)
        else:
            out.append((name, q, ua))
    return out


def zone_name(h_mid: float, h_liq: float, h_vap: float) -> str:
    """Name of the zone whose middle enthalpy is ``h_mid`` [J/kg]."""
    if h_mid >= h_vap:
        return "superheated"
    if h_mid <= h_liq:
        return "subcooled"
    return "two-phase"


class ZoneProfile:
    """Temperatures along one coil at a trial heat flow, and the conductance they need."""

    __slots__ = (
        "c_sec",
        "fluid",
        "glide",
        "h_in",
        "h_liq",
        "h_vap",
        "hot",
        "m",
        "p",
        "sign",
        "t_in",
        "t_liq",
        "t_sec_in",
        "t_vap",
    )

    def __init__(
        self,
        fluid: FluidBackend,
        p: float,
        h_in: float,
        m: float,
        t_sec_in: float,
        c_sec: float,
        hot: bool,
    ) -> None:
        self.fluid, self.p, self.h_in, self.m = fluid, p, h_in, m
        self.t_sec_in, self.c_sec, self.hot = t_sec_in, c_sec, hot
        self.sign = 1.0 if hot else -1.0
        self.h_liq, self.h_vap = float(fluid.h_liq(p)), float(fluid.h_vap(p))
        self.t_in = float(fluid.T_ph(p, h_in))
        self.t_liq = float(fluid.T_ph(p, self.h_liq))
        self.t_vap = float(fluid.T_ph(p, self.h_vap))
        # inside a zeotrope's glide: fixed cuts (h, T, share of the dome) at equal enthalpy steps
        self.glide: list[tuple[float, float, float]] = []
        if getattr(fluid, "zeotropic", False) and self.t_vap - self.t_liq > GLIDE_MIN_K:
            span = self.h_vap - self.h_liq
            pieces = glide_pieces(fluid)
            for k in range(1, pieces):
                f = k / pieces
                h = self.h_liq + f * span
                self.glide.append((h, float(fluid.T_ph(p, h)), f))

    def limit_enthalpy(self) -> float:
        """Refrigerant enthalpy at the secondary inlet temperature [J/kg]."""
        return enthalpy_at(
            self.fluid,
            self.p,
            self.t_sec_in,
            self.h_liq,
            self.h_vap,
            self.t_liq,
            self.t_vap,
            self.glide,
        )

    def pinch_limit(self) -> float:
        """``Q_max`` [W]: outlet at the secondary inlet, or secondary outlet at the inlet."""
        sign, m = self.sign, self.m
        q_hi = sign * (self.t_in - self.t_sec_in) * self.c_sec
        if q_hi > 0.0 and m > 0.0:
            q_hi = min(q_hi, sign * m * (self.h_in - self.limit_enthalpy()))
        return q_hi

    def outlet_pinches(self) -> bool:
        """Whether ``Q_max`` is the refrigerant outlet reaching the secondary inlet temperature.

        Else it is the secondary outlet reaching the refrigerant inlet temperature.
        """
        sign = self.sign
        inlet_end = sign * (self.t_in - self.t_sec_in) * self.c_sec
        return sign * self.m * (self.h_in - self.limit_enthalpy()) <= inlet_end

    def points(self, q: float) -> tuple[list[float], list[float]]:
        """Enthalpies [J/kg] and refrigerant temperatures [K] at the zone boundaries."""
        h_in, h_liq, h_vap = self.h_in, self.h_liq, self.h_vap
        h_out = h_in - self.sign * q / self.m
        lo, hi = (h_in, h_out) if h_in < h_out else (h_out, h_in)
        fixed = [(h_vap, self.t_vap), *((h, t) for h, t, _f in reversed(self.glide))]
        fixed.append((h_liq, self.t_liq))  # from the highest enthalpy down
        cuts = [c for c in fixed if lo < c[0] < hi]
        if not self.hot:
            cuts.reverse()
        hs = [h_in, *(c[0] for c in cuts), h_out]
        ts = [self.t_in, *(c[1] for c in cuts)]
        at_cut = [t for h, t in fixed if h == h_out]
        ts.append(at_cut[0] if at_cut else float(self.fluid.T_ph(self.p, h_out)))
        return hs, ts

    def cut_slopes(self, h: float) -> tuple[float, float]:
        """``(dh/dp, dT/dp)`` [J/kg/Pa, K/Pa] of a fixed cut at enthalpy ``h`` moving with ``p``.

        The saturation lines' slopes at the bubble and dew points; inside a glide the cut at
        the share ``f`` of the dome, ``h = h_liq + f (h_vap - h_liq)``, whose temperature moves
        by ``dT/dp|_h + dT/dh|_p dh/dp``.
        """
        fl, p = self.fluid, self.p
        if h == self.h_vap:
            return float(fl.dhvap_dp(p)), float(fl.dTsat_dp(p))
        if h == self.h_liq:
            return float(fl.dhliq_dp(p)), float(fl.dTbubble_dp(p))
        for h_cut, _t, f in self.glide:
            if h == h_cut:
                dh = (1.0 - f) * float(fl.dhliq_dp(p)) + f * float(fl.dhvap_dp(p))
                return dh, float(fl.dT_dp_h(p, h)) + float(fl.dT_dh_p(p, h)) * dh
        raise ValueError(f"no fixed cut at h={h!r} J/kg")

    def differences(self, hs: list[float], ts: list[float]) -> list[float]:
        """Hot-minus-cold differences [K]; the secondary enters at the refrigerant outlet."""
        sign, t0, k, h_out = self.sign, self.t_sec_in, self.m / self.c_sec, hs[-1]
        return [sign * (t - (t0 + k * (h - h_out))) for h, t in zip(hs, ts)]

    def conductance(self, hs: list[float], dts: list[float]) -> tuple[float, list[float]]:
        """Total conductance the zones need [W/K] and each zone's heat flow [W]."""
        sign, m = self.sign, self.m
        total, qs = 0.0, []
        for k in range(len(hs) - 1):
            qk = sign * m * (hs[k] - hs[k + 1])
            qs.append(qk)
            total += counterflow_ua(qk, dts[k], dts[k + 1])
        return total, qs

    def split(self, q: float) -> list[tuple[str, float, float]]:
        """``(name, q [W], ua [W/K])`` per zone at the trial heat flow ``q`` [W].

        What :func:`workbench.components.exchangers.zones.heat_flow.coil_heat_flow` reports at its root, here at any
        ``q`` (no root-find): the charge residual's Jacobian reads the zone split at a heat flow
        moved along its implicit-function derivative. A zone whose ends' temperatures cross
        needs an infinite conductance.
        """
        hs, ts = self.points(q)
        dts = self.differences(hs, ts)
        _total, qs = self.conductance(hs, dts)
        return merge_zones(
            [
                (
                    zone_name(0.5 * (hs[k] + hs[k + 1]), self.h_liq, self.h_vap),
                    qk,
                    counterflow_ua(qk, dts[k], dts[k + 1]),
                )
                for k, qk in enumerate(qs)
            ]
        )

    def tangent(
        self,
        hs: list[float],
        dts: list[float],
        dh: list[float],
        dt: list[float],
        dm: float = 0.0,
        dc: float = 0.0,
    ) -> float:
        """Directional derivative of the total conductance [W/K per unit of the direction].

        ``dh`` and ``dt`` are the changes of each boundary's enthalpy and refrigerant
        temperature, ``dm`` and ``dc`` of the mass flow and the secondary capacity rate.
        """
        sign, m, c = self.sign, self.m, self.c_sec
        h_out, dh_out = hs[-1], dh[-1]
        dd = [
            sign * (dt[j] - (m * (dh[j] - dh_out) + (dm - dc * m / c) * (hs[j] - h_out)) / c)
            for j in range(len(hs))
        ]
        total = 0.0
        for k in range(len(hs) - 1):
            span = hs[k] - hs[k + 1]
            qk = sign * m * span
            if qk <= 0.0:
                continue
            lmtd, l_a, l_b = lmtd_partials(dts[k], dts[k + 1])
            dq = sign * (dm * span + m * (dh[k] - dh[k + 1]))
            total += dq / lmtd - qk / (lmtd * lmtd) * (l_a * dd[k] + l_b * dd[k + 1])
        return total

    def slope(self, hs: list[float], dts: list[float]) -> float:
        """d(total conductance)/dQ [1/K] at fixed inputs: only the outlet end moves."""
        n = len(hs)
        dh_out = -self.sign / self.m
        dt_out = float(self.fluid.dT_dh_p(self.p, hs[-1])) * dh_out
        return self.tangent(hs, dts, [0.0] * (n - 1) + [dh_out], [0.0] * (n - 1) + [dt_out])


def enthalpy_at(
    fluid: FluidBackend,
    p: float,
    t: float,
    h_liq: float,
    h_vap: float,
    t_liq: float,
    t_vap: float,
    glide: list[tuple[float, float, float]] | None = None,
) -> float:
    """Refrigerant enthalpy at pressure ``p`` [Pa] and temperature ``t`` [K] [J/kg].

    Inside the two-phase glide of a zeotrope the enthalpy is interpolated linearly in
    temperature between bubble and dew point, or between the glide's cuts ``(h, T, share)``
    when given (:attr:`ZoneProfile.glide`, the same straight pieces the zones use); for a pure
    fluid at its saturation temperature the saturated-liquid enthalpy is returned (the largest
    heat flow a condenser can reach and the smallest an evaporator can start from).
    """
    if t > t_vap + 1e-9 or t < t_liq - 1e-9:
        return float(fluid.h_pT(p, t))
    if t_vap - t_liq > 1e-9:
        points = [(h_liq, t_liq), *((h, tc) for h, tc, _f in glide or ()), (h_vap, t_vap)]
        for (h_a, t_a), (h_b, t_b) in itertools.pairwise(points):
            if t <= t_b or h_b == h_vap:
                return h_a + (h_b - h_a) * (t - t_a) / (t_b - t_a) if t_b > t_a else h_a
    return h_liq
