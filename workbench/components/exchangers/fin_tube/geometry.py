"""A coil's ``geometry`` object from the scenario: parsed, checked and computed once.

Who reads it: :mod:`workbench.components.exchangers.fin_tube.component`, once per coil in
``configure``; the solve never recomputes it. The record wraps the floor's
:class:`~workbench.correlations.fin_tube_geometry.FinTubeGeometry` (areas, pitches, sigma) and
adds what the segment march needs: the refrigerant path of one circuit (length, flow area,
inner diameter) and the number of segments.

Contract keys (issue 40, SI): ``kind`` (``"fin_tube"``), ``tubes_per_bank``, ``banks``,
``circuits``, ``tube_length_m``, ``tube_outer_diameter_m``, ``tube_inner_diameter_m``,
``transverse_pitch_m``, ``longitudinal_pitch_m``, ``fins_per_m``, ``fin_thickness_m``,
``fin_type`` (``plain``, ``wavy``, ``louvered``, ``herringbone``) with the type's own keys
(``wave_depth_m``, ``wave_half_length_m``; ``louver_pitch_m``, ``louver_height_m``),
``fin_conductivity_w_m_k`` (237, aluminium), ``tube_conductivity_w_m_k`` (390, copper);
and ``segments`` (default :data:`DEFAULT_SEGMENTS`), ``staggered`` (true),
``two_phase_friction`` (``muller_steinhagen_heck``, default, or ``friedel``).

Microchannel coils (``"kind": "microchannel"``, the floor's
:class:`~workbench.correlations.microchannel.MicrochannelGeometry`): ``tubes_per_bank``,
``banks``, ``circuits`` (tubes in parallel per pass), ``tube_length_m``, ``tube_depth_m``,
``tube_height_m``, ``tube_pitch_m``, ``ports_per_tube``, ``port_width_m``, ``port_height_m``,
``fins_per_m``, ``fin_thickness_m``, ``louver_pitch_m``, ``louver_angle_deg``, optional
``louver_length_m``, ``fin_depth_m``, ``fin_conductivity_w_m_k``, ``tube_conductivity_w_m_k``
(237), ``j_correlation`` (``chang_wang``, default, or ``kim_bullard``) and ``segments``. The
refrigerant flows in the ports (hydraulic diameter ``2 w h/(w + h)``, the in-tube correlations
per port); the fins are straight fins between two tubes, adiabatic at mid height
(``L = F_l/2 - t_f``, Kim & Bullard 2002); the tube wall a plane wall of thickness
``(tube_height - port_height)/2``.

Every error is a :class:`~workbench.errors.SpecificationError` whose message starts with the
key path, ``geometry.fins_per_m: must be a positive number, got 0``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from workbench.correlations.fin_efficiency import (
    schmidt_efficiency,
    schmidt_equivalent_radius,
    straight_fin_efficiency,
)
from workbench.correlations.fin_tube_geometry import FIN_TYPES, FinTubeGeometry
from workbench.correlations.microchannel import MicrochannelGeometry
from workbench.errors import SpecificationError

__all__ = [
    "DEFAULT_SEGMENTS",
    "GEOMETRY_KINDS",
    "CoilGeometry",
    "GeometryKeyError",
    "parse_geometry",
]

DEFAULT_SEGMENTS = 24
"""Segments per circuit when ``geometry.segments`` is absent. On the example split unit N=24
gives the cooling capacity within 0.05 % and the COP within 0.2 % of N=96 (the condenser's
desuperheating segments converge last); tests/test_fin_tube_march.py holds N=20 against 80
to 0.3 %."""

GEOMETRY_KINDS: tuple[str, ...] = ("fin_tube", "microchannel")
"""The ``geometry.kind`` values a coil accepts."""

_INT_KEYS = ("tubes_per_bank", "banks", "circuits")
_FLOAT_KEYS = (
    "tube_length_m",
    "tube_outer_diameter_m",
    "tube_inner_diameter_m",
    "transverse_pitch_m",
    "longitudinal_pitch_m",
    "fins_per_m",
    "fin_thickness_m",
)
_OPTIONAL_FLOATS = (
    "wave_depth_m",
    "wave_half_length_m",
    "louver_pitch_m",
    "louver_height_m",
    "fin_conductivity_w_m_k",
    "tube_conductivity_w_m_k",
)
TWO_PHASE_FRICTION = ("muller_steinhagen_heck", "friedel")
"""The two-phase friction correlations (``geometry.two_phase_friction``), the first the default."""

_KNOWN = {
    "kind",
    "fin_type",
    "segments",
    "staggered",
    "two_phase_friction",
    *_INT_KEYS,
    *_FLOAT_KEYS,
    *_OPTIONAL_FLOATS,
}

_MC_INT_KEYS = ("tubes_per_bank", "banks", "circuits", "ports_per_tube")
_MC_FLOAT_KEYS = (
    "tube_length_m",
    "tube_depth_m",
    "tube_height_m",
    "tube_pitch_m",
    "port_width_m",
    "port_height_m",
    "fins_per_m",
    "fin_thickness_m",
    "louver_pitch_m",
    "louver_angle_deg",
)
_MC_OPTIONAL_FLOATS = (
    "louver_length_m",
    "fin_depth_m",
    "fin_conductivity_w_m_k",
    "tube_conductivity_w_m_k",
)
_MC_KNOWN = {
    "kind",
    "segments",
    "j_correlation",
    "two_phase_friction",
    *_MC_INT_KEYS,
    *_MC_FLOAT_KEYS,
    *_MC_OPTIONAL_FLOATS,
}
J_CORRELATIONS = ("chang_wang", "kim_bullard")
"""The microchannel louver j correlations (``geometry.j_correlation``)."""


class GeometryKeyError(SpecificationError):
    """A ``geometry`` key that does not make a coil: its key path and the reason.

    Parameters
    ----------
    where : str
        Path of the geometry object (``geometry``).
    key : str
        The offending key (``fins_per_m``), or ``""`` for the object itself.
    reason : str
        Why, in words.
    """

    def __init__(self, where: str, key: str, reason: str) -> None:
        self.key = key
        self.reason = reason
        super().__init__(f"{where}.{key}: {reason}" if key else f"{where}: {reason}")


@dataclass(frozen=True)
class CoilGeometry:
    """A coil's hardware as the march sees it [SI].

    Attributes
    ----------
    fins : FinTubeGeometry or MicrochannelGeometry
        The floor's record (areas, sigma, hydraulic diameter, fin type).
    segments : int
        Segments per circuit [-].
    path_length_m : float
        Tube length of one circuit, ``tubes * tube_length / circuits`` [m].
    inner_diameter_m : float
        Tube inner diameter, or a microchannel port's hydraulic diameter [m].
    ports : int
        Parallel channels of one tube (1 for a round tube) [-].
    air_area_m2, inner_area_m2 : float
        Whole coil's air-side and refrigerant-side areas [m^2].
    wall_resistance_k_w : float
        Conduction through the tube walls of the whole coil, ``ln(D_o/D_i) / (2 pi k L_tot)``
        (a flat tube: ``t_w / (k A_i)``) [K/W].
    equivalent_radius_m, collar_radius_m : float
        Schmidt's equivalent fin radius and the fin root radius (plate fins) [m].
    straight_fin_length_m : float
        Root-to-adiabatic length of a microchannel's straight fin (0 for plate fins) [m].
    j_correlation : str
        Microchannel louver j correlation (``""`` for plate fins).
    two_phase_friction : str
        ``muller_steinhagen_heck`` (default) or ``friedel``.
    internal_volume_m3 : float
        Refrigerant-side volume of the tubes (bends excluded) [m^3].
    """

    fins: FinTubeGeometry | MicrochannelGeometry
    segments: int
    path_length_m: float
    inner_diameter_m: float
    ports: int
    air_area_m2: float
    inner_area_m2: float
    wall_resistance_k_w: float
    equivalent_radius_m: float
    collar_radius_m: float
    straight_fin_length_m: float
    internal_volume_m3: float
    j_correlation: str = ""
    two_phase_friction: str = "muller_steinhagen_heck"

    @property
    def circuits(self) -> int:
        """Parallel refrigerant circuits [-]."""
        return self.fins.circuits

    @property
    def kind(self) -> str:
        """``fin_tube`` or ``microchannel``."""
        return "microchannel" if isinstance(self.fins, MicrochannelGeometry) else "fin_tube"

    def fin_efficiency(self, m_per_m: float) -> float:
        """Fin efficiency at the fin parameter ``m`` [1/m]: Schmidt's plate fin or a straight fin [-]."""
        if self.straight_fin_length_m > 0.0:
            return straight_fin_efficiency(m_per_m, self.straight_fin_length_m)
        return schmidt_efficiency(m_per_m, self.collar_radius_m, self.equivalent_radius_m)


def _number(doc: Mapping[str, Any], key: str, where: str, integer: bool) -> Any:
    value = doc[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise GeometryKeyError(where, key, f"must be a number, got {value!r}")
    if integer:
        if float(value) != int(value):
            raise GeometryKeyError(where, key, f"must be a whole number, got {value!r}")
        return int(value)
    return float(value)


def parse_geometry(doc: Mapping[str, Any], where: str = "geometry") -> CoilGeometry:
    """Check a ``geometry`` object and compute the coil's hardware once.

    Parameters
    ----------
    doc : mapping
        The scenario's ``geometry`` object (contract keys in the module docstring).
    where : str
        Key path for messages (``geometry`` or ``components[2].geometry``).

    Returns
    -------
    CoilGeometry
        The hardware record.

    Raises
    ------
    SpecificationError
        An unknown kind or key, a missing or non-numeric key, or a geometry the floor rejects
        (a collar wider than the pitch, fins thicker than their pitch...): the message names
        the key path (``geometry.fins_per_m``) and the reason.
    """
    if not isinstance(doc, Mapping):
        raise GeometryKeyError(where, "", f"must be an object, got {type(doc).__name__}")
    kind = doc.get("kind")
    if kind not in GEOMETRY_KINDS:
        raise GeometryKeyError(where, "kind", f"{kind!r} is not one of {', '.join(GEOMETRY_KINDS)}")
    segments = _number(doc, "segments", where, True) if "segments" in doc else DEFAULT_SEGMENTS
    if segments < 2:
        raise GeometryKeyError(where, "segments", f"must be at least 2, got {segments}")
    friction = doc.get("two_phase_friction", TWO_PHASE_FRICTION[0])
    if friction not in TWO_PHASE_FRICTION:
        raise GeometryKeyError(
            where,
            "two_phase_friction",
            f"{friction!r} is not one of {', '.join(TWO_PHASE_FRICTION)}",
        )
    if kind == "microchannel":
        return replace(_microchannel(doc, where, segments), two_phase_friction=friction)
    unknown = sorted(set(doc) - _KNOWN)
    if unknown:
        raise GeometryKeyError(
            where, unknown[0], f"unknown key for kind {kind!r} (known: {', '.join(sorted(_KNOWN))})"
        )
    args: dict[str, Any] = {}
    for key in (*_INT_KEYS, *_FLOAT_KEYS):
        if key not in doc:
            raise GeometryKeyError(where, key, f"missing (a {kind} coil needs it)")
        args[key] = _number(doc, key, where, key in _INT_KEYS)
    for key in _OPTIONAL_FLOATS:
        if key in doc:
            args[key] = _number(doc, key, where, False)
    fin_type = doc.get("fin_type", "plain")
    if fin_type not in FIN_TYPES:
        raise GeometryKeyError(
            where, "fin_type", f"{fin_type!r} is not one of {', '.join(FIN_TYPES)}"
        )
    staggered = doc.get("staggered", True)
    if not isinstance(staggered, bool):
        raise GeometryKeyError(where, "staggered", f"must be true or false, got {staggered!r}")
    try:
        fins = FinTubeGeometry(fin_type=fin_type, staggered=staggered, **args)
    except ValueError as exc:
        key, _, reason = str(exc).partition(": ")
        raise GeometryKeyError(where, key, reason) from None
    tubes_per_circuit = fins.tubes / fins.circuits
    total_length = fins.tubes * fins.tube_length_m
    d_i, d_o = fins.tube_inner_diameter_m, fins.tube_outer_diameter_m
    return CoilGeometry(
        fins=fins,
        segments=segments,
        path_length_m=tubes_per_circuit * fins.tube_length_m,
        inner_diameter_m=d_i,
        ports=1,
        air_area_m2=fins.air_area_m2,
        inner_area_m2=fins.inner_area_m2,
        wall_resistance_k_w=math.log(d_o / d_i)
        / (2.0 * math.pi * fins.tube_conductivity_w_m_k * total_length),
        equivalent_radius_m=schmidt_equivalent_radius(
            fins.transverse_pitch_m, fins.longitudinal_pitch_m, staggered
        ),
        collar_radius_m=fins.collar_diameter_m / 2.0,
        straight_fin_length_m=0.0,
        two_phase_friction=friction,
        internal_volume_m3=fins.internal_volume_m3,
    )


def _microchannel(doc: Mapping[str, Any], where: str, segments: int) -> CoilGeometry:
    """A microchannel coil's record (module docstring)."""
    unknown = sorted(set(doc) - _MC_KNOWN)
    if unknown:
        raise GeometryKeyError(
            where,
            unknown[0],
            f"unknown key for kind 'microchannel' (known: {', '.join(sorted(_MC_KNOWN))})",
        )
    args: dict[str, Any] = {}
    for key in (*_MC_INT_KEYS, *_MC_FLOAT_KEYS):
        if key not in doc:
            raise GeometryKeyError(where, key, "missing (a microchannel coil needs it)")
        args[key] = _number(doc, key, where, key in _MC_INT_KEYS)
    for key in _MC_OPTIONAL_FLOATS:
        if key in doc:
            args[key] = _number(doc, key, where, False)
    j_correlation = doc.get("j_correlation", "chang_wang")
    if j_correlation not in J_CORRELATIONS:
        raise GeometryKeyError(
            where, "j_correlation", f"{j_correlation!r} is not one of {', '.join(J_CORRELATIONS)}"
        )
    try:
        mc = MicrochannelGeometry(**args)
    except ValueError as exc:
        key, _, reason = str(exc).partition(": ")
        raise GeometryKeyError(where, key, reason) from None
    if mc.circuits > mc.tubes:
        raise GeometryKeyError(where, "circuits", f"{mc.circuits} exceeds the {mc.tubes} tubes")
    wall = (mc.tube_height_m - mc.port_height_m) / 2.0
    half_fin = mc.fin_length_m / 2.0 - mc.fin_thickness_m
    if half_fin <= 0.0:
        raise GeometryKeyError(where, "tube_pitch_m", "leaves no fin between the tubes")
    return CoilGeometry(
        fins=mc,
        segments=segments,
        path_length_m=mc.tubes / mc.circuits * mc.tube_length_m,
        inner_diameter_m=mc.port_hydraulic_diameter_m,
        ports=mc.ports_per_tube,
        air_area_m2=mc.air_area_m2,
        inner_area_m2=mc.inner_area_m2,
        wall_resistance_k_w=wall / (mc.tube_conductivity_w_m_k * mc.inner_area_m2),
        equivalent_radius_m=0.0,
        collar_radius_m=0.0,
        straight_fin_length_m=half_fin,
        internal_volume_m3=mc.internal_volume_m3,
        j_correlation=j_correlation,
    )
