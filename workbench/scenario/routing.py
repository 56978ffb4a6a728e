"""Route edges and connections into circuits, checking endpoints and ports.

Circuit edges must join components of their own circuit; template edges are renamed per
instance; ``connections`` resolve ``<instance>.<external_port>`` through the template's ``ports``
or take a literal ``<component>:<port>``, and land in the circuit that owns both ends. An edge
whose ends lie in two circuits is an error pointing to ``thermal_couplings``.
"""

from __future__ import annotations

from workbench.components.catalog.specs import get_spec
from workbench.errors import ScenarioIssue
from workbench.scenario.flat import FlatComponent, FlatEdge, FlatScenario
from workbench.scenario.models import EdgeConfig, ScenarioConfig
from workbench.scenario.paths import allowed, key, suggest
from workbench.scenario.refs import instance_path, split_endpoint

__all__ = ["add_circuit_edge", "add_connection", "add_instance_edges"]


def _endpoint(endpoint: str, path: str, issues: list[ScenarioIssue]) -> tuple[str, str] | None:
    parsed = split_endpoint(endpoint)
    if parsed is None:
        issues.append(
            ScenarioIssue(
                path,
                f"endpoint '{endpoint}' must have the shape <component>:<port>, e.g. 'valve:inlet'",
            )
        )
    return parsed


def _check_port(
    flat: FlatScenario, name: str, port: str, path: str, issues: list[ScenarioIssue]
) -> bool:
    comp = flat.components[name]
    spec = get_spec(comp.type)
    if spec is None or spec.has_port(port):
        return spec is not None
    issues.append(
        ScenarioIssue(
            path,
            f"{comp.type} '{name}' has no port '{port}'{suggest(port, spec.ports)}; "
            f"ports of {comp.type}: {spec.port_names_text}",
        )
    )
    return False


def _cross_circuit(a: FlatComponent, b: FlatComponent) -> str:
    return (
        f"'{a.name}' is in circuit {a.circuit} and '{b.name}' in circuit {b.circuit}: an edge "
        "cannot join two circuits (their fluids do not mix); exchange heat between circuits "
        "with thermal_couplings instead"
    )


def add_circuit_edge(
    flat: FlatScenario, cid: int, edge: EdgeConfig, path: str, issues: list[ScenarioIssue]
) -> None:
    """Add a circuit's edge to the flat graph, or report why it cannot join its ends.

    Parameters
    ----------
    flat : FlatScenario
        The flat graph being built; the edge is appended to ``flat.edges``.
    cid : int
        Index of the circuit the edge belongs to.
    edge : EdgeConfig
        The edge as written (``from`` and ``to`` endpoints ``<component>:<port>``).
    path : str
        JSON path of the edge, for the issues.
    issues : list of ScenarioIssue
        Appended to: an endpoint of the wrong shape, an unknown component, a component of
        another circuit, a port the component does not have.
    """
    ends = []
    for field_name, endpoint in (("from", edge.src), ("to", edge.dst)):
        epath = f"{path}.{field_name}"
        parsed = _endpoint(endpoint, epath, issues)
        if parsed is None:
            continue
        name, port = parsed
        comp = flat.components.get(name)
        if comp is None:
            names = [c.name for c in flat.circuit_components(cid)]
            issues.append(
                ScenarioIssue(
                    epath,
                    f"unknown component '{name}' in circuit {cid}{suggest(name, names)}; "
                    f"components of circuit {cid}: {allowed(names)}",
                )
            )
            continue
        if comp.circuit != cid:
            issues.append(
                ScenarioIssue(
                    epath,
                    f"component '{name}' is in circuit {comp.circuit}, not in circuit {cid}: an "
                    "edge cannot join two circuits; exchange heat between circuits with "
                    "thermal_couplings instead",
                )
            )
            continue
        if _check_port(flat, name, port, epath, issues):
            ends.append((name, port))
    if len(ends) == 2:
        (src, sp), (dst, dp) = ends
        flat.edges.append(FlatEdge(src, sp, dst, dp, cid, path, edge.volume_m3, edge.line))


def add_instance_edges(scenario: ScenarioConfig, flat: FlatScenario) -> None:
    """Internal template edges, renamed; invalid ones are reported on the template."""
    done: set[str] = set()
    for i, inst in enumerate(scenario.instances):
        template = scenario.subsystems.get(inst.of)
        if template is None or inst.name in done:
            continue
        done.add(inst.name)
        for e, edge in enumerate(template.edges):
            src, dst = split_endpoint(edge.src), split_endpoint(edge.dst)
            if src is None or dst is None:
                continue
            a, b = f"{inst.name}.{src[0]}", f"{inst.name}.{dst[0]}"
            ca, cb = flat.components.get(a), flat.components.get(b)
            if ca is None or cb is None or not ca.path.startswith(f"instances[{i}] "):
                continue
            specs = get_spec(ca.type), get_spec(cb.type)
            if specs[0] is None or specs[1] is None:
                continue
            if not specs[0].has_port(src[1]) or not specs[1].has_port(dst[1]):
                continue
            tpath = instance_path(i, inst.name, f"{key('subsystems', inst.of)}.edges[{e}]")
            flat.edges.append(
                FlatEdge(a, src[1], b, dst[1], inst.circuit, tpath, edge.volume_m3, edge.line)
            )


def _resolve_connection_end(
    scenario: ScenarioConfig,
    flat: FlatScenario,
    endpoint: str,
    path: str,
    issues: list[ScenarioIssue],
) -> tuple[str, str] | None:
    if ":" in endpoint:
        parsed = _endpoint(endpoint, path, issues)
        if parsed is None:
            return None
        name, port = parsed
        if name not in flat.components:
            names = list(flat.components)
            issues.append(
                ScenarioIssue(
                    path,
                    f"unknown component '{name}'{suggest(name, names)}; components after "
                    f"flattening: {allowed(names)}",
                )
            )
            return None
        return (name, port) if _check_port(flat, name, port, path, issues) else None
    if "." not in endpoint:
        issues.append(
            ScenarioIssue(
                path,
                f"endpoint '{endpoint}' must be <instance>.<external_port> or "
                "<component>:<port>, e.g. 'unit_a.suction_out' or 'unit_a.compressor:inlet'",
            )
        )
        return None
    inst_name, port_name = endpoint.split(".", 1)
    index = next((i for i, x in enumerate(scenario.instances) if x.name == inst_name), None)
    if index is None:
        names = [x.name for x in scenario.instances]
        issues.append(
            ScenarioIssue(
                path,
                f"unknown instance '{inst_name}'{suggest(inst_name, names)}; instances: "
                f"{allowed(names)}",
            )
        )
        return None
    inst = scenario.instances[index]
    template = scenario.subsystems.get(inst.of)
    if template is None:
        return None  # reported on the instance
    if port_name not in template.ports:
        ports = list(template.ports)
        issues.append(
            ScenarioIssue(
                path,
                f"template '{inst.of}' of instance '{inst_name}' has no external port "
                f"'{port_name}'{suggest(port_name, ports)}; its ports: {allowed(ports)}",
            )
        )
        return None
    target = split_endpoint(template.ports[port_name])
    if target is None:
        return None  # reported on the template
    name = f"{inst_name}.{target[0]}"
    comp = flat.components.get(name)
    if comp is None or not comp.path.startswith(f"instances[{index}] "):
        return None  # reported on the template
    spec = get_spec(comp.type)
    if spec is None or not spec.has_port(target[1]):
        return None  # reported on the template
    return name, target[1]


def add_connection(
    scenario: ScenarioConfig,
    flat: FlatScenario,
    edge: EdgeConfig,
    path: str,
    issues: list[ScenarioIssue],
) -> None:
    """Add one of the scenario's ``connections`` to the flat graph, or report why it cannot.

    Each end is ``<instance>.<external_port>`` (through the template's ``ports``) or a literal
    ``<component>:<port>``; the edge lands in the circuit that owns both ends.

    Parameters
    ----------
    scenario : ScenarioConfig
        The parsed scenario (its templates and instances resolve the ends).
    flat : FlatScenario
        The flat graph being built; the edge is appended to ``flat.edges``.
    edge : EdgeConfig
        The connection as written.
    path : str
        JSON path of the connection, for the issues.
    issues : list of ScenarioIssue
        Appended to: an end that resolves to nothing, or ends in two circuits.
    """
    src = _resolve_connection_end(scenario, flat, edge.src, f"{path}.from", issues)
    dst = _resolve_connection_end(scenario, flat, edge.dst, f"{path}.to", issues)
    if src is None or dst is None:
        return
    a, b = flat.components[src[0]], flat.components[dst[0]]
    if a.circuit != b.circuit:
        issues.append(ScenarioIssue(path, _cross_circuit(a, b)))
        return
    flat.edges.append(
        FlatEdge(src[0], src[1], dst[0], dst[1], a.circuit, path, edge.volume_m3, edge.line)
    )
