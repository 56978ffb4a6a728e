"""What makes the plate shooting cheaper changes none of its results (real CoolProp, R290).

The inlet memo of a :class:`PlateModel`, the fixed point's extrapolated start, a shooting that
takes a start within its tolerance, and the Jacobian's neighbour march: each is checked against
the plain computation it replaces.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import CoolProp.CoolProp as CP
import pytest

from workbench.components.exchangers.plate import march as march_module
from workbench.components.exchangers.plate import segment
from workbench.components.exchangers.plate.march import (
    NEIGHBOUR_SHARES,
    SHOOT_TOLERANCE,
    PlateModel,
    march,
    secondary_film,
    solve_plate,
)
from workbench.components.exchangers.plate.segment import FIXED_POINT_TOLERANCE
from workbench.components.exchangers.plate.spec import parse_plate_spec
from workbench.fluids import get_backend, get_secondary
from workbench.fluids.secondary_transport import secondary_transport
from workbench.fluids.transport import transport_for

GEOMETRY = {
    "kind": "brazed_plate", "plates": 34, "plate_length_m": 0.278, "plate_width_m": 0.112,
    "chevron_angle_deg": 60, "corrugation_pitch_m": 0.007, "channel_gap_m": 0.002,
    "plate_thickness_m": 0.0004, "port_diameter_m": 0.024,
}  # fmt: skip
T_W_IN, M_W = 303.15, 0.38


def _model() -> PlateModel:
    spec = parse_plate_spec(GEOMETRY, "condenser")
    fl = get_backend("R290", "CoolProp")
    return PlateModel(spec, fl, transport_for(fl), get_secondary("water"),
                      secondary_transport("water"), True)  # fmt: skip


def _inlet() -> tuple[float, float, float]:
    p = CP.PropsSI("P", "T", 313.15, "Q", 1, "R290")
    return p, CP.PropsSI("H", "T", 338.15, "P", p, "R290"), 0.021


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    count = [0]
    original = march_module.march

    def counted(*args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(march_module, "march", counted)
    return count


def test_plate_inlet_memo_leaves_the_march_unchanged() -> None:
    model = _model()
    p, h, m = _inlet()
    film = secondary_film(model, float(model.fluid.T_ph(p, h)), T_W_IN, M_W)
    first = march(model, p, h, m, T_W_IN, M_W, 306.0, film=film)
    assert model.inlet_memo  # the inlet's records are kept
    again = march(model, p, h, m, T_W_IN, M_W, 306.0, film=film)
    fresh = march(dataclasses.replace(model, inlet_memo={}), p, h, m, T_W_IN, M_W, 306.0, film=film)
    for res in (again, fresh):
        assert (res.q, res.p_out, res.h_out, res.t_sec_end) == (
            first.q, first.p_out, first.h_out, first.t_sec_end,
        )  # fmt: skip


def test_plate_pieces_are_fixed_points_whatever_their_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the fixed point starts from the last fluxes extrapolated and the last slope; converged
    # tighter (and so further from where it started) the march moves by rounding only
    model = _model()
    p, h, m = _inlet()
    film = secondary_film(model, float(model.fluid.T_ph(p, h)), T_W_IN, M_W)
    base = march(model, p, h, m, T_W_IN, M_W, 306.0, film=film)
    monkeypatch.setattr(segment, "FIXED_POINT_TOLERANCE", 1e-3 * FIXED_POINT_TOLERANCE)
    tight = march(model, p, h, m, T_W_IN, M_W, 306.0, film=film)
    assert sum(pc.zone == "two-phase" for pc in base.pieces) >= 10
    assert tight.q == pytest.approx(base.q, rel=1e-12)
    assert tight.t_sec_end == pytest.approx(base.t_sec_end, abs=1e-11)
    assert tight.p_out == pytest.approx(base.p_out, rel=1e-12)


def test_plate_shooting_from_its_root_takes_one_march(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _model()
    p, h, m = _inlet()
    root = solve_plate(model, p, h, m, T_W_IN, M_W)
    span = float(model.fluid.T_ph(p, h)) - T_W_IN
    assert abs(root.t_sec_end - T_W_IN) <= SHOOT_TOLERANCE * span
    count = _counting(monkeypatch)
    again = solve_plate(model, p, h, m, T_W_IN, M_W, start=root.t_sec_out, slope=root.slope)
    assert count[0] == 1
    # the root may be the secant's linear end (the march before it moved to first order): the
    # march at it gives the same heat flow to rounding
    assert again.q == pytest.approx(root.q, rel=1e-12)


def test_plate_shooting_neighbour_gives_the_jacobians_slope() -> None:
    model = _model()
    p, h, m = _inlet()
    root = solve_plate(model, p, h, m, T_W_IN, M_W, start=T_W_IN + 3.0)
    near = root.neighbour
    assert near is not None
    span = float(model.fluid.T_ph(p, h)) - T_W_IN
    dt = near.t_sec_out - root.t_sec_out
    assert NEIGHBOUR_SHARES[0] * span <= abs(dt) <= NEIGHBOUR_SHARES[1] * span
    # the slopes from the neighbour against a central difference at 1e-6 of the span
    film = secondary_film(model, float(model.fluid.T_ph(p, h)), T_W_IN, M_W)
    step = 1e-6 * span
    up = march(model, p, h, m, T_W_IN, M_W, root.t_sec_out + step, film=film)
    down = march(model, p, h, m, T_W_IN, M_W, root.t_sec_out - step, film=film)
    for attr in ("t_sec_end", "q", "p_out"):
        from_neighbour = (getattr(near, attr) - getattr(root, attr)) / dt
        central = (getattr(up, attr) - getattr(down, attr)) / (2.0 * step)
        assert math.isfinite(from_neighbour)
        assert from_neighbour == pytest.approx(central, rel=2e-3, abs=1e-6)
