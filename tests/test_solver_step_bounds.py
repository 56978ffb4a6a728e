"""Newton's enthalpy bounds, evaluated only near them (workbench.solver.step_bounds)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from workbench.fluids import get_backend
from workbench.solver import solve
from workbench.solver.step_bounds import (
    MARGIN_FLOOR,
    MAX_SLOPE,
    PRESSURE_RATIO,
    EnthalpyBounds,
)


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
    # at the probe's pressure the margin is MARGIN_FLOOR; away from it, what the bounds can move
    assert not bounds.clear_of(fluid, p, lo + 0.5 * MARGIN_FLOOR)
    assert not bounds.clear_of(fluid, p, hi - 0.5 * MARGIN_FLOOR)
    assert bounds.clear_of(fluid, p, lo + 2.0 * MARGIN_FLOOR)
    assert bounds.clear_of(fluid, p, hi - 2.0 * MARGIN_FLOOR)
    reach = MARGIN_FLOOR + MAX_SLOPE * 0.2 * p
    assert not bounds.clear_of(fluid, 1.2 * p, lo + 0.9 * reach)
    assert bounds.clear_of(fluid, 1.2 * p, lo + 1.1 * reach)
    other = get_backend("R290", "CoolProp")
    assert not bounds.clear_of(other, p, mid)  # probes belong to their backend


@pytest.mark.parametrize(
    "name",
    ["R134a", "R290", "R744", "R717", "R32", "R410A", "R407C", "R454B", "R1234yf", "R1234ze(E)"],
)
def test_the_margin_covers_the_bounds_change_over_the_pressure_ratio(name):
    # what makes skipping the exact bounds safe: across the fluid's pressures, h_min and h_max
    # move by less than the margin between a probe's pressure and any pressure within
    # PRESSURE_RATIO of it
    fluid = get_backend(name, "CoolProp")
    p_lo, p_hi = 2.0 * fluid.p_min, min(fluid.p_max, 30e6) / PRESSURE_RATIO
    for p in np.geomspace(p_lo, p_hi, 25):
        lo, hi = float(fluid.h_min(p)), float(fluid.h_max(p))
        for q in (p / PRESSURE_RATIO, p / 1.01, p * 1.01, p * PRESSURE_RATIO):
            if not fluid.p_min < q < fluid.p_max:
                continue
            margin = MARGIN_FLOOR + MAX_SLOPE * abs(q - p)
            assert abs(float(fluid.h_min(q)) - lo) < margin, (name, p, q)
            assert abs(float(fluid.h_max(q)) - hi) < margin, (name, p, q)


def test_a_co2_cycle_flashes_the_bounds_only_at_new_pressure_levels(monkeypatch):
    # CO2's band runs to 2,000 K: a band-relative margin kept its liquid states "near h_min"
    # and flashed both bounds again at every iteration (15 probes per solve of this cascade)
    with open("examples/scenarios/r744_r717_cascade_v2.json") as fh:
        doc = json.load(fh)
    probes = []
    original = EnthalpyBounds.exact

    def counted(self, fluid, p):
        probes.append((fluid.name, p))
        return original(self, fluid, p)

    monkeypatch.setattr(EnthalpyBounds, "exact", counted)
    result = solve(doc)
    assert result.converged
    assert len(probes) <= 6, probes  # a few pressure levels of two fluids
