"""The humidity of the rating standards' test conditions, for coils that dehumidify.

A coil from its geometry (``geometry`` on an evaporator) condenses water, and frosts below
0 degC, so its capacity depends on the inlet air's humidity. The standards give it as a wet-bulb
temperature beside the dry bulb; this module holds those conditions and turns them into the
``air_inlet_rh`` a coil reads.

EN 14825:2018, air-to-water units, heating (outdoor air at the evaporator), dry bulb (wet bulb)
[degC]: A -7 (-8), B 2 (1), C 7 (6), D 12 (11). The standard sets the wet bulb 1 K below the
dry bulb at every one of them; the points E (TOL), F (Tbiv) and G (-15 degC, no wet bulb in
the standard's table) take the same 1 K depression here, a choice of ours
(:data:`EN14825_WET_BULB_DEPRESSION_K`). In cooling the outdoor coil of an air-to-water unit is
the condenser, which sees dry-bulb air only: no humidity is set.

AHRI 210/240-2023 (split air conditioners and heat pumps), dry bulb / wet bulb [degF]:
cooling A and B indoor 80/67, outdoor 95/75 (A) and 82/65 (B); heating H1 outdoor 47/43,
H2 35/33, H3 17/15, indoor 70/60 (:data:`AHRI_CONDITIONS`).

Relative humidity from dry and wet bulb by ASHRAE's psychrometric equations (psychrolib,
Handbook Fundamentals 2017 ch. 1, eq. 33-35; below 0 degC the wet bulb is an ice bulb).
"""

from __future__ import annotations

from dataclasses import dataclass

import psychrolib

from workbench.correlations import humid_air

__all__ = [
    "AHRI_CONDITIONS",
    "EN14825_HEATING_WET_BULB_C",
    "EN14825_WET_BULB_DEPRESSION_K",
    "AirCondition",
    "en14825_outdoor_rh",
    "relative_humidity_from_wet_bulb",
]

EN14825_HEATING_WET_BULB_C: dict[float, float] = {-7.0: -8.0, 2.0: 1.0, 7.0: 6.0, 12.0: 11.0}
"""Outdoor wet bulb of EN 14825's heating points A..D [degC] by dry bulb [degC]."""

EN14825_WET_BULB_DEPRESSION_K = 1.0
"""Wet-bulb depression taken at outdoor temperatures the table above does not list [K]."""


@dataclass(frozen=True)
class AirCondition:
    """A test condition's air: dry bulb and wet bulb [degC].

    Attributes
    ----------
    dry_bulb_c, wet_bulb_c : float
        Dry-bulb and wet-bulb temperatures [degC].
    """

    dry_bulb_c: float
    wet_bulb_c: float

    def rh(self, p_pa: float = humid_air.P_ATM) -> float:
        """Relative humidity of the condition [-] at pressure ``p_pa`` [Pa]."""
        return relative_humidity_from_wet_bulb(self.dry_bulb_c, self.wet_bulb_c, p_pa)


def _f(t_f: float) -> float:
    return (t_f - 32.0) / 1.8


AHRI_CONDITIONS: dict[str, dict[str, AirCondition]] = {
    "A": {"indoor": AirCondition(_f(80), _f(67)), "outdoor": AirCondition(_f(95), _f(75))},
    "B": {"indoor": AirCondition(_f(80), _f(67)), "outdoor": AirCondition(_f(82), _f(65))},
    "H1": {"indoor": AirCondition(_f(70), _f(60)), "outdoor": AirCondition(_f(47), _f(43))},
    "H2": {"indoor": AirCondition(_f(70), _f(60)), "outdoor": AirCondition(_f(35), _f(33))},
    "H3": {"indoor": AirCondition(_f(70), _f(60)), "outdoor": AirCondition(_f(17), _f(15))},
}
"""AHRI 210/240-2023 test conditions (Tables 5-8): indoor and outdoor air by test name."""


def relative_humidity_from_wet_bulb(
    dry_bulb_c: float, wet_bulb_c: float, p_pa: float = humid_air.P_ATM
) -> float:
    """Relative humidity [-] of air at a dry bulb and a wet bulb [degC], pressure ``p_pa`` [Pa].

    Raises
    ------
    ValueError
        The wet bulb is above the dry bulb.
    """
    if wet_bulb_c > dry_bulb_c:
        raise ValueError(f"wet bulb {wet_bulb_c:g} degC above the dry bulb {dry_bulb_c:g} degC")
    humid_air.humidity_ratio(dry_bulb_c + 273.15, 0.0, p_pa)  # puts psychrolib in SI units
    return float(psychrolib.GetRelHumFromTWetBulb(dry_bulb_c, wet_bulb_c, p_pa))


def en14825_outdoor_rh(t_c: float, mode: str, p_pa: float = humid_air.P_ATM) -> float | None:
    """Outdoor air relative humidity [-] of an EN 14825 air-to-water test at ``t_c`` [degC].

    Parameters
    ----------
    t_c : float
        Outdoor dry bulb [degC].
    mode : str
        ``heating`` (the outdoor coil evaporates: its wet bulb from the standard, or 1 K below
        the dry bulb) or ``cooling`` (the outdoor coil condenses: None, dry-bulb only).
    p_pa : float
        Air pressure [Pa].
    """
    if mode != "heating":
        return None
    wet = EN14825_HEATING_WET_BULB_C.get(float(t_c), t_c - EN14825_WET_BULB_DEPRESSION_K)
    return relative_humidity_from_wet_bulb(t_c, wet, p_pa)
