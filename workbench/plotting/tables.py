"""Results tables for notebooks: formatted pandas Stylers of a solve result."""

from __future__ import annotations

from typing import Any

import pandas as pd
from pandas.io.formats.style import Styler

from workbench.solver.results import HEADLINE_OUTPUTS

__all__ = ["TABLES", "results_tables", "style_results"]

TABLES = ("edges", "components", "summary", "controls", "couplings")
"""Names accepted by :func:`style_results`."""

_COMPONENT_COLUMNS = HEADLINE_OUTPUTS

_PHASE_COLOURS = {
    "liquid": "background-color: #dbe9f6",
    "two-phase": "background-color: #eeeeee",
    "vapour": "background-color: #fbe3d6",
    "supercritical": "background-color: #f3e0f7",
}


def results_tables(result: Any) -> dict[str, pd.DataFrame]:
    """The tables of a result as plain DataFrames, keyed by :data:`TABLES`.

    ``components`` keeps the main outputs (SI: W, kg/s, Pa, K); ``summary`` is one column
    ``value``.
    """
    comp = result.components_table()
    keep = [c for c in _COMPONENT_COLUMNS if c in comp.columns]
    return {
        "edges": result.edges.copy(),
        "components": comp[keep] if keep else comp,
        "summary": result.summary_table().to_frame("value"),
        "controls": pd.DataFrame(result.controls),
        "couplings": pd.DataFrame(result.couplings),
    }


def _phase_style(value: Any) -> str:
    return _PHASE_COLOURS.get(str(value), "")


def style_results(result: Any, table: str = "edges", precision: int = 4) -> Styler:
    """A styled table of a solve result for notebook display.

    Parameters
    ----------
    result : SolveResult
        The result.
    table : str
        One of :data:`TABLES`.
    precision : int
        Significant digits of floats.

    Returns
    -------
    pandas.io.formats.style.Styler
        ``edges`` with phases shaded (liquid blue, two-phase grey, vapour orange) and
        empty qualities blank; ``summary`` with the energy balance highlighted red when it
        exceeds 0.1 % of the compressor power; caption names the scenario and the outcome.

    Raises
    ------
    ValueError
        ``table`` is not one of :data:`TABLES`.
    """
    if table not in TABLES:
        raise ValueError(f"unknown table {table!r}; choose one of {', '.join(TABLES)}")
    df = results_tables(result)[table]

    def fmt(value: float) -> str:
        # solver round-off (a state at 0 degC printed as -7.96e-10) shows as 0 in the edges table
        if table == "edges" and abs(value) < 1e-6:
            value = 0.0
        return f"{value + 0.0:.{precision}g}"

    styler = df.style.format(fmt, na_rep="", subset=df.select_dtypes("number").columns)
    if table == "edges" and "phase" in df:
        styler = styler.map(_phase_style, subset=["phase"]).hide(axis="index")
    if table == "summary":
        power = result.summary.get("compressor_power_w") or 0.0
        balance = result.summary.get("energy_balance_w") or 0.0
        bad = abs(balance) > 1e-3 * max(abs(power), 1.0)

        def _mark(row: pd.Series) -> list[str]:
            return [
                "color: #b00020; font-weight: bold"
                if row.name == "energy_balance_w" and bad
                else ""
            ] * len(row)

        styler = styler.apply(_mark, axis=1)
    state = "converged" if result.converged else "NOT converged"
    name = result.scenario_name or "scenario"
    return styler.set_caption(f"{name}: {table} ({state})")
