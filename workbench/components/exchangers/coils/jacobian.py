"""The Jacobian block of a condenser or evaporator: analytic, through the zone model's root.

A coil's rows are ``pressure_drop``, ``heat_transfer`` (UA mode), ``saturation_temperature``
(with a saturation spec) and the outlet spec (``subcooling``/``superheat``), in that order
(:class:`workbench.components.exchangers.coils.component.Coil`). Finite differences through the zone model would run
a root-find per column; here ``heat_transfer`` is differentiated through the root by the
implicit function theorem (:func:`workbench.components.exchangers.zones.heat_flow.coil_heat_flow_sensitivity`,
kept per state by :meth:`~workbench.components.exchangers.coils.component.Coil.zone_sensitivity`).
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import StepFunction, difference_columns
from workbench.components.exchangers.coils.view import CoilView
from workbench.errors import FluidPropertyError

__all__ = ["coil_jacobian"]


def coil_jacobian(
    coil: CoilView, x: np.ndarray, f0: np.ndarray, step: StepFunction
) -> list[tuple[int, int, float]]:
    """Entries (row, column, value) of a coil's Jacobian block.

    Analytic derivatives over the ports' unknowns; differences over driven factors.

    ``heat_transfer`` is differentiated through the zone model's root by the implicit
    function theorem (:func:`~workbench.components.exchangers.zones.heat_flow.coil_heat_flow_sensitivity`), so no
    root-find runs for the Jacobian; ``saturation_temperature`` uses ``dT_sat/dp``; the
    outlet spec differentiates its target enthalpy along ``p_out`` (a forward difference of
    one (p, T) flash, or ``dh_liq/dp``, ``dh_vap/dp`` at 0 K). A factor a control loop
    drives (``z_ua``, ``z_dp``) gets forward differences of all rows.
    """
    fl = coil.fluid
    pin, pout = coil.ports["inlet"], coil.ports["outlet"]
    inlet, outlet = coil.port(x, "inlet"), coil.port(x, "outlet")
    entries: list[tuple[int, int, float]] = []
    # pressure drop: p_out - p_in + dp(m)
    entries += [(0, pout.p, 1.0), (0, pin.p, -1.0)]
    m_nom = coil.params.get("dp_nominal_mass_flow_kg_s")
    dp = float(coil.params["dp_pa"]) * coil.factor(x, "z_dp")
    if dp != 0.0 and m_nom is not None:
        m_coil = inlet.m / coil.n_coils
        entries.append((0, pin.m, dp * 2.0 * abs(m_coil) / float(m_nom) ** 2 / coil.n_coils))
    external = coil.external_pressure_drop
    if external is not None:  # a coupling built from hardware gives the drop (and its slopes)
        z_dp = coil.factor(x, "z_dp")
        entries += [(0, col, z_dp * d) for col, d in external.derivatives(x)]
    row = 1
    if coil.ua_mode:
        sign = 1.0 if coil.refrigerant_is_hot else -1.0
        q = coil.zones(x).q
        m = inlet.m
        sens = coil.zone_sensitivity(x)
        entries += [
            (row, pout.h, 1.0),
            (row, pin.h, -1.0 + sign * sens.h_in / m),
            (row, pin.p, sign * sens.p / m),
            (row, pin.m, sign * (sens.m / m - q / (m * m))),
        ]
        row += 1
    if coil.has(coil.sat_spec):
        port = pin if coil.refrigerant_is_hot else pout
        slope = coil.reference_temperature_slope(coil.reference_pressure(x))
        entries.append((row, port.p, slope))
        row += 1
    if coil.outlet_spec_given:
        delta = float(coil.params.get(coil.outlet_spec, 0.0))
        if delta == 0.0:
            slope = fl.dhliq_dp(outlet.p) if coil.refrigerant_is_hot else fl.dhvap_dp(outlet.p)
        else:
            analytic = _outlet_target_slope(coil, outlet.p, delta)
            if analytic is not None:
                slope = analytic
            else:
                dp_step = step(pout.p, outlet.p)
                slope = (
                    coil.outlet_target(outlet.p + dp_step, delta)
                    - coil.outlet_target(outlet.p, delta)
                ) / dp_step
        entries += [(row, pout.h, 1.0), (row, pout.p, -float(slope))]
    # factors driven by a control loop: forward differences of every row
    ports = {pin.m, pin.p, pin.h, pout.m, pout.p, pout.h}
    others = [col for col in coil._local if col not in ports]
    return entries + difference_columns(coil.residuals, x, f0, step, others)


def _outlet_target_slope(coil: CoilView, p: float, delta: float) -> float | None:
    """d(outlet spec enthalpy)/dp [J/(kg Pa)] at ``p`` [Pa] for a spec ``delta`` [K] > 0; or None.

    The spec's enthalpy is ``h(p, T_ref(p) -+ delta)`` (``T_ref`` the subcooling reference of a
    condenser, the dew point of an evaporator), so its slope is ``(dh/dp)_T + cp dT_ref/dp``
    at that state, from the backend's ``h_pT_with_slopes`` (CoolProp reads both off the state it
    flashed for the residual). None when the backend gives no slopes there (the caller takes
    a forward difference).
    """
    fl = coil.fluid
    slopes = getattr(fl, "h_pT_with_slopes", None)
    if slopes is None:
        return None
    if coil.refrigerant_is_hot:
        t = coil.subcooling_reference(p) - delta
        t_p = fl.dTbubble_dp(p) if fl.zeotropic else fl.dTsat_dp(p)
    else:
        t = float(fl.T_sat(p)) + delta
        t_p = fl.dTsat_dp(p)
    try:
        found = slopes(p, t)
    except FluidPropertyError:
        return None
    if found is None:
        return None
    _, cp, h_p = found
    return float(h_p + cp * t_p)
