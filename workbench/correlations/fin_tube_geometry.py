"""Geometry of a fin-and-tube air coil: the contract keys and what every correlation derives from them.

Who reads it: the air-side j and f factors (:mod:`workbench.correlations.wang`), the fin
efficiency (:mod:`workbench.correlations.fin_efficiency`) and the geometric coils of issue 40,
which build one :class:`FinTubeGeometry` per coil, once, and never recompute it in a solve.

Conventions (those of Wang, Chi & Chang 2000, which the other Wang papers share):

- the collar diameter is the tube's outer diameter plus two fin thicknesses,
  ``D_c = D_o + 2 t_f`` [m]; the fin collar covers the tube, so the bare tube seen by the air
  between two fins has the collar diameter;
- the coil is ``tubes_per_bank * P_t`` high and ``banks * P_l`` deep (the fin sheet ends half a
  pitch beyond the outer tubes); the face is ``height * tube_length``;
- the minimum free-flow area is the face less the tubes' (collars') and the fins' shadows,
  ``A_c = (H - n D_c)(L - N_f t_f)``, so ``sigma = A_c / A_fr = (1 - D_c/P_t)(1 - t_f/F_p)``;
- the fin area is both faces of every fin less the collar holes, times the wavy fins' area
  enhancement ``sec(theta) = sqrt(x_f^2 + p_d^2) / x_f`` (x_f the projected half wave length,
  p_d the wave depth); fin edges are neglected;
- the hydraulic diameter is ``D_h = 4 A_c L_d / A_o`` with ``L_d`` the coil depth and ``A_o``
  the total air-side area (Kays & London's definition, used by Wang and co-workers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

__all__ = ["FIN_TYPES", "FinTubeGeometry", "FinType"]

FinType = Literal["plain", "wavy", "louvered", "herringbone"]
FIN_TYPES: tuple[str, ...] = ("plain", "wavy", "louvered", "herringbone")


@dataclass(frozen=True)
class FinTubeGeometry:
    """A fin-and-tube coil by its contract keys (issue 40), with the derived areas.

    Parameters
    ----------
    tubes_per_bank : int
        Tubes in one bank (one row across the air flow) [-].
    banks : int
        Tube banks (rows) in the air flow direction [-].
    circuits : int
        Parallel refrigerant circuits [-].
    tube_length_m : float
        Finned length of one tube [m].
    tube_outer_diameter_m, tube_inner_diameter_m : float
        Tube diameters before expansion into the fins [m].
    transverse_pitch_m, longitudinal_pitch_m : float
        Tube pitch across the air flow (P_t) and along it (P_l) [m].
    fins_per_m : float
        Fin density [1/m].
    fin_thickness_m : float
        Fin thickness t_f [m].
    fin_type : {"plain", "wavy", "louvered", "herringbone"}
        Fin surface.
    wave_depth_m, wave_half_length_m : float or None
        Wavy and herringbone fins: wave depth p_d (crest to trough, without the fin thickness)
        and projected half wave length x_f [m].
    louver_pitch_m, louver_height_m : float or None
        Louvered fins: louver pitch L_p and louver height L_h [m].
    fin_conductivity_w_m_k : float
        Fin conductivity [W/(m K)], aluminium 237 by default.
    tube_conductivity_w_m_k : float
        Tube wall conductivity [W/(m K)], copper 390 by default.
    staggered : bool
        Staggered (hexagonal) tube array; False for inline [-].

    Raises
    ------
    ValueError
        A non-positive dimension, an inner diameter not below the outer one, a collar wider
        than the transverse pitch, fins thicker than their pitch, an unknown fin type or a
        missing type-specific key; the message names the key.
    """

    tubes_per_bank: int
    banks: int
    circuits: int
    tube_length_m: float
    tube_outer_diameter_m: float
    tube_inner_diameter_m: float
    transverse_pitch_m: float
    longitudinal_pitch_m: float
    fins_per_m: float
    fin_thickness_m: float
    fin_type: FinType = "plain"
    wave_depth_m: float | None = None
    wave_half_length_m: float | None = None
    louver_pitch_m: float | None = None
    louver_height_m: float | None = None
    fin_conductivity_w_m_k: float = 237.0
    tube_conductivity_w_m_k: float = 390.0
    staggered: bool = True

    def __post_init__(self) -> None:
        """Check the keys; every message names the offending key."""
        positive = {
            "tubes_per_bank": self.tubes_per_bank,
            "banks": self.banks,
            "circuits": self.circuits,
            "tube_length_m": self.tube_length_m,
            "tube_outer_diameter_m": self.tube_outer_diameter_m,
            "tube_inner_diameter_m": self.tube_inner_diameter_m,
            "transverse_pitch_m": self.transverse_pitch_m,
            "longitudinal_pitch_m": self.longitudinal_pitch_m,
            "fins_per_m": self.fins_per_m,
            "fin_thickness_m": self.fin_thickness_m,
            "fin_conductivity_w_m_k": self.fin_conductivity_w_m_k,
            "tube_conductivity_w_m_k": self.tube_conductivity_w_m_k,
        }
        for key, value in positive.items():
            if not value > 0 or not math.isfinite(value):
                raise ValueError(f"{key}: must be a positive number, got {value!r}")
        if self.tube_inner_diameter_m >= self.tube_outer_diameter_m:
            raise ValueError(
                "tube_inner_diameter_m: must be below tube_outer_diameter_m "
                f"({self.tube_inner_diameter_m} >= {self.tube_outer_diameter_m})"
            )
        if self.collar_diameter_m >= self.transverse_pitch_m:
            raise ValueError(
                "transverse_pitch_m: must exceed the collar diameter "
                f"{self.collar_diameter_m:.5g} m (tube_outer_diameter_m + 2 fin_thickness_m)"
            )
        if self.fin_thickness_m >= self.fin_pitch_m:
            raise ValueError(
                f"fin_thickness_m: {self.fin_thickness_m} m leaves no gap at fins_per_m "
                f"{self.fins_per_m} (fin pitch {self.fin_pitch_m:.5g} m)"
            )
        if self.circuits > self.tubes_per_bank * self.banks:
            raise ValueError(
                f"circuits: {self.circuits} exceeds the {self.tubes_per_bank * self.banks} tubes"
            )
        if self.fin_type not in FIN_TYPES:
            raise ValueError(f"fin_type: {self.fin_type!r} is not one of {', '.join(FIN_TYPES)}")
        needed: dict[str, tuple[str, ...]] = {
            "wavy": ("wave_depth_m", "wave_half_length_m"),
            "herringbone": ("wave_depth_m", "wave_half_length_m"),
            "louvered": ("louver_pitch_m", "louver_height_m"),
        }
        for key in needed.get(self.fin_type, ()):
            value = getattr(self, key)
            if value is None or not value > 0:
                raise ValueError(
                    f"{key}: a {self.fin_type} fin needs a positive {key}, got {value!r}"
                )

    # --- tubes -----------------------------------------------------------------------------
    @property
    def tubes(self) -> int:
        """All tubes of the coil [-]."""
        return self.tubes_per_bank * self.banks

    @property
    def collar_diameter_m(self) -> float:
        """Fin collar diameter ``D_c = D_o + 2 t_f`` [m]."""
        return self.tube_outer_diameter_m + 2.0 * self.fin_thickness_m

    @property
    def inner_area_m2(self) -> float:
        """Refrigerant-side area ``n pi D_i L`` [m^2]."""
        return self.tubes * math.pi * self.tube_inner_diameter_m * self.tube_length_m

    @property
    def internal_volume_m3(self) -> float:
        """Refrigerant-side volume of the tubes ``n pi D_i^2 L / 4`` (bends excluded) [m^3]."""
        return self.tubes * math.pi * self.tube_inner_diameter_m**2 / 4.0 * self.tube_length_m

    # --- fins ------------------------------------------------------------------------------
    @property
    def fin_pitch_m(self) -> float:
        """Fin pitch, centre to centre, ``F_p = 1 / fins_per_m`` [m]."""
        return 1.0 / self.fins_per_m

    @property
    def fin_spacing_m(self) -> float:
        """Free gap between two fins ``F_s = F_p - t_f`` [m]."""
        return self.fin_pitch_m - self.fin_thickness_m

    @property
    def fins(self) -> float:
        """Fins on one tube length ``N_f = fins_per_m L`` [-] (not rounded)."""
        return self.fins_per_m * self.tube_length_m

    @property
    def wave_tan(self) -> float:
        """Tangent of the wave's corrugation angle ``p_d / x_f`` (0 for flat fins) [-]."""
        if self.wave_depth_m is None or self.wave_half_length_m is None:
            return 0.0
        return self.wave_depth_m / self.wave_half_length_m

    @property
    def area_enhancement(self) -> float:
        """Wavy fins' area per projected area ``sec(theta) = sqrt(x_f^2 + p_d^2) / x_f`` [-].

        1 for plain and louvered fins (louver edges are neglected).
        """
        if self.fin_type not in ("wavy", "herringbone"):
            return 1.0
        return math.sqrt(1.0 + self.wave_tan**2)

    # --- coil envelope ---------------------------------------------------------------------
    @property
    def height_m(self) -> float:
        """Coil height across the air flow ``H = tubes_per_bank P_t`` [m]."""
        return self.tubes_per_bank * self.transverse_pitch_m

    @property
    def depth_m(self) -> float:
        """Coil depth in the air flow direction ``L_d = banks P_l`` [m]."""
        return self.banks * self.longitudinal_pitch_m

    @property
    def frontal_area_m2(self) -> float:
        """Face area ``A_fr = H L`` [m^2]."""
        return self.height_m * self.tube_length_m

    @property
    def min_flow_area_m2(self) -> float:
        """Minimum free-flow area ``A_c = (H - n D_c)(L - N_f t_f)`` [m^2]."""
        free_height = self.height_m - self.tubes_per_bank * self.collar_diameter_m
        free_length = self.tube_length_m - self.fins * self.fin_thickness_m
        return free_height * free_length

    @property
    def sigma(self) -> float:
        """Free-flow to face area ratio ``sigma = A_c / A_fr`` [-]."""
        return self.min_flow_area_m2 / self.frontal_area_m2

    @property
    def fin_area_m2(self) -> float:
        """Fin area, both faces less the collar holes, ``2 N_f (H L_d sec(theta) - n pi D_c^2/4)`` [m^2]."""
        sheet = self.height_m * self.depth_m * self.area_enhancement
        holes = self.tubes * math.pi * self.collar_diameter_m**2 / 4.0
        return 2.0 * self.fins * (sheet - holes)

    @property
    def tube_outer_area_m2(self) -> float:
        """Bare collar area between the fins ``n pi D_c (L - N_f t_f)`` [m^2]."""
        free_length = self.tube_length_m - self.fins * self.fin_thickness_m
        return self.tubes * math.pi * self.collar_diameter_m * free_length

    @property
    def bare_tube_area_m2(self) -> float:
        """Outer area of the tubes without fins ``n pi D_c L`` [m^2] (Wang's A_t, for A_o/A_t)."""
        return self.tubes * math.pi * self.collar_diameter_m * self.tube_length_m

    @property
    def air_area_m2(self) -> float:
        """Total air-side area ``A_o = A_f + A_tube`` [m^2]."""
        return self.fin_area_m2 + self.tube_outer_area_m2

    @property
    def fin_area_fraction(self) -> float:
        """Fin share of the air-side area ``A_f / A_o`` [-]."""
        return self.fin_area_m2 / self.air_area_m2

    @property
    def hydraulic_diameter_m(self) -> float:
        """Air-side hydraulic diameter ``D_h = 4 A_c L_d / A_o`` [m]."""
        return 4.0 * self.min_flow_area_m2 * self.depth_m / self.air_area_m2

    # --- flow ------------------------------------------------------------------------------
    def mass_flux(self, air_mass_flow_kg_s: float) -> float:
        """Air mass flux in the minimum free-flow area ``G = m / A_c`` [kg/(m^2 s)].

        Parameters
        ----------
        air_mass_flow_kg_s : float
            Humid-air mass flow through the coil [kg/s].
        """
        return air_mass_flow_kg_s / self.min_flow_area_m2

    def reynolds_collar(self, air_mass_flow_kg_s: float, viscosity_pa_s: float) -> float:
        """Reynolds number on the collar diameter ``Re_Dc = G D_c / mu`` [-].

        Parameters
        ----------
        air_mass_flow_kg_s : float
            Humid-air mass flow [kg/s].
        viscosity_pa_s : float
            Air dynamic viscosity [Pa s].
        """
        return self.mass_flux(air_mass_flow_kg_s) * self.collar_diameter_m / viscosity_pa_s
