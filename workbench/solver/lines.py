"""Refrigerant lines into the system: each edge with a ``"line"`` becomes a line component.

Who calls it: :func:`workbench.solver.system.build_system`, before the topology. An edge
``a:outlet -> b:inlet`` with a line becomes ``a:outlet -> <line>:inlet`` and
``<line>:outlet -> b:inlet`` around an internal ``RefrigerantLine`` component
(:mod:`workbench.components.exchangers.lines`), so the line's pressure drop and heat gain are
two equations of the Newton system and its outlet state two more unknowns. The user's flat
scenario is left as it is (``workbench flatten`` shows the edge and its line); the system's
``flat`` is the expanded copy, so the result's edges show the states at both ends of a line.

The line is named ``line <src>-<dst>`` (with the ports when two lines join the same
components) and remembers its edge's label and JSON path; its role (suction, discharge, liquid,
other) follows from its neighbours, for the oil-return checks.
"""

from __future__ import annotations

import copy

from workbench.scenario import FlatComponent, FlatEdge, FlatScenario

__all__ = ["LINE_TYPE", "line_names", "line_role", "with_lines"]

LINE_TYPE = "RefrigerantLine"
"""The internal component type of a line."""

_COMPRESSORS = ("Compressor", "InjectionCompressor")


def line_role(flat: FlatScenario, edge: FlatEdge) -> str:
    """What a line carries, from the types of its two ends.

    Returns
    -------
    str
        ``discharge`` out of a compressor, ``suction`` into a compressor or accumulator or out
        of an evaporator, ``liquid`` out of a condenser, gas cooler or receiver or into an
        expansion valve, else ``other``.
    """
    src, dst = flat.components[edge.src].type, flat.components[edge.dst].type
    if src in _COMPRESSORS:
        return "discharge"
    if dst in (*_COMPRESSORS, "Accumulator") or src == "Evaporator":
        return "suction"
    if src in ("Condenser", "GasCooler", "Receiver") or dst == "ExpansionValve":
        return "liquid"
    return "other"


def _name(edge: FlatEdge, taken: set[str]) -> str:
    name = f"line {edge.src}-{edge.dst}"
    if name in taken:
        name = f"line {edge.src}.{edge.src_port}-{edge.dst}.{edge.dst_port}"
    base, n = name, 2
    while name in taken:
        name, n = f"{base} ({n})", n + 1
    return name


def line_names(flat: FlatScenario) -> dict[str, FlatEdge]:
    """The name each line component of ``flat`` will have, and its edge (document order).

    Parameters
    ----------
    flat : FlatScenario
        The flat scenario.

    Returns
    -------
    dict of str to FlatEdge
        ``line <src>-<dst>`` (see :func:`with_lines`) -> the edge it stands for.
    """
    taken = set(flat.components)
    out: dict[str, FlatEdge] = {}
    for edge in flat.edges:
        if edge.line is not None:
            name = _name(edge, taken)
            taken.add(name)
            out[name] = edge
    return out


def with_lines(flat: FlatScenario) -> FlatScenario:
    """The flat scenario with a line component in every edge that has a ``line``.

    Parameters
    ----------
    flat : FlatScenario
        The validated flat scenario (not changed).

    Returns
    -------
    FlatScenario
        ``flat`` itself when no edge has a line; else a shallow copy whose components end with
        the line components and whose edges have each line edge split in two (in place, so
        the document order of the other edges is kept).
    """
    if not any(e.line is not None for e in flat.edges):
        return flat
    out = copy.copy(flat)
    out.components = dict(flat.components)
    out.edges = []
    names = {id(edge): name for name, edge in line_names(flat).items()}
    for edge in flat.edges:
        if edge.line is None:
            out.edges.append(edge)
            continue
        name = names[id(edge)]
        out.components[name] = FlatComponent(
            name,
            LINE_TYPE,
            edge.circuit,
            {
                "line": edge.line.model_dump(),
                "edge": f"{edge.source} -> {edge.target}",
                "edge_path": edge.path,
                "role": line_role(flat, edge),
            },
            f"{edge.path}.line",
        )
        out.edges.append(FlatEdge(edge.src, edge.src_port, name, "inlet", edge.circuit, edge.path))
        out.edges.append(
            FlatEdge(name, "outlet", edge.dst, edge.dst_port, edge.circuit, f"{edge.path}.line")
        )
    return out
