"""Steady-state solver: assembly, Newton / Picard, diagnostics and results."""

from workbench.solver.results import SUMMARY_KEYS, SolveResult
from workbench.solver.solve import prepare, solve

__all__ = ["SUMMARY_KEYS", "SolveResult", "prepare", "solve"]
