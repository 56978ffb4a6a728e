"""Diagrams of a zeotropic blend: bubble and dew lines, sloped isotherms, glide on T-s."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from workbench.fluids import get_backend
from workbench.plotting.dome import isotherm_ph, saturation_dome


def test_blend_dome_has_bubble_line_below_the_dew_line():
    fluid = get_backend("R407C", "CoolProp")
    dome = saturation_dome(fluid, 2e5, n=20)
    assert dome.t_bubble_k is not None
    glide = dome.t_k - dome.t_bubble_k
    assert np.all(glide[:10] > 4.0)  # R407C: about 6-7 K at low pressure
    for p, t_b in zip(dome.p_pa[:5], dome.t_bubble_k[:5]):
        assert t_b == pytest.approx(fluid.T_bubble(p), abs=1e-9)


def test_blend_isotherm_slopes_through_the_dome():
    fluid = get_backend("R407C", "CoolProp")
    t = 273.15
    h, p = isotherm_ph(fluid, t, 2e5, 20e5)
    p_dew, p_bubble = fluid.p_sat(t), fluid.p_bubble(t)
    inside = (p >= p_dew * (1 - 1e-9)) & (p <= p_bubble * (1 + 1e-9))
    assert inside.sum() >= 10
    # along the two-phase segment the pressure rises from dew to bubble and every point has T
    h_in, p_in = h[inside], p[inside]
    assert np.all(np.diff(p_in) > 0)
    assert np.all(np.diff(h_in) < 0)
    for hk, pk in zip(h_in[1:-1], p_in[1:-1]):
        assert fluid.T_ph(pk, hk) == pytest.approx(t, abs=1e-3)


def test_pure_fluid_dome_has_no_bubble_line():
    dome = saturation_dome(get_backend("R134a", "CoolProp"), 2e5, n=10)
    assert dome.t_bubble_k is None


def test_blend_dome_ending_below_the_critical_point_is_left_open_and_says_why():
    import matplotlib.pyplot as plt

    from workbench.plotting.diagram import critical_label, draw_dome

    fluid = get_backend("R454B", "CoolProp")
    assert fluid.p_max < fluid.p_crit  # the tables stop below the critical pressure
    dome = saturation_dome(fluid, 5e5, n=20)
    assert dome.critical is None
    label = critical_label(dome)
    assert label == f"dome open: blend tables end at {dome.p_pa[-1] / 1e5:.1f} bar"
    fig, ax = plt.subplots()
    draw_dome(ax, dome.h_liq, dome.h_vap, dome.p_pa, None, label)
    gids = [line.get_gid() for line in ax.get_lines()]
    assert "dome-top" not in gids  # no flat line closing the dome
    (end,) = [line for line in ax.get_lines() if line.get_gid() == "dome-end"]
    assert end.get_label() == label
    np.testing.assert_allclose(end.get_xdata(), [dome.h_liq[-1], dome.h_vap[-1]])
    plt.close(fig)
