"""The analytic slope of a coil's outlet spec (superheat or subcooling) in the Jacobian.

A coil's outlet spec asks ``h_out = h(p, T_ref(p) -+ delta)``; its Jacobian row needs
``dh/dp = (dh/dp)_T + cp dT_ref/dp``, which CoolProp's backend reads off the state it flashed
for the residual (:meth:`CoolPropStates.h_pT_with_slopes`) instead of a second flash at a shifted
pressure. Checked against central differences of CoolProp itself (``PropsSI``) and of the
coil's own target, on pure fluids and a zeotropic blend.
"""

from __future__ import annotations

import json

import CoolProp.CoolProp as CP
import numpy as np
import pytest

from workbench.components.exchangers.coils.jacobian import _outlet_target_slope
from workbench.fluids import get_backend
from workbench.solver import solve
from workbench.solver.solve import prepare


@pytest.mark.parametrize(
    ("fluid", "t_sat", "dt"),
    [("R134a", 270.0, 5.0), ("R134a", 310.0, -3.0), ("CO2", 265.0, 4.0), ("Ammonia", 300.0, -2.0)],
)
def test_h_pT_slopes_match_coolprop_differences(fluid, t_sat, dt):
    backend = get_backend(fluid, "CoolProp")
    p = float(backend.p_sat(t_sat))
    T = float(backend.T_sat(p)) + dt
    found = backend.h_pT_with_slopes(p, T)
    assert found is not None
    h, cp, h_p = found
    assert h == backend.h_pT(p, T)
    dT, dp = 1e-3, 1e-3 * p
    cp_ref = (
        CP.PropsSI("H", "P", p, "T", T + dT, fluid) - CP.PropsSI("H", "P", p, "T", T - dT, fluid)
    ) / (2 * dT)
    hp_ref = (
        CP.PropsSI("H", "P", p + dp, "T", T, fluid) - CP.PropsSI("H", "P", p - dp, "T", T, fluid)
    ) / (2 * dp)
    assert cp == pytest.approx(cp_ref, rel=1e-5)
    assert h_p == pytest.approx(hp_ref, rel=1e-4, abs=1e-9)


@pytest.mark.parametrize("name", ["heat_pump_v1", "r407c_heat_pump_v2", "cascade_v2"])
def test_outlet_spec_slope_matches_the_targets_central_difference(name):
    with open(f"examples/scenarios/{name}.json") as fh:
        doc = json.load(fh)
    result = solve(doc)
    system = prepare(doc)
    checked = 0
    for comp in system.components.values():
        if not getattr(comp, "outlet_spec_given", False):
            continue
        delta = float(comp.params.get(comp.outlet_spec, 0.0))
        if delta == 0.0:
            continue
        p = comp.port(result.x, "outlet").p
        slope = _outlet_target_slope(comp, p, delta)
        assert slope is not None, comp.name
        dp = 1e-4 * p
        ref = (comp.outlet_target(p + dp, delta) - comp.outlet_target(p - dp, delta)) / (2 * dp)
        assert slope == pytest.approx(ref, rel=1e-5), comp.name
        checked += 1
    assert checked >= 2


def test_the_slope_saves_the_shifted_flashes():
    # the same solution to rounding, and fewer flashes than the forward difference took
    import workbench.components.exchangers.coils.jacobian as cj

    with open("examples/scenarios/cascade_v2.json") as fh:
        doc = json.load(fh)
    # each on a system of its own (a new backend, no memo of another solve): counts comparable
    analytic = solve(doc, system=prepare(doc))
    original = cj._outlet_target_slope
    cj._outlet_target_slope = lambda coil, p, delta: None
    try:
        differenced = solve(doc, system=prepare(doc))
    finally:
        cj._outlet_target_slope = original
    assert analytic.converged
    assert differenced.converged
    assert analytic.iterations == differenced.iterations
    scale = np.maximum(np.abs(differenced.x), 1.0)
    assert np.max(np.abs(analytic.x - differenced.x) / scale) < 1e-9
    assert analytic.property_flashes < differenced.property_flashes
