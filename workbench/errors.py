"""Exceptions of the workbench, in one tree.

::

    WorkbenchError
    ├── ScenarioError            invalid scenario document (carries every issue found)
    ├── FluidPropertyError       a property call failed or fell outside a backend's range
    │   └── UnknownFluidError    unknown fluid or backend name
    ├── ConvergenceError         only raised on request; a normal solve returns a result instead
    ├── SpecificationError       a scenario the solver cannot pose (degrees of freedom, impossible specs)
    ├── CalibrationError         bad calibration input: a catalogue table, measurements, free parameters
    └── NoteStoreError           note database, migrations, embeddings
        ├── SettingError         a malformed or unusable setting (DATABASE_URL, WORKBENCH_HOME)
        ├── MigrationError       a migration refused or failed; nothing was changed
        ├── EmbeddingError       an embedding provider failed or returned a bad vector
        └── NoteNotFoundError    a note id that does not exist for the caller
            └── RunNotFoundError a note that holds no stored run (workbench.notes.runs)

Messages name the place (JSON path, component, note id) and, where one exists, the fix.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "CalibrationError",
    "ConvergenceError",
    "EmbeddingError",
    "FluidPropertyError",
    "MigrationError",
    "NoteNotFoundError",
    "NoteStoreError",
    "RunNotFoundError",
    "ScenarioError",
    "ScenarioIssue",
    "SettingError",
    "SpecificationError",
    "UnknownFluidError",
    "WorkbenchError",
]


class WorkbenchError(Exception):
    """Base class of every error the workbench raises on purpose."""


@dataclass(frozen=True)
class ScenarioIssue:
    """One problem in a scenario document.

    Parameters
    ----------
    path : str
        JSON path of the offending value, e.g. ``circuits[0].components[2].fan_speed``
        (empty string for the document root).
    message : str
        What is wrong and what is allowed.
    """

    path: str
    message: str

    def __str__(self) -> str:
        """``<path>: <message>``, the root shown as ``<root>``."""
        return f"{self.path or '<root>'}: {self.message}"


class ScenarioError(WorkbenchError):
    """A scenario document is invalid; ``issues`` lists every problem found."""

    def __init__(self, issues: list[ScenarioIssue], source: str | None = None) -> None:
        self.issues = list(issues)
        self.source = source
        head = f"{source}: " if source else ""
        n = len(self.issues)
        lines = "\n".join(f"  - {issue}" for issue in self.issues)
        super().__init__(f"{head}{n} error{'s' if n != 1 else ''} in scenario\n{lines}")


class FluidPropertyError(WorkbenchError):
    """A property evaluation failed; the message names the fluid, backend and inputs."""


class UnknownFluidError(FluidPropertyError):
    """A fluid or backend name that is not known; the message lists the valid names."""


class ConvergenceError(WorkbenchError):
    """Raised only when the caller asks for it (``SolveResult.raise_for_convergence``)."""


class SpecificationError(WorkbenchError):
    """The scenario cannot be posed as a square system, or its specs are physically impossible."""


class CalibrationError(WorkbenchError):
    """Bad input to a calibration (:mod:`workbench.calibrate`); the message names the column."""


class NoteStoreError(WorkbenchError):
    """Base class of note database errors."""


class SettingError(NoteStoreError):
    """A setting (environment variable) that is malformed or names an unusable place."""


class MigrationError(NoteStoreError):
    """A migration was refused or failed; its transaction was rolled back."""


class EmbeddingError(NoteStoreError):
    """An embedding provider failed or returned a vector of the wrong shape."""


class NoteNotFoundError(NoteStoreError):
    """A note id that does not exist (or is not visible to the caller)."""


class RunNotFoundError(NoteNotFoundError):
    """A note of the caller that holds no stored run or sweep (a plain note)."""
