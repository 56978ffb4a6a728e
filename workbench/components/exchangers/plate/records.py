"""The records of the plate march: the exchanger's fixed model, a piece, a march's result.

Who reads it: :mod:`.march` (which builds them), :mod:`.segment` (one piece at a time),
:mod:`.secondary_side`, :mod:`.jacobian` and the components (:mod:`.marching`, :mod:`.results`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from workbench.components.exchangers.plate.spec import PlateSpec
from workbench.fluids import FluidBackend, SecondaryFluid
from workbench.fluids.secondary_transport import SecondaryTransport
from workbench.fluids.transport import Transport

__all__ = ["MarchResult", "Outside", "Piece", "PlateModel"]


class Outside(Exception):
    """The secondary left its fluid's range during a march (``direction`` +1 above, -1 below)."""

    def __init__(self, direction: float) -> None:
        super().__init__(direction)
        self.direction = direction


@dataclass(frozen=True)
class PlateModel:
    """What a march needs that does not change during a solve.

    Attributes
    ----------
    spec : PlateSpec
        Geometry, options and correlation factors.
    fluid : FluidBackend
        The refrigerant.
    transport : Transport
        Its transport properties.
    secondary : SecondaryFluid
        The water or brine (``cp``, ``h``, ``T_h``).
    secondary_transport : SecondaryTransport
        Its ``rho``, ``mu``, ``k``.
    hot : bool
        True when the refrigerant is the hot stream (condenser).
    inlet_memo : dict
        What a march reads at its inlet pressure and mass flow (the saturation lines, their
        transport records, the edge films, the two-phase kernel) by ``(p_in, m)``, and its
        inlet flashes by ``("inlet", p_in, h_in, m, f_dp)``: the marches of one shooting share
        them (:class:`~.segment.Marcher`, :func:`~.march.march`).
    """

    spec: PlateSpec
    fluid: FluidBackend
    transport: Transport
    secondary: SecondaryFluid
    secondary_transport: SecondaryTransport
    hot: bool
    inlet_memo: dict[tuple[Any, ...], Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(slots=True)
class Piece:
    """One piece of the march (a segment, or its part in one phase); read-only by convention.

    Not ``frozen``: a march builds twenty-odd of them, and a frozen dataclass's ``__init__``
    (``object.__setattr__`` per field) costs 2 us against 0.3 us for a plain slotted one.

    Attributes
    ----------
    zone : str
        ``superheated``, ``two-phase`` or ``subcooled``.
    area : float
        Heat-transfer area [m^2].
    q : float
        Heat flow [W] (positive from hot to cold).
    ua : float
        Conductance [W/K].
    h_ref, h_sec : float
        Film coefficients with their correlation factors [W/(m^2 K)].
    dt_start, dt_end : float
        Hot minus cold temperature at the piece's refrigerant inlet and outlet ends [K].
    dp : float
        Refrigerant channel pressure drop of the piece [Pa].
    re_ref : float
        Refrigerant Reynolds number (single phase) or equivalent Reynolds number (two phase,
        liquid-only on ``D_h``) [-].
    re_sec : float
        Secondary Reynolds number [-].
    """

    zone: str
    area: float
    q: float
    ua: float
    h_ref: float
    h_sec: float
    dt_start: float
    dt_end: float
    dp: float
    re_ref: float
    re_sec: float


@dataclass
class MarchResult:
    """A march from the refrigerant inlet (per exchanger of a bank).

    Attributes
    ----------
    t_sec_end : float
        Secondary temperature at the refrigerant outlet end [K] (its inlet, at the root).
    t_sec_out : float
        Secondary outlet temperature the march started from [K].
    h_out, p_out : float
        Refrigerant outlet enthalpy [J/kg] and pressure after the outlet port [Pa].
    q : float
        Heat flow [W] (positive from hot to cold).
    pieces : list of Piece
        The pieces in refrigerant flow order.
    dp_ports : float
        Port pressure drop of the refrigerant [Pa].
    slope : float
        ``d T_s,end / d T_s,out`` of the shooting's last secant [-].
    t_ref_in : float
        Refrigerant inlet temperature [K].
    neighbour : MarchResult or None
        A march of the same shooting at a secondary outlet between :data:`~.march.NEIGHBOUR_SHARES`
        of the span away (the Jacobian's ``d/dT_so`` without a march of its own), or None.
    fixed_points : list
        Per piece, ``(flux [W/m^2], dQ/dq [-])`` of a two-phase piece's fixed point, None for a
        single-phase piece: where a nearby march starts its fixed points (``hint``).
    """

    t_sec_end: float
    t_sec_out: float
    h_out: float
    p_out: float
    q: float
    pieces: list[Piece] = field(default_factory=list)
    dp_ports: float = 0.0
    slope: float = math.nan
    t_ref_in: float = math.nan
    """Refrigerant inlet temperature [K] (read once by the march)."""
    neighbour: MarchResult | None = None
    """A march of the same shooting near this one (the Jacobian's ``d/dT_so``), or None."""
    fixed_points: list[tuple[float, float] | None] = field(default_factory=list)
    """Each piece's fixed point ``(flux [W/m^2], dQ/dq [-])``, None in single phase."""
