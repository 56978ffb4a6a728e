"""Refrigerant charge limits of IEC 60335-2-40 Annex GG for flammable refrigerants.

Who reads it: the ``safety`` block of a scenario (:func:`workbench.safety.assess`), the
charge notebook and anyone sizing a propane or A2L unit against the room it serves.

Equations (Annex GG, GG.1 and GG.2, of edition 6, IEC 60335-2-40:2018, and edition 7,
IEC 60335-2-40:2022; the data and what each edition changed in
:mod:`workbench.safety.editions`; LFL [kg/m3] from :mod:`workbench.safety.refrigerants`)::

    m1 = 4 m3   * LFL                             (GG.1: charge allowed without room limits)
    m2 = 26 m3  * LFL
    m3 = 130 m3 * LFL
    m_free = 6 m3 * LFL  (A2L; m1 else)           (GG.1: no room-area requirement up to it)
    m_max = 2.5 * LFL^(5/4) * h0 * A^(1/2)        (GG.2: maximum charge in a room of area A)
    A_min = (m / (2.5 * LFL^(5/4) * h0))^2        (GG.2 solved for the area)

with ``m_max`` [kg], ``A`` the room floor area [m2] and ``h0`` the release height [m] of the
installation: 0.6 floor-mounted, 1.0 window, 1.8 wall-mounted, 2.2 ceiling-mounted, and never
below 0.6 m. The coefficient 2.5 carries the unit kg^(-1/4) m^(5/4) that makes ``m_max`` come
out in kg.

How a charge ``m`` is judged (this workbench's reading of the clauses, see docs/charge.md):

* ``m <= m_free``: complies whatever the room (152 g of R290, 1.842 kg of R32);
* ``m_free < m <= m_cap``: complies when ``m <= m_max(A, h0)``; the GG.2 formula applies up to
  ``m_cap = m2`` for class 2 and 3 refrigerants and ``m3`` for class 2L;
* ``m > m_cap``: beyond GG.2; other measures of the standard (ventilation, detection,
  sealed enclosures) are not modelled, so it does not comply here.

Non-flammable (class 1) refrigerants have no LFL and Annex GG sets no limit: the result says so.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from workbench.safety.editions import H0_MIN_M, Edition
from workbench.safety.editions import edition as edition_of
from workbench.safety.refrigerants import SOURCE, refrigerant_safety

__all__ = [
    "GG2_COEFFICIENT",
    "RELEASE_HEIGHTS_M",
    "STANDARD",
    "ChargeLimits",
    "charge_limits",
    "max_charge_kg",
    "min_room_area_m2",
    "release_height_m",
]

STANDARD = "IEC 60335-2-40:2022 Annex GG"
"""The latest standard and edition this module applies (the default; edition 6 on request)."""

GG2_COEFFICIENT = 2.5
"""The constant of GG.2 [kg^(-1/4) m^(5/4)]."""

RELEASE_HEIGHTS_M: dict[str, float] = {"floor": 0.6, "window": 1.0, "wall": 1.8, "ceiling": 2.2}
"""Release height h0 [m] of each installation of Annex GG."""


def release_height_m(value: float | str) -> float:
    """The release height [m]: a number, or an installation name of :data:`RELEASE_HEIGHTS_M`.

    Raises
    ------
    ValueError
        An unknown installation name or a height that is not positive.
    """
    if isinstance(value, str):
        if value not in RELEASE_HEIGHTS_M:
            raise ValueError(
                f"unknown release height {value!r}; use one of "
                f"{', '.join(f'{k} ({v} m)' for k, v in RELEASE_HEIGHTS_M.items())} or metres"
            )
        return RELEASE_HEIGHTS_M[value]
    if not value > 0.0:
        raise ValueError(f"release height must be > 0 m, got {value!r}")
    return float(value)


def max_charge_kg(lfl_kg_m3: float, room_area_m2: float, h0_m: float) -> float:
    """The GG.2 maximum charge ``2.5 LFL^(5/4) h0 A^(1/2)`` [kg].

    Parameters
    ----------
    lfl_kg_m3 : float
        Lower flammability limit [kg/m3].
    room_area_m2 : float
        Room floor area [m2].
    h0_m : float
        Release height [m].
    """
    return float(GG2_COEFFICIENT * lfl_kg_m3**1.25 * h0_m * math.sqrt(room_area_m2))


def min_room_area_m2(lfl_kg_m3: float, charge_kg: float, h0_m: float) -> float:
    """The smallest room floor area [m2] in which GG.2 allows ``charge_kg`` [kg].

    Parameters
    ----------
    lfl_kg_m3 : float
        Lower flammability limit [kg/m3].
    charge_kg : float
        Refrigerant charge [kg].
    h0_m : float
        Release height [m].
    """
    return float((charge_kg / (GG2_COEFFICIENT * lfl_kg_m3**1.25 * h0_m)) ** 2)


@dataclass(frozen=True)
class ChargeLimits:
    """The Annex GG limits for one refrigerant, room and release height, and a charge's verdict.

    Attributes
    ----------
    fluid, safety_class : str
        The refrigerant and its ISO 817 class.
    lfl_kg_m3 : float or None
        Lower flammability limit [kg/m3] (None: non-flammable, no limit).
    room_area_m2, release_height_m : float
        The room floor area [m2] and release height h0 [m].
    m1_kg, m2_kg, m3_kg : float or None
        4, 26 and 130 m3 times the LFL [kg].
    free_kg : float or None
        The largest charge with no room-area requirement [kg]: m1, or 6 m3 times the LFL for
        an A2L refrigerant.
    m_max_kg : float or None
        The GG.2 formula for this room [kg].
    allowed_kg : float or None
        The largest charge that complies in this room [kg]: ``max(m1, min(m_max, m_cap))``.
    charge_kg : float or None
        The charge judged [kg] (None: limits only).
    min_room_area_m2 : float or None
        The smallest room for that charge [m2]: 0 at or below m1, None beyond ``m_cap``.
    complies : bool or None
        Whether the charge complies (None when no charge was given).
    margin_kg : float or None
        ``allowed_kg - charge_kg`` [kg] (negative: over the limit).
    message : str
        The verdict in one sentence.
    standard, source : str
        The standard applied and where the LFL comes from.
    edition : int
        The edition of IEC 60335-2-40 applied (6 or 7).
    clauses : dict of str to str
        Where each limit comes from: ``m1``, ``m2``, ``m3``, ``free``, ``m_max``, ``A_min``,
        ``h0`` -> standard, edition and clause (``"IEC 60335-2-40:2018 (edition 6) Annex GG,
        GG.2"``); empty for a non-flammable refrigerant.
    """

    fluid: str
    safety_class: str
    lfl_kg_m3: float | None
    room_area_m2: float
    release_height_m: float
    m1_kg: float | None
    m2_kg: float | None
    m3_kg: float | None
    m_max_kg: float | None
    allowed_kg: float | None
    charge_kg: float | None
    min_room_area_m2: float | None
    complies: bool | None
    margin_kg: float | None
    message: str
    standard: str = STANDARD
    source: str = SOURCE
    free_kg: float | None = None
    edition: int = 7
    clauses: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every attribute."""
        return asdict(self)


def charge_limits(
    fluid: str,
    room_area_m2: float,
    release_height_m: float | str,
    charge_kg: float | None = None,
    edition: int | None = None,
) -> ChargeLimits:
    """The Annex GG charge limits of ``fluid`` in a room, and whether ``charge_kg`` complies.

    Parameters
    ----------
    fluid : str
        Refrigerant name (``R290``, ``Propane``, ``R454B`` ...).
    room_area_m2 : float
        Floor area of the room the unit serves [m2].
    release_height_m : float or str
        Release height h0 [m], or ``floor`` / ``window`` / ``wall`` / ``ceiling``.
    charge_kg : float, optional
        The unit's charge [kg] to judge.
    edition : int, optional
        Edition of IEC 60335-2-40: 6 (2018) or 7 (2022, the default).

    Returns
    -------
    ChargeLimits
        m1, m2, m3, the room's maximum charge, and the verdict (see module docstring).

    Raises
    ------
    KeyError
        The fluid is not in :data:`workbench.safety.refrigerants.REFRIGERANTS`.
    ValueError
        A room area that is not positive, a bad release height, a negative charge or an
        unknown edition.
    """
    ed = edition_of(edition)
    h0 = max(_release(release_height_m), H0_MIN_M)
    if not room_area_m2 > 0.0:
        raise ValueError(f"room_area_m2 must be > 0 m2, got {room_area_m2!r}")
    if charge_kg is not None and not charge_kg >= 0.0:
        raise ValueError(f"charge_kg must be >= 0 kg, got {charge_kg!r}")
    row = refrigerant_safety(fluid)
    lfl = row.lfl_kg_m3
    if lfl is None:
        return ChargeLimits(
            fluid=row.name,
            safety_class=row.safety_class,
            lfl_kg_m3=None,
            room_area_m2=float(room_area_m2),
            release_height_m=h0,
            m1_kg=None,
            m2_kg=None,
            m3_kg=None,
            m_max_kg=None,
            allowed_kg=None,
            charge_kg=charge_kg,
            min_room_area_m2=None,
            complies=None if charge_kg is None else True,
            margin_kg=None,
            message=f"{row.name} is class {row.safety_class} (non-flammable): Annex GG of "
            f"{ed.standard} sets no charge limit",
            standard=f"{ed.standard} Annex GG",
            edition=ed.number,
        )
    m1, m2, m3 = ed.m1_m3 * lfl, ed.m2_m3 * lfl, ed.m3_m3 * lfl
    a2l = row.safety_class == "A2L"  # the standard's scope: A1, A2L, A2, A3 (no B classes)
    free = ed.a2l_free_m3 * lfl if a2l else m1
    cap = m3 if row.safety_class.endswith("2L") else m2
    m_max = max_charge_kg(lfl, room_area_m2, h0)
    allowed = max(free, min(m_max, cap))
    complies = margin = area = None
    if charge_kg is None:
        message = f"{row.name} ({row.safety_class}): at most {allowed:.3f} kg in this room"
    else:
        margin = allowed - charge_kg
        complies = margin >= 0.0
        if charge_kg <= free:
            area = 0.0
        elif charge_kg <= cap:
            area = min_room_area_m2(lfl, charge_kg, h0)
        verdict = "complies" if complies else "does NOT comply"
        need = (
            f"no room-area requirement (at most {free:.3f} kg, {ed.clauses['free_a2l' if a2l else 'm1']})"
            if area == 0.0
            else f"needs a room of at least {area:.1f} m2"
            if area is not None
            else f"is above m_cap = {cap:.3f} kg, beyond GG.2"
        )
        message = (
            f"{row.name} ({row.safety_class}) charge {charge_kg:.3f} kg {verdict} in "
            f"{room_area_m2:g} m2 at h0 = {h0:g} m (allowed {allowed:.3f} kg, margin "
            f"{margin:+.3f} kg); it {need}; {ed.standard} Annex GG"
        )
    return ChargeLimits(
        fluid=row.name,
        safety_class=row.safety_class,
        lfl_kg_m3=lfl,
        room_area_m2=float(room_area_m2),
        release_height_m=h0,
        m1_kg=m1,
        m2_kg=m2,
        m3_kg=m3,
        m_max_kg=m_max,
        allowed_kg=allowed,
        charge_kg=charge_kg,
        min_room_area_m2=area,
        complies=complies,
        margin_kg=margin,
        message=message,
        standard=f"{ed.standard} Annex GG",
        free_kg=free,
        edition=ed.number,
        clauses=_clauses(ed, a2l),
    )


def _clauses(ed: Edition, a2l: bool) -> dict[str, str]:
    """Where each limit comes from (standard, edition, clause)."""
    out = {k: ed.cite(k) for k in ("m1", "m2", "m3", "m_max", "A_min", "h0")}
    out["free"] = ed.cite("free_a2l" if a2l else "m1")
    return out


def _release(value: float | str) -> float:
    """:func:`release_height_m` (shadowed inside :func:`charge_limits` by its parameter)."""
    return release_height_m(value)
