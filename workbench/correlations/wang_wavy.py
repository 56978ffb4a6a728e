"""Air-side j and f factors of wavy and herringbone fin-and-tube coils (Wang and co-workers).

Which paper covers which ``fin_type`` of the contract, and why:

- ``"wavy"``: Wang, Jang & Chiou (1999), IJHMT 42, "A heat transfer and friction correlation
  for wavy fin-and-tube heat exchangers": one equation for j and one for f over the whole
  Reynolds range, fitted to the wavy-fin samples of that laboratory; it is the paper whose
  title and scope are the generic wavy fin, and the one Shah & Sekulic (2003, sec. 7.5.4.3)
  reproduce for wavy fins on 7.94–9.53 mm tubes.
- ``"herringbone"``: Wang, Hwang & Lin (2002), IJR 25, "Empirical correlations for heat
  transfer and flow friction characteristics of herringbone wavy fin-and-tube heat
  exchangers": the later, herringbone-specific fit with separate branches below and above
  ``Re_Dc = 1000``; ACHP uses it for its ``HerringboneFins``. It takes the usual
  ``D_h = 4 A_c L / A_o`` (the coil's ``hydraulic_diameter_m``), not the volumetric
  :func:`herringbone_hydraulic_diameter` ACHP feeds it: with the latter its j branches differ
  10-17 times at ``Re_Dc = 1000`` and its high-branch j is 4-9 times below the 1999 wavy
  fit; with ``4 A_c L / A_o`` they meet within 11 % and agree with the 1999 fit within 20 %
  (docs/correlations.md, tests/test_correlations_herringbone.py).

Both data sets are corrugated (sharp-crested, "herringbone" in plan) wavy fins; neither
contains smooth sinusoidal waves, so a smooth-wave fin is outside both (docs/correlations.md).
The wave is described by its depth ``p_d`` and projected half length ``x_f``; ``tan(theta) =
p_d / x_f``. Reynolds number, j and f are defined as in
:mod:`workbench.correlations.wang_plain_louvered`.
"""

from __future__ import annotations

import math

from workbench.correlations.validity import Bound

__all__ = [
    "HERRINGBONE_WANG_2002_BOUNDS",
    "WAVY_WANG_1999_BOUNDS",
    "f_herringbone_wang_2002",
    "f_wavy_wang_1999",
    "herringbone_hydraulic_diameter",
    "j_herringbone_wang_2002",
    "j_wavy_wang_1999",
]

#: Range of the wavy-fin data of Wang, Jang & Chiou (1999) as tabulated by Shah & Sekulic
#: (2003) [SI units of each key; the corrugation angle as tan(theta)].
WAVY_WANG_1999_BOUNDS: tuple[Bound, ...] = (
    Bound("reynolds_dc", 300.0, 8000.0),
    Bound("collar_diameter_m", 8.58e-3, 10.38e-3),
    Bound("hydraulic_diameter_m", 1.53e-3, 4.52e-3),
    Bound("transverse_pitch_m", 25.4e-3, 25.4e-3),
    Bound("longitudinal_pitch_m", 19.05e-3, 25.04e-3),
    Bound("fin_pitch_m", 1.21e-3, 3.66e-3),
    Bound("banks", 1.0, 6.0),
    Bound("wave_tan", math.tan(math.radians(14.5)), math.tan(math.radians(18.5))),
    Bound("wave_half_length_m", 4.76e-3, 6.35e-3),
    Bound("wave_depth_m", 1.18e-3, 1.68e-3),
)

#: Range of the herringbone data of Wang, Hwang & Lin (2002): the same laboratory's samples
#: on 7.94 and 9.52 mm tubes; the bounds are those of the 1999 set, with the Reynolds number
#: and collar diameter as stated for the 2002 fit [SI units].
HERRINGBONE_WANG_2002_BOUNDS: tuple[Bound, ...] = (
    Bound("reynolds_dc", 300.0, 8000.0),
    Bound("collar_diameter_m", 8.58e-3, 10.38e-3),
    Bound("longitudinal_pitch_m", 19.05e-3, 25.4e-3),
    Bound("fin_pitch_m", 1.21e-3, 3.66e-3),
    Bound("banks", 1.0, 6.0),
    Bound("wave_tan", math.tan(math.radians(14.5)), math.tan(math.radians(18.5))),
)


def j_wavy_wang_1999(
    re_dc: float,
    banks: int,
    fin_pitch_m: float,
    collar_diameter_m: float,
    hydraulic_diameter_m: float,
    transverse_pitch_m: float,
    longitudinal_pitch_m: float,
    wave_tan: float,
) -> float:
    r"""Colburn j factor of wavy fins, Wang, Jang & Chiou (1999).

    Parameters
    ----------
    re_dc : float
        Reynolds number on the collar diameter [-].
    banks : int
        Tube rows N [-].
    fin_pitch_m, collar_diameter_m, hydraulic_diameter_m : float
        F_p, D_c and D_h = 4 A_c L_d / A_o [m].
    transverse_pitch_m, longitudinal_pitch_m : float
        P_t and P_l [m].
    wave_tan : float
        Tangent of the corrugation angle, p_d / x_f [-].

    Returns
    -------
    float
        Colburn factor j [-].

    Notes
    -----
    .. math:: j = 0.324 Re^{J_1} (F_p/P_l)^{J_2} (\tan\theta)^{J_3} (P_l/P_t)^{J_4} N^{0.428}

    :math:`J_1 = -0.229 + 0.115 (F_p/D_c)^{0.6} (P_l/D_h)^{0.54} N^{-0.284}
    \ln(0.5 \tan\theta)`, :math:`J_2 = -0.251 + 0.232 N^{1.37}/(\ln Re - 2.303)`,
    :math:`J_3 = -0.439 (F_p/D_h)^{0.09} (P_l/P_t)^{-1.75} N^{-0.93}`,
    :math:`J_4 = 0.502 (\ln Re - 2.54)`. Range: :data:`WAVY_WANG_1999_BOUNDS`.

    References
    ----------
    .. [1] C.-C. Wang, J.-Y. Jang, N.-F. Chiou, "A heat transfer and friction correlation for
       wavy fin-and-tube heat exchangers", Int. J. Heat Mass Transfer 42 (1999) 1919–1924.
    .. [2] R. K. Shah, D. P. Sekulic, Fundamentals of Heat Exchanger Design, Wiley (2003),
       sec. 7.5.4.3.
    """
    ln_re = math.log(re_dc)
    n = float(banks)
    pl_pt = longitudinal_pitch_m / transverse_pitch_m
    j1 = -0.229 + 0.115 * (fin_pitch_m / collar_diameter_m) ** 0.6 * (
        longitudinal_pitch_m / hydraulic_diameter_m
    ) ** 0.54 * n**-0.284 * math.log(0.5 * wave_tan)
    j2 = -0.251 + 0.232 * n**1.37 / (ln_re - 2.303)
    j3 = -0.439 * (fin_pitch_m / hydraulic_diameter_m) ** 0.09 * pl_pt**-1.75 * n**-0.93
    j4 = 0.502 * (ln_re - 2.54)
    return float(
        0.324
        * re_dc**j1
        * (fin_pitch_m / longitudinal_pitch_m) ** j2
        * wave_tan**j3
        * pl_pt**j4
        * n**0.428
    )


def f_wavy_wang_1999(
    re_dc: float,
    banks: int,
    fin_pitch_m: float,
    collar_diameter_m: float,
    hydraulic_diameter_m: float,
    transverse_pitch_m: float,
    longitudinal_pitch_m: float,
    wave_tan: float,
    area_ratio: float,
) -> float:
    r"""Fanning friction factor of wavy fins, Wang, Jang & Chiou (1999).

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
    wave_tan : float
        p_d / x_f [-].
    area_ratio : float
        Total air-side area over the bare tube area A_o / A_t [-].

    Returns
    -------
    float
        Fanning friction factor f [-].

    Notes
    -----
    .. math:: f = 0.01915 Re^{F_1} (\tan\theta)^{F_2} (F_p/P_l)^{F_3}
              (\ln(A_o/A_t))^{-5.35} (D_h/D_c)^{1.3796} N^{-0.0916}

    :math:`F_1 = 0.4604 - 0.01336 (F_p/P_l)^{0.58} \ln(A_o/A_t) (\tan\theta)^{-1.5}`,
    :math:`F_2 = 3.247 (F_p/P_t)^{1.4} \ln(A_o/A_t)`, :math:`F_3 = -20.113/\ln Re`.

    References
    ----------
    .. [1] C.-C. Wang, J.-Y. Jang, N.-F. Chiou, Int. J. Heat Mass Transfer 42 (1999)
       1919–1924.
    """
    ln_re = math.log(re_dc)
    ln_a = math.log(area_ratio)
    fp_pl = fin_pitch_m / longitudinal_pitch_m
    f1 = 0.4604 - 0.01336 * fp_pl**0.58 * ln_a * wave_tan**-1.5
    f2 = 3.247 * (fin_pitch_m / transverse_pitch_m) ** 1.4 * ln_a
    f3 = -20.113 / ln_re
    return float(
        0.01915
        * re_dc**f1
        * wave_tan**f2
        * fp_pl**f3
        * ln_a**-5.35
        * (hydraulic_diameter_m / collar_diameter_m) ** 1.3796
        * float(banks) ** -0.0916
    )


def herringbone_hydraulic_diameter(
    fin_spacing_m: float,
    collar_diameter_m: float,
    transverse_pitch_m: float,
    longitudinal_pitch_m: float,
    wave_tan: float,
) -> float:
    r"""Volumetric hydraulic diameter 4 (free volume) / (wetted area) of a herringbone passage [m].

    The formula ACHP's ``HerringboneFins`` uses as Wang, Hwang & Lin's (2002) D_h (with sec
    theta where ACHP notes "a bug in the paper"). It is 1.3-1.5 times ``4 A_c L / A_o`` and is
    *not* the D_h the 2002 fit takes: fed this value the fit's two j branches differ 10-17
    times at ``Re_Dc = 1000``; fed ``4 A_c L / A_o`` they meet (docs/correlations.md). Kept
    for that comparison; the coils use ``FinTubeGeometry.hydraulic_diameter_m``.

    Parameters
    ----------
    fin_spacing_m : float
        Free gap between fins F_s [m].
    collar_diameter_m : float
        D_c [m].
    transverse_pitch_m, longitudinal_pitch_m : float
        P_t and P_l [m].
    wave_tan : float
        p_d / x_f [-].

    Returns
    -------
    float
        :math:`D_h = 2 F_s (1 - \beta) / ((1 - \beta) \sec\theta + 2 F_s \beta / D_c)` with
        :math:`\beta = \pi D_c^2 / (4 P_t P_l)` [m].
    """
    beta = math.pi * collar_diameter_m**2 / (4.0 * transverse_pitch_m * longitudinal_pitch_m)
    sec = math.sqrt(1.0 + wave_tan**2)
    return (
        2.0
        * fin_spacing_m
        * (1.0 - beta)
        / ((1.0 - beta) * sec + 2.0 * fin_spacing_m * beta / collar_diameter_m)
    )


def j_herringbone_wang_2002(
    re_dc: float,
    banks: int,
    fin_spacing_m: float,
    collar_diameter_m: float,
    hydraulic_diameter_m: float,
    transverse_pitch_m: float,
    longitudinal_pitch_m: float,
    wave_tan: float,
) -> float:
    r"""Colburn j factor of herringbone wavy fins, Wang, Hwang & Lin (2002).

    Parameters
    ----------
    re_dc : float
        Reynolds number on the collar diameter [-].
    banks : int
        Tube rows N [-].
    fin_spacing_m : float
        Free gap between fins F_s [m].
    collar_diameter_m : float
        D_c [m].
    hydraulic_diameter_m : float
        D_h = 4 A_c L / A_o (``FinTubeGeometry.hydraulic_diameter_m``), not
        :func:`herringbone_hydraulic_diameter` [m].
    transverse_pitch_m, longitudinal_pitch_m : float
        P_t and P_l [m].
    wave_tan : float
        p_d / x_f [-].

    Returns
    -------
    float
        Colburn factor j [-].

    Notes
    -----
    For :math:`Re_{Dc} < 1000`:

    .. math:: j = 0.882 Re^{J_1} (D_c/D_h)^{J_2} (F_s/P_t)^{J_3} (F_s/D_c)^{-1.58}
              (\tan\theta)^{-0.2}

    :math:`J_1 = 0.0045 - 0.491 Re^{-0.0316 - 0.0171 \ln(N \tan\theta)}
    (P_l/P_t)^{-0.109 \ln(N \tan\theta)} (D_c/D_h)^{0.542 + 0.0471 N} (F_s/D_c)^{0.984}
    (F_s/P_t)^{-0.349}`, :math:`J_2 = -2.72 + 6.84 \tan\theta`, :math:`J_3 = 2.66
    \tan\theta`; for :math:`Re_{Dc} \ge 1000`:

    .. math:: j = 0.0646 Re^{J_4} (D_c/D_h)^{J_5} (F_s/P_t)^{-1.03} (P_l/D_c)^{0.432}
              (\tan\theta)^{-0.692} N^{-0.737}

    :math:`J_4 = -0.0545 - 0.0538 \tan\theta - 0.302 N^{-0.24} (F_s/P_l)^{-1.3}
    (P_l/P_t)^{0.379} (P_l/D_h)^{-1.35} (\tan\theta)^{-0.256}`,
    :math:`J_5 = -1.29 (P_l/P_t)^{1.77 - 9.43 \tan\theta} (D_c/D_h)^{0.229 - 1.43
    \tan\theta} N^{-0.166 - 1.08 \tan\theta} (F_s/P_t)^{-0.174 \ln(0.5 N)}`.
    Range: :data:`HERRINGBONE_WANG_2002_BOUNDS`. With ``D_h = 4 A_c L / A_o`` the branches meet
    at ``Re_Dc = 1000`` within 11 % on a 9.52 mm, 550 fins/m coil of 1-4 rows (at the corners
    of the range within a factor 2.8).

    References
    ----------
    .. [1] C.-C. Wang, Y.-M. Hwang, Y.-T. Lin, "Empirical correlations for heat transfer and
       flow friction characteristics of herringbone wavy fin-and-tube heat exchangers",
       Int. J. Refrigeration 25 (2002) 673–680.
    """
    n = float(banks)
    t = wave_tan
    dc_dh = collar_diameter_m / hydraulic_diameter_m
    fs_pt = fin_spacing_m / transverse_pitch_m
    fs_dc = fin_spacing_m / collar_diameter_m
    pl_pt = longitudinal_pitch_m / transverse_pitch_m
    if re_dc < 1000.0:
        ln_nt = math.log(n * t)
        j1 = (
            0.0045
            - 0.491
            * re_dc ** (-0.0316 - 0.0171 * ln_nt)
            * pl_pt ** (-0.109 * ln_nt)
            * dc_dh ** (0.542 + 0.0471 * n)
            * fs_dc**0.984
            * fs_pt**-0.349
        )
        j2 = -2.72 + 6.84 * t
        j3 = 2.66 * t
        return float(0.882 * re_dc**j1 * dc_dh**j2 * fs_pt**j3 * fs_dc**-1.58 * t**-0.2)
    j4 = (
        -0.0545
        - 0.0538 * t
        - 0.302
        * n**-0.24
        * (fin_spacing_m / longitudinal_pitch_m) ** -1.3
        * pl_pt**0.379
        * (longitudinal_pitch_m / hydraulic_diameter_m) ** -1.35
        * t**-0.256
    )
    j5 = (
        -1.29
        * pl_pt ** (1.77 - 9.43 * t)
        * dc_dh ** (0.229 - 1.43 * t)
        * n ** (-0.166 - 1.08 * t)
        * fs_pt ** (-0.174 * math.log(0.5 * n))
    )
    return float(
        0.0646
        * re_dc**j4
        * dc_dh**j5
        * fs_pt**-1.03
        * (longitudinal_pitch_m / collar_diameter_m) ** 0.432
        * t**-0.692
        * n**-0.737
    )


def f_herringbone_wang_2002(
    re_dc: float,
    banks: int,
    fin_spacing_m: float,
    collar_diameter_m: float,
    hydraulic_diameter_m: float,
    transverse_pitch_m: float,
    longitudinal_pitch_m: float,
    wave_tan: float,
) -> float:
    r"""Fanning friction factor of herringbone wavy fins, Wang, Hwang & Lin (2002).

    Parameters
    ----------
    re_dc : float
        Reynolds number on the collar diameter [-].
    banks : int
        Tube rows N [-].
    fin_spacing_m, collar_diameter_m, hydraulic_diameter_m : float
        F_s, D_c and D_h = 4 A_c L / A_o [m].
    transverse_pitch_m, longitudinal_pitch_m : float
        P_t and P_l [m].
    wave_tan : float
        p_d / x_f [-].

    Returns
    -------
    float
        Fanning friction factor f [-].

    Notes
    -----
    For :math:`Re_{Dc} < 1000`:

    .. math:: f = 4.37 Re^{F_1} (F_s/D_h)^{F_2} (P_l/P_t)^{F_3} (D_c/D_h)^{0.2054} N^{F_4}

    :math:`F_1 = -0.574 - 0.137 (\ln Re - 5.26)^{0.245} (P_t/D_c)^{-0.765}
    (D_c/D_h)^{-0.243} (F_s/D_h)^{-0.474} (\tan\theta)^{-0.217} N^{0.035}`,
    :math:`F_2 = -3.05 \tan\theta`, :math:`F_3 = -0.192 N`, :math:`F_4 = -0.646
    \tan\theta`; for :math:`Re_{Dc} \ge 1000`:

    .. math:: f = 0.228 Re^{F_5} (\tan\theta)^{F_6} (F_s/P_l)^{F_7} (P_l/D_c)^{F_8}
              (D_c/D_h)^{0.383} (P_l/P_t)^{-0.247}

    :math:`F_5 = -0.141 (F_s/P_l)^{0.0512} (\tan\theta)^{-0.472} (P_l/P_t)^{0.35}
    (P_t/D_h)^{0.449 \tan\theta} N^{-0.049 + 0.237 \tan\theta}`,
    :math:`F_6 = -0.562 (\ln Re)^{-0.0923} N^{0.013}`, :math:`F_7 = 0.302 Re^{0.03}
    (P_t/D_c)^{0.026}`, :math:`F_8 = -0.306 + 3.63 \tan\theta`. Below ``Re_Dc`` = 193
    (``ln Re < 5.26``) the low branch is undefined; the function raises ``ValueError``.

    Raises
    ------
    ValueError
        ``re_dc`` below exp(5.26) = 192.5, where the low-Reynolds branch has no value.

    References
    ----------
    .. [1] C.-C. Wang, Y.-M. Hwang, Y.-T. Lin, Int. J. Refrigeration 25 (2002) 673–680.
    """
    n = float(banks)
    t = wave_tan
    ln_re = math.log(re_dc)
    dc_dh = collar_diameter_m / hydraulic_diameter_m
    pl_pt = longitudinal_pitch_m / transverse_pitch_m
    if re_dc < 1000.0:
        if ln_re < 5.26:
            raise ValueError(
                f"reynolds_dc: {re_dc:.4g} below 192.5, where the Wang, Hwang & Lin (2002) "
                "friction factor is undefined"
            )
        f1 = (
            -0.574
            - 0.137
            * (ln_re - 5.26) ** 0.245
            * (transverse_pitch_m / collar_diameter_m) ** -0.765
            * dc_dh**-0.243
            * (fin_spacing_m / hydraulic_diameter_m) ** -0.474
            * t ** (-0.217)
            * n**0.035
        )
        f2 = -3.05 * t
        f3 = -0.192 * n
        f4 = -0.646 * t
        return float(
            4.37
            * re_dc**f1
            * (fin_spacing_m / hydraulic_diameter_m) ** f2
            * pl_pt**f3
            * dc_dh**0.2054
            * n**f4
        )
    fs_pl = fin_spacing_m / longitudinal_pitch_m
    f5 = (
        -0.141
        * fs_pl**0.0512
        * t**-0.472
        * pl_pt**0.35
        * (transverse_pitch_m / hydraulic_diameter_m) ** (0.449 * t)
        * n ** (-0.049 + 0.237 * t)
    )
    f6 = -0.562 * ln_re**-0.0923 * n**0.013
    f7 = 0.302 * re_dc**0.03 * (transverse_pitch_m / collar_diameter_m) ** 0.026
    f8 = -0.306 + 3.63 * t
    return float(
        0.228
        * re_dc**f5
        * t**f6
        * fs_pl**f7
        * (longitudinal_pitch_m / collar_diameter_m) ** f8
        * dc_dh**0.383
        * pl_pt**-0.247
    )
