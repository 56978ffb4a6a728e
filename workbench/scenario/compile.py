"""Compile a scenario in one direction: expand -> check -> raise.

::

    ScenarioConfig --expand--> Expansion (flat scenario + what could not be built)
                   --check_expansion--> list of ScenarioIssue
                   --flatten--> FlatScenario, or ScenarioError with every issue

:mod:`~workbench.scenario.expand` builds and :mod:`~workbench.scenario.validate` reports; neither
imports this module, and the checks never add to the flat scenario.
"""

from __future__ import annotations

from workbench.errors import ScenarioError, ScenarioIssue
from workbench.scenario.expand import expand
from workbench.scenario.flat import FlatScenario
from workbench.scenario.models import ScenarioConfig
from workbench.scenario.validate import check_expansion

__all__ = ["check_scenario", "flatten", "validate_scenario"]


def check_scenario(scenario: ScenarioConfig) -> tuple[FlatScenario, list[ScenarioIssue]]:
    """Expand ``scenario`` and run every semantic rule on it.

    Returns
    -------
    flat, issues : tuple
        The flat scenario (a valid solver input only when ``issues`` is empty) and every
        problem found.
    """
    expansion = expand(scenario)
    return expansion.flat, check_expansion(scenario, expansion)


def flatten(scenario: ScenarioConfig) -> FlatScenario:
    """Validate a scenario and flatten it.

    Parameters
    ----------
    scenario : ScenarioConfig
        A scenario as loaded (templates not yet expanded).

    Returns
    -------
    FlatScenario
        Components (insertion order = document order), edges routed into circuits, controls
        with factors normalised to ``z_``, couplings and solver settings.

    Raises
    ------
    ScenarioError
        Every problem found, including duplicate names after flattening.
    """
    flat, issues = check_scenario(scenario)
    if issues:
        raise ScenarioError(issues)
    return flat


def validate_scenario(scenario: ScenarioConfig) -> None:
    """Raise :class:`ScenarioError` listing every problem of ``scenario`` (if any)."""
    _, issues = check_scenario(scenario)
    if issues:
        raise ScenarioError(issues)
