"""Flow order of the states drawn on the diagrams (workbench.plotting.cycle)."""

from __future__ import annotations

import random

import pytest
from solver_cases import textbook_r134a

from workbench.plotting import cycle_loops
from workbench.plotting.cycle import parse_edge, segment_states
from workbench.solver import solve


def _ihx_scenario(shuffle_seed: int) -> dict:
    doc = textbook_r134a(eta_s=0.75, superheat_k=2.0, subcooling_k=2.0, backend="Test")
    circuit = doc["circuits"][0]
    circuit["components"].append({"name": "ihx", "type": "HeatExchanger", "effectiveness": 0.6})
    edges = [
        {"from": "comp:outlet", "to": "cond:inlet"},
        {"from": "cond:outlet", "to": "ihx:hot_inlet"},
        {"from": "ihx:hot_outlet", "to": "valve:inlet"},
        {"from": "valve:outlet", "to": "evap:inlet"},
        {"from": "evap:outlet", "to": "ihx:cold_inlet"},
        {"from": "ihx:cold_outlet", "to": "comp:inlet"},
    ]
    random.Random(shuffle_seed).shuffle(edges)  # document order is not flow order
    circuit["edges"] = edges
    return doc


def test_parse_edge_takes_the_port_after_the_last_colon():
    assert parse_edge("unit.a:b:outlet -> x.y:inlet") == ("unit.a:b", "outlet", "x.y", "inlet")
    with pytest.raises(ValueError, match="not '<component>:<port>"):
        parse_edge("comp.outlet to cond.inlet")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cycle_loops_follow_the_flow_through_a_two_stream_heat_exchanger(seed):
    result = solve(_ihx_scenario(seed))
    assert result.converged, result.report()
    (loop,) = cycle_loops(result)
    expected = [
        "ihx:cold_outlet -> comp:inlet",
        "comp:outlet -> cond:inlet",
        "cond:outlet -> ihx:hot_inlet",
        "ihx:hot_outlet -> valve:inlet",
        "valve:outlet -> evap:inlet",
        "evap:outlet -> ihx:cold_inlet",
    ]
    assert loop.edges == expected
    assert loop.numbers == [1, 2, 3, 4, 5, 6]
    # each state is the row of the edges table it names
    table = result.edges.set_index("edge")
    for name, p, h in zip(loop.edges, loop.p_pa, loop.h_j_kg):
        assert p == pytest.approx(table.loc[name, "p_bar"] * 1e5)
        assert h == pytest.approx(table.loc[name, "h_kj_kg"] * 1e3)
    # physics along the flow: compression raises p, the valve drops it, h is kept across it
    assert loop.p_pa[1] > loop.p_pa[0]
    assert loop.p_pa[4] < loop.p_pa[3]
    assert loop.h_j_kg[4] == pytest.approx(loop.h_j_kg[3], rel=1e-9)


def test_cycle_loops_number_states_across_circuits():
    from workbench.scenario import load_scenario

    result = solve(load_scenario("examples/scenarios/split_units_v2.json"))
    loops = cycle_loops(result)
    assert [loop.circuit for loop in loops] == [0, 1]
    assert [loop.numbers for loop in loops] == [[1, 2, 3, 4], [5, 6, 7, 8]]
    for loop in loops:
        assert loop.edges[0].endswith(".compressor:inlet")
        for a, b in zip(loop.edges, loop.edges[1:] + loop.edges[:1]):
            # the component an edge enters is the one the next edge leaves
            assert parse_edge(a)[2] == parse_edge(b)[0]


def test_segment_states_keeps_an_isobar_and_an_isenthalp():
    from workbench.fluids import get_backend

    fluid = get_backend("R134a", "Test")
    p, h, t, _s = segment_states(fluid, 8e5, 4.3e5, 8e5, 2.4e5, n=30)
    assert (p == pytest.approx(8e5)) and h[0] == 4.3e5 and h[-1] == 2.4e5
    t_sat = fluid.T_sat(8e5)
    inside = (h > fluid.h_liq(8e5)) & (h < fluid.h_vap(8e5))
    assert inside.sum() > 5
    assert t[inside] == pytest.approx(t_sat, abs=1e-6)  # condensation at constant temperature
    p, h, _t, _s = segment_states(fluid, 8e5, 2.4e5, 2e5, 2.4e5, n=10)
    assert h == pytest.approx(2.4e5) and p[0] == pytest.approx(8e5) and p[-1] == pytest.approx(2e5)
