"""Newton's enthalpy bounds, evaluated only near them (workbench.solver.step_bounds)."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.fluids import get_backend
from workbench.solver.step_bounds import MARGIN, PRESSURE_RATIO, EnthalpyBounds


def test_an_enthalpy_is_clear_only_well_inside_a_nearby_probe():
    fluid = get_backend("R134a", "CoolProp")
    bounds = EnthalpyBounds()
    p = 5e5
    assert not bounds.clear_of(fluid, p, 300e3)  # nothing known yet: evaluate
    lo, hi = bounds.exact(fluid, p)
    assert (lo, hi) == (fluid.h_min(p), fluid.h_max(p))
    mid = 0.5 * (lo + hi)
    assert bounds.clear_of(fluid, p, mid)
    assert bounds.clear_of(fluid, 1.2 * p, mid)
    assert not bounds.clear_of(fluid, 2.0 * p, mid)  # no probe within the pressure ratio
    band = hi - lo
    assert not bounds.clear_of(fluid, p, lo + 0.5 * MARGIN * band)
    assert not bounds.clear_of(fluid, p, hi - 0.5 * MARGIN * band)
    other = get_backend("R290", "CoolProp")
    assert not bounds.clear_of(other, p, mid)  # probes belong to their backend


@pytest.mark.parametrize("name", ["R134a", "R290", "R744", "R717", "R1234yf"])
def test_the_margin_covers_the_bounds_change_over_the_pressure_ratio(name):
    # what makes skipping the exact bounds safe: across the fluid's pressures, h_min and h_max
    # move by less than the margin between a probe's pressure and PRESSURE_RATIO of it
    fluid = get_backend(name, "CoolProp")
    p_lo, p_hi = 2.0 * fluid.p_min, min(fluid.p_max, 30e6) / PRESSURE_RATIO
    for p in np.geomspace(p_lo, p_hi, 25):
        lo, hi = float(fluid.h_min(p)), float(fluid.h_max(p))
        margin = MARGIN * (hi - lo)
        for q in (p / PRESSURE_RATIO, p * PRESSURE_RATIO):
            if not fluid.p_min < q < fluid.p_max:
                continue
            assert abs(float(fluid.h_min(q)) - lo) < margin, (name, p, q)
            assert abs(float(fluid.h_max(q)) - hi) < margin, (name, p, q)
