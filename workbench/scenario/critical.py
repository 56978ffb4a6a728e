"""Checks against the working fluid's critical point: what only a GasCooler can do.

A condenser condenses, an evaporator evaporates: both need a saturation temperature below the
critical temperature ``T_c`` (a pressure below ``p_c``). Heat rejection above the critical
point (a transcritical R744 cycle) is a GasCooler's job. Rules (each names the JSON path):

- Condenser ``t_cond_k`` or Evaporator ``t_evap_k`` at or above ``T_c``.
- Condenser whose secondary enters at or above ``T_c`` (``air_inlet_temp_c``,
  ``secondary_inlet_temp_k``): the refrigerant would have to be hotter than ``T_c`` all the way
  to its outlet, so it cannot condense.
- Condenser or Evaporator given a pressure (``pressure_pa``, ``pressure_bar``) at or above
  ``p_c``.
- A circuit's ``initial_state.pressure_bar`` (the suction pressure) at or above ``p_c``.
- GasCooler: the ``Test`` backend is subcritical only (a ``pressure_pa`` above its range, or a
  ``pressure_control``, which always asks for a supercritical pressure); ``pressure_control``
  ``liao2000`` is a correlation for R744; ``outlet_temp_k`` must be above the secondary inlet
  temperature.

Only reads the flat scenario; values that are not numbers are left to the parameter checks.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from workbench.errors import ScenarioIssue, UnknownFluidError
from workbench.fluids import get_backend
from workbench.fluids.analytic.params import ANALYTIC_FLUIDS
from workbench.fluids.names import resolve_backend, resolve_fluid
from workbench.scenario.flat import FlatComponent, FlatScenario
from workbench.scenario.models import ScenarioConfig
from workbench.scenario.paths import key
from workbench.units import fmt_fixed

__all__ = ["check_critical_point", "critical_point"]

_USE_GAS_COOLER = (
    "heat rejection above the critical point needs a GasCooler (type 'GasCooler': "
    "pressure_pa and outlet_temp_k, or ua with the secondary stream)"
)


@lru_cache(maxsize=64)
def critical_point(fluid: str, backend: str | None) -> tuple[str, float, float] | None:
    """Canonical name, critical temperature [K] and pressure [Pa] of ``fluid``; None if unknown."""
    try:
        name = resolve_backend(backend)
        canonical = resolve_fluid(fluid, name)
    except UnknownFluidError:
        return None
    if name == "Test":
        params = ANALYTIC_FLUIDS[canonical]
        return canonical, params.T_crit, params.p_crit
    import CoolProp.CoolProp as CP

    from workbench.fluids.blend.spec import blend_spec, is_blend_name
    from workbench.fluids.blend.table_build import critical_point as blend_critical_point

    if is_blend_name(canonical):
        found = blend_critical_point(blend_spec(canonical))
        return None if found is None else (canonical, found[0], found[1])
    try:
        t_c = float(CP.PropsSI("Tcrit", canonical))
        p_c = float(CP.PropsSI("pcrit", canonical))
    except ValueError:
        return None
    return canonical, t_c, p_c


def _number(params: dict[str, Any], name: str) -> float | None:
    value = params.get(name)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _secondary_inlet(params: dict[str, Any]) -> tuple[str, float] | None:
    """The secondary inlet parameter's name and its temperature [K]."""
    if (t_c := _number(params, "air_inlet_temp_c")) is not None:
        return "air_inlet_temp_c", t_c + 273.15
    if (t_k := _number(params, "secondary_inlet_temp_k")) is not None:
        return "secondary_inlet_temp_k", t_k
    return None


def _c(t_k: float) -> str:
    return f"{fmt_fixed(t_k)} K ({fmt_fixed(t_k - 273.15)} C)"


def _coil(
    comp: FlatComponent, fluid: str, t_c: float, p_c: float, issues: list[ScenarioIssue]
) -> None:
    crit = f"the critical temperature of {fluid}, {_c(t_c)}"
    spec = "t_cond_k" if comp.type == "Condenser" else "t_evap_k"
    t_sat = _number(comp.params, spec)
    if t_sat is not None and t_sat >= t_c:
        action = "condense" if comp.type == "Condenser" else "evaporate"
        hint = _USE_GAS_COOLER if comp.type == "Condenser" else "evaporate below it"
        issues.append(
            ScenarioIssue(
                key(comp.path, spec),
                f"{comp.type} '{comp.name}': {spec} {_c(t_sat)} is at or above {crit}; nothing "
                f"can {action} there: {hint}",
            )
        )
    secondary = _secondary_inlet(comp.params)
    if comp.type == "Condenser" and secondary is not None and secondary[1] >= t_c:
        issues.append(
            ScenarioIssue(
                key(comp.path, secondary[0]),
                f"Condenser '{comp.name}': the secondary enters at {_c(secondary[1])}, at or "
                f"above {crit}: the refrigerant would have to stay above it to the outlet and "
                f"cannot condense; {_USE_GAS_COOLER}",
            )
        )
    for name, scale in (("pressure_pa", 1.0), ("pressure_bar", 1e5)):
        p = _number(comp.params, name)
        if p is not None and p * scale >= p_c:
            issues.append(
                ScenarioIssue(
                    key(comp.path, name),
                    f"{comp.type} '{comp.name}': {name} {p:g} is at or above the critical "
                    f"pressure of {fluid}, {p_c / 1e5:.2f} bar, where a {comp.type.lower()} "
                    f"cannot work (nothing condenses or evaporates); {_USE_GAS_COOLER}",
                )
            )


def _gas_cooler(comp: FlatComponent, fluid: str, backend: str, issues: list[ScenarioIssue]) -> None:
    if backend == "Test":
        p_max = get_backend(fluid, "Test").p_max
        p_given = _number(comp.params, "pressure_pa")
        if (p_given is not None and p_given >= p_max) or "pressure_control" in comp.params:
            where = "pressure_pa" if p_given is not None else "pressure_control"
            issues.append(
                ScenarioIssue(
                    key(comp.path, where),
                    f"GasCooler '{comp.name}': the Test backend is subcritical only (up to "
                    f"{p_max / 1e5:.2f} bar for {fluid}); a gas cooler above the critical "
                    'pressure needs "fluid_backend": "CoolProp"',
                )
            )
    if comp.params.get("pressure_control") == "liao2000" and fluid != "CO2":
        issues.append(
            ScenarioIssue(
                key(comp.path, "pressure_control"),
                f"GasCooler '{comp.name}': pressure_control 'liao2000' is a correlation for "
                f"R744 (CO2), not {fluid}; give pressure_pa instead",
            )
        )
    t_out = _number(comp.params, "outlet_temp_k")
    secondary = _secondary_inlet(comp.params)
    if t_out is not None and secondary is not None and t_out <= secondary[1]:
        issues.append(
            ScenarioIssue(
                key(comp.path, "outlet_temp_k"),
                f"GasCooler '{comp.name}': outlet_temp_k {_c(t_out)} is not above the secondary "
                f"inlet {_c(secondary[1])}: the refrigerant gives heat to the secondary, so it "
                "leaves warmer than the secondary enters",
            )
        )


def check_critical_point(scenario: ScenarioConfig, flat: FlatScenario) -> list[ScenarioIssue]:
    """Every rule of the module docstring (none for an unknown fluid, reported elsewhere).

    Parameters
    ----------
    scenario : ScenarioConfig
        The scenario as written (for the circuits' ``initial_state``).
    flat : FlatScenario
        Its expansion (for the components, with template parameters substituted).
    """
    issues: list[ScenarioIssue] = []
    for comp in flat.components.values():
        found = critical_point(*flat.fluid_of(comp.circuit))
        if found is None:
            continue  # the fluid check reports it
        fluid, t_c, p_c = found
        if comp.type in ("Condenser", "Evaporator"):
            _coil(comp, fluid, t_c, p_c, issues)
        elif comp.type == "GasCooler":
            _gas_cooler(comp, fluid, resolve_backend(flat.fluid_of(comp.circuit)[1]), issues)
    for i, circuit in enumerate(scenario.circuits):
        found = critical_point(*flat.fluid_of(circuit.id))
        if found is None:
            continue
        fluid, t_c, p_c = found
        state = circuit.initial_state
        if state is not None and state.pressure_bar is not None and state.pressure_bar * 1e5 >= p_c:
            issues.append(
                ScenarioIssue(
                    f"circuits[{i}].initial_state.pressure_bar",
                    f"the suction pressure {state.pressure_bar:g} bar is at or above the "
                    f"critical pressure of {fluid}, {p_c / 1e5:.2f} bar; the low side of a "
                    "vapour-compression cycle evaporates below it",
                )
            )
    return issues
