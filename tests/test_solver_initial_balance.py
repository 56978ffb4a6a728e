"""The start of a branching circuit refined by its coils' energy balance (initial_balance)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from CoolProp.CoolProp import PropsSI

from workbench.solver import prepare, solve
from workbench.solver.start.balance import refine_branched
from workbench.solver.start.initial import initial_guess

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "scenarios"


def _doc(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def _t_sat(result, edge: str) -> tuple[float, float]:
    """Saturation temperature [K] at an edge's pressure: in the start and at the solution."""
    i = result.var_names.index(f"p[{edge}]")
    fluid = result.fluid
    return (
        PropsSI("T", "P", float(result.guess[i]), "Q", 1, fluid),
        PropsSI("T", "P", float(result.x[i]), "Q", 1, fluid),
    )


def test_two_evaporators_start_within_a_kelvin_or_so_of_their_solution():
    # the default start puts the condenser at its water inlet + 10 K (about 4 K too warm);
    # the energy balance of each coil brings every zone within 1.5 K of the solution
    result = solve(_doc("two_evaporators_v2"))
    assert result.converged
    for edge in (
        "compressor:outlet -> condenser:inlet",
        "valve_cabinet:outlet -> evap_cabinet:inlet",
        "mixer:outlet -> compressor:inlet",
    ):
        start, solved = _t_sat(result, edge)
        assert abs(start - solved) < 1.5, (edge, start, solved)


def test_the_refinement_leaves_no_hints_behind_and_is_repeatable():
    system = prepare(_doc("two_evaporators_v2"))
    before = dict(system.saturation_hints)
    first = initial_guess(system)
    assert system.saturation_hints == before
    np.testing.assert_array_equal(initial_guess(system), first)


def test_a_circuit_without_ua_coils_keeps_its_start():
    system = prepare(_doc("two_stage_flash_v2"))
    x = initial_guess(system)
    again = x.copy()
    for circuit in range(len(system.flat.circuits)):
        refine_branched(system, again, circuit)
    np.testing.assert_array_equal(again, x)
