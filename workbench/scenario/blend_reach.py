"""Checks against a blend's tables: specifications the blend backend cannot reach are refused.

A zeotropic blend's saturation and two-phase states come from tables
(:mod:`workbench.fluids.blend.tables`) that end where CoolProp's (p, Q) flash of the mixture
stops converging: for the predefined blends at 0.81-0.92 of the critical pressure (R454B at
43.1 bar, 0.81), well below the critical temperature. Above the blend's cricondenbar every
state is single-phase and exact HEOS (a gas cooler's high side, :mod:`workbench.fluids.
blend_above`). A specification that needs the band between them would fail only after the
solver's iterations; it is refused here, naming the parameter and the limit:

- Condenser or Evaporator ``t_cond_k`` / ``t_evap_k`` (the dew, bubble or mid temperature, by
  ``saturation_reference``) above the highest the tables reach, but below the critical
  temperature (at or above it :mod:`.critical` reports);
- Condenser whose secondary enters above the tables' highest bubble temperature (the
  refrigerant would have to condense above the tables to heat it);
- Condenser or Evaporator ``pressure_pa`` / ``pressure_bar`` above the tables' top (below the
  critical pressure);
- GasCooler ``pressure_pa`` between the tables' top and the cricondenbar.

Only blends with the CoolProp backend are checked (their tables are built on first use, a few
seconds, and cached on disk).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from workbench.errors import ScenarioIssue, UnknownFluidError, WorkbenchError
from workbench.scenario.flat import FlatComponent, FlatScenario
from workbench.scenario.paths import key
from workbench.units import fmt_fixed

__all__ = ["BlendReach", "blend_reach", "check_blend_reach"]


class BlendReach:
    """How far a blend's tables reach (all SI).

    Attributes
    ----------
    name : str
        The blend's canonical name.
    p_top : float
        Highest tabulated pressure [Pa].
    t_dew_top, t_bubble_top : float
        Dew and bubble temperatures at ``p_top`` [K].
    p_crit, t_crit : float
        Critical pressure [Pa] and temperature [K].
    p_single : float
        Pressure from which every state is single-phase [Pa] (the cricondenbar and a margin).
    """

    def __init__(self, name: str, backend: Any) -> None:
        self.name = name
        self.p_top = float(backend.p_max)
        self.t_dew_top = float(backend.tables.sat[1, 0, -1])
        self.t_bubble_top = float(backend.tables.sat[0, 0, -1])
        self.p_crit = float(backend.p_crit)
        self.t_crit = float(backend.T_crit)
        self.p_single = float(backend.p_single)

    def t_top(self, reference: str) -> float:
        """Highest saturation temperature [K] of ``reference`` (dew, bubble, mid) in the tables."""
        if reference == "bubble":
            return self.t_bubble_top
        if reference == "mid":
            return 0.5 * (self.t_dew_top + self.t_bubble_top)
        return self.t_dew_top

    def describe(self) -> str:
        """The tables' top in words (pressure, share of the critical pressure, temperatures)."""
        return (
            f"the tables of {self.name} end at {self.p_top / 1e5:.1f} bar "
            f"({self.p_top / self.p_crit:.2f} of its critical pressure "
            f"{self.p_crit / 1e5:.1f} bar; dew point {_c(self.t_dew_top)}, bubble point "
            f"{_c(self.t_bubble_top)})"
        )


def _c(t_k: float) -> str:
    return f"{fmt_fixed(t_k)} K ({fmt_fixed(t_k - 273.15)} C)"


@lru_cache(maxsize=32)
def blend_reach(fluid: str, backend: str | None) -> BlendReach | None:
    """The reach of ``fluid``'s tables; None when it is not a blend with the CoolProp backend."""
    from workbench.fluids import get_backend
    from workbench.fluids.blend.spec import is_blend_name
    from workbench.fluids.names import resolve_backend, resolve_fluid

    try:
        name = resolve_backend(backend)
        canonical = resolve_fluid(fluid, name)
    except UnknownFluidError:
        return None
    if name != "CoolProp" or not is_blend_name(canonical):
        return None
    try:
        fl = get_backend(canonical, name)
    except WorkbenchError:
        return None  # the fluid checks report it
    if not hasattr(fl, "tables"):
        return None
    return BlendReach(canonical, fl)


def _number(params: dict[str, Any], name: str) -> float | None:
    value = params.get(name)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _coil(comp: FlatComponent, reach: BlendReach, issues: list[ScenarioIssue]) -> None:
    spec = "t_cond_k" if comp.type == "Condenser" else "t_evap_k"
    reference = str(comp.params.get("saturation_reference") or "dew")
    t_sat = _number(comp.params, spec)
    t_top = reach.t_top(reference)
    if t_sat is not None and t_top < t_sat < reach.t_crit:
        issues.append(
            ScenarioIssue(
                key(comp.path, spec),
                f"{comp.type} '{comp.name}': {spec} {_c(t_sat)} ({reference} point) is above "
                f"the highest the blend's tables reach, {_c(t_top)}: {reach.describe()}; give "
                f"{spec} at most {math.floor(t_top * 100.0) / 100.0:.2f} K",
            )
        )
    secondary = None
    if (t_air := _number(comp.params, "air_inlet_temp_c")) is not None:
        secondary = ("air_inlet_temp_c", t_air + 273.15)
    elif (t_in := _number(comp.params, "secondary_inlet_temp_k")) is not None:
        secondary = ("secondary_inlet_temp_k", t_in)
    if (
        comp.type == "Condenser"
        and secondary is not None
        and reach.t_bubble_top <= secondary[1] < reach.t_crit
    ):
        issues.append(
            ScenarioIssue(
                key(comp.path, secondary[0]),
                f"Condenser '{comp.name}': the secondary enters at {_c(secondary[1])}, at or "
                f"above the highest bubble point the blend's tables reach, "
                f"{_c(reach.t_bubble_top)}: the refrigerant would have to condense above "
                f"them; {reach.describe()}",
            )
        )
    for name, scale in (("pressure_pa", 1.0), ("pressure_bar", 1e5)):
        p = _number(comp.params, name)
        if p is not None and reach.p_top < p * scale < reach.p_crit:
            issues.append(
                ScenarioIssue(
                    key(comp.path, name),
                    f"{comp.type} '{comp.name}': {name} {p:g} is above the top of the blend's "
                    f"tables: {reach.describe()}",
                )
            )


def _gas_cooler(comp: FlatComponent, reach: BlendReach, issues: list[ScenarioIssue]) -> None:
    p = _number(comp.params, "pressure_pa")
    if p is not None and reach.p_top < p < reach.p_single:
        issues.append(
            ScenarioIssue(
                key(comp.path, "pressure_pa"),
                f"GasCooler '{comp.name}': pressure_pa {p:g} is between the top of the blend's "
                f"tables and its cricondenbar ({reach.p_single / 1e5:.2f} bar, from where every "
                f"state is single-phase): the dome there is not tabulated; {reach.describe()}; "
                f"give pressure_pa of at least {reach.p_single:.6g} Pa",
            )
        )


def check_blend_reach(flat: FlatScenario) -> list[ScenarioIssue]:
    """Every rule of the module docstring (none for pure fluids or unknown fluids).

    Parameters
    ----------
    flat : FlatScenario
        The expanded scenario (template parameters substituted).
    """
    issues: list[ScenarioIssue] = []
    for comp in flat.components.values():
        if comp.type not in ("Condenser", "Evaporator", "GasCooler"):
            continue
        reach = blend_reach(*flat.fluid_of(comp.circuit))
        if reach is None:
            continue
        if comp.type == "GasCooler":
            _gas_cooler(comp, reach, issues)
        else:
            _coil(comp, reach, issues)
    return issues
