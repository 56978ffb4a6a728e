"""Validation of the refrigerant lines of edges (``"line": {...}``, issue 41, docs/lines.md).

Rules (each issue names the JSON path of the key, e.g. ``circuits[0].edges[3].line.fittings.elbow``):

- ``outer_diameter_m`` larger than ``inner_diameter_m``; required when ``ambient_temp_c`` is
  given (the heat gain crosses the tube wall and the insulation around it);
- ``fittings``: kinds of :data:`workbench.correlations.line_fittings.FITTING_KINDS`, counts >= 0;
- ``volume_m3`` and ``line`` not on the same edge (the line's volume is ``pi D_i^2 L / 4``);
- the circuit's fluid on the ``CoolProp`` backend: a line's friction needs viscosities, which
  the analytic ``Test`` backend does not have.

The structural checks (types, required ``length_m`` and ``inner_diameter_m``, positive values)
are the model's (:class:`workbench.scenario.models.LineConfig`).
"""

from __future__ import annotations

from workbench.errors import ScenarioIssue
from workbench.scenario.flat import FlatScenario
from workbench.scenario.paths import key, suggest

__all__ = ["check_lines"]


def check_lines(flat: FlatScenario) -> list[ScenarioIssue]:
    """The problems of the ``line`` blocks of ``flat``'s edges (see module docstring).

    Parameters
    ----------
    flat : FlatScenario
        The flat scenario; each edge keeps the JSON path it came from.

    Returns
    -------
    list of ScenarioIssue
        One per problem, in edge order.
    """
    issues: list[ScenarioIssue] = []
    for edge in flat.edges:
        line = edge.line
        if line is None:
            continue
        path = f"{edge.path}.line"
        backend = flat.fluid_of(edge.circuit)[1]
        if backend is None or backend.strip().lower() == "test":
            issues.append(
                ScenarioIssue(
                    path,
                    "a refrigerant line needs viscosities and surface tension, which only the "
                    'CoolProp backend gives: set "fluid_backend": "CoolProp"',
                )
            )
        if edge.volume_m3 is not None:
            issues.append(
                ScenarioIssue(
                    f"{edge.path}.volume_m3",
                    "give volume_m3 or line, not both: a line's volume is pi D_i^2 L / 4 "
                    f"({line.volume_m3:.4g} m3 here)",
                )
            )
        outer = line.outer_diameter_m
        if outer is not None and outer <= line.inner_diameter_m:
            issues.append(
                ScenarioIssue(
                    f"{path}.outer_diameter_m",
                    f"must exceed inner_diameter_m ({line.inner_diameter_m:g} m), got {outer:g} m",
                )
            )
        if outer is None and line.ambient_temp_c is not None:
            issues.append(
                ScenarioIssue(
                    f"{path}.outer_diameter_m",
                    "required with ambient_temp_c: the heat gain crosses the tube wall and "
                    "the insulation (or remove ambient_temp_c for an adiabatic line)",
                )
            )
        if line.fittings:
            from workbench.correlations.line_fittings import FITTING_KINDS

            for kind, count in line.fittings.items():
                kpath = key(f"{path}.fittings", kind)
                if kind not in FITTING_KINDS:
                    issues.append(
                        ScenarioIssue(
                            kpath,
                            f"unknown fitting kind '{kind}'{suggest(kind, list(FITTING_KINDS))}; "
                            f"known kinds: {', '.join(FITTING_KINDS)}",
                        )
                    )
                elif count < 0:
                    issues.append(ScenarioIssue(kpath, f"count must be >= 0, got {count}"))
    return issues
