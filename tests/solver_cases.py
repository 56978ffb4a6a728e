"""Scenario builders shared by the solver tests (plain dicts, as users write them).

They live in the package (:mod:`workbench.scenario.reference_cases`) so that the benchmarks use
the same scenarios without importing from ``tests/``.
"""

from __future__ import annotations

from workbench.scenario.reference_cases import loop_edges, textbook_r134a, ua_heat_pump

__all__ = ["loop_edges", "textbook_r134a", "ua_heat_pump"]
