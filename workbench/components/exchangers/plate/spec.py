"""The ``geometry`` dict of a brazed plate exchanger, read and checked once.

Who reads it: :class:`~workbench.components.exchangers.plate.component.PlateCondenser` and
``PlateEvaporator`` at configuration, which keep the :class:`PlateSpec` (a frozen record, so a
solve never re-reads the scenario). Keys (contract of issue 41)::

    kind                      "brazed_plate"
    plates                    number of plates, end plates included [-]
    plate_length_m            port centre to port centre along the flow [m]
    plate_width_m             plate width [m]
    chevron_angle_deg         corrugation angle to the flow, 0 < beta < 90 [deg]
    corrugation_pitch_m       corrugation wavelength [m]
    channel_gap_m             pressing depth b [m] (alias: corrugation_depth_m)
    plate_thickness_m         plate thickness [m]
    plate_conductivity_w_m_k  plate metal [W/(m K)], default 16 (AISI 316L)
    port_diameter_m           port diameter [m]

and the model's options: ``segments`` (refrigerant path cut into this many segments of equal
plate length, default 12; 20 for a gas cooler), ``single_phase_correlation`` (``martin_vdi`` default,
``martin_1999``, ``muley_manglik``), ``evaporation_correlation`` (``amalfi`` default,
``yan_lin``), ``condensation_correlation`` (``longo`` default, ``yan_lio_lin``); and the calibration hooks
``correlation_factors`` (``refrigerant_side``, ``secondary_side``, ``refrigerant_pressure_drop``,
``secondary_pressure_drop``; each default 1), which multiply the two film coefficients and the
two pressure drops (in ``geometry``, or as the component's own ``correlation_factors`` object, where the
fin-and-tube coils read theirs; not both).

Every problem is a :class:`~workbench.errors.ScenarioIssue` at ``<component path>.geometry.<key>``
(or ``.correlation_factors.<key>``), all reported together in one ``ScenarioError``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workbench.correlations.plate_geometry import STAINLESS_CONDUCTIVITY_W_M_K, PlateGeometry
from workbench.errors import ScenarioError, ScenarioIssue

__all__ = [
    "CORRELATION_FACTORS",
    "DEFAULT_SEGMENTS",
    "GAS_COOLER_SEGMENTS",
    "GEOMETRY_KEYS",
    "KIND",
    "PlateSpec",
    "parse_plate_spec",
]

KIND = "brazed_plate"
"""The ``geometry.kind`` of this family."""

DEFAULT_SEGMENTS = 12
"""Segments of the refrigerant path of a condenser or evaporator by default [-] (two-phase
pieces by Simpson's rule: the example unit's capacity within 2e-4 and its COP within 1.1e-3
of 320 segments; 20 segments by the midpoint rule were 1.8e-3 and 4.4e-3 off)."""

GAS_COOLER_SEGMENTS = 20
"""Segments of a plate gas cooler by default [-] (its supercritical pieces are first order)."""

GEOMETRY_KEYS = (
    "plates",
    "plate_length_m",
    "plate_width_m",
    "chevron_angle_deg",
    "corrugation_pitch_m",
    "channel_gap_m",
    "plate_thickness_m",
    "port_diameter_m",
)
"""The required keys of ``geometry`` (contract); ``plate_conductivity_w_m_k`` is optional."""

_OPTIONS = {
    "single_phase_correlation": ("martin_vdi", ("martin_vdi", "martin_1999", "muley_manglik")),
    "evaporation_correlation": ("amalfi", ("amalfi", "yan_lin")),
    "condensation_correlation": ("longo", ("longo", "yan_lio_lin")),
}

CORRELATION_FACTORS = (
    "refrigerant_side",
    "secondary_side",
    "refrigerant_pressure_drop",
    "secondary_pressure_drop",
)
"""Keys of ``correlation_factors``: multipliers of the film coefficients and pressure drops."""

_KNOWN = {
    "kind",
    *GEOMETRY_KEYS,
    "corrugation_depth_m",
    "plate_conductivity_w_m_k",
    "segments",
    "correlation_factors",
    *_OPTIONS,
}


@dataclass(frozen=True)
class PlateSpec:
    """A brazed plate exchanger's hardware and model options.

    Attributes
    ----------
    geometry : PlateGeometry
        The plates (:mod:`workbench.correlations.plate_geometry`).
    segments : int
        Segments of equal plate length along the refrigerant path [-].
    single_phase : str
        Single-phase correlation of both sides (``martin_vdi``...).
    evaporation : str
        Flow-boiling correlation (``amalfi`` or ``yan_lin``).
    condensation : str
        Condensation correlation (``longo`` or ``yan_lio_lin``).
    factors : dict of str to float
        ``correlation_factors`` by key (every key of :data:`CORRELATION_FACTORS`, default 1).
    hydraulic_diameter_m : float
        ``D_h = 2 b / phi`` [m], read once from the geometry (its properties recompute).
    enlargement_factor : float
        ``phi`` [-], read once.
    """

    geometry: PlateGeometry
    segments: int
    single_phase: str
    evaporation: str
    condensation: str
    factors: Mapping[str, float]
    hydraulic_diameter_m: float = 0.0
    enlargement_factor: float = 0.0

    def factor(self, name: str) -> float:
        """The correlation factor ``name`` [-]."""
        return float(self.factors[name])


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def parse_plate_spec(
    doc: Mapping[str, Any], path: str, factors: Any = None, segments: int = DEFAULT_SEGMENTS
) -> PlateSpec:
    """Read and check a ``geometry`` dict of kind ``brazed_plate``.

    Parameters
    ----------
    doc : mapping
        The ``geometry`` object of the component (SI, the contract's keys).
    path : str
        JSON path of the geometry's parent (messages say ``<path>.geometry.<key>``).
    factors : mapping, optional
        The component's own ``correlation_factors`` (the place the fin-and-tube coils read
        them); given together with ``geometry.correlation_factors`` it is an error.
    segments : int, optional
        The segments where ``geometry.segments`` is absent (:data:`DEFAULT_SEGMENTS`;
        :data:`GAS_COOLER_SEGMENTS` for a gas cooler).

    Returns
    -------
    PlateSpec
        The checked hardware and options.

    Raises
    ------
    ScenarioError
        Every missing, unknown or out-of-range key, each at its path with the reason.
    """
    where = f"{path}.geometry" if path else "geometry"
    issues: list[ScenarioIssue] = []
    if not isinstance(doc, Mapping):
        raise ScenarioError([ScenarioIssue(where, "must be an object")])
    if doc.get("kind") != KIND:
        issues.append(ScenarioIssue(f"{where}.kind", f"must be {KIND!r}, got {doc.get('kind')!r}"))
    for key in sorted(set(doc) - _KNOWN):
        issues.append(
            ScenarioIssue(f"{where}.{key}", f"unknown key; known: {', '.join(sorted(_KNOWN))}")
        )
    values: dict[str, Any] = {}
    if "channel_gap_m" in doc and "corrugation_depth_m" in doc:
        issues.append(
            ScenarioIssue(
                f"{where}.corrugation_depth_m",
                "give channel_gap_m or corrugation_depth_m (the same pressing depth), not both",
            )
        )
    for key in GEOMETRY_KEYS:
        source = key
        if key == "channel_gap_m" and key not in doc and "corrugation_depth_m" in doc:
            source = "corrugation_depth_m"
        if source not in doc:
            issues.append(ScenarioIssue(f"{where}.{key}", "is required"))
            continue
        values[key] = doc[source]
    values["plate_conductivity_w_m_k"] = doc.get(
        "plate_conductivity_w_m_k", STAINLESS_CONDUCTIVITY_W_M_K
    )
    segments = doc.get("segments", segments)
    if isinstance(segments, bool) or not isinstance(segments, int) or not 2 <= segments <= 400:
        issues.append(
            ScenarioIssue(f"{where}.segments", f"must be an integer 2..400, got {segments!r}")
        )
    options: dict[str, str] = {}
    for key, (default, allowed) in _OPTIONS.items():
        value = doc.get(key, default)
        if value not in allowed:
            issues.append(
                ScenarioIssue(
                    f"{where}.{key}", f"must be one of {', '.join(allowed)}; got {value!r}"
                )
            )
        options[key] = str(value)
    geometry: PlateGeometry | None = None
    if not any(i.path.startswith(f"{where}.") and i.message == "is required" for i in issues):
        try:
            geometry = PlateGeometry(**values)
        except ScenarioError as exc:
            issues.extend(ScenarioIssue(f"{where}.{i.path}", i.message) for i in exc.issues)
        except TypeError as exc:  # a non-number where arithmetic is needed
            issues.append(ScenarioIssue(where, f"invalid value: {exc}"))
    if factors is not None and "correlation_factors" in doc:
        issues.append(
            ScenarioIssue(
                f"{where}.correlation_factors",
                "give correlation_factors on the component or in its geometry, not both",
            )
        )
    if factors is not None:
        fac_where = f"{path}.correlation_factors" if path else "correlation_factors"
        fac = _factors(factors, fac_where, issues)
    else:
        fac = _factors(doc.get("correlation_factors"), f"{where}.correlation_factors", issues)
    if issues or geometry is None:
        raise ScenarioError(issues or [ScenarioIssue(where, "invalid geometry")])
    return PlateSpec(
        geometry=geometry,
        segments=int(segments),
        single_phase=options["single_phase_correlation"],
        evaporation=options["evaporation_correlation"],
        condensation=options["condensation_correlation"],
        factors=fac,
        hydraulic_diameter_m=geometry.hydraulic_diameter_m,
        enlargement_factor=geometry.enlargement_factor,
    )


def _factors(doc: Any, where: str, issues: list[ScenarioIssue]) -> dict[str, float]:
    out = dict.fromkeys(CORRELATION_FACTORS, 1.0)
    if doc is None:
        return out
    if not isinstance(doc, Mapping):
        issues.append(ScenarioIssue(where, "must be an object"))
        return out
    for key, value in doc.items():
        if key not in out:
            issues.append(
                ScenarioIssue(
                    f"{where}.{key}", f"unknown factor; known: {', '.join(CORRELATION_FACTORS)}"
                )
            )
        elif not _number(value) or value <= 0.0:
            issues.append(
                ScenarioIssue(f"{where}.{key}", f"must be a positive number, got {value!r}")
            )
        else:
            out[key] = float(value)
    return out
