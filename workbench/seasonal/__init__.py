"""Seasonal performance: the EN 14825 bin method, part load and the rating of a scenario."""

from __future__ import annotations

from workbench.seasonal.bins import (
    RatingInputError,
    SeasonalCooling,
    SeasonalHeating,
    scop_from_declared,
    seer_from_declared,
)
from workbench.seasonal.partload import PartLoadResult, part_load_sweep, solve_for_capacity
from workbench.seasonal.rating import SeasonalRating, rate
from workbench.seasonal.us import USRating, hspf2_from_declared, seer2_from_declared

__all__ = [
    "PartLoadResult",
    "RatingInputError",
    "SeasonalCooling",
    "SeasonalHeating",
    "SeasonalRating",
    "USRating",
    "hspf2_from_declared",
    "part_load_sweep",
    "rate",
    "scop_from_declared",
    "seer2_from_declared",
    "seer_from_declared",
    "solve_for_capacity",
]
