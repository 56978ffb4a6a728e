"""get_backend: names, aliases, defaults and the errors for unknown names."""

from __future__ import annotations

import pytest

from workbench.errors import FluidPropertyError, UnknownFluidError
from workbench.fluids import BACKENDS, available_fluids, get_backend
from workbench.fluids.names import closest_fluid_names, resolve_fluid, unknown_fluid_message


def test_names_default_backend_is_test():
    b = get_backend("R134a", None)
    assert (b.name, b.backend_name) == ("R134a", "Test")
    assert get_backend("R134a") is not b  # every call makes a backend of the caller's own


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [
        ("R744", "CO2"),
        ("r-134a", "R134a"),
        ("R 32", "R32"),
        ("propane", "R290"),
        ("R718", "Water"),
        ("water", "Water"),
        ("r410a", "R410A"),
    ],
)
@pytest.mark.parametrize("backend", ["Test", "CoolProp"])
def test_names_aliases_resolve(alias, canonical, backend):
    assert get_backend(alias, backend).name == canonical


def test_names_backend_is_case_insensitive_and_listed():
    assert BACKENDS == ("Test", "CoolProp")
    assert get_backend("R32", "coolprop").backend_name == "CoolProp"
    assert get_backend("R32", "TEST").backend_name == "Test"


def test_names_unknown_backend_lists_backends():
    with pytest.raises(
        UnknownFluidError, match=r"unknown fluid_backend 'REFPROP'; valid backends: Test, CoolProp"
    ):
        get_backend("R134a", "REFPROP")


def test_names_unknown_fluid_lists_valid_names():
    with pytest.raises(UnknownFluidError) as info:
        get_backend("R9999")
    message = str(info.value)
    assert "unknown fluid 'R9999' for backend Test" in message
    for name in available_fluids("Test"):
        assert name in message
    assert "R744=CO2" in message
    assert isinstance(info.value, FluidPropertyError)


def test_names_coolprop_only_fluid_hints_at_coolprop():
    with pytest.raises(UnknownFluidError, match="need fluid_backend 'CoolProp'"):
        get_backend("R1234yf")
    assert get_backend("R1234yf", "CoolProp").name == "R1234yf"
    with pytest.raises(UnknownFluidError) as info:
        get_backend("R41OA", "CoolProp")
    message = str(info.value)
    assert message.startswith("unknown fluid 'R41OA' for backend CoolProp; did you mean R410A")
    assert "available_fluids('CoolProp')" in message
    assert len(message) < 200  # the closest names, never all ~120
    assert "R134a" not in message


@pytest.mark.parametrize(
    ("typed", "backend", "first"),
    [
        ("R41OA", "CoolProp", "R410A"),
        ("R404", "CoolProp", "R404A"),
        ("r-407", "CoolProp", "R407C"),
        ("amonia", "CoolProp", "Ammonia"),
        ("propan", "CoolProp", "R290"),  # through the alias PROPANE
        ("R744x", "Test", "CO2"),
        ("R32a", "Test", "R32"),
    ],
)
def test_names_closest_fluid_names_put_the_likely_one_first(typed, backend, first):
    close = closest_fluid_names(typed, backend)
    assert close[0] == first
    assert 1 <= len(close) <= 3
    # every suggestion is a name the backend takes (a pure fluid, or a blend on CoolProp)
    assert [resolve_fluid(name, backend) for name in close] == close


def test_names_a_blend_number_typed_in_part_suggests_its_blends():
    assert closest_fluid_names("R454", "CoolProp") == ["R454A", "R454B", "R454C"]


def test_names_closest_fluid_names_is_empty_for_nonsense():
    assert closest_fluid_names("NotARefrigerant", "CoolProp") == []
    assert closest_fluid_names("", "Test") == []
    message = unknown_fluid_message("NotARefrigerant", "CoolProp")
    assert "did you mean" not in message
    assert len(message) < 200


def test_an_unknown_refrigerant_number_suggests_the_common_refrigerants_not_all():
    message = unknown_fluid_message("R999x", "CoolProp")
    assert "did you mean one of the common refrigerants R134a, R32, R410A" in message
    assert len(message) < 250
    assert "R1233zd" not in message


def test_names_available_fluids():
    assert available_fluids() == ["CO2", "R134a", "R290", "R32", "R410A", "Water"]
    coolprop = available_fluids("CoolProp")
    assert set(available_fluids()) <= set(coolprop)
    assert len(coolprop) > 100


def test_names_every_backend_is_private():
    a = get_backend("R134a", "CoolProp")
    b = get_backend("R134a", "CoolProp")
    assert a is not b
    a.T_ph(3e5, 4.2e5)
    assert b.stats.calls == 0


def test_names_tabular_ignored_for_test_backend():
    assert get_backend("R134a", "Test", tabular=True).backend_name == "Test"


def test_names_scenario_validation_names_the_closest_fluids():
    import json

    from workbench.errors import ScenarioError
    from workbench.scenario import flatten, load_scenario

    with open("examples/scenarios/heat_pump_v1.json", encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["fluid"] = "R41OA"
    with pytest.raises(ScenarioError) as info:
        flatten(load_scenario(doc))
    (issue,) = info.value.issues
    assert issue.path == "fluid"
    assert "did you mean R410A" in issue.message
    assert len(issue.message) < 200
    doc["fluid"], doc["fluid_backend"] = "R410A", "Refprop"
    with pytest.raises(ScenarioError) as info:
        flatten(load_scenario(doc))
    assert [i.path for i in info.value.issues] == ["fluid_backend"]
