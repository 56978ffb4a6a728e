"""Condensers, evaporators and gas coolers from their geometry: the solver's variants.

A ``Condenser`` or ``Evaporator`` with ``"geometry": {"kind": "fin_tube", ...}`` (or
``"microchannel"``) is built by :class:`FinTubeCondenser` / :class:`FinTubeEvaporator`
(``register_variant``); the two kinds share the march. They are the
UA coils (:mod:`workbench.components.exchangers.coils.component`) with the zone model replaced
by the segment march (:mod:`workbench.components.exchangers.fin_tube.march`); the equations,
superheat, subcooling and the outlet and saturation specs are the same::

    0 = p_out - p_in + z_dp * c_dp * dp_march(p_in, h_in, m)                 (pressure_drop)
    0 = h_out - h_in -/+ Q_march(p_in, h_in, m) / m                          (heat_transfer)
    0 = T_ref(p_ref) - t_cond_k   or   T_ref(p_ref) - t_evap_k              (saturation_temperature)
    0 = h_out - h(p_out, T_sub(p_out) - subcooling_k)                       (subcooling)
    0 = h_out - h(p_out, T_dew(p_out) + superheat_k)                        (superheat)

``dp_march`` already carries the ``refrigerant_pressure_drop`` factor ``c_dp``; the march's own
pressure profile (the falling saturation temperature) uses the same drop. Superheat and
subcooling are judged at the outlet pressure.

Air: ``air_inlet_temp_c`` (or ``secondary_inlet_temp_k``), ``air_inlet_rh`` (default 0, dry),
``air_pressure_pa`` (101325), ``secondary_mass_flow_kg_s`` or ``air_volume_flow_m3_s`` (moist
air at the inlet), times ``fan_speed``. ``correlation_factors`` (``air_side``,
``refrigerant_side``, ``air_pressure_drop``, ``refrigerant_pressure_drop``; default 1)
multiply the air coefficient, the film coefficient and the two pressure drops.

A ``GasCooler`` with a geometry (:class:`FinTubeGasCooler`) is the UA gas cooler
(:mod:`workbench.components.exchangers.gas_cooler.component`) with the same march on the
supercritical refrigerant side
(:mod:`workbench.components.exchangers.fin_tube.supercritical`); its equations, pressure specs
and the optimal-pressure correlation are the UA gas cooler's::

    0 = p_out - p_in + z_dp * c_dp * dp_march(p_in, h_in, m)                 (pressure_drop)
    0 = h_out - h_in + Q_march(p_in, h_in, m) / m                            (heat_transfer)

Jacobian: forward differences over the ports (:meth:`Component.jacobian`); the march is kept
by its inputs ``(m, p_in, h_in, z_dp)``, so differencing an outlet column costs no march
(:mod:`workbench.components.exchangers.fin_tube.hardware`).
"""

from __future__ import annotations

import math

import numpy as np

from workbench.components.base import register_variant
from workbench.components.exchangers.coils.component import Coil, Condenser, Evaporator
from workbench.components.exchangers.fin_tube.hardware import (
    CORRELATION_FACTORS,
    GeometricExchanger,
)
from workbench.components.exchangers.fin_tube.outputs import geometric_outputs
from workbench.components.exchangers.gas_cooler.component import GasCooler, GasCoolerResult
from workbench.components.exchangers.zones.heat_flow import ZoneResult

__all__ = [
    "CORRELATION_FACTORS",
    "FinTubeCondenser",
    "FinTubeEvaporator",
    "FinTubeGasCooler",
    "GeometricCoil",
]


class GeometricCoil(GeometricExchanger, Coil):
    """A condenser or evaporator whose heat flow and pressure drop come from its geometry."""

    zone_model_sensitivity = False  # a fixed charge differences through the march

    def configure(self) -> None:
        """Parse the hardware, run the UA coil's set-up, then read the air and the fluid.

        Raises
        ------
        SpecificationError
            A geometry key that does not make a coil (named as ``geometry.<key>``), a
            ``condenser_bank``, a missing air inlet or flow, an unknown correlation factor or
            a fluid without transport properties.
        """
        self.parse_hardware()
        super().configure()
        self.ua_mode = True
        self.outlet_spec_given = self.has(self.outlet_spec)
        self.configure_hardware()

    def zones(self, x: np.ndarray) -> ZoneResult:
        """The march as the UA coil's zone result: heat flow (hot to cold) [W] and zones."""
        r = self.march(x)
        q = r.q if not self.refrigerant_is_hot else -r.q
        t_air_out = self.air_outlet(r)[0]
        return ZoneResult(
            q, r.h_out, t_air_out, r.zones, self.min_temperature_difference(r), math.inf
        )

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """The UA coil's outputs with the march's, the air's and the geometry's (``outputs``)."""
        out = super().outputs(x)
        out.update(geometric_outputs(self, x))
        return out


@register_variant("Condenser", "microchannel")
@register_variant("Condenser", "fin_tube")
class FinTubeCondenser(GeometricCoil, Condenser):
    """Fin-and-tube or microchannel condenser from its geometry (module docstring)."""


@register_variant("Evaporator", "microchannel")
@register_variant("Evaporator", "fin_tube")
class FinTubeEvaporator(GeometricCoil, Evaporator):
    """Fin-and-tube or microchannel evaporator, dry, partly wet or wet (module docstring)."""


@register_variant("GasCooler", "microchannel")
@register_variant("GasCooler", "fin_tube")
class FinTubeGasCooler(GeometricExchanger, GasCooler):
    """Gas cooler from its geometry, against air (module docstring)."""

    refrigerant_is_hot = True

    def configure(self) -> None:
        """Parse the hardware, run the UA gas cooler's set-up in UA mode, read air and fluid.

        Raises
        ------
        SpecificationError
            As :meth:`GeometricCoil.configure`.
        """
        self.parse_hardware()
        super().configure()
        self.ua_mode = True
        self.configure_hardware()

    def model(self, x: np.ndarray) -> GasCoolerResult:
        """The march as the UA gas cooler's model result (heat from the refrigerant) [W]."""
        r = self.march(x)
        return GasCoolerResult(
            -r.q,
            r.h_out,
            self.air_outlet(r)[0],
            self.min_temperature_difference(r),
            math.inf,
            self.geometry.segments,
        )

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """The UA gas cooler's outputs with the march's, the air's and the geometry's."""
        out = super().outputs(x)
        out.update(geometric_outputs(self, x))
        out["ua"] = self.march(x).ua
        return out
