"""A parameter sweep as one note: the table summarised in words, the CSV kept beside it.

The note says what was varied (each path with its unit, range and values, grid or list), how
the figures ranged, the best and the worst case of the headline COP (with the values that gave
them), and which cases failed and why. The table itself (one row per case, as
:func:`workbench.sweep.sweep` returns it) is kept as CSV in ``"NoteRun".csv``.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.errors import NoteStoreError, ScenarioError
from workbench.notes.runs.describe import NoteText
from workbench.notes.runs.words import (
    CONTROL_OUTPUT_UNITS,
    display_unit,
    kilowatts,
    number,
    parameter_sentences,
    purpose,
    solver_sentences,
    template_sentences,
    topology_sentences,
)
from workbench.scenario import FlatScenario, as_flat

__all__ = ["sweep_csv", "sweep_note", "sweep_summary", "swept_columns"]

_FIGURES = (
    ("cop_cooling", "COP cooling", number),
    ("cop_heating", "COP heating", number),
    ("cooling_capacity_w", "cooling capacity", kilowatts),
    ("heating_capacity_w", "heating capacity", kilowatts),
    ("compressor_power_w", "compressor power", kilowatts),
)
_MAX_FAILURES = 10


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def swept_columns(frame: Any) -> list[str]:
    """The swept paths of a sweep table: its columns before ``converged``.

    Raises
    ------
    NoteStoreError
        The frame is not a sweep table (no ``converged`` column, or nothing before it).
    """
    columns = [str(c) for c in frame.columns]
    if "converged" not in columns or columns.index("converged") == 0:
        raise NoteStoreError(
            f"not a sweep table: expected the swept columns, then 'converged' and the results "
            f"(what workbench.sweep returns); got columns {columns}"
        )
    return columns[: columns.index("converged")]


def _unit(flat: FlatScenario, path: str) -> str:
    from workbench.components.catalog.specs import get_spec
    from workbench.sweep.paths import resolve_path

    try:
        spec = resolve_path(flat, path)
    except ScenarioError:
        return ""
    if spec.kind == "component":
        comp_spec = get_spec(flat.components[spec.owner].type)
        param = comp_spec.param(spec.key) if comp_spec else None
        return param.unit if param else ""
    if spec.kind == "control" and spec.key == "target":
        loop = next(c for c in flat.controls if c.id == spec.owner)
        return CONTROL_OUTPUT_UNITS.get(loop.measure.output, "")
    return ""


def _mode(frame: Any, paths: Sequence[str]) -> str:
    """``grid`` when the rows are every combination of the swept values, else ``list``."""
    if len(paths) == 1:
        return "grid"
    combos = math.prod(frame[p].nunique(dropna=False) for p in paths)
    return "grid" if combos == len(frame) else "list"


def _row(frame: Any, index: Any, columns: Sequence[str]) -> dict[str, Any]:
    return {c: _plain(frame.at[index, c]) for c in columns}


def sweep_summary(
    frame: Any,
    doc: Mapping[str, Any],
    *,
    grid: Mapping[str, Sequence[Any]] | None = None,
    mode: str | None = None,
) -> dict[str, Any]:
    """What a sweep note keeps besides the CSV (``"NoteRun".summary``), JSON-ready.

    Keys: ``kind`` (``sweep``), ``scenario_name``, ``fluid``, ``fluid_backend``, ``purpose``,
    ``mode`` (``grid`` or ``list``), ``cases``, ``converged``, ``failed``, ``varied`` (per path:
    ``path``, ``unit``, ``values``, ``min``, ``max``), ``ranges`` (min and max of each figure
    over the converged cases), ``metric`` (``cop_cooling`` or ``cop_heating``), ``best`` and
    ``worst`` (the converged rows of highest and lowest metric, None without converged cases),
    ``failures`` (the swept values and error of each failed case, the first 10) and ``columns``.
    """
    paths = list(grid) if grid is not None else swept_columns(frame)
    flat = as_flat(dict(doc))
    converged = frame[frame["converged"].astype(bool)]
    lead = purpose(doc)
    metric = f"cop_{lead}"
    varied = []
    for path in paths:
        values = [_plain(v) for v in (grid[path] if grid is not None else frame[path].unique())]
        numeric = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
        varied.append(
            {
                "path": path,
                "unit": _unit(flat, path),
                "values": values,
                "min": min(numeric) if numeric else None,
                "max": max(numeric) if numeric else None,
            }
        )
    ranges = {}
    for key, _label, _fmt in _FIGURES:
        col = converged[key].dropna() if key in converged else None
        ranges[key] = (
            [_plain(col.min()), _plain(col.max())] if col is not None and len(col) else [None, None]
        )
    best = worst = None
    ranked = converged[converged[metric].notna()] if metric in converged else converged.iloc[0:0]
    if len(ranked):
        best = _row(frame, ranked[metric].idxmax(), list(frame.columns))
        worst = _row(frame, ranked[metric].idxmin(), list(frame.columns))
    failed = frame[~frame["converged"].astype(bool)]
    failures = [
        {
            "values": {p: _plain(failed.at[i, p]) for p in paths},
            "error": _plain(failed.at[i, "error"]),
        }
        for i in failed.index[:_MAX_FAILURES]
    ]
    return {
        "kind": "sweep",
        "scenario_name": doc.get("name"),
        "fluid": doc.get("fluid"),
        "fluid_backend": doc.get("fluid_backend") or "Test",
        "purpose": lead,
        "mode": mode or _mode(frame, paths),
        "cases": len(frame),
        "converged": len(converged),
        "failed": len(failed),
        "varied": varied,
        "ranges": ranges,
        "metric": metric,
        "best": best,
        "worst": worst,
        "failures": failures,
        "columns": [str(c) for c in frame.columns],
    }


def sweep_csv(frame: Any) -> str:
    """The sweep table as CSV text (``frame.to_csv(index=False)``)."""
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False)
    return buffer.getvalue()


def _values_text(entry: Mapping[str, Any]) -> str:
    values = entry["values"]
    shown = ", ".join(number(v) if isinstance(v, int | float) else str(v) for v in values[:12])
    more = f" and {len(values) - 12} more" if len(values) > 12 else ""
    unit = display_unit(entry["unit"])
    return (
        f"{entry['path']} from {number(entry['min'])} to {number(entry['max'])}"
        f"{' ' + unit if unit else ''} ({len(values)} values: {shown}{more})"
    )


def _at(row: Mapping[str, Any], paths: Sequence[str]) -> str:
    return ", ".join(f"{p} = {number(row.get(p))}" for p in paths)


def _case(row: Mapping[str, Any], metric_label: str, metric: str, paths: Sequence[str]) -> str:
    return (
        f"{metric_label} {number(row.get(metric))} at {_at(row, paths)} (cooling "
        f"{kilowatts(row.get('cooling_capacity_w'))}, heating "
        f"{kilowatts(row.get('heating_capacity_w'))}, compressor "
        f"{kilowatts(row.get('compressor_power_w'))})"
    )


def sweep_note(doc: Mapping[str, Any], summary: Mapping[str, Any]) -> NoteText:
    """Title and content of a sweep note (from the document and its :func:`sweep_summary`)."""
    flat = as_flat(dict(doc))
    paths = [v["path"] for v in summary["varied"]]
    metric = summary["metric"]
    metric_label = "COP " + metric.removeprefix("cop_")
    name = str(doc.get("name") or "unnamed scenario")
    fluid = doc.get("fluid")
    low, high = summary["ranges"].get(metric, [None, None])
    varied_short = "; ".join(
        f"{v['path']} {number(v['min'])} to {number(v['max'])} ({len(v['values'])} values)"
        for v in summary["varied"]
    )
    title = (
        f"Sweep of {name} ({fluid}): {varied_short}: {metric_label} {number(low)} to "
        f"{number(high)}, {summary['converged']} of {summary['cases']} converged"
    )
    lines = [
        f"Parameter sweep of {name}: fluid {fluid} ({summary['fluid_backend']} properties), "
        f"{summary['cases']} cases ({summary['mode']}), {summary['converged']} converged, "
        f"{summary['failed']} failed.",
        "Varied: " + "; ".join(_values_text(v) for v in summary["varied"]) + ".",
    ]
    figures = [
        f"{label} {fmt(summary['ranges'][key][0])} to {fmt(summary['ranges'][key][1])}"
        for key, label, fmt in _FIGURES
        if summary["ranges"].get(key, [None])[0] is not None
    ]
    lines.append(
        "Results over the converged cases: " + ("; ".join(figures) if figures else "none") + "."
    )
    if summary.get("best"):
        lines.append(f"Best: {_case(summary['best'], metric_label, metric, paths)}.")
        lines.append(f"Worst: {_case(summary['worst'], metric_label, metric, paths)}.")
    if summary["failed"]:
        shown = "; ".join(
            f"{_at(f['values'], paths)}: {f.get('error') or 'not converged'}"
            for f in summary["failures"]
        )
        more = "" if summary["failed"] <= len(summary["failures"]) else " (first ones)"
        lines.append(f"Failures: {summary['failed']} cases did not converge{more}: {shown}.")
    else:
        lines.append("Failures: none, every case converged.")
    lines.append(
        f"The table (CSV, one row per case; columns {', '.join(summary['columns'])}) is kept "
        "with this note."
    )
    lines.append("")
    lines.append("Base scenario. Topology: " + " ".join(topology_sentences(doc, flat)))
    params, _at_default = parameter_sentences(flat)
    lines.append("Design values and changes from the catalog defaults:")
    lines += [f"- {p}" for p in params]
    lines += [f"- {t}" for t in template_sentences(doc)]
    lines.append(solver_sentences(doc))
    return NoteText(title, "\n".join(lines).strip() + "\n")
