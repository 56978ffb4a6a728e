"""Flash tank (phase separator): a two-phase inlet leaves as saturated vapour and liquid.

Ports ``inlet``, ``vapour_outlet``, ``liquid_outlet``. Equations (SI), ``p`` the tank
pressure (the inlet's)::

    0 = m_in - m_vap - m_liq                                    (mass; see junction.py)
    0 = (m_vap * h_vap + m_liq * h_liq) / m_in - h_in           (energy; adiabatic)
    0 = p_vap - p_in                                            (vapour_pressure)
    0 = p_liq - p_in                                            (liquid_pressure)
    0 = h_vap - h''(p_vap)                                      (saturated_vapour)
    0 = h_liq - h'(p_liq)                                       (saturated_liquid)
    0 = p_in - pressure_pa                                      (pressure; fixed mode)

With mass and energy together the vapour share is the inlet quality,
``m_vap / m_in = (h_in - h') / (h'' - h')``. With ``pressure_pa`` the tank pressure is fixed
(as in the textbook two-stage cycle); without it the pressure follows from the flows of the
circuit, e.g. two compressors with flow models (a displacement each) on both sides of the tank.
An inlet outside the dome (a negative vapour or liquid flow) is reported as impossible.
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Equation, register_component
from workbench.components.junctions.junction import Junction

__all__ = ["FlashTank"]


@register_component
class FlashTank(Junction):
    """Flash tank model (see module docstring)."""

    type_name = "FlashTank"

    def configure(self) -> None:
        """Junction set-up, and a fixed tank pressure when ``pressure_pa`` is given."""
        super().configure()
        self.fixed_pressure = self.has("pressure_pa")

    def equations(self) -> tuple[Equation, ...]:
        """Mass balance (when kept), energy, outlet pressures and saturated states, fixed pressure.

        The last only with ``pressure_pa``; see :meth:`Junction.mass_equations` for the first.
        """
        eqs = [
            *self.mass_equations(),
            Equation("energy", "enthalpy"),
            Equation("vapour_pressure", "pressure"),
            Equation("liquid_pressure", "pressure"),
            Equation("saturated_vapour", "enthalpy"),
            Equation("saturated_liquid", "enthalpy"),
        ]
        if self.fixed_pressure:
            eqs.append(Equation("pressure", "pressure"))
        return tuple(eqs)

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Mass [kg/s], energy [J/kg], pressure [Pa] and saturated-state [J/kg] residuals.

        In the order of :meth:`equations`; each is a ``0 = ...`` line of the module docstring.
        """
        fl = self.fluid
        inlet = self.port(x, "inlet")
        vap, liq = self.port(x, "vapour_outlet"), self.port(x, "liquid_outlet")
        res = self.mass_residual(x)
        res += [
            (vap.m * vap.h + liq.m * liq.h) / inlet.m - inlet.h,
            vap.p - inlet.p,
            liq.p - inlet.p,
            vap.h - float(fl.h_vap(vap.p)),
            liq.h - float(fl.h_liq(liq.p)),
        ]
        if self.fixed_pressure:
            res.append(inlet.p - float(self.params["pressure_pa"]))
        return np.array(res)

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """Tank pressure and saturation temperature, the outlet flows, vapour fraction, balances.

        ``pressure`` [Pa], ``temperature`` and ``saturationTemperature`` [K], ``vapour_mass_flow``
        and ``liquid_mass_flow`` [kg/s], ``vapour_fraction`` and ``inlet_quality`` [-], and the
        junction's ``mass_balance_kg_s`` and ``energy_balance_w``.
        """
        fl = self.fluid
        inlet = self.port(x, "inlet")
        vap, liq = self.port(x, "vapour_outlet"), self.port(x, "liquid_outlet")
        result: dict[str, float | None] = {
            "massFlowRate": inlet.m,
            "pressure": inlet.p,
            "temperature": fl.T_sat(inlet.p),
            "saturationTemperature": fl.T_sat(inlet.p),
            "vapour_mass_flow": vap.m,
            "liquid_mass_flow": liq.m,
            "vapour_fraction": vap.m / inlet.m if inlet.m else None,
            "inlet_quality": fl.quality_ph(inlet.p, inlet.h),
        }
        result.update(self.balance_outputs(x))
        return result

    def check(self, x: np.ndarray) -> list[str]:
        """Negative port flows, and an inlet outside the dome at the tank pressure."""
        problems = super().check(x)
        inlet = self.port(x, "inlet")
        h_liq, h_vap = float(self.fluid.h_liq(inlet.p)), float(self.fluid.h_vap(inlet.p))
        if not h_liq - 1e-6 <= inlet.h <= h_vap + 1e-6:
            state = "subcooled liquid" if inlet.h < h_liq else "superheated vapour"
            problems.append(
                f"FlashTank {self.name!r}: the inlet is {state} at the tank pressure "
                f"{inlet.p / 1e5:.3f} bar (h = {inlet.h / 1e3:.2f} kJ/kg outside "
                f"{h_liq / 1e3:.2f}..{h_vap / 1e3:.2f}); a flash tank needs a two-phase inlet"
            )
        return problems
