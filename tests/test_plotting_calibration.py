"""The parity plot of a calibration: points where the table puts them, units, outliers."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from workbench.plotting import plot_parity
from workbench.plotting.calibration import display_scale


def _residuals() -> pd.DataFrame:
    rows = []
    for i, (q, t) in enumerate([(4000.0, 330.0), (4500.0, 335.0), (5000.0, 340.0)]):
        rows.append(
            {
                "point": str(i),
                "quantity": "summary.heating_capacity_w",
                "measured": q,
                "model": q * 1.01,
                "outlier": i == 2,
            }
        )
        rows.append(
            {
                "point": str(i),
                "quantity": "compressor.temperature",
                "measured": t,
                "model": t + 0.5,
                "outlier": False,
            }
        )
    return pd.DataFrame(rows)


def _gid(ax, gid):
    return next(c for c in ax.collections if c.get_gid() == gid)


def test_plot_parity_draws_one_panel_per_quantity_in_display_units():
    fig, ax = plot_parity(_residuals())
    assert len(fig.axes) == 2
    heat, temp = fig.axes
    xy = _gid(heat, "parity_points").get_offsets()
    np.testing.assert_allclose(xy[:, 0], [4.0, 4.5, 5.0])  # kW
    np.testing.assert_allclose(xy[:, 1], [4.04, 4.545, 5.05])
    assert heat.get_xlabel() == "measured heating capacity [kW]"
    assert heat.get_ylabel() == "model heating capacity [kW]"
    xy = _gid(temp, "parity_points").get_offsets()
    np.testing.assert_allclose(xy[:, 0], [56.85, 61.85, 66.85])  # degC
    assert temp.get_xlabel() == "measured compressor temperature [°C]"
    # the band of a temperature is +/- 1 K, not a percentage of a Celsius value
    band = _gid(temp, "parity_band").get_paths()[0].vertices
    x0 = band[:, 0].min()
    ys = band[band[:, 0] == x0][:, 1]
    np.testing.assert_allclose([ys.min(), ys.max()], [x0 - 1.0, x0 + 1.0])
    heat_band = _gid(heat, "parity_band").get_paths()[0].vertices
    h0 = heat_band[:, 0].min()
    ys = heat_band[heat_band[:, 0] == h0][:, 1]
    np.testing.assert_allclose([ys.min(), ys.max()], [0.98 * h0, 1.02 * h0])
    ringed = _gid(heat, "parity_outliers").get_offsets()
    np.testing.assert_allclose(ringed, [[5.0, 5.05]])
    with pytest.raises(StopIteration):
        _gid(temp, "parity_outliers")
    assert ax is heat


def test_plot_parity_into_given_axes_and_bad_quantity():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    out_fig, out_ax = plot_parity(_residuals(), quantities=["compressor.temperature"], ax=ax)
    assert out_ax is ax
    assert out_fig is fig
    with pytest.raises(ValueError, match="ax= draws one quantity"):
        plot_parity(_residuals(), ax=ax)
    with pytest.raises(ValueError, match=r"'edges\.x:outlet\.t_c' is not in the residuals"):
        plot_parity(_residuals(), quantities=["edges.x:outlet.t_c"])


def test_display_scale_of_quantities():
    assert display_scale("summary.cop_heating") == (1.0, 0.0, "-")
    assert display_scale("edges.compressor:outlet.p_bar") == (1.0, 0.0, "bar")
    assert display_scale("evaporator.superheat") == (1.0, 0.0, "K")
    assert display_scale("compressor.power") == (1e-3, 0.0, "kW")
