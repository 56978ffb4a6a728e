"""The refrigerant one component or edge holds at a state: kg per item and per zone.

Who reads it: the solver, which sums the items of a circuit
(:func:`workbench.solver.charge.inventory.inventory`) for ``result.charge`` and for the charge
residual of a circuit with a fixed charge (:mod:`workbench.solver.charge.block`); a vessel,
whose liquid and vapour are :class:`ZoneCharge` records; the charge chart.

What holds refrigerant (volumes are the refrigerant side, given in the scenario):

* a coil (``Condenser``, ``Evaporator``, ``GasCooler``) with ``internal_volume_m3``: the path
  from inlet to outlet enthalpy at the inlet pressure is cut into zones (superheated,
  two-phase, subcooled; supercritical above the critical pressure). Each zone holds its share
  of the volume times its mean density (:func:`workbench.components.inventory.density.path_zones`). The
  share is the zone's share of the coil's conductance in UA mode (the zone model's area
  share: ``V_zone = V * UA_zone / sum UA``), its share of the plate area for a coil built from
  hardware (``zone_areas``: a brazed plate), and its share of the enthalpy change otherwise
  (ideal mode, a coil coupled to another circuit, a gas cooler);
* each side of a ``HeatExchanger`` (internal HX) with ``hot_internal_volume_m3`` /
  ``cold_internal_volume_m3``: zones by enthalpy share;
* an edge with ``volume_m3`` (a line set): ``V * rho(p, h)`` at the edge's state, the void
  fraction model's density inside the dome;
* a refrigerant line (``RefrigerantLine``, an edge with a ``line``): ``V * rho(p_m, h_m)`` at
  the line's mean state, ``V = pi D_i^2 L / 4``, the void fraction model's density inside the
  dome (one zone named by the phase; kind ``line``);
* a ``Receiver`` / ``Accumulator``: ``V * (level rho_l + (1 - level) rho_g)`` at its pressure.

The sum per circuit is the circuit's charge [kg]; that sum spans the system and lives in the
solver, not here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.components.base import ZoneCharge
from workbench.components.exchangers.coils.component import Coil
from workbench.components.exchangers.gas_cooler.component import GasCooler
from workbench.components.exchangers.lines.component import RefrigerantLine
from workbench.components.inventory.density import ZoneDensity, path_zones, point_density
from workbench.components.inventory.void_fraction import (
    DEFAULT_VOID_FRACTION,
    Premoli,
    VoidFraction,
    void_fraction,
)
from workbench.fluids import FluidBackend

__all__ = [
    "VOLUME_PARAMS",
    "ChargeItem",
    "ZoneCharge",
    "coil_item",
    "component_item",
    "edge_item",
    "holds_refrigerant",
    "item_columns",
    "line_item",
    "void_fraction_model",
]

VOLUME_PARAMS: tuple[str, ...] = (
    "internal_volume_m3",
    "hot_internal_volume_m3",
    "cold_internal_volume_m3",
)
"""Component parameters that give a refrigerant-side volume [m3]."""


@dataclass(frozen=True)
class ChargeItem:
    """The refrigerant held by one component or edge.

    Attributes
    ----------
    name : str
        Component name, or the edge label ``src:port -> dst:port``.
    kind : str
        ``component``, ``line`` (a refrigerant line) or ``edge``.
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


def coil_item(
    comp: Any,
    x: np.ndarray,
    model: VoidFraction | Premoli,
    circuit: int,
    split: list[tuple[str, float, float]] | None = None,
    zones: list[ZoneDensity] | None = None,
) -> ChargeItem:
    """The refrigerant a coil (``Condenser``, ``Evaporator``, ``GasCooler``) holds at ``x``.

    Parameters
    ----------
    comp : Coil or GasCooler
        The coil (its ``internal_volume_m3`` [m3]).
    x : ndarray
        Unknowns [SI].
    model : VoidFraction or Premoli
        The void fraction model of two-phase zones.
    circuit : int
        The coil's circuit id.
    split : list of tuple, optional
        ``(name, q [W], ua [W/K])`` per zone of a UA coil's zone model, when the caller has
        it at ``x`` (the charge Jacobian's linearised split); else the coil's own zone model.
    zones : list of ZoneDensity, optional
        The path's zones and densities at ``x`` when the caller has them (the charge
        Jacobian's :func:`~workbench.components.inventory.density.moved_zones`); else
        :func:`~workbench.components.inventory.density.path_zones`.

    Returns
    -------
    ChargeItem
        Its zones and kg.

    Raises
    ------
    FluidPropertyError
        A property call failed at the state.
    """
    fl = comp.fluid
    inlet, outlet = comp.port(x, "inlet"), comp.port(x, "outlet")
    volume = float(comp.params["internal_volume_m3"])
    if zones is None:
        zones = path_zones(fl, inlet.p, inlet.h, outlet.h, model)
    shares = _enthalpy_shares(zones)
    if isinstance(comp, Coil) and comp.ua_mode and not comp.coupled:
        if split is None and hasattr(comp, "zone_areas"):  # built from hardware: by area
            split = [(name, 0.0, a) for name, a in comp.zone_areas(x).items()]
        parts = comp.zones(x).zones if split is None else split
        ua = {name: u for name, _q, u in parts}
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


def line_item(
    comp: RefrigerantLine, x: np.ndarray, model: VoidFraction | Premoli, circuit: int
) -> ChargeItem:
    """The refrigerant a line holds at ``x``: ``V rho(p_m, h_m)`` at its mean state.

    Parameters
    ----------
    comp : RefrigerantLine
        The line (its geometry's volume ``pi D_i^2 L / 4`` [m3]).
    x : ndarray
        Unknowns [SI].
    model : VoidFraction or Premoli
        The void fraction model inside the dome.
    circuit : int
        The line's circuit id.

    Returns
    -------
    ChargeItem
        Kind ``line``, one zone named by the phase of the mean state.

    Raises
    ------
    FluidPropertyError
        A property call failed at the state.
    """
    inlet, outlet = comp.port(x, "inlet"), comp.port(x, "outlet")
    p, h = 0.5 * (inlet.p + outlet.p), 0.5 * (inlet.h + outlet.h)
    fl = comp.fluid
    volume = comp.geometry.volume_m3
    rho = point_density(fl, p, h, model)
    if p >= fl.p_crit:
        zone = "supercritical"
    elif h <= float(fl.h_liq(p)):
        zone = "subcooled"
    elif h >= float(fl.h_vap(p)):
        zone = "superheated"
    else:
        zone = "two-phase"
    kg = rho * volume
    return ChargeItem(
        comp.name, "line", comp.type_name, circuit, volume, kg, (ZoneCharge(zone, volume, rho, kg),)
    )


def void_fraction_model(charge: Any) -> tuple[str, VoidFraction | Premoli]:
    """The void fraction model a scenario's ``charge`` block names (or the default).

    Parameters
    ----------
    charge : ChargeConfig or None
        The flat scenario's ``charge`` block (``void_fraction``, and Premoli's
        ``mass_flux_kg_m2s`` [kg/(m2 s)] and ``tube_diameter_m`` [m]).

    Returns
    -------
    tuple
        The model's name and the model.
    """
    name = getattr(charge, "void_fraction", None) or DEFAULT_VOID_FRACTION
    if name == "premoli" and charge is not None:
        return name, Premoli(charge.mass_flux_kg_m2s, charge.tube_diameter_m)
    return name, void_fraction(name)


def holds_refrigerant(comp: Any) -> bool:
    """True when the component has a refrigerant volume (a coil, an HX side, a vessel, a line)."""
    if isinstance(comp, RefrigerantLine):
        return True
    return any(comp.params.get(k) for k in VOLUME_PARAMS) or hasattr(comp, "charge_zones")


def component_item(
    comp: Any, x: np.ndarray, model: VoidFraction | Premoli, circuit: int
) -> ChargeItem | None:
    """The refrigerant one component holds at the state ``x``.

    Parameters
    ----------
    comp : Component
        A component model (its ``params`` give the volumes [m3]).
    x : ndarray
        Unknowns [SI].
    model : VoidFraction or Premoli
        The void fraction model of two-phase zones.
    circuit : int
        The component's circuit id.

    Returns
    -------
    ChargeItem or None
        Its zones and kg; None when it has no refrigerant volume.

    Raises
    ------
    FluidPropertyError
        A property call failed at the state.
    """
    if isinstance(comp, RefrigerantLine):
        return line_item(comp, x, model, circuit)
    if hasattr(comp, "charge_zones"):
        return _vessel_item(comp, x, circuit)
    if comp.params.get("internal_volume_m3") and isinstance(comp, Coil | GasCooler):
        return coil_item(comp, x, model, circuit)
    if comp.params.get("hot_internal_volume_m3") or comp.params.get("cold_internal_volume_m3"):
        return _hx_item(comp, x, model, circuit)
    return None


def item_columns(comp: Any) -> list[int]:
    """The unknowns :func:`component_item` reads for ``comp`` (its charge's columns).

    A coil reads its inlet pressure and enthalpy and its outlet enthalpy (the path at the inlet
    pressure); in UA mode, not coupled, also what its zone split reads (the inlet mass flow and
    any factor a control loop drives); an HX side reads the same three of its side; a vessel
    every unknown of its own. The charge residual differentiates each item over these columns
    only (:mod:`workbench.solver.charge.block`).

    Parameters
    ----------
    comp : Component
        A component that holds refrigerant (:func:`holds_refrigerant`).

    Returns
    -------
    list of int
        Sorted indices into the solver vector.
    """
    if isinstance(comp, RefrigerantLine):
        pin, pout = comp.ports["inlet"], comp.ports["outlet"]
        return sorted({pin.p, pin.h, pout.p, pout.h})
    if hasattr(comp, "charge_zones"):
        return list(comp.local_vars)
    cols: set[int] = set()
    if comp.params.get("internal_volume_m3") and isinstance(comp, Coil | GasCooler):
        pin, pout = comp.ports["inlet"], comp.ports["outlet"]
        cols.update((pin.p, pin.h, pout.h))
        if isinstance(comp, Coil) and comp.ua_mode and not comp.coupled:
            ports = {i for pv in comp.ports.values() for i in (pv.m, pv.p, pv.h)}
            cols.add(pin.m)
            cols.update(c for c in comp.local_vars if c not in ports)
        return sorted(cols)
    for side in ("hot", "cold"):
        if comp.params.get(f"{side}_internal_volume_m3"):
            a, b = comp.ports[f"{side}_inlet"], comp.ports[f"{side}_outlet"]
            cols.update((a.p, a.h, b.h))
    return sorted(cols)


def edge_item(
    label: str,
    circuit: int,
    volume_m3: float,
    fluid: FluidBackend,
    p: float,
    h: float,
    model: VoidFraction | Premoli,
) -> ChargeItem:
    """The refrigerant in an edge (a line set): ``V * rho(p, h)``.

    Parameters
    ----------
    label : str
        The edge's label ``src:port -> dst:port``.
    circuit : int
        Its circuit id.
    volume_m3 : float
        Its refrigerant volume [m3].
    fluid : FluidBackend
        The circuit's refrigerant.
    p : float
        Pressure [Pa].
    h : float
        Specific enthalpy [J/kg].
    model : VoidFraction or Premoli
        The void fraction model inside the dome.

    Returns
    -------
    ChargeItem
        Kind and type ``edge``, no zones.

    Raises
    ------
    FluidPropertyError
        A property call failed at the state.
    """
    rho = point_density(fluid, p, h, model)
    return ChargeItem(label, "edge", "edge", circuit, float(volume_m3), rho * float(volume_m3))
