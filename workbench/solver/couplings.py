"""Thermal couplings between circuits, as blocks of the Newton system.

A coupling ``{hot_circuit, cold_circuit, ua, efficiency}`` joins the hot circuit's condenser
that has no secondary stream of its own (no ``air_inlet_temp_c`` / ``secondary_inlet_temp_k``)
to the cold circuit's evaporator without a secondary stream: a cascade heat exchanger where
the hot circuit condenses and the cold circuit evaporates. Exactly one such coil must exist
on each side.

The exchanger is counterflow with conductance ``ua`` [W/K], solved zone by zone on both
refrigerant profiles (:func:`workbench.components.zones.coupled_heat_flow`). Of the heat
``Q`` leaving the hot refrigerant, ``efficiency * Q`` reaches the cold refrigerant and
``(1 - efficiency) * Q`` is lost to ambient (reported). Equations (SI)::

    0 = h_hot,out - h_hot,in + Q / m_hot                   (hot_side)
    0 = h_cold,out - h_cold,in - efficiency * Q / m_cold   (cold_side)

These replace the coils' own heat-transfer equations, so the two circuits become one system:
each circuit gains one equation and keeps its charge spec (``subcooling_k`` or ``t_cond_k`` on
the coupled condenser, ``superheat_k`` on the coupled evaporator with an ideal valve).

Like every other exchanger, the solved cascade exchanger is checked on a fine temperature
profile (:func:`workbench.components.profile.two_stream_profile`, both refrigerant streams
linear in enthalpy and pressure): a crossing the zone model missed makes the result not
converged, with the place and size of the crossing; a zone model whose heat flow
needs a conductance more than 10 % away from ``ua`` on the fine profile (unless the exchanger
is pinched, :data:`~workbench.components.profile.PINCHED_K`), or a profile that cannot be
computed, is a warning. The fine profile's smallest difference is reported as
``profile_min_temperature_difference``.
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Component, Equation, StepFunction
from workbench.components.coils import Coil
from workbench.components.profile import (
    ProfileCheck,
    ProfileMemo,
    accuracy_warning,
    crossing_problem,
    near_critical_note,
    two_stream_check,
)
from workbench.components.zones import CoupledResult, coupled_heat_flow
from workbench.errors import SpecificationError
from workbench.scenario.models import ThermalCouplingConfig

__all__ = ["ThermalCoupling", "find_coupled_coils"]


def find_coupled_coils(
    index: int, config: ThermalCouplingConfig, coils: list[tuple[int, Coil]]
) -> tuple[Coil, Coil]:
    """The hot circuit's free condenser and the cold circuit's free evaporator.

    Raises
    ------
    SpecificationError
        When a side has no candidate or more than one.
    """
    sides = []
    for circuit, hot in ((config.hot_circuit, True), (config.cold_circuit, False)):
        kind = "Condenser" if hot else "Evaporator"
        found = [
            c
            for cid, c in coils
            if cid == circuit and c.refrigerant_is_hot == hot and not c.has_secondary
        ]
        if len(found) != 1:
            names = ", ".join(repr(c.name) for c in found) or "none"
            raise SpecificationError(
                f"thermal_couplings[{index}]: circuit {circuit} needs exactly one {kind} without "
                f"a secondary stream (no air_inlet_temp_c / secondary_inlet_temp_k) to be the "
                f"coupled side; found {names}"
            )
        sides.append(found[0])
    return sides[0], sides[1]


class ThermalCoupling:
    """One thermal coupling (see module docstring)."""

    def __init__(self, index: int, config: ThermalCouplingConfig, hot: Coil, cold: Coil) -> None:
        self.config = config
        self.index = index
        self.name = f"thermal_couplings[{index}]"
        self.hot, self.cold = hot, cold
        self._q_last: float | None = None
        self._profile_memo = ProfileMemo()
        hot.couple()
        cold.couple()
        self.local_vars = sorted(set(hot.local_vars) | set(cold.local_vars))

    @property
    def _local(self) -> list[int]:
        return self.local_vars

    def heat_flow(self, x: np.ndarray) -> CoupledResult:
        """Heat flows of the exchanger at ``x``."""
        h, c = self.hot.port(x, "inlet"), self.cold.port(x, "inlet")
        result = coupled_heat_flow(
            self.hot.fluid,
            (h.p, h.h, h.m),
            (c.p, c.h, c.m),
            float(self.config.ua),
            float(self.config.efficiency),
            q_guess=self._q_last,
            cold_fluid=self.cold.fluid,
        )
        self._q_last = result.q or None
        return result

    def equations(self) -> tuple[Equation, ...]:
        """The energy balances of both refrigerant sides (see the module docstring)."""
        return (Equation("hot_side", "enthalpy"), Equation("cold_side", "enthalpy"))

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """The hot-side and cold-side energy balances [J/kg] (module docstring)."""
        hi, ho = self.hot.port(x, "inlet"), self.hot.port(x, "outlet")
        ci, co = self.cold.port(x, "inlet"), self.cold.port(x, "outlet")
        r = self.heat_flow(x)
        return np.array([ho.h - hi.h + r.q / hi.m, co.h - ci.h - r.q_cold / ci.m])

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Forward differences over the coupled coils' unknowns."""
        return Component.jacobian(self, x, f0, step)  # type: ignore[arg-type]

    def balance_w(self, x: np.ndarray) -> float:
        """Model heat into the cold circuit minus heat out of the hot one [W] (= -loss)."""
        r = self.heat_flow(x)
        return r.q_cold - r.q

    def result(self, x: np.ndarray) -> dict[str, object]:
        """The coupling's entry of ``SolveResult.couplings``."""
        r = self.heat_flow(x)
        return {
            "coupling": self.name,
            "hot_circuit": self.config.hot_circuit,
            "cold_circuit": self.config.cold_circuit,
            "hot_component": self.hot.name,
            "cold_component": self.cold.name,
            "ua": float(self.config.ua),
            "efficiency": float(self.config.efficiency),
            "heat_from_hot_w": r.q,
            "heat_to_cold_w": r.q_cold,
            "loss_to_ambient_w": r.q - r.q_cold,
            "min_temperature_difference": r.min_dt,
            "profile_min_temperature_difference": (
                check.min_dt if (check := self.profile_check(x)[0]) is not None else None
            ),
        }

    def check(self, x: np.ndarray) -> list[str]:
        """Temperatures crossing in the zone model, else on the fine temperature profile."""
        r = self.heat_flow(x)
        if r.q > 0 and r.min_dt < -1e-6:
            return [f"{self.name}: temperatures cross in the cascade heat exchanger"]
        check = self.profile_check(x)[0]
        if check is None:
            return []
        text = crossing_problem(
            f"{self.name} (cascade heat exchanger {self.hot.name!r} / {self.cold.name!r})",
            check,
            (f"hot side ({self.hot.name!r})", f"cold side ({self.cold.name!r})"),
            note=self._near_critical_note(x),
        )
        return [text] if text else []

    def warnings(self, x: np.ndarray) -> list[str]:
        """A zone model far from the fine profile, or a profile that could not be checked."""
        check, why = self.profile_check(x)
        if why:
            return [f"{self.name}: {why}"]
        if check is None:
            return []
        text = accuracy_warning(
            f"{self.name} (cascade heat exchanger)",
            check,
            float(self.config.ua),
            note=self._near_critical_note(x),
        )
        return [text] if text else []

    def profile_check(self, x: np.ndarray) -> tuple[ProfileCheck | None, str | None]:
        """Both solved refrigerant streams on a fine grid (None without heat flow), or why not."""
        return two_stream_check(
            self._profile_memo,
            self.hot.fluid,
            (self.hot.port(x, "inlet"), self.hot.port(x, "outlet")),
            (self.cold.port(x, "inlet"), self.cold.port(x, "outlet")),
            cold_fluid=self.cold.fluid,
        )

    def _near_critical_note(self, x: np.ndarray) -> str:
        return near_critical_note(self.hot.fluid, self.hot.port(x, "inlet").p)
