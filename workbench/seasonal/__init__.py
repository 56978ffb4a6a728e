"""Seasonal performance: the EN 14825 bin method, part load and the rating of a scenario."""

from __future__ import annotations

from workbench.seasonal.bins import scop_from_declared, seer_from_declared
from workbench.seasonal.declared import DeclaredPoint, Inconsistency, RatingInputError
from workbench.seasonal.figures import SeasonalCooling, SeasonalHeating, matched_convention
from workbench.seasonal.partload import PartLoadResult, part_load_sweep, solve_for_capacity
from workbench.seasonal.products import DEFAULT_FREE, fit_declared, predict_declared
from workbench.seasonal.rating import SeasonalRating, rate
from workbench.seasonal.us import USRating, hspf2_from_declared, seer2_from_declared

__all__ = [
    "DEFAULT_FREE",
    "DeclaredPoint",
    "Inconsistency",
    "PartLoadResult",
    "RatingInputError",
    "SeasonalCooling",
    "SeasonalHeating",
    "SeasonalRating",
    "USRating",
    "fit_declared",
    "hspf2_from_declared",
    "matched_convention",
    "part_load_sweep",
    "predict_declared",
    "rate",
    "scop_from_declared",
    "seer2_from_declared",
    "seer_from_declared",
    "solve_for_capacity",
]
