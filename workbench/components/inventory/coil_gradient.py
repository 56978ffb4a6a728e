"""Derivatives of a UA coil's charge without a zone-model root-find per column.

Who reads it: the charge residual's Jacobian (:mod:`workbench.solver.charge.block`), one row
per circuit with a fixed charge. A UA coil's charge (:func:`~workbench.components.inventory.items.coil_item`)
splits its volume by the zones' conductances, which come from the zone model's root ``Q``
(:func:`workbench.components.exchangers.zones.heat_flow.coil_heat_flow`). A forward difference over the zone
model's inputs ``theta`` (inlet pressure, inlet enthalpy, mass flow) would run that root-find
once per column; here the root is moved along its implicit-function derivative instead::

    Q(theta + d) = Q(theta) + dQ/dtheta * d                    (first order, exact derivative)
    UA_zone(theta + d) = q_zone / LMTD  at that Q              (ZoneProfile.split, no root)

``dQ/dtheta`` is :func:`~workbench.components.exchangers.zones.heat_flow.coil_heat_flow_sensitivity`, which the
coil's own Jacobian computes at the same state (:meth:`~workbench.components.exchangers.coils.component.Coil.zone_sensitivity`
keeps it). The difference quotient of the charge then has the same first-order term as the
difference through the root-find: the charge row is the same derivative, the charge itself
(the residual) is untouched. Columns the zone model does not read (the outlet enthalpy) and
factors a control loop drives (``z_ua``) are differenced through the coil as before; so is a
column whose moved root leaves the zone model's range (at or past the pinch).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from workbench.components.exchangers.zones.zone_profile import ZoneProfile
from workbench.components.inventory.density import moved_zones, path_zones
from workbench.components.inventory.items import coil_item, item_columns
from workbench.components.inventory.void_fraction import Premoli, VoidFraction

__all__ = ["coil_charge_gradient", "linearised_root"]


def linearised_root(comp: Any) -> bool:
    """Whether the coil's charge reads a zone model (a UA coil, not coupled)."""
    return bool(getattr(comp, "ua_mode", False)) and not getattr(comp, "coupled", True)


def coil_charge_gradient(
    comp: Any,
    x: np.ndarray,
    model: VoidFraction | Premoli,
    circuit: int,
    kg0: float,
    step: Callable[[int, float], float],
) -> dict[int, float]:
    """Forward differences of a UA coil's charge over its columns [kg per unit of x].

    Parameters
    ----------
    comp : Coil
        A coil in UA mode, not coupled, with ``internal_volume_m3`` [m3].
    x : ndarray
        Unknowns [SI] (restored on return).
    model : VoidFraction or Premoli
        The void fraction model of two-phase zones.
    circuit : int
        The coil's circuit id.
    kg0 : float
        The coil's charge at ``x`` [kg].
    step : callable
        ``step(col, x_col)``: the forward-difference step of a column [unit of x].

    Returns
    -------
    dict
        Column -> derivative; the zone model's inputs by the linearised root (module docstring).

    Raises
    ------
    FluidPropertyError
        A property call failed at a perturbed state.
    """
    pin, pout = comp.ports["inlet"], comp.ports["outlet"]
    inlet, outlet = comp.port(x, "inlet"), comp.port(x, "outlet")
    path = path_zones(comp.fluid, inlet.p, inlet.h, outlet.h, model)
    base = comp.zones(x)
    linearised = base.zones and comp.zone_model_sensitivity
    sens = comp.zone_sensitivity(x) if linearised else None
    dq = {} if sens is None else {pin.p: sens.p, pin.h: sens.h_in, pin.m: sens.m}
    out: dict[int, float] = {}
    for col in item_columns(comp):
        xi = float(x[col])
        dx = step(col, xi)
        x[col] = xi + dx
        try:
            split = _moved_split(comp, x, base.q + dq[col] * dx) if col in dq else None
            moved = None
            if col in (pin.h, pout.h):  # same pressure: the zones' densities move to first order
                h_in, h_out = float(x[pin.h]), float(x[pout.h])
                moved = moved_zones(comp.fluid, inlet.p, path, h_in, h_out, model)
            kg1 = coil_item(comp, x, model, circuit, split, moved).kg
        finally:
            x[col] = xi
        out[col] = (kg1 - kg0) / dx
    return out


def _moved_split(comp: Any, x: np.ndarray, q: float) -> list[tuple[str, float, float]] | None:
    """The zone split at the perturbed state ``x`` and heat flow ``q`` [W], or None.

    None (difference through the root-find instead) when ``q`` is not positive or a zone
    would need a non-finite conductance (``q`` at or past the pinch limit, where a temperature
    difference reaches zero).
    """
    if not q > 0.0:
        return None
    p, h_in, m, t_sec, c_sec, _ua = comp._zone_inputs(x)
    prof = ZoneProfile(comp.fluid, p, h_in, m, t_sec, c_sec, comp.refrigerant_is_hot)
    split = prof.split(q)
    if not all(math.isfinite(u) and u >= 0.0 for _n, _q, u in split):
        return None
    return split
