"""Declared points as a certificate gives them: checked, merged per temperature, flagged.

Who reads it: the bin method (:mod:`workbench.seasonal.bins`) takes the sorted points this
module returns, and the rating of a table of declarations
(:mod:`workbench.seasonal.declared_table`) turns the :class:`Inconsistency` records into flags.

Rules applied here (docs/seasonal.md, "Declared data, as declared"):

* **Per-point Cd.** A point may carry its own ``cd`` (the degradation coefficient measured at
  that point, in [0, 1]); without it the rating's ``cd`` applies.
* **Points at one temperature.** A certificate often declares the bivalent point F (or the
  operation limit E) at the temperature of a standard point (A at -7 degC), measured again and
  differing in the last digit (8.10 against 8.14 kW). Such points are merged into one, named
  ``A/F``, and the values of the *standard* point are kept: the priority is A, B, C, D, G
  (the standard's part-load points, measured at the part load of their bin), then E, then F,
  then any other name, then the order given. A difference between the merged values is an
  :class:`Inconsistency` of kind ``duplicate`` (reported, not an error).
* **Placeholder points.** A capacity below :data:`PLACEHOLDER_KW` or a COP of exactly 1 (the
  ``0.01 kW at COP 1`` some databases hold for a point the unit cannot reach) is used as
  declared and reported as kind ``placeholder``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workbench.errors import WorkbenchError

__all__ = [
    "PLACEHOLDER_KW",
    "STANDARD_POINTS",
    "DeclaredPoint",
    "Inconsistency",
    "RatingInputError",
    "declared_points",
]

PLACEHOLDER_KW = 0.05
"""A declared capacity below this is a placeholder, not a measurement [kW]."""

STANDARD_POINTS = ("A", "B", "C", "D", "G")
"""The standard's part-load points: their values win when points share a temperature."""


class RatingInputError(WorkbenchError, ValueError):
    """Declared points or rating settings that the bin method cannot use (the message says where)."""


@dataclass(frozen=True)
class DeclaredPoint:
    """One declared point: capacity and COP (EER) at one outdoor temperature.

    Attributes
    ----------
    name : str
        Label (``A``, ``TOL`` ...; ``points[i]`` when none was given; ``A/F`` when merged).
    t_c : float
        Outdoor temperature [degC].
    capacity_kw : float
        Declared capacity Pdh (Pdc) [kW].
    cop : float
        Declared COPd (EERd) [-].
    cd : float or None
        The point's own degradation coefficient Cdh (Cdc) [-]; None: the rating's ``cd``.
    """

    name: str
    t_c: float
    capacity_kw: float
    cop: float
    cd: float | None = None


@dataclass(frozen=True)
class Inconsistency:
    """Something a declaration says that does not hold together (reported, not charged).

    Attributes
    ----------
    kind : str
        ``duplicate`` (points at one temperature with different values), ``placeholder``
        (a point that is not a measurement), ``capacity_below_load`` (a declared capacity
        short of the load at or above Tbiv, where the unit covers the load by declaration).
    where : str
        The point(s) concerned (``A/F``, ``B``).
    message : str
        What differs, with the numbers.
    value : float
        The size of it: the largest relative difference (``duplicate``), the capacity [kW]
        (``placeholder``) or the shortfall as a fraction of the load (``capacity_below_load``).
    """

    kind: str
    where: str
    message: str
    value: float


def _rank(name: str) -> int:
    parts = name.split("/")
    first = parts[0] if parts else name
    if first in STANDARD_POINTS:
        return 0
    return {"E": 1, "F": 2}.get(first, 3)


def _number(raw: Mapping[str, Any], field: str, where: str, name: str) -> float:
    value = raw.get(field)
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RatingInputError(f"{where} ({name}): {field} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise RatingInputError(f"{where} ({name}): {field} must be finite, got {value!r}")
    return float(value)


def _point(raw: Mapping[str, Any], i: int, key: str) -> DeclaredPoint:
    where = f"points[{i}]"
    name = str(raw.get("name", where))
    fields = dict(raw)
    if key == "eer" and "eer" not in fields:
        fields["eer"] = fields.get("cop")
    t_c = _number(fields, "t_c", where, name)
    capacity = _number(fields, "capacity_kw", where, name)
    cop = _number(fields, key, where, name)
    if capacity <= 0 or cop <= 0:
        raise RatingInputError(f"{where} ({name}): capacity_kw and {key} must be > 0")
    cd = None
    if fields.get("cd") is not None:
        cd = _number(fields, "cd", where, name)
        if not 0.0 <= cd <= 1.0:
            raise RatingInputError(f"{where} ({name}): cd must be in [0, 1], got {cd!r}")
    return DeclaredPoint(name, t_c, capacity, cop, cd)


def declared_points(
    points: Sequence[Mapping[str, Any]],
    key: str = "cop",
    issues: list[Inconsistency] | None = None,
) -> list[DeclaredPoint]:
    """Check, merge per temperature and sort declared points given as mappings.

    Parameters
    ----------
    points : sequence of mapping
        Each with ``t_c`` [degC], ``capacity_kw`` [kW] and ``cop`` (or ``eer`` for cooling) [-];
        ``name`` and ``cd`` [-] optional.
    key : str
        ``cop`` or ``eer``: the efficiency key (``cop`` is accepted for both).
    issues : list of Inconsistency, optional
        Receives the duplicates and placeholders found (see the module docstring).

    Returns
    -------
    list of DeclaredPoint
        Sorted by temperature, one per temperature (the standard point's values kept).

    Raises
    ------
    RatingInputError
        Fewer than two distinct temperatures, a missing, non-finite or non-positive value, or
        a ``cd`` outside [0, 1].
    """
    found = issues if issues is not None else []
    groups: dict[float, list[tuple[int, DeclaredPoint]]] = {}
    for i, raw in enumerate(points):
        point = _point(raw, i, key)
        groups.setdefault(point.t_c, []).append((i, point))
        if point.capacity_kw < PLACEHOLDER_KW or point.cop == 1.0:
            found.append(
                Inconsistency(
                    "placeholder",
                    point.name,
                    f"{point.name} at {point.t_c:g} degC declares {point.capacity_kw:g} kW at "
                    f"{key.upper()} {point.cop:g}: a placeholder, not a measurement",
                    point.capacity_kw,
                )
            )
    if len(groups) < 2:
        raise RatingInputError("points: at least two declared temperatures are needed")
    out = []
    for t in sorted(groups):
        group = sorted(groups[t], key=lambda ip: (_rank(ip[1].name), ip[0]))
        kept = group[0][1]
        if len(group) > 1:
            names = "/".join(p.name for _, p in group)
            spread = max(
                max(
                    abs(p.capacity_kw - kept.capacity_kw) / kept.capacity_kw,
                    abs(p.cop - kept.cop) / kept.cop,
                )
                for _, p in group
            )
            if spread > 1e-9:
                others = ", ".join(f"{p.name} {p.capacity_kw:g} kW {p.cop:g}" for _, p in group)
                found.append(
                    Inconsistency(
                        "duplicate",
                        names,
                        f"points at {t:g} degC differ ({others}): {kept.name}'s values kept",
                        spread,
                    )
                )
            kept = DeclaredPoint(names, kept.t_c, kept.capacity_kw, kept.cop, kept.cd)
        out.append(kept)
    return out
