"""Sweep paths: which value of a flat scenario a swept column sets, or an output column reads.

Inputs (set before each solve):

- ``<component>.<parameter>``: a component parameter of the flat scenario (names after
  flattening, ``unit_a.evaporator.fan_speed``); the longest component name that prefixes the
  path wins, so instance names with dots work. Legacy ``f_`` factors are read as ``z_``.
- ``<instance>.<parameter>``: as the builder labels an instance's values (``unit_a.speed_hz``):
  the one component of that instance setting the parameter, else the one taking it
  (``unit_a.compressor.speed_hz``); otherwise refused with the full paths.
- ``controls.<id>.<field>``: ``target``, ``gain``, ``band`` or ``smooth_eps`` of a control loop.
- ``solver.<field>``: a solver setting (``tolerance``, ``max_iterations`` ...).
- ``<component>.<object>.<entry>``: a numeric entry of an object parameter listed in
  :data:`~workbench.components.catalog.specs.OBJECT_NUMBER_KEYS`
  (``evaporator.correlation_factors.air_side``, ``evaporator.geometry.banks``); the other
  entries are kept. ``correlation_factors`` takes the entries of the component's family
  (:func:`~workbench.components.catalog.specs.object_entries`: ``air_side`` on a fin-and-tube
  coil, ``secondary_side`` on a brazed plate).
- ``circuits[<i>].charge_kg``: the fixed charge of the i-th circuit of the flat document (the
  charge curve; the base scenario must fix that circuit's charge, docs/charge.md).
- ``thermal_couplings[<i>].<field>``: ``ua`` or ``efficiency`` of the i-th thermal coupling,
  and of a coupling built from plates ``geometry.<key>`` (a number of the geometry: ``plates``,
  ``plate_length_m`` ...) and ``geometry.correlation_factors.<entry>`` (``refrigerant_side`` ...,
  the calibration hooks of its two streams).

Outputs (read after each solve, optional extra columns):

- ``<component>.<output>``: an entry of ``result.components`` (SI).
- ``controls.<id>.<key>``: an entry of a control loop's result (``measured``, ``actuator`` ...).
- ``summary.<key>``: an entry of the result's summary (``charge_kg``, ``cop_cooling_system``).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, replace
from typing import Any

from workbench.components.catalog.specs import (
    OBJECT_INTEGER_ENTRIES,
    OBJECT_NUMBER_KEYS,
    get_spec,
    normalise_factor,
    object_entries,
)
from workbench.errors import ScenarioError, ScenarioIssue
from workbench.scenario import FlatScenario, SolverConfig

__all__ = [
    "COUPLING_FIELDS",
    "SweepPath",
    "case_document",
    "coupling_value",
    "param_value",
    "plain_value",
    "read_output",
    "resolve_output",
    "resolve_path",
    "with_param",
]

CONTROL_FIELDS = ("target", "gain", "band", "smooth_eps")
"""Numeric fields of a control loop that can be swept."""

COUPLING_FIELDS = ("ua", "efficiency")
"""Numeric fields of a thermal coupling that can be swept (besides its geometry's numbers)."""


@dataclass(frozen=True)
class SweepPath:
    """A resolved path.

    Attributes
    ----------
    path : str
        The path as written (the column name).
    kind : str
        ``"component"``, ``"control"``, ``"circuit"``, ``"coupling"`` or ``"solver"``.
    owner : str
        Component name, control id, circuit or coupling index (as text) or empty for the solver.
    key : str
        Parameter, field or output name.
    integer : bool
        The value must be an integer (converted from an integral float).
    """

    path: str
    kind: str
    owner: str
    key: str
    integer: bool = False


def _fail(path: str, message: str) -> ScenarioError:
    return ScenarioError([ScenarioIssue(f"sweep[{path!r}]", message)], source="sweep")


def _longest_prefix(path: str, names: list[str]) -> str | None:
    matches = [n for n in names if path.startswith(n + ".") and len(path) > len(n) + 1]
    return max(matches, key=len) if matches else None


def resolve_path(flat: FlatScenario, path: str) -> SweepPath:
    """Resolve an input path against a flat scenario.

    Raises
    ------
    ScenarioError
        No component, control or solver field of that name, or a parameter the component
        type does not have; the message lists what exists.
    """
    comp_name = _longest_prefix(path, list(flat.components))
    if comp_name is not None:
        comp = flat.components[comp_name]
        key = normalise_factor(path[len(comp_name) + 1 :])
        spec = get_spec(comp.type)
        head, _, entry = key.partition(".")
        if entry and head in OBJECT_NUMBER_KEYS and spec is not None and spec.param(head):
            entries = object_entries(head, comp.params)
            if entry not in entries:
                raise _fail(path, f"{head} has no entry {entry!r}; entries: {', '.join(entries)}")
            return SweepPath(path, "component", comp_name, key, entry in OBJECT_INTEGER_ENTRIES)
        param = spec.param(key) if spec else None
        if spec is not None and param is None:
            raise _fail(
                path,
                f"{comp.type} {comp_name!r} has no parameter {key!r}; "
                f"parameters: {', '.join(spec.param_names)}",
            )
        if param is not None and param.kind not in ("number", "integer"):
            raise _fail(path, f"parameter {key!r} of {comp_name!r} is a {param.kind}, not a number")
        return SweepPath(path, "component", comp_name, key, bool(param and param.kind == "integer"))
    if path.startswith("controls."):
        ids = [c.id for c in flat.controls]
        cid = _longest_prefix(path[len("controls.") :], ids)
        if cid is None:
            raise _fail(path, f"no control loop matches; loops: {', '.join(ids) or 'none'}")
        key = path[len("controls.") + len(cid) + 1 :]
        if key not in CONTROL_FIELDS:
            raise _fail(path, f"controls.<id>.<field> takes one of {', '.join(CONTROL_FIELDS)}")
        return SweepPath(path, "control", cid, key)
    coupling = re.fullmatch(r"thermal_couplings\[(\d+)\]\.(.+)", path)
    if coupling is not None:
        return _coupling_path(flat, path, int(coupling.group(1)), coupling.group(2))
    circuit = re.fullmatch(r"circuits\[(\d+)\]\.charge_kg", path)
    if circuit is not None:
        index = int(circuit.group(1))
        if index >= len(flat.circuits):
            raise _fail(path, f"the scenario has {len(flat.circuits)} circuit(s)")
        return SweepPath(path, "circuit", str(index), "charge_kg")
    alias = _instance_alias(flat, path)
    if alias is not None:
        return replace(resolve_path(flat, alias), path=path)
    if path.startswith("solver."):
        key = path[len("solver.") :]
        fields = SolverConfig.model_fields
        if key not in fields or key in ("strategy", "verbose"):
            numeric = [f for f in fields if f not in ("strategy", "verbose")]
            raise _fail(path, f"solver field must be one of {', '.join(numeric)}")
        return SweepPath(path, "solver", "", key, fields[key].annotation is int)
    raise _fail(
        path,
        "not '<component>.<parameter>', 'controls.<id>.<field>' or 'solver.<field>'; "
        f"components: {', '.join(flat.components)}",
    )


def _coupling_path(flat: FlatScenario, path: str, index: int, key: str) -> SweepPath:
    """``thermal_couplings[i].<key>`` resolved (module docstring), or an error saying why not."""
    from workbench.components.exchangers.plate.spec import CORRELATION_FACTORS, GEOMETRY_KEYS

    if index >= len(flat.thermal_couplings):
        raise _fail(path, f"the scenario has {len(flat.thermal_couplings)} thermal coupling(s)")
    config = flat.thermal_couplings[index]
    geometry = config.geometry
    if key in COUPLING_FIELDS:
        if key == "ua" and geometry is not None:
            raise _fail(path, "the coupling is built from its geometry: it has no ua")
        return SweepPath(path, "coupling", str(index), key)
    numbers = (*GEOMETRY_KEYS, "plate_conductivity_w_m_k", "segments")
    known = [f"geometry.{k}" for k in numbers]
    known += [f"geometry.correlation_factors.{k}" for k in CORRELATION_FACTORS]
    if geometry is None or key not in known:
        fields = [*COUPLING_FIELDS, *(known if geometry is not None else ())]
        raise _fail(path, f"thermal_couplings[{index}] takes one of {', '.join(fields)}")
    return SweepPath(
        path, "coupling", str(index), key, key in ("geometry.plates", "geometry.segments")
    )


def coupling_value(flat: FlatScenario, spec: SweepPath) -> Any:
    """The value a ``thermal_couplings[i]`` path has in ``flat`` (None when not given)."""
    config = flat.thermal_couplings[int(spec.owner)]
    if spec.key in COUPLING_FIELDS:
        return getattr(config, spec.key)
    node: Any = config.geometry or {}
    for part in spec.key.split(".")[1:]:
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _instance_alias(flat: FlatScenario, path: str) -> str | None:
    """``unit_a.speed_hz`` -> ``unit_a.compressor.speed_hz`` (None: not an instance's path)."""
    instances = {name.rsplit(".", 1)[0] for name in flat.components if "." in name}
    instance = _longest_prefix(path, sorted(instances))
    if instance is None:
        return None
    key = normalise_factor(path[len(instance) + 1 :])
    takers = []
    for name, comp in flat.components.items():
        spec = get_spec(comp.type)
        if name.startswith(instance + ".") and spec is not None and spec.param(key) is not None:
            takers.append(name)
    setting = [t for t in takers if key in flat.components[t].params]
    if len(setting) == 1:  # the one that sets it (a template's "$name" lands there)
        return f"{setting[0]}.{key}"
    if len(takers) == 1:
        return f"{takers[0]}.{key}"
    if takers:
        raise _fail(
            path,
            f"{key!r} is a parameter of several components of {instance}: "
            + ", ".join(f"{t}.{key}" for t in takers),
        )
    return None


def resolve_output(flat: FlatScenario, path: str) -> SweepPath:
    """Resolve an output path (``<component>.<output>``, ``controls.<id>.<key>``, ``summary.<key>``).

    A refrigerant line's outputs are named by its line component (``line evaporator-compressor.
    pressure_drop``, docs/lines.md).

    Raises
    ------
    ScenarioError
        The component or control loop does not exist.
    """
    from workbench.solver.lines import line_names  # a line's outputs: "line a-b.pressure_drop"

    comp_name = _longest_prefix(path, [*flat.components, *line_names(flat)])
    if comp_name is not None:
        return SweepPath(path, "component", comp_name, path[len(comp_name) + 1 :])
    if path.startswith("controls."):
        cid = _longest_prefix(path[len("controls.") :], [c.id for c in flat.controls])
        if cid is not None:
            return SweepPath(path, "control", cid, path[len("controls.") + len(cid) + 1 :])
    if path.startswith("summary.") and len(path) > len("summary."):
        return SweepPath(path, "summary", "", path[len("summary.") :])
    raise _fail(
        path, "an output is '<component>.<output>', 'controls.<id>.<key>' or 'summary.<key>'"
    )


def plain_value(value: Any, integer: bool) -> Any:
    """A JSON-plain value (numpy scalars to Python; integral floats to int where needed)."""
    if hasattr(value, "item"):
        value = value.item()
    if integer and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def case_document(
    doc: dict[str, Any], specs: list[SweepPath], values: tuple[Any, ...]
) -> dict[str, Any]:
    """A copy of the flat scenario document ``doc`` with each path set to its value."""
    doc = copy.deepcopy(doc)
    for spec, value in zip(specs, values):
        _set_value(doc, spec, value)
    return doc


def param_value(params: Any, key: str, missing: Any = None) -> Any:
    """A component parameter by its sweep key; ``<object>.<entry>`` reads inside the object.

    Parameters
    ----------
    params : mapping
        The component's parameters.
    key : str
        ``fan_speed`` or ``correlation_factors.air_side``.
    missing : Any
        Returned when the parameter (or the entry) is absent.
    """
    head, _, entry = key.partition(".")
    if not entry:
        return params.get(key, missing)
    return (params.get(head) or {}).get(entry, missing)


def with_param(params: dict[str, Any], key: str, value: Any, missing: Any = None) -> None:
    """Set (or, with ``value is missing``, remove) a parameter by its sweep key, in place.

    An object parameter is replaced by a copy with the entry changed, so a mapping shared with
    another dictionary (a model's ``given`` and ``params``) is not changed under it.
    """
    head, _, entry = key.partition(".")
    if not entry:
        if value is missing:
            params.pop(key, None)
        else:
            params[key] = value
        return
    inner = dict(params.get(head) or {})
    if value is missing:
        inner.pop(entry, None)
    else:
        inner[entry] = value
    params[head] = inner


def _set_value(doc: dict[str, Any], spec: SweepPath, value: Any) -> None:
    value = plain_value(value, spec.integer)
    if spec.kind == "component":
        for circuit in doc["circuits"]:
            for comp in circuit["components"]:
                if comp["name"] == spec.owner:
                    with_param(comp, spec.key, value)
                    return
        raise _fail(spec.path, f"component {spec.owner!r} is not in the scenario")
    if spec.kind == "control":
        for loop in doc.get("controls", []):
            if loop["id"] == spec.owner:
                loop[spec.key] = value
                return
        raise _fail(spec.path, f"control loop {spec.owner!r} is not in the scenario")
    if spec.kind == "circuit":
        doc["circuits"][int(spec.owner)][spec.key] = value
        return
    if spec.kind == "coupling":
        node = doc["thermal_couplings"][int(spec.owner)]
        *parents, last = spec.key.split(".")
        for part in parents:  # copies, so a mapping shared with the base is not changed
            node[part] = dict(node.get(part) or {})
            node = node[part]
        node[last] = value
        return
    doc.setdefault("solver", {})[spec.key] = value


def read_output(result: Any, spec: SweepPath) -> Any:
    """The value of an output path in a solve result (None when absent)."""
    if spec.kind == "component":
        return (result.components.get(spec.owner) or {}).get(spec.key)
    if spec.kind == "summary":
        return result.summary.get(spec.key)
    for entry in result.controls:
        if entry.get("id") == spec.owner:
            return entry.get(spec.key)
    return None
