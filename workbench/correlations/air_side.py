"""Air-side heat transfer coefficient and pressure drop from j and f, and the fin-type registry.

Who reads it: the geometric coils. For a fin-and-tube coil they call
:func:`fin_tube_j_f` (the correlation chosen by the geometry's ``fin_type`` in
:data:`FIN_TUBE_CORRELATIONS`), :func:`fin_tube_range_messages` for the warnings, then
:func:`heat_transfer_coefficient` and :func:`core_pressure_drop`.

Heat transfer: the Colburn analogy the j factors were reduced with,
``h = j G_c c_p / Pr^(2/3)`` (G_c in the minimum free-flow area).

Pressure drop: Kays & London's core equation, the form in which Wang and co-workers (and
Chang et al. for louvers) reduced their friction data, so that f is used the way it was
measured:

``dp = G_c^2 / (2 rho_1) [(K_c + 1 - sigma^2) + 2 (rho_1/rho_2 - 1)
+ f (A_o/A_c)(rho_1/rho_m) - (1 - sigma^2 - K_e)(rho_1/rho_2)]``

with the entrance and exit coefficients K_c and K_e 0 by default: the papers folded them into
f (their data reduction sets them to 0), and for the open fin arrays of air coils they are
small against the core friction. ``rho_m`` is the mean density, ``1/rho_m = (1/rho_1 +
1/rho_2) / 2``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from workbench.correlations import microchannel as mc
from workbench.correlations import wang_plain_louvered as wpl
from workbench.correlations import wang_wavy as ww
from workbench.correlations.fin_tube_geometry import FinTubeGeometry
from workbench.correlations.validity import Bound, out_of_range

__all__ = [
    "FIN_TUBE_CORRELATIONS",
    "FinTubeCorrelation",
    "core_pressure_drop",
    "fin_tube_j_f",
    "fin_tube_range_messages",
    "heat_transfer_coefficient",
    "microchannel_j_f",
    "microchannel_range_messages",
]


def heat_transfer_coefficient(
    j: float, mass_flux_kg_m2_s: float, cp_j_kg_k: float, prandtl: float
) -> float:
    """Air-side heat transfer coefficient from the Colburn factor [W/(m^2 K)].

    Parameters
    ----------
    j : float
        Colburn factor [-].
    mass_flux_kg_m2_s : float
        Mass flux in the minimum free-flow area G_c [kg/(m^2 s)].
    cp_j_kg_k : float
        Air specific heat [J/(kg K)].
    prandtl : float
        Air Prandtl number [-].

    Returns
    -------
    float
        :math:`h = j G_c c_p / Pr^{2/3}` [W/(m^2 K)].
    """
    return j * mass_flux_kg_m2_s * cp_j_kg_k / math.pow(prandtl, 2.0 / 3.0)


def core_pressure_drop(
    f: float,
    mass_flux_kg_m2_s: float,
    area_ratio: float,
    sigma: float,
    rho_in_kg_m3: float,
    rho_out_kg_m3: float,
    kc: float = 0.0,
    ke: float = 0.0,
) -> float:
    r"""Air-side pressure drop of a compact core, Kays & London [Pa].

    Parameters
    ----------
    f : float
        Fanning friction factor of the core [-].
    mass_flux_kg_m2_s : float
        Mass flux in the minimum free-flow area G_c [kg/(m^2 s)].
    area_ratio : float
        Air-side area over the minimum free-flow area A_o / A_c [-].
    sigma : float
        Free-flow to face area ratio A_c / A_fr [-].
    rho_in_kg_m3, rho_out_kg_m3 : float
        Air density at the inlet and the outlet [kg/m^3].
    kc, ke : float
        Entrance contraction and exit expansion coefficients [-]; 0 as in the papers' data
        reduction.

    Returns
    -------
    float
        Pressure drop, positive for a loss [Pa].

    Notes
    -----
    .. math:: \Delta p = \frac{G_c^2}{2\rho_1}\left[(K_c + 1 - \sigma^2)
              + 2\left(\frac{\rho_1}{\rho_2} - 1\right)
              + f \frac{A_o}{A_c}\frac{\rho_1}{\rho_m}
              - (1 - \sigma^2 - K_e)\frac{\rho_1}{\rho_2}\right]

    References
    ----------
    .. [1] W. M. Kays, A. L. London, Compact Heat Exchangers, 3rd ed., McGraw-Hill (1984),
       eq. 2-26a.
    """
    r = rho_in_kg_m3 / rho_out_kg_m3
    rho_m = 2.0 / (1.0 / rho_in_kg_m3 + 1.0 / rho_out_kg_m3)
    bracket = (
        (kc + 1.0 - sigma**2)
        + 2.0 * (r - 1.0)
        + f * area_ratio * rho_in_kg_m3 / rho_m
        - (1.0 - sigma**2 - ke) * r
    )
    return mass_flux_kg_m2_s**2 / (2.0 * rho_in_kg_m3) * bracket


@dataclass(frozen=True)
class FinTubeCorrelation:
    """One fin type's j and f, as functions of the geometry and ``Re_Dc``.

    Parameters
    ----------
    source : str
        The paper, for messages and docs.
    j, f : callable
        ``(geometry, re_dc) -> float``: Colburn and Fanning factors [-].
    bounds : tuple of Bound
        The paper's range.
    """

    source: str
    j: Callable[[FinTubeGeometry, float], float]
    f: Callable[[FinTubeGeometry, float], float]
    bounds: tuple[Bound, ...]


def _common(g: FinTubeGeometry, re_dc: float) -> dict[str, float]:
    return {
        "re_dc": re_dc,
        "fin_pitch_m": g.fin_pitch_m,
        "collar_diameter_m": g.collar_diameter_m,
        "transverse_pitch_m": g.transverse_pitch_m,
        "longitudinal_pitch_m": g.longitudinal_pitch_m,
    }


def _louvers(g: FinTubeGeometry) -> tuple[float, float]:
    if g.louver_pitch_m is None or g.louver_height_m is None:  # the geometry checks it
        raise ValueError("louver_pitch_m: a louvered fin needs louver_pitch_m and louver_height_m")
    return g.louver_pitch_m, g.louver_height_m


def _area_ratio(g: FinTubeGeometry) -> float:
    return g.air_area_m2 / g.bare_tube_area_m2


def _herringbone_args(g: FinTubeGeometry, re_dc: float) -> dict[str, float]:
    # D_h = 4 A_c L / A_o, as for every other Wang fit; not ww.herringbone_hydraulic_diameter,
    # with which the two Reynolds branches of the 2002 j differ 10-17 times (wang_wavy).
    return {
        "re_dc": re_dc,
        "fin_spacing_m": g.fin_spacing_m,
        "collar_diameter_m": g.collar_diameter_m,
        "hydraulic_diameter_m": g.hydraulic_diameter_m,
        "transverse_pitch_m": g.transverse_pitch_m,
        "longitudinal_pitch_m": g.longitudinal_pitch_m,
        "wave_tan": g.wave_tan,
    }


#: The correlation of each ``fin_type`` (the issue 40 contract's fin types).
FIN_TUBE_CORRELATIONS: dict[str, FinTubeCorrelation] = {
    "plain": FinTubeCorrelation(
        "Wang, Chi & Chang (2000)",
        lambda g, re: wpl.j_plain_wang_2000(
            banks=g.banks, hydraulic_diameter_m=g.hydraulic_diameter_m, **_common(g, re)
        ),
        lambda g, re: wpl.f_plain_wang_2000(banks=g.banks, **_common(g, re)),
        wpl.PLAIN_WANG_2000_BOUNDS,
    ),
    "louvered": FinTubeCorrelation(
        "Wang, Lee, Chang & Lin (1999)",
        lambda g, re: wpl.j_louvered_wang_1999(
            banks=g.banks,
            hydraulic_diameter_m=g.hydraulic_diameter_m,
            louver_pitch_m=_louvers(g)[0],
            louver_height_m=_louvers(g)[1],
            **_common(g, re),
        ),
        lambda g, re: wpl.f_louvered_wang_1999(
            banks=g.banks,
            hydraulic_diameter_m=g.hydraulic_diameter_m,
            louver_pitch_m=_louvers(g)[0],
            louver_height_m=_louvers(g)[1],
            area_ratio=_area_ratio(g),
            **_common(g, re),
        ),
        wpl.LOUVERED_WANG_1999_BOUNDS,
    ),
    "wavy": FinTubeCorrelation(
        "Wang, Jang & Chiou (1999)",
        lambda g, re: ww.j_wavy_wang_1999(
            banks=g.banks,
            hydraulic_diameter_m=g.hydraulic_diameter_m,
            wave_tan=g.wave_tan,
            **_common(g, re),
        ),
        lambda g, re: ww.f_wavy_wang_1999(
            banks=g.banks,
            hydraulic_diameter_m=g.hydraulic_diameter_m,
            wave_tan=g.wave_tan,
            area_ratio=_area_ratio(g),
            **_common(g, re),
        ),
        ww.WAVY_WANG_1999_BOUNDS,
    ),
    "herringbone": FinTubeCorrelation(
        "Wang, Hwang & Lin (2002)",
        lambda g, re: ww.j_herringbone_wang_2002(banks=g.banks, **_herringbone_args(g, re)),
        lambda g, re: ww.f_herringbone_wang_2002(banks=g.banks, **_herringbone_args(g, re)),
        ww.HERRINGBONE_WANG_2002_BOUNDS,
    ),
}


def fin_tube_j_f(geometry: FinTubeGeometry, re_dc: float) -> tuple[float, float]:
    """Colburn and Fanning factors of a fin-and-tube coil by its fin type [-].

    Parameters
    ----------
    geometry : FinTubeGeometry
        The coil.
    re_dc : float
        Reynolds number on the collar diameter [-].

    Returns
    -------
    tuple of float
        ``(j, f)`` [-].
    """
    corr = FIN_TUBE_CORRELATIONS[geometry.fin_type]
    return corr.j(geometry, re_dc), corr.f(geometry, re_dc)


def fin_tube_range_messages(geometry: FinTubeGeometry, re_dc: float) -> list[str]:
    """The inputs of a coil outside its fin type's correlation range, one message each.

    Parameters
    ----------
    geometry : FinTubeGeometry
        The coil.
    re_dc : float
        Reynolds number on the collar diameter [-].

    Returns
    -------
    list of str
        ``"<key> = <value> outside <low>–<high> (<paper>)"``; empty when inside.
    """
    corr = FIN_TUBE_CORRELATIONS[geometry.fin_type]
    values: dict[str, float] = {
        "reynolds_dc": re_dc,
        "collar_diameter_m": geometry.collar_diameter_m,
        "hydraulic_diameter_m": geometry.hydraulic_diameter_m,
        "transverse_pitch_m": geometry.transverse_pitch_m,
        "longitudinal_pitch_m": geometry.longitudinal_pitch_m,
        "fin_pitch_m": geometry.fin_pitch_m,
        "banks": float(geometry.banks),
    }
    for key in ("louver_pitch_m", "louver_height_m", "wave_depth_m", "wave_half_length_m"):
        value = getattr(geometry, key)
        if value is not None:
            values[key] = value
    if geometry.fin_type in ("wavy", "herringbone"):
        values["wave_tan"] = geometry.wave_tan
    return out_of_range(values, corr.bounds, corr.source)


def microchannel_j_f(
    geometry: mc.MicrochannelGeometry, re_lp: float, j_correlation: str = "chang_wang"
) -> tuple[float, float]:
    """Colburn and Fanning factors of a microchannel coil [-].

    Parameters
    ----------
    geometry : MicrochannelGeometry
        The coil.
    re_lp : float
        Reynolds number on the louver pitch [-].
    j_correlation : {"chang_wang", "kim_bullard"}
        Chang & Wang (1997), the default (the wider data set), or Kim & Bullard (2002).

    Returns
    -------
    tuple of float
        ``(j, f)``, f from Chang et al. (2000) [-].

    Raises
    ------
    ValueError
        An unknown ``j_correlation``.
    """
    g = geometry
    common = {
        "re_lp": re_lp,
        "louver_angle_deg": g.louver_angle_deg,
        "fin_pitch_m": g.fin_pitch_m,
        "fin_length_m": g.fin_length_m,
        "louver_length_m": g.louver_length,
        "tube_pitch_m": g.tube_pitch_m,
        "fin_thickness_m": g.fin_thickness_m,
        "louver_pitch_m": g.louver_pitch_m,
    }
    if j_correlation == "chang_wang":
        j = mc.j_louver_chang_wang_1997(tube_depth_m=g.tube_depth_m, **common)
    elif j_correlation == "kim_bullard":
        j = mc.j_louver_kim_bullard_2002(fin_depth_m=g.fin_depth, **common)
    else:
        raise ValueError(f"j_correlation: {j_correlation!r} is not one of chang_wang, kim_bullard")
    f = mc.f_louver_chang_2000(
        fin_depth_m=g.fin_depth,
        tube_height_m=g.tube_height_m,
        hydraulic_diameter_m=g.hydraulic_diameter_m,
        **common,
    )
    return j, f


def microchannel_range_messages(
    geometry: mc.MicrochannelGeometry, re_lp: float, j_correlation: str = "chang_wang"
) -> list[str]:
    """The inputs of a microchannel coil outside its correlations' ranges, one message each.

    Parameters
    ----------
    geometry : MicrochannelGeometry
        The coil.
    re_lp : float
        Reynolds number on the louver pitch [-].
    j_correlation : {"chang_wang", "kim_bullard"}
        The j correlation in use.

    Returns
    -------
    list of str
        Messages of the j correlation's range, then of the friction factor's.
    """
    values = {
        "reynolds_lp": re_lp,
        "louver_angle_deg": geometry.louver_angle_deg,
        "fin_pitch_m": geometry.fin_pitch_m,
        "fin_depth_m": geometry.fin_depth,
    }
    if j_correlation == "kim_bullard":
        j_msgs = out_of_range(values, mc.KIM_BULLARD_2002_BOUNDS, "Kim & Bullard (2002)")
    else:
        j_msgs = out_of_range(values, mc.CHANG_WANG_1997_BOUNDS, "Chang & Wang (1997)")
    return j_msgs + out_of_range(values, mc.CHANG_2000_BOUNDS, "Chang et al. (2000)")
