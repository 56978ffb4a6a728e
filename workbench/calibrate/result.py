"""The result of a cycle calibration: values, uncertainty, residuals and the calibrated scenario.

Who reads it: the caller of :func:`workbench.calibrate.calibrate`, the command line
(``workbench calibrate``), the parity plot (:func:`workbench.plotting.plot_parity` reads
``residuals``) and the run log (:mod:`workbench.notes.runs.calibrations`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

__all__ = ["CalibrationResult"]


@dataclass
class CalibrationResult:
    """The outcome of :func:`calibrate`.

    Attributes
    ----------
    values : dict
        Free path -> fitted value [the document's units].
    std_errors : dict
        Free path -> standard error (inf when unidentifiable).
    intervals : dict
        Free path -> (low, high), the 95 % interval clipped to the bounds (the bounds when
        unidentifiable).
    unidentifiable : dict
        Free path -> why the data cannot determine it (insensitive, correlated, undetermined).
    residuals : pandas.DataFrame
        One row per point and quantity: ``point``, ``quantity``, ``measured``, ``model``,
        ``residual`` (model minus measured), ``sigma``, ``weighted`` (residual / sigma),
        ``outlier`` (bool).
    outliers : pandas.DataFrame
        The rows of ``residuals`` flagged as outliers.
    failed : pandas.DataFrame
        Points that did not solve at the fitted values (or at the start): ``point``,
        ``error``; empty when every point converged.
    scenario : dict
        The calibrated scenario document (flat: templates expanded) with the fitted values.
    start : dict
        Free path -> start value.
    bounds : dict
        Free path -> (low, high) used.
    correlation : pandas.DataFrame
        Correlation of the estimates (free paths as index and columns).
    success : bool
        The optimiser met a convergence criterion (see ``message``).
    message : str
        The optimiser's stop message.
    cost : float
        Half the sum of squared weighted residuals at the fit [-].
    residual_sigma : float
        Root of the residual variance per degree of freedom [-] (1 when the sigmas are right).
    evaluations : int
        Evaluations of all points (the Jacobian's included).
    solves : int
        Point solves.
    elapsed_s : float
        Wall time [s].
    """

    values: dict[str, float]
    std_errors: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    unidentifiable: dict[str, str]
    residuals: pd.DataFrame
    outliers: pd.DataFrame
    failed: pd.DataFrame
    scenario: dict[str, Any]
    start: dict[str, float]
    bounds: dict[str, tuple[float, float]]
    correlation: pd.DataFrame
    success: bool
    message: str
    cost: float
    residual_sigma: float
    evaluations: int = 0
    solves: int = 0
    elapsed_s: float = 0.0
    conditions: list[str] = field(default_factory=list)
    quantities: list[str] = field(default_factory=list)

    def table(self) -> pd.DataFrame:
        """One row per free path: start, value, std_error, low, high, identifiable, reason."""
        rows = [
            {
                "parameter": path,
                "start": self.start[path],
                "value": value,
                "std_error": self.std_errors[path],
                "low": self.intervals[path][0],
                "high": self.intervals[path][1],
                "identifiable": path not in self.unidentifiable,
                "reason": self.unidentifiable.get(path, ""),
            }
            for path, value in self.values.items()
        ]
        return pd.DataFrame(rows).set_index("parameter")

    def report(self) -> str:
        """The fit in a few lines, for people."""
        lines = [
            f"calibration: {len(self.values)} free parameters, "
            f"{self.residuals['point'].nunique() if len(self.residuals) else 0} points, "
            f"{len(self.quantities)} quantities; {self.message} "
            f"({self.evaluations} evaluations, {self.solves} solves, {self.elapsed_s:.1f} s)"
        ]
        for path, value in self.values.items():
            low, high = self.intervals[path]
            if path in self.unidentifiable:
                lines.append(f"  {path} = {value:.6g}  UNIDENTIFIABLE: {self.unidentifiable[path]}")
            else:
                lines.append(
                    f"  {path} = {value:.6g} +/- {self.std_errors[path]:.3g} "
                    f"(95 %: {low:.6g} .. {high:.6g}; start {self.start[path]:.6g})"
                )
        lines.append(f"residual sigma {self.residual_sigma:.3g}; outliers {len(self.outliers)}")
        for _, row in self.failed.iterrows():
            lines.append(f"  point {row['point']} failed: {row['error']}")
        return "\n".join(lines)
