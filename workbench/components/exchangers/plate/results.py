"""What a solved brazed plate exchanger reports: its results and its range-of-validity warnings.

Who reads it: :meth:`~workbench.components.exchangers.plate.component.PlateCoil.outputs` and
``warnings``. Results (SI; the names a coil built from hardware shares)::

    secondary_outlet_temperature   from the march's shooting [K]
    secondary_heat_flow            m_s (h_s(T_out) - h_s(T_in)), the bank's [W]
    refrigerant_pressure_drop      ports and channels [Pa] (= pressure_drop)
    secondary_pressure_drop        channels (f L_pp/D_h G^2/(2 rho)) + ports (1.4 G_port^2/(2 rho))
                                   at the secondary's mean temperature [Pa]
    ua                             sum of the pieces' conductances, the bank's [W/K]
    refrigerant_heat_transfer_coefficient   area-weighted mean film coefficients [W/(m^2 K)]
    secondary_heat_transfer_coefficient     (the names of the fin-and-tube coils)
    zone_<name>_area_fraction      share of the plate area in each zone [-]
    internal_volume                refrigerant side, the bank's [m^3]
    secondary_internal_volume      water or brine side, the bank's [m^3]
    segments                       segments of the march [-]
    heat_transfer_area_m2          the bank's [m^2]

Warnings name the exchanger and the quantity outside the fitted range of its correlation
(:func:`~workbench.correlations.plate_single_phase.plate_single_phase_range_warnings`,
:func:`~workbench.correlations.plate_two_phase.plate_two_phase_range_warnings`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.correlations.plate_single_phase import (
    plate_channel_mass_flux,
    plate_channel_pressure_drop,
    plate_friction_factor,
    plate_port_pressure_drop,
    plate_reynolds,
    plate_single_phase_range_warnings,
)
from workbench.correlations.plate_two_phase import plate_two_phase_range_warnings

PlateCoil = Any
"""A :class:`~workbench.components.exchangers.plate.component.PlateCoil` (its module imports this
one, so the type is named, not imported)."""

__all__ = ["crossing_problems", "plate_outputs", "plate_warnings", "secondary_pressure_drop"]


def secondary_pressure_drop(coil: PlateCoil, t_out: float) -> tuple[float, float]:
    """Secondary pressure drop of one exchanger [Pa] and its Reynolds number [-].

    Channels and ports at the mean of the secondary's inlet and outlet temperatures [K], times
    the ``secondary_pressure_drop`` correlation factor.
    """
    spec = coil.plate_spec
    g = spec.geometry
    st = coil.plate.secondary_transport
    t_mean = 0.5 * (coil.t_sec_in + t_out)
    rho, mu = st.rho(t_mean), st.mu(t_mean)
    m_sec = coil.secondary_flow()
    flux = plate_channel_mass_flux(m_sec, g.channels_secondary, g.channel_flow_area_m2)
    re = plate_reynolds(flux, g.hydraulic_diameter_m, mu)
    f = plate_friction_factor(re, g.chevron_angle_deg, g.enlargement_factor, spec.single_phase)
    dp = plate_channel_pressure_drop(f, flux, rho, g.plate_length_m, g.hydraulic_diameter_m)
    dp += plate_port_pressure_drop(m_sec, rho, g.port_diameter_m)
    return dp * spec.factor("secondary_pressure_drop"), re


def plate_outputs(coil: PlateCoil, x: np.ndarray) -> dict[str, float | None]:
    """The plate's results at the solution ``x`` (module docstring) [SI]."""
    res = coil.march_at(x)
    n = coil.n_coils
    g = coil.plate_spec.geometry
    area = sum(pc.area for pc in res.pieces)
    sec = coil.plate.secondary
    sign = 1.0 if coil.refrigerant_is_hot else -1.0
    q_sec = sign * n * coil.secondary_flow() * (sec.h(res.t_sec_out) - sec.h(coil.t_sec_in))
    out: dict[str, float | None] = {
        "secondary_outlet_temperature": res.t_sec_out,
        "secondary_heat_flow": q_sec,
        "refrigerant_pressure_drop": coil.port(x, "inlet").p - res.p_out,
        "secondary_pressure_drop": secondary_pressure_drop(coil, res.t_sec_out)[0],
        "ua": n * sum(pc.ua for pc in res.pieces),
        "refrigerant_heat_transfer_coefficient": sum(pc.h_ref * pc.area for pc in res.pieces)
        / area,
        "secondary_heat_transfer_coefficient": sum(pc.h_sec * pc.area for pc in res.pieces) / area,
        "internal_volume": n * g.internal_volume_m3("refrigerant"),
        "secondary_internal_volume": n * g.internal_volume_m3("secondary"),
        "heat_transfer_area_m2": n * g.heat_transfer_area_m2,
        "segments": float(coil.plate_spec.segments),
    }
    zones = ["superheated", "two-phase", "subcooled"]
    if any(pc.zone == "supercritical" for pc in res.pieces):
        zones.append("supercritical")
    for zone in zones:
        share = sum(pc.area for pc in res.pieces if pc.zone == zone) / area
        out[f"zone_{zone.replace('-', '_')}_area_fraction"] = share
    return {key: float(value) for key, value in out.items() if value is not None}


def plate_warnings(coil: PlateCoil, x: np.ndarray) -> list[str]:
    """Correlations used outside their fitted ranges, each naming the exchanger [text]."""
    spec = coil.plate_spec
    g = spec.geometry
    label = f"{coil.type_name} {coil.name!r} (brazed_plate)"
    res = coil.march_at(x)
    found: list[str] = []
    _re_sec, re_mean = secondary_pressure_drop(coil, res.t_sec_out)
    for text in plate_single_phase_range_warnings(
        re_mean, g.chevron_angle_deg, g.enlargement_factor, spec.single_phase
    ):
        found.append(f"{label}, secondary side: {text}")
    single = [pc.re_ref for pc in res.pieces if pc.zone != "two-phase" and pc.area > 0.0]
    for re in (min(single), max(single)) if single else ():
        for text in plate_single_phase_range_warnings(
            re, g.chevron_angle_deg, g.enlargement_factor, spec.single_phase
        ):
            found.append(f"{label}, refrigerant single phase: {text}")
    method = spec.condensation if coil.refrigerant_is_hot else spec.evaporation
    for text in plate_two_phase_range_warnings(method, g.chevron_angle_deg):
        found.append(f"{label}, refrigerant two phase: {text}")
    return list(dict.fromkeys(found))


def crossing_problems(label: str, q: float, min_dt: float) -> list[str]:
    """A crossing at any piece end of the march, as a problem naming the exchanger.

    Parameters
    ----------
    label : str
        The exchanger as messages name it (``Condenser 'cond'``).
    q : float
        Its heat flow [W].
    min_dt : float
        The smallest hot-minus-cold temperature difference at a piece end [K].
    """
    if q > 0.0 and min_dt <= 0.0:
        return [
            f"{label}: temperatures cross inside the plates (smallest difference "
            f"{min_dt:.3g} K): heat would flow uphill"
        ]
    return []
