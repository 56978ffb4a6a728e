"""The main job solves every example (the R744 heat pumps included) and draws both diagrams."""

from __future__ import annotations

import json
from pathlib import Path

from workbench.main_job import REPO_ROOT, run_main_job


def test_main_job_solves_every_example_including_the_transcritical_ones(tmp_path: Path, capsys):
    examples = REPO_ROOT / "examples" / "scenarios"
    assert run_main_job(examples, tmp_path, notebooks=False) == 0
    printed = capsys.readouterr().out
    names = sorted(p.stem for p in examples.glob("*.json"))
    assert {"r744_heat_pump_v2", "r744_transcritical_fixed_v1"} <= set(names)
    for name in names:
        result = json.loads((tmp_path / "results" / f"{name}.json").read_text())
        assert result["converged"], name
        assert (
            abs(result["summary"]["energy_balance_w"])
            < 1e-3 * result["summary"]["compressor_power_w"]
        )
        for kind in ("ph", "ts"):
            assert (tmp_path / "figures" / f"{name}_{kind}.png").stat().st_size > 10_000
        assert f"solved {name}.json: converged" in printed
    seasonal = json.loads(
        (tmp_path / "results" / "air_water_heat_pump_seasonal_v2_seasonal.json").read_text()
    )
    assert seasonal["complete"] is True
    assert 2.0 < seasonal["scop"] < 8.0
    assert (tmp_path / "figures" / "air_water_heat_pump_seasonal_v2_seasonal.png").exists()
    heat_pump = json.loads((tmp_path / "results" / "r744_heat_pump_v2.json").read_text())
    gas_cooler = next(c for c in heat_pump["components"] if c["type"] == "GasCooler")
    assert gas_cooler["pressure"] > 7.3773e6  # rejects heat above the critical pressure
    charged = json.loads((tmp_path / "results" / "r290_heat_pump_charge_v2.json").read_text())
    assert abs(charged["charge"]["total_kg"] - 0.25) < 1e-6  # the example's fixed charge
    assert (tmp_path / "figures" / "r290_heat_pump_charge_v2_charge.png").stat().st_size > 10_000
