"""Two-stream counterflow heat exchanger (epsilon-NTU), e.g. an internal suction-line HX.

Ports: ``hot_inlet`` -> ``hot_outlet`` (the stream that gives heat, e.g. the liquid line) and
``cold_inlet`` -> ``cold_outlet`` (the stream that takes it, e.g. the suction line). Both are
refrigerant streams of the scenario's fluid.

Equations (SI)::

    0 = p_hot,out - p_hot,in + z_dp * dp_pa (m_hot / m_nominal)^2      (hot_pressure_drop)
    0 = p_cold,out - p_cold,in + z_dp * dp_pa (m_cold / m_nominal)^2   (cold_pressure_drop)
    0 = h_hot,out - h_hot,in + Q / m_hot                               (hot_energy)
    0 = h_cold,out - h_cold,in - Q / m_cold                            (cold_energy)

with ``Q_max = min(m_hot (h_hot,in - h_hot(T_cold,in)), m_cold (h_cold(T_hot,in) - h_cold,in))``
and

* ``Q = effectiveness * Q_max`` when ``effectiveness`` is given;
* in UA mode (``ua`` or ``ua_nominal_kw_k``) the ``Q`` at which a discretised counterflow
  profile of both streams needs the conductance ``z_ua * UA``
  (:mod:`workbench.components.exchangers.ihx.model`: both streams' ``T(h)`` tabulated, 120 slices of equal
  heat, each an LMTD slice), exact where the properties vary strongly (transcritical R744
  from the gas cooler outlet against the suction, R290), where one mean capacity rate per
  stream gave up to 6 % less heat.

The solved exchanger passes the fine-profile check of every exchanger
(:mod:`workbench.components.exchangers.zones.profile`): a crossing is a problem, and in UA mode a solved heat
flow that needs a conductance more than 10 % away from the given one on the fine profile is a
warning.
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Component, Equation, register_component
from workbench.components.exchangers.ihx.model import TableCache, ihx_heat_flow
from workbench.components.exchangers.zones.heat_flow import enthalpy_at
from workbench.components.exchangers.zones.profile import (
    ProfileCheck,
    accuracy_warning,
    crossing_problem,
    near_critical_note,
)
from workbench.components.exchangers.zones.profile_memo import ProfileMemo, two_stream_check
from workbench.units import kw_k_to_w_k

__all__ = ["HeatExchanger"]


@register_component
class HeatExchanger(Component):
    """Two-stream counterflow heat exchanger (see module docstring)."""

    type_name = "HeatExchanger"
    streams = (("hot_inlet", "hot_outlet"), ("cold_inlet", "cold_outlet"))

    def configure(self) -> None:
        """Require a conductance or an effectiveness.

        Raises
        ------
        SpecificationError
            None of ``ua``, ``ua_nominal_kw_k`` and ``effectiveness`` is given.
        """
        if not (self.has("ua") or self.has("ua_nominal_kw_k") or self.has("effectiveness")):
            raise self.error("give ua, ua_nominal_kw_k or effectiveness")
        self.ua_mode = not self.has("effectiveness")
        self._profile_memo = ProfileMemo()
        self._tables = TableCache()
        self._q_memo: tuple[tuple[float, ...], float] | None = None

    def equations(self) -> tuple[Equation, ...]:
        """The pressure drop of each stream, then the energy balance of each stream."""
        return (
            Equation("hot_pressure_drop", "pressure"),
            Equation("cold_pressure_drop", "pressure"),
            Equation("hot_energy", "enthalpy"),
            Equation("cold_energy", "enthalpy"),
        )

    def _h_at(self, p: float, t: float) -> float:
        fl = self.fluid
        if p >= fl.p_crit:  # supercritical (a gas cooler outlet): no saturation line
            return float(fl.h_pT(p, t))
        h_liq, h_vap = fl.h_liq(p), fl.h_vap(p)
        return enthalpy_at(fl, p, t, h_liq, h_vap, fl.T_ph(p, h_liq), fl.T_ph(p, h_vap))

    def ua(self, x: np.ndarray) -> float:
        """Available conductance ``z_ua * UA`` [W/K] (UA mode)."""
        ua0 = (
            float(self.params["ua"])
            if self.has("ua")
            else kw_k_to_w_k(float(self.params["ua_nominal_kw_k"]))
        )
        return float(self.factor(x, "z_ua")) * ua0

    def heat_flow(self, x: np.ndarray) -> float:
        """Heat flow from the hot to the cold stream [W] (module docstring)."""
        hot, cold = self.port(x, "hot_inlet"), self.port(x, "cold_inlet")
        if not self.ua_mode:
            fl = self.fluid
            t_hot, t_cold = fl.T_ph(hot.p, hot.h), fl.T_ph(cold.p, cold.h)
            if t_hot - t_cold <= 0.0 or hot.m <= 0.0 or cold.m <= 0.0:
                return 0.0
            q_hot = hot.m * (hot.h - self._h_at(hot.p, t_cold))
            q_cold = cold.m * (self._h_at(cold.p, t_hot) - cold.h)
            return float(self.params["effectiveness"]) * min(q_hot, q_cold)
        ua = self.ua(x)
        key = (hot.m, hot.p, hot.h, cold.m, cold.p, cold.h, ua)
        if self._q_memo is not None and self._q_memo[0] == key:
            return self._q_memo[1]
        q = self._ua_heat_flow(x, ua)
        self._q_memo = (key, q)
        return q

    def _ua_heat_flow(self, x: np.ndarray, ua: float) -> float:
        """The discretised counterflow model's heat flow [W] (ihx_model)."""
        hot, cold = self.port(x, "hot_inlet"), self.port(x, "cold_inlet")
        if hot.m <= 0.0 or cold.m <= 0.0:
            return 0.0
        fl = self.fluid
        t_hot, t_cold = fl.T_ph(hot.p, hot.h), fl.T_ph(cold.p, cold.h)
        if t_hot - t_cold <= 0.0:
            return 0.0
        p_hot_out = hot.p - self._dp(x, hot.m)
        p_cold_out = cold.p - self._dp(x, cold.m)
        limits = (self._h_at(p_hot_out, t_cold), self._h_at(p_cold_out, t_hot))
        guess = self._q_memo[1] if self._q_memo is not None else None
        result = ihx_heat_flow(
            fl,
            self._tables,
            (hot.m, hot.p, p_hot_out, hot.h),
            (cold.m, cold.p, p_cold_out, cold.h),
            limits,
            ua,
            guess,
        )
        return result.q

    def _dp(self, x: np.ndarray, m: float) -> float:
        dp = float(self.params["dp_pa"]) * self.factor(x, "z_dp")
        m_nom = self.params.get("dp_nominal_mass_flow_kg_s")
        return dp if m_nom is None or dp == 0.0 else dp * m * abs(m) / float(m_nom) ** 2

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Hot and cold pressure drops [Pa], hot and cold energy balances [J/kg].

        Each is a ``0 = ...`` line of the module docstring.
        """
        hi, ho = self.port(x, "hot_inlet"), self.port(x, "hot_outlet")
        ci, co = self.port(x, "cold_inlet"), self.port(x, "cold_outlet")
        q = self.heat_flow(x)
        return np.array(
            [
                ho.p - hi.p + self._dp(x, hi.m),
                co.p - ci.p + self._dp(x, ci.m),
                ho.h - hi.h + q / hi.m,
                co.h - ci.h - q / ci.m,
            ]
        )

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """Heat flow, both streams' outlet states and flows, the fine profile's smallest difference.

        ``capacity`` / ``heatTransferRate`` [W]; the hot stream's ``massFlowRate`` [kg/s], outlet
        ``pressure`` [Pa] and ``temperature`` [K]; ``cold_outlet_temperature`` [K] and
        ``cold_mass_flow`` [kg/s]; ``profile_min_temperature_difference`` [K] (None without heat
        flow).
        """
        hi, ho = self.port(x, "hot_inlet"), self.port(x, "hot_outlet")
        ci, co = self.port(x, "cold_inlet"), self.port(x, "cold_outlet")
        fl = self.fluid
        q = hi.m * (hi.h - ho.h)
        return {
            "capacity": q,
            "heatTransferRate": q,
            "massFlowRate": hi.m,
            "pressure": ho.p,
            "temperature": fl.T_ph(ho.p, ho.h),
            "cold_outlet_temperature": fl.T_ph(co.p, co.h),
            "cold_mass_flow": ci.m,
            "profile_min_temperature_difference": (
                check.min_dt if (check := self.profile_check(x)[0]) is not None else None
            ),
        }

    def check(self, x: np.ndarray) -> list[str]:
        """Temperatures crossing at either end, else a crossing on the fine temperature profile."""
        hi, ho = self.port(x, "hot_inlet"), self.port(x, "hot_outlet")
        ci, co = self.port(x, "cold_inlet"), self.port(x, "cold_outlet")
        fl = self.fluid
        problems = []
        t_hi, t_ho = fl.T_ph(hi.p, hi.h), fl.T_ph(ho.p, ho.h)
        t_ci, t_co = fl.T_ph(ci.p, ci.h), fl.T_ph(co.p, co.h)
        if t_hi - t_co < -1e-6 or t_ho - t_ci < -1e-6:
            problems.append(
                f"HeatExchanger {self.name!r}: temperatures cross (hot {t_hi:.2f}->{t_ho:.2f} K, "
                f"cold {t_ci:.2f}->{t_co:.2f} K)"
            )
        elif (check := self.profile_check(x)[0]) is not None:
            note = near_critical_note(self.fluid, max(hi.p, ci.p))
            text = crossing_problem(
                f"HeatExchanger {self.name!r}", check, ("hot stream", "cold stream"), note=note
            )
            problems += [text] if text else []
        return problems

    # -- the fine temperature profile (workbench.components.exchangers.zones.profile) -------------------------
    def profile_check(self, x: np.ndarray) -> tuple[ProfileCheck | None, str | None]:
        """Both solved streams on a fine grid (None without heat flow), or why not."""
        return two_stream_check(
            self._profile_memo,
            self.fluid,
            (self.port(x, "hot_inlet"), self.port(x, "hot_outlet")),
            (self.port(x, "cold_inlet"), self.port(x, "cold_outlet")),
        )

    def warnings(self, x: np.ndarray) -> list[str]:
        """A temperature profile that could not be checked; in UA mode, an inaccurate model.

        The accuracy warning compares the conductance the fine profile needs for the solved
        heat flow with the given one (:func:`workbench.components.exchangers.zones.profile.accuracy_warning`).
        """
        label = f"HeatExchanger {self.name!r}"
        check, why = self.profile_check(x)
        if why:
            return [f"{label}: {why}"]
        if check is None or not self.ua_mode:
            return []
        hi, ci = self.port(x, "hot_inlet"), self.port(x, "cold_inlet")
        text = accuracy_warning(
            label, check, self.ua(x), near_critical_note(self.fluid, max(hi.p, ci.p))
        )
        return [text] if text else []
