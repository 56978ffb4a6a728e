"""Component parameter checks against the component catalog.

The catalog (:mod:`workbench.components.catalog.specs`) is the only place where parameter names,
kinds, bounds and alternative groups are defined; this module only reads it.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import ValidationError

from workbench.components.catalog.specs import COMPONENT_TYPES, ComponentSpec, ParamSpec
from workbench.errors import ScenarioIssue
from workbench.scenario.models import ComponentConfig, CondenserBankConfig
from workbench.scenario.paths import allowed, format_path, key, suggest
from workbench.scenario.refs import is_param_ref, normal_param_name, normalise_params

__all__ = ["check_component", "check_value", "describe_range"]

_OBJECT_MODELS = {"condenser_bank": CondenserBankConfig}
"""Models of the ``object`` parameters that the scenario contract defines."""


def _fmt(x: float) -> str:
    return f"{x:g}"


def describe_range(spec: ParamSpec) -> str:
    """Human-readable allowed range, e.g. ``in [0, 1]``, ``> 0``, ``in (0, 1]`` (``""`` if none)."""
    low = spec.minimum if spec.minimum is not None else spec.exclusive_minimum
    high = spec.maximum if spec.maximum is not None else spec.exclusive_maximum
    if low is None and high is None:
        return ""
    if low is not None and high is not None:
        left = "[" if spec.minimum is not None else "("
        right = "]" if spec.maximum is not None else ")"
        return f"in {left}{_fmt(low)}, {_fmt(high)}{right}"
    if low is not None:
        return f"{'>=' if spec.minimum is not None else '>'} {_fmt(low)}"
    assert high is not None
    return f"{'<=' if spec.maximum is not None else '<'} {_fmt(high)}"


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _in_range(spec: ParamSpec, x: float) -> bool:
    return not (
        (spec.minimum is not None and x < spec.minimum)
        or (spec.maximum is not None and x > spec.maximum)
        or (spec.exclusive_minimum is not None and x <= spec.exclusive_minimum)
        or (spec.exclusive_maximum is not None and x >= spec.exclusive_maximum)
    )


def _shown(value: Any) -> str:
    import json

    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def check_value(spec: ParamSpec, value: Any) -> list[tuple[str, str]]:
    """Check one parameter value against its catalog spec.

    Returns
    -------
    list of (subpath, message)
        Empty when the value is valid; ``subpath`` is ``""`` or a suffix like ``.circuits``.
    """
    unit = f" [{spec.unit}]" if spec.unit else ""
    rng = describe_range(spec)
    if spec.kind in ("number", "integer"):
        integer = spec.kind == "integer"
        ok_type = _is_number(value) and (not integer or isinstance(value, int))
        what = "an integer" if integer else "a number"
        expected = f"{what}{' ' + rng if rng else ''}{unit}"
        if not ok_type or not math.isfinite(value):
            return [("", f"expected {expected}, got {_shown(value)}")]
        if not _in_range(spec, value):
            return [("", f"{_shown(value)} is out of range: expected {expected}")]
        return []
    if spec.kind == "string":
        if not isinstance(value, str):
            return [("", f"expected a string, got {_shown(value)}")]
        if spec.choices and value not in spec.choices:
            return [
                (
                    "",
                    f"'{value}' is not allowed{suggest(value, spec.choices)}; "
                    f"allowed: {allowed(spec.choices)}",
                )
            ]
        return []
    if spec.kind == "number_list":
        size = f" of {spec.length} numbers" if spec.length else " of numbers"
        if not isinstance(value, list) or not all(
            _is_number(v) and math.isfinite(v) for v in value
        ):
            return [("", f"expected a list{size}{unit}, got {_shown(value)}")]
        if spec.length is not None and len(value) != spec.length:
            return [("", f"expected a list{size}{unit}, got {len(value)} numbers")]
        return []
    # object
    model = _OBJECT_MODELS.get(spec.name)
    if not isinstance(value, dict):
        return [("", f"expected a JSON object ({spec.description}), got {_shown(value)}")]
    if model is None:
        return []
    try:
        model.model_validate(value)
    except ValidationError as exc:
        out = []
        for err in exc.errors():
            loc = tuple(err["loc"])
            sub = format_path(("x", *loc))[1:]
            fields = list(model.model_fields)
            if err["type"] == "missing":
                msg = f"required field '{loc[-1]}' is missing"
            elif err["type"] == "extra_forbidden":
                msg = f"unknown key '{loc[-1]}'{suggest(str(loc[-1]), fields)}; allowed keys: {allowed(fields)}"
            else:
                msg = f"{err['msg']}, got {_shown(err.get('input'))}"
            out.append((sub, msg))
        return out
    return []


def _geometry_problems(type_name: str, value: Any) -> list[tuple[str, str]]:
    """Problems of a ``geometry`` object, judged by the variant of its ``kind``."""
    from workbench.components.models import geometry_problems  # the variants register there

    return geometry_problems(type_name, value)


def check_component(
    comp: ComponentConfig, path: str, issues: list[ScenarioIssue], *, in_template: bool
) -> ComponentSpec | None:
    """Check a component's name, type and parameters; append problems to ``issues``.

    In a template, ``"$name"`` values are not checked here (they are checked after
    substitution, per instance); elsewhere they are an error.

    Returns
    -------
    ComponentSpec or None
        The spec of the component's type, None when the type is unknown.
    """
    if not comp.name.strip():
        issues.append(ScenarioIssue(f"{path}.name", "a component name must not be empty"))
    elif ":" in comp.name:
        issues.append(
            ScenarioIssue(
                f"{path}.name",
                f"component name '{comp.name}' must not contain ':' (it separates component "
                "and port in edge endpoints)",
            )
        )
    spec = COMPONENT_TYPES.get(comp.type)  # internal types (a line) are not for scenarios
    if spec is None:
        types = list(COMPONENT_TYPES)
        issues.append(
            ScenarioIssue(
                f"{path}.type",
                f"unknown component type '{comp.type}'{suggest(comp.type, types)}; allowed "
                f"types: {allowed(types)}",
            )
        )
        return None
    given_params = comp.parameters  # built from the model on each access: once here
    params, clashes = normalise_params(given_params)
    for legacy, new in clashes:
        issues.append(
            ScenarioIssue(
                key(path, legacy),
                f"'{legacy}' is the legacy name of '{new}', which is also given; give only one",
            )
        )
    given = set(params)
    original: dict[str, str] = {}
    for name in given_params:
        original.setdefault(normal_param_name(name), name)
    for name, value in params.items():
        src_name = original.get(name, name)
        ppath = key(path, src_name)
        pspec = spec.param(name)
        if pspec is None:
            given.discard(name)
            issues.append(
                ScenarioIssue(
                    ppath,
                    f"'{src_name}' is not a parameter of {spec.type_name}"
                    f"{suggest(src_name, spec.param_names)}; parameters of {spec.type_name}: "
                    f"{allowed(spec.param_names)}",
                )
            )
            continue
        if is_param_ref(value):
            if not in_template:
                issues.append(
                    ScenarioIssue(
                        ppath,
                        f"'{value}' is a template parameter reference, substituted only inside "
                        "subsystems; give the value itself here",
                    )
                )
            continue
        problems = check_value(pspec, value)
        if name == "geometry" and not problems:
            problems = _geometry_problems(spec.type_name, value)
        for sub, message in problems:
            issues.append(ScenarioIssue(ppath + sub, message))
    for group in spec.alternatives:
        both = [n for n in group if n in given]
        if len(both) > 1:
            issues.append(
                ScenarioIssue(
                    path,
                    f"{' and '.join(both)} are alternative forms of one quantity for "
                    f"{spec.type_name}; give only one of {', '.join(group)}",
                )
            )
    return spec
