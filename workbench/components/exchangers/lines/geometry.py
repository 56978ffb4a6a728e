"""The hardware of a refrigerant line as a frozen record, computed once per line.

Who reads it: :mod:`.model` at every residual evaluation and the line sizing
(``workbench.lines.size``), which builds one per candidate tube. Everything that does not
depend on the refrigerant's state is here: flow area and volume, the sum of the fittings' loss
coefficients (Crane, :mod:`workbench.correlations.line_fittings`) and the series thermal
resistance of one metre of tube and insulation (:mod:`workbench.correlations.line_heat_gain`).

Defaults (the contract's keys, docs/lines.md): roughness 1.5e-6 m (drawn copper), elevation 0,
no fittings, no insulation (conductivity 0.035 W/(m K) when a thickness is given), and no
ambient: a line without ``ambient_temp_c`` is adiabatic.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.correlations.line_fittings import fittings_loss_coefficient
from workbench.correlations.line_heat_gain import LineResistance, line_thermal_resistance
from workbench.units import celsius_to_kelvin

__all__ = ["DEFAULT_ROUGHNESS_M", "LineGeometry", "line_geometry"]

DEFAULT_ROUGHNESS_M = 1.5e-6
"""Absolute roughness of drawn copper tube [m]."""


@dataclass(frozen=True)
class LineGeometry:
    """A line's tube, fittings and insulation (SI).

    Attributes
    ----------
    length_m : float
        Straight length [m].
    inner_diameter_m : float
        Inner diameter [m].
    outer_diameter_m : float or None
        Outer diameter [m] (None: not given; then the line is adiabatic).
    elevation_m : float
        Outlet above inlet [m].
    roughness_m : float
        Absolute roughness [m].
    fittings : dict of str to int
        Count of each fitting kind.
    fittings_k : float
        Sum of the fittings' loss coefficients on the line velocity [-].
    ambient_temp_k : float or None
        Ambient temperature [K]; None for an adiabatic line.
    resistance : LineResistance or None
        Thermal resistances of one metre [K m/W]; None for an adiabatic line.
    """

    length_m: float
    inner_diameter_m: float
    outer_diameter_m: float | None
    elevation_m: float = 0.0
    roughness_m: float = DEFAULT_ROUGHNESS_M
    fittings: dict[str, int] = field(default_factory=dict)
    fittings_k: float = 0.0
    ambient_temp_k: float | None = None
    resistance: LineResistance | None = None

    @property
    def flow_area_m2(self) -> float:
        """Flow cross-section ``pi D_i^2 / 4`` [m^2]."""
        return 0.25 * math.pi * self.inner_diameter_m**2

    @property
    def volume_m3(self) -> float:
        """Internal volume ``pi D_i^2 L / 4`` [m^3]."""
        return self.flow_area_m2 * self.length_m

    @property
    def adiabatic(self) -> bool:
        """True when the line exchanges no heat (no ambient temperature given)."""
        return self.resistance is None or self.ambient_temp_k is None

    def heat_gain_w(self, fluid_temp_k: float) -> float:
        """Heat into the refrigerant at a mean fluid temperature, ``L (T_amb - T) / R'`` [W].

        Parameters
        ----------
        fluid_temp_k : float
            Mean refrigerant temperature [K].

        Returns
        -------
        float
            Heat gain [W]; 0 for an adiabatic line, negative when the line is the warmer.
        """
        if self.resistance is None or self.ambient_temp_k is None:
            return 0.0
        return self.length_m * (self.ambient_temp_k - fluid_temp_k) / self.resistance.total


def line_geometry(line: Mapping[str, Any]) -> LineGeometry:
    """The geometry of a line block (the contract's keys, SI with unit suffixes).

    Parameters
    ----------
    line : mapping
        ``length_m``, ``inner_diameter_m`` (required); ``outer_diameter_m``, ``elevation_m``,
        ``roughness_m``, ``fittings``, ``insulation_thickness_m``,
        ``insulation_conductivity_w_m_k``, ``ambient_temp_c`` (optional, see module docstring).

    Returns
    -------
    LineGeometry
        The frozen record.

    Raises
    ------
    ScenarioError
        An unknown fitting kind or a negative count (path ``fittings.<kind>``).
    ValueError
        An outer diameter not above the inner one (the scenario validation reports it first).
    """
    d_i = float(line["inner_diameter_m"])
    d_o = line.get("outer_diameter_m")
    fittings = {str(k): int(v) for k, v in (line.get("fittings") or {}).items()}
    ambient_c = line.get("ambient_temp_c")
    resistance = None
    if d_o is not None and ambient_c is not None:
        resistance = line_thermal_resistance(
            d_i,
            float(d_o),
            float(line.get("insulation_thickness_m") or 0.0),
            float(line.get("insulation_conductivity_w_m_k") or 0.035),
        )
    return LineGeometry(
        length_m=float(line["length_m"]),
        inner_diameter_m=d_i,
        outer_diameter_m=None if d_o is None else float(d_o),
        elevation_m=float(line.get("elevation_m") or 0.0),
        roughness_m=float(
            line["roughness_m"] if line.get("roughness_m") is not None else DEFAULT_ROUGHNESS_M
        ),
        fittings=fittings,
        fittings_k=fittings_loss_coefficient(fittings, d_i) if fittings else 0.0,
        ambient_temp_k=None if ambient_c is None else celsius_to_kelvin(float(ambient_c)),
        resistance=resistance,
    )
