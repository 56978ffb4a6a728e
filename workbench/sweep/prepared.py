"""One prepared system per worker: swept values are set on it, nothing is rebuilt per case.

A sweep's cases differ only in values (a component parameter, a control loop's target, gain,
band or smoothing, a UA coupling's ``ua`` or efficiency, a solver setting), never in structure, so a worker builds the system of the
base scenario once (:func:`workbench.solver.prepare`: components, topology, unknowns, a fluid
backend of its own) and solves every case on it: :func:`apply_values` sets the case's values on
the models, and the solve is warm-started from the neighbouring case. Building costs about as
much as a cold solve of a small cycle, and the backend's memo of states carries from case to
case.

The prepared system lives in a per-thread cache (:func:`prepared_for`), keyed by the base
document: a worker process (local or Dask) that runs several chunks of one sweep builds it
once, and threads of one process never share one (a system and its backend are used by one
thread at a time, so no lock is needed). Before each chunk the values an earlier chunk set are
put back (:meth:`Prepared.restore`), so a cached system always starts from the base document.

A value is set by rerunning the model's ``configure`` (which derives its mode and constants
from its parameters) and putting back what building the system set on it after that (a
junction's ports, a coupled coil's role; :func:`_assembled`).

Values are checked once per path and value (:meth:`Prepared.check`): the base document with
that one value set goes through the scenario checks, and a bad value fails only the rows that
use it, with the checks' message. A value whose check passes but whose model changes its
equations (a parameter that switches a mode) is not set: the case is solved from its own
document instead (:func:`workbench.sweep.runner.solve_case`).
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
from dataclasses import dataclass, field
from typing import Any

from workbench.errors import WorkbenchError
from workbench.solver import prepare
from workbench.solver.charge.block import CircuitCharge
from workbench.solver.controls import ControlLoop
from workbench.solver.couplings import ThermalCoupling
from workbench.solver.system import System
from workbench.sweep.paths import (
    COUPLING_FIELDS,
    SweepPath,
    case_document,
    coupling_value,
    param_value,
    plain_value,
    with_param,
)

__all__ = [
    "MAX_CACHED",
    "Prepared",
    "StructureChanged",
    "apply_values",
    "current_value",
    "prepared_for",
]

MAX_CACHED = 4
"""Prepared systems each thread keeps (distinct base documents); the oldest goes first."""


class StructureChanged(WorkbenchError):
    """A swept value changed a model's equations: the case needs a system of its own."""


_MISSING = object()


@dataclass
class Prepared:
    """A prepared system of one base document and what the current chunk changed on it.

    Attributes
    ----------
    base : dict
        The flat base document (``FlatScenario.to_dict()``).
    system : System
        The system built from it, owning its fluid backend.
    originals : dict
        ``(kind, owner, key)`` -> the base value of everything a case has set (restored
        before the next chunk).
    verdicts : dict
        ``(path, value)`` -> None (the value passes the scenario checks) or the message.
    """

    base: dict[str, Any]
    system: System
    originals: dict[tuple[str, str, str], Any] = field(default_factory=dict)
    verdicts: dict[tuple[str, str], str | None] = field(default_factory=dict)

    def check(self, specs: list[SweepPath], values: tuple[Any, ...]) -> str | None:
        """None when each value passes the scenario checks, else the first message."""
        from workbench.scenario import load_scenario

        for spec, value in zip(specs, values):
            key = (spec.path, repr(plain_value(value, spec.integer)))
            if key not in self.verdicts:
                try:
                    load_scenario(case_document(self.base, [spec], (value,)))
                    self.verdicts[key] = None
                except Exception as exc:  # the message goes into the row
                    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
                    self.verdicts[key] = f"{type(exc).__name__}: {'; '.join(lines)}"
            verdict = self.verdicts[key]
            if verdict is not None:
                return verdict
        return None

    def apply(self, specs: list[SweepPath], values: tuple[Any, ...]) -> None:
        """Set the case's values on the system (see :func:`apply_values`)."""
        apply_values(self.system, specs, values, self.originals)

    def restore(self) -> None:
        """Put back every value a case has set since the system was built or last restored."""
        for (kind, owner, key), value in list(self.originals.items()):
            _set(self.system, kind, owner, key, value)
        self.originals.clear()


def apply_values(
    system: System,
    specs: list[SweepPath],
    values: tuple[Any, ...],
    originals: dict[tuple[str, str, str], Any] | None = None,
) -> None:
    """Set each path's value on ``system`` (recording base values into ``originals``).

    Raises
    ------
    StructureChanged
        A component's equations differ after the value is set (the value is taken back).
    """
    for spec, value in zip(specs, values):
        value = plain_value(value, spec.integer)
        slot = (spec.kind, spec.owner, spec.key)
        previous = _get(system, *slot)
        if originals is not None and slot not in originals:
            originals[slot] = previous
        _set(system, *slot, value)


def current_value(system: System, spec: SweepPath) -> Any:
    """The value ``spec`` has on ``system`` now (None when a component parameter is unset)."""
    value = _get(system, spec.kind, spec.owner, spec.key)
    return None if value is _MISSING else value


def _get(system: System, kind: str, owner: str, key: str) -> Any:
    if kind == "component":
        return param_value(system.components[owner].given, key, _MISSING)
    if kind == "control":
        return getattr(_loop(system, owner).config, key)
    if kind == "circuit":
        return system.flat.charge_kg.get(system.flat.circuits[int(owner)], _MISSING)
    if kind == "coupling":
        value = coupling_value(system.flat, SweepPath("", kind, owner, key))
        return _MISSING if value is None else value
    return getattr(system.flat.solver, key)


def _set(system: System, kind: str, owner: str, key: str, value: Any) -> None:
    if kind == "component":
        comp = system.components[owner]
        before = [eq.name for eq in comp.equations()]
        old_given = param_value(comp.given, key, _MISSING)
        old_param = param_value(comp.params, key, _MISSING)
        kept = {name: getattr(comp, name) for name in _assembled(comp)}
        _put(comp.given, key, value)
        _put(comp.params, key, value if value is not _MISSING else _default(comp, key))
        try:
            _reconfigure(comp, kept)
            changed = [eq.name for eq in comp.equations()] != before
        except WorkbenchError:  # the model refuses the combination: its own document says why
            changed = True
        if changed:
            _put(comp.given, key, old_given)
            _put(comp.params, key, old_param)
            _reconfigure(comp, kept)
            raise StructureChanged(f"{owner}.{key} = {value!r} changes the equations of {owner}")
        return
    if kind == "control":
        loop = _loop(system, owner)
        loop.config = loop.config.model_copy(update={key: value})
        loop.eps = loop.config.smooth_eps
        return
    if kind == "circuit":
        _set_charge(system, system.flat.circuits[int(owner)], value)
        return
    if kind == "coupling":
        _set_coupling(system, int(owner), key, value)
        return
    system.flat.solver = system.flat.solver.model_copy(update={key: value})


def _set_charge(system: System, circuit: int, value: Any) -> None:
    """Set the fixed charge of ``circuit`` on its charge block (a structure change without one)."""
    blocks = [b for b in system.blocks if isinstance(b, CircuitCharge) and b.circuit == circuit]
    if not blocks or value is _MISSING or value is None:
        raise StructureChanged(f"circuit {circuit}: charge_kg = {value!r} changes the equations")
    blocks[0].charge_kg = float(value)
    system.flat.charge_kg[circuit] = float(value)


def _set_coupling(system: System, index: int, key: str, value: Any) -> None:
    """Set a coupling's field or geometry entry on its block (``_MISSING`` removes an entry)."""
    if _same(_get(system, "coupling", str(index), key), value):
        return
    block = next(b for b in system.blocks if isinstance(b, ThermalCoupling) and b.index == index)
    if key in COUPLING_FIELDS:
        update = {key: None if value is _MISSING else value}
    else:
        geometry = copy.deepcopy(block.config.geometry or {})
        node = geometry
        *parents, last = key.split(".")[1:]
        for part in parents:
            node = node.setdefault(part, {})
        if value is _MISSING:
            node.pop(last, None)
        else:
            node[last] = value
        update = {"geometry": geometry}
    config = block.config.model_copy(update=update)
    try:
        block.reconfigure(config)
    except WorkbenchError as exc:
        raise StructureChanged(f"thermal_couplings[{index}].{key} = {value!r}: {exc}") from None
    system.flat.thermal_couplings[index] = config


_BASE = frozenset(("name", "path", "fluid", "spec", "given", "params", "ports", "factor_sources"))
"""Attributes :class:`~workbench.components.base.Component` sets before ``configure``."""


def _same(a: Any, b: Any) -> bool:
    try:
        return a is b or bool(a == b)
    except (ValueError, TypeError):  # arrays and the like: compared as different
        return False


def _assembled(comp: Any) -> list[str]:
    """What building the system set on ``comp`` after its ``configure``: kept when it reruns.

    ``configure`` derives a model's mode from its parameters, and may reset attributes that
    binding and the system set later (a junction's inlets and outlets and its share of the mass
    balances, a coil's thermal coupling). Those are the attributes whose values differ from a
    fresh, unbound model of the same parameters (computed once per component); caches
    (``*_cache``) are left to ``configure``, everything else is taken from it.
    """
    names: list[str] | None = getattr(comp, "_sweep_assembled", None)
    if names is None:
        fresh = type(comp)(comp.name, dict(comp.given), comp.fluid, comp.path)
        reference = vars(fresh)
        names = [
            name
            for name, value in vars(comp).items()
            if name not in _BASE
            and not name.endswith("_cache")
            and (name not in reference or not _same(value, reference[name]))
        ]
        comp._sweep_assembled = names
    return names


def _reconfigure(comp: Any, kept: dict[str, Any]) -> None:
    """Rerun ``configure`` on a built model and put back what building it set.

    The caches (the ``*_cache`` attributes) start empty.
    """
    for name in [n for n in vars(comp) if n.endswith("_cache")]:
        setattr(comp, name, None)
    comp.configure()
    for name, value in kept.items():
        setattr(comp, name, value)


def _put(mapping: dict[str, Any], key: str, value: Any) -> None:
    with_param(mapping, key, value, _MISSING)


def _default(comp: Any, key: str) -> Any:
    param = comp.spec.param(key)
    return _MISSING if param is None or param.default is None else param.default


def _loop(system: System, control_id: str) -> ControlLoop:
    for block in system.blocks:
        if isinstance(block, ControlLoop) and block.config.id == control_id:
            return block
    raise KeyError(control_id)


_LOCAL = threading.local()


def prepared_for(base: dict[str, Any], tabular: bool = False) -> Prepared:
    """The calling thread's prepared system of ``base`` (built on first use, then cached).

    Raises
    ------
    ScenarioError, SpecificationError
        The base scenario is invalid or cannot be posed.
    """
    cache: dict[str, Prepared] | None = getattr(_LOCAL, "systems", None)
    if cache is None:
        cache = _LOCAL.systems = {}
    text = json.dumps(base, sort_keys=True, default=str)
    key = hashlib.sha1(f"{tabular}:{text}".encode()).hexdigest()
    entry = cache.get(key)
    if entry is None:
        entry = Prepared(copy.deepcopy(base), prepare(copy.deepcopy(base), tabular=tabular))
        if len(cache) >= MAX_CACHED:
            del cache[next(iter(cache))]
        cache[key] = entry
    entry.restore()
    return entry
