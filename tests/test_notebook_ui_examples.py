"""The flagship heat pump example is a plausible design: a few kelvin of approach in both coils.

The notebooks open ``heat_pump_v1.json`` (01 at 5 °C air, 05 at -7 °C and 7 °C): a design at its
pinch (hundredths of a kelvin) would teach that more UA is free. Checked against the builder's
own threshold (:data:`~workbench.notebook_ui.results_view.PINCH_WARNING_K`) and an independent
bound: the evaporating temperature lies a few kelvin below the air inlet.
"""

from __future__ import annotations

import json

import pytest

from workbench.notebook_ui.results_view import PINCH_WARNING_K, findings, pinches
from workbench.scenario import load_scenario
from workbench.solver import solve


def _heat_pump(air_c: float):
    with open("examples/scenarios/heat_pump_v1.json", encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["circuits"][0]["components"][3]["air_inlet_temp_c"] = air_c
    result = solve(load_scenario(doc))
    assert result.converged
    return result


@pytest.mark.parametrize("air_c", [7.0, 5.0])
def test_heat_pump_example_has_a_few_kelvin_of_approach(air_c):
    result = _heat_pump(air_c)
    pinch = dict(pinches(result))
    assert set(pinch) == {"condenser", "evaporator"}
    for name, dt in pinch.items():
        assert 2.0 <= dt <= 10.0, (name, dt)
    assert not [text for _level, text in findings(result) if "pinch" in text]
    evap = result.components["evaporator"]
    approach = air_c + 273.15 - evap["saturationTemperature"]  # air inlet - evaporating
    assert 5.0 + PINCH_WARNING_K < approach < 15.0  # the 5 K superheat plus a real pinch
    assert 3.5 < result.summary["cop_heating"] < 6.0


def test_heat_pump_example_in_cold_air_is_near_its_pinch_and_says_so():
    """05's cold run (-7 °C air): the evaporator closes in, the builder and the note flag it."""
    from workbench.notes.runs.describe import run_note, run_summary

    result = _heat_pump(-7.0)
    pinch = dict(pinches(result))
    assert 0.3 < pinch["evaporator"] < PINCH_WARNING_K  # near its limit, not at 1e-6 K
    assert pinch["condenser"] > 2.0
    assert any("evaporator" in text and "pinch" in text for _level, text in findings(result))
    with open("examples/scenarios/heat_pump_v1.json", encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["circuits"][0]["components"][3]["air_inlet_temp_c"] = -7.0
    content = run_note(doc, run_summary(result, doc)).content
    assert "Pinched below 1 K" in content
    warnings = next(line for line in content.splitlines() if line.startswith("Warnings:"))
    assert "Warnings: none" not in warnings  # the pinch is among the run's warnings
    assert "evaporator" in warnings
    assert f"evaporator {pinch['evaporator']:.3g} K" in content
