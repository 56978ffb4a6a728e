"""``workbench sweep``: CSV output, value syntax and exit codes."""

from __future__ import annotations

import pandas as pd
import pytest

from workbench.cli.main import main
from workbench.cli.sweep_commands import parse_set

SPLIT = "examples/scenarios/split_units_v2.json"


def test_parse_set_linspace_and_lists():
    assert parse_set("evap.t_evap_k=260:280:11") == (
        "evap.t_evap_k",
        pytest.approx([260.0 + 2.0 * k for k in range(11)]),
    )
    assert parse_set("unit_b.compressor.speed_hz=40,45, 50") == (
        "unit_b.compressor.speed_hz",
        [40, 45, 50],
    )
    assert parse_set("a.b=0.5") == ("a.b", [0.5])
    for bad in ("a.b", "a.b=", "=1,2", "a.b=1:2", "a.b=1:2:x", "a.b=1:2:0", "a.b=1,x"):
        with pytest.raises(ValueError, match="--set"):
            parse_set(bad)


def test_sweep_grid_writes_one_row_per_case(tmp_path, capsys):
    out = tmp_path / "sub" / "out.csv"
    code = main(
        [
            "sweep",
            SPLIT,
            "--set",
            "unit_a.evaporator.fan_speed=0.6:1.0:3",
            "--set",
            "unit_b.compressor.speed_hz=40,50",
            "--no-progress",
            "--processes",
            "1",
            "-o",
            str(out),
        ]
    )
    assert code == 0
    df = pd.read_csv(out)
    assert len(df) == 6
    assert df["converged"].all()
    assert df["unit_a.evaporator.fan_speed"].tolist() == [0.6, 0.6, 0.8, 0.8, 1.0, 1.0]
    assert df["unit_b.compressor.speed_hz"].tolist() == [40, 50] * 3
    assert {"cop_cooling", "cooling_capacity_w", "compressor_power_w", "error"} <= set(df.columns)
    assert "6 cases, 6 converged" in capsys.readouterr().err
    assert not list(out.parent.glob(".*.tmp"))  # nothing half-written left behind


def test_sweep_list_mode_and_a_failed_point_exit_1(tmp_path):
    out = tmp_path / "out.csv"
    code = main(
        [
            "sweep",
            SPLIT,
            "--set",
            "unit_a.evaporator.fan_speed=0.7,1.4",
            "--set",
            "unit_a.compressor.speed_hz=45,50",
            "--list",
            "--no-progress",
            "--processes",
            "1",
            "-o",
            str(out),
        ]
    )
    assert code == 1
    df = pd.read_csv(out)
    assert df["converged"].tolist() == [True, False]
    assert "out of range" in df["error"].iloc[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "unit_a.evaporator.fanspeed=0.5:1:3"], "has no parameter 'fanspeed'"),
        (["--set", "unit_a.evaporator.fan_speed=0.5:1"], "start:stop:n"),
        (["--set", "x.y=1", "--set", "x.y=2"], "given twice"),
    ],
)
def test_bad_sweep_input_exits_2(args, message, capsys):
    assert main(["sweep", SPLIT, *args, "--no-progress"]) == 2
    assert message in capsys.readouterr().err


def test_missing_file_exits_2(tmp_path, capsys):
    assert main(["sweep", str(tmp_path / "nope.json"), "--set", "a.b=1"]) == 2
    assert "no such file" in capsys.readouterr().err
