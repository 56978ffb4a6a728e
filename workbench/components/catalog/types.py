"""The data types of the component catalog: parameters, component types, port roles.

:mod:`workbench.components.catalog.specs` lists the component types built from these; the junction
types (mixers, splitters, flash tanks, the injection compressor) are in
:mod:`workbench.components.catalog.junctions`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "ISENTROPIC_EFFICIENCY",
    "ComponentSpec",
    "ParamKind",
    "ParamSpec",
    "factor_params",
    "port_role",
]

ParamKind = Literal["number", "integer", "string", "number_list", "object"]
"""Kind of a parameter value in the scenario document."""


@dataclass(frozen=True)
class ParamSpec:
    """One component parameter.

    Parameters
    ----------
    name : str
        JSON key, with its unit suffix where it has one.
    kind : str
        ``number``, ``integer``, ``string``, ``number_list`` or ``object``.
    unit : str
        Unit of the value as written in JSON (``""`` for dimensionless).
    description : str
        One line on what it does.
    minimum, maximum : float or None
        Inclusive bounds.
    exclusive_minimum, exclusive_maximum : float or None
        Exclusive bounds.
    default : object
        Value used when absent (None: no default, the parameter selects a mode when present).
    length : int or None
        Required length of a ``number_list``.
    choices : tuple of str
        Allowed values of a ``string`` parameter (empty: any).
    """

    name: str
    kind: ParamKind
    unit: str
    description: str
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    exclusive_maximum: float | None = None
    default: object = None
    length: int | None = None
    choices: tuple[str, ...] = ()


def port_role(port: str) -> Literal["inlet", "outlet"] | None:
    """``inlet`` or ``outlet``: the word of the port name that says which way flow crosses it.

    ``inlet``, ``hot_inlet``, ``inlet_3`` are inlets; ``outlet_1``, ``vapour_outlet`` outlets.
    """
    words = port.split("_")
    if "inlet" in words:
        return "inlet"
    if "outlet" in words:
        return "outlet"
    return None


@dataclass(frozen=True)
class ComponentSpec:
    """A component type: its ports, parameters, outputs and calibration factors.

    A component either carries refrigerant streams through (``streams``: each inlet continues
    as one outlet with the same mass flow) or is a *junction* (no streams): a mixer, splitter
    or flash tank, where branches of the circuit meet and each port has a flow of its own.
    A junction may take more ports than it lists: for every stem in ``numbered`` the ports
    ``<stem>_1``, ``<stem>_2``, ... are allowed, numbered without gaps (``inlet_3`` needs
    ``inlet_1`` and ``inlet_2``); ``ports`` lists the ones every instance must connect.
    """

    type_name: str
    description: str
    ports: tuple[str, ...]
    params: tuple[ParamSpec, ...]
    outputs: tuple[str, ...]
    factors: tuple[str, ...]
    alternatives: tuple[tuple[str, ...], ...] = field(default=())
    """Groups of parameters that are alternative forms of one quantity: at most one per group."""
    streams: tuple[tuple[str, str], ...] = (("inlet", "outlet"),)
    """Pairs (inlet port, outlet port) joined by one refrigerant stream inside the component."""
    numbered: tuple[str, ...] = ()
    """Port stems that take any number of ports ``<stem>_<n>``, n = 1, 2, ... (junctions)."""

    @property
    def junction(self) -> bool:
        """True for a junction (no through streams: each port carries a flow of its own)."""
        return not self.streams

    def port_number(self, port: str) -> tuple[str, int] | None:
        """``(stem, n)`` when ``port`` is ``<stem>_<n>`` of a numbered stem, else None."""
        stem, _, number = port.rpartition("_")
        if stem in self.numbered and number.isdigit() and not number.startswith("0"):
            return stem, int(number)
        return None

    def has_port(self, port: str) -> bool:
        """True when ``port`` is a port of this type (listed, or numbered ``<stem>_<n>``)."""
        return port in self.ports or self.port_number(port) is not None

    @property
    def port_names_text(self) -> str:
        """The ports for messages: ``inlet_1, inlet_2, outlet, inlet_3 ... (any inlet_<n>)``."""
        names = list(self.ports)
        for stem in self.numbered:
            names.append(f"{stem}_3 ... (any {stem}_<n>, numbered from 1 without gaps)")
        return ", ".join(names)

    def param(self, name: str) -> ParamSpec | None:
        """Return the spec of parameter ``name`` or None when the type has no such parameter."""
        for spec in self.params:
            if spec.name == name:
                return spec
        return None

    @property
    def param_names(self) -> tuple[str, ...]:
        """Names of the type's parameters, in catalog order."""
        return tuple(p.name for p in self.params)


def factor_params(factors: tuple[str, ...]) -> tuple[ParamSpec, ...]:
    """One ``number`` parameter per calibration factor (a multiplier, default 1)."""
    return tuple(
        ParamSpec(f, "number", "", f"calibration factor {f} (multiplier)", minimum=0.0, default=1.0)
        for f in factors
    )


ISENTROPIC_EFFICIENCY = ParamSpec(
    "isentropic_efficiency",
    "number",
    "",
    "isentropic efficiency eta_s = (h2s - h1) / (h2 - h1)",
    exclusive_minimum=0.0,
    maximum=1.0,
    default=0.7,
)
"""The compressors' isentropic efficiency (one definition for every compressor type)."""
