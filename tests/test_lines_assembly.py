"""The solver's line insertion: an edge with a line becomes two edges around a line component."""

from __future__ import annotations

from lines_cases import split_unit

from workbench.scenario import flatten, load_scenario
from workbench.solver.lines import LINE_TYPE, with_lines


def test_lines_assembly_splits_each_line_edge_in_place() -> None:
    flat = flatten(load_scenario(split_unit()))
    out = with_lines(flat)
    assert out is not flat
    assert len(flat.edges) == 4  # the user's flat scenario is left as it is
    assert [f"{e.source} -> {e.target}" for e in out.edges] == [
        "compressor:outlet -> line compressor-condenser:inlet",
        "line compressor-condenser:outlet -> condenser:inlet",
        "condenser:outlet -> line condenser-valve:inlet",
        "line condenser-valve:outlet -> valve:inlet",
        "valve:outlet -> evaporator:inlet",
        "evaporator:outlet -> line evaporator-compressor:inlet",
        "line evaporator-compressor:outlet -> compressor:inlet",
    ]
    line = out.components["line evaporator-compressor"]
    assert line.type == LINE_TYPE
    assert line.params["role"] == "suction"
    assert line.params["edge"] == "evaporator:outlet -> compressor:inlet"
    assert line.params["line"]["length_m"] == 10.0
    assert line.path == "circuits[0].edges[3].line"


def test_lines_assembly_without_lines_is_the_same_scenario() -> None:
    doc = split_unit()
    for edge in doc["circuits"][0]["edges"]:
        edge.pop("line", None)
    flat = flatten(load_scenario(doc))
    assert with_lines(flat) is flat
