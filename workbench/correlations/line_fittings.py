"""Loss coefficients of the fittings of a refrigerant line, by kind, from ``fluids.fittings``.

Who reads it: :mod:`.line_pressure_drop` and the line of an edge (``"line": {"fittings":
{"elbow_90": 4, "ball_valve": 1}}``, issue 41), whose keys are the kinds of this table. The
loss of a fitting is ``dp = K rho v^2 / 2`` on the velocity of the line's inner diameter.

The coefficients are Crane's (Technical Paper 410, 2009): a multiple of the fully turbulent
friction factor ``f_T`` of clean commercial pipe of the same size (``fluids.friction.ft_Crane``,
about 0.027 at 12 mm and 0.018 at 54 mm inner diameter), the form the ``fluids`` functions
below evaluate. Refrigeration copper fittings are soldered wrought bends with a centreline
radius near 1.5 D; the bends are taken at that radius.

=================  ==========================================================  ==============
kind               fluids call                                                 K / f_T
=================  ==========================================================  ==============
``elbow_90``       ``bend_rounded_Crane(D, 90, bend_diameters=1.5)``             14
``elbow_45``       ``bend_rounded_Crane(D, 45, bend_diameters=1.5)``             ~10
``return_bend``    ``bend_rounded_Crane(D, 180, bend_diameters=1.5)``            ~22
``ball_valve``     ``K_ball_valve_Crane(D, D, 0)`` (full bore)                    3
``gate_valve``     ``K_gate_valve_Crane(D, D, 0)``                                8
``globe_valve``    ``K_globe_valve_Crane(D, D)``                                340
``check_valve``    ``K_swing_check_valve_Crane(D)`` (swing check)               100
``tee_through``    ``20 ft_Crane(D)`` (flow through the run, Crane A-29)         20
``tee_branch``     ``60 ft_Crane(D)`` (flow through the branch, Crane A-29)      60
=================  ==========================================================  ==============

Crane's ``K`` values hold for fully turbulent flow; in a refrigerant line (``Re`` of 1e4 to 1e6)
they are within the usual +-30 % of fitting data. In two-phase flow the same ``K`` is applied to
the homogeneous density (see :mod:`.line_pressure_drop`).

References
----------
.. [1] Crane Co., Flow of Fluids Through Valves, Fittings, and Pipe, Technical Paper 410 (2009),
   pp. A-27 to A-29.
.. [2] C. Bell, fluids (``fluids.fittings``, ``fluids.friction.ft_Crane``), MIT licence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from fluids.fittings import (
    K_ball_valve_Crane,
    K_gate_valve_Crane,
    K_globe_valve_Crane,
    K_swing_check_valve_Crane,
    bend_rounded_Crane,
)
from fluids.friction import ft_Crane

from workbench.errors import ScenarioError, ScenarioIssue

__all__ = [
    "BEND_DIAMETERS",
    "FITTING_KINDS",
    "fitting_loss_coefficient",
    "fittings_loss_coefficient",
]

BEND_DIAMETERS = 1.5
"""Centreline radius of a wrought copper bend in inner diameters [-]."""


def _bend(angle_deg: float) -> Callable[[float], float]:
    def k(d: float) -> float:
        return float(bend_rounded_Crane(Di=d, angle=angle_deg, bend_diameters=BEND_DIAMETERS))

    return k


def _ft_multiple(multiple: float) -> Callable[[float], float]:
    def k(d: float) -> float:
        return multiple * float(ft_Crane(d))

    return k


_TABLE: dict[str, Callable[[float], float]] = {
    "elbow_90": _bend(90.0),
    "elbow_45": _bend(45.0),
    "return_bend": _bend(180.0),
    "ball_valve": lambda d: float(K_ball_valve_Crane(D1=d, D2=d, angle=0.0)),
    "gate_valve": lambda d: float(K_gate_valve_Crane(D1=d, D2=d, angle=0.0)),
    "globe_valve": lambda d: float(K_globe_valve_Crane(D1=d, D2=d)),
    "check_valve": lambda d: float(K_swing_check_valve_Crane(D=d)),
    "tee_through": _ft_multiple(20.0),
    "tee_branch": _ft_multiple(60.0),
}

FITTING_KINDS: tuple[str, ...] = tuple(_TABLE)
"""The fitting kinds a line may count, in the order of the table above."""


def fitting_loss_coefficient(kind: str, inner_diameter_m: float) -> float:
    """Loss coefficient of one fitting of a kind [-].

    Parameters
    ----------
    kind : str
        One of :data:`FITTING_KINDS`.
    inner_diameter_m : float
        Inner diameter of the line [m].

    Returns
    -------
    float
        ``K`` on the line velocity [-].

    Raises
    ------
    ScenarioError
        For an unknown kind, at path ``fittings.<kind>``.
    """
    try:
        k = _TABLE[kind]
    except KeyError:
        raise ScenarioError(
            [
                ScenarioIssue(
                    f"fittings.{kind}",
                    f"unknown fitting kind; known kinds: {', '.join(FITTING_KINDS)}",
                )
            ]
        ) from None
    return k(inner_diameter_m)


def fittings_loss_coefficient(fittings: Mapping[str, float], inner_diameter_m: float) -> float:
    """Sum of the loss coefficients of counted fittings, ``sum(n_kind K_kind)`` [-].

    Parameters
    ----------
    fittings : mapping of str to number
        Count of each kind, e.g. ``{"elbow_90": 4, "ball_valve": 1}`` [-].
    inner_diameter_m : float
        Inner diameter of the line [m].

    Returns
    -------
    float
        Total ``K`` on the line velocity [-].

    Raises
    ------
    ScenarioError
        Naming every unknown kind and every negative count (path ``fittings.<kind>``).
    """
    issues = [
        ScenarioIssue(
            f"fittings.{kind}", f"unknown fitting kind; known kinds: {', '.join(FITTING_KINDS)}"
        )
        for kind in fittings
        if kind not in _TABLE
    ]
    issues += [
        ScenarioIssue(f"fittings.{kind}", f"count must be >= 0, got {count!r}")
        for kind, count in fittings.items()
        if kind in _TABLE and not count >= 0
    ]
    if issues:
        raise ScenarioError(issues)
    return sum(count * _TABLE[kind](inner_diameter_m) for kind, count in fittings.items())
