"""Compressor with a vapour-injection port: two isentropic-efficiency stages in one shell.

Ports ``inlet`` (suction), ``injection_inlet`` (vapour from an economiser or flash tank, at
the intermediate pressure) and ``outlet``. The injection pressure is the pressure of the
injection port (set by the injection line, e.g. a flash tank's ``pressure_pa``). The model is
two stages with the same isentropic efficiency ``eta_s``, the injected vapour mixing in
between::

    h_mid = h_in + (h(p_inj, s(p_in, h_in)) - h_in) / eta_s           first stage
    h_mix = (m_in h_mid + m_inj h_inj) / (m_in + m_inj)               injection
    h_2   = h_mix + (h(p_out, s(p_inj, h_mix)) - h_mix) / eta_s       second stage

Equations (SI)::

    0 = m_in + m_inj - m_out                                          (mass; see junction.py)
    0 = m_in - z_flow * m_model                                       (flow; with a flow model)
    0 = h_out - h_in - (h_2 - h_in) * z_power                         (energy)

where ``m_model`` is the suction flow: ``mass_flow_kg_s``, or ``displacement_m3 * speed_hz *
volumetric_efficiency * z_etav * rho(p_in, h_in)``. Without a flow model the flows come from
the rest of the circuit. Power ``W = m_out h_out - m_in h_in - m_inj h_inj`` (adiabatic shell);
``energy_balance_w`` is the enthalpy flow in plus the model's power minus the flow out.
With ``eta_s = 1`` and the injection at a flash tank's pressure, the cycle is the textbook
two-stage cycle with a flash chamber (a test checks it).
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Equation, register_component
from workbench.components.junctions.junction import Junction
from workbench.components.machines.compressor import wet_suction_warnings

__all__ = ["InjectionCompressor"]


@register_component
class InjectionCompressor(Junction):
    """Compressor with vapour injection (see module docstring)."""

    type_name = "InjectionCompressor"

    def configure(self) -> None:
        """Junction set-up, and the flow model: ``displacement``, ``fixed`` or ``none``."""
        super().configure()
        if self.has("displacement_m3"):
            self.flow_mode = "displacement"
        elif self.has("mass_flow_kg_s"):
            self.flow_mode = "fixed"
        else:
            self.flow_mode = "none"

    def equations(self) -> tuple[Equation, ...]:
        """The mass balance (when kept), ``flow`` (with a flow model) and ``energy``."""
        flow = () if self.flow_mode == "none" else (Equation("flow", "mass"),)
        return (*self.mass_equations(), *flow, Equation("energy", "enthalpy"))

    def model_mass_flow(self, x: np.ndarray) -> float:
        """Suction mass flow of the flow model before ``z_flow`` [kg/s]."""
        par = self.params
        if self.flow_mode == "fixed":
            return float(par["mass_flow_kg_s"])
        inlet = self.port(x, "inlet")
        rho = self.fluid.rho_ph(inlet.p, inlet.h)
        return float(
            par["displacement_m3"]
            * par["speed_hz"]
            * par["volumetric_efficiency"]
            * self.factor(x, "z_etav")
            * rho
        )

    def stages(self, x: np.ndarray) -> tuple[float, float, float]:
        """``(h_mid, h_mix, h_2)`` of the two-stage model [J/kg]."""
        fl = self.fluid
        inlet, inj, outlet = (self.port(x, p) for p in ("inlet", "injection_inlet", "outlet"))
        eta = float(self.params["isentropic_efficiency"])
        h_mid = inlet.h + (fl.h_ps(inj.p, fl.s_ph(inlet.p, inlet.h)) - inlet.h) / eta
        m = inlet.m + inj.m
        h_mix = (inlet.m * h_mid + inj.m * inj.h) / m
        h_2 = h_mix + (fl.h_ps(outlet.p, fl.s_ph(inj.p, h_mix)) - h_mix) / eta
        return float(h_mid), float(h_mix), float(h_2)

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Mass and flow [kg/s] and energy [J/kg] residuals, in the order of :meth:`equations`.

        Each is a ``0 = ...`` line of the module docstring.
        """
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        res = self.mass_residual(x)
        if self.flow_mode != "none":
            res.append(inlet.m - self.factor(x, "z_flow") * self.model_mass_flow(x))
        h_2 = self.stages(x)[2]
        res.append(outlet.h - inlet.h - (h_2 - inlet.h) * self.factor(x, "z_power"))
        return np.array(res)

    def power(self, x: np.ndarray) -> float:
        """Shaft power of the model [W]: its outlet enthalpy flow minus the inlets'."""
        inlet, inj = self.port(x, "inlet"), self.port(x, "injection_inlet")
        h_out = inlet.h + (self.stages(x)[2] - inlet.h) * self.factor(x, "z_power")
        return (inlet.m + inj.m) * h_out - inlet.m * inlet.h - inj.m * inj.h

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """Power, the three flows and pressures, the two-stage model's enthalpies, the balances.

        ``power`` [W] from the enthalpy flows; ``massFlowRate``, ``suction_mass_flow`` and
        ``injection_mass_flow`` [kg/s]; ``injection_ratio`` and ``pressure_ratio`` [-]; discharge
        ``pressure`` [Pa] and ``temperature`` [K]; ``suction_pressure`` and ``injection_pressure``
        [Pa]; ``first_stage_enthalpy`` and ``mixed_enthalpy`` [J/kg]; the junction balances, the
        energy balance counting the model's power as an inflow.
        """
        fl = self.fluid
        inlet, inj, outlet = (self.port(x, p) for p in ("inlet", "injection_inlet", "outlet"))
        h_mid, h_mix, _h2 = self.stages(x)
        result: dict[str, float | None] = {
            "power": outlet.m * outlet.h - inlet.m * inlet.h - inj.m * inj.h,
            "massFlowRate": outlet.m,
            "suction_mass_flow": inlet.m,
            "injection_mass_flow": inj.m,
            "injection_ratio": inj.m / inlet.m if inlet.m else None,
            "pressure": outlet.p,
            "temperature": fl.T_ph(outlet.p, outlet.h),
            "suction_pressure": inlet.p,
            "injection_pressure": inj.p,
            "pressure_ratio": outlet.p / inlet.p,
            "first_stage_enthalpy": h_mid,
            "mixed_enthalpy": h_mix,
        }
        result.update(self.balance_outputs(x))
        result["energy_balance_w"] = float(result["energy_balance_w"] or 0.0) + self.power(x)
        return result

    def check(self, x: np.ndarray) -> list[str]:
        """Negative port flows, and an injection pressure not between suction and discharge."""
        problems = super().check(x)
        inlet, inj, outlet = (self.port(x, p) for p in ("inlet", "injection_inlet", "outlet"))
        if not inlet.p < inj.p < outlet.p:
            problems.append(
                f"InjectionCompressor {self.name!r}: the injection pressure {inj.p / 1e5:.3f} bar "
                f"is not between suction {inlet.p / 1e5:.3f} bar and discharge "
                f"{outlet.p / 1e5:.3f} bar"
            )
        return problems

    def warnings(self, x: np.ndarray) -> list[str]:
        """A two-phase suction: liquid reaching the compressor."""
        return wet_suction_warnings(self, x)
