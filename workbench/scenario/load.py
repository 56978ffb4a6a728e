"""Load a scenario from a file, a JSON string or a dict, and validate it completely.

Errors come in two rounds: first structure (JSON syntax with line and column, types, required
fields, unknown keys, the scenario contract's own ranges), then meaning (catalog parameters, edges,
templates, controls, couplings). Each round reports every problem it finds in one
:class:`~workbench.errors.ScenarioError`.
"""

from __future__ import annotations

import json
import os
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from workbench.errors import ScenarioError, ScenarioIssue
from workbench.scenario.compile import check_scenario, flatten
from workbench.scenario.flat import FlatScenario
from workbench.scenario.limits import check_document_size, check_text_size
from workbench.scenario.models import ScenarioConfig
from workbench.scenario.paths import allowed, format_path, suggest
from workbench.scenario.types import ScenarioLike

__all__ = ["as_flat", "load_flat", "load_scenario", "parse_scenario", "read_json"]


_BOM = "\ufeff"
"""The byte-order mark some editors put before UTF-8 text; JSON text may begin with it."""


def read_json(source: str | Path) -> tuple[Any, str]:
    """Read JSON from a path or a JSON string.

    Parameters
    ----------
    source : str or Path
        A path to a ``.json`` file, or the JSON text itself (a string starting with ``{``).

    Returns
    -------
    data, label : tuple
        The decoded document and a label for messages (the file name or ``<string>``).

    Raises
    ------
    ScenarioError
        The file cannot be read, is larger than
        :data:`~workbench.scenario.limits.MAX_DOCUMENT_BYTES`, or is not valid JSON (the
        message gives line and column).
    """
    if isinstance(source, str) and source.lstrip(_BOM + " \t\r\n").startswith(("{", "[")):
        text, label = source.lstrip(_BOM), "<string>"
        check_text_size(len(source.encode("utf-8", "surrogatepass")), label)
    else:
        path = Path(source)
        label = str(path)
        try:
            check_text_size(path.stat().st_size, label)
            text = path.read_text(encoding="utf-8-sig")  # a byte-order mark is dropped
        except OSError as exc:
            raise ScenarioError(
                [ScenarioIssue("", f"cannot read the file: {exc.strerror or exc}")], label
            ) from exc
        except UnicodeDecodeError as exc:
            raise ScenarioError(
                [ScenarioIssue("", f"the file is not UTF-8 text: {exc.reason}")], label
            ) from exc
    try:
        return json.loads(text), label
    except json.JSONDecodeError as exc:
        issue = ScenarioIssue(
            "", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        )
        raise ScenarioError([issue], label) from exc


def parse_scenario(data: Any, label: str | None = None) -> ScenarioConfig:
    """Build the models from decoded JSON, checking structure only.

    Raises
    ------
    ScenarioError
        Every structural problem, each with its JSON path; a document beyond the size limits
        (:mod:`workbench.scenario.limits`) is refused before its models are built.
    """
    if not isinstance(data, Mapping):
        kind = type(data).__name__
        raise ScenarioError(
            [ScenarioIssue("", f"a scenario must be a JSON object, got {kind}")], label
        )
    check_document_size(data, label)
    try:
        return ScenarioConfig.model_validate(dict(data))
    except ValidationError as exc:
        raise ScenarioError([_issue(err) for err in exc.errors()], label) from exc


def load_scenario(source: str | Path | Mapping[str, Any]) -> ScenarioConfig:
    """Load and fully validate a scenario.

    Parameters
    ----------
    source : str, Path or dict
        A file path, a JSON string, or an already decoded document.

    Returns
    -------
    ScenarioConfig
        The scenario as written (templates not yet expanded; see :func:`flatten`).

    Raises
    ------
    ScenarioError
        Every problem found, each with its JSON path, what is wrong and what is allowed.
    """
    return _load_checked(source)[0]


def load_flat(source: str | Path | Mapping[str, Any]) -> FlatScenario:
    """Load, validate and flatten in one pass (what the solver needs).

    Same checks and errors as :func:`load_scenario` followed by :func:`flatten`, with the
    semantic checks run once instead of twice.
    """
    return _load_checked(source)[1]


def as_flat(scenario: ScenarioLike) -> FlatScenario:
    """The flat scenario of any form a public entry point accepts.

    A :class:`FlatScenario` is returned as it is, a :class:`ScenarioConfig` is flattened, and
    a mapping, JSON string or path is loaded, checked and flattened in one pass.

    Raises
    ------
    ScenarioError
        The document is invalid (every problem, with its JSON path).
    """
    if isinstance(scenario, FlatScenario):
        return scenario
    if isinstance(scenario, ScenarioConfig):
        return flatten(scenario)
    if isinstance(scenario, os.PathLike):
        return load_flat(Path(scenario))
    return load_flat(scenario)


def _load_checked(source: str | Path | Mapping[str, Any]) -> tuple[ScenarioConfig, FlatScenario]:
    """Read, parse and check a document once; raise ScenarioError with every issue."""
    if isinstance(source, Mapping):
        data, label = source, None
    else:
        data, label = read_json(source)
    scenario = parse_scenario(data, label)
    flat, issues = check_scenario(scenario)
    if issues:
        raise ScenarioError(issues, label)
    return scenario, flat


def _short(value: Any) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, BaseModel) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _issue(err: Any) -> ScenarioIssue:
    """Turn one pydantic error into a ScenarioIssue with a JSON path and what is allowed."""
    loc = tuple(err["loc"])
    path = format_path(loc)
    kind = err["type"]
    if kind == "missing":
        return ScenarioIssue(path, f"required field '{loc[-1]}' is missing")
    if kind == "extra_forbidden":
        model = _model_at(loc[:-1])
        name = str(loc[-1])
        if model is None:
            return ScenarioIssue(path, f"unknown key '{name}'")
        fields = [f.alias or n for n, f in model.model_fields.items()]
        return ScenarioIssue(
            path,
            f"unknown key '{name}'{suggest(name, fields)}; allowed keys: {allowed(fields)}",
        )
    message = err["msg"]
    if "input" in err and kind not in ("model_type", "dict_type", "list_type"):
        message = f"{message}, got {_short(err['input'])}"
        if kind == "literal_error" and isinstance(err["input"], int | float):
            message += f' (write it as a string: "{err["input"]}")'

    elif kind in ("model_type", "dict_type"):
        message = "expected a JSON object"
    elif kind == "list_type":
        message = "expected a JSON array"
    return ScenarioIssue(path, message)


def _model_at(loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model class that validates the object at ``loc`` (None when not a model)."""
    annotation: Any = ScenarioConfig
    for part in loc:
        annotation = _unwrap(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(str(part))
            if field is None:
                field = next((f for f in annotation.model_fields.values() if f.alias == part), None)
            if field is None:
                return None
            annotation = field.annotation
        else:
            origin = typing.get_origin(annotation)
            args = typing.get_args(annotation)
            if origin is list and args:
                annotation = args[0]
            elif origin is dict and len(args) == 2:
                annotation = args[1]
            else:
                return None
    annotation = _unwrap(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _unwrap(annotation: Any) -> Any:
    """Strip ``X | None`` down to ``X``."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation
