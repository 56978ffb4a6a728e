"""Gas cooler: heat rejection above the critical pressure (transcritical R744 cycles).

Ports ``inlet``, ``outlet``. Above the critical pressure nothing condenses: the refrigerant
cools along an isobar whose cp peaks at the pseudo-critical temperature (for CO2 at 100 bar
cp is 1.4 kJ/(kg K) at 120 C, 8 kJ/(kg K) at 45 C), so the temperature profile bends sharply
and a model with one capacity rate per zone misses pinches inside the exchanger.

Equations (SI), ``p_in`` the high-side pressure::

    0 = p_out - p_in + z_dp * dp_pa * (m / m_nominal)^2            (pressure_drop)
    0 = h_out - h_in + Q_gc(p_in, h_in, m) / m                     (heat_transfer; UA mode)
    0 = h_out - h(p_out, outlet_temp_k)                            (outlet_temperature)
    0 = p_in - pressure_pa                                         (pressure)
    0 = p_in - p_opt(t_out, t_e)                                   (optimal_pressure)

**Fixed mode** (no ``ua``): ``outlet_temp_k`` fixes the outlet state; the pressure is
``pressure_pa``, the correlation, or left to the circuit. **UA mode** (``ua`` [W/K] or
``ua_nominal_kw_k``, with the secondary stream as for the coils: ``secondary_inlet_temp_k`` or
``air_inlet_temp_c``, ``secondary_mass_flow_kg_s``, ``secondary_cp_j_kgk`` or
``secondary_fluid``, ``fan_speed``, ``n_air_exponent``, ``air_side_ua_fraction``)::

    UA    = z_ua * UA_0 / (f_air / fan_speed^n_air_exponent + 1 - f_air)
    C_sec = secondary_mass_flow_kg_s * fan_speed * cp_sec(T_sec,in)

and ``outlet_temp_k`` is then optional (a spec that sets the pressure instead of
``pressure_pa``).

**The high-side pressure** is one of: ``pressure_pa`` (fixed); ``pressure_control`` =
``liao2000``, the optimal-pressure correlation of Liao, Zhao and Jakobsen (2000) for R744::

    p_opt [bar] = (2.778 - 0.0157 t_e) t_out + (0.381 t_e - 9.34)

with ``t_out`` the gas-cooler outlet temperature [degC] and ``t_e`` the dew temperature at the
suction pressure of the compressor that feeds the gas cooler [degC]; fitted for
``t_e`` from -10 to 20 C and ``t_out`` from 30 to 60 C (outside that range it extrapolates and
the result warns); or nothing, when the circuit sets it (an orifice valve,
``flow_coefficient_m2``, whose ``z_flow`` a control loop measuring the gas cooler's
``pressure`` drives to a target; or ``outlet_temp_k`` in UA mode).

**Counterflow UA model, discretised along the refrigerant enthalpy**
(:mod:`workbench.components.exchangers.gas_cooler.model`). The refrigerant temperature is tabulated once
per pressure level (:mod:`workbench.components.exchangers.gas_cooler.isobar`: the table of an inlet state
is the level's nodes below ``h_in`` and the inlet node) on nodes about ``(h_ref - h_lim) / M``
apart in enthalpy (``M`` = ``profile_segments``, default 40; ``h_ref`` the enthalpy 60 K above
the larger of ``T_sec,in`` and the critical temperature; below the critical pressure
``(h_in - h_lim) / M``) between the pinch-limit enthalpy ``h_lim = h(p_out,
T_sec,in)`` and ``h_in``: above the critical pressure by temperature steps sized from the last
segment's slope and (p, T) flashes (an eighth of the cost of (p, h) flashes), below it by
equal enthalpy steps with the saturation points added. With a pressure drop there is an isobar
at ``p_in`` and one at ``p_out = p_in - dp``; along the path the pressure is linear in the
enthalpy change, ``T(h) = T_in(h) + x (T_out(h) - T_in(h))`` with ``x = (h_in - h) / (h_in -
h_out)``. For a heat flow ``Q`` (``h_out = h_in - Q / m``) each segment between neighbouring
nodes is a counterflow exchanger with both capacity rates constant, so::

    Ts_j   = T_sec,in + m (h_j - h_out) / C_sec           (secondary enters at the outlet)
    dT_j   = T_j - Ts_j
    UA_req = sum_j m (h_j+1 - h_j) / LMTD(dT_j, dT_j+1)  (= sum of NTU_j C_min,j, epsilon-NTU)

``Q_gc`` is the heat flow with ``UA_req(Q) = UA``, found by Newton's method in ``s = -ln(1 -
Q/Q_max)`` with the analytic ``dUA_req/dQ`` (Brent's method as the fallback) on
``(0, Q_max)``, ``Q_max = min(m (h_in - h_lim), C_sec (T_in - T_sec,in))``; a pinch inside
the exchanger (the smallest ``dT_j``, sharpened between nodes by a parabola through the
smallest value and its neighbours, reaching zero) also ends the admissible range. Equal enthalpy
steps are dense in temperature where cp is large, so the pseudo-critical bend is resolved
where it matters; with 40 segments the heat flow agrees with a 1000-segment integration to
better than 0.05 % (``tests/test_gas_cooler.py``, ``benchmarks/bench_transcritical.py``). A pinch inside the exchanger makes ``UA_req``
infinite, so temperatures never cross on the model's profile; ``min_temperature_difference``
is the smallest ``dT_j`` of the solved profile, and the solved states are checked again on a
finer grid (:mod:`workbench.components.exchangers.zones.profile`).

**Jacobian** (:meth:`GasCooler.jacobian`): differences over the local unknowns, with the
heat flow at a perturbed column moved from the solved one by the implicit function theorem
in ``s`` (:mod:`workbench.components.exchangers.gas_cooler.jacobian`) instead of a new root-find; the
inlet-enthalpy column keeps the table's nodes and moves only the inlet node, the pressure
column uses the level at ``p + dp``: without a pressure drop the kept level's nodes moved to
first order in the pressure (their derivatives carried through the isobar's steps,
:class:`~workbench.components.exchangers.gas_cooler.isobar.ShiftedLevel`), no isobar stepped for it. The
root's own last evaluation (``UA_req`` and its slope) is the linearisation's base point.

Below the critical pressure the same model condenses (the saturation points become nodes), so
a transcritical cycle that drops subcritical at low secondary temperatures still solves.

References
----------
Liao, S. M., Zhao, T. S., Jakobsen, A., "A correlation of optimal heat rejection pressures in
transcritical carbon dioxide cycles", Applied Thermal Engineering 20 (2000) 831-841.
Incropera, DeWitt, Bergman, Lavine, Fundamentals of Heat and Mass Transfer, 6th ed., sec. 11.4
(epsilon-NTU, counterflow).
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from workbench.components.base import Component, Equation, StepFunction, register_component
from workbench.components.exchangers.gas_cooler.jacobian import Linearisation
from workbench.components.exchangers.gas_cooler.model import (
    TABLE_CACHE_SIZE,
    GasCoolerResult,
    TableCache,
    gas_cooler_heat_flow,
)
from workbench.components.exchangers.zones.air_flow import apply_air_volume_flow
from workbench.components.exchangers.zones.fan_ua import fan_scaled_ua
from workbench.components.exchangers.zones.profile import (
    ProfileCheck,
    crossing_problem,
    secondary_profile,
)
from workbench.components.exchangers.zones.profile_memo import ProfileMemo
from workbench.errors import FluidPropertyError
from workbench.fluids import get_secondary
from workbench.units import ZERO_CELSIUS_K, celsius_to_kelvin

__all__ = [
    "LIAO_RANGE_C",
    "GasCooler",
    "GasCoolerResult",
    "gas_cooler_heat_flow",
    "liao_optimal_pressure",
]

LIAO_RANGE_C = {"t_e": (-10.0, 20.0), "t_out": (30.0, 60.0)}
"""Range [degC] of evaporating and gas-cooler outlet temperatures the Liao (2000) fit covers."""


def liao_optimal_pressure(t_out_c: float, t_e_c: float) -> float:
    """Optimal high-side pressure of an R744 cycle (Liao, Zhao and Jakobsen 2000) [Pa].

    Parameters
    ----------
    t_out_c : float
        Gas-cooler outlet temperature [degC].
    t_e_c : float
        Evaporating temperature [degC].

    Returns
    -------
    float
        ``1e5 * ((2.778 - 0.0157 t_e) t_out + 0.381 t_e - 9.34)`` [Pa].
    """
    return 1e5 * ((2.778 - 0.0157 * t_e_c) * t_out_c + 0.381 * t_e_c - 9.34)


@register_component
class GasCooler(Component):
    """Gas cooler of a transcritical cycle (see the module docstring)."""

    type_name = "GasCooler"

    def configure(self) -> None:
        """Read the mode (UA or fixed), the secondary inlet and the pressure correlation.

        Raises
        ------
        SpecificationError
            UA mode without the secondary inlet or its mass flow; fixed mode without
            ``outlet_temp_k``.
        """
        par = self.params
        # a geometry (the variant from hardware) is a conductance too: UA mode's checks apply
        self.ua_mode = self.has("ua") or self.has("ua_nominal_kw_k") or self.has("geometry")
        self.has_secondary = self.has("air_inlet_temp_c") or self.has("secondary_inlet_temp_k")
        if self.has("air_inlet_temp_c"):
            self.t_sec_in = celsius_to_kelvin(float(par["air_inlet_temp_c"]))
        elif self.has("secondary_inlet_temp_k"):
            self.t_sec_in = float(par["secondary_inlet_temp_k"])
        else:
            self.t_sec_in = float("nan")
        apply_air_volume_flow(self, self.t_sec_in)
        self.correlation = par.get("pressure_control")
        self.suction_p_index: int | None = None
        if self.ua_mode and not self.has_secondary:
            raise self.error(
                "UA mode needs the secondary inlet: add secondary_inlet_temp_k or air_inlet_temp_c"
            )
        if self.ua_mode and not self.has("secondary_mass_flow_kg_s"):
            raise self.error("UA mode needs secondary_mass_flow_kg_s")
        if not self.ua_mode and not self.has("outlet_temp_k"):
            raise self.error(
                "fixed mode needs outlet_temp_k (or give ua and the secondary stream for UA mode)"
            )
        self._tables = TableCache()
        self._results: OrderedDict[tuple[float, ...], GasCoolerResult] = OrderedDict()
        self._q_last: float | None = None
        self._profile_memo = ProfileMemo()
        self._linear: Linearisation | None = None
        self._cp_sec: float | None = None

    @property
    def pressure_set(self) -> int:
        """How many of the gas cooler's own equations fix the high-side pressure level.

        ``pressure_pa`` and ``pressure_control`` each do; ``outlet_temp_k`` does in UA mode
        (in fixed mode it fixes the outlet state instead).
        """
        own = int(self.has("pressure_pa")) + int(self.correlation is not None)
        return own + int(self.ua_mode and self.has("outlet_temp_k"))

    def link_suction(self, p_index: int) -> None:
        """Let the correlation read the compressor suction pressure, unknown ``p_index``."""
        self.suction_p_index = p_index
        self._local = sorted(set(self._local) | {p_index})

    # -- parameters ------------------------------------------------------------------------
    @property
    def label(self) -> str:
        """The gas cooler as messages name it: ``GasCooler 'name'``."""
        return f"GasCooler {self.name!r}"

    def ua_total(self, x: np.ndarray) -> float:
        """Available conductance [W/K]."""
        return fan_scaled_ua(self, x)

    def secondary_capacity_rate(self) -> float:
        """Secondary capacity rate ``m_sec fan_speed cp`` [W/K]."""
        par = self.params
        cp = self._cp_sec
        if cp is None:  # the secondary's cp at its inlet temperature, once (as the coils do)
            if self.has("secondary_cp_j_kgk"):
                cp = float(par["secondary_cp_j_kgk"])
            else:
                cp = float(get_secondary(par["secondary_fluid"]).cp(self.t_sec_in))
            self._cp_sec = cp
        return float(par.get("secondary_mass_flow_kg_s", 0.0)) * float(par["fan_speed"]) * cp

    def pressure_drop(self, x: np.ndarray, m: float) -> float:
        """Refrigerant pressure drop [Pa]."""
        dp = float(self.params["dp_pa"]) * self.factor(x, "z_dp")
        m_nom = self.params.get("dp_nominal_mass_flow_kg_s")
        if dp == 0.0 or m_nom is None:
            return dp
        return dp * m * abs(m) / float(m_nom) ** 2

    def model_inputs(self, x: np.ndarray) -> tuple[float, ...]:
        """``(p_in, h_in, m, dp, UA, T_sec,in, C_sec)`` of the UA model at ``x`` [SI]."""
        inlet = self.port(x, "inlet")
        return (
            inlet.p,
            inlet.h,
            inlet.m,
            self.pressure_drop(x, inlet.m),
            self.ua_total(x),
            self.t_sec_in,
            self.secondary_capacity_rate(),
        )

    def model(self, x: np.ndarray) -> GasCoolerResult:
        """The discretised UA model at the current inlet state (UA mode).

        While :meth:`jacobian` runs, a state other than the linearisation point gets the heat
        flow of the implicit function theorem instead of a root-find (see :meth:`jacobian`).
        """
        key = self.model_inputs(x)
        cached = self._results.get(key)
        if cached is not None:
            return cached
        if self._linear is not None:
            linear = self._linear.heat_flow(self, key)
            if linear is not None:
                return linear
        result = gas_cooler_heat_flow(
            self.fluid,
            key[0],
            key[3],
            key[1],
            key[2],
            self.t_sec_in,
            key[6],
            key[4],
            segments=int(self.params["profile_segments"]),
            q_guess=self._q_last,
            tables=self._tables,
        )
        self._q_last = result.q or None
        self._results[key] = result
        while len(self._results) > TABLE_CACHE_SIZE:
            self._results.popitem(last=False)
        return result

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Differences over the local unknowns, the heat flow through the root by the IFT.

        The model's heat flow ``Q`` solves ``G(Q, u) = UA_req(Q, u) - UA(u) = 0``, ``u`` the
        inputs (inlet state, mass flow, pressure drop, conductance, secondary stream). At a
        perturbed column the heat flow follows from the implicit function theorem in
        ``s = -ln(1 - Q/Q_max)`` (:class:`~workbench.components.exchangers.gas_cooler.jacobian.Linearisation`,
        ``dG/ds`` from the profile's analytic slope): one profile evaluation per column
        instead of a root-find. The inlet-enthalpy
        column keeps the table's nodes and moves only its inlet node (one flash); a column
        that moves the pressure uses that pressure level's table (built once per level).
        """
        if self.ua_mode:
            key = self.model_inputs(x)
            base = self.model(x)
            self._linear = Linearisation.at(self, key, base)
        try:
            return super().jacobian(x, f0, step)
        finally:
            self._linear = None

    def correlation_inputs(self, x: np.ndarray) -> tuple[float, float]:
        """Outlet and evaporating temperature [degC] the pressure correlation reads."""
        outlet = self.port(x, "outlet")
        t_out = float(self.fluid.T_ph(outlet.p, outlet.h)) - ZERO_CELSIUS_K
        if self.suction_p_index is None:
            raise self.error("pressure_control needs the compressor that feeds the gas cooler")
        t_e = float(self.fluid.T_dew(float(x[self.suction_p_index]))) - ZERO_CELSIUS_K
        return t_out, t_e

    # -- starting values ---------------------------------------------------------------------
    def outlet_temperature_guess(self) -> float:
        """A starting outlet temperature [K]: the spec, else the secondary inlet + 5 K, else 35 C."""
        if self.has("outlet_temp_k"):
            return float(self.params["outlet_temp_k"])
        if self.has_secondary:
            return self.t_sec_in + 5.0
        return celsius_to_kelvin(35.0)

    def pressure_guess(self, t_evap: float) -> float:
        """A starting high-side pressure [Pa] for an evaporating temperature ``t_evap`` [K].

        ``pressure_pa`` when given; otherwise the Liao correlation at the guessed outlet
        temperature (R744), at least 5 % above the critical pressure.
        """
        if self.has("pressure_pa"):
            return float(self.params["pressure_pa"])
        if self.fluid.name != "CO2":
            return 1.2 * self.fluid.p_crit
        t_out = max(self.outlet_temperature_guess() - ZERO_CELSIUS_K, LIAO_RANGE_C["t_out"][0])
        return max(liao_optimal_pressure(t_out, t_evap - ZERO_CELSIUS_K), 1.05 * self.fluid.p_crit)

    # -- equations -------------------------------------------------------------------------
    def equations(self) -> tuple[Equation, ...]:
        """``pressure_drop``, then those whose parameter is given.

        ``heat_transfer`` (UA mode), ``outlet_temperature`` (``outlet_temp_k``), ``pressure``
        (``pressure_pa``), ``optimal_pressure`` (``pressure_control``).
        """
        eqs = [Equation("pressure_drop", "pressure")]
        if self.ua_mode:
            eqs.append(Equation("heat_transfer", "enthalpy"))
        if self.has("outlet_temp_k"):
            eqs.append(Equation("outlet_temperature", "enthalpy"))
        if self.has("pressure_pa"):
            eqs.append(Equation("pressure", "pressure"))
        if self.correlation is not None:
            eqs.append(Equation("optimal_pressure", "pressure"))
        return tuple(eqs)

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Pressure drop [Pa], heat transfer and outlet temperature [J/kg], pressure [Pa] residuals.

        In the order of :meth:`equations`; each is a ``0 = ...`` line of the module docstring.
        """
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        res = [outlet.p - inlet.p + self.pressure_drop(x, inlet.m)]
        if self.ua_mode:
            res.append(outlet.h - inlet.h + self.model(x).q / inlet.m)
        if self.has("outlet_temp_k"):
            res.append(
                outlet.h - float(self.fluid.h_pT(outlet.p, float(self.params["outlet_temp_k"])))
            )
        if self.has("pressure_pa"):
            res.append(inlet.p - float(self.params["pressure_pa"]))
        if self.correlation is not None:
            res.append(inlet.p - liao_optimal_pressure(*self.correlation_inputs(x)))
        return np.array(res)

    # -- results ---------------------------------------------------------------------------
    def heat_flow(self, x: np.ndarray) -> float:
        """Heat released by the refrigerant, from the solved states [W]."""
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        return inlet.m * (inlet.h - outlet.h)

    def model_heat_flow(self, x: np.ndarray) -> float:
        """Heat flow of the model [W]: the UA model's, or the solved states' in fixed mode."""
        return self.model(x).q if self.ua_mode else self.heat_flow(x)

    def measure(self, x: np.ndarray, output: str) -> float:
        """Contract output for a control loop [SI]."""
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        if output in ("capacity", "heatTransferRate"):
            return self.heat_flow(x)
        if output == "pressure":
            return inlet.p
        if output == "temperature":
            return float(self.fluid.T_ph(outlet.p, outlet.h))
        if output == "massFlowRate":
            return inlet.m
        return super().measure(x, output)

    def profile_check(self, x: np.ndarray) -> tuple[ProfileCheck | None, str | None]:
        """The solved gas cooler on a fine grid (None without a secondary flow), or why not."""
        if not self.has_secondary or not self.has("secondary_mass_flow_kg_s"):
            return None, None
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        c_sec = self.secondary_capacity_rate()
        return self._profile_memo.get(
            (inlet.p, inlet.h, outlet.p, outlet.h, inlet.m, c_sec),
            lambda: secondary_profile(
                self.fluid,
                (inlet.p, inlet.h),
                (outlet.p, outlet.h),
                inlet.m,
                self.t_sec_in,
                c_sec,
                refrigerant_is_hot=True,
            ),
        )

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """Capacity, high-side pressure, temperatures, and what the correlation and the mode add.

        Always: ``capacity`` / ``heatTransferRate`` [W], ``massFlowRate`` [kg/s], ``pressure`` [Pa]
        (inlet) and ``reduced_pressure`` [-], ``temperature`` (outlet) and ``inlet_temperature``
        [K], ``pressure_drop`` [Pa]. The correlation's ``optimal_pressure`` [Pa]. With a secondary
        stream: its inlet and outlet temperatures [K], ``approach_temperature`` [K], its heat flow
        [W] and the fine profile's smallest temperature difference [K]. UA mode: ``ua`` [W/K], the
        model's ``min_temperature_difference`` [K] and ``profile_segments``.
        """
        fl = self.fluid
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        q = self.heat_flow(x)
        t_out = float(fl.T_ph(outlet.p, outlet.h))
        out: dict[str, float | None] = {
            "capacity": q,
            "heatTransferRate": q,
            "massFlowRate": inlet.m,
            "pressure": inlet.p,
            "reduced_pressure": inlet.p / fl.p_crit,
            "temperature": t_out,
            "inlet_temperature": float(fl.T_ph(inlet.p, inlet.h)),
            "pressure_drop": inlet.p - outlet.p,
        }
        if self.correlation is not None and self.suction_p_index is not None:
            out["optimal_pressure"] = liao_optimal_pressure(*self.correlation_inputs(x))
        if self.has_secondary:
            out["secondary_inlet_temperature"] = self.t_sec_in
            out["approach_temperature"] = t_out - self.t_sec_in
        if self.has_secondary and self.has("secondary_mass_flow_kg_s"):
            c_sec = self.secondary_capacity_rate()
            t_sec_out = self.t_sec_in + q / c_sec if c_sec > 0 else self.t_sec_in
            out["secondary_outlet_temperature"] = t_sec_out
            out["secondary_heat_flow"] = c_sec * (t_sec_out - self.t_sec_in)
            check, _why = self.profile_check(x)
            out["profile_min_temperature_difference"] = check.min_dt if check else None
        if self.ua_mode:
            result = self.model(x)
            out["ua"] = self.ua_total(x)
            out["min_temperature_difference"] = result.min_dt
            out["profile_segments"] = float(result.segments)
        return out

    def check(self, x: np.ndarray) -> list[str]:
        """Heat flowing the wrong way, and a crossing on the fine temperature profile."""
        problems = []
        q = self.heat_flow(x)
        if q < -1e-6 * max(1.0, abs(q)):
            problems.append(
                f"{self.label}: the refrigerant releases {q:.1f} W (negative): heat would flow "
                "the wrong way"
            )
        check, _why = self.profile_check(x)
        if check is not None:
            note = (
                f"The UA model's profile has {int(self.params['profile_segments'])} segments; "
                "raise profile_segments."
                if self.ua_mode
                else ""
            )
            text = crossing_problem(self.label, check, note=note)
            if text is not None:
                problems.append(text)
        return problems

    def warnings(self, x: np.ndarray) -> list[str]:
        """A profile that could not be checked; the pressure correlation extrapolated or failing."""
        notes = []
        _check, why = self.profile_check(x)
        if why is not None:
            notes.append(f"{self.label}: {why}")
        if self.correlation is not None and self.suction_p_index is not None:
            try:
                t_out, t_e = self.correlation_inputs(x)
            except FluidPropertyError as exc:
                return [*notes, f"{self.label}: the pressure correlation failed: {exc}"]
            (e_lo, e_hi), (o_lo, o_hi) = LIAO_RANGE_C["t_e"], LIAO_RANGE_C["t_out"]
            if not (e_lo <= t_e <= e_hi and o_lo <= t_out <= o_hi):
                notes.append(
                    f"{self.label}: the optimal-pressure correlation (Liao et al. 2000) is "
                    f"extrapolated: t_e {t_e:.1f} C (fitted {e_lo:g}..{e_hi:g} C), outlet "
                    f"{t_out:.1f} C (fitted {o_lo:g}..{o_hi:g} C)"
                )
        return notes
