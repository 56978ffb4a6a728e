"""AHRI 210/240-2023 data for HSPF2 and SEER2: bins, fractional hours and load-line constants.

Read by :mod:`workbench.seasonal.us`. Temperatures are kept in degF as printed (the functions
convert). Source: ANSI/AHRI Standard 210/240-2023 (2020 edition with addendum), *Performance
Rating of Unitary Air-conditioning & Air-source Heat Pump Equipment*, section 11.2 and Table 14
(HSPF2: fractional bin hours per climate region, zero-load temperature Tzl, outdoor design
temperature, slope factors C and Cvs) and Table 16 (SEER2: cooling bins); the same values are
incorporated by reference in 10 CFR 430 Subpart B Appendix M1. Cross-checked against two public
implementations (EnergyPlus ``StandardRatings.cc`` and Big Ladder's ``resdx``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BTU_PER_WH",
    "COOLING_BINS_F",
    "HEATING_BINS_F",
    "HSPF2_REGIONS",
    "SEER2_SIZING_FACTOR",
    "SEER2_V_HEAT_PUMP",
    "Region",
]

BTU_PER_WH = 3.412
"""Btu per watt-hour used by the standard to express HSPF2 and SEER2 [Btu/Wh]."""

HEATING_BINS_F: tuple[float, ...] = (
    62, 57, 52, 47, 42, 37, 32, 27, 22, 17, 12, 7, 2, -3, -8, -13, -18, -23,
)  # fmt: skip
"""The 18 heating bin temperatures [degF] (section 11.2.2)."""


@dataclass(frozen=True)
class Region:
    """A climate region of HSPF2 (AHRI 210/240-2023 Table 14).

    Attributes
    ----------
    number : int
        Region I..VI as 1..6.
    design_f : float
        Outdoor design temperature TOD [degF].
    zero_load_f : float
        Zero-load temperature Tzl [degF].
    slope : float
        Heating load line slope factor C (single- and two-stage equipment) [-].
    slope_variable : float
        Variable-speed load factor Cvs [-].
    fractions : tuple of float
        Fractional bin hours nj/N per bin of :data:`HEATING_BINS_F` [-] (62 and 57 degF hold none
        under the 2023 edition).
    """

    number: int
    design_f: float
    zero_load_f: float
    slope: float
    slope_variable: float
    fractions: tuple[float, ...]


# fmt: off
HSPF2_REGIONS: dict[int, Region] = {
    1: Region(1, 37.0, 58.0, 1.10, 1.03,
              (0, 0.239, 0.194, 0.129, 0.081, 0.041, 0.019, 0.005, 0.001, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
    2: Region(2, 27.0, 57.0, 1.06, 0.99,
              (0, 0, 0.163, 0.143, 0.112, 0.088, 0.056, 0.024, 0.008, 0.002, 0, 0, 0, 0, 0, 0, 0, 0)),
    3: Region(3, 17.0, 56.0, 1.30, 1.21,
              (0, 0, 0.138, 0.137, 0.135, 0.118, 0.092, 0.047, 0.021, 0.009, 0.005, 0.002, 0.001,
               0, 0, 0, 0, 0)),
    4: Region(4, 5.0, 55.0, 1.15, 1.07,
              (0, 0, 0.103, 0.093, 0.100, 0.109, 0.126, 0.087, 0.055, 0.036, 0.026, 0.013, 0.006,
               0.002, 0.001, 0, 0, 0)),
    5: Region(5, -10.0, 55.0, 1.16, 1.08,
              (0, 0, 0.086, 0.076, 0.078, 0.087, 0.102, 0.094, 0.074, 0.055, 0.047, 0.038, 0.029,
               0.018, 0.010, 0.005, 0.002, 0.001)),
    6: Region(6, 30.0, 57.0, 1.11, 1.03,
              (0, 0, 0.215, 0.204, 0.141, 0.076, 0.034, 0.008, 0.003, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
}
# fmt: on
"""HSPF2 climate regions; region IV is the rating region."""

COOLING_BINS_F: tuple[tuple[float, float], ...] = (
    (67.0, 0.214),
    (72.0, 0.231),
    (77.0, 0.216),
    (82.0, 0.161),
    (87.0, 0.104),
    (92.0, 0.052),
    (97.0, 0.018),
    (102.0, 0.004),
)
"""SEER2 cooling bins: ``(Tj [degF], nj/N [-])`` (section 11.2.1, Table 16)."""

SEER2_SIZING_FACTOR = 1.1
"""The cooling load line passes the full capacity at 95 degF divided by this sizing factor [-]."""

SEER2_V_HEAT_PUMP = 0.93
"""Load line factor V of a heat pump (1.0 for an air conditioner) [-]."""
