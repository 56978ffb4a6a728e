"""Brazed plate gas cooler: the gas cooler's equations with the segmented plate model.

A ``GasCooler`` with ``"geometry": {"kind": "brazed_plate", ...}`` (a transcritical R744 heat
pump heating water in a brazed plate exchanger) is built by :class:`PlateGasCooler`
(``register_variant``). It keeps the gas cooler's equations and specs
(:mod:`workbench.components.exchangers.gas_cooler.component`: ``pressure_pa``,
``pressure_control``, ``outlet_temp_k`` as a pressure-setting spec) and takes its heat flow and
pressure drop from the plate march (:mod:`.march`)::

    0 = p_out - p_in + dp_plate(p_in, h_in, m)                    (pressure_drop)
    0 = h_out - h_in + Q_plate(p_in, h_in, m) / m                 (heat_transfer)

Above the critical pressure the march has one zone, ``supercritical``, whose pieces take the
refrigerant's capacity rate as their own secant ``(h - h_end) / (T - T_end)`` (cp peaks near the
pseudo-critical temperature) and their film coefficient from the single-phase correlation at a
flash per piece; below it (a gas cooler run subcritical) the march condenses as a condenser's.
``z_ua`` multiplies every piece's conductance, ``z_dp`` the refrigerant pressure drop; the
geometry's ``correlation_factors`` as for the plate condenser.
"""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np

from workbench.components.base import register_variant
from workbench.components.exchangers.gas_cooler.component import GasCooler
from workbench.components.exchangers.gas_cooler.model import GasCoolerResult
from workbench.components.exchangers.plate.marching import PlateMarching
from workbench.components.exchangers.plate.results import (
    crossing_problems,
    plate_outputs,
    plate_warnings,
)
from workbench.components.exchangers.plate.spec import GAS_COOLER_SEGMENTS, KIND
from workbench.components.exchangers.zones.profile_memo import ProfileMemo
from workbench.errors import FluidPropertyError
from workbench.units import celsius_to_kelvin

__all__ = ["PlateGasCooler"]


@register_variant("GasCooler", KIND)
class PlateGasCooler(PlateMarching, GasCooler):
    """Brazed plate gas cooler (module docstring)."""

    refrigerant_is_hot = True
    n_coils = 1
    default_segments = GAS_COOLER_SEGMENTS

    def configure(self) -> None:
        """The gas cooler's set-up in UA mode, with the plates' geometry and fluids.

        Raises
        ------
        ScenarioError
            The geometry is invalid (each key at its path).
        SpecificationError
            No secondary inlet or flow, a secondary that is not a liquid, a property backend
            without transport properties, or ``internal_volume_m3`` / ``secondary_cp_j_kgk``
            given beside the geometry.
        """
        for clash in ("internal_volume_m3", "secondary_cp_j_kgk"):
            if self.has(clash):
                raise self.error(
                    f"{clash} is not used with a brazed_plate geometry (the volume comes from "
                    "the plates, cp from secondary_fluid): remove it"
                )
        par = self.params
        self.ua_mode = True
        self.has_secondary = self.has("secondary_inlet_temp_k") or self.has("air_inlet_temp_c")
        if self.has("secondary_inlet_temp_k"):
            self.t_sec_in = float(par["secondary_inlet_temp_k"])
        elif self.has("air_inlet_temp_c"):
            self.t_sec_in = celsius_to_kelvin(float(par["air_inlet_temp_c"]))
        else:
            raise self.error("a brazed_plate gas cooler needs secondary_inlet_temp_k")
        if not self.has("secondary_mass_flow_kg_s"):
            raise self.error("a brazed_plate gas cooler needs secondary_mass_flow_kg_s")
        self.correlation = par.get("pressure_control")
        self.suction_p_index: int | None = None
        # what the UA gas cooler's methods read, unused by the plate model but kept consistent
        self._results: OrderedDict[tuple[float, ...], GasCoolerResult] = OrderedDict()
        self._q_last: float | None = None
        self._profile_memo = ProfileMemo()
        self._linear = None
        self._cp_sec: float | None = None
        self.setup_plate()

    def model(self, x: np.ndarray) -> GasCoolerResult:
        """The converged march as the gas cooler's model result (heat flow [W], outlet, pinch)."""
        res = self.march_at(x)
        sec = self.plate.secondary
        try:  # the secondary heated to the refrigerant inlet temperature
            q_max = self.secondary_flow() * abs(sec.h(res.t_ref_in) - sec.h(self.t_sec_in))
        except FluidPropertyError:
            q_max = math.inf
        min_dt = min(min(pc.dt_start, pc.dt_end) for pc in res.pieces)
        return GasCoolerResult(
            float(res.q),
            float(res.h_out),
            float(res.t_sec_out),
            float(min_dt),
            float(q_max),
            len(res.pieces),
        )

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """The gas cooler's outputs with the march's secondary outlet, plus the plate's results."""
        out = super().outputs(x)
        out.pop("profile_min_temperature_difference", None)
        out.update(plate_outputs(self, x))
        return out

    def check(self, x: np.ndarray) -> list[str]:
        """The gas cooler's checks, and a crossing at any piece end of the march."""
        result = self.model(x)
        return super().check(x) + crossing_problems(self.label, result.q, result.min_dt)

    def warnings(self, x: np.ndarray) -> list[str]:
        """The gas cooler's warnings and the correlations' ranges."""
        return super().warnings(x) + plate_warnings(self, x)
