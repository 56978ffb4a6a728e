"""Condenser and evaporator: refrigerant against a secondary stream (air or water).

Equations (SI), ``p_ref`` the saturation reference pressure (inlet for a condenser, outlet for
an evaporator, so ``t_evap_k`` is the suction dew point)::

    0 = p_out - p_in + z_dp * dp_pa * (m_coil / m_nominal)^2        (pressure_drop)
    0 = h_out - h_in +/- Q_zones(p_in, h_in, m) / m                 (heat_transfer; UA mode)
    0 = T_ref(p_ref) - t_cond_k   or   T_ref(p_ref) - t_evap_k      (saturation_temperature)
    0 = h_out - h(p_out, T_bubble(p_out) - subcooling_k)            (subcooling; condenser)
    0 = h_out - h(p_out, T_dew(p_out) + superheat_k)                (superheat; evaporator)

``T_ref`` is the dew temperature (``T_sat``), unless ``saturation_reference`` (a scenario-level
field copied to every coil, or a coil's own parameter) says ``"bubble"`` (``T_bubble``) or
``"mid"`` (the mean of bubble and dew at ``p_ref``); for a pure fluid all three are equal.
For a zeotropic blend (``fluid.zeotropic``) subcooling is measured from the bubble point
(``T_sub = T_bubble``), else from ``T_sat`` as before; superheat always from the dew point.

Ideal mode (no ``ua``/``ua_nominal_kw_k``): no heat-transfer equation; the outlet state is
fixed by the subcooling or superheat spec, which defaults to 0 K (saturated liquid or vapour).
UA mode: ``Q_zones`` from :func:`workbench.components.exchangers.zones.heat_flow.coil_heat_flow` with

* ``C_sec = N * m_sec * fan_speed * cp_sec`` (``N`` coils of a ``condenser_bank``),
* ``UA = N * z_ua * UA_0 / (f_air / fan_speed^n_air_exponent + 1 - f_air)``: the air-side share
  ``f_air`` (``air_side_ua_fraction``) of the resistance scales with fan speed, the refrigerant
  side does not; ``UA_0`` is ``ua`` [W/K] or ``1000 * ua_nominal_kw_k``.

A ``condenser_bank`` is ``circuits * coils_per_circuit = N`` identical coils in parallel: each
coil carries ``m / N`` of refrigerant and ``m_sec`` of secondary, has the given UA and sees the
pressure drop ``dp_pa`` at the per-coil flow; results give totals and per-coil values.
When ``dp_nominal_mass_flow_kg_s`` is absent, ``dp_pa`` is a fixed drop (times ``z_dp``).

Superheat and subcooling (one definition for the results and for control loops) [K]::

    superheat  = T(p_out, h_out) - T_dew(p_out)                 h_out >= h_dew + dh
               = (h_out - h_dew) * dT/dh(p_out, h_dew + dh)     below
    subcooling = T_sub(p_out) - T(p_out, h_out)                 h_out <= h_bubble - dh
               = (T_sub - T_bubble) + (h_bubble - h_out) * dT/dh(p_out, h_bubble - dh)

with ``dh`` = :data:`SATURATION_ANCHOR_J_KG` and ``dT/dh`` at constant pressure. Outside the
dome they are the usual temperature differences; across the saturation line and inside the
dome (a wet evaporator outlet, a condenser outlet that is not fully condensed) the vapour
(liquid) line is continued straight with its slope next to the saturation line, so the value
turns negative, in proportion to the missing enthalpy (for R-134a at 3 bar, -1.1 K per kJ/kg
below the dew point). The function is continuous (to 1e-9 K at the anchor) and strictly
monotonic in ``h_out``, which a control loop needs: a loop holding 0 K superheat converges
onto the dew point instead of stalling where a flash at ``h_dew + 1e-4 J/kg`` still reports
the saturation temperature. The slope is a derivative, not the difference of two flashes 1 J/kg
apart: their rounding (1e-10 of T) would make a wet outlet's superheat jump by 1e-3 K when
the pressure moves by a millipascal, and a loop's sensitivity read at the solution would be
noise.
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Component, Equation, StepFunction, register_component
from workbench.components.exchangers.coils.checks import coil_problems, coil_profile, coil_warnings
from workbench.components.exchangers.coils.jacobian import coil_jacobian
from workbench.components.exchangers.coils.view import ExternalDrop
from workbench.components.exchangers.coils.zone_memory import ZoneMemory
from workbench.components.exchangers.zones.air_flow import apply_air_volume_flow
from workbench.components.exchangers.zones.fan_ua import fan_scaled_ua
from workbench.components.exchangers.zones.heat_flow import CoilSensitivity, ZoneResult
from workbench.components.exchangers.zones.profile import ProfileCheck
from workbench.components.exchangers.zones.profile_memo import ProfileMemo
from workbench.components.exchangers.zones.step_share import kept_fraction
from workbench.errors import FluidPropertyError
from workbench.fluids import get_secondary
from workbench.units import celsius_to_kelvin

__all__ = ["SATURATION_ANCHOR_J_KG", "Coil", "Condenser", "Evaporator"]

SATURATION_ANCHOR_J_KG = 1.0
"""Enthalpy distance [J/kg] from the saturation line where superheat and subcooling switch
from the fluid's own temperature to the straight continuation (see the module docstring)."""


class Coil(Component):
    """Shared model of condensers and evaporators (see module docstring)."""

    refrigerant_is_hot: bool = True
    sat_spec: str = "t_cond_k"
    outlet_spec: str = "subcooling_k"
    external_pressure_drop: ExternalDrop | None = None
    """Set by a thermal coupling built from hardware (a brazed plate cascade exchanger): the
    refrigerant pressure drop then comes from it (times ``z_dp``) instead of ``dp_pa``."""
    zone_model_sensitivity: bool = True
    """The zones come from the zone model, whose linearised root the charge gradient may use;
    False for a variant whose zones come from another model (a geometric coil's march)."""

    def configure(self) -> None:
        """Read the mode from the parameters: UA or ideal, the bank size, the secondary inlet.

        The secondary inlet temperature [K] comes from ``air_inlet_temp_c`` or
        ``secondary_inlet_temp_k``; the outlet spec (subcooling or superheat) is an equation when
        given, and always in ideal mode (default 0 K).

        Raises
        ------
        SpecificationError
            A bank without coils, or UA mode without the secondary inlet temperature or mass flow.
        """
        par = self.params
        self.ua_mode = self.has("ua") or self.has("ua_nominal_kw_k")
        bank = par.get("condenser_bank") or {}
        self.n_coils = int(bank.get("circuits", 1)) * int(bank.get("coils_per_circuit", 1))
        if self.n_coils < 1:
            raise self.error("condenser_bank needs at least one circuit and one coil per circuit")
        self.has_secondary = self.has("air_inlet_temp_c") or self.has("secondary_inlet_temp_k")
        self.coupled = False  # set by a thermal coupling: the other side is another circuit
        # the zone model's kept results (a `*_cache`: a sweep's reconfigure starts it afresh)
        self._zones_cache = ZoneMemory(self.fluid, self.refrigerant_is_hot)
        if self.has("air_inlet_temp_c"):
            self.t_sec_in = celsius_to_kelvin(par["air_inlet_temp_c"])
        elif self.has("secondary_inlet_temp_k"):
            self.t_sec_in = float(par["secondary_inlet_temp_k"])
        else:
            self.t_sec_in = float("nan")
        apply_air_volume_flow(self, self.t_sec_in)
        self.outlet_spec_given = self.has(self.outlet_spec) or not self.ua_mode
        if self.ua_mode and not self.has_secondary:
            raise self.error(
                "UA mode needs the secondary inlet: add air_inlet_temp_c or secondary_inlet_temp_k"
            )
        if self.ua_mode and not self.has("secondary_mass_flow_kg_s"):
            raise self.error("UA mode needs secondary_mass_flow_kg_s")
        self._cp_cache: float | None = None  # the secondary's cp at its inlet, read once
        self._profile_memo = ProfileMemo()

    def couple(self) -> None:
        """Make this coil one side of a thermal coupling: its heat flow comes from the coupling."""
        self.coupled = True
        self.outlet_spec_given = self.has(self.outlet_spec)

    # -- parameters ------------------------------------------------------------------------
    def ua_total(self, x: np.ndarray) -> float:
        """Available conductance of the whole bank [W/K]."""
        return self.n_coils * fan_scaled_ua(self, x)

    def secondary_cp(self) -> float:
        """Secondary specific heat [J/(kg K)] at its inlet temperature.

        Raises
        ------
        SpecificationError
            The secondary fluid is unknown or its inlet temperature outside the fluid's range
            (the message names the parameter and its value).
        """
        if self._cp_cache is not None:
            return self._cp_cache
        if self.has("secondary_cp_j_kgk"):
            self._cp_cache = float(self.params["secondary_cp_j_kgk"])
            return self._cp_cache
        source = "air_inlet_temp_c" if self.has("air_inlet_temp_c") else "secondary_inlet_temp_k"
        try:
            cp = float(get_secondary(self.params["secondary_fluid"]).cp(self.t_sec_in))
        except FluidPropertyError as exc:
            raise self.error(
                f"secondary_fluid {self.params['secondary_fluid']!r} at {source} = "
                f"{self.params.get(source)!r}: {exc}"
            ) from None
        self._cp_cache = cp
        return cp

    def secondary_capacity_rate(self) -> float:
        """Secondary capacity rate of the bank [W/K]."""
        m_sec = float(self.params.get("secondary_mass_flow_kg_s", 0.0))
        return self.n_coils * m_sec * float(self.params["fan_speed"]) * self.secondary_cp()

    def pressure_drop(self, x: np.ndarray, m: float) -> float:
        """Refrigerant pressure drop [Pa]."""
        if self.external_pressure_drop is not None:
            return self.external_pressure_drop.value(x) * self.factor(x, "z_dp")
        dp = float(self.params["dp_pa"]) * self.factor(x, "z_dp")
        if dp == 0.0:
            return 0.0
        m_nom = self.params.get("dp_nominal_mass_flow_kg_s")
        if m_nom is None:
            return dp
        m_coil = m / self.n_coils
        return dp * m_coil * abs(m_coil) / float(m_nom) ** 2

    def reference_pressure(self, x: np.ndarray) -> float:
        """Pressure at which the saturation temperature is defined [Pa]."""
        port = "inlet" if self.refrigerant_is_hot else "outlet"
        return self.port(x, port).p

    def step_fraction(self, xs: list[float], ds: list[float], alpha: float) -> float:
        """The largest fraction up to ``alpha`` of a Newton step that keeps the coil's gap.

        A UA-mode coil against a secondary stream (not a coupled one: its coupling bounds the
        step): the gap is its reference temperature at the reference pressure minus the
        secondary inlet (a condenser) or the other way round (an evaporator) [K];
        :func:`~workbench.components.exchangers.zones.step_share.kept_fraction` keeps
        :data:`~workbench.components.exchangers.zones.step_share.GAP_KEPT` of it.
        """
        if not (self.ua_mode and self.has_secondary) or self.coupled:
            return alpha
        ip = self.ports["inlet" if self.refrigerant_is_hot else "outlet"].p
        if ds[ip] == 0.0:
            return alpha
        sign = 1.0 if self.refrigerant_is_hot else -1.0

        def gap(t: float) -> float:
            return sign * (self.reference_temperature(xs[ip] + t * ds[ip]) - self.t_sec_in)

        return kept_fraction(gap, alpha)

    def reference_temperature(self, p: float) -> float:
        """Saturation temperature [K] the ``t_cond_k`` / ``t_evap_k`` spec means at ``p`` [Pa].

        The dew point, the bubble point or their mean (``saturation_reference`` ``"dew"``,
        ``"bubble"``, ``"mid"``; see the module docstring).
        """
        fl = self.fluid
        ref = self.params.get("saturation_reference") or "dew"
        if ref == "dew" or not fl.zeotropic:
            return float(fl.T_sat(p))
        if ref == "bubble":
            return float(fl.T_bubble(p))
        return 0.5 * (float(fl.T_sat(p)) + float(fl.T_bubble(p)))

    def reference_temperature_slope(self, p: float) -> float:
        """d(:meth:`reference_temperature`)/dp [K/Pa]."""
        fl = self.fluid
        ref = self.params.get("saturation_reference") or "dew"
        if ref == "dew" or not fl.zeotropic:
            return float(fl.dTsat_dp(p))
        if ref == "bubble":
            return float(fl.dTbubble_dp(p))
        return 0.5 * (float(fl.dTsat_dp(p)) + float(fl.dTbubble_dp(p)))

    def subcooling_reference(self, p: float) -> float:
        """Temperature [K] subcooling is measured from: bubble point of a blend, else ``T_sat``."""
        fl = self.fluid
        return float(fl.T_bubble(p)) if fl.zeotropic else float(fl.T_sat(p))

    def zones(self, x: np.ndarray) -> ZoneResult:
        """Zone model at the current state (UA mode; kept by its inputs, :class:`ZoneMemory`)."""
        return self._zones_cache.result(self._zone_inputs(x))

    def zone_sensitivity(self, x: np.ndarray) -> CoilSensitivity:
        """Derivatives of the zone model's heat flow at ``x`` (UA mode; kept for the state).

        :func:`~workbench.components.exchangers.zones.heat_flow.coil_heat_flow_sensitivity` at the inputs of
        :meth:`zones`; the coil's Jacobian and a fixed charge's row both read it, and it
        predicts where the next root-find starts (:mod:`workbench.components.exchangers.coils.zone_memory`).
        """
        return self._zones_cache.sensitivity(self._zone_inputs(x))

    def _zone_inputs(self, x: np.ndarray) -> tuple[float, float, float, float, float, float]:
        """``(p, h_in, m, t_sec_in, c_sec, ua)`` of the zone model at ``x``."""
        inlet = self.port(x, "inlet")
        return (
            inlet.p,
            inlet.h,
            inlet.m,
            self.t_sec_in,
            self.secondary_capacity_rate(),
            self.ua_total(x),
        )

    def outlet_target(self, p_out: float, delta: float) -> float:
        """Outlet enthalpy for the subcooling/superheat spec [J/kg].

        Raises
        ------
        FluidPropertyError
            The state is outside the fluid's range; the message names the spec and its value.
        """
        fl = self.fluid
        try:
            if self.refrigerant_is_hot:
                h = (
                    fl.h_liq(p_out)
                    if delta == 0.0
                    else fl.h_pT(p_out, self.subcooling_reference(p_out) - delta)
                )
            else:
                h = fl.h_vap(p_out) if delta == 0.0 else fl.h_pT(p_out, fl.T_sat(p_out) + delta)
        except FluidPropertyError as exc:
            raise FluidPropertyError(f"{self.outlet_spec} = {delta:g} K: {exc}") from None
        return float(h)

    # -- equations -------------------------------------------------------------------------
    def equations(self) -> tuple[Equation, ...]:
        """``pressure_drop``, then those that apply: heat transfer, saturation spec, outlet spec.

        ``heat_transfer`` in UA mode, ``saturation_temperature`` with ``t_cond_k`` / ``t_evap_k``,
        ``subcooling`` / ``superheat`` when given or in ideal mode.
        """
        eqs = [Equation("pressure_drop", "pressure")]
        if self.ua_mode:
            eqs.append(Equation("heat_transfer", "enthalpy"))
        if self.has(self.sat_spec):
            eqs.append(Equation("saturation_temperature", "temperature"))
        if self.outlet_spec_given:
            eqs.append(Equation(self.outlet_spec.removesuffix("_k"), "enthalpy"))
        return tuple(eqs)

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Pressure drop [Pa], heat transfer [J/kg], saturation temperature [K], outlet spec [J/kg].

        Only those listed by :meth:`equations`, in its order; each is a ``0 = ...`` line of the
        module docstring. The heat transfer residual is the enthalpy change plus (condenser) or
        minus (evaporator) the zone model's heat flow per unit mass flow.
        """
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        res = [outlet.p - inlet.p + self.pressure_drop(x, inlet.m)]
        if self.ua_mode:
            q = self.zones(x).q
            sign = 1.0 if self.refrigerant_is_hot else -1.0
            res.append(outlet.h - inlet.h + sign * q / inlet.m)
        if self.has(self.sat_spec):
            res.append(
                self.reference_temperature(self.reference_pressure(x))
                - float(self.params[self.sat_spec])
            )
        if self.outlet_spec_given:
            delta = float(self.params.get(self.outlet_spec, 0.0))
            res.append(outlet.h - self.outlet_target(outlet.p, delta))
        return np.array(res)

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Analytic derivatives (see :func:`workbench.components.exchangers.coils.jacobian.coil_jacobian`)."""
        return coil_jacobian(self, x, f0, step)

    # -- results ---------------------------------------------------------------------------
    def heat_flow(self, x: np.ndarray) -> float:
        """Heat released (condenser) or absorbed (evaporator) by the refrigerant [W]."""
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        q = inlet.m * (inlet.h - outlet.h)
        return q if self.refrigerant_is_hot else -q

    def superheat(self, x: np.ndarray) -> float:
        """Outlet superheat [K]; negative for a wet outlet (see the module docstring)."""
        fl = self.fluid
        outlet = self.port(x, "outlet")
        h_dew, t_dew = float(fl.h_vap(outlet.p)), float(fl.T_sat(outlet.p))
        anchor = h_dew + SATURATION_ANCHOR_J_KG
        if outlet.h >= anchor:
            return float(fl.T_ph(outlet.p, outlet.h)) - t_dew
        return float((outlet.h - h_dew) * fl.dT_dh_p(outlet.p, anchor))

    def subcooling(self, x: np.ndarray) -> float:
        """Outlet subcooling [K]; negative for an outlet not fully condensed (module docstring)."""
        fl = self.fluid
        outlet = self.port(x, "outlet")
        h_bubble, t_bubble = float(fl.h_liq(outlet.p)), float(fl.T_bubble(outlet.p))
        t_ref = self.subcooling_reference(outlet.p)
        anchor = h_bubble - SATURATION_ANCHOR_J_KG
        if outlet.h <= anchor:
            return t_ref - float(fl.T_ph(outlet.p, outlet.h))
        return float(t_ref - t_bubble + (h_bubble - outlet.h) * fl.dT_dh_p(outlet.p, anchor))

    def measure(self, x: np.ndarray, output: str) -> float:
        """Contract output for a control loop [SI].

        Superheat and subcooling are the same functions as in :meth:`outputs`: continuous and
        monotonic across the saturation line, so Newton sees a monotonic function of the
        actuator.
        """
        fl = self.fluid
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        if output in ("capacity", "heatTransferRate"):
            return self.heat_flow(x)
        if output == "superheat":
            return self.superheat(x)
        if output == "subcooling":
            return self.subcooling(x)
        if output == "saturationTemperature":
            return self.reference_temperature(self.reference_pressure(x))
        if output == "pressure":
            return self.reference_pressure(x)
        if output == "temperature":
            return float(fl.T_ph(outlet.p, outlet.h))
        if output == "massFlowRate":
            return inlet.m
        return super().measure(x, output)

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """Capacity, saturation state, outlet subcooling or superheat, and what the mode adds.

        Always: ``capacity`` / ``heatTransferRate`` [W], ``saturationTemperature`` [K] at the
        reference pressure, ``pressure`` [Pa], ``temperature`` [K] at the outlet, ``pressure_drop``
        [Pa], ``subcooling`` (condenser) or ``superheat`` (evaporator) [K]. With a secondary stream:
        its inlet and outlet temperatures [K], its heat flow [W] and the fine profile's smallest
        temperature difference [K] (None when not checked). UA mode: ``ua`` [W/K],
        ``min_temperature_difference`` [K] and each zone's heat flow [W] and UA [W/K]. A bank: the
        number of coils and the capacity [W] and mass flow [kg/s] per coil.
        """
        fl = self.fluid
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        q = self.heat_flow(x)
        t_out = fl.T_ph(outlet.p, outlet.h)
        p_ref = self.reference_pressure(x)
        out: dict[str, float | None] = {
            "capacity": q,
            "heatTransferRate": q,
            "saturationTemperature": self.reference_temperature(p_ref),
            "massFlowRate": inlet.m,
            "pressure": p_ref,
            "temperature": t_out,
            "pressure_drop": inlet.p - outlet.p,
        }
        if fl.zeotropic:
            t_bubble, t_dew = float(fl.T_bubble(p_ref)), float(fl.T_sat(p_ref))
            out["bubble_temperature"] = t_bubble
            out["dew_temperature"] = t_dew
            out["glide"] = t_dew - t_bubble
            out["inlet_temperature"] = float(fl.T_ph(inlet.p, inlet.h))
        if self.refrigerant_is_hot:
            out["subcooling"] = self.subcooling(x)
        else:
            out["superheat"] = self.superheat(x)
        if self.has_secondary and self.has("secondary_mass_flow_kg_s"):
            c_sec = self.secondary_capacity_rate()
            sign = 1.0 if self.refrigerant_is_hot else -1.0
            out["secondary_inlet_temperature"] = self.t_sec_in
            t_sec_out = self.t_sec_in + sign * q / c_sec if c_sec > 0 else self.t_sec_in
            out["secondary_outlet_temperature"] = t_sec_out
            out["secondary_heat_flow"] = sign * c_sec * (t_sec_out - self.t_sec_in)
        if self.ua_mode:
            zr = self.zones(x)
            out["ua"] = self.ua_total(x)
            out["min_temperature_difference"] = zr.min_dt
            for name, qz, uaz in zr.zones:
                out[f"zone_{name.replace('-', '_')}_q"] = qz
                out[f"zone_{name.replace('-', '_')}_ua"] = uaz
        if self.has_secondary and self.has("secondary_mass_flow_kg_s") and not self.coupled:
            check, _why = self.profile_check(x)
            out["profile_min_temperature_difference"] = check.min_dt if check else None
        if self.n_coils > 1:
            out["coils"] = float(self.n_coils)
            out["capacity_per_coil"] = q / self.n_coils
            out["mass_flow_per_coil"] = inlet.m / self.n_coils
        return out

    # -- checks of the solved coil (workbench.components.exchangers.coils.checks) ----------------------------
    def check(self, x: np.ndarray) -> list[str]:
        """Heat flowing the wrong way, or temperatures crossing the secondary stream.

        See :func:`workbench.components.exchangers.coils.checks.coil_problems`.
        """
        return coil_problems(self, x)

    def profile_check(self, x: np.ndarray) -> tuple[ProfileCheck | None, str | None]:
        """The solved coil on a fine enthalpy grid, or why it could not be checked.

        ``(None, None)`` without a secondary flow (nothing to compare with) or when coupled.
        """
        return coil_profile(self, x)

    def warnings(self, x: np.ndarray) -> list[str]:
        """Above the critical pressure, a failed profile check, an inaccurate zone model."""
        return coil_warnings(self, x)


@register_component
class Condenser(Coil):
    """Condenser: the refrigerant releases heat (see module docstring)."""

    type_name = "Condenser"
    refrigerant_is_hot = True
    sat_spec = "t_cond_k"
    outlet_spec = "subcooling_k"


@register_component
class Evaporator(Coil):
    """Evaporator: the refrigerant absorbs heat (see module docstring)."""

    type_name = "Evaporator"
    refrigerant_is_hot = False
    sat_spec = "t_evap_k"
    outlet_spec = "superheat_k"
