"""Lines in a solved cycle: pressure drop, heat gain, energy balance, charge, oil return.

The split unit of ``examples/scenarios/split_unit_lines_v2.json`` (R32, UA coils, three lines)
is solved and each line is rebuilt from the solved edge states with CoolProp's PropsSI and
``fluids`` evaluated on their own.
"""

from __future__ import annotations

import math

import pytest
from CoolProp.CoolProp import PropsSI
from fluids.core import dP_from_K
from fluids.fittings import K_ball_valve_Crane, bend_rounded_Crane
from fluids.friction import one_phase_dP
from lines_cases import split_unit

import workbench
from workbench.components.base import Component
from workbench.solver import prepare

G_EARTH = 9.80665


@pytest.fixture(scope="module")
def solved():
    result = workbench.solve(split_unit())
    assert result.converged, result.report()
    return result


def _ends(result, name: str):
    """(p_in, h_in, p_out, h_out, m) of a line from the result's edges [SI]."""
    rows = {r["edge"]: r for r in result.edge_rows}
    into = next(r for e, r in rows.items() if e.endswith(f"-> {name}:inlet"))
    out = next(r for e, r in rows.items() if e.startswith(f"{name}:outlet ->"))
    return (
        into["p_bar"] * 1e5,
        into["h_kj_kg"] * 1e3,
        out["p_bar"] * 1e5,
        out["h_kj_kg"] * 1e3,
        into["m_kg_s"],
    )


def test_lines_solve_three_lines_with_names_paths_and_roles(solved) -> None:
    table = solved.lines_table()
    assert list(table.index) == [
        "line compressor-condenser",
        "line condenser-valve",
        "line evaporator-compressor",
    ]
    assert list(table["role"]) == ["discharge", "liquid", "suction"]
    assert list(table["edge"]) == [
        "compressor:outlet -> condenser:inlet",
        "condenser:outlet -> valve:inlet",
        "evaporator:outlet -> compressor:inlet",
    ]
    assert list(table["path"]) == [f"circuits[0].edges[{i}]" for i in (0, 1, 3)]
    for column in ("pressure_drop_pa", "saturation_temperature_drop_k", "heat_gain_w",
                   "velocity_m_s", "charge_kg"):  # fmt: skip
        assert table[column].notna().all(), column


def test_lines_solve_suction_line_drop_against_fluids(solved) -> None:
    p_in, h_in, p_out, h_out, m = _ends(solved, "line evaporator-compressor")
    pm, hm = (p_in + p_out) / 2, (h_in + h_out) / 2
    rho = PropsSI("D", "P", pm, "H", hm, "R32")
    mu = PropsSI("V", "P", pm, "T", PropsSI("T", "P", pm, "H", hm, "R32"), "R32")
    d = 0.016916
    k = 4 * bend_rounded_Crane(Di=d, angle=90.0, bend_diameters=1.5) + K_ball_valve_Crane(d, d, 0.0)
    v = m / (rho * math.pi * d**2 / 4)
    dp = one_phase_dP(m, rho, mu, d, 1.5e-6, 10.0) + dP_from_K(k, rho, v) + rho * G_EARTH * 3.0
    assert p_in - p_out == pytest.approx(dp, rel=1e-5)
    row = solved.lines_table().loc["line evaporator-compressor"]
    assert row["velocity_m_s"] == pytest.approx(v, rel=1e-6)
    t_sat_drop = PropsSI("T", "P", p_in, "Q", 1, "R32") - PropsSI("T", "P", p_out, "Q", 1, "R32")
    assert row["saturation_temperature_drop_k"] == pytest.approx(t_sat_drop, rel=1e-5)
    assert 0.05 < t_sat_drop < 0.5  # 3/4 in suction at 10 kW: a fraction of a kelvin


def test_lines_solve_liquid_line_falls_three_metres_and_gains_head(solved) -> None:
    p_in, h_in, p_out, h_out, _m = _ends(solved, "line condenser-valve")
    row = solved.lines_table().loc["line condenser-valve"]
    rho = PropsSI("D", "P", (p_in + p_out) / 2, "H", (h_in + h_out) / 2, "R32")
    assert row["static_pressure_drop_pa"] == pytest.approx(-rho * G_EARTH * 3.0, rel=1e-6)
    assert p_out > p_in  # 3 m of liquid head outweighs the friction of 10 m of 3/8 in


def test_lines_solve_heat_gain_is_the_enthalpy_rise_and_the_hand_resistance(solved) -> None:
    d_i, d_o, t_ins = 0.016916, 0.01905, 0.009
    d_ins = d_o + 2 * t_ins
    r = (
        math.log(d_o / d_i) / (2 * math.pi * 340.0)
        + math.log(d_ins / d_o) / (2 * math.pi * 0.035)
        + 1.0 / (9.0 * math.pi * d_ins)
    )
    p_in, h_in, p_out, h_out, m = _ends(solved, "line evaporator-compressor")
    t_mean = PropsSI("T", "P", (p_in + p_out) / 2, "H", (h_in + h_out) / 2, "R32")
    q = solved.lines_table().loc["line evaporator-compressor", "heat_gain_w"]
    assert q == pytest.approx(10.0 * (308.15 - t_mean) / r, rel=1e-6)
    assert m * (h_out - h_in + G_EARTH * 3.0) == pytest.approx(q, rel=1e-6)  # lifted 3 m
    assert q > 0.0  # the suction line gains
    discharge = solved.lines_table().loc["line compressor-condenser", "heat_gain_w"]
    assert discharge < 0.0  # the bare discharge line loses to the 35 C ambient


def test_lines_solve_energy_balance_with_line_gains(solved) -> None:
    comps = solved.components
    q_evap = comps["evaporator"]["capacity"]
    q_cond = comps["condenser"]["capacity"]
    power = comps["compressor"]["power"]
    table = solved.lines_table()
    gains = sum(table["heat_gain_w"])
    m = comps["compressor"]["massFlowRate"]
    lift = m * G_EARTH * sum(table["elevation_m"])  # +0.5 m: the line set does not close
    assert q_evap + power + gains - lift - q_cond == pytest.approx(0.0, abs=1e-6 * power)
    assert lift == pytest.approx(m * G_EARTH * 0.5, rel=1e-12)
    assert abs(gains) > 1.0  # the balance would fail by watts without the lines
    assert solved.summary["line_heat_gain_w"] == pytest.approx(gains, rel=1e-12)
    assert abs(solved.summary["energy_balance_w"]) < 1e-6 * power


def test_lines_solve_charge_is_rho_v_per_line(solved) -> None:
    table = solved.lines_table()
    total = 0.0
    for name, d in (("line compressor-condenser", 0.010922), ("line condenser-valve", 0.008001),
                    ("line evaporator-compressor", 0.016916)):  # fmt: skip
        p_in, h_in, p_out, h_out, _m = _ends(solved, name)
        rho = PropsSI("D", "P", (p_in + p_out) / 2, "H", (h_in + h_out) / 2, "R32")
        volume = math.pi / 4 * d**2 * table.loc[name, "length_m"]
        assert table.loc[name, "charge_kg"] == pytest.approx(rho * volume, rel=1e-6)
        total += rho * volume
    assert solved.summary["line_charge_kg"] == pytest.approx(total, rel=1e-6)
    items = {i["name"]: i for i in solved.charge["items"]}
    assert items["line condenser-valve"]["kind"] == "line"
    coils = items["condenser"]["kg"] + items["evaporator"]["kg"]
    assert solved.charge["total_kg"] == pytest.approx(coils + total, rel=1e-6)
    assert table.loc["line condenser-valve", "charge_kg"] > 0.4 * solved.charge["total_kg"]


def test_lines_solve_oil_return_warning_names_the_edge() -> None:
    # 7/8 in suction riser: the vapour slows to about 4 m/s, below ASHRAE's 5.08 m/s
    result = workbench.solve(split_unit(inner_diameter_m=0.019939, outer_diameter_m=0.022225))
    assert result.converged
    warnings = [w for w in result.warnings if "oil return" in w]
    assert len(warnings) == 1
    assert "evaporator:outlet -> compressor:inlet" in warnings[0]
    assert "circuits[0].edges[3]" in warnings[0]
    assert "suction riser" in warnings[0]
    velocity = result.lines_table().loc["line evaporator-compressor", "velocity_m_s"]
    assert velocity < 5.08


def test_lines_solve_no_oil_warning_for_the_example(solved) -> None:
    assert not [w for w in solved.warnings if "oil return" in w]
    assert solved.lines_table().loc["line evaporator-compressor", "velocity_m_s"] > 5.08


def test_lines_solve_two_phase_line_after_the_valve_converges_on_msh() -> None:
    from fluids.two_phase import Muller_Steinhagen_Heck

    doc = split_unit()
    d = (0.5 - 2 * 0.035) * 0.0254
    doc["circuits"][0]["edges"][2]["line"] = {"length_m": 5.0, "inner_diameter_m": d}
    result = workbench.solve(doc)
    assert result.converged, result.report()
    p_in, h_in, p_out, h_out, m = _ends(result, "line valve-evaporator")
    pm, hm = (p_in + p_out) / 2, (h_in + h_out) / 2
    x = PropsSI("Q", "P", pm, "H", hm, "R32")
    assert 0.1 < x < 0.4
    sat = {
        q: (PropsSI("D", "P", pm, "Q", q, "R32"), PropsSI("V", "P", pm, "Q", q, "R32"))
        for q in (0, 1)
    }
    msh = Muller_Steinhagen_Heck(m, x, sat[0][0], sat[1][0], sat[0][1], sat[1][1], D=d, L=5.0,
                                 roughness=1.5e-6)  # fmt: skip
    assert p_in - p_out == pytest.approx(msh, rel=1e-5)
    assert h_out == pytest.approx(h_in, abs=1e-6)  # adiabatic without ambient_temp_c


def test_lines_flat_scenario_keeps_the_edge_and_its_line() -> None:
    from workbench.scenario import flatten, load_scenario

    flat = flatten(load_scenario(split_unit()))
    assert len(flat.edges) == 4
    assert "RefrigerantLine" not in {c.type for c in flat.components.values()}
    doc = flat.to_dict()
    assert doc["circuits"][0]["edges"][3]["line"]["length_m"] == 10.0
    again = flatten(load_scenario(doc))
    assert again.edges[3].line == flat.edges[3].line


def test_lines_solve_fixed_charge_counts_the_lines() -> None:
    doc = split_unit()
    del doc["circuits"][0]["components"][1]["subcooling_k"]
    doc["circuits"][0]["charge_kg"] = 1.1
    result = workbench.solve(doc)
    assert result.converged, result.report()
    assert result.summary["charge_kg"] == pytest.approx(1.1, abs=1e-6)
    items = sum(i["kg"] for i in result.charge["items"])
    assert items == pytest.approx(1.1, abs=1e-6)
    lines = sum(r["charge_kg"] for r in result.lines)
    assert lines == pytest.approx(result.summary["line_charge_kg"], rel=1e-12)
    # 1.1 kg is more than the 0.956 kg the example holds at 4 K subcooling: more subcooling
    assert result.components["condenser"]["subcooling"] > 4.0


def test_lines_solve_exergy_balance_closes_with_the_lines_ambient(solved) -> None:
    analysis = solved.exergy(ambient_k=300.15)
    power = solved.summary["compressor_power_w"]
    m = solved.components["compressor"]["massFlowRate"]
    lift = m * G_EARTH * 0.5  # the line set rises 0.5 m in all: its potential energy
    assert analysis.balance_w == pytest.approx(lift, abs=1e-6 * power)
    lines = {c.name: c for c in analysis.components if c.type == "RefrigerantLine"}
    suction = lines["line evaporator-compressor"]
    gain = solved.lines_table().loc["line evaporator-compressor", "heat_gain_w"]
    assert suction.heat_w == pytest.approx(gain, rel=1e-12)
    assert all(c.destruction_w > 0.0 for c in lines.values())  # heat across a finite difference


def test_lines_solve_cli_prints_and_writes_the_lines(tmp_path, capsys) -> None:
    from lines_cases import EXAMPLE

    from workbench.cli.main import EXIT_OK, main

    assert main(["solve", str(EXAMPLE), "--csv", str(tmp_path)]) == EXIT_OK
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("line evaporator-compressor ")]
    assert len(rows) == 2  # in the components table and in the lines table
    assert rows[1].split()[2] == "suction"
    assert 5000.0 < float(rows[1].split()[3]) < 6500.0  # the pressure drop [Pa], 5.7 kPa
    assert (tmp_path / "lines.csv").read_text().splitlines()[0].startswith("name,edge,path,role")


@pytest.mark.parametrize("superheat", [0.0, 0.5])
def test_lines_solve_saturated_or_barely_superheated_suction(superheat) -> None:
    doc = split_unit()
    doc["circuits"][0]["components"][3]["superheat_k"] = superheat
    result = workbench.solve(doc)
    assert result.converged, result.report()
    row = result.lines_table().loc["line evaporator-compressor"]
    assert row["heat_gain_w"] > 0.0
    assert abs(result.summary["energy_balance_w"]) < 1e-6 * result.summary["compressor_power_w"]


def test_lines_sweep_reads_a_lines_outputs() -> None:
    frame = workbench.sweep(
        split_unit(),
        {"evaporator.air_inlet_temp_c": [22.0, 32.0]},
        progress=False,
        outputs=["line evaporator-compressor.pressure_drop"],
    )
    drops = list(frame["line evaporator-compressor.pressure_drop"])
    assert drops[1] > drops[0] > 0.0  # a warmer room: more flow and a larger suction drop


def test_lines_jacobian_over_the_mean_state_is_the_five_column_difference() -> None:
    # RefrigerantLine.jacobian differences (m, p_m, h_m), three line points: against the base
    # class's forward differences over the five unknowns (m, p_in, h_in, p_out, h_out)
    doc = split_unit()
    system = prepare(doc)
    x = workbench.solve(doc, system=system).x.copy()
    lines = [c for c in system.components.values() if c.type_name == "RefrigerantLine"]
    assert len(lines) == 3
    for line in lines:
        f0 = line.residuals(x)
        ours = {(r, c): v for r, c, v in line.jacobian(x, f0, system.step)}
        five = {(r, c): v for r, c, v in Component.jacobian(line, x, f0, system.step)}
        assert ours.keys() == five.keys()
        for key, value in five.items():
            assert ours[key] == pytest.approx(value, rel=1e-5, abs=1e-12)
