"""The coil zone model's root in the heat flow: exact where a closed form exists, few evaluations."""

from __future__ import annotations

import math

import pytest
from CoolProp.CoolProp import PropsSI

from workbench.components.exchangers.zones import zone_profile
from workbench.components.exchangers.zones.heat_flow import Q_TOLERANCE, coil_heat_flow
from workbench.fluids import get_backend


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Record every trial heat flow the root evaluates."""
    seen: list[float] = []
    points = zone_profile.ZoneProfile.points

    def recording(self: zone_profile.ZoneProfile, q: float) -> tuple[list[float], list[float]]:
        seen.append(q)
        return points(self, q)

    monkeypatch.setattr(zone_profile.ZoneProfile, "points", recording)
    return seen


def _two_phase_evaporator(ua: float) -> tuple[float, float, float, float, float, float]:
    """R290 at 275 K, inlet quality 0.2, so much flow that the outlet stays two-phase."""
    t_sat, t_air, c_air = 275.0, 290.0, 400.0
    p = PropsSI("P", "T", t_sat, "Q", 1, "R290")
    h_in = PropsSI("H", "P", p, "Q", 0.2, "R290")
    return p, h_in, 1.0, t_air, c_air, ua


@pytest.mark.parametrize("ua", [50.0, 400.0, 1500.0])
def test_one_two_phase_zone_matches_the_closed_form_in_few_evaluations(monkeypatch, ua):
    # one zone at constant refrigerant temperature: Q = C (T_air - T_sat) (1 - exp(-UA / C)),
    # and the conductance the zone needs is linear in s = -ln(1 - Q / Q_max): Newton on it is
    # exact after one step from any start
    fluid = get_backend("R290", "CoolProp")
    p, h_in, m, t_air, c_air, _ = _two_phase_evaporator(ua)
    t_sat = PropsSI("T", "P", p, "Q", 1, "R290")
    seen = _counted(monkeypatch)
    found = coil_heat_flow(fluid, p, h_in, m, t_air, c_air, ua, False)
    expected = c_air * (t_air - t_sat) * (1.0 - math.exp(-ua / c_air))
    assert [z[0] for z in found.zones] == ["two-phase"]
    assert found.q == pytest.approx(expected, rel=1e-9)
    assert len(seen) <= 3


def test_a_conductance_far_beyond_the_pinch_stops_at_the_pinch_at_once(monkeypatch):
    # UA 60 C_air: the root is 1 - exp(-60) of the way to the pinch, i.e. at Q_max to
    # rounding; the solver must not creep towards it by halving (each halving gains ln 2 of the
    # 60 needed)
    fluid = get_backend("R290", "CoolProp")
    p, h_in, m, t_air, c_air, ua = _two_phase_evaporator(60 * 400.0)
    seen = _counted(monkeypatch)
    found = coil_heat_flow(fluid, p, h_in, m, t_air, c_air, ua, False, q_guess=1000.0)
    assert found.q_max - found.q <= Q_TOLERANCE * found.q_max
    assert found.q <= found.q_max
    assert len(seen) <= 4
