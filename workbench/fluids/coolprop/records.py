"""What the CoolProp backend's modules share: input codes, memo keys, record layouts, constants.

The backend (:mod:`workbench.fluids.coolprop.backend`) remembers the records of its flashes
and the values derived from them in one dict keyed by ``(operation, input a, input b)``; the
operation codes below name the kind of entry. A (p, h) record is the tuple (T [K], s [J/kg/K],
rho [kg/m3], CoolProp phase, quality [-]); a saturation record (PQ) is (T [K], h [J/kg],
s [J/kg/K], rho [kg/m3]). Plain tuples: they are built on every flash, and a named tuple costs
several times more to build.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

import CoolProp.CoolProp as CP

__all__ = [
    "DT",
    "HP",
    "MEMO_SIZE",
    "NEAR_ISOBAR",
    "OP_DHLIQ",
    "OP_DHVAP",
    "OP_DRHO_DH",
    "OP_DRHO_DP",
    "OP_DTBUB",
    "OP_DTDH",
    "OP_DTDP",
    "OP_DTSAT",
    "OP_H_MIN",
    "OP_PH",
    "OP_PQ",
    "OP_PS",
    "OP_PT",
    "OP_QT",
    "PHASE_NAMES",
    "PH_PHASE",
    "PH_QUALITY",
    "PH_RHO",
    "PH_S",
    "PH_T",
    "PQ",
    "PS",
    "PT",
    "QT",
    "SAT_H",
    "SAT_RHO",
    "SAT_S",
    "SAT_T",
    "TWO_PHASE",
    "FluidConstants",
    "PHRecord",
    "SatRecord",
    "fluid_constants",
    "is_bad",
]

MEMO_SIZE = 256
"""Entries the backend remembers (records of flashes and derived values); oldest dropped first."""

NEAR_ISOBAR = 1e-9
"""Pressures this close (relative) count as one isobar for a single-phase state's start and
side of the dome: the saturation enthalpies move by about 1e-4 J/kg over it, far inside the
1 J/kg margin kept from them."""

# CoolProp's input pairs
HP = CP.HmassP_INPUTS
PQ = CP.PQ_INPUTS
QT = CP.QT_INPUTS
PT = CP.PT_INPUTS
PS = CP.PSmass_INPUTS
DT = CP.DmassT_INPUTS
TWO_PHASE = CP.iphase_twophase

# operations of the memo keys: (operation, input a, input b)
OP_PH, OP_PQ, OP_QT, OP_PT, OP_PS = range(5)
OP_H_MIN = 5
OP_DTDH, OP_DRHO_DP, OP_DRHO_DH = 7, 8, 9
OP_DHLIQ, OP_DHVAP, OP_DTSAT = 10, 11, 12
OP_DTDP, OP_DTBUB = 13, 14

PHASE_NAMES: dict[Any, str] = {
    CP.iphase_liquid: "liquid",
    CP.iphase_gas: "vapour",
    CP.iphase_supercritical_gas: "vapour",
    CP.iphase_supercritical_liquid: "supercritical",
    CP.iphase_supercritical: "supercritical",
    CP.iphase_twophase: "two-phase",
}
"""The workbench's phase label of each CoolProp phase code (below the critical pressure)."""

PH_T, PH_S, PH_RHO, PH_PHASE, PH_QUALITY = 0, 1, 2, 3, 4  # fields of a (p, h) record
SAT_T, SAT_H, SAT_S, SAT_RHO = 0, 1, 2, 3  # fields of a saturation record
PHRecord = tuple[float, float, float, int, float]
SatRecord = tuple[float, float, float, float]


@dataclass(frozen=True)
class FluidConstants:
    """What a fluid is, independent of any state (read once per fluid and backend string).

    Attributes
    ----------
    T_crit, p_crit : float
        Critical temperature [K] and pressure [Pa].
    t_min, t_max : float
        Temperature range of the equation of state [K].
    p_min, p_max : float
        Triple-point pressure (1 Pa when CoolProp has none) and highest pressure [Pa].
    pure : bool
        A pure fluid (not a mixture or pseudo-pure blend).
    melting : bool
        CoolProp has a melting line for the fluid.
    """

    T_crit: float
    p_crit: float
    t_min: float
    t_max: float
    p_min: float
    p_max: float
    pure: bool
    melting: bool


@cache
def fluid_constants(cp_backend: str, fluid: str) -> FluidConstants:
    """Critical point, limits and kind of ``fluid`` (immutable facts, so cached per process).

    Raises
    ------
    ValueError
        CoolProp cannot make an ``AbstractState`` of ``cp_backend`` for ``fluid``.
    """
    a = CP.AbstractState(cp_backend, fluid)
    return FluidConstants(
        T_crit=a.T_critical(),
        p_crit=a.p_critical(),
        t_min=a.Tmin(),
        t_max=a.Tmax(),
        p_min=a.trivial_keyed_output(CP.iP_triple) or 1.0,
        p_max=a.pmax(),
        pure=CP.get_fluid_param_string(fluid, "pure") == "true",
        melting=a.has_melting_line(),
    )


def is_bad(value: float) -> bool:
    """True when ``value`` is NaN or infinite."""
    return value != value or value in (math.inf, -math.inf)
