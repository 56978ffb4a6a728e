"""Bounds on the parameters a fluid property call will see, checked before the solve.

:mod:`workbench.scenario.physical` bounds the temperatures a scenario gives outright; this
module bounds what the solver derives from the other parameters, so that no property call
ever fails on a value the document fixed (every problem names its JSON path, the value, the
fluid's range and the largest value that fits):

- **Superheat** (``superheat_k`` of an evaporator, ``map_rating_superheat_k`` of a compressor):
  the evaporating temperature (``t_evap_k``, else the fluid's lowest temperature) plus the
  superheat is a state of the fluid, at most its highest temperature.
- **Subcooling** (``subcooling_k`` of a condenser): the condensing temperature (``t_cond_k``,
  else the highest saturation temperature) minus the subcooling is at least the fluid's lowest
  temperature.
- **Fixed refrigerant temperatures and pressures**: a gas cooler's ``outlet_temp_k`` between
  the fluid's lowest and highest temperature; ``pressure_pa`` of a gas cooler or flash tank and
  a circuit's ``initial_state.pressure_bar`` between the triple-point and the highest pressure
  of the fluid's equation of state.
- **A stopped fan on a UA coil**: ``fan_speed`` 0 means no air-side heat transfer on that coil
  (no air flow, no air-side conductance), so a coil whose heat flow comes from its UA cannot
  exchange heat at all: refused with that reason (a sweep of ``fan_speed`` over [0, 1] gets it
  as the row's error).

Only constants of the fluid are read (:func:`workbench.fluids.limits.temperature_limits` and
the pressure limits of CoolProp's equation of state); nothing is added to the scenario.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from workbench.errors import ScenarioIssue, UnknownFluidError
from workbench.fluids.limits import TemperatureLimits, temperature_limits
from workbench.fluids.names import resolve_backend, resolve_fluid
from workbench.scenario.flat import FlatComponent, FlatScenario
from workbench.scenario.models import ScenarioConfig
from workbench.scenario.paths import key
from workbench.units import ZERO_CELSIUS_K, fmt_fixed

__all__ = ["UA_COIL_TYPES", "check_property_bounds", "pressure_limits"]

UA_COIL_TYPES = ("Condenser", "Evaporator", "GasCooler")
"""Component types whose UA mode exchanges heat with a fan-driven secondary stream."""


@lru_cache(maxsize=64)
def pressure_limits(fluid: str, backend: str | None) -> tuple[float, float] | None:
    """Lowest and highest pressure [Pa] of ``fluid``'s states in ``backend``; None if unknown.

    CoolProp: the triple-point pressure and ``pmax`` of the equation of state (a blend: zero and
    its mixture model's ``pmax``); None for the
    ``Test`` model (:mod:`workbench.scenario.critical` bounds its pressures).
    """
    try:
        name = resolve_backend(backend)
        canonical = resolve_fluid(fluid, name)
    except UnknownFluidError:
        return None
    if name == "Test":
        return None  # subcritical only: workbench.scenario.critical bounds its pressures
    import CoolProp.CoolProp as CP

    from workbench.fluids.blend.spec import blend_spec, is_blend_name

    if is_blend_name(canonical):  # a mixture has no triple point: only its highest pressure
        spec = blend_spec(canonical)
        try:
            mixture = CP.AbstractState("HEOS", spec.coolprop_fluids)
            mixture.set_mole_fractions(list(spec.mole_fractions))
            return 0.0, float(mixture.pmax())
        except ValueError:
            return None
    try:
        state = CP.AbstractState("HEOS", canonical)
        return float(state.trivial_keyed_output(CP.iP_triple)), float(state.pmax())
    except ValueError:
        return None


def _number(params: dict[str, Any], name: str) -> float | None:
    value = params.get(name)
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def _k(t: float) -> str:
    return f"{fmt_fixed(t)} K ({fmt_fixed(t - ZERO_CELSIUS_K)} C)"


def _ua_mode(params: dict[str, Any]) -> bool:
    return "ua" in params or "ua_nominal_kw_k" in params


def _fan(comp: FlatComponent) -> list[ScenarioIssue]:
    fan = _number(comp.params, "fan_speed")
    if comp.type not in UA_COIL_TYPES or fan is None or fan > 0.0 or not _ua_mode(comp.params):
        return []
    return [
        ScenarioIssue(
            key(comp.path, "fan_speed"),
            f"{comp.type} '{comp.name}': fan_speed 0 means no air-side heat transfer on this "
            "coil (no air flow and no air-side conductance), so a coil in UA mode cannot "
            "exchange heat; give fan_speed > 0, or model the coil without its UA (a fixed "
            "saturation temperature) if the refrigerant state is known",
        )
    ]


def _superheat(
    comp: FlatComponent, name: str, limits: TemperatureLimits, t_evap: float | None
) -> list[ScenarioIssue]:
    sh = _number(comp.params, name)
    if sh is None or (t_evap is not None and not limits.t_min <= t_evap <= limits.t_sat_max):
        return []  # a saturation temperature out of range: workbench.scenario.physical says why
    fluid, path = limits.fluid, key(comp.path, name)
    base = t_evap if t_evap is not None else limits.t_min
    where = "t_evap_k" if t_evap is not None else f"at least the lowest temperature of {fluid}"
    if base + sh > limits.t_max:
        return [
            ScenarioIssue(
                path,
                f"{comp.type} '{comp.name}': {name} {fmt_fixed(sh)} K above the evaporating "
                f"temperature ({where}, {_k(base)}) puts the refrigerant at {_k(base + sh)}, "
                f"above the highest temperature of {fluid}, {_k(limits.t_max)}; {name} can be "
                f"at most {fmt_fixed(limits.t_max - base)} K",
            )
        ]
    return []


def _subcooling(comp: FlatComponent, limits: TemperatureLimits) -> list[ScenarioIssue]:
    sc = _number(comp.params, "subcooling_k")
    t_cond = _number(comp.params, "t_cond_k")
    if sc is None or (t_cond is not None and not limits.t_min <= t_cond <= limits.t_sat_max):
        return []  # a saturation temperature out of range: workbench.scenario.physical says why
    fluid, path = limits.fluid, key(comp.path, "subcooling_k")
    base = t_cond if t_cond is not None else limits.t_sat_max
    where = (
        "t_cond_k"
        if t_cond is not None
        else f"at most the highest saturation temperature of {fluid}"
    )
    if base - sc < limits.t_min:
        return [
            ScenarioIssue(
                path,
                f"{comp.type} '{comp.name}': subcooling_k {fmt_fixed(sc)} K below the condensing "
                f"temperature ({where}, {_k(base)}) puts the refrigerant at {_k(base - sc)}, "
                f"below the lowest temperature of {fluid}, {_k(limits.t_min)}; subcooling_k can "
                f"be at most {fmt_fixed(base - limits.t_min)} K",
            )
        ]
    return []


def _temperature(comp: FlatComponent, name: str, limits: TemperatureLimits) -> list[ScenarioIssue]:
    t = _number(comp.params, name)
    if t is None or limits.t_min <= t <= limits.t_max or t < 100.0:
        return []  # below 100 K: the Celsius rule of workbench.scenario.physical says why
    side = "below the lowest" if t < limits.t_min else "above the highest"
    return [
        ScenarioIssue(
            key(comp.path, name),
            f"{comp.type} '{comp.name}': {name} {_k(t)} is {side} temperature of "
            f"{limits.fluid}: {_k(limits.t_min)} to {_k(limits.t_max)}",
        )
    ]


def _pressure(
    path: str, label: str, p: float, fluid: str, lo: float, hi: float
) -> list[ScenarioIssue]:
    if lo <= p <= hi:
        return []
    side = "below the triple-point" if p < lo else "above the highest"
    return [
        ScenarioIssue(
            path,
            f"{label}{fmt_fixed(p / 1e5, 4)} bar is {side} pressure of {fluid}: "
            f"{fmt_fixed(lo / 1e5, 4)} to {fmt_fixed(hi / 1e5, 4)} bar",
        )
    ]


def check_property_bounds(scenario: ScenarioConfig, flat: FlatScenario) -> list[ScenarioIssue]:
    """Every rule of the module docstring (none for an unknown fluid, reported elsewhere).

    Parameters
    ----------
    scenario : ScenarioConfig
        The scenario as written (for the circuits' ``initial_state``).
    flat : FlatScenario
        Its expansion.

    Returns
    -------
    list of ScenarioIssue
        The problems, each with its JSON path.
    """
    issues: list[ScenarioIssue] = []
    for comp in flat.components.values():
        issues.extend(_fan(comp))
    ranges: dict[int, tuple[TemperatureLimits, tuple[float, float] | None] | None] = {}
    for cid in flat.circuits:
        fluid, backend = flat.fluid_of(cid)
        try:
            ranges[cid] = (temperature_limits(fluid, backend), pressure_limits(fluid, backend))
        except UnknownFluidError:
            ranges[cid] = None  # reported by the fluid checks
    for comp in flat.components.values():
        known = ranges.get(comp.circuit)
        if known is None:
            continue
        limits, p_range = known
        if comp.type == "Evaporator":
            t_evap = _number(comp.params, "t_evap_k")
            issues.extend(_superheat(comp, "superheat_k", limits, t_evap))
        elif comp.type == "Condenser":
            issues.extend(_subcooling(comp, limits))
        elif comp.type == "GasCooler":
            issues.extend(_temperature(comp, "outlet_temp_k", limits))
        if "map_rating_superheat_k" in comp.params:
            issues.extend(_superheat(comp, "map_rating_superheat_k", limits, None))
        p = _number(comp.params, "pressure_pa")
        if p is not None and p_range is not None and comp.type in ("GasCooler", "FlashTank"):
            label = f"{comp.type} '{comp.name}': pressure_pa "
            issues.extend(
                _pressure(key(comp.path, "pressure_pa"), label, p, limits.fluid, *p_range)
            )
    for i, circuit in enumerate(scenario.circuits):
        state = circuit.initial_state
        known = ranges.get(circuit.id)
        if state is None or state.pressure_bar is None or known is None or known[1] is None:
            continue
        issues.extend(
            _pressure(
                f"circuits[{i}].initial_state.pressure_bar",
                "",
                state.pressure_bar * 1e5,
                known[0].fluid,
                *known[1],
            )
        )
    return issues
