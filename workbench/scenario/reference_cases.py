"""Reference scenarios as users write them (plain dicts): tests, benchmarks and docs share them.

- :func:`textbook_r134a`: the R-134a cycle of the textbooks between 0.14 and 0.8 MPa at
  0.05 kg/s with ideal-mode heat exchangers (saturation temperatures from CoolProp).
- :func:`ua_heat_pump`: an air-to-water heat pump with UA-mode coils, a displacement
  compressor and an ideal valve.
- :func:`split_unit_r410a`: an R410A split air conditioner, UA-mode coils against outdoor and
  indoor air, a fixed superheat or a superheat control loop on an orifice valve.
- :func:`water_heat_pump`: an R134a water-to-water heat pump with UA-mode coils and a fixed
  refrigerant mass flow (the case TESPy is compared on in ``benchmarks/bench_solver.py``).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "loop_edges",
    "split_unit_r410a",
    "textbook_r134a",
    "two_stage_flash_r134a",
    "ua_heat_pump",
    "water_heat_pump",
]


def loop_edges(*names: str) -> list[dict[str, str]]:
    """Edges closing a loop through ``names`` (outlet of each to inlet of the next)."""
    return [
        {"from": f"{a}:outlet", "to": f"{b}:inlet"} for a, b in zip(names, names[1:] + names[:1])
    ]


def textbook_r134a(
    eta_s: float = 1.0,
    superheat_k: float = 0.0,
    subcooling_k: float = 0.0,
    backend: str = "CoolProp",
    strategy: str = "fallback",
) -> dict[str, Any]:
    """R-134a cycle between 0.14 MPa and 0.8 MPa at 0.05 kg/s (ideal-mode heat exchangers).

    Parameters
    ----------
    eta_s : float
        Isentropic efficiency of the compressor [-].
    superheat_k, subcooling_k : float
        Evaporator outlet superheat and condenser outlet subcooling [K].
    backend : str
        ``fluid_backend`` of the scenario (``CoolProp`` or ``Test``).
    strategy : str
        ``solver.strategy``.
    """
    from CoolProp.CoolProp import PropsSI

    t_evap = PropsSI("T", "P", 0.14e6, "Q", 1, "R134a")
    t_cond = PropsSI("T", "P", 0.8e6, "Q", 1, "R134a")
    return {
        "name": "textbook R-134a",
        "fluid": "R134a",
        "fluid_backend": backend,
        "circuits": [
            {
                "components": [
                    {
                        "name": "comp",
                        "type": "Compressor",
                        "mass_flow_kg_s": 0.05,
                        "isentropic_efficiency": eta_s,
                    },
                    {
                        "name": "cond",
                        "type": "Condenser",
                        "t_cond_k": t_cond,
                        "subcooling_k": subcooling_k,
                    },
                    {"name": "valve", "type": "ExpansionValve"},
                    {
                        "name": "evap",
                        "type": "Evaporator",
                        "t_evap_k": t_evap,
                        "superheat_k": superheat_k,
                    },
                ],
                "edges": loop_edges("comp", "cond", "valve", "evap"),
            }
        ],
        "solver": {"strategy": strategy},
    }


def ua_heat_pump(backend: str = "CoolProp", **overrides: Any) -> dict[str, Any]:
    """Air-to-water heat pump with UA-mode coils, displacement compressor and ideal valve.

    Parameters
    ----------
    backend : str
        ``fluid_backend`` of the scenario.
    **overrides
        ``"<component>.<parameter>": value`` for ``comp``, ``cond`` or ``evap``, e.g.
        ``ua_heat_pump(**{"evap.fan_speed": 0.7})``.
    """
    evap = {
        "name": "evap",
        "type": "Evaporator",
        "ua_nominal_kw_k": 1.2,
        "air_inlet_temp_c": 7.0,
        "secondary_mass_flow_kg_s": 0.8,
        "fan_speed": 1.0,
        "superheat_k": 5.0,
    }
    cond = {
        "name": "cond",
        "type": "Condenser",
        "ua": 1500.0,
        "secondary_fluid": "water",
        "secondary_inlet_temp_k": 303.15,
        "secondary_mass_flow_kg_s": 0.25,
        "subcooling_k": 3.0,
    }
    comp = {
        "name": "comp",
        "type": "Compressor",
        "displacement_m3": 3.0e-5,
        "speed_hz": 50.0,
        "volumetric_efficiency": 0.9,
        "isentropic_efficiency": 0.7,
    }
    for key, value in overrides.items():
        target = {"evap": evap, "cond": cond, "comp": comp}[key.split(".")[0]]
        target[key.split(".", 1)[1]] = value
    return {
        "name": "UA heat pump",
        "fluid": "R134a",
        "fluid_backend": backend,
        "circuits": [
            {
                "components": [comp, cond, {"name": "valve", "type": "ExpansionValve"}, evap],
                "edges": loop_edges("comp", "cond", "valve", "evap"),
            }
        ],
    }


def two_stage_flash_r134a(
    mass_flow_kg_s: float = 0.25,
    flash_pressure_pa: float | None = 0.32e6,
    backend: str = "CoolProp",
    strategy: str = "fallback",
) -> dict[str, Any]:
    """Two-stage R-134a cycle with a flash chamber: 0.8 / 0.32 / 0.14 MPa, isentropic, saturated.

    The textbook two-stage cycle: saturated liquid leaves the condenser at 0.8 MPa and is
    throttled into a flash chamber at 0.32 MPa; its saturated vapour joins the low-stage
    compressor's discharge in a mixer before the high-stage compressor, its saturated liquid
    is throttled to the evaporator at 0.14 MPa, which it leaves as saturated vapour. Both
    compressors are isentropic; the high stage (the condenser) carries ``mass_flow_kg_s``.

    Parameters
    ----------
    mass_flow_kg_s : float
        Mass flow of the high stage (through the condenser) [kg/s].
    flash_pressure_pa : float or None
        Flash chamber pressure [Pa]; None leaves it free (then give both compressors a flow).
    backend : str
        ``fluid_backend`` of the scenario.
    strategy : str
        ``solver.strategy``.
    """
    from CoolProp.CoolProp import PropsSI

    flash: dict[str, Any] = {"name": "flash", "type": "FlashTank"}
    if flash_pressure_pa is not None:
        flash["pressure_pa"] = flash_pressure_pa
    return {
        "name": "two-stage R-134a with flash chamber",
        "schema_version": "2",
        "fluid": "R134a",
        "fluid_backend": backend,
        "circuits": [
            {
                "components": [
                    {"name": "comp_lo", "type": "Compressor", "isentropic_efficiency": 1.0},
                    {"name": "mixer", "type": "Mixer"},
                    {
                        "name": "comp_hi",
                        "type": "Compressor",
                        "isentropic_efficiency": 1.0,
                        "mass_flow_kg_s": mass_flow_kg_s,
                    },
                    {
                        "name": "cond",
                        "type": "Condenser",
                        "t_cond_k": PropsSI("T", "P", 0.8e6, "Q", 0, "R134a"),
                        "subcooling_k": 0.0,
                    },
                    {"name": "valve_hi", "type": "ExpansionValve"},
                    flash,
                    {"name": "valve_lo", "type": "ExpansionValve"},
                    {
                        "name": "evap",
                        "type": "Evaporator",
                        "t_evap_k": PropsSI("T", "P", 0.14e6, "Q", 1, "R134a"),
                        "superheat_k": 0.0,
                    },
                ],
                "edges": [
                    {"from": "evap:outlet", "to": "comp_lo:inlet"},
                    {"from": "comp_lo:outlet", "to": "mixer:inlet_1"},
                    {"from": "flash:vapour_outlet", "to": "mixer:inlet_2"},
                    {"from": "mixer:outlet", "to": "comp_hi:inlet"},
                    {"from": "comp_hi:outlet", "to": "cond:inlet"},
                    {"from": "cond:outlet", "to": "valve_hi:inlet"},
                    {"from": "valve_hi:outlet", "to": "flash:inlet"},
                    {"from": "flash:liquid_outlet", "to": "valve_lo:inlet"},
                    {"from": "valve_lo:outlet", "to": "evap:inlet"},
                ],
            }
        ],
        "solver": {"strategy": strategy},
    }


def _apply(overrides: dict[str, Any], comps: dict[str, dict[str, Any]]) -> None:
    for key, value in overrides.items():
        name, param = key.split(".", 1)
        comps[name][param] = value


def split_unit_r410a(
    superheat_loop: bool = False, backend: str = "CoolProp", **overrides: Any
) -> dict[str, Any]:
    """R410A split air conditioner with UA-mode coils against outdoor and indoor air.

    Displacement compressor (20 cm3, 50 Hz), condenser 700 W/K against 0.9 kg/s of 35 C air
    with 3 K subcooling, evaporator 500 W/K against 0.45 kg/s of 27 C air. The evaporator
    outlet has 5 K superheat, fixed (an ideal valve) or held by a control loop on an orifice
    valve's ``z_flow`` (``superheat_loop=True``, smooth clamp 0.2..5).

    Parameters
    ----------
    superheat_loop : bool
        Hold the superheat with a control loop instead of a fixed spec.
    backend : str
        ``fluid_backend`` of the scenario.
    **overrides
        ``"<component>.<parameter>": value`` for ``comp``, ``cond``, ``valve`` or ``evap``.
    """
    comps: dict[str, dict[str, Any]] = {
        "comp": {
            "name": "comp",
            "type": "Compressor",
            "displacement_m3": 2.0e-5,
            "speed_hz": 50.0,
            "volumetric_efficiency": 0.9,
            "isentropic_efficiency": 0.7,
        },
        "cond": {
            "name": "cond",
            "type": "Condenser",
            "ua": 700.0,
            "air_inlet_temp_c": 35.0,
            "secondary_mass_flow_kg_s": 0.9,
            "subcooling_k": 3.0,
        },
        "valve": {"name": "valve", "type": "ExpansionValve"},
        "evap": {
            "name": "evap",
            "type": "Evaporator",
            "ua": 500.0,
            "air_inlet_temp_c": 27.0,
            "secondary_mass_flow_kg_s": 0.45,
            "superheat_k": 5.0,
        },
    }
    doc: dict[str, Any] = {
        "schema_version": "2",
        "name": "R410A split unit" + (" with a superheat loop" if superheat_loop else ""),
        "fluid": "R410A",
        "fluid_backend": backend,
    }
    if superheat_loop:
        del comps["evap"]["superheat_k"]
        comps["valve"]["flow_coefficient_m2"] = 6.0e-7
        doc["controls"] = [
            {
                "id": "superheat",
                "measure": {"component": "evap", "output": "superheat"},
                "actuator": {
                    "component": "valve",
                    "factor": "z_flow",
                    "min": 0.2,
                    "max": 5.0,
                    "initial": 1.0,
                },
                "target": 5.0,
                "gain": -1.0,
                "band": 1.0,
                "smooth_eps": 0.001,
            }
        ]
    _apply(overrides, comps)
    doc["circuits"] = [
        {
            "components": [comps["comp"], comps["cond"], comps["valve"], comps["evap"]],
            "edges": loop_edges("comp", "cond", "valve", "evap"),
        }
    ]
    return doc


def water_heat_pump(backend: str = "CoolProp", **overrides: Any) -> dict[str, Any]:
    """R134a water-to-water heat pump with UA-mode coils and a fixed refrigerant mass flow.

    Compressor 0.05 kg/s at an isentropic efficiency of 0.75; condenser 2000 W/K against
    0.4 kg/s of water entering at 30 C, 3 K subcooling; evaporator 2500 W/K against 0.5 kg/s of
    water entering at 12 C, 5 K superheat; ideal valve.

    Parameters
    ----------
    backend : str
        ``fluid_backend`` of the scenario.
    **overrides
        ``"<component>.<parameter>": value`` for ``comp``, ``cond``, ``valve`` or ``evap``.
    """
    comps: dict[str, dict[str, Any]] = {
        "comp": {
            "name": "comp",
            "type": "Compressor",
            "mass_flow_kg_s": 0.05,
            "isentropic_efficiency": 0.75,
        },
        "cond": {
            "name": "cond",
            "type": "Condenser",
            "ua": 2000.0,
            "secondary_fluid": "water",
            "secondary_inlet_temp_k": 303.15,
            "secondary_mass_flow_kg_s": 0.4,
            "subcooling_k": 3.0,
        },
        "valve": {"name": "valve", "type": "ExpansionValve"},
        "evap": {
            "name": "evap",
            "type": "Evaporator",
            "ua": 2500.0,
            "secondary_fluid": "water",
            "secondary_inlet_temp_k": 285.15,
            "secondary_mass_flow_kg_s": 0.5,
            "superheat_k": 5.0,
        },
    }
    _apply(overrides, comps)
    return {
        "name": "water-to-water heat pump",
        "fluid": "R134a",
        "fluid_backend": backend,
        "circuits": [
            {
                "components": [comps["comp"], comps["cond"], comps["valve"], comps["evap"]],
                "edges": loop_edges("comp", "cond", "valve", "evap"),
            }
        ],
    }
