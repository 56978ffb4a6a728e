"""Checks of a solved condenser or evaporator: wrong-way heat, crossings, the fine profile.

What :class:`~workbench.components.exchangers.coils.component.Coil` reports after a solve: problems (heat flowing
the wrong way, the refrigerant outlet past the secondary inlet, a crossing on the fine
temperature profile) and warnings (above the critical pressure, a profile that could not be
checked, a zone model whose conductance the fine profile contradicts). The fine profile
(:func:`workbench.components.exchangers.zones.profile.secondary_profile`) is remembered per solved state.
"""

from __future__ import annotations

import numpy as np

from workbench.components.exchangers.coils.view import CoilView
from workbench.components.exchangers.zones.profile import (
    NEAR_CRITICAL,
    ProfileCheck,
    accuracy_warning,
    crossing_problem,
    near_critical_note,
    secondary_profile,
)

__all__ = ["coil_problems", "coil_profile", "coil_warnings"]


def coil_problems(coil: CoilView, x: np.ndarray) -> list[str]:
    """Heat flowing the wrong way, or temperatures crossing the secondary stream.

    Checked: a negative refrigerant heat flow; the refrigerant outlet past the secondary inlet
    temperature; in ideal mode, a saturation temperature on the wrong side of the secondary
    inlet; a crossing on the fine temperature profile (:meth:`profile_problems`).
    """
    problems = []
    q = coil.heat_flow(x)
    role = "releases" if coil.refrigerant_is_hot else "absorbs"
    if q < -1e-6 * max(1.0, abs(q)):
        problems.append(
            f"{coil.type_name} {coil.name!r}: refrigerant {role} {q:.1f} W (negative): heat "
            "would flow the wrong way"
        )
    if coil.has_secondary:
        inlet, outlet = coil.port(x, "inlet"), coil.port(x, "outlet")
        fl = coil.fluid
        sign = 1.0 if coil.refrigerant_is_hot else -1.0
        t_ref_out = fl.T_ph(outlet.p, outlet.h)
        if sign * (t_ref_out - coil.t_sec_in) < -1e-6 and q > 0:
            problems.append(
                f"{coil.type_name} {coil.name!r}: refrigerant outlet {t_ref_out - 273.15:.2f} C is "
                f"{'below' if coil.refrigerant_is_hot else 'above'} the secondary inlet "
                f"{coil.t_sec_in - 273.15:.2f} C: temperatures cross (heat would flow uphill)"
            )
        t_sat = fl.T_sat(coil.reference_pressure(x))
        if not coil.ua_mode and sign * (t_sat - coil.t_sec_in) <= 0 and q > 0:
            problems.append(
                f"{coil.type_name} {coil.name!r}: saturation temperature {t_sat - 273.15:.2f} C "
                f"is not {'above' if coil.refrigerant_is_hot else 'below'} the secondary inlet "
                f"{coil.t_sec_in - 273.15:.2f} C: heat cannot flow that way"
            )
        del inlet
    problems.extend(_profile_problems(coil, x))
    return problems


def coil_profile(coil: CoilView, x: np.ndarray) -> tuple[ProfileCheck | None, str | None]:
    """The solved coil on a fine enthalpy grid, or why it could not be checked.

    ``(None, None)`` without a secondary flow (nothing to compare with) or when coupled.
    """
    if coil.coupled or not coil.has_secondary or not coil.has("secondary_mass_flow_kg_s"):
        return None, None
    inlet, outlet = coil.port(x, "inlet"), coil.port(x, "outlet")
    c_sec = coil.secondary_capacity_rate()
    return coil._profile_memo.get(
        (inlet.p, inlet.h, outlet.p, outlet.h, inlet.m, c_sec),
        lambda: secondary_profile(
            coil.fluid,
            (inlet.p, inlet.h),
            (outlet.p, outlet.h),
            inlet.m,
            coil.t_sec_in,
            c_sec,
            coil.refrigerant_is_hot,
        ),
    )


def _profile_problems(coil: CoilView, x: np.ndarray) -> list[str]:
    """A crossing on the fine profile, as a problem naming where and why."""
    check, _why = coil_profile(coil, x)
    if check is None or check.q <= 0.0:
        return []
    note = near_critical_note(coil.fluid, coil.port(x, "inlet").p, coil.refrigerant_is_hot)
    text = crossing_problem(
        f"{coil.type_name} {coil.name!r}",
        check,
        first_is_hot=coil.refrigerant_is_hot,
        note=note,
    )
    return [text] if text else []


def coil_warnings(coil: CoilView, x: np.ndarray) -> list[str]:
    """Above the critical pressure, a failed profile check, an inaccurate zone model."""
    label = f"{coil.type_name} {coil.name!r}"
    p_in = coil.port(x, "inlet").p
    if p_in >= NEAR_CRITICAL * coil.fluid.p_crit:
        return [f"{label}: {near_critical_note(coil.fluid, p_in, coil.refrigerant_is_hot)}"]
    check, why = coil_profile(coil, x)
    if why is not None:
        return [f"{label}: {why}"]
    if check is None or not coil.ua_mode:
        return []
    text = accuracy_warning(
        label,
        check,
        coil.ua_total(x),
        near_critical_note(coil.fluid, p_in, coil.refrigerant_is_hot),
    )
    return [text] if text else []
