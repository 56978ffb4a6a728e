"""Fit the parameters of the analytic ``Test`` backend to CoolProp (a development tool).

Run ``python -m workbench.fluids.analytic._fit`` to print the parameter table that is
frozen in :mod:`workbench.fluids.analytic.params`. The ``Test`` backend itself never
imports CoolProp; this script only documents where its numbers come from.

Fits, per fluid, over the temperature window ``T_LO..T_HI`` (see ``WINDOWS``):

- Antoine saturation curve ``ln p = A - B / (T + C)`` to the geometric mean of the
  bubble and dew pressures (least squares on the relative error);
- Watson latent heat ``L = L_ref * ((T_c - T) / (T_c - T_ref)) ** n`` (least squares on ``ln L``);
- liquid: ``v_l`` = saturated liquid volume at ``T_ref``, ``cp_l`` = slope of the saturated
  liquid enthalpy (after removing the ``v_l dp`` part);
- vapour: ``cp_v`` = mean slope of ``h(T)`` at constant pressure over 0..40 K of superheat
  at three saturation pressures inside the window;
- reference state: CoolProp's default saturated-liquid ``h`` and ``s`` at ``T_ref``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

WINDOWS = {
    # fluid: (T_lo [K], T_hi [K], T_ref [K])
    "R134a": (233.15, 343.15, 273.15),
    "R32": (233.15, 343.15, 273.15),
    "R290": (233.15, 343.15, 273.15),
    "R410A": (233.15, 338.15, 273.15),
    "CO2": (233.15, 303.65, 273.15),
    "Water": (273.16, 373.15, 273.16),
}


def fit(fluid: str, t_lo: float, t_hi: float, t_ref: float) -> dict[str, float]:
    """Fit the analytic model of one fluid; return its parameters (SI)."""
    import CoolProp.CoolProp as CP
    from scipy.optimize import least_squares

    state = CP.AbstractState("HEOS", fluid)
    t = np.linspace(t_lo, t_hi, 80)

    def sat(q: float, temps: np.ndarray, key: Any) -> np.ndarray:
        out = []
        for ti in temps:
            state.update(CP.QT_INPUTS, q, float(ti))
            out.append(state.keyed_output(key))
        return np.array(out)

    p_mean = np.sqrt(sat(0.0, t, CP.iP) * sat(1.0, t, CP.iP))
    res = least_squares(
        lambda x: np.exp(x[0] - x[1] / (t + x[2])) / p_mean - 1.0, [21.0, 2200.0, -20.0]
    )
    a, b, c = (float(v) for v in res.x)
    t_crit = state.T_critical()

    def p_model(temp: Any) -> Any:
        return np.exp(a - b / (temp + c))

    # latent heat at the same pressure (bubble -> dew) on the fit window
    t_l = t[t < t_crit - 1.0]
    latent = []
    for ti in t_l:
        state.update(CP.PQ_INPUTS, float(p_model(ti)), 0.0)
        h_l = state.hmass()
        state.update(CP.PQ_INPUTS, float(p_model(ti)), 1.0)
        latent.append(state.hmass() - h_l)
    tau = (t_crit - t_l) / (t_crit - t_ref)
    n_w, ln_l = np.polyfit(np.log(tau), np.log(latent), 1)

    state.update(CP.QT_INPUTS, 0.0, t_ref)
    v_l = 1.0 / state.rhomass()
    h0, s0 = state.hmass(), state.smass()
    p0 = float(p_model(t_ref))
    h_liq = sat(0.0, t, CP.iHmass) - v_l * (p_model(t) - p0)
    cp_l = float(np.polyfit(t - t_ref, h_liq - h0, 1)[0])

    slopes = []
    for frac in (0.25, 0.5, 0.75):
        ts = t_lo + frac * (min(t_hi, t_crit - 5.0) - t_lo)
        ps = float(p_model(ts))
        state.update(CP.PQ_INPUTS, ps, 1.0)
        t_dew, h_dew = state.T(), state.hmass()
        dts = np.linspace(2.0, 40.0, 20)
        hs = []
        for dt in dts:
            state.update(CP.PT_INPUTS, ps, t_dew + dt)
            hs.append(state.hmass())
        slopes.append(np.polyfit(dts, np.array(hs) - h_dew, 1)[0])
    cp_v = float(np.mean(slopes))
    return {
        "A": a,
        "B": b,
        "C": c,
        "T_crit": t_crit,
        "T_ref": t_ref,
        "L_ref": float(np.exp(ln_l)),
        "n_watson": float(n_w),
        "cp_l": cp_l,
        "v_l": v_l,
        "cp_v": cp_v,
        "h_ref": h0,
        "s_ref": s0,
        "molar_mass": state.molar_mass(),
        "T_min": max(state.Tmin(), t_lo - 40.0),
    }


def main() -> None:
    """Print the fitted parameter table as Python source."""
    for fluid, (t_lo, t_hi, t_ref) in WINDOWS.items():
        params = fit(fluid, t_lo, t_hi, t_ref)
        body = ", ".join(f"{k}={v:.8g}" for k, v in params.items())
        print(f'    "{fluid}": AnalyticFluid(name="{fluid}", {body}),')


if __name__ == "__main__":
    main()
