"""The air flow of a coil given as a volume: ``air_volume_flow_m3_s`` to a mass flow.

A fan moves a volume; the coil models need a mass. At the coil's air inlet state (dry-bulb
``T``, ``air_inlet_rh`` (default dry), ``air_pressure_pa`` (default 101325 Pa))::

    m_air = V * rho_moist(T, W, p)          [kg/s of moist air]

with ``rho_moist`` the ASHRAE moist-air density (dry air and vapour per volume,
:func:`workbench.correlations.humid_air.density`) and ``W`` the humidity ratio of ``rh`` at
``T``. The result is the coil's ``secondary_mass_flow_kg_s`` (at ``fan_speed`` 1), so the UA
models and the models from geometry read one mass flow.
"""

from __future__ import annotations

from workbench.components.base import Component
from workbench.correlations import humid_air

__all__ = ["air_mass_flow", "apply_air_volume_flow"]


def air_mass_flow(volume_m3_s: float, t_k: float, rh: float, p_pa: float) -> float:
    """Moist-air mass flow [kg/s] of a volume flow at the inlet state.

    Parameters
    ----------
    volume_m3_s : float
        Air volume flow [m3/s].
    t_k : float
        Dry-bulb inlet temperature [K].
    rh : float
        Relative humidity, 0-1 [-].
    p_pa : float
        Air pressure [Pa].
    """
    w = humid_air.humidity_ratio(t_k, rh, p_pa)
    return volume_m3_s * humid_air.density(t_k, w, p_pa)


def apply_air_volume_flow(component: Component, t_sec_in_k: float) -> None:
    """Turn a coil's ``air_volume_flow_m3_s`` into its ``secondary_mass_flow_kg_s``.

    Nothing happens without ``air_volume_flow_m3_s``. The mass flow is written as if the
    scenario had given it, so every model and result reads it the same way; a sweep that
    changes the volume flow configures the coil again and the mass follows.

    Raises
    ------
    SpecificationError
        A volume flow without the air inlet temperature (names the component).
    """
    if not component.has("air_volume_flow_m3_s"):
        return
    if t_sec_in_k != t_sec_in_k:  # NaN: no inlet temperature
        raise component.error("air_volume_flow_m3_s needs the air inlet: add air_inlet_temp_c")
    par = component.params
    rh = float(par.get("air_inlet_rh", 0.0))
    m = air_mass_flow(
        float(par["air_volume_flow_m3_s"]), t_sec_in_k, rh, float(par["air_pressure_pa"])
    )
    par["secondary_mass_flow_kg_s"] = m
    component.given["secondary_mass_flow_kg_s"] = m
