"""The editions of IEC 60335-2-40 whose Annex GG this workbench applies: the data, in one place.

Who reads it: :func:`workbench.safety.annex_gg.charge_limits`. Each limit carries the edition
and clause it comes from, so a result can say where every number comes from.

Edition 6 (IEC 60335-2-40:2018) added the rules for A2L refrigerants to Annex GG. What this
workbench applies from it (clause numbers as the manufacturers' installation manuals cite
them; docs/charge.md reproduces a manufacturer's R32 table these rules reproduce):

- GG.1: ``m1 = 4 m3 x LFL``, ``m2 = 26 m3 x LFL``, ``m3 = 130 m3 x LFL``; a charge up to m1
  needs no room-area requirement; for an A2L refrigerant the charge free of a room-area
  requirement is ``6 m3 x LFL`` (1.5 m1; 1.84 kg of R32, the threshold R32 manufacturers print);
- GG.2: ``m_max = 2.5 LFL^(5/4) h0 A^(1/2)`` and ``A_min = (m_c / (2.5 LFL^(5/4) h0))^2`` up to
  m2 (A2, A3) or m3 (A2L), with h0 0.6 m floor-standing, 1.0 window, 1.8 wall, 2.2 ceiling and
  never below 0.6 m.

Edition 7 (IEC 60335-2-40:2022) keeps those formulas and thresholds and defines the release
height as the installation height plus the release offset, ``h0 = h_inst + h_rel`` with
``h_inst`` 0.0 m floor-standing, 1.0 window, 1.8 wall, 2.2 ceiling, and h0 at least 0.6 m
(:func:`release_height_ed7`). Its further A2L routes (mitigation by circulation airflow, leak
detection and ventilation) are not modelled.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EDITIONS", "H0_MIN_M", "INSTALL_HEIGHTS_M", "Edition", "edition", "release_height_ed7"]

H0_MIN_M = 0.6
"""Lowest release height h0 of GG.2 [m] (both editions)."""

INSTALL_HEIGHTS_M: dict[str, float] = {"floor": 0.0, "window": 1.0, "wall": 1.8, "ceiling": 2.2}
"""Reference installation height h_inst of edition 7 [m] per installation."""


@dataclass(frozen=True)
class Edition:
    """One edition of IEC 60335-2-40 Annex GG.

    Attributes
    ----------
    number : int
        Edition number (6 or 7).
    standard : str
        ``IEC 60335-2-40:2018`` or ``IEC 60335-2-40:2022``.
    m1_m3, m2_m3, m3_m3 : float
        Volumes [m3] that times the LFL give m1, m2 and m3 (GG.1).
    a2l_free_m3 : float
        Volume [m3] that times the LFL gives the A2L charge free of room-area requirements.
    gg2_coefficient : float
        The constant of GG.2 [kg^(-1/4) m^(5/4)].
    clauses : dict of str to str
        Limit name -> clause (``m1``, ``m2``, ``m3``, ``free_a2l``, ``m_max``, ``A_min``, ``h0``).
    """

    number: int
    standard: str
    m1_m3: float
    m2_m3: float
    m3_m3: float
    a2l_free_m3: float
    gg2_coefficient: float
    clauses: dict[str, str]

    def cite(self, limit: str) -> str:
        """``"IEC 60335-2-40:2018 (edition 6) Annex GG, GG.2"`` for a limit's name."""
        return f"{self.standard} (edition {self.number}) Annex GG, {self.clauses[limit]}"


_CLAUSES = {
    "m1": "GG.1",
    "m2": "GG.1",
    "m3": "GG.1",
    "free_a2l": "GG.1 (A2L: 6 m3 x LFL)",
    "m_max": "GG.2",
    "A_min": "GG.2",
}

EDITIONS: dict[int, Edition] = {
    6: Edition(
        6,
        "IEC 60335-2-40:2018",
        4.0,
        26.0,
        130.0,
        6.0,
        2.5,
        {**_CLAUSES, "h0": "GG.2 (h0 per installation, at least 0.6 m)"},
    ),
    7: Edition(
        7,
        "IEC 60335-2-40:2022",
        4.0,
        26.0,
        130.0,
        6.0,
        2.5,
        {**_CLAUSES, "h0": "GG.2 (h0 = h_inst + h_rel, at least 0.6 m)"},
    ),
}
"""The editions by number; the latest is the default of :func:`workbench.safety.charge_limits`."""


def edition(number: int | None) -> Edition:
    """The edition ``number`` (None: the latest).

    Raises
    ------
    ValueError
        An edition this workbench does not apply (the message lists those it does).
    """
    if number is None:
        return EDITIONS[max(EDITIONS)]
    if number not in EDITIONS:
        known = ", ".join(f"{k} ({e.standard})" for k, e in EDITIONS.items())
        raise ValueError(f"unknown edition {number!r} of IEC 60335-2-40; use one of {known}")
    return EDITIONS[number]


def release_height_ed7(installation: str, release_offset_m: float = 0.0) -> float:
    """Edition 7's release height ``max(h_inst + h_rel, 0.6 m)`` [m].

    Parameters
    ----------
    installation : str
        ``floor``, ``window``, ``wall`` or ``ceiling``.
    release_offset_m : float
        ``h_rel``: from the unit's installed height to its lowest release point [m].

    Raises
    ------
    ValueError
        An unknown installation.
    """
    if installation not in INSTALL_HEIGHTS_M:
        raise ValueError(
            f"unknown installation {installation!r}; use {', '.join(INSTALL_HEIGHTS_M)}"
        )
    return max(INSTALL_HEIGHTS_M[installation] + release_offset_m, H0_MIN_M)
