"""Branches on the results and the diagrams: flow-ordered states per branch, one line each."""

from __future__ import annotations

import itertools
import json
import re

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from solver_cases import solved_examples

from workbench.plotting import cycle_loops, plot_ph, plot_ts

EXAMPLES = ["two_stage_flash_v2", "two_evaporators_v2"]


@pytest.fixture(scope="module")
def solved():
    return solved_examples(EXAMPLES)


def test_result_loops_are_branches_between_junctions(solved):
    _scenario, result = solved["two_stage_flash_v2"]
    loops = result.loops
    assert [loop.kind for loop in loops] == ["branch"] * 3
    assert [loop.name for loop in loops] == [
        "circuit 0 branch from flash:liquid_outlet",  # through the low-stage compressor first
        "circuit 0 branch from mixer:outlet",
        "circuit 0 branch from flash:vapour_outlet",
    ]
    low, high, vapour = loops
    assert (low.source, low.target) == (("flash", "liquid_outlet"), ("mixer", "inlet_1"))
    assert (high.source, high.target) == (("mixer", "outlet"), ("flash", "inlet"))
    assert (vapour.source, vapour.target) == (("flash", "vapour_outlet"), ("mixer", "inlet_2"))
    x = result.components["flash"]["vapour_fraction"]
    assert vapour.m_kg_s == pytest.approx(x * high.m_kg_s)
    assert low.m_kg_s + vapour.m_kg_s == pytest.approx(high.m_kg_s)
    # every edge is in exactly one branch, each branch in flow order
    rows = sorted(r for loop in loops for r in loop.edges)
    assert rows == list(range(len(result.edge_states)))
    for loop in loops:
        states = [result.edge_states[r] for r in loop.edges]
        for a, b in itertools.pairwise(states):
            assert a.dst == b.src
    # the junctions with the rows at their ports
    junctions = {j.name: j for j in result.junctions}
    assert set(junctions) == {"mixer", "flash"}
    mixer = junctions["mixer"]
    assert [result.edge_states[r].dst_port for r in mixer.inlets] == ["inlet_1", "inlet_2"]
    assert [result.edge_states[r].src_port for r in junctions["flash"].outlets] == [
        "vapour_outlet",
        "liquid_outlet",
    ]
    doc = json.loads(result.to_json())
    assert [b["name"] for b in doc["branches"]] == [loop.name for loop in loops]
    assert doc["branches"][2]["edges"] == ["flash:vapour_outlet -> mixer:inlet_2"]


@pytest.mark.parametrize("plot", [plot_ph, plot_ts])
def test_one_line_per_branch_from_the_flash_tank_to_the_mixer(solved, plot):
    scenario, result = solved["two_stage_flash_v2"]
    _fig, ax = plot(result, scenario=scenario)
    lines = {ln.get_gid(): ln for ln in ax.get_lines() if ln.get_gid()}
    branch_lines = sorted(g for g in lines if re.fullmatch(r"cycle-0-\d", g))
    assert branch_lines == ["cycle-0-1", "cycle-0-2", "cycle-0-3"]
    assert sorted(g for g in lines if g.startswith("states-0-")) == [
        "states-0-1",
        "states-0-2",
        "states-0-3",
    ]
    assert "cycle-0" not in lines  # a branching circuit is drawn branch by branch
    colours = {lines[g].get_color() for g in branch_lines}
    assert len(colours) == 1  # one colour per circuit
    if plot is plot_ph:
        # the single-state vapour branch: from the flash inlet, along the isobar, to the
        # saturated vapour, then into the mixed state
        h, p = lines["cycle-0-3"].get_data()
        rows = {st.label: st for st in result.edge_states}
        flash_in = rows["valve_hi:outlet -> flash:inlet"]
        vapour = rows["flash:vapour_outlet -> mixer:inlet_2"]
        mixed = rows["mixer:outlet -> comp_hi:inlet"]
        assert h[0] == pytest.approx(flash_in.h_j_kg / 1e3)
        assert h[-1] == pytest.approx(mixed.h_j_kg / 1e3)
        assert np.any(np.isclose(h, vapour.h_j_kg / 1e3))
        assert p == pytest.approx(3.2)  # all at the flash pressure [bar]
    texts = {t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("number-")}
    numbers = {int(n) for text in texts for n in text.split("/")}
    assert numbers == set(range(1, len(result.edge_states) + 1))


def test_cycle_loops_number_the_branches_in_order(solved):
    _scenario, result = solved["two_evaporators_v2"]
    loops = cycle_loops(result)
    assert [loop.gid for loop in loops] == ["cycle-0-1", "cycle-0-2", "cycle-0-3"]
    assert loops[0].name == "circuit 0 branch from mixer:outlet"  # through the compressor
    assert loops[0].numbers == [1, 2, 3]
    assert loops[1].numbers == [4, 5, 6, 7]
    assert loops[2].numbers == [8, 9, 10]
    assert loops[0].lead == ()
    assert loops[0].tail == ()  # a splitter adds no line
    (mixed,) = loops[1].tail  # into the mixed state
    assert mixed[1] == pytest.approx(result.edge_states[loops[0].rows[0]].h_j_kg)


def _rendered(fig):
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("plot", [plot_ph, plot_ts])
def test_branch_labels_are_inside_the_axes_and_never_overlap(solved, name, plot):
    scenario, result = solved[name]
    fig, ax = plot(result, scenario=scenario)
    renderer = _rendered(fig)
    frame = ax.get_window_extent(renderer)
    texts = [
        t for t in ax.texts if re.match(r"(number|isotherm-label|isobar-label)-", t.get_gid() or "")
    ]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    for text, box in boxes:
        assert frame.x0 - 1 <= box.x0, text
        assert box.x1 <= frame.x1 + 1, text
        assert frame.y0 - 1 <= box.y0, text
        assert box.y1 <= frame.y1 + 1, text
    for (ta, a), (tb, b) in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), f"{ta!r} overlaps {tb!r}"
