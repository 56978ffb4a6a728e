"""A calibration as one note: the fit in words, the calibrated scenario and the residuals kept.

Who reads it: an engineer searching the run log later ("what UA did we fit to the rig data of
unit 3?"), by keyword or meaning, and :func:`~workbench.notes.runs.store.get_run`, which gives
back the calibrated scenario (solve it to get the fitted model) and the residuals table
(``StoredRun.table()``). The note says which parameters were free, their start, fitted value
and 95 % interval with units, which the data could not determine and why, against which
measured quantities and conditions, how well the model matches (RMS relative residual per
quantity), and which points failed or were outliers. The row is a ``"NoteRun"`` of kind
``calibration`` (migration ``20261125190000``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from workbench.notes.runs.describe import NoteText
from workbench.notes.runs.documents import scenario_document
from workbench.notes.runs.sweeps import sweep_csv
from workbench.notes.runs.words import display_unit, number
from workbench.scenario import as_flat

__all__ = ["calibration_note", "calibration_summary", "save_calibration"]

_MAX_LISTED = 10


def _finite(value: float) -> float | None:
    return float(value) if value is not None and math.isfinite(value) else None


def _unit(doc: Mapping[str, Any], path: str) -> str:
    from workbench.components.catalog.specs import get_spec
    from workbench.errors import ScenarioError
    from workbench.sweep.paths import resolve_path

    flat = as_flat(dict(doc))
    try:
        spec = resolve_path(flat, path)
    except ScenarioError:
        return ""
    if spec.kind != "component":
        return ""
    comp_spec = get_spec(flat.components[spec.owner].type)
    param = comp_spec.param(spec.key) if comp_spec else None
    return param.unit if param else ""


def calibration_summary(result: Any, doc: Mapping[str, Any]) -> dict[str, Any]:
    """What a calibration note keeps besides the residuals (``"NoteRun".summary``), JSON-ready.

    Parameters
    ----------
    result : CalibrationResult
        What :func:`workbench.calibrate.calibrate` returned.
    doc : mapping
        The calibrated scenario document.

    Returns
    -------
    dict
        ``kind`` (``calibration``), ``scenario_name``, ``fluid``, ``fluid_backend``, ``free``
        (per path: ``path``, ``unit``, ``start``, ``value``, ``std_error``, ``low``, ``high``,
        ``identifiable``, ``reason``), ``conditions``, ``quantities`` (per column: ``path``,
        ``rms_relative_pct``, ``points``), ``points``, ``failed`` (point and error, the first
        10), ``outliers`` (point and quantity, the first 10), ``residual_sigma``, ``success``,
        ``message``, ``evaluations``, ``solves``, ``elapsed_s``.
    """
    free = []
    for path, value in result.values.items():
        low, high = result.intervals[path]
        free.append(
            {
                "path": path,
                "unit": _unit(doc, path),
                "start": result.start[path],
                "value": value,
                "std_error": _finite(result.std_errors[path]),
                "low": _finite(low),
                "high": _finite(high),
                "identifiable": path not in result.unidentifiable,
                "reason": result.unidentifiable.get(path),
            }
        )
    table = result.residuals
    quantities = []
    for path in result.quantities:
        rows = table[(table["quantity"] == path) & table["model"].notna()]
        rel = (rows["residual"].astype(float) / rows["measured"].astype(float)).to_numpy()
        rel = rel[np.isfinite(rel)]
        quantities.append(
            {
                "path": path,
                "rms_relative_pct": float(np.sqrt(np.mean(rel**2)) * 100) if rel.size else None,
                "points": len(rows),
            }
        )
    return {
        "kind": "calibration",
        "scenario_name": doc.get("name"),
        "fluid": doc.get("fluid"),
        "fluid_backend": doc.get("fluid_backend") or "Test",
        "free": free,
        "conditions": list(result.conditions),
        "quantities": quantities,
        "points": int(table["point"].nunique()) if len(table) else 0,
        "failed": result.failed.head(_MAX_LISTED).to_dict(orient="records"),
        "failed_count": len(result.failed),
        "outliers": result.outliers[["point", "quantity"]].head(_MAX_LISTED).values.tolist(),
        "outlier_count": len(result.outliers),
        "residual_sigma": _finite(result.residual_sigma),
        "success": bool(result.success),
        "message": result.message,
        "evaluations": result.evaluations,
        "solves": result.solves,
        "elapsed_s": result.elapsed_s,
    }


def _free_text(entry: Mapping[str, Any]) -> str:
    unit = display_unit(entry["unit"])
    u = f" {unit}" if unit else ""
    if not entry["identifiable"]:
        return (
            f"{entry['path']} not identifiable ({entry['reason']}); left at "
            f"{number(entry['value'])}{u} (start {number(entry['start'])}{u})"
        )
    return (
        f"{entry['path']} = {number(entry['value'])}{u} (95 % interval {number(entry['low'])} to "
        f"{number(entry['high'])}{u}; start {number(entry['start'])}{u})"
    )


def calibration_note(doc: Mapping[str, Any], summary: Mapping[str, Any]) -> NoteText:
    """Title and content of a calibration note (from :func:`calibration_summary`)."""
    name = str(doc.get("name") or "unnamed scenario")
    fluid = doc.get("fluid")
    fitted = "; ".join(
        f"{f['path']} {number(f['value'])}{(' ' + display_unit(f['unit'])) if f['unit'] else ''}"
        + ("" if f["identifiable"] else " (not identifiable)")
        for f in summary["free"]
    )
    title = f"Calibration of {name} ({fluid}) to {summary['points']} measured points: {fitted}"
    lines = [
        f"Calibration of {name}: fluid {fluid} ({summary['fluid_backend']} properties), "
        f"{len(summary['free'])} free parameters fitted by weighted least squares to "
        f"{summary['points']} measured operating points; {summary['message']}",
        "Fitted: " + "; ".join(_free_text(f) for f in summary["free"]) + ".",
        "Conditions varied: " + (", ".join(summary["conditions"]) or "none") + ".",
        "Measured quantities (RMS relative deviation of the model): "
        + "; ".join(
            f"{q['path']} {number(q['rms_relative_pct'])} % over {q['points']} points"
            for q in summary["quantities"]
        )
        + ".",
        f"Residual spread per degree of freedom {number(summary['residual_sigma'])} (1 when the "
        "stated uncertainties are right).",
    ]
    if summary["outlier_count"]:
        shown = ", ".join(f"point {p} {q}" for p, q in summary["outliers"])
        lines.append(f"Outliers: {summary['outlier_count']}: {shown}.")
    else:
        lines.append("Outliers: none.")
    if summary["failed_count"]:
        shown = "; ".join(f"point {f['point']}: {f['error']}" for f in summary["failed"])
        lines.append(f"Failed points: {summary['failed_count']}: {shown}.")
    else:
        lines.append("Failed points: none, every point solved.")
    lines.append(
        "The calibrated scenario and the residuals per point and quantity (CSV) are kept with "
        "this note."
    )
    return NoteText(title, "\n".join(lines) + "\n")


def save_calibration(
    result: Any,
    scenario: Any = None,
    *,
    owner: str,
    conn: Any = None,
    provider: Any = None,
    title: str | None = None,
    external_id: str | None = None,
    replace: bool = False,
) -> Any:
    """Store a calibration as one note of ``owner`` (kind ``calibration`` in the run log).

    Parameters
    ----------
    result : CalibrationResult
        What :func:`workbench.calibrate.calibrate` returned.
    scenario : dict, str, path, ScenarioConfig or FlatScenario, optional
        The scenario that was calibrated (its name and fluid head the note); the stored
        document is always ``result.scenario``, the calibrated one.
    owner, conn, provider, title, external_id, replace
        As for :func:`~workbench.notes.runs.store.save_run`.

    Returns
    -------
    StoredRun
        ``kind`` ``"calibration"``; ``.scenario`` the calibrated document, ``.table()`` the
        residuals.

    Raises
    ------
    NoteStoreError
        Empty owner, ``external_id`` already used, a schema that is not current.
    """
    from workbench.notes.runs.store import _store

    doc = scenario_document(result.scenario)
    if scenario is not None:
        original = scenario_document(scenario)
        for key in ("name", "fluid", "fluid_backend"):
            if original.get(key) is not None and doc.get(key) is None:
                doc[key] = original[key]
    summary = calibration_summary(result, doc)
    text = calibration_note(doc, summary)
    if title is not None:
        text = NoteText(title, text.content)
    return _store(
        conn,
        owner=owner,
        text=text,
        kind="calibration",
        doc=doc,
        summary=summary,
        csv=sweep_csv(result.residuals),
        provider=provider,
        external_id=external_id,
        replace=replace,
    )
