"""Property failures carry the block they came from: no bare CoolProp message reaches a user.

A fluid property call fails with a :class:`~workbench.errors.FluidPropertyError` that names the
fluid, the backend, the operation and its inputs. :func:`with_context` prefixes the block whose
equations asked for it (``Condenser 'cond' (circuits[0].components[1])``, ``controls.sh``), once,
so a solve's message, hint and exceptions say where the state came from.
"""

from __future__ import annotations

from typing import Any

from workbench.errors import FluidPropertyError

__all__ = ["block_label", "with_context"]


def block_label(block: Any) -> str:
    """How messages name a block: type, name and JSON path for a component, else its name."""
    type_name = getattr(block, "type_name", "")
    path = getattr(block, "path", "")
    name = str(getattr(block, "name", block))
    if type_name:
        return f"{type_name} {name!r}" + (f" ({path})" if path and path != name else "")
    return name


def with_context(exc: FluidPropertyError, block: Any) -> FluidPropertyError:
    """``exc`` with the block's label in front (unchanged when it already names it)."""
    label = block_label(block)
    if str(exc).startswith(label):
        return exc
    return FluidPropertyError(f"{label}: {exc}")
