"""What every brazed plate exchanger shares: the geometry set-up, the memoised march, its Jacobian.

Who reads it: :class:`~workbench.components.exchangers.plate.component.PlateCoil` (condenser,
evaporator) and :class:`~workbench.components.exchangers.plate.gas_cooler.PlateGasCooler`
inherit :class:`PlateMarching` before their UA parents, so its methods replace the UA model's:
``pressure_drop`` and ``ua_total`` come from the converged march
(:func:`~workbench.components.exchangers.plate.march.solve_plate`, memoised by
:meth:`PlateMarching.memo_key`), the Jacobian from :mod:`.jacobian`. The shooting starts from
the last root moved along the gradient the last Jacobian measured (:meth:`PlateMarching.predict_from`).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from workbench.components.base import Component, StepFunction
from workbench.components.exchangers.plate.jacobian import plate_jacobian
from workbench.components.exchangers.plate.march import MarchResult, PlateModel, solve_plate
from workbench.components.exchangers.plate.sides import single_phase_film
from workbench.components.exchangers.plate.spec import (
    DEFAULT_SEGMENTS,
    PlateSpec,
    parse_plate_spec,
)
from workbench.components.exchangers.zones.profile import ProfileCheck
from workbench.errors import FluidPropertyError, ScenarioError
from workbench.fluids import get_secondary
from workbench.fluids.secondary_transport import secondary_transport
from workbench.fluids.transport import transport_for

__all__ = ["ESTIMATE_TOLERANCE", "MEMO", "PlateMarching"]

MEMO = 8
"""Marches kept per exchanger (the state and its finite-difference neighbours)."""

ESTIMATE_TOLERANCE = 1e-3
"""Share of the temperature span the shooting of a starting estimate may miss by [-].

Measured on the bench_plate units (2026-11-28): 1e-6 / 1e-4 / 1e-3 take 22 / 18 / 13 marches
in the start's estimates with 5 Newton iterations either way; 1e-2 takes 9 on the plate unit
but 7 iterations with the three lines (the start's balance moves), so 1e-3."""

if TYPE_CHECKING:
    _Base = Component
else:
    _Base = object


class PlateMarching(_Base):
    """The plate model's part of a component (module docstring).

    The component provides ``n_coils`` [-] (exchangers in parallel), ``t_sec_in`` [K],
    ``refrigerant_is_hot`` and the parameters ``geometry``, ``secondary_fluid``,
    ``secondary_mass_flow_kg_s`` and ``fan_speed``.
    """

    n_coils: int
    t_sec_in: float
    refrigerant_is_hot: bool
    default_segments: int = DEFAULT_SEGMENTS
    """Segments where the geometry gives none (:data:`~.spec.GAS_COOLER_SEGMENTS` for a gas cooler)."""

    def setup_plate(self) -> None:
        """Read the geometry, the secondary liquid and the transport properties (``configure``).

        Raises
        ------
        ScenarioError
            The geometry is invalid (each key at its path).
        SpecificationError
            A secondary that is not a liquid, or a property backend without transport
            properties.
        """
        self.plate_spec: PlateSpec = parse_plate_spec(
            self.params["geometry"],
            self.path,
            self.params.get("correlation_factors"),
            self.default_segments,
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
        # the charge inventory's volume: every exchanger of a bank
        volume = self.plate_spec.geometry.internal_volume_m3("refrigerant")
        self.params["internal_volume_m3"] = self.n_coils * volume
        # the memo of converged marches (a ``*_cache``: a sweep's reconfigure starts it afresh)
        self._march_cache: OrderedDict[tuple[float, ...], MarchResult] = OrderedDict()
        self._last_t_out: float | None = None
        self._last_march: MarchResult | None = None  # its pieces' fixed points start the next
        self._estimated: tuple[tuple[float, ...], MarchResult] | None = None  # the last estimate
        self._last_slope: float | None = None
        self._prediction: tuple[tuple[float, float, float], float, tuple[float, ...]] | None = None
        self.jacobian_kept: tuple[Any, ...] | None = None
        """The last marched Jacobian's inlet, setting, march and sensitivities (:mod:`.jacobian`)."""
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
            hint=self._last_march,
        )
        self._last_t_out = result.t_sec_out
        self._last_march = result
        if math.isfinite(result.slope) and result.slope > 0.0:
            self._last_slope = result.slope
        self._march_cache[key] = result
        if len(self._march_cache) > MEMO:
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
            return self._last_t_out if self._last_t_out is not None else self._first_guess(p)
        theta, t_so, grad = self._prediction
        return t_so + sum(g * (v - v0) for g, v, v0 in zip(grad, (m, p, h), theta, strict=True))

    def _first_guess(self, p: float) -> float | None:
        """The first shooting's start [K]: the secondary heated (cooled) towards saturation.

        ``T_s,in + eps (T_sat(p) - T_s,in)`` with ``eps = 1 - exp(-UA_nom / C_sec)`` (the
        whole exchanger two-phase at the dew temperature, the nominal conductance of
        :meth:`ua_total`); None (the bracket's middle) above the critical pressure or where a
        property call fails. Measured on the plate example: the start's first shootings take
        3 and 4 marches instead of 7 and 6 from the middle of the bracket.
        """
        if not p < self.fluid.p_crit:
            return None
        try:
            t_sat = float(self.fluid.T_sat(p))
            c_sec = self.secondary_flow() * float(self.plate.secondary.cp(self.t_sec_in))
        except FluidPropertyError:
            return None
        if not c_sec > 0.0:
            return None
        eps = -math.expm1(-self._nominal_ua / c_sec)
        return self.t_sec_in + eps * (t_sat - self.t_sec_in)

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

    def zone_areas(self, x: np.ndarray) -> dict[str, float]:
        """Heat-transfer area of each zone [m^2] (the charge inventory's volume shares)."""
        areas: dict[str, float] = {}
        for piece in self.march_at(x).pieces:
            areas[piece.zone] = areas.get(piece.zone, 0.0) + piece.area
        return areas

    def ua_total(self, x: np.ndarray) -> float:
        """Conductance of the plates at ``x`` [W/K] (the sum over the march's pieces).

        The converged march's when a residual has run at ``x``; otherwise a shooting to
        :data:`ESTIMATE_TOLERANCE` of the span (:meth:`_estimate`). Where that fails, a nominal
        value: the plate area with 2000 W/(m^2 K) on the refrigerant side and the secondary's
        own coefficient at its inlet.
        """
        found = self._estimate(x)
        if found is None:
            return self.n_coils * self._nominal_ua
        return self.n_coils * sum(pc.ua for pc in found.pieces)

    def start_conductance(self, x: np.ndarray) -> float:
        """The conductance [W/K] the start's balance reads (:func:`~workbench.solver.start.balance.balanced_saturation`).

        That balance treats the exchanger as wholly two-phase at its inlet's saturation
        temperature (``Cr = 0``, ``Q = eps C_sec |T_sat - T_sec,in|``); the plates' own
        conductance under-reads a condenser there (its desuperheating runs hotter than
        saturation: 7 % on the example). This is the conductance with which that model carries
        the march's heat flow at ``x``, ``-C_sec ln(1 - Q / (C_sec |T_sat - T_sec,in|))``, so
        the balance's saturation temperature is where the march itself would carry the loop's
        heat flow (to first order). Measured on the bench_plate units: the start's largest
        scaled residual 107 -> 36, no line-search halving on the first step, 82 -> 68 marches,
        the same 5 Newton iterations. :meth:`ua_total` where the model cannot carry it (above
        the critical pressure, no estimate, a heat flow at or beyond ``C_sec |dT|``).
        """
        found = self._estimate(x)
        inlet = self.port(x, "inlet")
        if found is None or not inlet.p < self.fluid.p_crit:
            return self.ua_total(x)
        try:
            dt = abs(float(self.fluid.T_sat(inlet.p)) - self.t_sec_in)
        except FluidPropertyError:
            return self.ua_total(x)
        c_sec = self.secondary_capacity_rate()
        share = self.n_coils * abs(found.q) / (c_sec * dt) if c_sec * dt > 0.0 else math.inf
        if not 0.0 < share < 1.0:
            return self.n_coils * sum(pc.ua for pc in found.pieces)
        return -c_sec * math.log1p(-share)

    def _estimate(self, x: np.ndarray) -> MarchResult | None:
        """The march at ``x`` for the start's estimates, or None where the shooting fails.

        The converged march when a residual has run at ``x``; otherwise a shooting to
        :data:`ESTIMATE_TOLERANCE` of the span (one to three marches from the last estimate;
        the conductance it gives is the converged one to about 1e-4), kept as the last
        march (not in the memo) so that asking again at ``x`` costs nothing. (Cheaper answers
        cost more than they save on the example, measured: the last march's conductance, 7
        Newton iterations instead of 5; one march without the shooting at the predicted
        secondary outlet, 6 instead of 4.)
        """
        key = self.memo_key(x)
        found = self._march_cache.get(key)
        if found is not None:
            return found
        if self._estimated is not None and self._estimated[0] == key:
            return self._estimated[1]
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
                hint=self._last_march,
            )
        except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError):
            return None
        self._last_t_out = found.t_sec_out  # the next shooting starts there
        self._last_march = found
        if math.isfinite(found.slope) and found.slope > 0.0:
            self._last_slope = found.slope
        self._estimated = (key, found)
        return found

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

    def profile_check(self, x: np.ndarray) -> tuple[ProfileCheck | None, str | None]:
        """None: the march is the exchanger's profile (its pieces' ends are checked instead)."""
        del x
        return None, None
