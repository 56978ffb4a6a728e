"""The mixer's and splitter's analytic Jacobians against central differences of their residuals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from workbench.components.junctions.mixer import Mixer
from workbench.components.junctions.splitter import Splitter
from workbench.solver import solve
from workbench.solver.solve import prepare

SCENARIOS = Path(__file__).resolve().parents[1] / "examples" / "scenarios"
EXAMPLES = ["two_evaporators_v2.json", "two_stage_flash_v2.json"]


def _dense(entries, n_rows, n_cols):
    out = np.zeros((n_rows, n_cols))
    for r, c, v in entries:
        out[r, c] += v
    return out


def _central(block, x):
    f0 = block.residuals(x)
    out = np.zeros((len(f0), len(x)))
    for col in block.local_vars:
        xi = x[col]
        dx = 1e-6 * max(abs(xi), 1.0)
        x[col] = xi + dx
        hi = block.residuals(x)
        x[col] = xi - dx
        lo = block.residuals(x)
        x[col] = xi
        out[:, col] = (hi - lo) / (2.0 * dx)
    return out


@pytest.mark.parametrize("name", EXAMPLES)
def test_junction_jacobians_match_central_differences(name):
    doc = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))
    system = prepare(doc)
    solved = solve(doc, system=system)
    assert solved.converged
    blocks = [c for c in system.components.values() if isinstance(c, (Mixer, Splitter))]
    assert blocks, f"{name} has no mixer or splitter"
    rng = np.random.default_rng(7)
    for point in ("solution", "perturbed"):
        x = solved.x.copy()
        if point == "perturbed":
            x *= 1.0 + 0.05 * rng.standard_normal(len(x))
        for block in blocks:
            f0 = block.residuals(x)
            analytic = _dense(block.jacobian(x, f0, system.step), len(f0), len(x))
            central = _central(block, x)
            assert np.count_nonzero(central) > 0
            np.testing.assert_allclose(
                analytic, central, rtol=1e-7, atol=1e-9 * np.abs(central).max()
            )
