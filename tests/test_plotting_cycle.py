"""Flow order of the states drawn on the diagrams: ``SolveResult.loops`` and ``cycle_loops``."""

from __future__ import annotations

import random

import pytest
from solver_cases import textbook_r134a

from workbench.plotting import cycle_loops
from workbench.plotting.cycle import segment_states
from workbench.solver import solve
from workbench.solver.results import EdgeState, follow_loops


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


def _state(src: str, dst: str, circuit: int = 0, p: float = 1e5) -> EdgeState:
    (a, ap), (b, bp) = src.rsplit(":", 1), dst.rsplit(":", 1)
    return EdgeState(a, ap, b, bp, circuit, 0.1, p, 4e5, 280.0, 1.7e3, None, "vapour")


def test_result_carries_si_edge_states_with_endpoints_as_data():
    result = solve(_ihx_scenario(1))
    table = result.edges
    assert len(result.edge_states) == len(table)
    for state, (_, row) in zip(result.edge_states, table.iterrows()):
        assert state.label == row["edge"]
        assert state.p_pa == pytest.approx(row["p_bar"] * 1e5, rel=1e-12)
        assert state.h_j_kg == pytest.approx(row["h_kj_kg"] * 1e3, rel=1e-12)
        assert state.t_k == pytest.approx(row["t_c"] + 273.15, rel=1e-12)
        assert state.s_j_kgk == pytest.approx(row["s"] * 1e3, rel=1e-12)
        assert state.m_kg_s == pytest.approx(row["m_kg_s"], rel=1e-12)
    ihx_in = next(s for s in result.edge_states if s.dst == "ihx" and s.dst_port == "hot_inlet")
    assert (ihx_in.src, ihx_in.src_port) == ("cond", "outlet")


def test_follow_loops_takes_names_with_colons_and_dots_as_data():
    # component names with dots and colons: nothing is parsed, the endpoints are fields
    states = [
        _state("u.a:b:outlet", "u.c:inlet"),
        _state("u.comp:outlet", "u.a:b:inlet", p=9e5),
        _state("u.c:outlet", "u.comp:inlet"),
    ]
    types = {"u.a:b": "Condenser", "u.c": "Evaporator", "u.comp": "Compressor"}
    (loop,) = follow_loops(states, types)
    assert loop.closed
    assert loop.edges == (2, 1, 0)  # from the compressor suction
    assert list(loop.p_pa) == [1e5, 9e5, 1e5]


def test_follow_loops_keeps_an_open_chain_whole():
    states = [_state("b:outlet", "c:inlet"), _state("a:outlet", "b:inlet", circuit=0)]
    types = {"a": "Compressor", "b": "Condenser", "c": "ExpansionValve"}
    (chain,) = follow_loops(states, types)
    assert not chain.closed
    assert chain.edges == (1, 0)


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
        states = [result.edge_states[r] for r in loop.rows]
        for a, b in zip(states, states[1:] + states[:1]):
            # the component an edge enters is the one the next edge leaves
            assert a.dst == b.src


def test_segment_states_keeps_an_isobar_and_an_isenthalp():
    from workbench.fluids import get_backend

    fluid = get_backend("R134a", "Test")
    p, h, t, _s = segment_states(fluid, 8e5, 4.3e5, 8e5, 2.4e5, n=30)
    assert p == pytest.approx(8e5)
    assert h[0] == 4.3e5
    assert h[-1] == 2.4e5
    t_sat = fluid.T_sat(8e5)
    inside = (h > fluid.h_liq(8e5)) & (h < fluid.h_vap(8e5))
    assert inside.sum() > 5
    assert t[inside] == pytest.approx(t_sat, abs=1e-6)  # condensation at constant temperature
    p, h, _t, _s = segment_states(fluid, 8e5, 2.4e5, 2e5, 2.4e5, n=10)
    assert h == pytest.approx(2.4e5)
    assert p[0] == pytest.approx(8e5)
    assert p[-1] == pytest.approx(2e5)
