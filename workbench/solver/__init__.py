"""Steady-state solver: assembly, Newton / Picard, diagnostics and results."""

from workbench.solver.iteration import StopReason
from workbench.solver.results import SUMMARY_KEYS, SolveResult
from workbench.solver.solve import assemble, prepare, solve

__all__ = ["SUMMARY_KEYS", "SolveResult", "StopReason", "assemble", "prepare", "solve"]
