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
