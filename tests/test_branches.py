"""Branching circuits: flash tanks, mixers and splitters against hand calculations and balances."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest
from CoolProp.CoolProp import PropsSI

from workbench.errors import SpecificationError
from workbench.scenario import load_scenario
from workbench.scenario.reference_cases import textbook_r134a, two_stage_flash_r134a
from workbench.solver import prepare, solve
from workbench.solver.newton import newton
from workbench.solver.results import SolveResult

P_COND, P_FLASH, P_EVAP = 0.8e6, 0.32e6, 0.14e6
EXAMPLES = "examples/scenarios"


def flash_hand_calculation(m_hi: float = 0.25) -> dict[str, float]:
    """The textbook two-stage flash cycle state by state with PropsSI (isentropic, saturated)."""
    f = "R134a"
    h1 = PropsSI("H", "P", P_EVAP, "Q", 1, f)
    h2 = PropsSI("H", "P", P_FLASH, "S", PropsSI("S", "P", P_EVAP, "Q", 1, f), f)
    h5 = PropsSI("H", "P", P_COND, "Q", 0, f)  # condenser outlet = flash inlet (isenthalpic)
    h7 = PropsSI("H", "P", P_FLASH, "Q", 0, f)  # flash liquid = evaporator inlet
    h9 = PropsSI("H", "P", P_FLASH, "Q", 1, f)  # flash vapour
    x = (h5 - h7) / (h9 - h7)
    h3 = x * h9 + (1.0 - x) * h2
    h4 = PropsSI("H", "P", P_COND, "S", PropsSI("S", "P", P_FLASH, "H", h3, f), f)
    q_evap = (1.0 - x) * (h1 - h7)
    w = (1.0 - x) * (h2 - h1) + (h4 - h3)
    return {
        "x": x,
        "cop": q_evap / w,
        "q_evap_w": m_hi * q_evap,
        "w_w": m_hi * w,
        "q_cond_w": m_hi * (h4 - h5),
        "h3": h3,
    }


def assert_balances(result: SolveResult, rel: float = 1e-7) -> None:
    """Mass and energy of every junction and of the whole result close."""
    assert result.converged, result.report()
    s = result.summary
    scale = max(s["heating_capacity_w"] or 0.0, s["compressor_power_w"] or 0.0, 1.0)
    # every component reports its mass flow
    for name, out in result.components.items():
        assert out.get("massFlowRate") is not None, name
        assert out["massFlowRate"] > 0, name
    # junctions: mass and energy in = out, recomputed from the edge states
    states = result.edge_states
    for junction in result.junctions:
        m_in = sum(states[r].m_kg_s for r in junction.inlets)
        m_out = sum(states[r].m_kg_s for r in junction.outlets)
        e_in = sum(states[r].m_kg_s * states[r].h_j_kg for r in junction.inlets)
        e_out = sum(states[r].m_kg_s * states[r].h_j_kg for r in junction.outlets)
        out = result.components[junction.name]
        work = out["power"] if junction.type == "InjectionCompressor" else 0.0
        assert m_in == pytest.approx(m_out, rel=1e-9, abs=1e-12), junction.name
        assert abs(e_in + work - e_out) < rel * scale, junction.name
        assert abs(out["mass_balance_kg_s"]) < 1e-9
        assert abs(out["energy_balance_w"]) < rel * scale
    # every component other than coils and compressors is adiabatic; the totals close
    q_in = sum(out["capacity"] for out in result.components.values() if out["type"] == "Evaporator")
    q_out = sum(out["capacity"] for out in result.components.values() if out["type"] == "Condenser")
    w = sum(
        out["power"]
        for out in result.components.values()
        if out["type"] in ("Compressor", "InjectionCompressor")
    )
    assert s["cooling_capacity_w"] == pytest.approx(q_in, rel=1e-12)
    assert s["heating_capacity_w"] == pytest.approx(q_out, rel=1e-12)
    assert s["compressor_power_w"] == pytest.approx(w, rel=1e-12)
    assert q_in + w == pytest.approx(q_out, rel=rel)
    assert abs(s["energy_balance_w"]) < rel * scale
    assert s["cop_cooling"] == pytest.approx(q_in / w, rel=1e-12)


# -- the textbook two-stage cycle --------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["newton", "picard", "fallback"])
def test_flash_chamber_cycle_matches_the_coolprop_hand_calculation(strategy):
    result = solve(two_stage_flash_r134a(strategy=strategy))
    hand = flash_hand_calculation()
    assert hand["x"] == pytest.approx(0.2049, abs=1e-4)  # the textbook's numbers
    assert hand["cop"] == pytest.approx(4.4753, abs=1e-4)
    flash = result.components["flash"]
    assert flash["vapour_fraction"] == pytest.approx(hand["x"], rel=2e-3)
    assert flash["inlet_quality"] == pytest.approx(hand["x"], rel=2e-3)
    assert result.summary["cop_cooling"] == pytest.approx(hand["cop"], rel=2e-3)
    assert result.summary["cooling_capacity_w"] == pytest.approx(hand["q_evap_w"], rel=2e-3)
    assert result.summary["compressor_power_w"] == pytest.approx(hand["w_w"], rel=2e-3)
    assert result.summary["heating_capacity_w"] == pytest.approx(hand["q_cond_w"], rel=2e-3)
    # much tighter in fact: the solver meets the hand calculation to round-off
    assert result.summary["cop_cooling"] == pytest.approx(hand["cop"], rel=1e-8)
    edges = result.edges.set_index("edge")
    assert edges.loc["mixer:outlet -> comp_hi:inlet", "h_kj_kg"] * 1e3 == pytest.approx(
        hand["h3"], rel=1e-8
    )
    assert_balances(result)


def test_flash_cycle_from_a_distant_start_converges_to_the_same_cycle():
    reference = solve(two_stage_flash_r134a())
    start = reference.x.copy()
    rng = np.random.default_rng(7)
    kinds = [n[0] for n in reference.var_names]
    for i, kind in enumerate(kinds):
        start[i] *= 1.0 + {"m": 0.4, "p": 0.15, "h": 0.03}[kind] * rng.uniform(-1, 1)
    system = prepare(two_stage_flash_r134a())
    run = newton(system, start, tolerance=1e-8, max_iterations=50)
    assert run.converged, run.message
    assert run.iterations > 2  # Newton did the work, not the starting guess
    assert run.x == pytest.approx(reference.x, rel=1e-7)


def test_each_branch_has_its_own_mass_flow_unknown():
    result = solve(two_stage_flash_r134a())
    flows = [n for n in result.var_names if n.startswith("m[")]
    assert flows == [
        "m[circuit 0 branch from flash:liquid_outlet]",
        "m[circuit 0 branch from flash:vapour_outlet]",
        "m[circuit 0 branch from mixer:outlet]",
    ]
    # one mass balance is implied by the other: the first junction's (the mixer) is dropped
    assert "mixer.mass" not in result.eq_names
    assert "flash.mass" in result.eq_names
    assert abs(result.components["mixer"]["mass_balance_kg_s"]) < 1e-12  # and still holds
    by_branch = {loop.name: loop.m_kg_s for loop in result.loops}
    x = result.components["flash"]["vapour_fraction"]
    assert by_branch["circuit 0 branch from mixer:outlet"] == pytest.approx(0.25)
    assert by_branch["circuit 0 branch from flash:vapour_outlet"] == pytest.approx(0.25 * x)
    assert by_branch["circuit 0 branch from flash:liquid_outlet"] == pytest.approx(0.25 * (1 - x))


def test_single_loop_unknowns_are_unchanged():
    result = solve(textbook_r134a())
    assert [n for n in result.var_names if n.startswith("m[")] == [
        "m[circuit 0 loop through comp:inlet]"
    ]
    assert [loop.kind for loop in result.loops] == ["loop"]
    assert result.loops[0].name == "circuit 0 loop through comp:inlet"
    assert result.junctions == []


def test_flash_pressure_follows_from_two_compressor_flows():
    doc = two_stage_flash_r134a(flash_pressure_pa=None)
    comps = {c["name"]: c for c in doc["circuits"][0]["components"]}
    comps["comp_lo"].update({"displacement_m3": 4.0e-5, "isentropic_efficiency": 0.7})
    comps["comp_hi"].pop("mass_flow_kg_s")
    comps["comp_hi"].update({"displacement_m3": 2.0e-5, "isentropic_efficiency": 0.7})
    result = solve(doc)
    assert_balances(result)
    p_flash = result.components["flash"]["pressure"]
    assert P_EVAP < p_flash < P_COND
    # the flows close: each compressor's displacement flow at its own suction state
    edges = result.edges.set_index("edge")
    for name, suction in (("comp_lo", "evap:outlet"), ("comp_hi", "mixer:outlet")):
        row = edges.loc[f"{suction} -> {name}:inlet"]
        rho = PropsSI("D", "P", row["p_bar"] * 1e5, "H", row["h_kj_kg"] * 1e3, "R134a")
        displacement = comps[name]["displacement_m3"]
        assert result.components[name]["massFlowRate"] == pytest.approx(
            displacement * 50.0 * 0.9 * rho, rel=1e-6
        )
    # a larger low stage lifts the intermediate pressure
    comps["comp_lo"]["displacement_m3"] = 6.0e-5
    higher = solve(doc)
    assert higher.converged
    assert higher.components["flash"]["pressure"] > p_flash


def test_flash_cycle_on_the_test_backend_is_close_to_coolprop():
    test = solve(two_stage_flash_r134a(backend="Test"))
    assert_balances(test)
    assert test.summary["cop_cooling"] == pytest.approx(flash_hand_calculation()["cop"], rel=5e-3)


# -- the two evaporators -----------------------------------------------------------------------
def test_two_evaporators_example_balances_and_holds_both_specs():
    result = solve(load_scenario(f"{EXAMPLES}/two_evaporators_v2.json"))
    assert_balances(result)
    cellar, cabinet = result.components["evap_cellar"], result.components["evap_cabinet"]
    assert cellar["superheat"] == pytest.approx(5.0, abs=1e-6)
    assert cabinet["superheat"] == pytest.approx(5.0, abs=1e-6)
    assert cellar["saturationTemperature"] == pytest.approx(275.15, abs=1e-6)  # the EPR holds it
    assert cabinet["saturationTemperature"] < 275.15 - 3.0  # the suction is colder
    assert cellar["capacity"] != pytest.approx(cabinet["capacity"], rel=0.05)  # different loads
    split = result.components["splitter"]
    total = result.components["compressor"]["massFlowRate"]
    assert cellar["massFlowRate"] + cabinet["massFlowRate"] == pytest.approx(total, rel=1e-10)
    assert split["outlet_1_fraction"] == pytest.approx(cellar["massFlowRate"] / total)
    # the regulator drops the cellar's pressure to the suction's; the mixer's ports share it
    epr = result.components["epr"]
    assert epr["pressure_drop"] > 0.3e5
    assert result.components["mixer"]["pressure"] == pytest.approx(cabinet["pressure"])


def test_two_evaporators_at_one_pressure_without_the_regulator():
    doc = json.loads(Path(f"{EXAMPLES}/two_evaporators_v2.json").read_text())
    circuit = doc["circuits"][0]
    circuit["components"] = [c for c in circuit["components"] if c["name"] != "epr"]
    comps = {c["name"]: c for c in circuit["components"]}
    del comps["evap_cellar"]["t_evap_k"]
    edges = [e for e in circuit["edges"] if not e["to"].startswith("epr")]
    for e in edges:
        if e["from"] == "epr:outlet":
            e["from"] = "evap_cellar:outlet"
    circuit["edges"] = edges
    result = solve(doc)
    assert_balances(result)
    cellar, cabinet = result.components["evap_cellar"], result.components["evap_cabinet"]
    assert cellar["pressure"] == pytest.approx(cabinet["pressure"], rel=1e-9)
    assert cellar["superheat"] == pytest.approx(5.0, abs=1e-6)


def _three_way(fractions: list[float] | None) -> dict:
    """Ideal-mode condensing unit feeding three evaporators through a three-way splitter."""
    evaps = [  # evap_1 behind a regulator at 0 C; evap_2 fixes the suction evap_3 shares
        {"name": "evap_1", "type": "Evaporator", "t_evap_k": 273.15, "superheat_k": 2.0},
        {"name": "evap_2", "type": "Evaporator", "t_evap_k": 263.15, "superheat_k": 4.0},
        {"name": "evap_3", "type": "Evaporator", "superheat_k": 6.0},
    ]
    split: dict = {"name": "split", "type": "Splitter"}
    if fractions is not None:
        split["fractions"] = fractions
    comps = [
        {
            "name": "comp",
            "type": "Compressor",
            "mass_flow_kg_s": 0.06,
            "isentropic_efficiency": 0.7,
        },
        {"name": "cond", "type": "Condenser", "t_cond_k": 313.15, "subcooling_k": 2.0},
        split,
        {"name": "mix", "type": "Mixer"},
        *evaps,
        *({"name": f"valve_{k}", "type": "ExpansionValve"} for k in (1, 2, 3)),
        {"name": "epr", "type": "ExpansionValve"},
    ]
    edges = [
        {"from": "mix:outlet", "to": "comp:inlet"},
        {"from": "comp:outlet", "to": "cond:inlet"},
        {"from": "cond:outlet", "to": "split:inlet"},
    ]
    for k in (1, 2, 3):
        edges += [
            {"from": f"split:outlet_{k}", "to": f"valve_{k}:inlet"},
            {"from": f"valve_{k}:outlet", "to": f"evap_{k}:inlet"},
        ]
    edges += [
        {"from": "evap_1:outlet", "to": "epr:inlet"},
        {"from": "epr:outlet", "to": "mix:inlet_1"},
        {"from": "evap_2:outlet", "to": "mix:inlet_2"},
        {"from": "evap_3:outlet", "to": "mix:inlet_3"},
    ]
    return {
        "schema_version": "2",
        "fluid": "R134a",
        "circuits": [{"components": comps, "edges": edges}],
    }


def test_three_way_splitter_and_mixer_with_fractions():
    result = solve(_three_way([0.5, 0.3]))
    assert_balances(result)
    m = result.components["comp"]["massFlowRate"]
    shares = [result.components[f"evap_{k}"]["massFlowRate"] / m for k in (1, 2, 3)]
    assert shares == pytest.approx([0.5, 0.3, 0.2], rel=1e-9)
    assert result.components["mix"]["inlets"] == 3.0
    assert result.components["split"]["outlets"] == 3.0
    # the mixer outlet is the flow-weighted mean of its inlets (hand check)
    edges = result.edges.set_index("edge")
    h_in = [
        edges.loc[e, "h_kj_kg"]
        for e in (
            "epr:outlet -> mix:inlet_1",
            "evap_2:outlet -> mix:inlet_2",
            "evap_3:outlet -> mix:inlet_3",
        )
    ]
    assert edges.loc["mix:outlet -> comp:inlet", "h_kj_kg"] == pytest.approx(
        float(np.dot(shares, h_in)), rel=1e-9
    )
    # the warmer evaporator holds its own saturation temperature behind the regulator
    assert result.components["evap_1"]["saturationTemperature"] == pytest.approx(273.15)
    assert result.components["evap_2"]["saturationTemperature"] == pytest.approx(263.15)


def test_fraction_1_leaves_a_three_way_split_one_spec_short():
    doc = _three_way(None)
    comps = {c["name"]: c for c in doc["circuits"][0]["components"]}
    comps["split"]["fraction_1"] = 0.4
    with pytest.raises(SpecificationError) as info:
        solve(copy.deepcopy(doc))
    msg = str(info.value)
    assert "under-specified" in msg
    assert "(1 missing)" in msg
    assert "branch 'circuit 0 branch from split:outlet_2'" in msg
    assert "branch 'circuit 0 branch from split:outlet_3'" in msg
    assert "split:outlet_1'" not in msg  # fraction_1 sets that one
    comps["split"].pop("fraction_1")
    comps["split"]["fractions"] = [0.4, 0.35]
    result = solve(doc)
    assert_balances(result)
    assert result.components["split"]["outlet_3_fraction"] == pytest.approx(0.25)


def test_two_pressure_specs_in_one_zone_are_named():
    doc = _three_way([0.5, 0.3])
    comps = {c["name"]: c for c in doc["circuits"][0]["components"]}
    comps["evap_3"]["t_evap_k"] = 263.15
    with pytest.raises(SpecificationError) as info:
        solve(doc)
    msg = str(info.value)
    assert "over-specified" in msg
    assert "Evaporator 'evap_2' (t_evap_k) and Evaporator 'evap_3' (t_evap_k)" in msg


# -- a compressor with vapour injection --------------------------------------------------------
def _economiser(eta_s: float) -> dict:
    """The flash-chamber cycle with one injection compressor instead of two stages and a mixer."""
    doc = two_stage_flash_r134a()
    comps = {c["name"]: c for c in doc["circuits"][0]["components"]}
    circuit = doc["circuits"][0]
    circuit["components"] = [
        {
            "name": "comp",
            "type": "InjectionCompressor",
            "isentropic_efficiency": eta_s,
            "mass_flow_kg_s": 0.2,
        },
        *(comps[n] for n in ("cond", "valve_hi", "flash", "valve_lo", "evap")),
    ]
    circuit["edges"] = [
        {"from": "evap:outlet", "to": "comp:inlet"},
        {"from": "flash:vapour_outlet", "to": "comp:injection_inlet"},
        {"from": "comp:outlet", "to": "cond:inlet"},
        {"from": "cond:outlet", "to": "valve_hi:inlet"},
        {"from": "valve_hi:outlet", "to": "flash:inlet"},
        {"from": "flash:liquid_outlet", "to": "valve_lo:inlet"},
        {"from": "valve_lo:outlet", "to": "evap:inlet"},
    ]
    return doc


def test_isentropic_injection_compressor_is_the_two_stage_flash_cycle():
    result = solve(_economiser(1.0))
    hand = flash_hand_calculation()
    assert_balances(result)
    comp = result.components["comp"]
    assert result.components["flash"]["vapour_fraction"] == pytest.approx(hand["x"], rel=1e-9)
    assert result.summary["cop_cooling"] == pytest.approx(hand["cop"], rel=1e-9)
    assert comp["injection_pressure"] == pytest.approx(P_FLASH)
    assert comp["mixed_enthalpy"] == pytest.approx(hand["h3"], rel=1e-9)
    assert comp["injection_ratio"] == pytest.approx(hand["x"] / (1.0 - hand["x"]), rel=1e-9)
    assert comp["massFlowRate"] == pytest.approx(0.2 / (1.0 - hand["x"]), rel=1e-9)


def test_injection_compressor_with_losses_matches_a_two_stage_hand_calculation():
    eta = 0.75
    result = solve(_economiser(eta))
    assert_balances(result)
    f = "R134a"
    h1 = PropsSI("H", "P", P_EVAP, "Q", 1, f)
    h_mid = (
        h1 + (PropsSI("H", "P", P_FLASH, "S", PropsSI("S", "P", P_EVAP, "Q", 1, f), f) - h1) / eta
    )
    x = flash_hand_calculation()["x"]
    h9 = PropsSI("H", "P", P_FLASH, "Q", 1, f)
    h_mix = (1.0 - x) * h_mid + x * h9
    h2 = (
        h_mix
        + (PropsSI("H", "P", P_COND, "S", PropsSI("S", "P", P_FLASH, "H", h_mix, f), f) - h_mix)
        / eta
    )
    m_total = 0.2 / (1.0 - x)
    power = m_total * h2 - 0.2 * h1 - m_total * x * h9
    assert result.summary["compressor_power_w"] == pytest.approx(power, rel=1e-8)
    edges = result.edges.set_index("edge")
    assert edges.loc["comp:outlet -> cond:inlet", "h_kj_kg"] * 1e3 == pytest.approx(h2, rel=1e-9)
    # the losses of the two stages show up as the compressor's exergy destruction
    ex = result.exergy(ambient_k=298.15)
    assert ex.table.loc["comp", "destruction_w"] > 100.0
    assert abs(ex.balance_w) < 1e-6 * ex.fuel_w
