"""Thermal couplings: a two-circuit cascade solved as one system (issue 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.errors import SpecificationError
from workbench.solver import solve

CASCADE = Path(__file__).resolve().parent.parent / "examples" / "scenarios" / "cascade_v2.json"


def cascade(**coupling):
    doc = json.loads(CASCADE.read_text())
    doc["thermal_couplings"][0].update(coupling)
    return doc


def test_cascade_converges_and_closes_the_overall_energy_balance():
    result = solve(cascade())
    assert result.converged, result.report()
    c = result.components
    coupling = result.couplings[0]
    q_in = c["lt_evaporator"]["secondary_heat_flow"]
    q_out = c["ht_condenser"]["secondary_heat_flow"]
    power = c["lt_compressor"]["power"] + c["ht_compressor"]["power"]
    loss = coupling["loss_to_ambient_w"]
    assert q_in + power - q_out - loss == pytest.approx(0.0, abs=1e-6 * q_out)
    assert abs(result.summary["energy_balance_w"]) < 1e-6 * q_out
    # the coupled coils carry the coupling's heat flows
    assert coupling["heat_from_hot_w"] == pytest.approx(c["lt_condenser"]["capacity"], rel=1e-6)
    assert coupling["heat_to_cold_w"] == pytest.approx(c["ht_evaporator"]["capacity"], rel=1e-6)
    assert loss == pytest.approx(0.05 * coupling["heat_from_hot_w"], rel=1e-9)
    assert coupling["min_temperature_difference"] > 0.0


def test_cascade_summary_counts_only_external_heat():
    result = solve(cascade())
    c = result.components
    assert result.summary["cooling_capacity_w"] == pytest.approx(c["lt_evaporator"]["capacity"])
    assert result.summary["heating_capacity_w"] == pytest.approx(c["ht_condenser"]["capacity"])
    # the low stage condenses above where the high stage evaporates
    assert c["lt_condenser"]["saturationTemperature"] > c["ht_evaporator"]["saturationTemperature"]
    assert 1.0 < result.summary["cop_cooling"] < 3.5


def test_perfect_coupling_loses_nothing_and_more_ua_narrows_the_gap():
    base = solve(cascade(efficiency=1.0))
    big = solve(cascade(efficiency=1.0, ua=5000.0))
    assert base.converged
    assert big.converged
    assert base.couplings[0]["loss_to_ambient_w"] == pytest.approx(0.0, abs=1e-9)
    gap = lambda r: (  # noqa: E731
        r.components["lt_condenser"]["saturationTemperature"]
        - r.components["ht_evaporator"]["saturationTemperature"]
    )
    assert gap(big) < gap(base)


def test_coupling_without_a_free_coil_names_the_coupling():
    doc = cascade()
    lt_condenser = doc["circuits"][0]["components"][1]
    lt_condenser.update(air_inlet_temp_c=20.0)
    lt_condenser.update(ua=500.0, secondary_mass_flow_kg_s=0.5)
    with pytest.raises(
        SpecificationError, match=r"thermal_couplings\[0\]: circuit 0 needs exactly one Condenser"
    ):
        solve(doc)
