"""Errors that say what is wrong (zero lift, a stopped fan, specs beyond the fluid).

Also a condenser too small for its compressor, huge numbers and a byte-order mark.
"""

from __future__ import annotations

import json

import CoolProp.CoolProp as CP
import numpy as np
import pytest

from workbench.cli.main import main
from workbench.errors import ScenarioError
from workbench.scenario import load_scenario
from workbench.scenario.reference_cases import textbook_r134a, ua_heat_pump
from workbench.solver import StopReason, solve
from workbench.sweep import sweep

COND, EVAP = 1, 3


def _set(doc, index, **params):
    doc["circuits"][0]["components"][index].update(params)
    return doc


def _issues(doc) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(doc)
    return {i.path: i.message for i in info.value.issues}


def _zero_lift_r290() -> dict:
    doc = textbook_r134a()
    doc["fluid"] = "R290"
    _set(doc, COND, t_cond_k=300.0, subcooling_k=0.0)
    _set(doc, EVAP, t_evap_k=300.0, superheat_k=0.0)
    return doc


def test_zero_lift_is_physically_impossible_with_the_reason():
    result = solve(_zero_lift_r290())
    assert not result.converged
    assert result.stop_reason is StopReason.PHYSICALLY_IMPOSSIBLE
    assert result.problems
    assert "zero pressure lift" in result.problems[0]
    assert "Compressor 'comp'" in result.problems[0]
    assert "zero pressure lift" in (result.hint or "")


def test_a_small_real_lift_is_not_zero_lift():
    doc = _zero_lift_r290()
    _set(doc, COND, t_cond_k=300.5)  # 0.5 K of lift: about 0.2 bar
    result = solve(doc)
    assert result.converged, result.message
    assert result.summary["compressor_power_w"] > 0.0
    # the power is the enthalpy rise of the compressor, rebuilt with PropsSI
    comp = result.components["comp"]
    p_lo = CP.PropsSI("P", "T", 300.0, "Q", 1, "R290")
    p_hi = CP.PropsSI("P", "T", 300.5, "Q", 0, "R290")
    assert comp["suction_pressure"] == pytest.approx(p_lo, rel=1e-8)
    assert comp["pressure"] == pytest.approx(p_hi, rel=1e-8)


def test_a_stopped_fan_on_a_ua_coil_is_refused_with_the_reason(tmp_path, capsys):
    doc = ua_heat_pump(**{"evap.fan_speed": 0.0})
    found = _issues(doc)
    message = found["circuits[0].components[3].fan_speed"]
    assert "fan_speed 0 means no air-side heat transfer on this coil" in message
    assert "Evaporator 'evap'" in message
    path = tmp_path / "fan0.json"
    path.write_text(json.dumps(doc))
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert "fan_speed" in err
    assert "division" not in err
    # a small but nonzero fan speed is a coil with little air: it solves
    result = solve(ua_heat_pump(**{"evap.fan_speed": 0.3}))
    assert result.converged
    assert (
        result.summary["cooling_capacity_w"] < solve(ua_heat_pump()).summary["cooling_capacity_w"]
    )


def test_a_fan_speed_sweep_from_zero_names_the_reason_on_that_row():
    frame = sweep(ua_heat_pump(), {"evap.fan_speed": [0.0, 0.5, 1.0]}, processes=1, progress=False)
    rows = frame.set_index("evap.fan_speed")
    assert not rows.loc[0.0, "converged"]
    assert "no air-side heat transfer" in rows.loc[0.0, "error"]
    assert "division" not in rows.loc[0.0, "error"]
    assert rows.loc[0.5, "converged"]
    assert rows.loc[1.0, "converged"]


def test_superheat_beyond_the_fluid_is_exit_2_naming_the_parameter_and_range(tmp_path, capsys):
    doc = _set(ua_heat_pump(), EVAP, superheat_k=400.0)
    path = tmp_path / "sh.json"
    path.write_text(json.dumps(doc))
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert "circuits[0].components[3].superheat_k" in err
    t_max = CP.PropsSI("Tmax", "R134a")
    t_min = CP.PropsSI("Tmin", "R134a")
    assert f"{t_max:.2f} K" in err  # the fluid's highest temperature
    assert f"at most {t_max - t_min:.2f} K" in err
    assert "out of range" not in err
    assert "flash" not in err


def test_superheat_with_a_saturation_temperature_uses_it():
    doc = _set(textbook_r134a(), EVAP, t_evap_k=270.0, superheat_k=190.0)
    message = _issues(doc)["circuits[0].components[3].superheat_k"]
    assert "at most 185.00 K" in message  # 455 K - 270 K
    load_scenario(_set(textbook_r134a(), EVAP, t_evap_k=270.0, superheat_k=180.0))


def test_subcooling_below_the_fluid_is_refused():
    doc = _set(textbook_r134a(), COND, t_cond_k=313.15, subcooling_k=150.0)
    message = _issues(doc)["circuits[0].components[1].subcooling_k"]
    t_min = CP.PropsSI("Tmin", "R134a")
    assert f"at most {313.15 - t_min:.2f} K" in message


def test_gas_cooler_pressure_and_initial_pressure_are_bounded_by_the_fluid():
    with open("examples/scenarios/r744_transcritical_fixed_v1.json") as fh:
        doc = json.load(fh)
    gc = next(c for c in doc["circuits"][0]["components"] if c["type"] == "GasCooler")
    gc["pressure_pa"] = 1e10
    doc["circuits"][0]["initial_state"] = {"pressure_bar": 1e-3}
    found = _issues(doc)
    pmax = CP.AbstractState("HEOS", "CO2").pmax()
    gc_msg = next(m for p, m in found.items() if p.endswith("pressure_pa"))
    assert "above the highest pressure of CO2" in gc_msg
    assert f"{pmax / 1e5:.4f} bar" in gc_msg
    assert "below the triple-point pressure" in found["circuits[0].initial_state.pressure_bar"]


def test_a_condenser_that_cannot_reject_the_heat_says_so():
    doc = ua_heat_pump(**{"cond.secondary_mass_flow_kg_s": 1e-4})
    result = solve(doc)
    assert not result.converged
    hint = result.hint or ""
    assert "Condenser 'cond'" in hint
    assert "cannot reject the heat" in hint
    assert "secondary_mass_flow_kg_s 0.0001" in hint
    # the capacity rate in the hint is m cp of water at its inlet (PropsSI)
    cp = CP.PropsSI("C", "T", 303.15, "P", 101325.0, "Water")
    assert f"C = {1e-4 * cp:.3g} W/K" in hint
    assert "initial_state" not in hint


def test_a_huge_number_is_printed_compactly(tmp_path, capsys):
    doc = _set(ua_heat_pump(), COND, secondary_inlet_temp_k=1e308)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(doc))
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "1e+308" in err
    assert "0" * 30 not in err
    assert max(len(line) for line in err.splitlines()) < 500


def test_a_file_with_a_byte_order_mark_is_read(tmp_path, capsys):
    text = json.dumps(textbook_r134a())
    plain, bom = tmp_path / "plain.json", tmp_path / "bom.json"
    plain.write_text(text, encoding="utf-8")
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert main(["solve", str(plain), "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)["summary"]
    assert main(["solve", str(bom), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"] == expected
    # JSON text that starts with the mark, too
    assert load_scenario("\ufeff" + text).name == load_scenario(text).name


def test_the_near_critical_note_of_an_evaporator_does_not_mention_heat_rejection():
    from workbench.components.base import PortVars
    from workbench.components.exchangers.coils.component import Condenser, Evaporator
    from workbench.components.exchangers.zones.profile import near_critical_note
    from workbench.fluids import get_backend

    fluid = get_backend("R134a", "CoolProp")
    p = 0.9 * fluid.p_crit
    assert "GasCooler" in near_critical_note(fluid, p)
    assert "GasCooler" not in near_critical_note(fluid, p, rejects_heat=False)
    assert "evaporat" in near_critical_note(fluid, p, rejects_heat=False)
    ua = {"ua": 500.0, "secondary_inlet_temp_k": 380.0, "secondary_mass_flow_kg_s": 0.5}
    ports = {"inlet": PortVars(0, 1, 2), "outlet": PortVars(0, 3, 4)}
    h_in = fluid.h_liq(0.995 * fluid.p_crit) - 5e3
    x = np.array([0.05, 0.995 * fluid.p_crit, h_in, 0.995 * fluid.p_crit, h_in + 20e3])
    evap = Evaporator("evap", ua, fluid)
    evap.bind(ports)
    (warning,) = evap.warnings(x)
    assert "Evaporator 'evap'" in warning
    assert "GasCooler" not in warning
    cond = Condenser("cond", {**ua, "secondary_inlet_temp_k": 300.0}, fluid)
    cond.bind(ports)
    assert any("GasCooler" in w for w in cond.warnings(x))


# -- a compressor efficiency that puts the discharge beyond the fluid -------------------------


@pytest.mark.parametrize("example", ["heat_pump_v1", "two_evaporators_v2"])
def test_a_tiny_isentropic_efficiency_is_exit_2_naming_the_compressor(example, tmp_path, capsys):
    # a loop and a branching circuit (two evaporators): both starts refuse a discharge
    # enthalpy above the fluid's highest, naming the compressor and its parameter, with no
    # CoolProp text
    with open(f"examples/scenarios/{example}.json") as fh:
        doc = json.load(fh)
    for comp in doc["circuits"][0]["components"]:
        if comp["type"] == "Compressor":
            comp["isentropic_efficiency"] = 1e-9
    path = tmp_path / "tiny_eta.json"
    path.write_text(json.dumps(doc))
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Compressor 'compressor' (circuits[0].components[0])" in err
    assert "isentropic_efficiency = 1e-09" in err
    assert "above the highest R134a reaches" in err
    assert "CoolProp" not in err
    assert "Input [" not in err


def test_a_real_low_efficiency_still_solves():
    # 0.3 is a poor but real compressor: no refusal, and the energy balance holds
    doc = ua_heat_pump()
    doc["circuits"][0]["components"][0]["isentropic_efficiency"] = 0.3
    result = solve(doc)
    assert result.converged, result.message
    comp = result.components["comp"]
    assert comp["isentropic_efficiency"] == pytest.approx(0.3, rel=1e-9)


def test_a_state_beyond_the_fluid_gives_the_physical_reason_before_coolprops():
    from workbench.errors import FluidPropertyError
    from workbench.fluids import get_backend

    fluid = get_backend("R134a", "CoolProp")
    p = 35.5e5
    with pytest.raises(FluidPropertyError) as info:
        fluid.T_ph(p, 5e13)
    message = str(info.value)
    h_max = CP.PropsSI("H", "P", p, "T", CP.PropsSI("TMAX", "R134a"), "R134a")
    assert (
        f"the enthalpy is above the highest R134a reaches at 35.5 bar, {h_max / 1e3:.4g} kJ/kg"
        in message
    )
    assert message.index("the enthalpy is above") < message.index("CoolProp:")
    with pytest.raises(FluidPropertyError, match="above the highest pressure of R134a's equation"):
        fluid.T_ph(1e9, 4e5)


def test_a_jacobian_that_overflows_stops_as_singular_naming_the_entry(monkeypatch):
    # a real system whose condenser's derivative overflows (monkeypatched: no physical case
    # of the examples reaches it): Newton stops with the entry named, LAPACK never sees it
    from workbench.components.exchangers.coils.component import Coil

    original = Coil.jacobian

    def overflowing(self, x, f0, step):
        entries = original(self, x, f0, step)
        if self.name == "cond":
            row, col, _ = entries[-1]
            entries[-1] = (row, col, float("inf"))
        return entries

    monkeypatch.setattr(Coil, "jacobian", overflowing)
    result = solve(ua_heat_pump())
    assert not result.converged
    assert result.stop_reason is StopReason.SINGULAR
    assert "the Jacobian is not finite: d(cond." in result.message
    assert "= inf" in result.message


@pytest.mark.parametrize(
    ("component", "param"),
    [
        ("compressor", "speed_hz"),
        ("compressor", "displacement_m3"),
        ("gas_cooler", "secondary_mass_flow_kg_s"),
    ],
)
def test_a_vanishing_flow_on_the_r744_heat_pump_is_a_result_not_a_crash(
    component, param, tmp_path, capsys
):
    # 1e-9 of speed, displacement or water: the gas cooler's linearised root overflowed
    # (exp of a huge s); now the solve ends with a reason and the CLI with exit 1 or 2
    with open("examples/scenarios/r744_heat_pump_v2.json") as fh:
        doc = json.load(fh)
    for comp in doc["circuits"][0]["components"]:
        if comp["name"] == component:
            comp[param] = 1e-9
    path = tmp_path / "vanishing.json"
    path.write_text(json.dumps(doc))
    code = main(["solve", str(path)])
    out = capsys.readouterr()
    assert code in (1, 2)
    assert "Traceback" not in out.err
    if code == 1:
        assert "NOT converged" in out.out


def test_a_condenser_with_no_conductance_says_so_on_a_blend():
    # R454B split unit with the condenser's ua at 1e-9 W/K: the start stays inside the blend's
    # tables (they end at 342 K, below its critical point; the start once asked for 344.6 K
    # and exited 2 with the tables' range and no component), and the hint names the
    # conductance as the limit
    with open("examples/scenarios/r454b_split_unit_v2.json") as fh:
        doc = json.load(fh)
    for comp in doc["circuits"][0]["components"]:
        if comp["name"] == "condenser":
            comp["ua"] = 1e-9
    result = solve(doc)
    assert not result.converged
    hint = result.hint or ""
    assert "Condenser 'condenser' (conductance 1e-09 W/K" in hint
    assert "cannot reject the heat" in hint
    assert "Raise the conductance (ua)" in hint
