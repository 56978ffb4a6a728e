"""The internal ``RefrigerantLine`` type: the line of an edge, inserted by the solver.

Not a type a scenario names: an edge with ``"line": {...}`` (issue 41, docs/lines.md) becomes,
at assembly (:mod:`workbench.solver.lines`), this component between the edge's two ports. It is
listed in :data:`workbench.components.catalog.specs.INTERNAL_TYPES`, which :func:`get_spec`
reads after the public table, and kept out of ``COMPONENT_TYPES`` (schema, docs, validation).
"""

from __future__ import annotations

from workbench.components.catalog.types import ComponentSpec, ParamSpec

__all__ = ["LINE_ROLES", "REFRIGERANT_LINE"]

LINE_ROLES = ("suction", "discharge", "liquid", "other")
"""What a line carries, from its neighbours: suction (into a compressor), discharge (out of
one), liquid (out of a condenser or receiver, into a valve) or other."""

REFRIGERANT_LINE = ComponentSpec(
    type_name="RefrigerantLine",
    description=(
        "Refrigerant line of an edge (internal): friction, fittings and static head, heat "
        "exchanged with the ambient, charge (docs/lines.md)"
    ),
    ports=("inlet", "outlet"),
    params=(
        ParamSpec("line", "object", "", "the edge's line block (LineConfig)"),
        ParamSpec("edge", "string", "", "label of the edge the line stands for"),
        ParamSpec("edge_path", "string", "", "JSON path of the edge"),
        ParamSpec("role", "string", "", "what the line carries", choices=LINE_ROLES),
    ),
    outputs=("massFlowRate", "pressure", "temperature"),
    factors=(),
)
"""The line component's spec: two ports, its edge's line block as parameters."""
