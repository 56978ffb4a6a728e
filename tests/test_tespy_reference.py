"""TESPy (0.11) on the same branching networks, and its exergy analysis (exerpy) on the same cycle.

TESPy models the flash chamber as a ``DropletSeparator`` (saturated liquid out1, saturated
vapour out2), the mixer as a ``Merge`` (every port at one pressure, as ours), and closes each
cycle with a ``CycleCloser``. TESPy 0.11 hands its exergy analysis to ``exerpy``
(``ExergyAnalysis.from_tespy``), which the workbench's ``result.exergy`` is checked against.
"""

from __future__ import annotations

import pytest
from CoolProp.CoolProp import PropsSI
from exerpy import ExergyAnalysis
from tespy.components import (
    Compressor,
    CycleCloser,
    DropletSeparator,
    HeatExchanger,
    Merge,
    PowerSource,
    SimpleHeatExchanger,
    Sink,
    Source,
    Splitter,
    Valve,
)
from tespy.connections import Connection, PowerConnection
from tespy.networks import Network

from workbench.scenario.reference_cases import two_stage_flash_r134a
from workbench.solver import solve

T0, P0 = 298.15, 101325.0
AIR_COND_IN, AIR_EVAP_IN, AIR_FLOW = 298.15, 263.15, 40.0
M_HIGH = 1.0


def _air_cp(t1: float, t2: float) -> float:
    """Mean cp of air at 1 atm between two temperatures [J/(kg K)] (CoolProp)."""
    return (PropsSI("H", "T", t2, "P", P0, "Air") - PropsSI("H", "T", t1, "P", P0, "Air")) / (
        t2 - t1
    )


@pytest.fixture(scope="module")
def tespy_flash() -> dict:
    """The textbook flash-chamber cycle in TESPy, with air through both coils."""
    nw = Network(iterinfo=False)
    cc = CycleCloser("cc")
    c_lo, c_hi = Compressor("comp_lo"), Compressor("comp_hi")
    cond, evap = HeatExchanger("condenser"), HeatExchanger("evaporator")
    v_hi, v_lo = Valve("valve_hi"), Valve("valve_lo")
    flash, mixer = DropletSeparator("flash"), Merge("mixer", num_in=2)
    c = {
        "3": Connection(mixer, "out1", cc, "in1", label="3"),
        "3b": Connection(cc, "out1", c_hi, "in1", label="3b"),
        "4": Connection(c_hi, "out1", cond, "in1", label="4"),
        "5": Connection(cond, "out1", v_hi, "in1", label="5"),
        "6": Connection(v_hi, "out1", flash, "in1", label="6"),
        "7": Connection(flash, "out1", v_lo, "in1", label="7"),
        "8": Connection(v_lo, "out1", evap, "in2", label="8"),
        "1": Connection(evap, "out2", c_lo, "in1", label="1"),
        "2": Connection(c_lo, "out1", mixer, "in1", label="2"),
        "9": Connection(flash, "out2", mixer, "in2", label="9"),
        "a1": Connection(Source("condenser air in"), "out1", cond, "in2", label="a1"),
        "a2": Connection(cond, "out2", Sink("condenser air out"), "in1", label="a2"),
        "b1": Connection(Source("cold room air in"), "out1", evap, "in1", label="b1"),
        "b2": Connection(evap, "out1", Sink("cold room air out"), "in1", label="b2"),
    }
    nw.add_conns(*c.values())
    nw.add_conns(
        PowerConnection(PowerSource("grid lo"), "power", c_lo, "power", label="e_lo"),
        PowerConnection(PowerSource("grid hi"), "power", c_hi, "power", label="e_hi"),
    )
    c_lo.set_attr(eta_s=1.0)
    c_hi.set_attr(eta_s=1.0)
    cond.set_attr(pr1=1.0, pr2=1.0)
    evap.set_attr(pr1=1.0, pr2=1.0)
    c["1"].set_attr(fluid={"R134a": 1}, p=0.14e6, x=1.0)
    c["3b"].set_attr(m=M_HIGH)
    c["5"].set_attr(p=0.8e6, x=0.0)
    c["6"].set_attr(p=0.32e6)
    c["a1"].set_attr(fluid={"air": 1}, T=AIR_COND_IN, p=P0, m=AIR_FLOW)
    c["b1"].set_attr(fluid={"air": 1}, T=AIR_EVAP_IN, p=P0, m=AIR_FLOW)
    nw.solve("design")
    assert nw.status == 0
    ean = ExergyAnalysis.from_tespy(nw, T0, P0)
    ean.analyse(
        E_F={"inputs": ["e_lo", "e_hi"]},
        E_P={"inputs": ["b2"], "outputs": ["b1"]},
        E_L={"inputs": ["a2"], "outputs": ["a1"]},
    )
    return {
        "x": c["9"].m.val_SI / c["3"].m.val_SI,
        "q_evap": -evap.Q.val_SI,
        "power": c_lo.P.val_SI + c_hi.P.val_SI,
        "t_cond_air_out": c["a2"].T.val_SI,
        "t_evap_air_out": c["b2"].T.val_SI,
        "h_mix": c["3"].h.val_SI,
        "ean": ean,
    }


@pytest.fixture(scope="module")
def workbench_flash(tespy_flash):
    """The same cycle solved by the workbench, its air cp matched to TESPy's air."""
    doc = two_stage_flash_r134a(mass_flow_kg_s=M_HIGH)
    comps = {c["name"]: c for c in doc["circuits"][0]["components"]}
    comps["cond"].update(
        secondary_inlet_temp_k=AIR_COND_IN,
        secondary_mass_flow_kg_s=AIR_FLOW,
        secondary_cp_j_kgk=_air_cp(AIR_COND_IN, tespy_flash["t_cond_air_out"]),
    )
    comps["evap"].update(
        secondary_inlet_temp_k=AIR_EVAP_IN,
        secondary_mass_flow_kg_s=AIR_FLOW,
        secondary_cp_j_kgk=_air_cp(tespy_flash["t_evap_air_out"], AIR_EVAP_IN),
    )
    result = solve(doc)
    assert result.converged, result.report()
    return result


def test_flash_cycle_agrees_with_tespy(tespy_flash, workbench_flash):
    result = workbench_flash
    assert result.components["flash"]["vapour_fraction"] == pytest.approx(
        tespy_flash["x"], rel=1e-8
    )
    assert tespy_flash["x"] == pytest.approx(0.2049, abs=1e-4)
    cop_tespy = tespy_flash["q_evap"] / tespy_flash["power"]
    assert cop_tespy == pytest.approx(4.4753, abs=1e-4)
    assert result.summary["cop_cooling"] == pytest.approx(cop_tespy, rel=1e-8)
    assert result.summary["compressor_power_w"] == pytest.approx(tespy_flash["power"], rel=1e-8)
    edges = result.edges.set_index("edge")
    h_mix = edges.loc["mixer:outlet -> comp_hi:inlet", "h_kj_kg"] * 1e3
    assert h_mix == pytest.approx(tespy_flash["h_mix"], rel=1e-8)
    cond, evap = result.components["cond"], result.components["evap"]
    assert cond["secondary_outlet_temperature"] == pytest.approx(
        tespy_flash["t_cond_air_out"], abs=1e-4
    )
    assert evap["secondary_outlet_temperature"] == pytest.approx(
        tespy_flash["t_evap_air_out"], abs=1e-4
    )


def test_exergy_destruction_per_component_agrees_with_tespy(tespy_flash, workbench_flash):
    ean = tespy_flash["ean"]
    ex = workbench_flash.exergy(ambient_k=T0, ambient_pa=P0)
    names = {"cond": "condenser", "evap": "evaporator"}
    fuel = ex.fuel_w
    for comp in ex.components:
        reference = ean.components[names.get(comp.name, comp.name)].E_D
        # each to 1e-4 of its own size (air with a mean cp against CoolProp's real air; the
        # measured differences are below 2e-5) and to 1e-7 of the fuel (the isentropic
        # compressors and the flash tank destroy ~0)
        assert comp.destruction_w == pytest.approx(reference, rel=1e-4, abs=1e-7 * fuel), comp.name
    assert ex.fuel_w == pytest.approx(ean.E_F, rel=1e-9)
    assert ex.product_w == pytest.approx(ean.E_P, rel=1e-5)
    assert ex.loss_w == pytest.approx(ean.E_L, rel=1e-4)
    assert ex.destruction_w == pytest.approx(ean.E_D, rel=1e-5)
    assert ex.efficiency == pytest.approx(ean.epsilon, rel=1e-5)


# -- two evaporators on one compressor -----------------------------------------------------------
T_COND, T_EVAP_WARM, T_EVAP_COLD = 313.15, 273.15, 263.15
M_TOTAL, SHARE = 0.05, 0.6


def _psat(t: float) -> float:
    return PropsSI("P", "T", t, "Q", 0, "R134a")


def test_two_evaporators_with_a_regulator_agree_with_tespy():
    # TESPy: Splitter and Merge, simple heat exchangers as ideal coils, the regulator a Valve
    nw = Network(iterinfo=False)
    cc = CycleCloser("cc")
    comp, cond = Compressor("comp"), SimpleHeatExchanger("cond")
    split, merge = Splitter("split", num_out=2), Merge("merge", num_in=2)
    v1, v2, epr = Valve("v1"), Valve("v2"), Valve("epr")
    e1, e2 = SimpleHeatExchanger("e1"), SimpleHeatExchanger("e2")
    c = {
        "suction": Connection(merge, "out1", cc, "in1"),
        "s2": Connection(cc, "out1", comp, "in1"),
        "discharge": Connection(comp, "out1", cond, "in1"),
        "liquid": Connection(cond, "out1", split, "in1"),
        "o1": Connection(split, "out1", v1, "in1"),
        "w_in": Connection(v1, "out1", e1, "in1"),
        "w_out": Connection(e1, "out1", epr, "in1"),
        "w_reg": Connection(epr, "out1", merge, "in1"),
        "o2": Connection(split, "out2", v2, "in1"),
        "c_in": Connection(v2, "out1", e2, "in1"),
        "c_out": Connection(e2, "out1", merge, "in2"),
    }
    nw.add_conns(*c.values())
    for hx in (cond, e1, e2):
        hx.set_attr(pr=1.0)
    comp.set_attr(eta_s=0.7)
    c["s2"].set_attr(m=M_TOTAL)
    c["discharge"].set_attr(p=_psat(T_COND))
    c["liquid"].set_attr(fluid={"R134a": 1}, T=T_COND - 2.0)
    c["o1"].set_attr(m=SHARE * M_TOTAL)
    c["w_out"].set_attr(p=_psat(T_EVAP_WARM), T=T_EVAP_WARM + 3.0)
    c["c_out"].set_attr(p=_psat(T_EVAP_COLD), T=T_EVAP_COLD + 5.0)
    nw.solve("design")
    assert nw.status == 0

    doc = {
        "schema_version": "2",
        "fluid": "R134a",
        "fluid_backend": "CoolProp",
        "circuits": [
            {
                "components": [
                    {
                        "name": "comp",
                        "type": "Compressor",
                        "mass_flow_kg_s": M_TOTAL,
                        "isentropic_efficiency": 0.7,
                    },
                    {"name": "cond", "type": "Condenser", "t_cond_k": T_COND, "subcooling_k": 2.0},
                    {"name": "split", "type": "Splitter", "fraction_1": SHARE},
                    {"name": "v1", "type": "ExpansionValve"},
                    {
                        "name": "e1",
                        "type": "Evaporator",
                        "t_evap_k": T_EVAP_WARM,
                        "superheat_k": 3.0,
                    },
                    {"name": "epr", "type": "ExpansionValve"},
                    {"name": "v2", "type": "ExpansionValve"},
                    {
                        "name": "e2",
                        "type": "Evaporator",
                        "t_evap_k": T_EVAP_COLD,
                        "superheat_k": 5.0,
                    },
                    {"name": "merge", "type": "Mixer"},
                ],
                "edges": [
                    {"from": "merge:outlet", "to": "comp:inlet"},
                    {"from": "comp:outlet", "to": "cond:inlet"},
                    {"from": "cond:outlet", "to": "split:inlet"},
                    {"from": "split:outlet_1", "to": "v1:inlet"},
                    {"from": "v1:outlet", "to": "e1:inlet"},
                    {"from": "e1:outlet", "to": "epr:inlet"},
                    {"from": "epr:outlet", "to": "merge:inlet_1"},
                    {"from": "split:outlet_2", "to": "v2:inlet"},
                    {"from": "v2:outlet", "to": "e2:inlet"},
                    {"from": "e2:outlet", "to": "merge:inlet_2"},
                ],
            }
        ],
    }
    result = solve(doc)
    assert result.converged, result.report()
    out = result.components
    assert out["comp"]["power"] == pytest.approx(comp.P.val_SI, rel=1e-8)
    assert out["e1"]["capacity"] == pytest.approx(e1.Q.val_SI, rel=1e-8)
    assert out["e2"]["capacity"] == pytest.approx(e2.Q.val_SI, rel=1e-8)
    assert out["cond"]["capacity"] == pytest.approx(-cond.Q.val_SI, rel=1e-8)
    edges = result.edges.set_index("edge")
    h_suction = edges.loc["merge:outlet -> comp:inlet", "h_kj_kg"] * 1e3
    assert h_suction == pytest.approx(c["suction"].h.val_SI, rel=1e-8)
    assert out["e2"]["massFlowRate"] == pytest.approx(c["o2"].m.val_SI, rel=1e-9)
