"""The variant hook: a component type's model chosen by its ``geometry.kind``."""

from __future__ import annotations

import pytest

from workbench.components.base import COMPONENT_VARIANTS, geometry_problems, model_class
from workbench.components.exchangers.coils.component import Evaporator
from workbench.errors import SpecificationError


def test_without_geometry_the_type_model() -> None:
    assert model_class("Evaporator", {"ua": 500.0}) is Evaporator


def test_unknown_kind_names_the_path_and_the_known_kinds() -> None:
    with pytest.raises(SpecificationError, match=r"circuits\[0\].*geometry\.kind.*'bogus'"):
        model_class("Evaporator", {"geometry": {"kind": "bogus"}}, "circuits[0].components[1]")
    problems = geometry_problems("Evaporator", {"kind": "bogus"})
    assert problems
    assert problems[0][0] == ".kind"


def test_geometry_without_kind_is_refused() -> None:
    assert geometry_problems("Condenser", {"tubes_per_bank": 4})[0][0] == ""
    with pytest.raises(SpecificationError, match="kind"):
        model_class("Condenser", {"geometry": [1, 2]})


def test_registered_variant_is_chosen() -> None:
    from workbench.components.base import register_variant

    @register_variant("Evaporator", "test_kind")
    class TestEvaporator(Evaporator):
        pass

    try:
        assert model_class("Evaporator", {"geometry": {"kind": "test_kind"}}) is TestEvaporator
        assert geometry_problems("Evaporator", {"kind": "test_kind"}) == []
    finally:
        del COMPONENT_VARIANTS[("Evaporator", "test_kind")]
