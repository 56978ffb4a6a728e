import pytest
from charge_cases import charge_doc

import workbench
from workbench.charge import charge_curve, charge_table
from workbench.errors import ScenarioError
from workbench.plotting import plot_charge, plot_charge_curve
from workbench.safety import charge_limits


@pytest.fixture(scope="module")
def result():
    r = workbench.solve(charge_doc(charge_kg=0.25))
    assert r.converged
    return r


def test_charge_chart_bars_add_up_to_the_total(result, tmp_path):
    fig, ax = plot_charge(result)
    widths = {p.get_gid(): p.get_width() for p in ax.patches}
    assert sum(widths.values()) == pytest.approx(1e3 * result.charge["total_kg"], rel=1e-9)
    assert "charge-condenser-subcooled" in widths
    assert "charge-evaporator-two-phase" in widths
    assert "complies" in ax.get_title()
    fig.savefig(tmp_path / "charge.png")
    assert (tmp_path / "charge.png").stat().st_size > 0


def test_charge_chart_refuses_a_result_without_charge():
    r = workbench.solve(charge_doc(subcooling_k=3.0, volumes=False))
    with pytest.raises(ValueError, match="holds no charge"):
        plot_charge(r)


def test_charge_curve_table_and_chart():
    frame = charge_curve(charge_doc(charge_kg=0.25), [0.21, 0.23, 0.25, 0.27])
    assert list(frame["charge_kg"]) == [0.21, 0.23, 0.25, 0.27]
    assert frame["converged"].all()
    sub = frame["subcooling_k"].to_numpy()
    assert (sub[1:] > sub[:-1]).all()
    limits = charge_limits("R290", 15.0, "wall")
    _fig, ax = plot_charge_curve(frame, limits=limits)
    gids = {line.get_gid() for line in ax.get_lines()}
    assert {"charge-curve-set", "charge-limit-m1", "charge-limit-allowed"} <= gids
    (line,) = [ln for ln in ax.get_lines() if ln.get_gid() == "charge-curve-set"]
    assert list(line.get_xdata()) == pytest.approx([210, 230, 250, 270])


def test_charge_curve_needs_a_fixed_charge():
    with pytest.raises(ScenarioError, match="give the circuit a charge_kg"):
        charge_curve(charge_doc(subcooling_k=3.0), [0.2, 0.3])


def test_charge_table_has_a_row_per_zone_and_line(result):
    table = charge_table(result)
    assert table["kg"].sum() == pytest.approx(result.charge["total_kg"], rel=1e-12)
    assert table["share"].sum() == pytest.approx(1.0, rel=1e-12)
    cond = table[table["item"] == "condenser"]
    assert list(cond["zone"]) == ["superheated", "two-phase", "subcooled"]
    lines = table[table["kind"] == "edge"]
    assert (lines["zone"] == "line").all()
    expected = (lines["volume_m3"] * lines["density_kg_m3"]).to_numpy()
    assert lines["kg"].to_numpy() == pytest.approx(expected, rel=1e-12)
