"""JSON paths for error messages (``circuits[0].components[2].fan_speed``) and name hints."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence

__all__ = ["allowed", "format_path", "item", "key", "suggest"]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")


def key(path: str, name: str) -> str:
    """Path of member ``name`` of the object at ``path``."""
    part = name if _IDENT.match(name) else f"[{name!r}]".replace("'", '"')
    if part.startswith("["):
        return f"{path}{part}"
    return f"{path}.{part}" if path else part


def item(path: str, index: int) -> str:
    """Path of element ``index`` of the array at ``path``."""
    return f"{path}[{index}]"


def format_path(loc: Sequence[str | int]) -> str:
    """Turn a pydantic error location into a JSON path."""
    path = ""
    for part in loc:
        path = item(path, part) if isinstance(part, int) else key(path, str(part))
    return path


def suggest(name: str, candidates: Iterable[str]) -> str:
    """Return ``" (did you mean 'x'?)"`` for the closest candidate, or ``""``."""
    match = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{match[0]}'?)" if match else ""


def allowed(candidates: Iterable[str]) -> str:
    """Comma-separated list of allowed names (``"none"`` when empty)."""
    names = list(candidates)
    return ", ".join(names) if names else "none"
