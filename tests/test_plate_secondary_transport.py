"""Transport properties of the liquid secondary fluids against CoolProp evaluated here."""

from __future__ import annotations

import CoolProp.CoolProp as CP
import numpy as np
import pytest

from workbench.errors import FluidPropertyError
from workbench.fluids.secondary_transport import secondary_transport


@pytest.mark.parametrize(
    ("name", "source", "tolerance"),
    [
        ("water", "Water", 6e-4),
        ("MPG30", "INCOMP::MPG-30%", 1e-10),
        ("MEG40", "INCOMP::MEG-40%", 1e-10),
    ],
)
def test_secondary_transport_against_coolprop(name: str, source: str, tolerance: float) -> None:
    st = secondary_transport(name)
    for t in np.linspace(st.T_min + 0.02, st.T_max - 0.02, 23):
        t = float(t)
        for value, key in ((st.rho(t), "D"), (st.mu(t), "V"), (st.k(t), "L")):
            assert value == pytest.approx(CP.PropsSI(key, "T", t, "P", 3e5, source), rel=tolerance)


def test_secondary_transport_range_and_air() -> None:
    st = secondary_transport("MPG30")
    with pytest.raises(FluidPropertyError, match="outside the valid range"):
        st.mu(st.T_min - 1.0)
    with pytest.raises(FluidPropertyError, match="no liquid transport"):
        secondary_transport("air")
    # glycol is more viscous than water at the same temperature
    assert st.mu(283.15) > 2.0 * secondary_transport("water").mu(283.15)
