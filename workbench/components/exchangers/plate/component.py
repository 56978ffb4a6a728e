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
(:mod:`.jacobian`: one march per inlet column, the shooting's root moved to first order; the
march is memoised by its inputs, so the outlet's columns cost nothing).

The refrigerant-side volume of the geometry becomes ``internal_volume_m3`` (the charge
inventory splits it by the zones' areas, :meth:`PlateCoil.zone_areas`).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np

from workbench.components.base import StepFunction, register_variant
from workbench.components.exchangers.coils.component import Coil, Condenser, Evaporator
from workbench.components.exchangers.plate.jacobian import plate_jacobian
from workbench.components.exchangers.plate.march import MarchResult, PlateModel, solve_plate
from workbench.components.exchangers.plate.results import plate_outputs, plate_warnings
from workbench.components.exchangers.plate.sides import single_phase_film
from workbench.components.exchangers.plate.spec import KIND, PlateSpec, parse_plate_spec
from workbench.components.exchangers.zones.heat_flow import ZoneResult
from workbench.components.exchangers.zones.profile import ProfileCheck
from workbench.errors import FluidPropertyError, ScenarioError
from workbench.fluids import get_secondary
from workbench.fluids.secondary_transport import secondary_transport
from workbench.fluids.transport import transport_for

__all__ = ["PlateCoil", "PlateCondenser", "PlateEvaporator"]

_MEMO = 8
"""Marches kept per exchanger (the state and its finite-difference neighbours)."""

ESTIMATE_TOLERANCE = 1e-6
"""Share of the temperature span the shooting of a starting estimate may miss by [-]."""

ZONES = ("superheated", "two-phase", "subcooled")


class PlateCoil(Coil):
    """A coil whose heat flow and pressure drop come from the plate march (module docstring)."""

    linearised_charge = False
    """The charge's Jacobian differences this coil directly (no UA zone root to linearise)."""

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
        self.plate_spec: PlateSpec = parse_plate_spec(
            self.params["geometry"], self.path, self.params.get("correlation_factors")
        )
        name = str(self.params.get("secondary_fluid", "air"))
        try:
            secondary = get_secondary(name)
            sec_transport = secondary_transport(name)
            transport = transport_for(self.fluid)
        except FluidPropertyError as exc:
            raise self.error(f"brazed_plate geometry: {exc}") from None
        self.plate = PlateModel(
            self.plate_spec,
            self.fluid,
            transport,
            secondary,
            sec_transport,
            self.refrigerant_is_hot,
        )
        self.params["internal_volume_m3"] = self.plate_spec.geometry.internal_volume_m3(
            "refrigerant"
        )
        # the memo of converged marches (a ``*_cache``: a sweep's reconfigure starts it afresh)
        self._march_cache: OrderedDict[tuple[float, ...], MarchResult] = OrderedDict()
        self._last_t_out: float | None = None
        self._last_slope: float | None = None
        self._prediction: tuple[tuple[float, float, float], float, tuple[float, ...]] | None = None
        try:
            self._nominal_ua = self._nominal()
        except FluidPropertyError as exc:
            raise self.error(f"secondary_inlet_temp_k: {exc}") from None

    @classmethod
    def check_geometry(cls, geometry: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Problems of a ``brazed_plate`` geometry as ``(subpath, message)`` (``.plates``...)."""
        try:
            parse_plate_spec(geometry, "")
        except ScenarioError as exc:
            return [(i.path.removeprefix("geometry"), i.message) for i in exc.issues]
        return []

    # -- the march ---------------------------------------------------------------------------
    def secondary_flow(self) -> float:
        """Secondary mass flow of one exchanger [kg/s] (``secondary_mass_flow_kg_s * fan_speed``)."""
        return float(self.params["secondary_mass_flow_kg_s"]) * float(self.params["fan_speed"])

    def march_at(self, x: np.ndarray) -> MarchResult:
        """The converged march of one exchanger at the inlet state of ``x`` (memoised).

        Raises
        ------
        FluidPropertyError
            A non-positive mass flow, a failed property call, or no root of the shooting.
        """
        inlet = self.port(x, "inlet")
        key = self.memo_key(x)
        z_ua, z_dp = key[3], key[4]
        found = self._march_cache.get(key)
        if found is not None:
            self._march_cache.move_to_end(key)
            return found
        if not inlet.m > 0.0:
            raise FluidPropertyError(
                f"{self.type_name} {self.name!r}: the plate model needs a positive mass flow, "
                f"got {inlet.m!r} kg/s"
            )
        result = solve_plate(
            self.plate,
            inlet.p,
            inlet.h,
            inlet.m / self.n_coils,
            self.t_sec_in,
            self.secondary_flow(),
            z_ua,
            z_dp,
            start=self._start(inlet.m, inlet.p, inlet.h),
            slope=self._last_slope,
        )
        self._last_t_out = result.t_sec_out
        if math.isfinite(result.slope) and result.slope > 0.0:
            self._last_slope = result.slope
        self._march_cache[key] = result
        if len(self._march_cache) > _MEMO:
            self._march_cache.popitem(last=False)
        return result

    def memo_key(self, x: np.ndarray) -> tuple[float, ...]:
        """The memo's key: what the march reads.

        Inlet pressure, enthalpy and mass flow, ``z_ua`` and ``z_dp`` at ``x``, and the
        secondary's inlet temperature and flow (a sweep may change them in place).
        """
        inlet = self.port(x, "inlet")
        return (
            inlet.p,
            inlet.h,
            inlet.m,
            self.factor(x, "z_ua"),
            self.factor(x, "z_dp"),
            self.t_sec_in,
            self.secondary_flow(),
        )

    def predict_from(
        self, theta: tuple[float, float, float], t_so: float, grad: list[float], slope: float
    ) -> None:
        """Keep ``d T_so / d (m, p, h)`` at ``theta`` and the shooting's slope for the next start.

        ``grad`` [K per unit of m, p, h] moves the start; ``slope`` (``d T_s,end / d T_so``
        [-], measured by the Jacobian) is the first secant step's.
        """
        self._prediction = (theta, t_so, tuple(grad))
        self._last_slope = slope

    def _start(self, m: float, p: float, h: float) -> float | None:
        """Where the next shooting starts: the kept gradient's prediction, else the last root."""
        if self._prediction is None:
            return self._last_t_out
        theta, t_so, grad = self._prediction
        return t_so + sum(g * (v - v0) for g, v, v0 in zip(grad, (m, p, h), theta, strict=True))

    def remember(self, key: tuple[float, ...], result: MarchResult) -> None:
        """Put a march in the memo under ``key`` (the Jacobian's linearised columns)."""
        self._march_cache[key] = result

    def forget(self, key: tuple[float, ...]) -> None:
        """Take a march out of the memo."""
        self._march_cache.pop(key, None)

    def pressure_drop(self, x: np.ndarray, m: float) -> float:
        """Refrigerant pressure drop of the plates, ports included [Pa]."""
        del m
        inlet = self.port(x, "inlet")
        return inlet.p - self.march_at(x).p_out

    def zones(self, x: np.ndarray) -> ZoneResult:
        """The march as a zone result: heat flow [W] and ``(name, q [W], ua [W/K])`` per zone."""
        res = self.march_at(x)
        n = self.n_coils
        parts: dict[str, list[float]] = {}
        for piece in res.pieces:
            acc = parts.setdefault(piece.zone, [0.0, 0.0])
            acc[0] += n * piece.q
            acc[1] += n * piece.ua
        zones = [(name, float(q), float(ua)) for name, (q, ua) in parts.items()]
        min_dt = float(min(min(pc.dt_start, pc.dt_end) for pc in res.pieces))
        sec = self.plate.secondary
        m_sec = self.secondary_flow()
        sign = 1.0 if self.refrigerant_is_hot else -1.0
        t_ref_in = float(self.fluid.T_ph(self.port(x, "inlet").p, self.port(x, "inlet").h))
        try:
            q_max = n * m_sec * abs(sec.h(t_ref_in) - sec.h(self.t_sec_in))
        except FluidPropertyError:
            q_max = math.inf
        del sign
        return ZoneResult(
            float(n * res.q), float(res.h_out), float(res.t_sec_out), zones, min_dt, float(q_max)
        )

    def zone_areas(self, x: np.ndarray) -> dict[str, float]:
        """Heat-transfer area of each zone [m^2] (the charge inventory's volume shares)."""
        areas: dict[str, float] = {}
        for piece in self.march_at(x).pieces:
            areas[piece.zone] = areas.get(piece.zone, 0.0) + piece.area
        return areas

    def ua_total(self, x: np.ndarray) -> float:
        """Conductance of the plates at ``x`` [W/K], for the solver's starting estimates.

        The converged march's when a residual has run at ``x``; otherwise a shooting to
        :data:`ESTIMATE_TOLERANCE` of the span (two or three marches instead of seven to nine
        from no start; the conductance it gives is the converged one to about 1e-6), not kept
        in the memo. Where that fails, a nominal value: the plate area with 2000 W/(m^2 K) on
        the refrigerant side and the secondary's own coefficient at its inlet. (Cheaper
        answers cost more than they save on the example, measured: the last march's
        conductance, 7 Newton iterations instead of 5; one march without the shooting at the
        predicted secondary outlet, 6 instead of 4.)
        """
        found = self._march_cache.get(self.memo_key(x))
        if found is None:
            inlet = self.port(x, "inlet")
            try:
                if not inlet.m > 0.0:
                    raise ValueError("no flow")
                found = solve_plate(
                    self.plate,
                    inlet.p,
                    inlet.h,
                    inlet.m / self.n_coils,
                    self.t_sec_in,
                    self.secondary_flow(),
                    self.factor(x, "z_ua"),
                    self.factor(x, "z_dp"),
                    start=self._start(inlet.m, inlet.p, inlet.h),
                    slope=self._last_slope,
                    tolerance=ESTIMATE_TOLERANCE,
                )
                self._last_t_out = found.t_sec_out  # the next shooting starts there
            except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError):
                return self.n_coils * self._nominal_ua
        return self.n_coils * sum(pc.ua for pc in found.pieces)

    def _nominal(self) -> float:
        """Nominal conductance of one exchanger [W/K] (see :meth:`ua_total`)."""
        g = self.plate_spec.geometry
        st, t = self.plate.secondary_transport, self.t_sec_in
        flow = self.secondary_flow() / (g.channels_secondary * g.channel_flow_area_m2)
        cp = float(self.plate.secondary.cp(t))
        h_sec, _re = single_phase_film(self.plate_spec, flow, st.rho(t), st.mu(t), st.k(t), cp)
        u = 1.0 / (1.0 / 2000.0 + g.wall_resistance_m2_k_w + 1.0 / h_sec)
        return u * g.heat_transfer_area_m2

    def secondary_capacity_rate(self) -> float:
        """Secondary capacity rate of the bank at its inlet temperature [W/K]."""
        return self.n_coils * self.secondary_flow() * float(self.plate.secondary.cp(self.t_sec_in))

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Forward differences, one march per inlet column (:mod:`.jacobian`)."""
        return plate_jacobian(self, x, f0, step)

    # -- results -----------------------------------------------------------------------------
    def profile_check(self, x: np.ndarray) -> tuple[ProfileCheck | None, str | None]:
        """None: the march is the exchanger's profile (its pieces' ends are checked instead)."""
        del x
        return None, None

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
        problems = super().check(x)
        zr = self.zones(x)
        if zr.q > 0.0 and zr.min_dt <= 0.0:
            problems.append(
                f"{self.type_name} {self.name!r}: temperatures cross inside the plates (smallest "
                f"difference {zr.min_dt:.3g} K): heat would flow uphill"
            )
        return problems

    def warnings(self, x: np.ndarray) -> list[str]:
        """Near the critical point (as a coil), and correlations outside their ranges."""
        return super().warnings(x) + plate_warnings(self, x)


@register_variant("Condenser", KIND)
class PlateCondenser(PlateCoil, Condenser):
    """Brazed plate condenser (module docstring)."""


@register_variant("Evaporator", KIND)
class PlateEvaporator(PlateCoil, Evaporator):
    """Brazed plate evaporator (module docstring)."""
