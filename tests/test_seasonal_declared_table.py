"""Rating a table of declarations: figures, stated figures, conventions, flags, bad cells."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from workbench.cli.main import main
from workbench.seasonal import scop_from_declared
from workbench.seasonal.declared_table import (
    RATED_COLUMNS,
    DeclaredTableError,
    rate_declared_table,
    read_declared_table,
)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "declared" / "heat_pumps.csv"


def _rated():
    return rate_declared_table(EXAMPLE).set_index(["product", "application"])


def test_declared_table_rows_equal_the_bin_method_on_their_points():
    table = read_declared_table(EXAMPLE)
    row = table.iloc[3]  # Cirrus 9: A and F both at -7, per-point Cd at B, C, D
    pts = [
        {"name": "E", "t_c": -10, "capacity_kw": 7.9, "cop": 2.4},
        {"name": "A", "t_c": -7, "capacity_kw": 8.14, "cop": 2.95},
        {"name": "F", "t_c": -7, "capacity_kw": 8.10, "cop": 2.96},
        {"name": "B", "t_c": 2, "capacity_kw": 5.1, "cop": 4.4, "cd": 0.95},
        {"name": "C", "t_c": 7, "capacity_kw": 3.6, "cop": 5.9, "cd": 0.97},
        {"name": "D", "t_c": 12, "capacity_kw": 3.4, "cop": 7.2, "cd": 0.98},
    ]
    ref = scop_from_declared(pts, 9.2, operation_limit_c=-10, bivalent_c=-7)
    got = rate_declared_table(table).iloc[3]
    assert row["product"] == got["product"] == "Cirrus 9 (made up)"
    for key in ("scop", "scop_on", "scop_net", "eta_s", "annual_energy_kwh"):
        assert got[key] == pytest.approx(getattr(ref, key), rel=1e-14)
    assert got["scop_diff"] == pytest.approx(4.53 - ref.scop, rel=1e-12)
    assert got["flags"] == "duplicate:A/F"


def test_declared_table_conventions_and_flags():
    rated = _rated()
    assert list(rated.reset_index().columns) == list(RATED_COLUMNS)
    aurora_low = rated.loc[("Aurora AW-8 (made up)", "low")]
    assert aurora_low["convention"] == "without_off_mode"  # stated = SCOPon, off modes given
    assert aurora_low["flags"] == ""
    assert aurora_low["scop"] < aurora_low["scop_on"]
    assert rated.loc[("Aurora AW-8 (made up)", "medium"), "convention"] == "with_off_mode"
    borealis = rated.loc[("Borealis 12 (made up)", "low")]
    assert borealis["flags"].startswith("capacity_below_load:A(1.4")
    assert borealis["convention"] == "both"  # the shortfall above Tbiv is not charged
    assert rated.loc[("Doldrum 6 (made up)", "low"), "flags"] == "placeholder:E"
    etesian = rated.loc[("Etesian 10 (made up)", "medium")]
    assert etesian["flags"] == "scop_vs_eta_s"  # stated eta_s 7 points off its own SCOP
    assert etesian["eta_s_diff"] == pytest.approx(7, abs=0.6)


def test_declared_table_stated_energy_and_mismatch_flags(tmp_path):
    table = read_declared_table(EXAMPLE).iloc[[0]].copy()
    table["annual_kwh_stated"] = table["annual_kwh_stated"] * 1.05
    table["scop_stated"] = 4.70
    table["eta_s_stated"] = 100 * 4.70 / 2.5 - 3
    flags = rate_declared_table(table).iloc[0]["flags"].split(";")
    assert flags == ["stated_scop_mismatch", "scop_vs_annual_energy"]


def test_declared_table_cli_writes_csv_and_json(tmp_path, capsys):
    out = tmp_path / "rated.csv"
    assert main(["seasonal", "--declared", str(EXAMPLE), "-o", str(out)]) == 0
    written = pd.read_csv(out, keep_default_na=False)
    assert list(written.columns) == list(RATED_COLUMNS)
    assert len(written) == 6
    capsys.readouterr()
    assert main(["seasonal", "--declared", str(EXAMPLE), "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert records[0]["convention"] == "without_off_mode"
    assert records[0]["scop_on"] == pytest.approx(float(written.loc[0, "scop_on"]), rel=1e-12)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda t: t.replace("3.2,2.8", "3.2,x2.8", 1),
            r"row 2 \(Aurora AW-8 \(made up\)\), column 'C_capacity_kw'",
        ),
        (lambda t: t.replace("B_cop", "B_copd", 1), r"column 'B_copd': a point column"),
        (
            lambda t: t.replace("design_load_kw", "pdesign", 1),
            r"column 'design_load_kw' is missing",
        ),
        (
            lambda t: t.replace(",6.3,1.85,", ",6.3,,", 1),
            r"row 2 .*column 'E_cop': point E is half declared",
        ),
        (lambda t: t.replace("low,average", "low,tropical", 1), r"row 1 .*column 'climate'"),
    ],
)
def test_declared_table_bad_cell_exits_2_naming_row_and_column(tmp_path, capsys, edit, message):
    bad = tmp_path / "bad.csv"
    bad.write_text(edit(EXAMPLE.read_text()))
    assert main(["seasonal", "--declared", str(bad)]) == 2
    with pytest.raises(DeclaredTableError, match=message):
        rate_declared_table(bad)
    assert "error:" in capsys.readouterr().err


def test_declared_table_cli_needs_one_input(capsys):
    assert main(["seasonal"]) == 2
    assert "give a scenario file, --declared TABLE.csv or 'fit'" in capsys.readouterr().err
    assert main(["seasonal", str(EXAMPLE), "--declared", str(EXAMPLE)]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["seasonal", "--declared", "no-such.csv"]) == 2
    assert "no-such.csv: no such file" in capsys.readouterr().err
