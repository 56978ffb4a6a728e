"""Line sizing: the smallest standard copper tube meeting the saturation drop and oil return.

Who calls it: ``workbench.lines.size`` (and ``workbench lines size`` on the command line). It
re-solves the scenario with the line of one edge set to standard tubes
(:data:`workbench.correlations.line_sizes.TUBE_SERIES`, ASTM B280 drawn by default), each at
full capacity (the scenario as given) and at minimum capacity, and keeps the smallest size that

- holds the line's saturation-temperature drop ``T_sat(p_in) - T_sat(p_out)`` at or below
  ``max_saturation_drop_k`` at full capacity (the drop is largest there), and
- keeps a vapour suction or discharge line at or above the oil-return velocity
  (:func:`~workbench.components.exchangers.lines.component.oil_return_minimum`: 5.08 m/s in a
  riser, 2.54 m/s horizontal) at minimum capacity (the velocity is smallest there).

The drop falls and the velocity falls as the tube grows, so the sizes meeting both form an
interval: the smallest size meeting the drop is the answer when it meets the oil return too;
when it does not, no standard size meets both (the report says so: a double riser or a smaller
riser section is the usual way out).

**Minimum capacity**: the circuit's compressor at ``min_speed_hz`` when the scenario gives it;
otherwise at :data:`MIN_CAPACITY_FRACTION` of its speed (or of its fixed ``mass_flow_kg_s``).

The walk starts at the standard size nearest the given one and moves down while the drop is
met (or up until it is), so only the sizes around the answer are solved; every solve is in the
report's table. The charge cost is the line's charge at the proposed size minus at the given
one, at full capacity.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from workbench.components.exchangers.lines.component import oil_return_minimum
from workbench.correlations.line_sizes import TubeSize, tube_sizes
from workbench.errors import ScenarioError, ScenarioIssue
from workbench.scenario import FlatEdge, FlatScenario, as_flat
from workbench.scenario.types import ScenarioLike

__all__ = ["MIN_CAPACITY_FRACTION", "LineSizing", "size"]

MIN_CAPACITY_FRACTION = 0.5
"""Share of the compressor's speed (or fixed mass flow) taken as minimum capacity when the
scenario gives no ``min_speed_hz`` [-]."""

SOLVE_TIMEOUT_MS = 10_000
"""A candidate's solve stops after this long (a tube far too small may not solve at all)."""


@dataclass
class LineSizing:
    """The proposed size of one line and the sizes tried.

    Attributes
    ----------
    edge : str
        The edge's label ``src:port -> dst:port``.
    path : str
        Its JSON path.
    role : str
        ``suction``, ``discharge``, ``liquid`` or ``other``.
    max_saturation_drop_k : float
        The limit on the saturation-temperature drop at full capacity [K].
    oil_return_velocity_m_s : float or None
        The minimum velocity at minimum capacity [m/s]; None for a line without one.
    minimum_capacity : str
        How minimum capacity was set (``min_speed_hz = 20`` or the documented fraction).
    proposed : TubeSize or None
        The smallest standard size meeting the drop (None when none in the series does).
    complies : bool
        True when ``proposed`` also meets the oil-return velocity.
    charge_difference_kg : float or None
        Line charge at the proposed size minus at the given one [kg].
    table : pandas.DataFrame
        One row per solve pair: ``size``, ``outer_diameter_m``, ``inner_diameter_m``,
        ``saturation_drop_k``, ``saturation_drop_min_k``, ``velocity_m_s``,
        ``velocity_min_m_s``, ``line_charge_kg``, ``meets_drop``, ``meets_oil_return``,
        ``converged`` (the given size first, as ``given``).
    message : str
        One sentence for a report.
    """

    edge: str
    path: str
    role: str
    max_saturation_drop_k: float
    oil_return_velocity_m_s: float | None
    minimum_capacity: str
    proposed: TubeSize | None
    complies: bool
    charge_difference_kg: float | None
    table: pd.DataFrame = field(repr=False)
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every attribute, the table as records, the size as its label."""
        return {
            "edge": self.edge,
            "path": self.path,
            "role": self.role,
            "max_saturation_drop_k": self.max_saturation_drop_k,
            "oil_return_velocity_m_s": self.oil_return_velocity_m_s,
            "minimum_capacity": self.minimum_capacity,
            "proposed": None if self.proposed is None else self.proposed.label,
            "complies": self.complies,
            "charge_difference_kg": self.charge_difference_kg,
            "message": self.message,
            "table": self.table.to_dict(orient="records"),
        }


def _find_edge(flat: FlatScenario, edge: str | int) -> FlatEdge:
    lines = [e for e in flat.edges if e.line is not None]
    if isinstance(edge, int):
        if 0 <= edge < len(lines):
            return lines[edge]
    else:
        for e in lines:
            name = f"line {e.src}-{e.dst}"
            if edge in (f"{e.source} -> {e.target}", e.path, name):
                return e
    known = ", ".join(f"'{e.source} -> {e.target}' ({e.path})" for e in lines) or "none"
    raise ScenarioError(
        [ScenarioIssue("", f"no edge with a line matches {edge!r}; edges with lines: {known}")]
    )


def _minimum_capacity(doc: dict[str, Any], ci: int) -> str:
    """Set the circuit's compressor to minimum capacity in ``doc``; say how."""
    for comp in doc["circuits"][ci]["components"]:
        if comp["type"] != "Compressor":
            continue
        if "min_speed_hz" in comp:
            comp["speed_hz"] = comp["min_speed_hz"]
            return f"{comp['name']} at min_speed_hz = {comp['min_speed_hz']:g} Hz"
        if "mass_flow_kg_s" in comp:
            comp["mass_flow_kg_s"] *= MIN_CAPACITY_FRACTION
            return f"{comp['name']} at {MIN_CAPACITY_FRACTION:.0%} of its mass flow"
        speed = float(comp.get("speed_hz", 50.0))
        comp["speed_hz"] = MIN_CAPACITY_FRACTION * speed
        return f"{comp['name']} at {MIN_CAPACITY_FRACTION:.0%} of {speed:g} Hz"
    return "no compressor in the circuit: minimum capacity is full capacity"


def _solve_line(doc: dict[str, Any], path: str) -> tuple[dict[str, Any] | None, bool]:
    from workbench.solver import solve

    result = solve(doc)
    row = next((r for r in result.lines if r["path"] == path), None)
    return row, bool(result.converged)


def size(
    scenario: ScenarioLike, edge: str | int, max_saturation_drop_k: float = 1.0, *,
    series: str = "astm_b280_drawn",
) -> LineSizing:  # fmt: skip
    """The smallest standard tube for the line of ``edge`` (see module docstring).

    Parameters
    ----------
    scenario : ScenarioConfig, FlatScenario, dict, str or path
        A scenario with at least one edge carrying a ``line``.
    edge : str or int
        The edge: its label ``"evaporator:outlet -> compressor:inlet"``, its JSON path
        ``"circuits[0].edges[3]"``, the line's name ``"line evaporator-compressor"``, or the
        index among the edges with lines.
    max_saturation_drop_k : float
        Largest saturation-temperature drop at full capacity [K].
    series : str
        Tube series of :data:`workbench.correlations.line_sizes.TUBE_SERIES`.

    Returns
    -------
    LineSizing
        The proposal, the charge it costs and the table of the sizes tried.

    Raises
    ------
    ScenarioError
        The scenario is invalid or no edge with a line matches ``edge``.
    ValueError
        An unknown series or a limit not above 0.
    """
    if not max_saturation_drop_k > 0.0:
        raise ValueError(f"max_saturation_drop_k must be > 0, got {max_saturation_drop_k!r}")
    sizes = tube_sizes(series)
    flat = as_flat(scenario)
    target = _find_edge(flat, edge)
    assert target.line is not None
    doc = flat.to_dict()
    doc["solver"]["timeout_ms"] = SOLVE_TIMEOUT_MS
    ci = flat.circuits.index(target.circuit)
    k = flat.circuit_edges(target.circuit).index(target)
    low = copy.deepcopy(doc)
    how = _minimum_capacity(low, ci)
    from workbench.solver.lines import line_role

    role = line_role(flat, target)
    minimum = oil_return_minimum(role, target.line.elevation_m)
    label = f"{target.source} -> {target.target}"

    def trial(name: str, d_o: float, d_i: float) -> dict[str, Any]:
        rows = []
        for base in (doc, low):
            case = copy.deepcopy(base)
            line = case["circuits"][ci]["edges"][k]["line"]
            line.update(inner_diameter_m=d_i, outer_diameter_m=d_o)
            rows.append(_solve_line(case, target.path))
        (full, ok_full), (part, ok_part) = rows
        nan = math.nan
        drop = full["saturation_temperature_drop_k"] if full and ok_full else nan
        v_full = abs(full["velocity_m_s"]) if full and ok_full else nan
        v_min = abs(part["velocity_m_s"]) if part and ok_part else nan
        vapour = (part or {}).get("mean_quality") is None
        meets_oil = minimum is None or not vapour or (v_min >= minimum and v_full >= minimum)
        return {
            "size": name,
            "outer_diameter_m": d_o,
            "inner_diameter_m": d_i,
            "saturation_drop_k": drop,
            "saturation_drop_min_k": part["saturation_temperature_drop_k"]
            if part and ok_part
            else nan,
            "velocity_m_s": v_full,
            "velocity_min_m_s": v_min,
            "line_charge_kg": full["charge_kg"] if full and ok_full else nan,
            "meets_drop": bool(drop <= max_saturation_drop_k),
            "meets_oil_return": bool(meets_oil and ok_part),
            "converged": ok_full and ok_part,
        }

    d_given = target.line.inner_diameter_m
    given = trial("given", target.line.outer_diameter_m or d_given, d_given)
    tried: dict[int, dict[str, Any]] = {}

    def at(i: int) -> dict[str, Any]:
        if i not in tried:
            s = sizes[i]
            tried[i] = trial(s.label, s.outer_diameter_m, s.inner_diameter_m)
        return tried[i]

    i = min(range(len(sizes)), key=lambda j: abs(sizes[j].inner_diameter_m - d_given))
    best: int | None = None
    if at(i)["meets_drop"]:
        best = i
        while best > 0 and at(best - 1)["meets_drop"]:
            best -= 1
    else:
        while i + 1 < len(sizes):
            i += 1
            if at(i)["meets_drop"]:
                best = i
                break
    table = pd.DataFrame([given, *(tried[j] for j in sorted(tried))])
    proposed = sizes[best] if best is not None else None
    chosen = tried[best] if best is not None else None
    complies = bool(chosen and chosen["meets_oil_return"])
    cost = None
    if chosen is not None and math.isfinite(chosen["line_charge_kg"] - given["line_charge_kg"]):
        cost = float(chosen["line_charge_kg"] - given["line_charge_kg"])
    message = _message(label, proposed, chosen, complies, cost, max_saturation_drop_k, minimum)
    return LineSizing(
        label, target.path, role, max_saturation_drop_k, minimum, how, proposed, complies, cost,
        table, message,
    )  # fmt: skip


def _message(
    label: str, proposed: TubeSize | None, chosen: dict[str, Any] | None, complies: bool,
    cost: float | None, limit: float, minimum: float | None,
) -> str:  # fmt: skip
    if proposed is None or chosen is None:
        return f"{label}: no size of the series keeps the saturation drop within {limit:g} K"
    text = (
        f"{label}: {proposed.label} (saturation drop {chosen['saturation_drop_k']:.3f} K at full "
        f"capacity"
    )
    if minimum is not None:
        text += f", {chosen['velocity_min_m_s']:.2f} m/s at minimum capacity"
    text += ")"
    if cost is not None:
        text += f"; line charge {1e3 * cost:+.1f} g against the given size"
    if not complies:
        text += (
            f"; below the {minimum:.2f} m/s oil return needs at minimum capacity, and a larger "
            "tube is slower still: no standard size meets both (a double riser, or a smaller "
            "riser section)"
        )
    return text
