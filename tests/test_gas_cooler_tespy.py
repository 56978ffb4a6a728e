"""Transcritical R744 cycles against TESPy 0.11 (an independent network solver on CoolProp)."""

from __future__ import annotations

import warnings

import pytest
from CoolProp.CoolProp import PropsSI
from tespy.components import Compressor, CycleCloser, SimpleHeatExchanger, Valve
from tespy.connections import Connection
from tespy.networks import Network

from workbench.solver import solve


def tespy_cycle(p_gc_bar, t_out_c, t_evap_c, superheat_k, eta_s, m_kg_s):
    """Compressor, gas cooler, valve and evaporator as a TESPy network; (COP, Q_evap, P) [-, W, W]."""
    nw = Network(iterinfo=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        nw.units.set_defaults(temperature="degC", pressure="bar", enthalpy="kJ/kg")
    closer, comp = CycleCloser("closer"), Compressor("compressor")
    gc, valve, evap = SimpleHeatExchanger("gas cooler"), Valve("valve"), SimpleHeatExchanger("evap")
    c1 = Connection(closer, "out1", comp, "in1", label="1")
    c2 = Connection(comp, "out1", gc, "in1", label="2")
    c3 = Connection(gc, "out1", valve, "in1", label="3")
    c4 = Connection(valve, "out1", evap, "in1", label="4")
    c5 = Connection(evap, "out1", closer, "in1", label="5")
    nw.add_conns(c1, c2, c3, c4, c5)
    comp.set_attr(eta_s=eta_s)
    gc.set_attr(pr=1)
    evap.set_attr(pr=1)
    p_evap_bar = PropsSI("P", "T", t_evap_c + 273.15, "Q", 1, "CO2") / 1e5
    c1.set_attr(fluid={"CO2": 1}, m=m_kg_s, p=p_evap_bar, T=t_evap_c + superheat_k)
    c2.set_attr(p=p_gc_bar)
    c3.set_attr(T=t_out_c)
    nw.solve("design")
    assert nw.status == 0
    q_evap, power = evap.Q.val_SI, comp.P.val_SI
    return q_evap / power, q_evap, power


@pytest.mark.parametrize(
    "case",
    [(100.0, 35.0, -5.0, 5.0, 0.7, 0.1), (90.0, 32.0, 0.0, 10.0, 0.65, 0.05)],
    ids=["issue-case", "90bar"],
)
def test_fixed_mode_cycle_agrees_with_tespy(case):
    p_bar, t_out, t_e, sh, eta, m = case
    cop_ref, q_ref, w_ref = tespy_cycle(*case)
    doc = {
        "schema_version": "1",
        "fluid": "R744",
        "fluid_backend": "CoolProp",
        "circuits": [
            {
                "id": 0,
                "components": [
                    {
                        "name": "c",
                        "type": "Compressor",
                        "mass_flow_kg_s": m,
                        "isentropic_efficiency": eta,
                    },
                    {
                        "name": "gc",
                        "type": "GasCooler",
                        "pressure_pa": p_bar * 1e5,
                        "outlet_temp_k": t_out + 273.15,
                    },
                    {"name": "v", "type": "ExpansionValve"},
                    {
                        "name": "e",
                        "type": "Evaporator",
                        "t_evap_k": t_e + 273.15,
                        "superheat_k": sh,
                    },
                ],
                "edges": [
                    {"from": "c:outlet", "to": "gc:inlet"},
                    {"from": "gc:outlet", "to": "v:inlet"},
                    {"from": "v:outlet", "to": "e:inlet"},
                    {"from": "e:outlet", "to": "c:inlet"},
                ],
            }
        ],
    }
    result = solve(doc)
    assert result.converged, result.report()
    s = result.summary
    assert s["cop_cooling"] == pytest.approx(cop_ref, rel=2e-3)
    assert s["cooling_capacity_w"] == pytest.approx(abs(q_ref), rel=2e-3)
    assert s["compressor_power_w"] == pytest.approx(w_ref, rel=2e-3)
    if case[0] == 100.0:
        assert cop_ref == pytest.approx(2.0308, abs=5e-5)
