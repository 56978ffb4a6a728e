"""Line sizing: the proposed tube meets the drop, the next smaller does not, re-solved on their own."""

from __future__ import annotations

import pytest
from lines_cases import SUCTION_EDGE, split_unit

import workbench
from workbench.correlations.line_sizes import tube_sizes
from workbench.errors import ScenarioError

SUCTION = "evaporator:outlet -> compressor:inlet"


def _resolve(size, *, min_speed: bool = False) -> dict:
    doc = split_unit(inner_diameter_m=size.inner_diameter_m, outer_diameter_m=size.outer_diameter_m)
    if min_speed:
        doc["circuits"][0]["components"][0]["speed_hz"] = 35
    result = workbench.solve(doc)
    assert result.converged
    return next(r for r in result.lines if r["path"] == f"circuits[0].edges[{SUCTION_EDGE}]")


@pytest.fixture(scope="module")
def sized():
    return workbench.lines.size(split_unit(), SUCTION, max_saturation_drop_k=1.0)


def test_lines_sizing_picks_the_smallest_size_meeting_the_drop(sized) -> None:
    drawn = tube_sizes("astm_b280_drawn")
    assert sized.proposed == drawn[2]  # 5/8 in
    assert sized.complies
    chosen = _resolve(sized.proposed)
    smaller = _resolve(drawn[1])  # 1/2 in, solved on its own
    assert chosen["saturation_temperature_drop_k"] <= 1.0
    assert smaller["saturation_temperature_drop_k"] > 1.0
    table = sized.table.set_index("size")
    assert table.loc[drawn[2].label, "saturation_drop_k"] == pytest.approx(
        chosen["saturation_temperature_drop_k"], rel=1e-9
    )
    assert not table.loc[drawn[1].label, "meets_drop"]


def test_lines_sizing_oil_return_at_minimum_capacity(sized) -> None:
    assert sized.oil_return_velocity_m_s == pytest.approx(5.08)  # ASHRAE's 1000 ft/min riser
    assert sized.minimum_capacity == "compressor at min_speed_hz = 35 Hz"
    slow = _resolve(sized.proposed, min_speed=True)
    assert slow["velocity_m_s"] >= 5.08
    table = sized.table.set_index("size")
    assert table.loc[sized.proposed.label, "velocity_min_m_s"] == pytest.approx(
        slow["velocity_m_s"], rel=1e-9
    )
    assert not table.loc["given", "meets_oil_return"]  # 3/4 in is too slow at 35 Hz


def test_lines_sizing_says_what_it_costs_in_charge(sized) -> None:
    given = workbench.solve(split_unit()).lines[2]["charge_kg"]
    chosen = _resolve(sized.proposed)["charge_kg"]
    assert sized.charge_difference_kg == pytest.approx(chosen - given, rel=1e-6)
    assert sized.charge_difference_kg < 0.0  # a smaller tube holds less vapour
    assert "5/8 in x 0.040 in" in sized.message
    assert sized.to_dict()["proposed"] == "5/8 in x 0.040 in"


def test_lines_sizing_tight_limit_leaves_no_size_meeting_both() -> None:
    report = workbench.lines.size(split_unit(), "circuits[0].edges[3]", max_saturation_drop_k=0.3)
    assert report.proposed == tube_sizes("astm_b280_drawn")[3]  # 3/4 in meets 0.3 K ...
    assert not report.complies  # ... but is below 5.08 m/s at 35 Hz
    assert "no standard size meets both" in report.message


def test_lines_sizing_unknown_edge_names_the_edges_with_lines() -> None:
    with pytest.raises(ScenarioError, match="valve:outlet -> evaporator:inlet") as caught:
        workbench.lines.size(split_unit(), "valve:outlet -> evaporator:inlet")
    assert "circuits[0].edges[3]" in str(caught.value)


def test_lines_sizing_cli(tmp_path, capsys) -> None:
    import json

    from lines_cases import EXAMPLE

    from workbench.cli.main import EXIT_BAD_INPUT, EXIT_OK, main

    code = main(["size-line", str(EXAMPLE), SUCTION, "--max-drop", "1.0", "--json"])
    assert code == EXIT_OK
    doc = json.loads(capsys.readouterr().out)
    assert doc["proposed"] == "5/8 in x 0.040 in"
    assert main(["size-line", str(EXAMPLE), "valve:outlet -> evaporator:inlet"]) == EXIT_BAD_INPUT
    assert "no edge with a line matches" in capsys.readouterr().err
    assert main(["size-line", str(EXAMPLE), SUCTION, "--series", "brass"]) == EXIT_BAD_INPUT
    assert "unknown tube series 'brass'" in capsys.readouterr().err
