"""Measured quantities: which figure of a solve result a measurement column is compared with.

A measurement table's columns are either *conditions* (inputs set before each solve: the paths
of sweeps, :mod:`workbench.sweep.paths`) or *measured quantities* (read from the solve result).
A measured quantity's column name is one of:

- ``summary.<key>``: a figure of ``result.summary`` (``summary.heating_capacity_w``,
  ``summary.compressor_power_w``, ``summary.cop_heating`` ...) [W, -].
- ``<component>.<output>``: an entry of ``result.components`` (SI: W, K, Pa, kg/s), such as
  ``compressor.power``, ``condenser.capacity``, ``evaporator.superheat``.
- ``edges.<component>:<port>.<column>``: a column of the edge that leaves (or enters) that
  port, in the edge table's units: ``t_c`` [degC], ``p_bar`` [bar], ``h_kj_kg`` [kJ/kg],
  ``m_kg_s`` [kg/s], ``quality`` [-], ``s`` [kJ/(kg K)]; e.g. ``edges.compressor:outlet.t_c``
  (the discharge temperature).
- ``controls.<id>.<key>``: an entry of a control loop's result (``measured``, ``actuator``).

Who reads it: :func:`workbench.calibrate.calibrate`, which resolves every column once against
the flat scenario (a bad path fails before anything is solved, naming the column) and reads
the values after each solve.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from workbench.errors import ScenarioError, ScenarioIssue
from workbench.scenario import FlatScenario
from workbench.solver import SUMMARY_KEYS, SolveResult

__all__ = ["EDGE_COLUMNS", "Quantity", "read_quantity", "resolve_quantity"]

EDGE_COLUMNS = ("t_c", "p_bar", "h_kj_kg", "m_kg_s", "quality", "s")
"""Edge-table columns a measured ``edges.`` quantity may read (the edge table's units)."""

TEMPERATURE_OUTPUTS = frozenset(
    ("temperature", "saturationTemperature", "superheat", "subcooling", "t_c")
)
"""Outputs in K (or the edges' degC): their default uncertainty is absolute, not relative."""


@dataclass(frozen=True)
class Quantity:
    """A resolved measured quantity.

    Attributes
    ----------
    path : str
        The column name as written.
    kind : str
        ``"summary"``, ``"component"``, ``"edge"`` or ``"control"``.
    owner : str
        Component name, edge label (``"a:outlet -> b:inlet"``) or control id (empty for the
        summary).
    key : str
        Summary key, output name, edge column or control key.
    """

    path: str
    kind: str
    owner: str
    key: str

    @property
    def is_temperature(self) -> bool:
        """True for a temperature or temperature difference [K or degC]."""
        return self.key in TEMPERATURE_OUTPUTS or self.key.endswith("_temperature")


def _fail(path: str, message: str) -> ScenarioError:
    return ScenarioError([ScenarioIssue(f"measurements[{path!r}]", message)], source="calibrate")


def _edge_label(flat: FlatScenario, port: str) -> str | None:
    """The label of the edge that leaves or enters ``<component>:<port>``."""
    for edge in flat.edges:
        if port in (edge.source, edge.target):
            return f"{edge.source} -> {edge.target}"
    return None


def resolve_quantity(flat: FlatScenario, path: str) -> Quantity:
    """Resolve a measured-quantity column against a flat scenario.

    Parameters
    ----------
    flat : FlatScenario
        The scenario being calibrated.
    path : str
        The column name (see the module docstring).

    Returns
    -------
    Quantity

    Raises
    ------
    ScenarioError
        The path names no summary key, component, edge column or control loop; the message
        names the column and lists what exists.
    """
    if path.startswith("summary."):
        key = path[len("summary.") :]
        if key not in SUMMARY_KEYS:
            raise _fail(path, f"summary has no {key!r}; keys: {', '.join(SUMMARY_KEYS)}")
        return Quantity(path, "summary", "", key)
    if path.startswith("edges."):
        port, _, column = path[len("edges.") :].rpartition(".")
        if column not in EDGE_COLUMNS:
            raise _fail(
                path,
                f"an edge quantity is edges.<component>:<port>.<column>, column one of "
                f"{', '.join(EDGE_COLUMNS)}",
            )
        label = _edge_label(flat, port)
        if label is None:
            ports = [e.source for e in flat.edges]
            raise _fail(path, f"no edge at port {port!r}; ports: {', '.join(ports)}")
        return Quantity(path, "edge", label, column)
    names = [n for n in flat.components if path.startswith(n + ".") and len(path) > len(n) + 1]
    if names:
        owner = max(names, key=len)
        return Quantity(path, "component", owner, path[len(owner) + 1 :])
    if path.startswith("controls."):
        ids = [c.id for c in flat.controls]
        rest = path[len("controls.") :]
        matches = [i for i in ids if rest.startswith(i + ".")]
        if matches:
            cid = max(matches, key=len)
            return Quantity(path, "control", cid, rest[len(cid) + 1 :])
    raise _fail(
        path,
        "not a condition (<component>.<parameter>, controls.<id>.<field>, solver.<field>) nor a "
        "measured quantity (summary.<key>, <component>.<output>, edges.<component>:<port>.<column>, "
        f"controls.<id>.<key>); components: {', '.join(flat.components)}",
    )


def read_quantity(result: SolveResult, quantity: Quantity) -> float | None:
    """The value of a measured quantity in a result (None when the result has none).

    Parameters
    ----------
    result : SolveResult
        A solve's result.
    quantity : Quantity
        The resolved quantity.

    Returns
    -------
    float or None
        In the quantity's units (see the module docstring).
    """
    value: Any
    if quantity.kind == "summary":
        value = result.summary.get(quantity.key)
    elif quantity.kind == "component":
        value = (result.components.get(quantity.owner) or {}).get(quantity.key)
    elif quantity.kind == "edge":
        value = next(
            (
                row.get(quantity.key)
                for row in result.edge_rows
                if row.get("edge") == quantity.owner
            ),
            None,
        )
    else:
        value = next(
            (e.get(quantity.key) for e in result.controls if e.get("id") == quantity.owner), None
        )
    if value is None or isinstance(value, bool | str):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None
