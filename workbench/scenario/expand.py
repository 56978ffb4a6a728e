"""Expand a scenario into its flat graph: templates instantiated, edges routed, controls copied.

Rules of the scenario contract:

1. A component parameter whose value is the string ``"$name"`` takes the value of parameter
   ``name``: the instance's ``params`` first, then the template's ``params``.
2. ``connections`` endpoints are ``<instance>.<external_port>`` (through the template's ``ports``)
   or literal ``<component>:<port>``; each connection lands in the circuit that owns both ends.
3. Instance components are named ``<instance>.<local name>`` in the instance's circuit (a
   circuit id that no ``circuits`` entry declares is created).

4. Control loops are copied with their actuator factor normalised to ``z_`` (legacy ``f_``).

:func:`expand` is the only step that builds: it returns the whole flat scenario (components,
edges, controls, couplings, solver settings) together with the problems it met while building
(what could not be built is left out). It never checks the catalog rules beyond what routing
needs; :mod:`workbench.scenario.validate` reads the expansion and reports, and
:func:`workbench.scenario.compile.flatten` is expand -> check -> raise.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from workbench.errors import ScenarioIssue
from workbench.scenario.flat import FlatComponent, FlatScenario
from workbench.scenario.models import ControlConfig, ScenarioConfig
from workbench.scenario.paths import allowed, key, suggest
from workbench.scenario.refs import (
    instance_path,
    is_param_ref,
    normal_param_name,
    normalise_params,
)
from workbench.scenario.routing import add_circuit_edge, add_connection, add_instance_edges

__all__ = ["Expansion", "Substitution", "expand"]


@dataclass
class Substitution:
    """A ``$name`` parameter replaced in an expanded component (checked after substitution)."""

    component: FlatComponent
    key: str
    ref: str
    origin: str


@dataclass
class Expansion:
    """Result of :func:`expand`.

    Attributes
    ----------
    flat : FlatScenario
        The whole flat scenario (meaningful as a solver input only when no issue is found).
    substitutions : list of Substitution
        Every ``$name`` replaced, so that validation can check the substituted values.
    issues : list of ScenarioIssue
        What could not be built: duplicate circuit ids, duplicate component names (per
        circuit and across circuits), unknown templates, duplicate instance names, unresolved
        ``$name`` references, edges and connections that do not resolve or that cross
        circuits.
    """

    flat: FlatScenario
    substitutions: list[Substitution] = field(default_factory=list)
    issues: list[ScenarioIssue] = field(default_factory=list)


def expand(scenario: ScenarioConfig) -> Expansion:
    """Build the flat scenario of ``scenario``; record what cannot be built instead of raising.

    Parameters
    ----------
    scenario : ScenarioConfig
        A scenario as loaded (templates not yet expanded).

    Returns
    -------
    Expansion
        The flat scenario (components in document order, edges routed into circuits, controls
        with factors normalised to ``z_``, couplings and solver settings), the substitutions
        made and the problems met. Catalog rules (types, parameters, ports of templates,
        control outputs) are checked by :mod:`workbench.scenario.validate`.
    """
    flat = FlatScenario(
        fluid=scenario.fluid,
        fluid_backend=scenario.fluid_backend,
        name=scenario.name,
        schema_version=scenario.schema_version,
        saturation_reference=scenario.saturation_reference,
        solver=scenario.solver.model_copy(),
        thermal_couplings=[c.model_copy() for c in scenario.thermal_couplings],
        metadata=copy.deepcopy(scenario.metadata),
        charge=scenario.charge.model_copy() if scenario.charge is not None else None,
        safety=scenario.safety.model_copy() if scenario.safety is not None else None,
    )
    result = Expansion(flat)
    issues = result.issues
    seen_circuit: dict[int, int] = {}
    for i, circuit in enumerate(scenario.circuits):
        if circuit.id in seen_circuit:
            issues.append(
                ScenarioIssue(
                    f"circuits[{i}].id",
                    f"duplicate circuit id {circuit.id} (also circuits[{seen_circuit[circuit.id]}]); "
                    "circuit ids must be unique",
                )
            )
        else:
            seen_circuit[circuit.id] = i
            flat.circuits.append(circuit.id)
            flat.initial_state[circuit.id] = circuit.initial_state
            if circuit.charge_kg is not None:
                flat.charge_kg[circuit.id] = circuit.charge_kg
                flat.charge_paths[circuit.id] = f"circuits[{i}].charge_kg"
            if circuit.fluid is not None or circuit.fluid_backend is not None:
                flat.circuit_fluids[circuit.id] = (
                    circuit.fluid or scenario.fluid,
                    circuit.fluid_backend or scenario.fluid_backend,
                )
        local: dict[str, str] = {}
        for k, comp in enumerate(circuit.components):
            path = f"circuits[{i}].components[{k}]"
            if comp.name in local:
                issues.append(
                    ScenarioIssue(
                        f"{path}.name",
                        f"duplicate component name '{comp.name}' in circuit {circuit.id} "
                        f"(first at {local[comp.name]}); names must be unique",
                    )
                )
                continue
            local[comp.name] = path
            params, _ = normalise_params(copy.deepcopy(comp.parameters))
            _add(flat, FlatComponent(comp.name, comp.type, circuit.id, params, path), issues)

    _expand_instances(scenario, result, issues)
    _saturation_reference(flat)
    for i, circuit in enumerate(scenario.circuits):
        for e, edge in enumerate(circuit.edges):
            add_circuit_edge(flat, circuit.id, edge, f"circuits[{i}].edges[{e}]", issues)
    add_instance_edges(scenario, flat)
    for c, edge in enumerate(scenario.connections):
        add_connection(scenario, flat, edge, f"connections[{c}]", issues)
    # group by circuit (in order of first appearance), document order inside a circuit, so that
    # the flat document lists the same order after a round trip through to_dict()
    rank = {cid: n for n, cid in enumerate(flat.circuits)}
    flat.components = dict(
        sorted(flat.components.items(), key=lambda kv: rank.get(kv[1].circuit, len(rank)))
    )
    flat.edges.sort(key=lambda e: rank.get(e.circuit, len(rank)))
    flat.controls = [_normalised_control(control) for control in scenario.controls]
    return result


def _normalised_control(control: ControlConfig) -> ControlConfig:
    """A deep copy of ``control`` with its actuator factor renamed ``f_x`` -> ``z_x``."""
    factor = normal_param_name(control.actuator.factor)
    actuator = control.actuator.model_copy(update={"factor": factor})
    return control.model_copy(deep=True, update={"actuator": actuator})


def _add(flat: FlatScenario, comp: FlatComponent, issues: list[ScenarioIssue]) -> bool:
    other = flat.components.get(comp.name)
    if other is not None:
        where = f"circuit {other.circuit} at {other.path}"
        issues.append(
            ScenarioIssue(
                f"{comp.path}.name",
                f"component name '{comp.name}' is already used in {where}; "
                "names must be unique across all circuits after flattening",
            )
        )
        return False
    flat.components[comp.name] = comp
    return True


def _expand_instances(
    scenario: ScenarioConfig, result: Expansion, issues: list[ScenarioIssue]
) -> None:
    flat = result.flat
    seen: dict[str, int] = {}
    for i, inst in enumerate(scenario.instances):
        if inst.name in seen:
            issues.append(
                ScenarioIssue(
                    f"instances[{i}].name",
                    f"duplicate instance name '{inst.name}' (also instances[{seen[inst.name]}]); "
                    "instance names must be unique",
                )
            )
            continue
        seen[inst.name] = i
        template = scenario.subsystems.get(inst.of)
        if template is None:
            names = list(scenario.subsystems)
            issues.append(
                ScenarioIssue(
                    f"instances[{i}].of",
                    f"unknown template '{inst.of}'{suggest(inst.of, names)}; "
                    f"templates in subsystems: {allowed(names)}",
                )
            )
            continue
        if inst.circuit not in flat.initial_state:
            flat.circuits.append(inst.circuit)
            flat.initial_state[inst.circuit] = None
        tpath = key("subsystems", inst.of)
        local_seen: set[str] = set()
        for k, comp in enumerate(template.components):
            if comp.name in local_seen:
                continue  # reported once on the template by validation
            local_seen.add(comp.name)
            path = instance_path(i, inst.name, f"{tpath}.components[{k}]")
            fcomp = FlatComponent(f"{inst.name}.{comp.name}", comp.type, inst.circuit, {}, path)
            subs: list[Substitution] = []
            params, _ = normalise_params(comp.parameters)
            for name, value in params.items():
                if not is_param_ref(value):
                    fcomp.params[name] = copy.deepcopy(value)
                    continue
                ref = value[1:]
                if ref in inst.params:
                    origin = key(f"instances[{i}].params", ref)
                    fcomp.params[name] = copy.deepcopy(inst.params[ref])
                elif ref in template.params:
                    origin = key(f"{tpath}.params", ref)
                    fcomp.params[name] = copy.deepcopy(template.params[ref])
                else:
                    defined = sorted(set(inst.params) | set(template.params))
                    issues.append(
                        ScenarioIssue(
                            key(path, name),
                            f"'{value}' is defined neither in instances[{i}].params nor in "
                            f"{tpath}.params{suggest(ref, defined)}; defined parameters: "
                            f"{allowed(defined)}",
                        )
                    )
                    continue
                subs.append(Substitution(fcomp, name, ref, origin))
            if _add(flat, fcomp, issues):
                result.substitutions.extend(subs)


def _saturation_reference(flat: FlatScenario) -> None:
    """Copy a scenario-level ``saturation_reference`` other than ``dew`` to every coil.

    A coil's own ``saturation_reference`` parameter wins.
    """
    if flat.saturation_reference == "dew":
        return
    for comp in flat.components.values():
        if comp.type in ("Condenser", "Evaporator"):
            comp.params.setdefault("saturation_reference", flat.saturation_reference)
