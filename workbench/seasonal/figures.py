"""The figures of an EN 14825 rating from declared points, and which convention a stated one follows.

Who reads it: :func:`workbench.seasonal.scop_from_declared` and
:func:`workbench.seasonal.seer_from_declared` return these records; the rating of a table of
declarations (:mod:`workbench.seasonal.declared_table`) compares stated figures with them.

Off-mode conventions: SCOP (SEER) includes the off-mode energy
``QHE = QH/SCOPon + HTO PTO + HSB PSB + HCK PCK + HOFF POFF`` (EN 14825:2018 8.2.8); SCOPon
(SEERon) leaves it out. Many certificates state as "SCOP" the figure without it; some state the
one with it. :func:`matched_convention` says which one a stated figure matches.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from workbench.seasonal.declared import Inconsistency

__all__ = [
    "CONVENTIONS",
    "STATED_TOLERANCE",
    "SeasonalCooling",
    "SeasonalHeating",
    "Table",
    "matched_convention",
]


CONVENTIONS = ("with_off_mode", "without_off_mode", "both", "neither")
"""What a stated SCOP (SEER) matches: the figure with the off-mode energy (SCOP), without it
(SCOPon), both (they agree within the tolerance) or neither."""

STATED_TOLERANCE = 0.005 + 1e-9
"""A stated SCOP (SEER) matches a computed one within this: half the last digit of a figure
stated to two decimals [-]."""


def matched_convention(
    stated: float,
    with_off_mode: float,
    without_off_mode: float,
    tolerance: float = STATED_TOLERANCE,
) -> str:
    """Which convention a stated seasonal figure matches (one of :data:`CONVENTIONS`).

    Parameters
    ----------
    stated : float
        The stated SCOP (SEER) [-].
    with_off_mode : float
        SCOP (SEER) computed with the off-mode energy [-].
    without_off_mode : float
        SCOPon (SEERon) [-].
    tolerance : float
        Largest difference that still matches [-].

    Returns
    -------
    str
        ``with_off_mode``, ``without_off_mode``, ``both`` or ``neither``.
    """
    a = abs(stated - with_off_mode) <= tolerance
    b = abs(stated - without_off_mode) <= tolerance
    if a and b:
        return "both"
    if a:
        return "with_off_mode"
    if b:
        return "without_off_mode"
    return "neither"


@dataclass
class Table:
    """Bins and figures common to heating and cooling ratings.

    ``points`` and ``bins`` are built from the columns on first access (a table of 10,000
    declarations reads the figures only, and pandas frames cost more than the rating).
    """

    climate: str
    design_load_kw: float
    point_columns: dict[str, Any] = field(default_factory=dict, repr=False)
    bin_columns: dict[str, Any] = field(default_factory=dict, repr=False)

    @functools.cached_property
    def points(self) -> pd.DataFrame:
        """The declared points with their load, CR and COPbin.

        Columns ``name``, ``t_c``, ``capacity_kw``, ``cop_declared``, ``cd``, ``load_kw``,
        ``capacity_ratio``, ``cop_bin``.
        """
        return pd.DataFrame(self.point_columns)

    @functools.cached_property
    def bins(self) -> pd.DataFrame:
        """One row per bin (``BIN_COLUMNS`` of :mod:`workbench.seasonal.bins`)."""
        return pd.DataFrame(self.bin_columns)


@dataclass
class SeasonalHeating(Table):
    """An EN 14825 heating rating.

    Attributes
    ----------
    scop_on, scop_net, scop : float
        Active-mode (SCOPon: without the off-mode energy), net (heat pump only) and seasonal
        COP (SCOP: with the off-mode energy) [-].
    eta_s : float
        Seasonal space heating energy efficiency, from SCOP [%].
    annual_demand_kwh : float
        QH = Pdesignh x HHE [kWh].
    annual_energy_kwh : float
        QHE = QH / SCOP, the annual electricity with the off modes [kWh].
    off_mode_kwh : float
        The off-mode part of it [kWh].
    bivalent_c : float or None
        Tbiv [degC] when given: no back-up heat at or above it.
    inconsistencies : list of Inconsistency
        What the declaration says that does not hold together (duplicates, placeholders,
        capacity below the load at or above Tbiv): reported, not charged.
    points : pandas.DataFrame
        The declared points with their ``cd``, load, CR and COPbin.
    bins : pandas.DataFrame
        One row per bin (:data:`BIN_COLUMNS`).
    """

    scop_on: float = math.nan
    scop_net: float = math.nan
    scop: float = math.nan
    eta_s: float = math.nan
    annual_demand_kwh: float = math.nan
    annual_energy_kwh: float = math.nan
    off_mode_kwh: float = 0.0
    bivalent_c: float | None = None
    inconsistencies: list[Inconsistency] = field(default_factory=list)

    def convention(self, stated_scop: float, tolerance: float = STATED_TOLERANCE) -> str:
        """Which figure a stated SCOP [-] matches (:func:`matched_convention`).

        Returns ``with_off_mode`` (SCOP), ``without_off_mode`` (SCOPon), ``both`` or ``neither``.
        """
        return matched_convention(stated_scop, self.scop, self.scop_on, tolerance)


@dataclass
class SeasonalCooling(Table):
    """An EN 14825 cooling rating: ``seer_on`` and ``seer`` [-], ``eta_s`` [%].

    ``inconsistencies`` lists the duplicates and placeholders among the points.
    """

    seer_on: float = math.nan
    seer: float = math.nan
    eta_s: float = math.nan
    annual_demand_kwh: float = math.nan
    annual_energy_kwh: float = math.nan
    off_mode_kwh: float = 0.0
    inconsistencies: list[Inconsistency] = field(default_factory=list)

    def convention(self, stated_seer: float, tolerance: float = STATED_TOLERANCE) -> str:
        """Which figure a stated SEER [-] matches (:func:`matched_convention`).

        Returns ``with_off_mode`` (SEER), ``without_off_mode`` (SEERon), ``both`` or ``neither``.
        """
        return matched_convention(stated_seer, self.seer, self.seer_on, tolerance)
