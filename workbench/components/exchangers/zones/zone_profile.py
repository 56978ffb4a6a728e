"""The temperature profile along a coil at a trial heat flow, and its derivatives.

What :func:`workbench.components.exchangers.zones.heat_flow.coil_heat_flow` evaluates at each Newton step: the zone
boundaries (inlet, the saturation enthalpies crossed, outlet), the refrigerant and secondary
temperatures there, the conductance the zones need (``q_zone / LMTD`` each) and the directional
derivative of that conductance for any change of the boundaries' enthalpies and temperatures,
the mass flow and the secondary capacity rate (the chain rule through
:func:`workbench.components.exchangers.zones.counterflow.lmtd_partials`).
"""

from __future__ import annotations

from workbench.components.exchangers.zones.counterflow import counterflow_ua, lmtd_partials
from workbench.fluids import FluidBackend

__all__ = ["ZoneProfile", "enthalpy_at", "zone_name"]


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

    def limit_enthalpy(self) -> float:
        """Refrigerant enthalpy at the secondary inlet temperature [J/kg]."""
        return enthalpy_at(
            self.fluid, self.p, self.t_sec_in, self.h_liq, self.h_vap, self.t_liq, self.t_vap
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
        cuts = [h for h in (h_vap, h_liq) if lo < h < hi]
        if not self.hot:
            cuts.reverse()
        hs = [h_in, *cuts, h_out]
        ts = [self.t_in]
        for h in hs[1:-1]:
            ts.append(self.t_vap if h == h_vap else self.t_liq)
        if h_out == h_vap:
            ts.append(self.t_vap)
        elif h_out == h_liq:
            ts.append(self.t_liq)
        else:
            ts.append(float(self.fluid.T_ph(self.p, h_out)))
        return hs, ts

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
        return [
            (
                zone_name(0.5 * (hs[k] + hs[k + 1]), self.h_liq, self.h_vap),
                qk,
                counterflow_ua(qk, dts[k], dts[k + 1]),
            )
            for k, qk in enumerate(qs)
        ]

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
) -> float:
    """Refrigerant enthalpy at pressure ``p`` [Pa] and temperature ``t`` [K] [J/kg].

    Inside the two-phase glide of a zeotrope the enthalpy is interpolated linearly in
    temperature between bubble and dew point; for a pure fluid at its saturation temperature
    the saturated-liquid enthalpy is returned (the largest heat flow a condenser can reach and
    the smallest an evaporator can start from).
    """
    if t > t_vap + 1e-9 or t < t_liq - 1e-9:
        return float(fluid.h_pT(p, t))
    if t_vap - t_liq > 1e-9:
        return h_liq + (h_vap - h_liq) * (t - t_liq) / (t_vap - t_liq)
    return h_liq
