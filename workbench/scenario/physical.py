"""Physical ranges of the values in a scenario: temperatures the fluids can have.

Rules (each problem names its JSON path, the value and the range; the solve never sees them):

- **Kelvin fields that look like Celsius.** A temperature in K below the lowest value its fluid
  can have, whose value + 273.15 is inside that range, is reported as "looks like degrees
  Celsius; did you mean <value + 273.15> K?" (``secondary_inlet_temp_k: 30``,
  ``t_evap_k: 5``); a degC field that looks like kelvin likewise.
- **Secondary fluids.** ``secondary_fluid`` names one (air, water, glycols: the message names
  the closest). Its inlet temperature (``air_inlet_temp_c`` or ``secondary_inlet_temp_k``) lies
  in the fluid's range: liquid water at atmospheric pressure between 0 and 100 C, air between
  -50 and 150 C, a glycol between its freezing point and 100 C. With ``secondary_cp_j_kgk``
  the fluid's properties are not used, and only the Celsius rule and absolute zero apply.
- **Refrigerant temperatures.** Saturation temperatures (``t_cond_k``, ``t_evap_k``) lie
  between the working fluid's lowest temperature (its triple point in CoolProp) and its highest
  saturation temperature (the critical point; the ``Test`` model stops 0.5 K below it); a
  circuit's ``initial_state.temperature_k`` between its lowest and highest temperature.
- **Other temperatures.** Any other absolute temperature parameter of a component type (unit
  K with ``t_`` or ``temp`` in its name, or unit degC) is above absolute zero and not
  Celsius-looking (below 100 K), so component types added to the catalog are covered too.

The checks read the flat scenario and the fluid constants only
(:func:`workbench.fluids.limits.temperature_limits`); they add nothing to the scenario.
"""

from __future__ import annotations

import math
from typing import Any

from workbench.components.catalog.specs import ParamSpec, get_spec
from workbench.errors import ScenarioIssue, UnknownFluidError
from workbench.fluids.limits import TemperatureLimits, temperature_limits
from workbench.fluids.secondary import get_secondary
from workbench.scenario.flat import FlatComponent, FlatScenario
from workbench.scenario.models import ScenarioConfig
from workbench.scenario.paths import key
from workbench.units import ZERO_CELSIUS_K

__all__ = ["PLAUSIBLE_MIN_K", "SATURATION_PARAMS", "check_physical"]

SATURATION_PARAMS = ("t_cond_k", "t_evap_k")
"""Parameters that fix a refrigerant saturation temperature [K]."""

SECONDARY_TEMPERATURES = ("air_inlet_temp_c", "secondary_inlet_temp_k")
"""The secondary stream's inlet temperature, in degC or K."""

PLAUSIBLE_MIN_K = 100.0
"""An absolute temperature [K] below this, of a parameter with no fluid range to compare
with, is taken for degrees Celsius (no refrigeration or heat-pump state is that cold)."""


def check_physical(
    scenario: ScenarioConfig, flat: FlatScenario, origins: dict[tuple[str, str], str] | None = None
) -> list[ScenarioIssue]:
    """Every physical-range problem of the flat scenario (see the module docstring).

    Parameters
    ----------
    scenario : ScenarioConfig
        The scenario as written (for the circuits' ``initial_state``).
    flat : FlatScenario
        Its expansion.
    origins : dict, optional
        ``(component, parameter) -> "$ref from <place>"`` for substituted template values,
        appended to their messages.
    """
    origins = origins or {}
    issues: list[ScenarioIssue] = []
    for comp in flat.components.values():
        limits = _limits(*flat.fluid_of(comp.circuit))
        spec = get_spec(comp.type)
        if spec is None:
            continue
        checked = _check_secondary(comp, issues, origins)
        for pspec in spec.params:
            name = pspec.name
            raw: Any = comp.params.get(name)
            if name in checked or not _is_number(raw) or not _is_temperature(pspec):
                continue
            value = float(raw)
            path = key(comp.path, name)
            note = _origin(origins, comp, name)
            if name in SATURATION_PARAMS and limits is not None:
                issues.extend(_saturation(path, name, value, limits, note))
            else:
                issues.extend(_plain_temperature(path, name, value, pspec.unit, note))
    for i, circuit in enumerate(scenario.circuits):
        state = circuit.initial_state
        limits = _limits(*flat.fluid_of(circuit.id))
        if state is None or state.temperature_k is None or limits is None:
            continue
        path = f"circuits[{i}].initial_state.temperature_k"
        issues.extend(
            _in_range(
                path,
                state.temperature_k,
                limits.t_min,
                limits.t_max,
                f"{limits.fluid}'s states",
                "K",
                "",
            )
        )
    return issues


def _limits(fluid: str, backend: str | None) -> TemperatureLimits | None:
    """The temperature limits of a circuit's fluid (None for an unknown one)."""
    try:
        return temperature_limits(fluid, backend)
    except UnknownFluidError:  # reported by the fluid check
        return None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_temperature(spec: ParamSpec) -> bool:
    """An absolute temperature (not a difference such as ``superheat_k``)."""
    name = spec.name
    if spec.unit == "degC":
        return True
    return spec.unit == "K" and (name.startswith("t_") or "temp" in name)


def _origin(origins: dict[tuple[str, str], str], comp: FlatComponent, name: str) -> str:
    text = origins.get((comp.name, name))
    return f" (value of {text})" if text else ""


def _fmt_k(t: float) -> str:
    return f"{t:g} K ({t - ZERO_CELSIUS_K:g} C)"


def _celsius_hint(value: float, unit: str, lo: float, hi: float) -> str | None:
    """The "looks like degrees Celsius / kelvin" message when the other unit fits [lo, hi] K."""
    if unit == "K" and value < lo and lo <= value + ZERO_CELSIUS_K <= hi:
        return f"{value:g} K looks like degrees Celsius; did you mean {value + ZERO_CELSIUS_K:g} K?"
    if unit == "degC" and value + ZERO_CELSIUS_K > hi and lo <= value <= hi:
        return f"{value:g} C looks like kelvin; did you mean {value - ZERO_CELSIUS_K:g} C?"
    return None


def _in_range(
    path: str, value: float, lo: float, hi: float, what: str, unit: str, note: str
) -> list[ScenarioIssue]:
    """A temperature ``value`` (in ``unit``, K or degC) inside [lo, hi] K, else the issue."""
    t = value + ZERO_CELSIUS_K if unit == "degC" else value
    if lo <= t <= hi:
        return []
    hint = _celsius_hint(value, unit, lo, hi)
    if hint is not None:
        return [ScenarioIssue(path, f"{hint} ({what}: {_fmt_k(lo)} to {_fmt_k(hi)}){note}")]
    side = "below" if t < lo else "above"
    return [
        ScenarioIssue(
            path,
            f"{_fmt_k(t)} is {side} the range of {what}: {_fmt_k(lo)} to {_fmt_k(hi)}{note}",
        )
    ]


def _saturation(
    path: str, name: str, value: float, limits: TemperatureLimits, note: str
) -> list[ScenarioIssue]:
    fluid = limits.fluid
    if value >= limits.t_crit:
        return []  # at or above the critical point: workbench.scenario.critical says why
    if value > limits.t_sat_max:
        top = (
            f"the critical temperature of {fluid}, {_fmt_k(limits.t_crit)}"
            if limits.t_sat_max >= limits.t_crit
            else f"the highest saturation temperature of {fluid} in this backend, "
            f"{_fmt_k(limits.t_sat_max)} (0.5 K below its critical temperature)"
        )
        process = "condensing" if name == "t_cond_k" else "evaporating"
        return [
            ScenarioIssue(
                path,
                f"{_fmt_k(value)} is above {top}: there is no {process} pressure above it{note}",
            )
        ]
    return _in_range(path, value, limits.t_min, limits.t_sat_max, f"{fluid} saturation", "K", note)


def _plain_temperature(
    path: str, name: str, value: float, unit: str, note: str
) -> list[ScenarioIssue]:
    """A temperature with no fluid range: above absolute zero, not Celsius-looking."""
    t = value + ZERO_CELSIUS_K if unit == "degC" else value
    if t <= 0.0:
        return [ScenarioIssue(path, f"{value:g} {unit} is at or below absolute zero{note}")]
    if unit == "K" and value < PLAUSIBLE_MIN_K:
        return [
            ScenarioIssue(
                path,
                f"{value:g} K looks like degrees Celsius; did you mean "
                f"{value + ZERO_CELSIUS_K:g} K?{note}",
            )
        ]
    return []


def _check_secondary(
    comp: FlatComponent, issues: list[ScenarioIssue], origins: dict[tuple[str, str], str]
) -> set[str]:
    """The secondary fluid's name and inlet temperature; returns the parameters checked."""
    params = comp.params
    given = [p for p in SECONDARY_TEMPERATURES if p in params]
    if "secondary_fluid" not in params and not given:
        return set()
    explicit_cp = "secondary_cp_j_kgk" in params
    fluid_name = params.get("secondary_fluid", "air")
    fluid = None
    if isinstance(fluid_name, str):
        try:
            fluid = get_secondary(fluid_name)
        except UnknownFluidError as exc:
            issues.append(
                ScenarioIssue(
                    key(comp.path, "secondary_fluid"),
                    str(exc) + _origin(origins, comp, "secondary_fluid"),
                )
            )
    checked: set[str] = set()
    for name in given:
        value = params[name]
        if not _is_number(value):
            continue
        checked.add(name)
        unit = "degC" if name.endswith("_c") else "K"
        path, note = key(comp.path, name), _origin(origins, comp, name)
        if fluid is None or explicit_cp:
            issues.extend(_plain_temperature(path, name, float(value), unit, note))
            continue
        what = {
            "water": "liquid water at atmospheric pressure (it freezes at 0 C and boils at 100 C)",
            "air": "the air model",
        }.get(fluid.name, f"{fluid.name} (liquid, from its freezing point)")
        issues.extend(_in_range(path, float(value), fluid.T_min, fluid.T_max, what, unit, note))
    return checked
