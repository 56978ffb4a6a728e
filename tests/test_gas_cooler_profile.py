"""The lean isobaric profile of the gas cooler model against the general one.

:mod:`workbench.components.exchangers.gas_cooler.profile` evaluates an isobaric table's required
conductance from arrays formed once per table and state; the general profile of
:mod:`workbench.components.exchangers.gas_cooler.model` (path fractions, a pressure drop) must give the
same conductance, smallest difference and slope on the same table, and the slope must be the
derivative of the conductance.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import workbench.components.exchangers.gas_cooler.model as model
from workbench.components.exchangers.gas_cooler.levels import TableCache
from workbench.components.exchangers.gas_cooler.profile import smallest_between_nodes
from workbench.fluids import get_backend

T_SEC = 288.15


@pytest.fixture(scope="module")
def co2():
    return get_backend("R744", "CoolProp")


@pytest.mark.parametrize("p", [8.0e6, 9.0e6, 11.0e6])
@pytest.mark.parametrize(("m", "c_sec"), [(0.01685, 83.6), (0.05, 80.0), (0.02, 300.0)])
def test_the_lean_profile_is_the_general_one(co2, p, m, c_sec):
    h_in = 500e3
    table = model.table_of(co2, p, 0.0, h_in, m, T_SEC, c_sec, 40, TableCache())
    assert table is not None
    assert table.isobaric
    lean = model._profile_function(table, h_in, m, T_SEC, c_sec)
    table.isobaric = False  # the same table through the path-fraction profile
    general = model._profile_function(table, h_in, m, T_SEC, c_sec)
    table.isobaric = True
    q_max = min((co2.T_ph(p, h_in) - T_SEC) * c_sec, m * (h_in - table.h[0]))
    finite = 0
    for share in np.linspace(0.001, 0.9999, 120):
        ours, ref = lean(share * q_max), general(share * q_max)
        if math.isinf(ref[0]):
            assert math.isinf(ours[0])
            continue
        finite += 1
        # rounding of differences of 300 K temperatures: 1e-13 K on the smallest one
        assert ours[0] == pytest.approx(ref[0], rel=1e-11)
        assert ours[1] == pytest.approx(ref[1], rel=1e-9, abs=1e-12)
        assert ours[2] == pytest.approx(ref[2], rel=1e-9)
    assert finite > 50


def test_the_lean_slope_is_the_derivative(co2):
    h_in, m, c_sec = 480e3, 0.02, 80.0
    table = model.table_of(co2, 9e6, 0.0, h_in, m, T_SEC, c_sec, 40, TableCache())
    lean = model._profile_function(table, h_in, m, T_SEC, c_sec)
    for q in (500.0, 1500.0, 2500.0, 3000.0):
        d = 1e-6 * q
        central = (lean(q + d)[0] - lean(q - d)[0]) / (2 * d)
        assert lean(q)[2] == pytest.approx(central, rel=1e-6), q


def test_smallest_between_nodes_finds_a_parabolas_vertex():
    # y = (x - 0.3)^2 + 0.1 at x = -1, 0, 1: vertex 0.1 at 0.3
    f = lambda x: (x - 0.3) ** 2 + 0.1  # noqa: E731
    assert smallest_between_nodes((-1.0, 0.0, 1.0), (f(-1.0), f(0.0), f(1.0))) == pytest.approx(0.1)
    # opening downwards: the middle value
    assert smallest_between_nodes((-1.0, 0.0, 1.0), (0.0, 0.5, 0.0)) == 0.5
