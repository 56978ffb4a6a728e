"""Parameters of the analytic ``Test`` backend, one record per fluid.

The numbers were fitted once to CoolProp 8 (HEOS) with ``python -m workbench.fluids.analytic._fit``
and are frozen here, so the ``Test`` backend never needs CoolProp. The equations that use them
are in :mod:`workbench.fluids.analytic.backend` and ``docs/fluids.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

__all__ = ["ANALYTIC_FLUIDS", "AnalyticFluid"]


@dataclass(frozen=True)
class AnalyticFluid:
    """Parameters of one fluid of the analytic model (all SI).

    Parameters
    ----------
    name : str
        Canonical fluid name.
    A, B, C : float
        Antoine coefficients, ``ln(p_sat / Pa) = A - B / (T + C)`` with ``B``, ``C`` in [K].
    T_crit : float
        Critical temperature [K]; the latent heat vanishes there.
    T_ref : float
        Reference temperature [K] of the liquid state (0 degC, water 0.01 degC).
    L_ref : float
        Latent heat at ``T_ref`` [J/kg].
    n_watson : float
        Watson exponent of the latent heat [-].
    cp_l : float
        Liquid isobaric heat capacity [J/kg/K].
    v_l : float
        Liquid specific volume [m3/kg] (incompressible).
    cp_v : float
        Vapour isobaric heat capacity [J/kg/K].
    h_ref, s_ref : float
        Saturated liquid enthalpy [J/kg] and entropy [J/kg/K] at ``T_ref`` (CoolProp's default
        reference: IIR for refrigerants, IAPWS for water).
    molar_mass : float
        Molar mass [kg/mol] (information only).
    T_min : float
        Lowest valid temperature [K].
    T_max : float
        Highest valid temperature [K].
    """

    name: str
    A: float
    B: float
    C: float
    T_crit: float
    T_ref: float
    L_ref: float
    n_watson: float
    cp_l: float
    v_l: float
    cp_v: float
    h_ref: float
    s_ref: float
    molar_mass: float
    T_min: float
    T_max: float = 473.15
    p_ref: float = field(init=False)
    """Saturation pressure of the model at ``T_ref`` [Pa]."""
    p_crit: float = field(init=False)
    """Saturation pressure of the model at ``T_crit`` [Pa] (the model's critical pressure)."""

    def __post_init__(self) -> None:
        """Derive ``p_ref`` and ``p_crit`` [Pa] from the Antoine fit at ``T_ref`` and ``T_crit``."""
        object.__setattr__(self, "p_ref", math.exp(self.A - self.B / (self.T_ref + self.C)))
        object.__setattr__(self, "p_crit", math.exp(self.A - self.B / (self.T_crit + self.C)))


# fmt: off
ANALYTIC_FLUIDS: dict[str, AnalyticFluid] = {
    "R134a": AnalyticFluid(name="R134a", A=21.42387, B=2150.1807, C=-29.855243, T_crit=374.21197, T_ref=273.15, L_ref=198483.5, n_watson=0.39291517, cp_l=1393.0778, v_l=0.00077233376, cp_v=957.78357, h_ref=199999.99, s_ref=1000, molar_mass=0.102032, T_min=193.15),
    "R32": AnalyticFluid(name="R32", A=22.20315, B=2295.9598, C=-6.0689802, T_crit=351.255, T_ref=273.15, L_ref=314610.65, n_watson=0.39517242, cp_l=1876.3153, v_l=0.00094763566, cp_v=1225.3662, h_ref=200000.01, s_ref=1000, molar_mass=0.052024, T_min=193.15),
    "R290": AnalyticFluid(name="R290", A=21.094347, B=2102.2537, C=-11.206601, T_crit=369.89001, T_ref=273.15, L_ref=374148.37, n_watson=0.37572435, cp_l=2624.9017, v_l=0.0018918118, cp_v=1926.661, h_ref=199999.99, s_ref=999.99997, molar_mass=0.04409562, T_min=193.15),
    "R410A": AnalyticFluid(name="R410A", A=22.052857, B=2234.9999, C=-9.055611, T_crit=344.494, T_ref=273.15, L_ref=221013.99, n_watson=0.39888327, cp_l=1621.3944, v_l=0.00085474016, cp_v=1103.4831, h_ref=200000.14, s_ref=999.9957, molar_mass=0.0725854, T_min=200),
    "CO2": AnalyticFluid(name="CO2", A=22.557409, B=2108.3597, C=8.2462579, T_crit=304.1282, T_ref=273.15, L_ref=231270.28, n_watson=0.39413066, cp_l=2436.7548, v_l=0.0010782462, cp_v=1278.4123, h_ref=200000, s_ref=1000, molar_mass=0.0440098, T_min=216.592),
    "Water": AnalyticFluid(name="Water", A=23.501524, B=3999.6507, C=-39.090351, T_crit=647.096, T_ref=273.16, L_ref=2498396.5, n_watson=0.32958804, cp_l=4186.845, v_l=0.0010002075, cp_v=1922.0108, h_ref=0.61178171, s_ref=-1.8445967e-10, molar_mass=0.018015268, T_min=273.15, T_max=873.15),
}
# fmt: on
