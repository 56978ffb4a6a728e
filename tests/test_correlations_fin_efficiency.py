"""Fin efficiency: Schmidt against ht's exact circular fin, limits, wet against dry."""

import math

import pytest
from ht import fin_efficiency_Kern_Kraus

from workbench.correlations import fin_efficiency as fe


@pytest.mark.parametrize("h", [20.0, 50.0, 100.0, 200.0])
@pytest.mark.parametrize(("r", "re"), [(0.0049, 0.012), (0.0037, 0.0105), (0.0066, 0.016)])
def test_fin_efficiency_schmidt_matches_kern_kraus_for_circular_fins(
    h: float, r: float, re: float
) -> None:
    # a circular fin: Schmidt's phi against the Bessel-function solution in ht
    m = fe.fin_parameter(h, 237.0, 0.00012)
    exact = fin_efficiency_Kern_Kraus(Do=2 * r, D_fin=2 * re, t_fin=0.00012, k_fin=237.0, h=h)
    got = fe.schmidt_efficiency(m, r, re)
    # measured 2026-11-27: Schmidt 0.3 % (h 20) to 1.6 % (h 200) below the exact fin
    assert got == pytest.approx(exact, rel=0.02)
    assert got <= exact
    assert 0.0 < got <= 1.0


def test_fin_efficiency_equivalent_radius_by_hand() -> None:
    # staggered, Pt 25.4, Pl 22: X_M = 12.7, X_L = sqrt(12.7^2 + 22^2)/2 = 12.7010 mm
    # R_e = 1.27 * 12.7 * sqrt(12.7010/12.7 - 0.3) = 1.27 * 12.7 * 0.83672 = 13.495 mm
    x_l = math.hypot(12.7, 22.0) / 2
    expected = 1.27 * 12.7 * math.sqrt(x_l / 12.7 - 0.3) * 1e-3
    assert fe.schmidt_equivalent_radius(0.0254, 0.022) == pytest.approx(expected)
    assert expected == pytest.approx(13.495e-3, rel=1e-3)
    # inline, Pt 25.4, Pl 22: X_M = 11, X_L = 12.7; R_e = 1.28 * 11 * sqrt(12.7/11 - 0.2)
    inline = fe.schmidt_equivalent_radius(0.0254, 0.022, staggered=False)
    assert inline == pytest.approx(1.28 * 11 * math.sqrt(12.7 / 11 - 0.2) * 1e-3)


def test_fin_efficiency_limits_and_monotony() -> None:
    assert fe.schmidt_efficiency(0.0, 0.005, 0.013) == 1.0
    assert fe.straight_fin_efficiency(0.0, 0.004) == 1.0
    effs = [
        fe.schmidt_efficiency(fe.fin_parameter(h, 237.0, 1e-4), 0.005, 0.013) for h in (10, 50, 200)
    ]
    assert effs[0] > effs[1] > effs[2]
    # straight fin by hand: m L = 1 -> tanh(1) = 0.76159
    assert fe.straight_fin_efficiency(250.0, 0.004) == pytest.approx(math.tanh(1.0))
    assert fe.surface_efficiency(0.8, 0.9) == pytest.approx(1 - 0.9 * 0.2)


def test_fin_efficiency_wet_below_dry_and_equal_when_slope_is_cp() -> None:
    h, k, t = 60.0, 237.0, 1.1e-4
    dry = fe.fin_parameter(h, k, t)
    assert fe.wet_fin_parameter(h, k, t, 1006.0, 1006.0) == pytest.approx(dry)
    # at a 10 C fin b_w is about 2800 J/(kg K): m grows by sqrt(2800/1006)
    wet = fe.wet_fin_parameter(h, k, t, 2800.0, 1006.0)
    assert wet == pytest.approx(dry * math.sqrt(2800.0 / 1006.0))
    assert fe.schmidt_efficiency(wet, 0.005, 0.013) < fe.schmidt_efficiency(dry, 0.005, 0.013)
