"""Many products fitted at once: a long table of declared points, one fit per product.

Who reads it: ``workbench seasonal fit --declared POINTS.csv --scenario BASE.json [--scheduler
ADDRESS]``. The table has one row per declared point: ``product``, ``t_c`` [degC], ``supply_c``
[degC], ``capacity_kw`` [kW], ``cop`` [-] (optional ``name``). Each product's points are given to
:func:`workbench.seasonal.fit_declared` with the base scenario; on a Dask cluster (a
``distributed.Client``) one product is one task, as sweeps send one chunk a task
(:mod:`workbench.sweep.runner`). A product whose fit raises is reported with the error, not
dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench.errors import WorkbenchError
from workbench.scenario import flatten
from workbench.scenario.types import ScenarioLike
from workbench.seasonal.product_points import as_config

__all__ = ["FIT_COLUMNS", "POINT_COLUMNS", "fit_declared_table", "read_points_table"]

POINT_COLUMNS = ("product", "t_c", "supply_c", "capacity_kw", "cop")
"""Required columns of the points table."""

FIT_COLUMNS = ("product", "points", "success", "cop_rms_pct", "residual_sigma", "message", "error")
"""Columns of the fitted table, before one column per free path (its fitted value)."""


class PointsTableError(WorkbenchError, ValueError):
    """A points table with a missing column or a cell that is not a number (row and column named)."""


def read_points_table(path: str | Path) -> pd.DataFrame:
    """Read and check a table of declared points (one row per point).

    Parameters
    ----------
    path : str or path
        CSV with :data:`POINT_COLUMNS`.

    Returns
    -------
    pandas.DataFrame
        The table, numbers as floats.

    Raises
    ------
    PointsTableError
        A missing column or a cell that is not a finite number (row from 1 after the header).
    """
    table = pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True)
    for column in POINT_COLUMNS:
        if column not in table.columns:
            raise PointsTableError(f"{path}: column {column!r} is missing")
    for column in POINT_COLUMNS[1:]:
        values = pd.to_numeric(table[column].str.strip(), errors="coerce")
        bad = ~np.isfinite(values.to_numpy(float))
        if bad.any():
            row = int(np.argmax(bad))
            raise PointsTableError(
                f"{path}: row {row + 1} ({table['product'].iloc[row]}), column {column!r}: "
                f"{table[column].iloc[row]!r} is not a number"
            )
        table[column] = values.astype(float)
    return table


def _fit_one(
    product: str, points: pd.DataFrame, scenario: dict[str, Any], free: list[str] | None
) -> dict[str, Any]:
    """Fit one product; errors become the row's ``error`` (a task must not fail the batch)."""
    from workbench.seasonal.products import fit_declared

    row: dict[str, Any] = {"product": product, "points": len(points)}
    try:
        fit = fit_declared(scenario, points.drop(columns=["product"]), free)
    except (WorkbenchError, ValueError) as exc:
        return {**row, "success": False, "error": str(exc)}
    cop = fit.residuals[fit.residuals["quantity"] == "cop"]
    rms = float(np.sqrt(np.mean((cop["residual"] / cop["measured"]) ** 2)) * 100.0)
    return {
        **row,
        "success": bool(fit.success and fit.failed.empty),
        "cop_rms_pct": rms,
        "residual_sigma": fit.residual_sigma,
        "message": fit.message,
        "error": "" if fit.failed.empty else "; ".join(fit.failed["error"].astype(str)),
        **fit.values,
    }


def fit_declared_table(
    table: pd.DataFrame | str | Path,
    scenario: ScenarioLike,
    free: Sequence[str] | None = None,
    client: Any = None,
) -> pd.DataFrame:
    """Fit the base scenario to every product of a points table.

    Parameters
    ----------
    table : pandas.DataFrame, str or path
        Declared points (:data:`POINT_COLUMNS`), or a CSV read with :func:`read_points_table`.
    scenario : ScenarioConfig, dict, str or path
        The base scenario.
    free : sequence of str, optional
        Free paths (None: :data:`workbench.seasonal.products.DEFAULT_FREE`).
    client : distributed.Client, optional
        Fit on this Dask cluster, one product a task; None: one after the other here.

    Returns
    -------
    pandas.DataFrame
        One row per product, in the table's order: :data:`FIT_COLUMNS` and the fitted value of
        each free path (``cop_rms_pct``: RMS of the COP residuals at the fit [%]).

    Raises
    ------
    PointsTableError
        A bad table.
    ScenarioError
        An invalid base scenario.
    """
    frame = table if isinstance(table, pd.DataFrame) else read_points_table(table)
    doc = flatten(as_config(scenario)).to_dict()  # a bad base fails here, once, not per task
    names = list(free) if free is not None else None
    groups = [(str(p), g.reset_index(drop=True)) for p, g in frame.groupby("product", sort=False)]
    if client is None:
        rows = [_fit_one(p, g, doc, names) for p, g in groups]
    else:
        futures = client.map(
            _fit_one,
            [p for p, _ in groups],
            [g for _, g in groups],
            scenario=doc,
            free=names,
            pure=False,
        )
        rows = client.gather(futures)
    out = pd.DataFrame(rows)
    extra = [c for c in out.columns if c not in FIT_COLUMNS]
    for column in FIT_COLUMNS:
        if column not in out.columns:
            out[column] = np.nan
    return out[[*FIT_COLUMNS, *extra]]
