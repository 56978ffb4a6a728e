"""Small name helpers shared by flattening and validation.

``$name`` template parameter references, legacy calibration factor names (``f_`` -> ``z_``),
``<component>:<port>`` endpoints and paths of template elements seen through an instance.
"""

from __future__ import annotations

import re
from typing import Any

from workbench.components.catalog.specs import CALIBRATION_FACTORS, normalise_factor
from workbench.scenario.models import PARAM_REF_PATTERN

__all__ = [
    "instance_path",
    "is_param_ref",
    "normal_param_name",
    "normalise_params",
    "split_endpoint",
]

_REF = re.compile(PARAM_REF_PATTERN)


def is_param_ref(value: Any) -> bool:
    """True when ``value`` is a ``"$name"`` template parameter reference."""
    return isinstance(value, str) and bool(_REF.match(value))


def normal_param_name(name: str) -> str:
    """``f_flow`` -> ``z_flow`` for the calibration factors; any other name unchanged."""
    new = normalise_factor(name)
    return new if new in CALIBRATION_FACTORS else name


def normalise_params(params: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Rename legacy calibration factor keys ``f_x`` to ``z_x``.

    Returns
    -------
    params, clashes : tuple
        The renamed parameters (order kept) and the ``(legacy, z_name)`` pairs given both ways.
    """
    out: dict[str, Any] = {}
    clashes: list[tuple[str, str]] = []
    for name, value in params.items():
        new = normal_param_name(name)
        if new in out:
            clashes.append((name, new))
            continue
        out[new] = value
    return out, clashes


def split_endpoint(endpoint: str) -> tuple[str, str] | None:
    """Split ``<component>:<port>``; None when the shape is wrong."""
    parts = endpoint.split(":")
    if len(parts) != 2 or not parts[0] or not parts[1]:
        return None
    return parts[0], parts[1]


def instance_path(index: int, name: str, template_path: str) -> str:
    """Path of a template element as seen through an instance."""
    return f"instances[{index}] ({name}) -> {template_path}"
