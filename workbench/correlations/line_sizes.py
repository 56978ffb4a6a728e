"""Standard copper refrigeration tube sizes and the minimum gas velocities for oil return.

Who reads it: the line sizing (issue 41, ``workbench.lines.size``), which walks a series from the
smallest size up and keeps the first meeting the saturation-temperature drop and the oil-return
velocity; and the oil-return warnings of a solved line.

Series (outer diameter x wall; the inner diameter is ``OD - 2 wall``):

``astm_b280_drawn`` - ASTM B280 ACR tube in straight lengths, hard drawn (the wall of Type L
water tube one size down), in inches:

====== ====== ====== ====== ====== ====== ====== ====== ====== ====== ====== ====== ======
OD     3/8    1/2    5/8    3/4    7/8    1 1/8  1 3/8  1 5/8  2 1/8  2 5/8  3 1/8  4 1/8
wall   .030   .035   .040   .042   .045   .050   .055   .060   .070   .080   .090   .110
====== ====== ====== ====== ====== ====== ====== ====== ====== ====== ====== ====== ======

(3 5/8 in with .100 in between 3 1/8 and 4 1/8.)

``astm_b280_coil`` - ASTM B280 ACR tube in annealed coils, in inches:

====== ====== ====== ====== ====== ====== ====== ====== ====== ====== ======
OD     1/4    5/16   3/8    1/2    5/8    3/4    7/8    1 1/8  1 3/8  1 5/8
wall   .030   .032   .032   .032   .035   .042   .045   .050   .055   .060
====== ====== ====== ====== ====== ====== ====== ====== ====== ====== ======

``en12735_metric`` - metric sizes of EN 12735-1 (Cu-DHP, R 220 annealed or R 290 hard) as
commonly stocked for refrigeration piping, in millimetres: 6 x 1, 8 x 1, 10 x 1, 12 x 1, 15 x 1,
18 x 1, 22 x 1, 28 x 1, 35 x 1.5, 42 x 1.5, 54 x 2, 64 x 2, 76.1 x 2. The standard admits
other walls for most diameters; a high-pressure line (R744, R410A discharge) may need a thicker
one, or CuFe2P, per the pressure rating of EN 12735-1 and EN 378-2.

Minimum velocities for oil return (``OIL_RETURN_VELOCITY_M_S``) - ``"ashrae_rule"`` (default):
the practice of 500 ft/min (2.54 m/s) in horizontal suction and discharge lines and 1000 ft/min
(5.08 m/s) where the gas flows upward, the simplification of the minimum-capacity tables for oil
entrainment in risers of the ASHRAE Refrigeration Handbook, ch. 1 (those tables follow from the
film-flow tests of Jacobs et al. 1976). ``"danfoss_maneurop"``: suction lines only, at least
4 m/s horizontal and 8 m/s in risers (the lower end of Danfoss's 8-12 m/s).

References
----------
.. [1] ASTM B280, Standard Specification for Seamless Copper Tube for Air Conditioning and
   Refrigeration Field Service (Table of standard dimensions); Copper Development Association,
   The Copper Tube Handbook, ACR tube table.
.. [2] EN 12735-1, Copper and copper alloys - Seamless, round tubes for air conditioning and
   refrigeration - Part 1: Tubes for piping systems (Table of nominal outside diameters and wall
   thicknesses).
.. [3] ASHRAE Handbook - Refrigeration, ch. 1 "Halocarbon refrigeration systems" (refrigerant line
   velocities; minimum capacity for oil entrainment up suction and hot-gas risers);
   M. L. Jacobs, F. C. Scheideman, S. C. Kazem, N. A. Macken, "Oil transport by refrigerant
   vapor", ASHRAE Transactions 82 (1976) 318-329; "Refrigeration piping on the rise",
   ACHR News (riser and horizontal velocities).
.. [4] Danfoss, Maneurop reciprocating compressors MT/MTZ, application guidelines, "Piping design:
   suction lines".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = [
    "INCH_M",
    "OIL_RETURN_VELOCITY_M_S",
    "TUBE_SERIES",
    "TubeSize",
    "minimum_oil_return_velocity",
    "tube_sizes",
]

INCH_M = 0.0254
"""One inch [m]."""

FPM_M_S = 0.00508
"""One foot per minute [m/s]."""


@dataclass(frozen=True)
class TubeSize:
    """One standard copper tube.

    Attributes
    ----------
    series : str
        Series name, a key of :data:`TUBE_SERIES`.
    label : str
        Nominal designation as the standard writes it (``7/8 in x 0.045 in``, ``22 x 1``).
    outer_diameter_m : float
        Outer diameter [m].
    wall_m : float
        Wall thickness [m].
    """

    series: str
    label: str
    outer_diameter_m: float
    wall_m: float

    @property
    def inner_diameter_m(self) -> float:
        """Inner diameter, ``OD - 2 wall`` [m]."""
        return self.outer_diameter_m - 2.0 * self.wall_m

    @property
    def flow_area_m2(self) -> float:
        """Flow cross-section ``pi D_i^2 / 4`` [m^2]."""
        return 0.25 * math.pi * self.inner_diameter_m**2

    @property
    def volume_per_length_m3_m(self) -> float:
        """Internal volume per metre of tube [m^3/m] (equal to the flow area)."""
        return self.flow_area_m2


def _inch(series: str, rows: tuple[tuple[str, float, float], ...]) -> tuple[TubeSize, ...]:
    return tuple(
        TubeSize(series, f"{label} in x {wall:.3f} in", od * INCH_M, wall * INCH_M)
        for label, od, wall in rows
    )


_DRAWN = (
    ("3/8", 0.375, 0.030),
    ("1/2", 0.500, 0.035),
    ("5/8", 0.625, 0.040),
    ("3/4", 0.750, 0.042),
    ("7/8", 0.875, 0.045),
    ("1 1/8", 1.125, 0.050),
    ("1 3/8", 1.375, 0.055),
    ("1 5/8", 1.625, 0.060),
    ("2 1/8", 2.125, 0.070),
    ("2 5/8", 2.625, 0.080),
    ("3 1/8", 3.125, 0.090),
    ("3 5/8", 3.625, 0.100),
    ("4 1/8", 4.125, 0.110),
)
_COIL = (
    ("1/4", 0.250, 0.030),
    ("5/16", 0.3125, 0.032),
    ("3/8", 0.375, 0.032),
    ("1/2", 0.500, 0.032),
    ("5/8", 0.625, 0.035),
    ("3/4", 0.750, 0.042),
    ("7/8", 0.875, 0.045),
    ("1 1/8", 1.125, 0.050),
    ("1 3/8", 1.375, 0.055),
    ("1 5/8", 1.625, 0.060),
)
_METRIC_MM = (
    (6.0, 1.0),
    (8.0, 1.0),
    (10.0, 1.0),
    (12.0, 1.0),
    (15.0, 1.0),
    (18.0, 1.0),
    (22.0, 1.0),
    (28.0, 1.0),
    (35.0, 1.5),
    (42.0, 1.5),
    (54.0, 2.0),
    (64.0, 2.0),
    (76.1, 2.0),
)

TUBE_SERIES: dict[str, tuple[TubeSize, ...]] = {
    "astm_b280_drawn": _inch("astm_b280_drawn", _DRAWN),
    "astm_b280_coil": _inch("astm_b280_coil", _COIL),
    "en12735_metric": tuple(
        TubeSize("en12735_metric", f"{od:g} x {wall:g}", od * 1e-3, wall * 1e-3)
        for od, wall in _METRIC_MM
    ),
}
"""The standard series, each sorted by outer diameter."""

OIL_RETURN_VELOCITY_M_S: dict[str, dict[tuple[str, str], float]] = {
    "ashrae_rule": {
        ("suction", "riser"): 1000.0 * FPM_M_S,
        ("suction", "horizontal"): 500.0 * FPM_M_S,
        ("discharge", "riser"): 1000.0 * FPM_M_S,
        ("discharge", "horizontal"): 500.0 * FPM_M_S,
    },
    "danfoss_maneurop": {
        ("suction", "riser"): 8.0,
        ("suction", "horizontal"): 4.0,
    },
}
"""Minimum gas velocity for oil return [m/s] by rule, then (line, orientation)."""


def tube_sizes(series: str = "astm_b280_drawn") -> tuple[TubeSize, ...]:
    """The sizes of one standard series, smallest first.

    Parameters
    ----------
    series : str
        A key of :data:`TUBE_SERIES`.

    Returns
    -------
    tuple of TubeSize
        Sorted by outer diameter.

    Raises
    ------
    ValueError
        For an unknown series, naming the known ones.
    """
    try:
        return TUBE_SERIES[series]
    except KeyError:
        raise ValueError(
            f"unknown tube series {series!r}; known: {', '.join(TUBE_SERIES)}"
        ) from None


def minimum_oil_return_velocity(line: str, orientation: str, rule: str = "ashrae_rule") -> float:
    """Minimum gas velocity that carries oil along a suction or discharge line [m/s].

    Parameters
    ----------
    line : {"suction", "discharge"}
        Which vapour line.
    orientation : {"riser", "horizontal"}
        Upward flow or horizontal (downward lines need no minimum).
    rule : {"ashrae_rule", "danfoss_maneurop"}
        The source of the numbers (module docstring).

    Returns
    -------
    float
        Velocity [m/s].

    Raises
    ------
    ValueError
        For an unknown rule, or a line and orientation the rule gives no number for.
    """
    try:
        table = OIL_RETURN_VELOCITY_M_S[rule]
    except KeyError:
        raise ValueError(
            f"unknown oil-return rule {rule!r}; known: {', '.join(OIL_RETURN_VELOCITY_M_S)}"
        ) from None
    try:
        return table[(line, orientation)]
    except KeyError:
        given = ", ".join(f"{a} {b}" for a, b in table)
        raise ValueError(
            f"rule {rule!r} gives no minimum for a {line} {orientation}; it covers: {given}"
        ) from None
