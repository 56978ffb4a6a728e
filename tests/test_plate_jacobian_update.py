"""The plate Jacobian's Broyden update near the solution (real CoolProp, R290, the plate example).

Near its solution Newton's inlet hardly moves, and the plate block's sensitivities are updated
from the last marched Jacobian instead of marched again (:mod:`~workbench.components.
exchangers.plate.jacobian`). Checked: the updated block against central differences through
the full shooting, the same solution and iteration count as with every Jacobian marched, and the
cases where no update is made.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from workbench.components.exchangers.plate import jacobian as jacobian_module
from workbench.solver import prepare, solve

EXAMPLE = (
    Path(__file__).resolve().parents[1] / "examples/scenarios/brine_water_heat_pump_plate_v2.json"
)


def _doc() -> dict[str, Any]:
    return dict(json.loads(EXAMPLE.read_text(encoding="utf-8")))


def _central(comp: Any, x: np.ndarray, rel: float) -> dict[tuple[int, int], float]:
    """Central differences of the residuals through the full shooting (memo cleared)."""
    out: dict[tuple[int, int], float] = {}
    for col in comp.local_vars:
        d = rel * max(abs(x[col]), 1.0)
        values = []
        for sign in (1.0, -1.0):
            xs = x.copy()
            xs[col] += sign * d
            values.append(comp.residuals(xs))
        deriv = (values[0] - values[1]) / (2.0 * d)
        out.update({(int(r), col): float(deriv[r]) for r in range(len(deriv))})
    return out


@pytest.mark.parametrize("name", ["condenser", "evaporator"])
def test_plate_updated_jacobian_matches_central_differences(name: str) -> None:
    doc = _doc()
    system = prepare(doc)
    x = solve(doc, system=system).x.copy()
    comp: Any = system.components[name]
    pin = comp.ports["inlet"]

    def step(i: int, xi: float) -> float:
        return 1e-7 * max(abs(xi), 1.0)

    # a marched Jacobian 3e-5 of the inlet away (Newton's step before its last is about 1e-5)
    x_a = x.copy()
    for col, share in zip((pin.m, pin.p, pin.h), (3e-5, -2e-5, 1e-5), strict=True):
        x_a[col] *= 1.0 + share
    comp.jacobian_kept = None
    comp.jacobian(x_a, comp.residuals(x_a), step)
    assert comp.jacobian_kept is not None  # marched, kept
    f0 = comp.residuals(x)
    updated = {(r, c): v for r, c, v in comp.jacobian(x, f0, step)}
    assert comp.jacobian_kept is None  # the update was taken (and is not kept to update again)
    comp.jacobian_kept = None
    marched = {(r, c): v for r, c, v in comp.jacobian(x, f0, step)}
    assert comp.jacobian_kept is not None
    central = _central(comp, x, 1e-6)
    worst_updated = worst_marched = 0.0
    for key, value in central.items():
        if abs(value) < 1e-9:
            continue
        worst_marched = max(worst_marched, abs(marched.get(key, 0.0) / value - 1.0))
        worst_updated = max(worst_updated, abs(updated.get(key, 0.0) / value - 1.0))
    # the marched block is the central difference's to the forward step's truncation (measured
    # at most 5e-5); the updated one carries what the Jacobian changed across the 3e-5 move
    # outside Broyden's direction (measured at most 4e-3 on the condenser, 6e-3 on the
    # evaporator: the march's slopes bend sharply near the example's root)
    assert worst_marched < 1e-4
    assert worst_updated < 1e-2


def test_plate_example_solves_as_with_every_jacobian_marched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    updates = [0]
    original = jacobian_module._updated

    def counted(*args: Any) -> Any:
        out = original(*args)
        updates[0] += out is not None
        return out

    monkeypatch.setattr(jacobian_module, "_updated", counted)
    docs = {"plate": _doc()}
    with_lines = _doc()
    lines = {("compressor:outlet", "condenser:inlet"), ("evaporator:outlet", "compressor:inlet")}
    for edge in with_lines["circuits"][0]["edges"]:
        if (edge["from"], edge["to"]) in lines:
            edge["line"] = {"length_m": 1.0, "inner_diameter_m": 0.010922,
                            "outer_diameter_m": 0.0127, "elevation_m": 0.3}  # fmt: skip
    docs["lines"] = with_lines
    for label, doc in docs.items():
        updates[0] = 0
        fast = solve(doc)
        assert updates[0] == 2, label  # Newton's last Jacobian, both exchangers
        monkeypatch.setattr(jacobian_module, "REUSE_SHARE", 0.0)
        updates[0] = 0
        plain = solve(doc)
        assert updates[0] == 0
        monkeypatch.setattr(jacobian_module, "REUSE_SHARE", 1e-4)
        assert fast.converged
        assert plain.converged
        assert fast.iterations <= plain.iterations, label
        for name in ("condenser", "evaporator"):
            for key in ("capacity", "ua", "saturationTemperature"):
                a, b = fast.components[name][key], plain.components[name][key]
                assert a == pytest.approx(b, rel=1e-9), (label, name, key)
        assert fast.charge["total_kg"] == pytest.approx(plain.charge["total_kg"], rel=1e-9)
        for key, value in plain.summary.items():
            if isinstance(value, float):
                # a balance is the solve's own miss, about 1e-9 W either way
                tiny = 1e-6 if "balance" in key else 1e-12
                assert fast.summary[key] == pytest.approx(value, rel=1e-9, abs=tiny), key


def test_plate_jacobian_update_only_near_and_at_the_same_setting() -> None:
    theta0 = (0.03, 1.6e6, 6.2e5)
    sens = [(1.0e5, -1.2e7, 50.0), (-1.0, 0.7, 2e-6), (2e-3, -0.7, 1e-5)]
    base = type("March", (), {"q": 2000.0, "p_out": 1.59e6, "t_sec_out": 308.0})()
    kept = (theta0, (1.0, 1.0, 303.15, 0.38), 2000.0, 1.59e6, 308.0, 1.3, sens)
    near = (0.03 * (1 + 5e-5), 1.6e6, 6.2e5)
    updated = jacobian_module._updated(kept, near, (1.0, 1.0, 303.15, 0.38), base)
    assert updated is not None
    # Broyden's update: the new block maps the step onto the marches' change
    dq = sum(u[0] * (a - b) for u, a, b in zip(updated, near, theta0, strict=True))
    assert dq == pytest.approx(base.q - 2000.0, abs=1e-9)
    # the step was along m only: the p and h columns keep their values
    assert updated[1] == pytest.approx(sens[1], rel=1e-12)
    assert updated[2] == pytest.approx(sens[2], rel=1e-12)
    far = (0.03 * (1 + 2e-4), 1.6e6, 6.2e5)
    assert jacobian_module._updated(kept, far, (1.0, 1.0, 303.15, 0.38), base) is None
    other = (1.01, 1.0, 303.15, 0.38)  # z_ua moved: march again
    assert jacobian_module._updated(kept, near, other, base) is None
