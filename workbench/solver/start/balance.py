"""Saturation temperatures of a branching circuit's coils from their secondary energy balance.

:func:`~workbench.solver.start.branches.branched_guess` starts every coil at its secondary
inlet temperature +10 K (condensers) or -8 K (evaporators), as a loop does before its own
refinement (:func:`workbench.solver.start.initial._coil_balance`). :func:`refine_branched` applies the
same fixed point to a branching circuit: at the start each UA-mode coil carries
``Q = m |h_out - h_in|``; taking the whole coil as two-phase (``Cr = 0``), its secondary
exchanges ``Q = eps C_sec |T_sat - T_sec,in|`` with ``eps = 1 - exp(-UA / C_sec)``, so
``T_sat = T_sec,in +- Q / (eps C_sec)``. Half of that change is taken per round (mass flows and
compressor work respond to every temperature) and the circuit's start is rebuilt with the new
temperatures as saturation hints, for :data:`ROUNDS` rounds or until no coil moves by more than
:data:`SETTLED_K`. Evaporators stay :data:`MIN_LIFT_K` below the coldest condenser.
"""

from __future__ import annotations

import math

import numpy as np

from workbench.components.exchangers.coils.component import Coil
from workbench.errors import FluidPropertyError
from workbench.solver.start.branches import branched_guess, highest_condensing
from workbench.solver.system import System

__all__ = ["MIN_LIFT_K", "ROUNDS", "SETTLED_K", "balanced_saturation", "refine_branched"]

ROUNDS = 3
"""Rounds of the energy-balance estimate."""

SETTLED_K = 0.05
"""Largest change of any coil's saturation temperature [K] that ends the rounds."""

MIN_LIFT_K = 10.0
"""Smallest starting lift between an evaporator and the coldest condenser [K]."""


def _refinable(system: System, circuit: int) -> list[Coil]:
    """The circuit's UA-mode coils against a secondary, without a saturation spec or hint."""
    flat = system.flat
    return [
        comp
        for name, comp in system.components.items()
        if isinstance(comp, Coil)
        and flat.components[name].circuit == circuit
        and comp.ua_mode
        and comp.has_secondary
        and not comp.coupled
        and not comp.has(comp.sat_spec)
        and name not in system.saturation_hints
    ]


def balanced_saturation(coil: Coil, x: np.ndarray) -> float | None:
    """The saturation temperature [K] at which the coil's secondary takes its heat flow at ``x``.

    ``T_sec,in +- Q / (eps C_sec)`` with ``Q = m |h_out - h_in|`` at ``x`` and
    ``eps = 1 - exp(-UA / C_sec)`` (the whole coil two-phase, ``Cr = 0``), at least 0.5 K from
    the secondary inlet; None without a secondary capacity rate or conductance. ``UA`` is the
    coil's ``start_conductance(x)`` where it has one (a model that is not this one says which
    conductance makes this one carry its heat flow), else ``ua_total(x)``.
    """
    inlet, outlet = coil.port(x, "inlet"), coil.port(x, "outlet")
    c_sec = coil.secondary_capacity_rate()
    # a coil whose own model is not this one's may say which conductance makes it carry its
    # heat flow here (the brazed plate's march: PlateMarching.start_conductance)
    own = getattr(coil, "start_conductance", None)
    ua = float(own(x)) if own is not None else coil.ua_total(x)
    if c_sec <= 0.0 or ua <= 0.0:
        return None
    eps = 1.0 - math.exp(-ua / c_sec)
    q = abs(inlet.m * (outlet.h - inlet.h))
    sign = 1.0 if coil.refrigerant_is_hot else -1.0
    t = coil.t_sec_in + sign * max(q / (eps * c_sec), 0.5)
    return t if math.isfinite(t) else None


def refine_branched(system: System, x: np.ndarray, circuit: int) -> None:
    """Refine the start of a branching circuit in ``x`` in place (see the module docstring).

    Nothing changes when the circuit has no condenser and evaporator to balance or a rebuild
    fails (the first start stays).
    """
    coils = _refinable(system, circuit)
    if not any(c.refrigerant_is_hot for c in coils) or all(c.refrigerant_is_hot for c in coils):
        return
    fluid = system.fluid_of(circuit)
    hints = system.saturation_hints
    best = x.copy()
    try:
        for _ in range(ROUNDS):
            current = {c.name: float(fluid.T_sat(c.port(x, "inlet").p)) for c in coils}
            target = {}
            for coil in coils:
                t = balanced_saturation(coil, x)
                if t is None:
                    return
                target[coil.name] = 0.5 * (current[coil.name] + t)
            t_cond = min(target[c.name] for c in coils if c.refrigerant_is_hot)
            t_cond = min(t_cond, highest_condensing(fluid))
            for coil in coils:
                if not coil.refrigerant_is_hot:
                    target[coil.name] = min(target[coil.name], t_cond - MIN_LIFT_K)
            hints.update(target)
            branched_guess(system, x, circuit)
            best[:] = x
            if max(abs(target[n] - current[n]) for n in target) < SETTLED_K:
                break
    except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError):
        x[:] = best
    finally:
        for coil in coils:
            hints.pop(coil.name, None)
