"""EN 14825:2018 data: bins and hours, design temperatures, operating hours, test points.

Every table here is read by :mod:`workbench.seasonal.bins` (the bin method from declared points)
and :mod:`workbench.seasonal.rating` (the test points a scenario is solved at). Nothing here is
computed: the numbers are the standard's, each with the clause or table it comes from.

Source: EN 14825:2018, *Air conditioners, liquid chilling packages and heat pumps, with
electrically driven compressors, for space heating and cooling - Testing and rating at part load
conditions and calculation of seasonal performance*; the same bins, hours and design
temperatures are reproduced in Commission Regulations (EU) No 206/2012 (air conditioners, Annex
VII) and No 813/2013 (space heaters, Annex III).

Cross-checks (the standard itself is not public): the average heating bins were compared with two
independent public implementations of EN 14825 and the cooling bins with one, entry by entry;
every climate's total of bin hours (average 4910 h, warmer 3590 h, colder 6446 h, cooling 2602
h) agrees with the regulations' totals, and a test asserts the totals. The off-mode hours agree
with one public implementation. The water outlet temperatures of the test points
(:data:`HEATING_TEST_POINTS`) and the table numbers cited here could not be checked against a
public copy: check them against your copy of the standard before relying on a variable-outlet
rating (a fixed-outlet rating does not use them).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "APPLICATIONS",
    "CC",
    "CLIMATES",
    "COOLING",
    "COOLING_APPLICATIONS",
    "COOLING_TEST_POINTS",
    "F1_TEMPERATURE_CONTROL",
    "F2_GROUND_WATER_PUMP",
    "HEATING_TEST_POINTS",
    "OFF_MODES",
    "Climate",
    "TestPoint",
]


@dataclass(frozen=True)
class Climate:
    """One reference heating season (or the cooling season).

    Attributes
    ----------
    name : str
        ``average``, ``warmer``, ``colder`` or ``cooling``.
    design_c : float
        Reference design temperature Tdesignh (Tdesignc for cooling) [degC].
    bins : tuple of (float, float)
        ``(Tj [degC], hj [h])`` in rising temperature.
    equivalent_hours : float
        Equivalent active-mode hours HHE (HCE for cooling) [h]: QH = Pdesignh x HHE.
    off_mode_hours : dict
        Hours in thermostat-off (``to``), standby (``sb``), crankcase heater (``ck``) and off
        (``off``) mode [h].
    """

    name: str
    design_c: float
    bins: tuple[tuple[float, float], ...]
    equivalent_hours: float
    off_mode_hours: dict[str, float]

    @property
    def total_hours(self) -> float:
        """Sum of the bin hours [h]."""
        return float(sum(h for _, h in self.bins))


def _bins(first_c: int, hours: list[int]) -> tuple[tuple[float, float], ...]:
    return tuple((float(first_c + i), float(h)) for i, h in enumerate(hours))


# fmt: off
# EN 14825:2018 Annex A, Table A.1 (heating bins j, Tj, hj, for the three reference heating
# seasons; bins 1..20 of the colder season at -30..-23 degC hold 0 h and are left out).
_AVERAGE = _bins(
    -10,
    [1, 25, 23, 24, 27, 68, 91, 89, 165, 173, 240, 280, 320,
     357, 356, 303, 330, 326, 348, 335, 315, 215, 169, 151, 105, 74],
)
_WARMER = _bins(2, [3, 22, 63, 63, 175, 162, 259, 360, 428, 430, 503, 444, 384, 294])
_COLDER = _bins(
    -22,
    [1, 6, 13, 17, 19, 26, 39, 41, 35, 52, 37, 41, 43, 54, 90, 125, 169, 195, 278, 306,
     454, 385, 490, 533, 380, 228, 261, 279, 229, 269, 233, 230, 243, 191, 146, 150, 97, 61],
)
# EN 14825:2018 Annex A, Table A.2 (cooling bins 17..40 degC, reference cooling season).
_COOLING = _bins(
    17,
    [205, 227, 225, 225, 216, 215, 218, 197, 178, 158, 137, 109, 88, 63, 39, 31, 24, 17, 13,
     9, 4, 3, 1, 0],
)
# fmt: on

CLIMATES: dict[str, Climate] = {
    # Design temperatures: EN 14825:2018 clause 5 (Table 3, Tdesignh); equivalent active-mode
    # hours and off-mode hours: Annex A, Tables A.4 (HHE) and A.6 (HTO, HSB, HCK, HOFF, units
    # for heating only).
    "average": Climate(
        "average", -10.0, _AVERAGE, 2066.0, {"to": 179.0, "sb": 0.0, "ck": 3851.0, "off": 3672.0}
    ),
    "warmer": Climate(
        "warmer", 2.0, _WARMER, 1336.0, {"to": 755.0, "sb": 0.0, "ck": 4476.0, "off": 4345.0}
    ),
    "colder": Climate(
        "colder", -22.0, _COLDER, 2465.0, {"to": 131.0, "sb": 0.0, "ck": 2944.0, "off": 2189.0}
    ),
}
"""The reference heating seasons, by name."""

COOLING = Climate(
    # Tdesignc 35 degC (clause 5, Table 2); HCE 350 h and the off-mode hours of a reversible unit
    # (Annex A, Table A.5): HTO 221, HSB 2142, HCK 2672, HOFF 0.
    "cooling",
    35.0,
    _COOLING,
    350.0,
    {"to": 221.0, "sb": 2142.0, "ck": 2672.0, "off": 0.0},
)
"""The reference cooling season."""

OFF_MODES: tuple[str, ...] = ("to", "sb", "ck", "off")
"""Off-mode keys: thermostat-off, standby, crankcase heater, off."""

CC = 2.5
"""Conversion coefficient of electricity (primary energy factor) for eta_s [-] (EN 14825:2018
clause 3 and Regulation (EU) No 813/2013 Annex I; later regulations use 2.1: pass it)."""

F1_TEMPERATURE_CONTROL = 3.0
"""Correction F(1) for temperature controls [percentage points] (Regulation 813/2013 Annex III)."""

F2_GROUND_WATER_PUMP = 5.0
"""Correction F(2) for the ground-water pump of water/brine-to-water units [percentage points]."""


@dataclass(frozen=True)
class TestPoint:
    """A part-load test condition of an air-to-water unit.

    Attributes
    ----------
    name : str
        ``A``..``D`` and ``G`` (colder only); ``E`` (operation limit) and ``F`` (bivalent
        point) are added per unit.
    t_c : float
        Outdoor dry-bulb temperature [degC].
    outlet_c : dict
        Water outlet temperature of a variable-outlet unit by application (``low``: 35 degC,
        ``medium``: 55 degC at the design temperature) [degC].
    """

    name: str
    t_c: float
    outlet_c: dict[str, float]


# EN 14825:2018 clause 7, Tables 14 and 15 (air-to-water units, low and medium temperature
# application, variable outlet). The part load of each point is (Tj - 16)/(Tdesignh - 16).
HEATING_TEST_POINTS: dict[str, tuple[TestPoint, ...]] = {
    "average": (
        TestPoint("A", -7.0, {"low": 34.0, "medium": 52.0}),
        TestPoint("B", 2.0, {"low": 30.0, "medium": 42.0}),
        TestPoint("C", 7.0, {"low": 27.0, "medium": 36.0}),
        TestPoint("D", 12.0, {"low": 24.0, "medium": 30.0}),
    ),
    "warmer": (
        TestPoint("B", 2.0, {"low": 35.0, "medium": 55.0}),
        TestPoint("C", 7.0, {"low": 31.0, "medium": 46.0}),
        TestPoint("D", 12.0, {"low": 26.0, "medium": 34.0}),
    ),
    "colder": (
        TestPoint("G", -15.0, {"low": 32.0, "medium": 49.0}),
        TestPoint("A", -7.0, {"low": 30.0, "medium": 44.0}),
        TestPoint("B", 2.0, {"low": 27.0, "medium": 37.0}),
        TestPoint("C", 7.0, {"low": 25.0, "medium": 32.0}),
        TestPoint("D", 12.0, {"low": 24.0, "medium": 28.0}),
    ),
}
"""Heating test points A, B, C, D (and G) per climate."""

APPLICATIONS: dict[str, float] = {"low": 35.0, "medium": 55.0}
"""Water outlet temperature at the design condition (and of a fixed-outlet unit) [degC]."""

COOLING_TEST_POINTS: tuple[tuple[str, float], ...] = (
    ("A", 35.0),
    ("B", 30.0),
    ("C", 25.0),
    ("D", 20.0),
)
"""Cooling test points A..D (EN 14825:2018 clause 7): outdoor dry bulb [degC]."""

COOLING_APPLICATIONS: dict[str, float] = {"fan_coil": 7.0, "floor": 18.0}
"""Water outlet temperature of a fixed-outlet air-to-water chiller in cooling (EN 14825:2018
clause 7: fan coil 12/7 degC, floor cooling 23/18 degC) [degC]."""
