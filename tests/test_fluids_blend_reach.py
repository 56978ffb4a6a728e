"""How far a blend's tables reach: the real top in the error, and validate refusing beyond it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from workbench.errors import FluidPropertyError, ScenarioError
from workbench.fluids import get_backend
from workbench.scenario import load_scenario
from workbench.scenario.blend_reach import blend_reach
from workbench.scenario.reference_cases import loop_edges


def _cycle(fluid: str, t_cond: float, reference: str = "dew", **cond: float) -> dict:
    return {
        "schema_version": "2",
        "fluid": fluid,
        "fluid_backend": "CoolProp",
        "saturation_reference": reference,
        "circuits": [
            {
                "components": [
                    {
                        "name": "comp",
                        "type": "Compressor",
                        "mass_flow_kg_s": 0.02,
                        "isentropic_efficiency": 0.7,
                    },
                    {
                        "name": "cond",
                        "type": "Condenser",
                        "t_cond_k": t_cond,
                        "subcooling_k": 2.0,
                        **cond,
                    },
                    {"name": "valve", "type": "ExpansionValve"},
                    {"name": "evap", "type": "Evaporator", "t_evap_k": 270.0, "superheat_k": 5.0},
                ],
                "edges": loop_edges("comp", "cond", "valve", "evap"),
            }
        ],
    }


def test_the_tables_error_states_their_real_top():
    fluid = get_backend("R454B", "CoolProp")
    with pytest.raises(FluidPropertyError) as info:
        fluid.tables.saturation(1.01 * fluid.p_max, "T_sat")
    message = str(info.value)
    assert "they end at 43.1 bar, 0.81 of the critical pressure 53.0 bar" in message
    assert "0.97" not in message
    assert fluid.p_max / fluid.p_crit == pytest.approx(0.81, abs=0.005)


@pytest.mark.parametrize(("fluid", "reference"), [("R454B", "dew"), ("R449A", "mid")])
def test_a_condensing_temperature_above_the_tables_is_refused_at_validate(fluid, reference):
    reach = blend_reach(fluid, "CoolProp")
    assert reach is not None
    t_top = reach.t_top(reference)
    t_bad = 0.5 * (t_top + reach.t_crit)  # below the critical temperature, above the tables
    with pytest.raises(ScenarioError) as info:
        load_scenario(_cycle(fluid, t_bad, reference))
    found = {i.path: i.message for i in info.value.issues}
    message = found["circuits[0].components[1].t_cond_k"]
    assert "above the highest the blend's tables reach" in message
    advice = math.floor(t_top * 100.0) / 100.0  # rounded down: the advice itself is accepted
    assert f"give t_cond_k at most {advice:.2f} K" in message
    load_scenario(_cycle(fluid, advice, reference))
    assert f"{reach.p_top / 1e5:.1f} bar" in message
    # half a kelvin below the top is accepted, and it solves
    from workbench.solver import solve

    result = solve(_cycle(fluid, t_top - 0.5, reference))
    assert result.converged, result.report()
    assert result.components["cond"]["pressure"] <= reach.p_top


def test_a_condenser_fed_hotter_than_the_tables_is_refused():
    reach = blend_reach("R454B", "CoolProp")
    assert reach is not None
    doc = _cycle("R454B", 320.0, secondary_inlet_temp_k=reach.t_bubble_top + 1.0)
    with pytest.raises(ScenarioError) as info:
        load_scenario(doc)
    paths = {i.path for i in info.value.issues}
    assert "circuits[0].components[1].secondary_inlet_temp_k" in paths


def test_a_table_ends_before_a_flash_that_left_the_saturation_line():
    # R463A (with CO2): CoolProp's dew flash at the 105th node converged to 1098 K after
    # 317 K at the node below; the table now ends below that node, its lines smooth to the top
    fluid = get_backend("R463A", "CoolProp")
    sat = fluid.tables.sat
    for end in (0, 1):
        rises = np.diff(sat[end, 0, :])
        assert np.all(rises > 0.0)
        assert np.all(rises[1:] <= 3.0 * rises[:-1] + 0.5)
    assert sat[1, 0, -1] < fluid.T_crit
    assert fluid.T_sat(fluid.p_max) == pytest.approx(sat[1, 0, -1], abs=1e-9)
