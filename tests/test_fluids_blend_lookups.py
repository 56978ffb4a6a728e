"""The blend backend's fast paths give what the slow ones give.

- ``h_min`` / ``h_max`` (Newton on the density from the last bound) against CoolProp's
  phase-imposed (p, T) flash of the mixture at ``T_min + 1 mK`` / ``T_max``;
- the dome lookup (rows combined once per pressure and interval) against weighting the four
  rows' spline values with the Lagrange weights (the tables' definition).
"""

from __future__ import annotations

import CoolProp.CoolProp as CP
import numpy as np
import pytest

from workbench.fluids import get_backend


def _flash_h(b, p, T, phase):
    state = CP.AbstractState("HEOS", b.spec.coolprop_fluids)
    state.set_mole_fractions(list(b.spec.mole_fractions))
    state.specify_phase(phase)
    state.update(CP.PT_INPUTS, p, T)
    return state.hmass()


@pytest.mark.parametrize("fluid", ["R407C", "R454B"])
def test_blend_step_bounds_match_the_phase_imposed_flash(fluid):
    b = get_backend(fluid, "CoolProp")
    for p in np.geomspace(2e5, 0.7 * b.p_crit, 7):  # each from the last bound's density
        h_lo = _flash_h(b, p, b._t_min + 1e-3, CP.iphase_liquid)
        h_hi = _flash_h(b, p, b._t_max, CP.iphase_gas)
        assert b.h_min(p) == pytest.approx(h_lo, rel=1e-9, abs=1e-6)
        assert b.h_max(p) == pytest.approx(h_hi, rel=1e-9)
        assert b.h_min(p) == b.h_min(float(p))  # remembered


def _dome_reference(tables, p, z):
    """Each of the four rows' z-spline at z, then the Lagrange weights in ln p."""
    k, t = tables._interval(p, "test")
    j = min(max(int(z / tables._dz), 0), tables._dome_c.shape[1] - 1)
    x = z - j * tables._dz
    lo = min(max(k - 1, 0), tables._n_p - 4)
    c = tables._dome_c[:, j, :, lo : lo + 4]
    rows = ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
    s = k + t - lo
    w = np.array(
        [
            -(s - 1) * (s - 2) * (s - 3) / 6.0,
            s * (s - 2) * (s - 3) / 2.0,
            -s * (s - 1) * (s - 3) / 2.0,
            s * (s - 1) * (s - 2) / 6.0,
        ]
    )
    return rows @ w


def test_blend_dome_lookup_is_the_tables_interpolation():
    tables = get_backend("R407C", "CoolProp").tables
    rng = np.random.default_rng(7)
    for p, z in zip(
        np.exp(rng.uniform(np.log(tables.p_min), np.log(tables.p_max), 60)),
        rng.uniform(0.0, 1.0, 60),
        strict=True,
    ):
        got = np.array(tables.dome_state(float(p), float(z)))
        again = np.array(tables.dome_state(float(p), float(z)))  # from the kept coefficients
        ref = _dome_reference(tables, float(p), float(z))
        np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(got, again)
