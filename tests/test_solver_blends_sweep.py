"""Adversarial sweep of blend cases: gas coolers, the tables' top, huge numbers. No traceback.

Every case ends in one of three ways through the command line: solved (exit 0), not converged
with a reason (exit 1), or refused with a message naming the place (exit 2). Any other
exception (an ``AttributeError`` of a backend, a CoolProp ``ValueError``) fails the test.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from workbench.cli.main import main
from workbench.fluids import get_backend
from workbench.scenario.reference_cases import loop_edges

FLUIDS = ["R455A", "R454B", "R407C", "R449A", "R32/R1234yf 40/60"]


def _fixed_gc(fluid: str, p: float, t_out: float = 312.0) -> dict[str, Any]:
    return {
        "schema_version": "2",
        "fluid": fluid,
        "fluid_backend": "CoolProp",
        "circuits": [
            {
                "components": [
                    {
                        "name": "comp",
                        "type": "Compressor",
                        "mass_flow_kg_s": 0.03,
                        "isentropic_efficiency": 0.7,
                    },
                    {"name": "gc", "type": "GasCooler", "pressure_pa": p, "outlet_temp_k": t_out},
                    {"name": "valve", "type": "ExpansionValve"},
                    {"name": "evap", "type": "Evaporator", "t_evap_k": 273.15, "superheat_k": 5.0},
                ],
                "edges": loop_edges("comp", "gc", "valve", "evap"),
            }
        ],
    }


def _ua_gc(fluid: str, target: float) -> dict[str, Any]:
    with open("examples/scenarios/r744_heat_pump_v2.json") as fh:
        doc: dict[str, Any] = json.load(fh)
    doc["fluid"] = fluid
    doc["controls"][0]["target"] = target
    return doc


def _condenser(fluid: str, t_cond: float) -> dict[str, Any]:
    doc = _fixed_gc(fluid, 1.0)
    doc["circuits"][0]["components"][1] = {
        "name": "gc",
        "type": "Condenser",
        "t_cond_k": t_cond,
        "subcooling_k": 2.0,
    }
    return doc


def _cases() -> list[tuple[str, str, Any]]:
    cases: list[tuple[str, str, Any]] = []
    for fluid in FLUIDS:
        cases += [
            (fluid, "gc_band", 0.5),  # between the tables' top and the cricondenbar
            (fluid, "gc_above", 1.1),  # a transcritical cycle (x p_crit)
            (fluid, "gc_below", 0.6),  # a "gas cooler" condensing inside the tables
            (fluid, "gc_huge", 1e308),
            (fluid, "ua_gc", 1.4),  # the R744 heat pump's UA gas cooler with the blend
            (fluid, "cond_over_top", 0.5),  # t_cond between the tables' top and T_crit
        ]
    return cases


def _doc(fluid: str, kind: str, value: float) -> dict[str, Any]:
    fl = get_backend(fluid, "CoolProp")
    if kind == "gc_band":
        return _fixed_gc(fluid, fl.p_max + value * (fl.p_single - fl.p_max))
    if kind in ("gc_above", "gc_below"):
        return _fixed_gc(fluid, value * fl.p_crit)
    if kind == "gc_huge":
        return _fixed_gc(fluid, value)
    if kind == "ua_gc":
        return _ua_gc(fluid, value * fl.p_crit)
    t_top = float(fl.tables.sat[1, 0, -1])
    return _condenser(fluid, t_top + value * (fl.T_crit - t_top))


@pytest.mark.parametrize(("fluid", "kind", "value"), _cases())
def test_blend_sweep_ends_solved_or_with_a_reason(fluid, kind, value, tmp_path, capsys):
    path = tmp_path / "case.json"
    path.write_text(json.dumps(_doc(fluid, kind, value)))
    code = main(["solve", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    assert "Traceback" not in err + out
    if code == 2:
        assert err.strip()
    if kind in ("gc_band", "cond_over_top", "gc_huge"):
        assert code == 2  # refused at validate, naming the parameter
        assert ("pressure_pa" if kind != "cond_over_top" else "t_cond_k") in err
    if kind == "gc_above":
        assert code == 0, err
        summary = json.loads(out)["summary"]
        assert abs(summary["energy_balance_w"]) < 1e-6 * summary["heating_capacity_w"]
