"""Safety class and lower flammability limit (LFL) of refrigerants: the data, in one table.

Who reads it: :func:`workbench.safety.annex_gg.charge_limits` (the charge limits of
IEC 60335-2-40 Annex GG need the LFL) and the ``safety`` block of a scenario.

Source: ISO 817:2014 (with Amd 1:2021), "Refrigerants -- Designation and safety
classification", Table A.1 (pure refrigerants) and Tables A.2/A.3 (zeotropic and azeotropic
blends), LFL column; the same values stand in ANSI/ASHRAE Standard 34-2022, Tables 4-1 and
4-2 (LFL in kg/m3 at 23 degC and 101.3 kPa, blends at their worst case of fractionation
(WCFF)). The safety class is the standard's two-character class: toxicity A (lower) or B
(higher), flammability 1 (no flame propagation), 2L, 2, 3. A class-1 refrigerant has no LFL
(``None``): Annex GG sets no charge limit for it.

Names are compared after :func:`normalise_name` (upper case, ``-``, ``_``, spaces and
parentheses dropped), and CoolProp's names of the pure fluids (``Propane``, ``IsoButane``,
``Ammonia``, ``CO2``) are aliases of their R numbers, so a scenario's ``fluid`` finds its
row whatever the backend calls it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "REFRIGERANTS",
    "SOURCE",
    "RefrigerantSafety",
    "normalise_name",
    "refrigerant_safety",
]

SOURCE = (
    "ISO 817:2014+Amd 1:2021 Tables A.1-A.3 / ANSI/ASHRAE Standard 34-2022 Tables 4-1, 4-2 "
    "(LFL at 23 degC, 101.3 kPa; blends at WCFF)"
)
"""Where the LFL values and safety classes come from (edition and tables)."""


@dataclass(frozen=True)
class RefrigerantSafety:
    """Safety data of one refrigerant.

    Attributes
    ----------
    name : str
        R number (``R290``, ``R1234ze(E)``, ``R454B``).
    safety_class : str
        ISO 817 / ASHRAE 34 class: ``A1``, ``A2L``, ``A2``, ``A3``, ``B1``, ``B2L`` ...
    lfl_kg_m3 : float or None
        Lower flammability limit [kg/m3]; None for a class-1 (non-flammable) refrigerant.
    aliases : tuple of str
        Other names of the same fluid (CoolProp's names, common names).
    """

    name: str
    safety_class: str
    lfl_kg_m3: float | None
    aliases: tuple[str, ...] = ()

    @property
    def flammable(self) -> bool:
        """True for flammability classes 2L, 2 and 3 (an LFL is given)."""
        return self.lfl_kg_m3 is not None


_ROWS = (
    # pure fluids, flammable
    RefrigerantSafety("R290", "A3", 0.038, ("Propane",)),
    RefrigerantSafety("R600a", "A3", 0.043, ("IsoButane", "Isobutane")),
    RefrigerantSafety("R600", "A3", 0.038, ("n-Butane", "Butane")),
    RefrigerantSafety("R1270", "A3", 0.046, ("Propylene", "Propene")),
    RefrigerantSafety("R170", "A3", 0.038, ("Ethane",)),
    RefrigerantSafety("R32", "A2L", 0.307),
    RefrigerantSafety("R1234yf", "A2L", 0.289),
    RefrigerantSafety("R1234ze(E)", "A2L", 0.303),
    RefrigerantSafety("R152a", "A2", 0.130),
    RefrigerantSafety("R143a", "A2L", 0.282),
    RefrigerantSafety("R717", "B2L", 0.116, ("Ammonia", "NH3")),
    # blends, flammable
    RefrigerantSafety("R454B", "A2L", 0.296),
    RefrigerantSafety("R454A", "A2L", 0.278),
    RefrigerantSafety("R454C", "A2L", 0.293),
    RefrigerantSafety("R452B", "A2L", 0.309),
    RefrigerantSafety("R455A", "A2L", 0.431),
    RefrigerantSafety("R444B", "A2L", 0.310),
    # non-flammable (class 1): no LFL, no Annex GG limit
    RefrigerantSafety("R744", "A1", None, ("CO2", "CarbonDioxide")),
    RefrigerantSafety("R134a", "A1", None),
    RefrigerantSafety("R410A", "A1", None),
    RefrigerantSafety("R407C", "A1", None),
    RefrigerantSafety("R404A", "A1", None),
    RefrigerantSafety("R507A", "A1", None),
    RefrigerantSafety("R513A", "A1", None),
    RefrigerantSafety("R449A", "A1", None),
    RefrigerantSafety("R448A", "A1", None),
    RefrigerantSafety("R450A", "A1", None),
    RefrigerantSafety("R22", "A1", None),
    RefrigerantSafety("R125", "A1", None),
    RefrigerantSafety("R1233zd(E)", "A1", None),
    RefrigerantSafety("R718", "A1", None, ("Water", "H2O")),
)


def normalise_name(name: str) -> str:
    """A fluid name for lookup: upper case without ``-``, ``_``, spaces and parentheses."""
    return "".join(ch for ch in name if ch not in "-_ ()").upper()


REFRIGERANTS: dict[str, RefrigerantSafety] = {}
"""Every row, by the normalised R number and by each normalised alias."""
for _row in _ROWS:
    for _key in (_row.name, *_row.aliases):
        REFRIGERANTS[normalise_name(_key)] = _row


def refrigerant_safety(fluid: str) -> RefrigerantSafety:
    """The safety data of ``fluid`` (an R number, a CoolProp name or an alias).

    Parameters
    ----------
    fluid : str
        Fluid name as written in a scenario (``R290``, ``Propane``, ``R1234ze(E)``).

    Returns
    -------
    RefrigerantSafety
        Its class and LFL [kg/m3].

    Raises
    ------
    KeyError
        The fluid is not in the table; the message lists the known R numbers.
    """
    row = REFRIGERANTS.get(normalise_name(fluid))
    if row is None:
        known = ", ".join(r.name for r in _ROWS)
        raise KeyError(f"no safety data for fluid {fluid!r}; known refrigerants: {known}")
    return row
