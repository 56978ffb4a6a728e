"""Temperature limits of a working fluid, for input checks that need no property backend.

:func:`temperature_limits` reads constants only: the analytic parameters of the ``Test``
backend (no CoolProp import), or CoolProp's fluid constants (the lowest temperature of its
equation of state, normally the triple point; the critical and the highest temperature), read
once per fluid and process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from workbench.fluids.analytic.params import ANALYTIC_FLUIDS
from workbench.fluids.names import resolve_backend, resolve_fluid

__all__ = ["TemperatureLimits", "temperature_limits"]


@dataclass(frozen=True)
class TemperatureLimits:
    """Temperatures [K] that bound a working fluid's states in one backend.

    Attributes
    ----------
    fluid : str
        Canonical fluid name.
    t_min : float
        Lowest temperature of any state (the triple point or the equation's lower limit).
    t_sat_max : float
        Highest saturation temperature the backend reaches (the critical temperature for
        CoolProp; 0.5 K below it for the subcritical ``Test`` model).
    t_crit : float
        Critical temperature.
    t_max : float
        Highest temperature of any state.
    """

    fluid: str
    t_min: float
    t_sat_max: float
    t_crit: float
    t_max: float


@cache
def temperature_limits(fluid: str, backend: str | None = None) -> TemperatureLimits:
    """Temperature limits of ``fluid`` in ``backend`` (names as :func:`get_backend` takes).

    Raises
    ------
    UnknownFluidError
        Unknown fluid or backend name.
    """
    name = resolve_backend(backend)
    canonical = resolve_fluid(fluid, name)
    if name == "Test":
        p = ANALYTIC_FLUIDS[canonical]
        return TemperatureLimits(canonical, p.T_min, p.T_crit - 0.5, p.T_crit, p.T_max)
    import CoolProp.CoolProp as CP

    from workbench.fluids.blend.spec import blend_spec, is_blend_name
    from workbench.fluids.blend.table_build import critical_point

    if is_blend_name(canonical):
        spec = blend_spec(canonical)
        state = CP.AbstractState("HEOS", spec.coolprop_fluids)
        state.set_mole_fractions(list(spec.mole_fractions))
        found = critical_point(spec)
        t_crit = found[0] if found else float(state.Tmax())
        t_min, t_max = float(state.Tmin()), float(state.Tmax())
        return TemperatureLimits(canonical, t_min, t_crit, t_crit, t_max)
    state = CP.AbstractState("HEOS", canonical)
    t_crit = float(state.T_critical())
    return TemperatureLimits(canonical, float(state.Tmin()), t_crit, t_crit, float(state.Tmax()))
