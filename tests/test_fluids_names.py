"""get_backend: names, aliases, defaults and the errors for unknown names."""

from __future__ import annotations

import pytest

from workbench.errors import FluidPropertyError, UnknownFluidError
from workbench.fluids import BACKENDS, available_fluids, get_backend


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
    with pytest.raises(
        UnknownFluidError,
        match=r"unknown fluid 'Unobtainium' for backend CoolProp; valid fluids: .*R134a",
    ):
        get_backend("Unobtainium", "CoolProp")


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
