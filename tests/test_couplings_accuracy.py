"""The cascade exchanger's zone model follows its fine profile to 0.1 %, and warns from 1 %."""

from __future__ import annotations

import json

import pytest

from workbench.components.exchangers.zones import coupled_profile
from workbench.solver import prepare, solve
from workbench.solver.couplings import COUPLING_WARNING_RATIO, ThermalCoupling


def _cascade(ua: float) -> dict:
    with open("examples/scenarios/r744_r290_cascade_v2.json") as fh:
        doc: dict = json.load(fh)
    doc["thermal_couplings"][0]["ua"] = ua
    return doc


def _needed_share(doc: dict, x) -> float:
    """Conductance the fine profile needs for the solved heat flow, over ``ua`` [-]."""
    coupling = next(b for b in prepare(doc).blocks if isinstance(b, ThermalCoupling))
    check, why = coupling.profile_check(x)
    assert check is not None, why
    return float(check.ua_required / coupling.config.ua)


@pytest.mark.parametrize("ua", [300.0, 1200.0, 4000.0])
def test_a_cascade_exchanger_follows_its_fine_profile_to_0_1_percent(ua):
    # a small R744/R290 cascade exchanger: the R744 desuperheating zone is curved in enthalpy;
    # one straight segment between the saturation cuts took 3.1 % more conductance than given
    # at 300 W/K; the curved segments' sub-cuts bring it within 0.1 %
    doc = _cascade(ua)
    result = solve(doc)
    assert result.converged, result.report()
    assert _needed_share(doc, result.x) == pytest.approx(1.0, abs=1e-3)
    assert not [w for w in result.warnings if "cascade heat exchanger" in w]


def test_a_cascade_exchanger_off_its_fine_profile_by_1_percent_is_warned(monkeypatch):
    # with one straight piece per segment (the model before the sub-cuts) the small exchanger
    # is 3 % off, which the 1 % threshold reports (10 % said nothing)
    monkeypatch.setattr(coupled_profile, "SUB_CUTS", 1)
    doc = _cascade(300.0)
    result = solve(doc)
    assert result.converged, result.report()
    share = _needed_share(doc, result.x)
    assert share - 1.0 > COUPLING_WARNING_RATIO == 0.01
    (text,) = [w for w in result.warnings if "cascade heat exchanger" in w]
    assert "thermal_couplings[0]" in text
    assert f"{share:.3g} x the conductance 300 W/K" in text


@pytest.mark.parametrize("ua", [300.0, 1200.0])
def test_a_one_fluid_cascade_with_fewer_pieces_follows_its_fine_profile(ua):
    # R134a on both sides bends less than CO2: three pieces per single-phase segment (not
    # eight) keep the exchanger within 0.01 % of its fine profile
    with open("examples/scenarios/cascade_v2.json") as fh:
        doc: dict = json.load(fh)
    doc["thermal_couplings"][0]["ua"] = ua
    result = solve(doc)
    assert result.converged, result.report()
    assert _needed_share(doc, result.x) == pytest.approx(1.0, abs=1e-4)


def test_single_phase_pieces_follow_each_fluids_bend():
    from workbench.components.exchangers.zones.pieces import single_phase_pieces
    from workbench.fluids import get_backend

    pieces = {
        f: single_phase_pieces(get_backend(f, "CoolProp"), coupled_profile.SUB_CUTS)
        for f in ("R134a", "R717", "CO2")
    }
    assert 2 <= pieces["R134a"] < pieces["R717"] < pieces["CO2"] == coupled_profile.SUB_CUTS
    assert single_phase_pieces(get_backend("CO2", "CoolProp"), 1) == 1  # the cap rules
