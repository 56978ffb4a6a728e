"""Calibration: component parameters fitted to catalogue tables and measured operating points.

An analysis above the solver (it calls :func:`workbench.solver.prepare` and
:func:`workbench.solver.solve` and uses the sweeps' paths and prepared systems; the solver
never imports it). Two jobs, each in its own module:

- :mod:`~workbench.calibrate.compressor_map`: :func:`fit_compressor_map`, the AHRI 540
  ten-coefficient maps of a compressor from a catalogue table (a pure calculation), with
  :mod:`~workbench.calibrate.catalogue` reading tables in the maker's units.
- :mod:`~workbench.calibrate.cycle`: :func:`calibrate`, free scenario parameters (UA values,
  efficiencies, calibration factors) fitted to measured operating points of the whole cycle by
  weighted least squares, with uncertainty and identifiability
  (:mod:`~workbench.calibrate.statistics`) in a :class:`CalibrationResult`
  (:mod:`~workbench.calibrate.result`); the inputs are checked first
  (:mod:`~workbench.calibrate.inputs`), measured columns name result quantities
  (:mod:`~workbench.calibrate.quantities`), points are solved on one prepared system with warm
  starts (:mod:`~workbench.calibrate.points`).

>>> from workbench.calibrate import calibrate, fit_compressor_map   # doctest: +SKIP
>>> fit = fit_compressor_map(table); fit.mass_flow_map_kg_s        # doctest: +SKIP
>>> cal = calibrate("plant.json", "rig.csv", free=["condenser.ua", "evaporator.ua"])  # doctest: +SKIP
"""

from __future__ import annotations

from workbench.calibrate.catalogue import read_compressor_table, standard_columns
from workbench.calibrate.compressor_map import (
    CompressorMapFit,
    EnvelopeWarning,
    ahri540_terms,
    fit_compressor_map,
)
from workbench.calibrate.cycle import CalibrationResult, calibrate
from workbench.calibrate.quantities import Quantity, read_quantity, resolve_quantity

__all__ = [
    "CalibrationResult",
    "CompressorMapFit",
    "EnvelopeWarning",
    "Quantity",
    "ahri540_terms",
    "calibrate",
    "fit_compressor_map",
    "read_compressor_table",
    "read_quantity",
    "resolve_quantity",
    "standard_columns",
]
