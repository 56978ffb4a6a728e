"""Air-side j and f factors of plain and louvered fin-and-tube coils (Wang and co-workers).

Both correlations are written from the papers, in the papers' notation: the Reynolds number
is on the collar diameter, ``Re_Dc = G_c D_c / mu`` with ``G_c`` the mass flux in the minimum
free-flow area [kg/(m^2 s)]; ``j = h Pr^(2/3) / (G_c c_p)`` is the Colburn factor and ``f`` the
Fanning friction factor of the core, ``f = (A_c/A_o)(rho_m/rho_1)[2 rho_1 dp / G_c^2 - (1 +
sigma^2)(rho_1/rho_2 - 1)]`` as the papers reduce their data (Kays & London's core equation,
see :mod:`workbench.correlations.air_side`). The geometric quantities are those of
:class:`workbench.correlations.fin_tube_geometry.FinTubeGeometry` (``D_h = 4 A_c L_d / A_o``).

The peer implementations these were checked against (tests/test_correlations_wang.py):
ACHP ``FinCorrelations.PlainFins`` and EGSim ``FinTubeHEXFins.Wang1999_Louvered_Dry``, run on
the same dimensionless inputs.
"""

from __future__ import annotations

import math

from workbench.correlations.validity import Bound

__all__ = [
    "LOUVERED_WANG_1999_BOUNDS",
    "PLAIN_WANG_2000_BOUNDS",
    "f_louvered_wang_1999",
    "f_plain_wang_2000",
    "j_louvered_wang_1999",
    "j_plain_wang_2000",
]

#: Range of the plain-fin data of Wang, Chi & Chang (2000), 74 samples (as tabulated by Shah &
#: Sekulic 2003, sec. 7.5.4.2) [SI units of each key].
PLAIN_WANG_2000_BOUNDS: tuple[Bound, ...] = (
    Bound("reynolds_dc", 300.0, 20000.0),
    Bound("collar_diameter_m", 6.9e-3, 13.6e-3),
    Bound("hydraulic_diameter_m", 1.30e-3, 9.37e-3),
    Bound("transverse_pitch_m", 20.4e-3, 31.8e-3),
    Bound("longitudinal_pitch_m", 12.7e-3, 32.0e-3),
    Bound("fin_pitch_m", 1.0e-3, 8.7e-3),
    Bound("banks", 1.0, 6.0),
)

#: Range of the louvered-fin data of Wang, Lee, Chang & Lin (1999), 49 samples [SI units].
LOUVERED_WANG_1999_BOUNDS: tuple[Bound, ...] = (
    Bound("reynolds_dc", 100.0, 7000.0),
    Bound("collar_diameter_m", 6.93e-3, 10.42e-3),
    Bound("transverse_pitch_m", 17.7e-3, 25.4e-3),
    Bound("longitudinal_pitch_m", 12.7e-3, 22.0e-3),
    Bound("fin_pitch_m", 1.21e-3, 2.49e-3),
    Bound("louver_pitch_m", 1.7e-3, 3.75e-3),
    Bound("louver_height_m", 0.79e-3, 1.4e-3),
    Bound("banks", 1.0, 6.0),
)


def j_plain_wang_2000(
    re_dc: float,
    banks: int,
    fin_pitch_m: float,
    collar_diameter_m: float,
    hydraulic_diameter_m: float,
    transverse_pitch_m: float,
    longitudinal_pitch_m: float,
) -> float:
    r"""Colburn j factor of plain fins on round tubes, Wang, Chi & Chang (2000).

    Parameters
    ----------
    re_dc : float
        Reynolds number on the collar diameter [-].
    banks : int
        Tube rows N [-].
    fin_pitch_m : float
        Fin pitch F_p [m].
    collar_diameter_m : float
        Collar diameter D_c [m].
    hydraulic_diameter_m : float
        Hydraulic diameter D_h = 4 A_c L_d / A_o [m].
    transverse_pitch_m, longitudinal_pitch_m : float
        Tube pitches P_t and P_l [m].

    Returns
    -------
    float
        Colburn factor j [-].

    Notes
    -----
    For one row (eq. 7 of the paper),

    .. math:: j = 0.108 Re^{-0.29} (P_t/P_l)^{P_1} (F_p/D_c)^{-1.084} (F_p/D_h)^{-0.786}
              (F_p/P_t)^{P_2},\quad P_1 = 1.9 - 0.23 \ln Re,\ P_2 = -0.236 + 0.126 \ln Re

    and for two rows or more (eq. 8),

    .. math:: j = 0.086 Re^{P_3} N^{P_4} (F_p/D_c)^{P_5} (F_p/D_h)^{P_6} (F_p/P_t)^{-0.93}

    with :math:`P_3 = -0.361 - 0.042 N/\ln Re + 0.158 \ln(N (F_p/D_c)^{0.41})`,
    :math:`P_4 = -1.224 - 0.076 (P_l/D_h)^{1.42}/\ln Re`,
    :math:`P_5 = -0.083 + 0.058 N/\ln Re`, :math:`P_6 = -5.735 + 1.21 \ln(Re/N)`.
    Range: :data:`PLAIN_WANG_2000_BOUNDS`. Published accuracy: 88.6 % of the 74 samples'
    data within ±15 %.

    References
    ----------
    .. [1] C.-C. Wang, K.-Y. Chi, C.-J. Chang, "Heat transfer and friction characteristics of
       plain fin-and-tube heat exchangers, part II: Correlation", Int. J. Heat Mass Transfer
       43 (2000) 2693–2700.
    """
    ln_re = math.log(re_dc)
    n = float(banks)
    fp_dc = fin_pitch_m / collar_diameter_m
    fp_dh = fin_pitch_m / hydraulic_diameter_m
    fp_pt = fin_pitch_m / transverse_pitch_m
    if banks == 1:
        p1 = 1.9 - 0.23 * ln_re
        p2 = -0.236 + 0.126 * ln_re
        pt_pl = transverse_pitch_m / longitudinal_pitch_m
        return float(0.108 * re_dc**-0.29 * pt_pl**p1 * fp_dc**-1.084 * fp_dh**-0.786 * fp_pt**p2)
    p3 = -0.361 - 0.042 * n / ln_re + 0.158 * math.log(n * fp_dc**0.41)
    p4 = -1.224 - 0.076 * (longitudinal_pitch_m / hydraulic_diameter_m) ** 1.42 / ln_re
    p5 = -0.083 + 0.058 * n / ln_re
    p6 = -5.735 + 1.21 * math.log(re_dc / n)
    return float(0.086 * re_dc**p3 * n**p4 * fp_dc**p5 * fp_dh**p6 * fp_pt**-0.93)


def f_plain_wang_2000(
    re_dc: float,
    banks: int,
    fin_pitch_m: float,
    collar_diameter_m: float,
    transverse_pitch_m: float,
    longitudinal_pitch_m: float,
) -> float:
    r"""Fanning friction factor of plain fins on round tubes, Wang, Chi & Chang (2000).

    Parameters
    ----------
    re_dc : float
        Reynolds number on the collar diameter [-].
    banks : int
        Tube rows N [-].
    fin_pitch_m, collar_diameter_m : float
        Fin pitch F_p and collar diameter D_c [m].
    transverse_pitch_m, longitudinal_pitch_m : float
        Tube pitches P_t and P_l [m].

    Returns
    -------
    float
        Fanning friction factor f [-].

    Notes
    -----
    Eq. 9 of the paper:

    .. math:: f = 0.0267 Re^{F_1} (P_t/P_l)^{F_2} (F_p/D_c)^{F_3}

    with :math:`F_1 = -0.764 + 0.739 P_t/P_l + 0.177 F_p/D_c - 0.00758/N`,
    :math:`F_2 = -15.689 + 64.021/\ln Re`, :math:`F_3 = 1.696 - 15.695/\ln Re`.
    Published accuracy: 85.1 % of the data within ±15 %.

    References
    ----------
    .. [1] C.-C. Wang, K.-Y. Chi, C.-J. Chang, Int. J. Heat Mass Transfer 43 (2000) 2693–2700.
    """
    ln_re = math.log(re_dc)
    pt_pl = transverse_pitch_m / longitudinal_pitch_m
    fp_dc = fin_pitch_m / collar_diameter_m
    f1 = -0.764 + 0.739 * pt_pl + 0.177 * fp_dc - 0.00758 / banks
    f2 = -15.689 + 64.021 / ln_re
    f3 = 1.696 - 15.695 / ln_re
    return float(0.0267 * re_dc**f1 * pt_pl**f2 * fp_dc**f3)


def j_louvered_wang_1999(
    re_dc: float,
    banks: int,
    fin_pitch_m: float,
    collar_diameter_m: float,
    hydraulic_diameter_m: float,
    transverse_pitch_m: float,
    longitudinal_pitch_m: float,
    louver_pitch_m: float,
    louver_height_m: float,
) -> float:
    r"""Colburn j factor of louvered fins on round tubes, Wang, Lee, Chang & Lin (1999).

    Parameters
    ----------
    re_dc : float
        Reynolds number on the collar diameter [-].
    banks : int
        Tube rows N [-].
    fin_pitch_m, collar_diameter_m, hydraulic_diameter_m : float
        F_p, D_c and D_h [m].
    transverse_pitch_m, longitudinal_pitch_m : float
        P_t and P_l [m].
    louver_pitch_m, louver_height_m : float
        Louver pitch L_p and louver height L_h [m].

    Returns
    -------
    float
        Colburn factor j [-].

    Notes
    -----
    Two branches (eqs. 5 and 6 of the paper). For :math:`Re_{Dc} < 1000`:

    .. math:: j = 14.3117 Re^{J_1} (F_p/D_c)^{J_2} (L_h/L_p)^{J_3} (F_p/P_l)^{J_4}
              (P_l/P_t)^{-1.724}

    :math:`J_1 = -0.991 - 0.1055 (P_l/P_t)^{3.1} \ln(L_h/L_p)`,
    :math:`J_2 = -0.7344 + 2.1059 N^{0.55}/(\ln Re - 3.2)`,
    :math:`J_3 = 0.08485 (P_l/P_t)^{-4.4} N^{-0.68}`, :math:`J_4 = -0.1741 \ln N`;
    for :math:`Re_{Dc} \ge 1000`:

    .. math:: j = 1.1373 Re^{J_5} (F_p/P_l)^{J_6} (L_h/L_p)^{J_7} (P_l/P_t)^{J_8} N^{0.3545}

    :math:`J_5 = -0.6027 + 0.02593 (P_l/D_h)^{0.52} N^{-0.5} \ln(L_h/L_p)`,
    :math:`J_6 = -0.4776 + 0.40774 N^{0.7}/(\ln Re - 4.4)`,
    :math:`J_7 = -0.58655 (F_p/D_h)^{2.3} (P_l/P_t)^{-1.6} N^{-0.65}`,
    :math:`J_8 = 0.0814 (\ln Re - 3)`. The branches do not meet at 1000: j jumps there by a
    few per cent, as in the paper. Range: :data:`LOUVERED_WANG_1999_BOUNDS`. Published
    accuracy: 95.5 % of the data within ±15 %.

    References
    ----------
    .. [1] C.-C. Wang, C.-J. Lee, C.-T. Chang, S.-P. Lin, "Heat transfer and friction
       correlation for compact louvered fin-and-tube heat exchangers", Int. J. Heat Mass
       Transfer 42 (1999) 1945–1956.
    """
    ln_re = math.log(re_dc)
    n = float(banks)
    lh_lp = louver_height_m / louver_pitch_m
    pl_pt = longitudinal_pitch_m / transverse_pitch_m
    if re_dc < 1000.0:
        j1 = -0.991 - 0.1055 * pl_pt**3.1 * math.log(lh_lp)
        j2 = -0.7344 + 2.1059 * n**0.55 / (ln_re - 3.2)
        j3 = 0.08485 * pl_pt**-4.4 * n**-0.68
        j4 = -0.1741 * math.log(n)
        return float(
            14.3117
            * re_dc**j1
            * (fin_pitch_m / collar_diameter_m) ** j2
            * lh_lp**j3
            * (fin_pitch_m / longitudinal_pitch_m) ** j4
            * pl_pt**-1.724
        )
    j5 = -0.6027 + 0.02593 * (
        longitudinal_pitch_m / hydraulic_diameter_m
    ) ** 0.52 * n**-0.5 * math.log(lh_lp)
    j6 = -0.4776 + 0.40774 * n**0.7 / (ln_re - 4.4)
    j7 = -0.58655 * (fin_pitch_m / hydraulic_diameter_m) ** 2.3 * pl_pt**-1.6 * n**-0.65
    j8 = 0.0814 * (ln_re - 3.0)
    return float(
        1.1373
        * re_dc**j5
        * (fin_pitch_m / longitudinal_pitch_m) ** j6
        * lh_lp**j7
        * pl_pt**j8
        * n**0.3545
    )


def f_louvered_wang_1999(
    re_dc: float,
    banks: int,
    fin_pitch_m: float,
    collar_diameter_m: float,
    hydraulic_diameter_m: float,
    transverse_pitch_m: float,
    longitudinal_pitch_m: float,
    louver_pitch_m: float,
    louver_height_m: float,
    area_ratio: float,
) -> float:
    r"""Fanning friction factor of louvered fins on round tubes, Wang, Lee, Chang & Lin (1999).

    Parameters
    ----------
    re_dc : float
        Reynolds number on the collar diameter [-].
    banks : int
        Tube rows N [-].
    fin_pitch_m, collar_diameter_m, hydraulic_diameter_m : float
        F_p, D_c and D_h [m].
    transverse_pitch_m, longitudinal_pitch_m : float
        P_t and P_l [m].
    louver_pitch_m, louver_height_m : float
        L_p and L_h [m].
    area_ratio : float
        Total air-side area over the bare tube area A_o / A_t [-].

    Returns
    -------
    float
        Fanning friction factor f [-].

    Notes
    -----
    For one row (eq. 7 of the paper):

    .. math:: f = 0.00317 Re^{F_1} (F_p/P_l)^{F_2} (D_h/D_c)^{F_3} (L_h/L_p)^{F_4}
              (\ln(A_o/A_t))^{-6.0483}

    :math:`F_1 = 0.1691 + 4.4118 (F_p/P_l)^{-0.3} (L_h/L_p)^{-2} \ln(P_l/P_t) (F_p/P_t)^3`,
    :math:`F_2 = -2.6642 - 14.3809/\ln Re`, :math:`F_3 = -0.6816 \ln(F_p/P_l)`,
    :math:`F_4 = 6.4668 (F_p/P_t)^{1.7} \ln(A_o/A_t)`; for two rows or more (eq. 8):

    .. math:: f = 0.06393 Re^{F_5} (F_p/D_c)^{F_6} (D_h/D_c)^{F_7} (L_h/L_p)^{F_8} N^{F_9}
              (\ln Re - 4)^{-1.093}

    :math:`F_5 = 0.1395 - 0.0101 (F_p/P_l)^{0.58} (L_h/L_p)^{-2} \ln(A_o/A_t)
    (P_l/P_t)^{1.9}`, :math:`F_6 = -6.4367/\ln Re`, :math:`F_7 = 0.07191 \ln Re`,
    :math:`F_8 = -2.0585 (F_p/P_t)^{1.67} \ln Re`, :math:`F_9 = 0.1036 \ln(P_l/P_t)`.
    Published accuracy: 90.8 % of the data within ±15 %.

    References
    ----------
    .. [1] C.-C. Wang, C.-J. Lee, C.-T. Chang, S.-P. Lin, Int. J. Heat Mass Transfer 42
       (1999) 1945–1956.
    """
    ln_re = math.log(re_dc)
    lh_lp = louver_height_m / louver_pitch_m
    ln_a = math.log(area_ratio)
    fp_pl = fin_pitch_m / longitudinal_pitch_m
    fp_pt = fin_pitch_m / transverse_pitch_m
    pl_pt = longitudinal_pitch_m / transverse_pitch_m
    dh_dc = hydraulic_diameter_m / collar_diameter_m
    if banks == 1:
        f1 = 0.1691 + 4.4118 * fp_pl**-0.3 * lh_lp**-2.0 * math.log(pl_pt) * fp_pt**3
        f2 = -2.6642 - 14.3809 / ln_re
        f3 = -0.6816 * math.log(fp_pl)
        f4 = 6.4668 * fp_pt**1.7 * ln_a
        return float(0.00317 * re_dc**f1 * fp_pl**f2 * dh_dc**f3 * lh_lp**f4 * ln_a**-6.0483)
    f5 = 0.1395 - 0.0101 * fp_pl**0.58 * lh_lp**-2.0 * ln_a * pl_pt**1.9
    f6 = -6.4367 / ln_re
    f7 = 0.07191 * ln_re
    f8 = -2.0585 * fp_pt**1.67 * ln_re
    f9 = 0.1036 * math.log(pl_pt)
    return float(
        0.06393
        * re_dc**f5
        * (fin_pitch_m / collar_diameter_m) ** f6
        * dh_dc**f7
        * lh_lp**f8
        * float(banks) ** f9
        * (ln_re - 4.0) ** -1.093
    )
