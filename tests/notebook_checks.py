"""Checks shared by the notebook tests: what an executed notebook shows a person."""

from __future__ import annotations

import re

__all__ = ["CHART_CALL", "assert_charts_and_no_stray_outputs"]

CHART_CALL = re.compile(r"\bplot_\w+\(|\bplt\.subplots\(")


def assert_charts_and_no_stray_outputs(executed) -> None:
    """Every cell that draws a chart shows an image; no bare figure repr or return value."""
    for index, cell in enumerate(executed.cells):
        if cell.cell_type != "code":
            continue
        shown = [o for o in cell.outputs if o.output_type in ("display_data", "execute_result")]
        if CHART_CALL.search(cell.source):
            assert [o for o in shown if "image/png" in o.data], f"cell {index} shows no chart"
        for o in shown:
            text = o.data.get("text/plain", "")
            if "image/png" not in o.data:
                assert not text.startswith("<Figure size"), f"cell {index}: {text}"
            assert not re.fullmatch(r"\d+", text), f"cell {index} shows a stray {text}"
