"""The refrigerant inventory of a solved (or trial) state: kg per component, edge and zone.

Who reads it: the solver's results (``result.charge``, ``summary.charge_kg``), the charge
residual of a circuit with a fixed charge (:mod:`workbench.solver.charge_block`), the charge chart.

What holds refrigerant (volumes are the refrigerant side, given in the scenario):

* a coil (``Condenser``, ``Evaporator``, ``GasCooler``) with ``internal_volume_m3``: the path
  from inlet to outlet enthalpy at the inlet pressure is cut into zones (superheated,
  two-phase, subcooled; supercritical above the critical pressure). Each zone holds its share
  of the volume times its mean density (:func:`workbench.components.inventory.density.path_zones`). The
  share is the zone's share of the coil's conductance in UA mode (the zone model's area
  share: ``V_zone = V * UA_zone / sum UA``), and its share of the enthalpy change otherwise
  (ideal mode, a coil coupled to another circuit, a gas cooler);
* each side of a ``HeatExchanger`` (internal HX) with ``hot_internal_volume_m3`` /
  ``cold_internal_volume_m3``: zones by enthalpy share;
* an edge with ``volume_m3`` (a line set): ``V * rho(p, h)`` at the edge's state, the void
  fraction model's density inside the dome;
* a ``Receiver`` / ``Accumulator``: ``V * (level rho_l + (1 - level) rho_g)`` at its pressure.

The sum per circuit is the circuit's charge [kg].
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from workbench.components.inventory.density import ZoneDensity, path_zones, point_density
from workbench.components.inventory.void_fraction import (
    DEFAULT_VOID_FRACTION,
    Premoli,
    VoidFraction,
    void_fraction,
)
from workbench.components.coils import Coil
from workbench.components.gas_cooler import GasCooler

if TYPE_CHECKING:
    from workbench.solver.system import System

__all__ = [
    "VOLUME_PARAMS",
    "ChargeItem",
    "Inventory",
    "ZoneCharge",
    "circuit_charge",
    "has_volumes",
    "inventory",
    "model_of",
]

VOLUME_PARAMS: tuple[str, ...] = (
    "internal_volume_m3",
    "hot_internal_volume_m3",
    "cold_internal_volume_m3",
)
"""Component parameters that give a refrigerant-side volume [m3]."""


@dataclass(frozen=True)
class ZoneCharge:
    """The refrigerant in one zone of a coil or HX side.

    Attributes
    ----------
    zone : str
        ``superheated``, ``two-phase``, ``subcooled`` or ``supercritical`` (prefixed ``hot.`` /
        ``cold.`` for the sides of a heat exchanger).
    volume_m3 : float
        The zone's volume [m3].
    density_kg_m3 : float
        Its mean density [kg/m3].
    kg : float
        Its mass [kg].
    """

    zone: str
    volume_m3: float
    density_kg_m3: float
    kg: float


@dataclass(frozen=True)
class ChargeItem:
    """The refrigerant held by one component or edge.

    Attributes
    ----------
    name : str
        Component name, or the edge label ``src:port -> dst:port``.
    kind : str
        ``component`` or ``edge``.
    type : str
        Component type (``edge`` for an edge).
    circuit : int
        Circuit id.
    volume_m3 : float
        Refrigerant-side volume [m3].
    kg : float
        Mass of refrigerant [kg].
    zones : tuple of ZoneCharge
        Per zone (coils and HX sides; empty for edges).
    """

    name: str
    kind: str
    type: str
    circuit: int
    volume_m3: float
    kg: float
    zones: tuple[ZoneCharge, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: name, kind, type, circuit, volume_m3, kg, and zones when present."""
        doc: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "type": self.type,
            "circuit": self.circuit,
            "volume_m3": self.volume_m3,
            "kg": self.kg,
        }
        if self.zones:
            doc["zones"] = [
                {
                    "zone": z.zone,
                    "volume_m3": z.volume_m3,
                    "density_kg_m3": z.density_kg_m3,
                    "kg": z.kg,
                }
                for z in self.zones
            ]
        return doc


@dataclass
class Inventory:
    """The charge of a state.

    Attributes
    ----------
    items : list of ChargeItem
        Every component and edge that holds refrigerant (a volume was given).
    void_fraction : str
        The void fraction model used.
    """

    items: list[ChargeItem] = field(default_factory=list)
    void_fraction: str = DEFAULT_VOID_FRACTION

    @property
    def total_kg(self) -> float:
        """Charge of every circuit [kg]."""
        return float(sum(i.kg for i in self.items))

    def circuit_kg(self, circuit: int) -> float:
        """Charge of one circuit [kg]."""
        return float(sum(i.kg for i in self.items if i.circuit == circuit))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``total_kg``, ``void_fraction``, ``circuits`` and ``items``."""
        circuits = sorted({i.circuit for i in self.items})
        return {
            "total_kg": self.total_kg,
            "void_fraction": self.void_fraction,
            "circuits": [{"circuit": c, "kg": self.circuit_kg(c)} for c in circuits],
            "items": [i.to_dict() for i in self.items],
        }


def model_of(system: System) -> tuple[str, VoidFraction | Premoli]:
    """The void fraction model named by the scenario's ``charge`` block (or the default)."""
    cfg = getattr(system.flat, "charge", None)
    name = getattr(cfg, "void_fraction", None) or DEFAULT_VOID_FRACTION
    if name == "premoli" and cfg is not None:
        return name, Premoli(cfg.mass_flux_kg_m2s, cfg.tube_diameter_m)
    return name, void_fraction(name)


def has_volumes(system: System) -> bool:
    """True when any component or edge of the system has a refrigerant volume."""
    if any(getattr(e, "volume_m3", None) for e in system.flat.edges):
        return True
    return any(
        any(c.params.get(k) for k in VOLUME_PARAMS) or hasattr(c, "charge_zones")
        for c in system.components.values()
    )


def _zones_charge(
    zones: list[ZoneDensity], volume: float, shares: list[float], prefix: str = ""
) -> list[ZoneCharge]:
    total = sum(shares)
    out = []
    for z, s in zip(zones, shares, strict=True):
        v = volume * (s / total if total > 0 else 1.0 / len(zones))
        out.append(ZoneCharge(prefix + z.name, v, z.density, v * z.density))
    return out


def _enthalpy_shares(zones: list[ZoneDensity]) -> list[float]:
    return [abs(z.h_b - z.h_a) for z in zones]


def _coil_item(comp: Any, x: np.ndarray, model: VoidFraction | Premoli, circuit: int) -> ChargeItem:
    fl = comp.fluid
    inlet, outlet = comp.port(x, "inlet"), comp.port(x, "outlet")
    volume = float(comp.params["internal_volume_m3"])
    zones = path_zones(fl, inlet.p, inlet.h, outlet.h, model)
    shares = _enthalpy_shares(zones)
    if isinstance(comp, Coil) and comp.ua_mode and not comp.coupled:
        ua = {name: u for name, _q, u in comp.zones(x).zones}
        if all(z.name in ua for z in zones):
            shares = [max(float(ua[z.name]), 0.0) for z in zones]
    zc = _zones_charge(zones, volume, shares)
    return ChargeItem(
        comp.name, "component", comp.type_name, circuit, volume, sum(z.kg for z in zc), tuple(zc)
    )


def _hx_item(comp: Any, x: np.ndarray, model: VoidFraction | Premoli, circuit: int) -> ChargeItem:
    zc: list[ZoneCharge] = []
    volume = 0.0
    for side in ("hot", "cold"):
        v = comp.params.get(f"{side}_internal_volume_m3")
        if not v:
            continue
        volume += float(v)
        a, b = comp.port(x, f"{side}_inlet"), comp.port(x, f"{side}_outlet")
        zones = path_zones(comp.fluid, a.p, a.h, b.h, model)
        zc += _zones_charge(zones, float(v), _enthalpy_shares(zones), f"{side}.")
    return ChargeItem(
        comp.name, "component", comp.type_name, circuit, volume, sum(z.kg for z in zc), tuple(zc)
    )


def _vessel_item(comp: Any, x: np.ndarray, circuit: int) -> ChargeItem:
    zc = tuple(comp.charge_zones(x))
    return ChargeItem(
        comp.name, "component", comp.type_name, circuit, comp.volume, sum(z.kg for z in zc), zc
    )


def inventory(system: System, x: np.ndarray, circuit: int | None = None) -> Inventory:
    """The refrigerant in every component and edge with a volume, at the state ``x``.

    Parameters
    ----------
    system : System
        The assembled system (its flat scenario gives the volumes and the ``charge`` block).
    x : ndarray
        Unknowns [SI].
    circuit : int, optional
        Only this circuit.

    Returns
    -------
    Inventory
        One item per component and edge that holds refrigerant, in document order.

    Raises
    ------
    FluidPropertyError
        A property call failed at the state.
    """
    name, model = model_of(system)
    inv = Inventory(void_fraction=name)
    flat = system.flat
    for comp in system.components.values():
        cid = flat.components[comp.name].circuit
        if circuit is not None and cid != circuit:
            continue
        if hasattr(comp, "charge_zones"):
            inv.items.append(_vessel_item(comp, x, cid))
        elif comp.params.get("internal_volume_m3") and isinstance(comp, Coil | GasCooler):
            inv.items.append(_coil_item(comp, x, model, cid))
        elif comp.params.get("hot_internal_volume_m3") or comp.params.get(
            "cold_internal_volume_m3"
        ):
            inv.items.append(_hx_item(comp, x, model, cid))
    for i, edge in enumerate(flat.edges):
        volume = getattr(edge, "volume_m3", None)
        if not volume or (circuit is not None and edge.circuit != circuit):
            continue
        v = system.topology.edge_vars[i]
        rho = point_density(system.fluid_of(edge.circuit), float(x[v.p]), float(x[v.h]), model)
        label = f"{edge.source} -> {edge.target}"
        inv.items.append(
            ChargeItem(label, "edge", "edge", edge.circuit, float(volume), rho * float(volume))
        )
    return inv


def circuit_charge(system: System, x: np.ndarray, circuit: int) -> float:
    """Charge of one circuit at ``x`` [kg] (the sum of :func:`inventory`'s items)."""
    return inventory(system, x, circuit).total_kg
