"""Why a solve that failed could not succeed: a heat rejector too small for the compressor.

Read by :func:`workbench.solver.solve` after a solve that did not converge, to replace a
property failure's generic hint with the physical cause.

Energy balance of a circuit: the heat it rejects equals the heat its evaporators take in plus
the compressors' power, so it rejects at least that power. A UA-mode condenser or gas cooler
with a secondary capacity rate ``C = m_sec fan_speed cp`` and conductance ``UA`` can take at
most ``min(C, UA) (T_ref,in - T_sec,in)`` [W]: its secondary cannot leave warmer than the
refrigerant enters, and ``Q = UA LMTD`` with the mean difference below the largest one.
When every heat rejector of a circuit is in UA mode (a fixed-state one would reject
whatever it is given) and their maxima add up to less than the compressors' power at the last
iterate, the circuit cannot reject its heat: the high pressure climbs toward the critical point
until a property call fails, which is what a 1e-4 kg/s water stream on a condenser does.
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Component
from workbench.errors import FluidPropertyError
from workbench.fluids.base import FluidBackend
from workbench.solver.system import System

__all__ = ["failure_reason", "rejection_problems"]

_COMPRESSORS = ("Compressor", "InjectionCompressor")
_REJECTORS = ("Condenser", "GasCooler")


def _is_ua_rejector(comp: Component) -> bool:
    return bool(getattr(comp, "ua_mode", False)) and not getattr(comp, "coupled", False)


def rejection_problems(system: System, x: np.ndarray) -> list[str]:
    """Circuits whose UA heat rejectors cannot take the compressors' power at ``x``.

    Parameters
    ----------
    system : System
        The solved system.
    x : numpy.ndarray
        The last iterate (SI).

    Returns
    -------
    list of str
        One sentence per such circuit naming the rejector, its secondary flow parameter, the
        most it can take [W] and the power it must reject at least [W]; none when the states
        cannot be evaluated or the rejectors are large enough.
    """
    by_circuit: dict[int, list[Component]] = {}
    for name, comp in system.components.items():
        by_circuit.setdefault(system.flat.components[name].circuit, []).append(comp)
    out: list[str] = []
    for comps in by_circuit.values():
        rejectors = [c for c in comps if c.type_name in _REJECTORS]
        compressors = [c for c in comps if c.type_name in _COMPRESSORS]
        if not rejectors or not compressors or not all(_is_ua_rejector(c) for c in rejectors):
            continue
        try:
            out.extend(_circuit_problem(rejectors, compressors, x))
        except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError, KeyError):
            continue
    return out


def _circuit_problem(
    rejectors: list[Component], compressors: list[Component], x: np.ndarray
) -> list[str]:
    power = 0.0
    for comp in compressors:
        inlet, outlet = comp.port(x, "inlet"), comp.port(x, "outlet")
        power += inlet.m * (outlet.h - inlet.h)
    q_max, parts, by_ua = 0.0, [], False
    for comp in rejectors:
        inlet = comp.port(x, "inlet")
        t_in = float(comp.fluid.T_ph(inlet.p, inlet.h))
        rate = float(comp.secondary_capacity_rate())  # type: ignore[attr-defined]
        ua = float(comp.ua_total(x))  # type: ignore[attr-defined]
        t_sec = float(comp.t_sec_in)  # type: ignore[attr-defined]
        # Q = UA LMTD <= UA (T_ref,in - T_sec,in), and the secondary leaves at most at T_ref,in
        q_max += min(rate, ua) * max(t_in - t_sec, 0.0)
        flow = comp.params.get("secondary_mass_flow_kg_s")
        if ua < rate:
            by_ua = True
            parts.append(
                f"{comp.type_name} {comp.name!r} (conductance {ua:.3g} W/K, "
                f"C = {rate:.3g} W/K, inlet {t_sec:.2f} K)"
            )
        else:
            parts.append(
                f"{comp.type_name} {comp.name!r} (secondary_mass_flow_kg_s {flow:g} kg/s, "
                f"C = {rate:.3g} W/K, inlet {t_sec:.2f} K)"
            )
    if power <= 0.0 or q_max >= power:
        return []
    which = parts[0] if len(parts) == 1 else "the heat rejectors " + ", ".join(parts)
    limit = (
        f"its conductance times the largest temperature difference (refrigerant inlet to "
        f"secondary inlet) allows at most {q_max:.3g} W"
        if by_ua and len(parts) == 1
        else f"its secondary stream takes at most {q_max:.3g} W even when heated to the "
        "refrigerant's inlet temperature"
    )
    remedy = (
        "Raise the conductance (ua), the secondary mass flow or fan_speed"
        if by_ua
        else "Raise the secondary mass flow (or fan_speed)"
    )
    return [
        f"{which} cannot reject the heat: {limit}, but the circuit must "
        f"reject at least the compressor power, {power:.3g} W (plus the heat taken in by the "
        f"evaporator); the high pressure climbs toward the critical point instead. {remedy}, "
        "or lower the compressor's capacity"
    ]


def _pressure_extremes(system: System, x: np.ndarray) -> str | None:
    """Where the last iterate's pressures sit against the fluid's critical and lowest pressure."""
    worst: tuple[float, str, str, FluidBackend] | None = None
    for name, comp in system.components.items():
        fluid = system.fluid_of(system.flat.components[name].circuit)
        p_crit = float(fluid.p_crit)
        for port in comp.ports:
            p = comp.port(x, port).p
            if p >= 0.97 * p_crit and comp.type_name != "GasCooler":
                share = p / p_crit
                if worst is None or share > worst[0]:
                    worst = (share, name, port, fluid)
    if worst is None:
        return None
    share, name, port, fluid = worst
    p_crit = float(fluid.p_crit)
    comp = system.components[name]
    return (
        f"the pressure at {comp.type_name} {name!r} ({port}) rose to {share * p_crit / 1e5:.2f} "
        f"bar, {share:.1%} of the critical pressure of {fluid.name} ({p_crit / 1e5:.2f} bar), "
        "where nothing condenses: the circuit rejects less heat than it takes in"
    )


def failure_reason(system: System, x: np.ndarray) -> str | None:
    """The physical cause of a failed solve at its last iterate ``x``, when one is known.

    A heat rejector too small for the compressor (:func:`rejection_problems`) first, else a
    high pressure at the critical point (the failing property call's own text then only says
    which saturation call gave up).

    Parameters
    ----------
    system : System
        The solved system.
    x : numpy.ndarray
        The last iterate (SI).

    Returns
    -------
    str or None
        One sentence naming the component, or None.
    """
    found = rejection_problems(system, x)
    if found:
        return found[0]
    try:
        return _pressure_extremes(system, x)
    except (FluidPropertyError, ValueError, AttributeError):
        return None
