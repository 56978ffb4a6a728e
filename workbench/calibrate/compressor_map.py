"""AHRI 540 compressor maps fitted to a catalogue table (a pure calculation, no solve).

Each mapped quantity ``Y`` (mass flow [kg/s], power [W], capacity [W]) is the ten-coefficient
polynomial of AHRI 540 in the form :class:`~workbench.components.machines.compressor.Compressor` uses
(:func:`~workbench.components.machines.compressor.ahri540`, coefficients in the same order)::

    Y = C1 + C2 S + C3 D + C4 S^2 + C5 S D + C6 D^2 + C7 S^3 + C8 D S^2 + C9 S D^2 + C10 D^3

with S and D the saturated suction and discharge (dew) temperatures [degC]. The coefficients
minimise the sum of squared *relative* deviations ``(Y_fit - Y) / Y`` over the table's points
(catalogue tolerances are relative, and a map spans a factor of several in flow and power), by
a least-squares solve of the column-scaled design matrix (SVD, :func:`numpy.linalg.lstsq`).

Coverage: ten coefficients need at least ten points, at least four distinct S and four
distinct D values (a cubic in each), and a design matrix that is well conditioned in the
normalised temperatures ``(S - mean) / half range`` (points along a strip of the envelope
make it ill-conditioned), and a range of at least :data:`MIN_SPAN_K` in S and in D:
:attr:`CompressorMapFit.warnings` says
when the table falls short (the fit is still returned; extrapolating it is unreliable).
:meth:`CompressorMapFit.predict` warns (:class:`EnvelopeWarning`) for points outside the convex
hull of the table's (S, D) points, the envelope the map was fitted on.

References
----------
AHRI Standard 540-2020, Performance Rating of Positive Displacement Refrigerant Compressors,
section 5 (the ten-coefficient polynomial).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from workbench.components.machines.compressor import ahri540
from workbench.errors import CalibrationError

__all__ = [
    "CONDITION_LIMIT",
    "MAP_QUANTITIES",
    "MIN_SPAN_K",
    "CompressorMapFit",
    "EnvelopeWarning",
    "ahri540_terms",
    "fit_compressor_map",
]

MAP_QUANTITIES = ("mass_flow_kg_s", "power_w", "capacity_w")
"""Mapped columns of a catalogue table (``capacity_w`` optional) [kg/s, W, W]."""

CONDITION_LIMIT = 1.0e4
"""Largest condition number of the normalised design matrix before the fit warns [-]."""

_MIN_LEVELS = 4
"""Distinct S (and D) values a cubic in each needs."""

MIN_SPAN_K = 10.0
"""Smallest range of S and of D [K] before the fit warns that the table covers too little."""


class EnvelopeWarning(UserWarning):
    """A map is evaluated outside the envelope (convex hull) of the table it was fitted on."""


def ahri540_terms(s_c: Any, d_c: Any) -> np.ndarray:
    """The ten AHRI 540 monomials of each point, in the Compressor's coefficient order.

    Parameters
    ----------
    s_c, d_c : float or array_like
        Saturated suction and discharge temperatures [degC].

    Returns
    -------
    numpy.ndarray
        Shape ``(n, 10)``: ``1, S, D, S^2, S D, D^2, S^3, D S^2, S D^2, D^3``.
    """
    s = np.atleast_1d(np.asarray(s_c, dtype=float))
    d = np.atleast_1d(np.asarray(d_c, dtype=float))
    return np.column_stack(
        [np.ones_like(s), s, d, s**2, s * d, d**2, s**3, d * s**2, s * d**2, d**3]
    )


@dataclass
class CompressorMapFit:
    """A fitted AHRI 540 map (see the module docstring).

    Attributes
    ----------
    mass_flow_map_kg_s, power_map_w : list of float
        C1..C10 of the mass flow [kg/s] and power [W] polynomials: paste them into a
        Compressor's ``mass_flow_map_kg_s`` and ``power_map_w``.
    capacity_map_w : list of float or None
        C1..C10 of the capacity [W] (None when the table has no ``capacity_w``).
    table : pandas.DataFrame
        The points fitted (``t_evap_c``, ``t_cond_c`` and the mapped columns, SI).
    errors : pandas.DataFrame
        Per quantity (index): ``rms_relative_pct``, ``worst_relative_pct`` [%], ``rms``
        [kg/s or W], ``worst_t_evap_c``, ``worst_t_cond_c`` [degC] (where the worst point is).
    residuals : pandas.DataFrame
        Per point: the table's temperatures, and per quantity ``<q>_fit`` and
        ``<q>_relative_error`` [-].
    warnings : list of str
        Coverage problems of the table (too few points or temperature levels, an
        ill-conditioned or rank-deficient design); empty when the table supports ten
        coefficients.
    condition_number : float
        Of the design matrix in normalised temperatures [-] (inf when rank-deficient).
    rank : int
        Rank of that matrix (10 when every coefficient is determined).
    """

    mass_flow_map_kg_s: list[float]
    power_map_w: list[float]
    capacity_map_w: list[float] | None
    table: pd.DataFrame
    errors: pd.DataFrame
    residuals: pd.DataFrame
    warnings: list[str] = field(default_factory=list)
    condition_number: float = float("nan")
    rank: int = 0

    @property
    def maps(self) -> dict[str, list[float]]:
        """Quantity column -> its ten coefficients (the quantities fitted)."""
        out = {"mass_flow_kg_s": self.mass_flow_map_kg_s, "power_w": self.power_map_w}
        if self.capacity_map_w is not None:
            out["capacity_w"] = self.capacity_map_w
        return out

    def compressor_parameters(self) -> dict[str, list[float]]:
        """The Compressor parameters of this map: ``mass_flow_map_kg_s`` and ``power_map_w``."""
        return {
            "mass_flow_map_kg_s": list(self.mass_flow_map_kg_s),
            "power_map_w": list(self.power_map_w),
        }

    def inside_envelope(self, t_evap_c: Any, t_cond_c: Any) -> np.ndarray:
        """True for each point inside the convex hull of the fitted (S, D) points.

        Parameters
        ----------
        t_evap_c, t_cond_c : float or array_like
            Saturated suction and discharge temperatures [degC].

        Returns
        -------
        numpy.ndarray of bool
        """
        s = np.atleast_1d(np.asarray(t_evap_c, dtype=float))
        d = np.atleast_1d(np.asarray(t_cond_c, dtype=float))
        s, d = np.broadcast_arrays(s, d)
        hull = _hull(self.table)
        points = np.column_stack([s.ravel(), d.ravel()])
        if hull is None:  # points on a line: only the table's own points are inside
            known = {(a, b) for a, b in zip(self.table["t_evap_c"], self.table["t_cond_c"])}
            return np.array([(a, b) in known for a, b in points])
        return np.asarray(hull.find_simplex(points, tol=1e-9) >= 0)

    def predict(self, t_evap_c: Any, t_cond_c: Any) -> pd.DataFrame:
        """The map at given suction and discharge dew temperatures.

        Points outside the fitted envelope are computed too, with an :class:`EnvelopeWarning`
        naming them (``inside_envelope`` is False in their rows).

        Parameters
        ----------
        t_evap_c, t_cond_c : float or array_like
            Saturated suction and discharge temperatures [degC] (broadcast together).

        Returns
        -------
        pandas.DataFrame
            ``t_evap_c``, ``t_cond_c``, ``mass_flow_kg_s`` [kg/s], ``power_w`` [W],
            ``capacity_w`` [W] (when fitted), ``inside_envelope``.
        """
        s, d = np.broadcast_arrays(
            np.atleast_1d(np.asarray(t_evap_c, dtype=float)),
            np.atleast_1d(np.asarray(t_cond_c, dtype=float)),
        )
        s, d = s.ravel(), d.ravel()
        terms = ahri540_terms(s, d)
        out = pd.DataFrame({"t_evap_c": s, "t_cond_c": d})
        for column, coefficients in self.maps.items():
            out[column] = terms @ np.asarray(coefficients)
        inside = self.inside_envelope(s, d)
        out["inside_envelope"] = inside
        if not inside.all():
            shown = ", ".join(f"({a:g}, {b:g})" for a, b in zip(s[~inside], d[~inside]))
            warnings.warn(
                f"{int((~inside).sum())} of {len(s)} points outside the fitted envelope "
                f"(t_evap_c, t_cond_c): {shown}; the map is extrapolated there",
                EnvelopeWarning,
                stacklevel=2,
            )
        return out


def _hull(table: pd.DataFrame) -> Any:
    """The Delaunay triangulation of the table's (S, D) points, or None when they are flat."""
    from scipy.spatial import Delaunay, QhullError

    points = np.unique(table[["t_evap_c", "t_cond_c"]].to_numpy(dtype=float), axis=0)
    if len(points) < 3:
        return None
    try:
        return Delaunay(points)
    except QhullError:
        return None


def _check_table(table: pd.DataFrame) -> pd.DataFrame:
    if not isinstance(table, pd.DataFrame):
        table = pd.DataFrame(table)
    needed = ("t_evap_c", "t_cond_c", "mass_flow_kg_s", "power_w")
    missing = [c for c in needed if c not in table.columns]
    if missing:
        raise CalibrationError(
            f"compressor table: missing column(s) {', '.join(missing)}; expected t_evap_c, "
            f"t_cond_c, mass_flow_kg_s, power_w (and capacity_w); got {', '.join(map(str, table.columns))}"
        )
    columns = [c for c in ("t_evap_c", "t_cond_c", *MAP_QUANTITIES) if c in table.columns]
    out = table[columns].copy()
    for column in columns:
        values = pd.to_numeric(out[column], errors="coerce")
        bad = values.isna() | ~np.isfinite(values.to_numpy(dtype=float))
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise CalibrationError(
                f"compressor table: column {column!r}, row {row}: {table[column].iloc[row]!r} "
                "is not a finite number"
            )
        out[column] = values.astype(float)
    for column in MAP_QUANTITIES:
        if column in out and (out[column] <= 0).any():
            row = int(np.flatnonzero((out[column] <= 0).to_numpy())[0])
            raise CalibrationError(
                f"compressor table: column {column!r}, row {row}: {out[column].iloc[row]!r} "
                "must be positive (relative errors are fitted)"
            )
    if (out["t_cond_c"] <= out["t_evap_c"]).any():
        row = int(np.flatnonzero((out["t_cond_c"] <= out["t_evap_c"]).to_numpy())[0])
        raise CalibrationError(
            f"compressor table: row {row}: t_cond_c {out['t_cond_c'].iloc[row]:g} is not above "
            f"t_evap_c {out['t_evap_c'].iloc[row]:g}"
        )
    return out.reset_index(drop=True)


def _coverage(table: pd.DataFrame) -> tuple[list[str], float, int]:
    """Coverage warnings, the condition number and rank of the normalised design."""
    s = table["t_evap_c"].to_numpy()
    d = table["t_cond_c"].to_numpy()

    def norm(v: np.ndarray) -> np.ndarray:
        half = (v.max() - v.min()) / 2.0
        out: np.ndarray = (v - v.mean()) / (half if half > 0 else 1.0)
        return out

    design = ahri540_terms(norm(s), norm(d))
    singular = np.linalg.svd(design, compute_uv=False)
    rank = int(np.sum(singular > singular[0] * 1e-10)) if singular.size else 0
    cond = float(singular[0] / singular[-1]) if rank == 10 else float("inf")
    found = []
    n = len(table)
    if n < 10:
        found.append(
            f"{n} points for ten coefficients: at least 10 are needed (20 or more advised)"
        )
    levels_s, levels_d = len(np.unique(s)), len(np.unique(d))
    if levels_s < _MIN_LEVELS or levels_d < _MIN_LEVELS:
        found.append(
            f"{levels_s} distinct t_evap_c and {levels_d} distinct t_cond_c values: a cubic in "
            f"each needs at least {_MIN_LEVELS} of both"
        )
    for label, values in (("t_evap_c", s), ("t_cond_c", d)):
        span = float(values.max() - values.min())
        if span < MIN_SPAN_K:
            found.append(
                f"{label} spans only {span:.3g} K (less than {MIN_SPAN_K:g} K): the map is an "
                "extrapolation everywhere else"
            )
    if rank < 10:
        found.append(
            f"the points determine only {rank} of the ten coefficients (rank-deficient design): "
            "cover more of the envelope"
        )
    elif cond > CONDITION_LIMIT:
        found.append(
            f"ill-conditioned design (condition number {cond:.3g} > {CONDITION_LIMIT:g}): the "
            "points cover too little of the envelope for ten coefficients"
        )
    return found, cond, rank


def _fit_one(terms: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Coefficients minimising the relative squared deviations (column-scaled SVD solve)."""
    a = terms / y[:, None]
    scale = np.linalg.norm(a, axis=0)
    scale[scale == 0] = 1.0
    coef, *_ = np.linalg.lstsq(a / scale, np.ones_like(y), rcond=None)
    return np.asarray(coef / scale)


def fit_compressor_map(table: pd.DataFrame | Mapping[str, Any]) -> CompressorMapFit:
    """Fit AHRI 540 maps of mass flow, power (and capacity) to a catalogue table.

    Parameters
    ----------
    table : pandas.DataFrame or mapping
        Columns ``t_evap_c``, ``t_cond_c`` [degC] (suction and discharge dew temperatures),
        ``mass_flow_kg_s`` [kg/s], ``power_w`` [W] and optionally ``capacity_w`` [W]; one row
        per catalogue point. Other units: :func:`workbench.calibrate.read_compressor_table`.

    Returns
    -------
    CompressorMapFit
        The coefficients (``mass_flow_map_kg_s``, ``power_map_w``, ``capacity_map_w``), the
        errors per quantity, the residuals per point and coverage warnings.

    Raises
    ------
    CalibrationError
        A missing column, a value that is not a finite number, a non-positive mapped value, a
        row with ``t_cond_c`` not above ``t_evap_c`` (the message names column and row).
    """
    data = _check_table(pd.DataFrame(table))
    found, cond, rank = _coverage(data)
    terms = ahri540_terms(data["t_evap_c"], data["t_cond_c"])
    maps: dict[str, list[float]] = {}
    residuals = data[["t_evap_c", "t_cond_c"]].copy()
    rows = []
    for column in MAP_QUANTITIES:
        if column not in data:
            continue
        y = data[column].to_numpy()
        coef = _fit_one(terms, y)
        maps[column] = [float(c) for c in coef]
        fitted = np.array([ahri540(maps[column], s, d) for s, d in terms[:, 1:3]])
        rel = (fitted - y) / y
        residuals[f"{column}_fit"] = fitted
        residuals[f"{column}_relative_error"] = rel
        worst = int(np.argmax(np.abs(rel)))
        rows.append(
            {
                "quantity": column,
                "rms_relative_pct": float(np.sqrt(np.mean(rel**2)) * 100.0),
                "worst_relative_pct": float(np.abs(rel[worst]) * 100.0),
                "rms": float(np.sqrt(np.mean((fitted - y) ** 2))),
                "worst_t_evap_c": float(data["t_evap_c"].iloc[worst]),
                "worst_t_cond_c": float(data["t_cond_c"].iloc[worst]),
            }
        )
    return CompressorMapFit(
        mass_flow_map_kg_s=maps["mass_flow_kg_s"],
        power_map_w=maps["power_w"],
        capacity_map_w=maps.get("capacity_w"),
        table=data,
        errors=pd.DataFrame(rows).set_index("quantity"),
        residuals=residuals,
        warnings=found,
        condition_number=cond,
        rank=rank,
    )
