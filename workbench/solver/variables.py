"""The vector of unknowns, by name: what each entry is, and which entries form one state.

Every unknown is added through :class:`Unknowns` with a name (``p[cond:outlet -> valve:inlet]``)
and a kind (``m`` mass flow [kg/s], ``p`` pressure [Pa], ``h`` enthalpy [J/kg], ``z`` a
dimensionless control state). A pressure and an enthalpy added together with
:meth:`Unknowns.add_state` form one thermodynamic state; the step limits read these pairs
(:attr:`Unknowns.states`) instead of assuming positions in the vector. New kinds of unknowns
(a mass flow per branch, a free pressure) are added the same way, wherever they fall.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["VAR_SCALES", "StateVars", "Unknowns", "VarKind"]

VarKind = Literal["m", "p", "h", "z"]
"""Kind of an unknown: mass flow, pressure, enthalpy, or a dimensionless control state."""

VAR_SCALES: dict[str, float] = {"m": 0.1, "p": 1.0e5, "h": 1.0e5, "z": 1.0}
"""Typical magnitude of each kind of unknown [kg/s, Pa, J/kg, -], used to scale Newton."""


@dataclass(frozen=True, slots=True)
class StateVars:
    """Indices of the pressure and the enthalpy that make one state."""

    p: int
    h: int


@dataclass
class Unknowns:
    """Names, kinds and states of the solver's unknowns.

    Attributes
    ----------
    names : list of str
        Name of each unknown, in vector order (unique).
    kinds : list of str
        Kind of each unknown (a :data:`VarKind`).
    states : list of StateVars
        Every (pressure, enthalpy) pair that forms one state, in the order added.
    """

    names: list[str] = field(default_factory=list)
    kinds: list[VarKind] = field(default_factory=list)
    states: list[StateVars] = field(default_factory=list)
    _index: dict[str, int] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        """Number of unknowns."""
        return len(self.names)

    def add(self, name: str, kind: VarKind) -> int:
        """Append an unknown and return its index.

        Raises
        ------
        ValueError
            When ``name`` is already taken.
        """
        if name in self._index:
            raise ValueError(f"unknown {name!r} is added twice")
        self._index[name] = len(self.names)
        self.names.append(name)
        self.kinds.append(kind)
        return len(self.names) - 1

    def add_state(self, label: str) -> StateVars:
        """Append the pressure ``p[label]`` and enthalpy ``h[label]`` of one state."""
        state = StateVars(self.add(f"p[{label}]", "p"), self.add(f"h[{label}]", "h"))
        self.states.append(state)
        return state

    def index(self, name: str) -> int:
        """Index of the unknown called ``name``.

        Raises
        ------
        KeyError
            When no unknown has that name.
        """
        return self._index[name]
