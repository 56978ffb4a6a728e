"""What makes the plate shooting cheaper changes none of its results (real CoolProp, R290).

The inlet memo of a :class:`PlateModel`, the fixed point's extrapolated start, a shooting that
takes a start within its tolerance, and the Jacobian's neighbour march: each is checked against
the plain computation it replaces.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import CoolProp.CoolProp as CP
import pytest

from workbench.components.exchangers.plate import jacobian as jacobian_module
from workbench.components.exchangers.plate import march as march_module
from workbench.components.exchangers.plate import segment
from workbench.components.exchangers.plate.kernel import TwoPhaseKernel
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
from workbench.fluids.coolprop.backend import CoolPropBackend
from workbench.fluids.secondary_transport import secondary_transport
from workbench.fluids.transport import transport_for
from workbench.solver import solve

GEOMETRY = {
    "kind": "brazed_plate", "plates": 34, "plate_length_m": 0.278, "plate_width_m": 0.112,
    "chevron_angle_deg": 60, "corrugation_pitch_m": 0.007, "channel_gap_m": 0.002,
    "plate_thickness_m": 0.0004, "port_diameter_m": 0.024,
}  # fmt: skip
T_W_IN, M_W = 303.15, 0.38
EXAMPLE = (
    Path(__file__).resolve().parents[1] / "examples/scenarios/brine_water_heat_pump_plate_v2.json"
)


def _model(hot: bool = True, **extra: Any) -> PlateModel:
    spec = parse_plate_spec({**GEOMETRY, **extra}, "condenser" if hot else "evaporator")
    fl = get_backend("R290", "CoolProp")
    secondary = "water" if hot else "MPG30"
    return PlateModel(spec, fl, transport_for(fl), get_secondary(secondary),
                      secondary_transport(secondary), hot)  # fmt: skip


def _evaporator_model() -> PlateModel:
    return _model(False, plates=40)


def _evaporator_inlet() -> tuple[float, float, float]:
    # R290 at 266 K, quality 0.25 (after the valve), 0.017 kg/s: the last segments superheat
    p = CP.PropsSI("P", "T", 266.0, "Q", 1, "R290")
    return p, CP.PropsSI("H", "P", p, "Q", 0.25, "R290"), 0.017


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
    assert sum(pc.zone == "two-phase" for pc in base.pieces) >= 8  # 9 of 12 segments
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
        # the forward difference's error is half its distance times the second derivative:
        # this root lies 5-10 mK of T_so above where the outlet leaves the dome, where
        # dQ/dT_so bends from -884 to -1033 W/K over 5 mK (2.9e-3 measured on Q; 2e-3 held
        # with the midpoint pieces, whose root lay further from that bend)
        assert from_neighbour == pytest.approx(central, rel=5e-3, abs=1e-6)


# -- the second round (s9): hints, the linear end, the known side, the kernel's shared terms --


def _plain_march(*args: Any, **kwargs: Any) -> Any:
    """:func:`march` without a hint (every fixed point from the last pieces' fluxes)."""
    kwargs.pop("hint", None)
    return march(*args[:10], **kwargs)


def _evaluations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    count = [0]
    original = TwoPhaseKernel.film_friction

    def counted(self: TwoPhaseKernel, quality: float, heat_flux: float) -> tuple[float, float]:
        count[0] += 1
        return original(self, quality, heat_flux)

    monkeypatch.setattr(TwoPhaseKernel, "film_friction", counted)
    return count


@pytest.mark.parametrize(("hot", "dh", "dt"), [(True, 1e-3, 0.0), (True, 0.0, 0.05),
                                               (False, 50.0, 0.0), (False, 0.0, -0.05)])  # fmt: skip
def test_plate_hinted_march_is_the_plain_march(
    monkeypatch: pytest.MonkeyPatch, hot: bool, dh: float, dt: float
) -> None:
    # a march whose fixed points start from a nearby march's pieces converges to the same
    # pieces (each to FIXED_POINT_TOLERANCE), in fewer evaluations of the two-phase film
    model = _model() if hot else _evaporator_model()
    p, h, m = _inlet() if hot else _evaporator_inlet()
    t_in, m_sec, t_so = (T_W_IN, M_W, 306.0) if hot else (273.15, 0.55, 270.7)
    film = secondary_film(model, float(model.fluid.T_ph(p, h)), t_in, m_sec)
    near = march(model, p, h, m, t_in, m_sec, t_so, film=film)
    count = _evaluations(monkeypatch)
    plain = march(model, p, h + dh, m, t_in, m_sec, t_so + dt, film=film)
    n_plain = count[0]
    hinted = march(model, p, h + dh, m, t_in, m_sec, t_so + dt, film=film, hint=near)
    assert count[0] - n_plain < n_plain
    assert len(hinted.pieces) == len(plain.pieces)
    assert hinted.q == pytest.approx(plain.q, rel=1e-12)
    assert hinted.p_out == pytest.approx(plain.p_out, rel=1e-12)
    assert hinted.t_sec_end == pytest.approx(plain.t_sec_end, abs=1e-10)
    for a, b in zip(hinted.pieces, plain.pieces, strict=True):
        assert a.zone == b.zone
        assert a.area == pytest.approx(b.area, rel=1e-9)
        assert a.q == pytest.approx(b.q, rel=1e-11, abs=1e-9)


def test_plate_linear_end_is_the_strict_shooting(monkeypatch: pytest.MonkeyPatch) -> None:
    # the secant's linear end against a shooting that marches to 1e-13 of the span, without it
    model = _model()
    p, h, m = _inlet()
    span = float(model.fluid.T_ph(p, h)) - T_W_IN
    count = _counting(monkeypatch)
    fast = solve_plate(model, p, h, m, T_W_IN, M_W, start=T_W_IN + 3.0, slope=1.2)
    n_fast = count[0]
    monkeypatch.setattr(march_module, "LINEAR_END", 0.0)
    strict = solve_plate(model, p, h, m, T_W_IN, M_W, start=T_W_IN + 3.0, slope=1.2,
                         tolerance=1e-2 * SHOOT_TOLERANCE)  # fmt: skip
    assert n_fast < count[0] - n_fast
    assert fast.t_sec_out == pytest.approx(strict.t_sec_out, abs=SHOOT_TOLERANCE * span)
    assert fast.q == pytest.approx(strict.q, rel=1e-10)
    assert fast.p_out == pytest.approx(strict.p_out, rel=1e-12)
    assert h - fast.h_out == pytest.approx(h - strict.h_out, rel=1e-10)
    assert sum(pc.q for pc in fast.pieces) == pytest.approx(fast.q, rel=1e-12)
    assert fast.neighbour is not None
    # the march at the linear end's root closes to the shooting's tolerance
    film = secondary_film(model, span + T_W_IN, T_W_IN, M_W)
    at_root = march(model, p, h, m, T_W_IN, M_W, fast.t_sec_out, film=film)
    assert abs(at_root.t_sec_end - T_W_IN) <= SHOOT_TOLERANCE * span
    # and its heat flow to what that tolerance allows, |dQ/dT_so| tol span (twice: the
    # neighbour's slope is a forward difference; 2.4e-7 W measured, 3.1e-7 W the bound)
    assert fast.neighbour is not None
    dq_dt = (fast.neighbour.q - fast.q) / (fast.neighbour.t_sec_out - fast.t_sec_out)
    assert abs(at_root.q - fast.q) <= 2.0 * abs(dq_dt) * SHOOT_TOLERANCE * span


def test_plate_known_side_states_are_t_ph_states() -> None:
    # CoolPropBackend.T_rho_ph_outside along a falling pressure, against T_ph and rho_ph of a
    # fresh backend (which flash the saturation at each pressure) and against PropsSI
    fast, plain = get_backend("R290", "CoolProp"), CoolPropBackend("R290")
    p0 = CP.PropsSI("P", "T", 313.15, "Q", 1, "R290")
    h_v, h_l = (CP.PropsSI("H", "P", p0, "Q", q, "R290") for q in (1.0, 0.0))
    for i in range(8):
        p = p0 - 700.0 * i
        for h, liquid in ((h_v + 30e3 - 3e3 * i, False), (h_l - 20e3 + 2e3 * i, True)):
            t, rho = fast.T_rho_ph_outside(p, h, liquid)
            assert t == pytest.approx(float(plain.T_ph(p, h)), rel=1e-13)
            assert rho == pytest.approx(float(plain.rho_ph(p, h)), rel=1e-12)
            assert t == pytest.approx(CP.PropsSI("T", "P", p, "H", h, "R290"), rel=1e-9)


@pytest.mark.parametrize("hot", [True, False])
def test_plate_march_with_known_sides_is_the_t_ph_march(
    monkeypatch: pytest.MonkeyPatch, hot: bool
) -> None:
    # single-phase pieces clear of the dome read through T_rho_ph_outside; those starting on a
    # saturation line through T_ph: the march is T_ph's to rounding
    model = _model() if hot else _evaporator_model()
    p, h, m = _inlet() if hot else _evaporator_inlet()
    t_in, m_sec, t_so = (T_W_IN, M_W, 306.0) if hot else (273.15, 0.55, 270.7)
    fast = march(model, p, h, m, t_in, m_sec, t_so)
    monkeypatch.delattr(CoolPropBackend, "T_rho_ph_outside")
    plain = march(dataclasses.replace(model, inlet_memo={}), p, h, m, t_in, m_sec, t_so)
    assert sum(pc.zone != "two-phase" for pc in fast.pieces) >= 3
    assert fast.q == pytest.approx(plain.q, rel=1e-12)
    assert fast.p_out == pytest.approx(plain.p_out, rel=1e-12)
    assert fast.t_sec_end == pytest.approx(plain.t_sec_end, abs=1e-10)


@pytest.mark.parametrize(
    ("hot", "extra"),
    [(True, {}), (False, {}), (False, {"channel_gap_m": 0.0045, "corrugation_pitch_m": 0.012}),
     (True, {"condensation_correlation": "yan_lio_lin"})],
)  # fmt: skip
def test_plate_kernel_film_friction_is_film_and_friction(hot: bool, extra: dict[str, Any]) -> None:
    model = _model(hot, **extra)
    p = _inlet()[0] if hot else _evaporator_inlet()[0]
    sat = model.transport.saturation(p)
    kernel = TwoPhaseKernel(model.spec, hot, 40.0, sat, (900.0, 300.0))
    for x in (0.0, 0.01, 0.04, 0.2, 0.5, 0.8, 0.97, 0.999, 1.0):
        for q in (0.5, 3e3, 2e4):
            assert kernel.film_friction(x, q) == (kernel.film(x, q), kernel.friction_rate(x))


def test_plate_example_solves_as_its_plain_computation(monkeypatch: pytest.MonkeyPatch) -> None:
    # the example unit with every fast path of the march against the same unit without them
    # (no hints, no linear end, T_ph for every single-phase state): capacity, COP and charge
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    fast = solve(doc)
    monkeypatch.setattr(march_module, "LINEAR_END", 0.0)
    monkeypatch.setattr(march_module, "march", _plain_march)
    monkeypatch.setattr(jacobian_module, "march", _plain_march)
    monkeypatch.delattr(CoolPropBackend, "T_rho_ph_outside")
    plain = solve(json.loads(EXAMPLE.read_text(encoding="utf-8")))
    assert fast.converged
    assert plain.converged
    for key in ("heating_capacity_w", "cooling_capacity_w", "cop_heating", "charge_kg"):
        assert fast.summary[key] == pytest.approx(plain.summary[key], rel=1e-9)
