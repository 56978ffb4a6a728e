"""The seasonal bins chart draws what the rating computed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from workbench.plotting.seasonal import plot_bins
from workbench.seasonal import rate

EXAMPLE = Path(__file__).parent.parent / "examples/scenarios/air_water_heat_pump_seasonal_v2.json"


@pytest.fixture(scope="module")
def rating():
    return rate(EXAMPLE)


def _line(fig, gid):
    return next(line for ax in fig.axes for line in ax.get_lines() if line.get_gid() == gid)


def test_plot_bins_lines_are_the_bins(rating, tmp_path):
    fig, ax = plot_bins(rating)
    bins = rating.bins
    np.testing.assert_allclose(_line(fig, "load").get_ydata(), bins["load_kw"])
    np.testing.assert_allclose(_line(fig, "cop").get_ydata(), bins["cop"])
    full = _line(fig, "full_capacity").get_ydata()
    tp = rating.test_points.sort_values("t_c")
    assert full[0] == pytest.approx(tp["full_capacity_kw"].iloc[0])  # the first bin is E's -10 C
    backup = [p for p in ax.patches if p.get_gid() == "backup"]
    assert sum(p.get_height() for p in backup) == pytest.approx(bins["backup_kw"].sum())
    assert len(fig.axes) == 3
    path = tmp_path / "bins.png"
    fig.savefig(path, dpi=80)
    assert path.stat().st_size > 10_000


def test_plot_bins_refuses_an_incomplete_rating(rating):
    import copy

    broken = copy.copy(rating)
    broken.bins = None
    with pytest.raises(ValueError, match="incomplete"):
        plot_bins(broken)
