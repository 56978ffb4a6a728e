"""Geometry of a brazed plate heat exchanger with chevron plates, computed once.

Who reads it: the plate correlations of this package (:mod:`.plate_single_phase`,
:mod:`.plate_two_phase`) take their diameters, areas and angles from a :class:`PlateGeometry`,
and the plate exchanger component (issue 41) builds one from the scenario's
``"geometry": {"kind": "brazed_plate", ...}`` keys, which are the field names here.

Definitions (Martin 1996; Amalfi et al. 2016 part 1; the conventions of
:class:`fluids.geometry.PlateExchanger`)::

    b      = channel_gap_m                      pressing (corrugation) depth, twice the amplitude a
    Lambda = corrugation_pitch_m                wavelength of the corrugation
    phi    = 2 E(-(pi b / Lambda)^2) / pi       area enlargement of a sinusoidal corrugation
                                                (E: complete elliptic integral of the 2nd kind)
    D_eq   = 2 b                                equivalent diameter of the channel
    D_h    = 2 b / phi                          hydraulic diameter (4 x flow area / wetted perimeter)
    N_ch   = plates - 1                         channels; the refrigerant takes floor(N_ch / 2),
                                                the secondary fluid ceil(N_ch / 2)
    A_ch   = b W                                flow area of one channel
    L_eff  = L_pp - D_port                      length between the port edges (heat transfer)
    A      = (plates - 2) L_eff W phi           heat-transfer area (the two end plates take no part)
    V_side = N_side b W L_eff + 2 (pi/4) D_port^2 H_pack     internal volume of one side
    H_pack = plates t + (plates - 1) b          depth of the plate pack

``plate_length_m`` is the distance between the port centres along the flow (``L_pp``, the
dimension of a datasheet); the channel friction of Martin and Muley-Manglik is referred to it,
the heat-transfer area to ``L_eff``. The volume of the two ports of a side through the whole pack
is counted with that side (an approximation that slightly overstates the port share, since half
the port length lies in the other side's channels, where the port ring is brazed shut).

References
----------
.. [1] H. Martin, "A theoretical approach to predict the performance of chevron-type plate heat
   exchangers", Chem. Eng. Process. 35 (1996) 301-310.
.. [2] R. L. Amalfi, F. Vakili-Farahani, J. R. Thome, "Flow boiling and frictional pressure
   gradients in plate heat exchangers. Part 1: Review and experimental database", Int. J.
   Refrig. 61 (2016) 166-184.
.. [3] C. Bell, fluids (``fluids.geometry.plate_enlargement_factor``), MIT licence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from fluids.geometry import plate_enlargement_factor

from workbench.errors import ScenarioError, ScenarioIssue

__all__ = ["STAINLESS_CONDUCTIVITY_W_M_K", "PlateGeometry"]

STAINLESS_CONDUCTIVITY_W_M_K = 16.0
"""Thermal conductivity of AISI 316L plates near 20 °C [W/(m K)] (about 14-16 across 0-100 °C)."""


@dataclass(frozen=True)
class PlateGeometry:
    """Hardware of a brazed plate heat exchanger and the quantities derived from it.

    Parameters
    ----------
    plates : int
        Number of plates, the two end plates included [-]; at least 3.
    plate_length_m : float
        Distance between the port centres along the flow, ``L_pp`` [m].
    plate_width_m : float
        Width of the plate inside the gasket or braze line, ``W`` [m].
    chevron_angle_deg : float
        Angle of the corrugations to the main flow direction, ``beta`` [deg], 0 < beta < 90
        (the convention of Martin, Muley-Manglik, Amalfi and ``ht``: a high angle is the hard,
        high-friction plate).
    corrugation_pitch_m : float
        Wavelength of the corrugation, ``Lambda`` [m].
    channel_gap_m : float
        Pressing depth of the corrugation, the mean gap between two plates, ``b`` [m].
    plate_thickness_m : float
        Thickness of one plate, ``t`` [m].
    port_diameter_m : float
        Diameter of the ports, ``D_port`` [m]; smaller than the plate length and width.
    plate_conductivity_w_m_k : float, optional
        Thermal conductivity of the plate metal [W/(m K)]; stainless steel by default.

    Raises
    ------
    ScenarioError
        For every key outside its domain, with the key as path (``plates``, ``channel_gap_m``...).
    """

    plates: int
    plate_length_m: float
    plate_width_m: float
    chevron_angle_deg: float
    corrugation_pitch_m: float
    channel_gap_m: float
    plate_thickness_m: float
    port_diameter_m: float
    plate_conductivity_w_m_k: float = STAINLESS_CONDUCTIVITY_W_M_K

    def __post_init__(self) -> None:
        """Check every key and raise one error listing all that are wrong."""
        issues: list[ScenarioIssue] = []
        if isinstance(self.plates, bool) or not isinstance(self.plates, int) or self.plates < 3:
            issues.append(ScenarioIssue("plates", f"must be an integer >= 3, got {self.plates!r}"))
        positive = (
            "plate_length_m",
            "plate_width_m",
            "corrugation_pitch_m",
            "channel_gap_m",
            "plate_thickness_m",
            "port_diameter_m",
            "plate_conductivity_w_m_k",
        )
        for name in positive:
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value > 0.0):
                issues.append(ScenarioIssue(name, f"must be a positive number, got {value!r}"))
        angle = self.chevron_angle_deg
        if not (isinstance(angle, int | float) and 0.0 < angle < 90.0):
            issues.append(
                ScenarioIssue("chevron_angle_deg", f"must lie in (0, 90) degrees, got {angle!r}")
            )
        if not issues and self.port_diameter_m >= min(self.plate_length_m, self.plate_width_m):
            issues.append(
                ScenarioIssue(
                    "port_diameter_m",
                    f"{self.port_diameter_m} m must be smaller than the plate length "
                    f"{self.plate_length_m} m and width {self.plate_width_m} m",
                )
            )
        if issues:
            raise ScenarioError(issues, source="brazed_plate geometry")

    @property
    def enlargement_factor(self) -> float:
        """Area enlargement of the sinusoidal corrugation, ``phi`` [-] (fluids, exact integral)."""
        return float(
            plate_enlargement_factor(
                amplitude=0.5 * self.channel_gap_m, wavelength=self.corrugation_pitch_m
            )
        )

    @property
    def equivalent_diameter_m(self) -> float:
        """Equivalent diameter of a channel, ``D_eq = 2 b`` [m]."""
        return 2.0 * self.channel_gap_m

    @property
    def hydraulic_diameter_m(self) -> float:
        """Hydraulic diameter of a channel, ``D_h = 2 b / phi`` [m]."""
        return 2.0 * self.channel_gap_m / self.enlargement_factor

    @property
    def channels(self) -> int:
        """Number of channels between the plates, ``plates - 1`` [-]."""
        return self.plates - 1

    @property
    def channels_refrigerant(self) -> int:
        """Channels of the refrigerant side, ``floor((plates - 1) / 2)`` [-]."""
        return self.channels // 2

    @property
    def channels_secondary(self) -> int:
        """Channels of the secondary (water or brine) side, ``ceil((plates - 1) / 2)`` [-].

        With an odd channel count the secondary fluid takes the two outer channels, so the
        refrigerant channels lie between secondary channels (the usual evaporator and
        condenser arrangement).
        """
        return self.channels - self.channels_refrigerant

    @property
    def channel_flow_area_m2(self) -> float:
        """Flow area of one channel, ``A_ch = b W`` [m^2]."""
        return self.channel_gap_m * self.plate_width_m

    @property
    def effective_length_m(self) -> float:
        """Length between the port edges, ``L_eff = L_pp - D_port`` [m]."""
        return self.plate_length_m - self.port_diameter_m

    @property
    def plate_area_m2(self) -> float:
        """Corrugated heat-transfer area of one plate, ``L_eff W phi`` [m^2]."""
        return self.effective_length_m * self.plate_width_m * self.enlargement_factor

    @property
    def heat_transfer_area_m2(self) -> float:
        """Heat-transfer area of the exchanger, ``(plates - 2) L_eff W phi`` [m^2]."""
        return (self.plates - 2) * self.plate_area_m2

    @property
    def pack_depth_m(self) -> float:
        """Depth of the plate pack, ``plates t + (plates - 1) b`` [m]."""
        return self.plates * self.plate_thickness_m + self.channels * self.channel_gap_m

    @property
    def port_area_m2(self) -> float:
        """Cross-section of one port, ``pi D_port^2 / 4`` [m^2]."""
        return 0.25 * math.pi * self.port_diameter_m**2

    def side_channels(self, side: str) -> int:
        """Channels of one side [-].

        Parameters
        ----------
        side : {"refrigerant", "secondary"}
            Which side.

        Returns
        -------
        int
            Number of channels of that side [-].

        Raises
        ------
        ValueError
            For another side name.
        """
        if side == "refrigerant":
            return self.channels_refrigerant
        if side == "secondary":
            return self.channels_secondary
        raise ValueError(f"side must be 'refrigerant' or 'secondary', got {side!r}")

    def internal_volume_m3(self, side: str) -> float:
        """Internal volume of one side, channels and its two ports [m^3].

        Parameters
        ----------
        side : {"refrigerant", "secondary"}
            Which side.

        Returns
        -------
        float
            ``N_side b W L_eff + 2 (pi/4) D_port^2 H_pack`` [m^3].

        Raises
        ------
        ValueError
            For another side name.
        """
        channels = self.side_channels(side)
        return (
            channels * self.channel_flow_area_m2 * self.effective_length_m
            + 2.0 * self.port_area_m2 * self.pack_depth_m
        )

    @property
    def wall_resistance_m2_k_w(self) -> float:
        """Conduction resistance of one plate per unit area, ``t / k`` [m^2 K/W]."""
        return self.plate_thickness_m / self.plate_conductivity_w_m_k
