"""Semantic validation of a scenario: every rule beyond types, all problems at once.

Rules (each problem names its JSON path, what is wrong and what is allowed):

- ``fluid`` known to ``fluid_backend`` (the message names the closest fluid names).

- ``schema_version`` "1" may not use ``controls``, ``subsystems``, ``instances``, ``connections``.
- Components: known ``type``; parameters the type defines, of the right kind, within bounds;
  at most one parameter of each alternatives group (read from the component catalog).
- Templates: unique local names, internal edges and ``ports`` that name their own components
  and existing ports; instance ``params`` that the template uses; ``$name`` values checked
  after substitution.
- Edges: ``<component>:<port>`` endpoints of existing components and ports, inside one circuit;
  a source port is an outlet and a target port an inlet; each port joined by at most one edge.
- Branching circuits (:mod:`.branches`): junction ports connected and numbered without gaps,
  no dangling branch, flows that can balance at every junction, splitter fractions that fit.
- Names unique per circuit and across circuits after flattening (see :mod:`.expand`).
- Controls: unique ids; measured component and actuator component exist after flattening;
  ``output`` is one of the type's outputs; ``factor`` one of the type's factors (legacy ``f_``
  accepted); ``min < max`` and ``min <= initial <= max``.
- Thermal couplings: existing circuit ids, ``hot_circuit != cold_circuit``.
- Charge (:mod:`.charge_checks`): a fixed ``charge_kg`` without a subcooling spec beside it and
  with volumes to hold it; a ``safety`` block for a fluid with safety data.
- Refrigerant lines of edges (:mod:`.line_checks`): diameters, fittings, not both ``volume_m3``
  and ``line``.
- The fluid's critical point (:mod:`.critical`): condensers and evaporators below it, gas
  coolers with a backend and correlation that reach above it.
- Connections of circuits without junctions: every port joined, no unconnected component, one
  connected graph per circuit (:mod:`.connectivity`; branching circuits: :mod:`.branches`).
- Physical ranges: temperatures inside their fluids' ranges, Kelvin fields that look like
  Celsius, secondary fluid names (:mod:`.physical`).

These checks only read: the scenario as written and its expansion
(:func:`workbench.scenario.expand.expand`), and they report problems as
:class:`~workbench.errors.ScenarioIssue` values. Nothing here builds a part of the flat
scenario; :func:`workbench.scenario.compile.flatten` runs expand -> check -> raise.
"""

from __future__ import annotations

from workbench.components.catalog.specs import (
    CALIBRATION_FACTORS,
    get_spec,
    normalise_factor,
    port_role,
)
from workbench.errors import ScenarioIssue, UnknownFluidError
from workbench.fluids.names import resolve_backend, resolve_fluid
from workbench.scenario.blend_reach import check_blend_reach
from workbench.scenario.branches import check_branches
from workbench.scenario.charge_checks import check_charge
from workbench.scenario.connectivity import check_connectivity
from workbench.scenario.critical import check_critical_point
from workbench.scenario.expand import Expansion
from workbench.scenario.flat import FlatScenario
from workbench.scenario.line_checks import check_lines
from workbench.scenario.models import (
    V2_ONLY_FIELDS,
    ScenarioConfig,
    SubsystemTemplate,
    ThermalCouplingConfig,
)
from workbench.scenario.params import check_component, check_value
from workbench.scenario.paths import allowed, key, suggest
from workbench.scenario.physical import check_physical
from workbench.scenario.property_bounds import check_property_bounds
from workbench.scenario.refs import is_param_ref, normal_param_name, split_endpoint

__all__ = ["check_expansion"]


def check_expansion(scenario: ScenarioConfig, expansion: Expansion) -> list[ScenarioIssue]:
    """Run every semantic rule on a scenario and its expansion.

    Parameters
    ----------
    scenario : ScenarioConfig
        The scenario as written.
    expansion : Expansion
        What :func:`~workbench.scenario.expand.expand` built from it.

    Returns
    -------
    list of ScenarioIssue
        Every problem, in document order of the rules: the document (fluid, schema version,
        components, templates, instances), then what the expansion could not build, then the
        flat scenario (substituted values, edge ports, controls, couplings). Empty when the
        scenario is valid.
    """
    issues: list[ScenarioIssue] = []
    if not scenario.fluid.strip():
        issues.append(ScenarioIssue("fluid", "the working fluid name must not be empty"))
    else:
        issues.extend(_check_fluid(scenario.fluid, scenario.fluid_backend))
    if scenario.schema_version == "1":
        for name in V2_ONLY_FIELDS:
            if getattr(scenario, name):
                issues.append(
                    ScenarioIssue(
                        name,
                        f'\'{name}\' needs schema version 2; set "schema_version": "2" at the '
                        "top level of the document",
                    )
                )
    for i, circuit in enumerate(scenario.circuits):
        if circuit.fluid is None and circuit.fluid_backend is None:
            pass
        elif scenario.schema_version == "1":
            name = "fluid" if circuit.fluid is not None else "fluid_backend"
            issues.append(
                ScenarioIssue(
                    f"circuits[{i}].{name}",
                    'one fluid per circuit needs schema version 2; set "schema_version": '
                    '"2" at the top level of the document',
                )
            )
        else:
            for issue in _check_fluid(
                circuit.fluid or scenario.fluid, circuit.fluid_backend or scenario.fluid_backend
            ):
                issues.append(ScenarioIssue(f"circuits[{i}].{issue.path}", issue.message))
        for k, comp in enumerate(circuit.components):
            check_component(comp, f"circuits[{i}].components[{k}]", issues, in_template=False)
    for name, template in scenario.subsystems.items():
        _check_template(name, template, issues)
    _check_instances(scenario, issues)

    issues.extend(expansion.issues)
    flat = expansion.flat
    for sub in expansion.substitutions:
        spec = get_spec(sub.component.type)
        pspec = spec.param(sub.key) if spec is not None else None
        if pspec is None:
            continue  # reported on the template
        value = sub.component.params[sub.key]
        for suffix, message in check_value(pspec, value):
            issues.append(
                ScenarioIssue(
                    key(sub.component.path, sub.key) + suffix,
                    f"{message} (value of ${sub.ref} from {sub.origin})",
                )
            )
    if not scenario.instances and not any(c.components for c in scenario.circuits):
        issues.append(
            ScenarioIssue(
                "circuits",
                "the scenario has no components; add a circuit with components, or instances "
                "of subsystem templates",
            )
        )
    _check_edge_ports(flat, issues)
    if not issues:
        # only a graph whose every edge was built: an edge that failed a rule above would
        # show up again as open ports (reported once, where it is)
        issues.extend(check_connectivity(flat))
    issues.extend(check_branches(flat))
    _check_controls(scenario, flat, issues)
    _check_couplings(scenario, flat, issues)
    issues.extend(check_charge(flat))
    issues.extend(check_lines(flat))
    issues.extend(check_critical_point(scenario, flat))
    issues.extend(check_blend_reach(flat))
    origins = {
        (s.component.name, s.key): f"${s.ref} from {s.origin}" for s in expansion.substitutions
    }
    issues.extend(check_physical(scenario, flat, origins))
    issues.extend(check_property_bounds(scenario, flat))
    return issues


def _check_template(name: str, template: SubsystemTemplate, issues: list[ScenarioIssue]) -> None:
    tpath = key("subsystems", name)
    local: dict[str, int] = {}
    types: dict[str, str] = {}
    for k, comp in enumerate(template.components):
        cpath = f"{tpath}.components[{k}]"
        spec = check_component(comp, cpath, issues, in_template=True)
        if comp.name in local:
            issues.append(
                ScenarioIssue(
                    f"{cpath}.name",
                    f"duplicate component name '{comp.name}' in template '{name}' (first at "
                    f"{tpath}.components[{local[comp.name]}]); names must be unique",
                )
            )
            continue
        local[comp.name] = k
        if spec is not None:
            types[comp.name] = comp.type
    for e, edge in enumerate(template.edges):
        for field_name, endpoint in (("from", edge.src), ("to", edge.dst)):
            _check_local_endpoint(
                endpoint, f"{tpath}.edges[{e}].{field_name}", name, local, types, issues
            )
    for port_name, endpoint in template.ports.items():
        ppath = key(f"{tpath}.ports", port_name)
        if ":" in port_name or "." in port_name or not port_name:
            issues.append(
                ScenarioIssue(
                    ppath,
                    f"external port name '{port_name}' must be non-empty without ':' or '.' "
                    "(connections write it as <instance>.<port>)",
                )
            )
        _check_local_endpoint(endpoint, ppath, name, local, types, issues)


def _check_local_endpoint(
    endpoint: str,
    path: str,
    template: str,
    local: dict[str, int],
    types: dict[str, str],
    issues: list[ScenarioIssue],
) -> None:
    parsed = split_endpoint(endpoint)
    if parsed is None:
        issues.append(
            ScenarioIssue(
                path,
                f"endpoint '{endpoint}' must have the shape <component>:<port> with a component "
                f"of template '{template}', e.g. 'compressor:inlet'",
            )
        )
        return
    comp, port = parsed
    if comp not in local:
        issues.append(
            ScenarioIssue(
                path,
                f"template '{template}' has no component '{comp}'{suggest(comp, local)}; its "
                f"components: {allowed(local)}",
            )
        )
        return
    spec = get_spec(types.get(comp, ""))
    if spec is not None and not spec.has_port(port):
        issues.append(
            ScenarioIssue(
                path,
                f"{spec.type_name} '{comp}' has no port '{port}'{suggest(port, spec.ports)}; "
                f"ports of {spec.type_name}: {spec.port_names_text}",
            )
        )


def _template_refs(template: SubsystemTemplate) -> set[str]:
    refs = set()
    for comp in template.components:
        for value in comp.parameters.values():
            if is_param_ref(value):
                refs.add(value[1:])
    return refs


def _check_instances(scenario: ScenarioConfig, issues: list[ScenarioIssue]) -> None:
    for i, inst in enumerate(scenario.instances):
        if not inst.name or "." in inst.name or ":" in inst.name:
            issues.append(
                ScenarioIssue(
                    f"instances[{i}].name",
                    f"instance name '{inst.name}' must be non-empty without '.' or ':' (it "
                    "becomes the prefix <name>. of the expanded components)",
                )
            )
        template = scenario.subsystems.get(inst.of)
        if template is None:
            continue  # reported by the expansion
        known = sorted(set(template.params) | _template_refs(template))
        for param in inst.params:
            if param not in known:
                issues.append(
                    ScenarioIssue(
                        key(f"instances[{i}].params", param),
                        f"template '{inst.of}' neither defines nor uses parameter '{param}'"
                        f"{suggest(param, known)}; its parameters: {allowed(known)}",
                    )
                )


def _check_edge_ports(flat: FlatScenario, issues: list[ScenarioIssue]) -> None:
    used: dict[tuple[str, str], str] = {}
    for edge in flat.edges:
        for end, name, port, wanted in (
            ("from", edge.src, edge.src_port, "outlet"),
            ("to", edge.dst, edge.dst_port, "inlet"),
        ):
            epath = f"{edge.path}.{end}"
            if port_role(port) != wanted:
                spec = get_spec(flat.components[name].type)
                ports = [p for p in (spec.ports if spec else ()) if port_role(p) == wanted]
                issues.append(
                    ScenarioIssue(
                        epath,
                        f"'{name}:{port}' cannot be the {'source' if end == 'from' else 'target'} "
                        f"of an edge: flow leaves a component through an outlet and enters "
                        f"through an inlet; {wanted} ports of '{name}': {allowed(ports)}",
                    )
                )
                continue
            if (name, port) in used:
                issues.append(
                    ScenarioIssue(
                        epath,
                        f"port '{name}:{port}' is already joined by {used[(name, port)]}; each "
                        "port takes exactly one edge",
                    )
                )
            else:
                used[(name, port)] = edge.path


def _check_controls(
    scenario: ScenarioConfig, flat: FlatScenario, issues: list[ScenarioIssue]
) -> None:
    seen: dict[str, int] = {}
    names = list(flat.components)
    for i, control in enumerate(scenario.controls):
        path = f"controls[{i}]"
        label = f"control loop '{control.id}'"
        if control.id in seen:
            issues.append(
                ScenarioIssue(
                    f"{path}.id",
                    f"duplicate control id '{control.id}' (also controls[{seen[control.id]}]); "
                    "ids must be unique",
                )
            )
        else:
            seen[control.id] = i
        measured = flat.components.get(control.measure.component)
        if measured is None:
            issues.append(
                ScenarioIssue(
                    f"{path}.measure.component",
                    f"{label} measures unknown component '{control.measure.component}'"
                    f"{suggest(control.measure.component, names)}; components after "
                    f"flattening: {allowed(names)}",
                )
            )
        else:
            spec = get_spec(measured.type)
            if spec is not None and control.measure.output not in spec.outputs:
                issues.append(
                    ScenarioIssue(
                        f"{path}.measure.output",
                        f"{label}: {spec.type_name} '{measured.name}' has no output "
                        f"'{control.measure.output}'{suggest(control.measure.output, spec.outputs)}; "
                        f"outputs of {spec.type_name}: {allowed(spec.outputs)}",
                    )
                )
        act = control.actuator
        factor = normal_param_name(act.factor)
        actuated = flat.components.get(act.component)
        if actuated is None:
            issues.append(
                ScenarioIssue(
                    f"{path}.actuator.component",
                    f"{label} actuates unknown component '{act.component}'"
                    f"{suggest(act.component, names)}; components after flattening: "
                    f"{allowed(names)}",
                )
            )
        else:
            spec = get_spec(actuated.type)
            if spec is not None and factor not in spec.factors:
                issues.append(
                    ScenarioIssue(
                        f"{path}.actuator.factor",
                        f"{label}: {spec.type_name} '{actuated.name}' has no calibration factor "
                        f"'{act.factor}'{suggest(normalise_factor(act.factor), spec.factors)}; "
                        f"factors of {spec.type_name}: {allowed(spec.factors)} (legacy f_ names "
                        "accepted)",
                    )
                )
        if actuated is None and factor not in CALIBRATION_FACTORS:
            issues.append(
                ScenarioIssue(
                    f"{path}.actuator.factor",
                    f"{label}: unknown calibration factor '{act.factor}'; factors: "
                    f"{allowed(CALIBRATION_FACTORS)} (legacy f_ names accepted)",
                )
            )
        if not act.min < act.max:
            issues.append(
                ScenarioIssue(
                    f"{path}.actuator",
                    f"{label}: min ({act.min:g}) must be less than max ({act.max:g})",
                )
            )
        elif not act.min <= act.initial <= act.max:
            issues.append(
                ScenarioIssue(
                    f"{path}.actuator.initial",
                    f"{label}: initial {act.initial:g} is outside [min, max] = "
                    f"[{act.min:g}, {act.max:g}]",
                )
            )


def _check_couplings(
    scenario: ScenarioConfig, flat: FlatScenario, issues: list[ScenarioIssue]
) -> None:
    ids = [str(c) for c in flat.circuits]
    for i, coupling in enumerate(scenario.thermal_couplings):
        path = f"thermal_couplings[{i}]"
        for field_name in ("hot_circuit", "cold_circuit"):
            cid = getattr(coupling, field_name)
            if cid not in flat.circuits:
                issues.append(
                    ScenarioIssue(
                        f"{path}.{field_name}",
                        f"circuit {cid} does not exist; circuit ids (after flattening): "
                        f"{allowed(ids)}",
                    )
                )
        issues.extend(_coupling_exchanger_issues(coupling, path))
        if coupling.hot_circuit == coupling.cold_circuit:
            issues.append(
                ScenarioIssue(
                    path,
                    f"hot_circuit and cold_circuit are both {coupling.hot_circuit}; a coupling "
                    "joins two different circuits",
                )
            )


def _coupling_exchanger_issues(coupling: ThermalCouplingConfig, path: str) -> list[ScenarioIssue]:
    """Exactly one of ``ua`` or ``geometry``; a geometry's problems at their keys."""
    if (coupling.ua is None) == (coupling.geometry is None):
        given = "both" if coupling.ua is not None else "neither"
        return [
            ScenarioIssue(
                path,
                f"give exactly one of ua (a conductance, W/K) or geometry (the exchanger's "
                f"hardware, kind brazed_plate); {given} given",
            )
        ]
    if coupling.geometry is None:
        return []
    from workbench.components.exchangers.plate.cascade import cascade_geometry_problems

    return [
        ScenarioIssue(f"{path}.geometry{sub}", message)
        for sub, message in cascade_geometry_problems(coupling.geometry)
    ]


def _check_fluid(fluid: str, backend: str | None) -> list[ScenarioIssue]:
    """An unknown backend, or a fluid the backend does not know (with the closest names)."""
    try:
        backend = resolve_backend(backend)
    except UnknownFluidError as exc:
        return [ScenarioIssue("fluid_backend", str(exc))]
    try:
        resolve_fluid(fluid, backend)
    except UnknownFluidError as exc:
        return [ScenarioIssue("fluid", str(exc))]
    return []
