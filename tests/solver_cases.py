"""Scenario builders shared by the solver tests (plain dicts, as users write them).

They live in the package (:mod:`workbench.scenario.reference_cases`) so that the benchmarks use
the same scenarios without importing from ``tests/``.
"""

from __future__ import annotations

from workbench.scenario import load_scenario
from workbench.scenario.reference_cases import loop_edges, textbook_r134a, ua_heat_pump
from workbench.solver import solve

__all__ = ["loop_edges", "solved_examples", "textbook_r134a", "ua_heat_pump"]


def solved_examples(names):
    """``{name: (scenario, result)}`` of example scenarios, each asserted converged."""
    out = {}
    for name in names:
        scenario = load_scenario(f"examples/scenarios/{name}.json")
        result = solve(scenario)
        assert result.converged, result.report()
        out[name] = (scenario, result)
    return out
