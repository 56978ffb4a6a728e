"""Brazed plate condenser and evaporator: the coils' equations with a segmented plate model.

A ``Condenser`` or ``Evaporator`` with ``"geometry": {"kind": "brazed_plate", ...}`` is built
by :class:`PlateCondenser` / :class:`PlateEvaporator` (``register_variant``). They keep the
coils' equations, specs and outputs (:mod:`workbench.components.exchangers.coils.component`)
and replace the UA zone model by the plate march (:mod:`.march`)::

    0 = p_out - p_in + dp_plate(p_in, h_in, m)                        (pressure_drop)
    0 = h_out - h_in +/- N Q_plate(p_in, h_in, m / N) / m             (heat_transfer)
    0 = T_ref(p_ref) - t_cond_k   /   0 = h_out - h(p_out, ...)       (as a coil)

``N`` is the number of exchangers of a ``condenser_bank`` (each carries ``m / N`` and the
given ``secondary_mass_flow_kg_s`` times ``fan_speed``, the pump speed here). ``z_ua``
multiplies every piece's conductance, ``z_dp`` the refrigerant pressure drop (as the
calibration factors of a UA coil); the geometry's ``correlation_factors`` multiply the film
coefficients and pressure drops of each side. The Jacobian is by forward differences
(:mod:`.jacobian`: one march per inlet column, the shooting's root moved to first order, none
near the solution, where the last marched block is updated by Broyden's formula; the march is
memoised by its inputs, so the outlet's columns cost nothing).

The refrigerant-side volume of the geometry becomes ``internal_volume_m3`` (the charge
inventory splits it by the zones' areas, :meth:`PlateCoil.zone_areas`).
"""

from __future__ import annotations

import math

import numpy as np

from workbench.components.base import register_variant
from workbench.components.exchangers.coils.component import Coil, Condenser, Evaporator
from workbench.components.exchangers.plate.marching import PlateMarching
from workbench.components.exchangers.plate.records import MarchResult
from workbench.components.exchangers.plate.results import (
    crossing_problems,
    plate_outputs,
    plate_warnings,
)
from workbench.components.exchangers.plate.secondary_side import liquid_of
from workbench.components.exchangers.plate.spec import KIND
from workbench.components.exchangers.zones.heat_flow import ZoneResult

__all__ = ["PlateCoil", "PlateCondenser", "PlateEvaporator"]


class PlateCoil(PlateMarching, Coil):
    """A coil whose heat flow and pressure drop come from the plate march (module docstring)."""

    zone_model_sensitivity = False
    """The zones come from the march: the charge's Jacobian differences through it (memoised)."""

    def configure(self) -> None:
        """Read the geometry, the secondary liquid and the transport properties.

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
        super().configure()
        self.ua_mode = True
        self.outlet_spec_given = self.has(self.outlet_spec)
        if not self.has_secondary:
            raise self.error("a brazed_plate exchanger needs secondary_inlet_temp_k")
        if not self.has("secondary_mass_flow_kg_s"):
            raise self.error("a brazed_plate exchanger needs secondary_mass_flow_kg_s")
        self.setup_plate()
        self._zones_of: tuple[MarchResult, ZoneResult] | None = None

    def zones(self, x: np.ndarray) -> ZoneResult:
        """The march as a zone result: heat flow [W] and ``(name, q [W], ua [W/K])`` per zone.

        Kept with the march it was read from (every residual evaluation asks for it).
        """
        res = self.march_at(x)
        kept = self._zones_of
        if kept is not None and kept[0] is res:
            return kept[1]
        n = self.n_coils
        parts: dict[str, list[float]] = {}
        for piece in res.pieces:
            acc = parts.setdefault(piece.zone, [0.0, 0.0])
            acc[0] += n * piece.q
            acc[1] += n * piece.ua
        zones = [(name, float(q), float(ua)) for name, (q, ua) in parts.items()]
        min_dt = float(min(min(pc.dt_start, pc.dt_end) for pc in res.pieces))
        # the secondary heated (cooled) to the refrigerant inlet temperature (SecondaryFluid.h's
        # polynomial, without its array handling; infinite outside the fluid's range)
        liquid = liquid_of(self.plate.secondary)
        t_lo, t_hi = sorted((res.t_ref_in, self.t_sec_in))
        if liquid.t_min <= t_lo and t_hi <= liquid.t_max:
            q_max = (
                n * self.secondary_flow() * abs(liquid.h(res.t_ref_in) - liquid.h(self.t_sec_in))
            )
        else:
            q_max = math.inf
        out = ZoneResult(
            float(n * res.q), float(res.h_out), float(res.t_sec_out), zones, min_dt, float(q_max)
        )
        self._zones_of = (res, out)
        return out

    # -- results -----------------------------------------------------------------------------
    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """The coil's outputs with the march's secondary outlet, plus the plate's results.

        See :func:`workbench.components.exchangers.plate.results.plate_outputs`.
        """
        out = super().outputs(x)
        out.pop("profile_min_temperature_difference", None)
        out.update(plate_outputs(self, x))
        return out

    def check(self, x: np.ndarray) -> list[str]:
        """The coil's checks, and a crossing at any piece end of the march."""
        zr = self.zones(x)
        return super().check(x) + crossing_problems(
            f"{self.type_name} {self.name!r}", zr.q, zr.min_dt
        )

    def warnings(self, x: np.ndarray) -> list[str]:
        """Near the critical point (as a coil), and correlations outside their ranges."""
        return super().warnings(x) + plate_warnings(self, x)


@register_variant("Condenser", KIND)
class PlateCondenser(PlateCoil, Condenser):
    """Brazed plate condenser (module docstring)."""


@register_variant("Evaporator", KIND)
class PlateEvaporator(PlateCoil, Evaporator):
    """Brazed plate evaporator (module docstring)."""
