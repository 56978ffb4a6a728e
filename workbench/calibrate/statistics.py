"""Uncertainty and identifiability of fitted parameters, from the Jacobian at the solution.

With ``r`` the ``m`` weighted residuals (model minus measured, each divided by its
uncertainty) and ``J = dr/dtheta`` (``m x p``) at the fitted parameters, the linearised
covariance is (the usual nonlinear least-squares estimate, scaled by the fit's own residual
variance, like ``scipy.optimize.curve_fit`` with ``absolute_sigma=False``)::

    s^2 = r.r / (m - p)             cov = s^2 (J^T J)^-1
    std_k = sqrt(cov_kk)            interval_k = theta_k -/+ t_{0.975, m-p} std_k

A parameter the data cannot determine is *flagged*, not given a tight interval (its standard
error is reported as inf and its interval as its bounds):

- **insensitive**: a 100 % change of it moves the weighted residuals by less than
  :data:`INSENSITIVE` times what the most influential parameter's change does (the column
  norms of ``J diag(theta)``);
- **correlated**: a direction in parameter space the residuals hardly see. The columns of
  ``J`` normalised to unit length have a singular value below :data:`SINGULAR_LIMIT`
  (two parameters correlated beyond ``1 - SINGULAR_LIMIT^2 / 2``; a product ``UA * z_ua``
  only seen as a whole has one near 0); the parameters with a share above
  :data:`LOADING_LIMIT` in that singular vector are flagged;
- **undetermined**: the 95 % interval is wider than the value itself
  (``t std_k > |theta_k|``).

References
----------
Seber, G. A. F. and Wild, C. J. (1989), Nonlinear Regression, Wiley, ch. 2 and 5.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = [
    "INSENSITIVE",
    "LOADING_LIMIT",
    "SINGULAR_LIMIT",
    "ParameterStatistics",
    "parameter_statistics",
]

INSENSITIVE = 1.0e-4
"""Relative sensitivity below which a parameter is insensitive [-]."""

SINGULAR_LIMIT = 1.0e-2
"""Smallest singular value of the column-normalised Jacobian before a direction counts as
unidentifiable [-]."""

LOADING_LIMIT = 0.3
"""Share (absolute component) in a weak singular vector that flags a parameter [-]."""


@dataclass
class ParameterStatistics:
    """What :func:`parameter_statistics` finds.

    Attributes
    ----------
    std_errors : numpy.ndarray
        Standard error per parameter [its units] (inf when flagged).
    half_widths : numpy.ndarray
        Half-width of the 95 % interval [its units] (inf when flagged).
    correlation : numpy.ndarray
        ``p x p`` correlation of the estimates (nan where undefined).
    reasons : dict
        Parameter index -> why it is unidentifiable (absent when identifiable).
    sigma : float
        ``s``, the root of the residual variance per degree of freedom [-].
    singular_values : numpy.ndarray
        Of the column-normalised Jacobian, largest first [-].
    sensitivity : numpy.ndarray
        Column norms of ``J diag(theta)`` [-].
    """

    std_errors: np.ndarray
    half_widths: np.ndarray
    correlation: np.ndarray
    reasons: dict[int, str]
    sigma: float
    singular_values: np.ndarray
    sensitivity: np.ndarray


def parameter_statistics(
    jac: np.ndarray,
    residuals: np.ndarray,
    theta: np.ndarray,
    names: list[str],
    confidence: float = 0.95,
) -> ParameterStatistics:
    """Standard errors, intervals and identifiability of fitted parameters.

    Parameters
    ----------
    jac : numpy.ndarray
        ``m x p``: derivatives of the weighted residuals by each parameter [1/its units].
    residuals : numpy.ndarray
        The ``m`` weighted residuals at the fit [-].
    theta : numpy.ndarray
        The fitted values [their units].
    names : list of str
        Parameter names (used in the reasons).
    confidence : float
        Of the intervals (0.95: 95 %).

    Returns
    -------
    ParameterStatistics
    """
    m, p = jac.shape
    dof = m - p
    scale = np.where(np.abs(theta) > 0, np.abs(theta), 1.0)
    scaled = jac * scale
    sensitivity = np.linalg.norm(scaled, axis=0)
    reasons: dict[int, str] = {}
    top = float(sensitivity.max()) if p else 0.0
    for k in range(p):
        if top == 0.0 or sensitivity[k] < INSENSITIVE * top:
            reasons[k] = "insensitive: the measured quantities do not change with it"
    active = [k for k in range(p) if k not in reasons]
    singular = np.zeros(0)
    if active:
        cols = scaled[:, active] / sensitivity[active]
        _u, singular, vt = np.linalg.svd(cols, full_matrices=False)
        for value, vector in zip(singular, vt):
            if value >= SINGULAR_LIMIT:
                continue
            involved = [active[j] for j in range(len(active)) if abs(vector[j]) > LOADING_LIMIT]
            for k in involved:
                others = [names[j] for j in involved if j != k]
                reasons.setdefault(
                    k,
                    "correlated: the data determine only a combination of it"
                    + (f" with {', '.join(others)}" if others else "")
                    + f" (singular value {value:.2g})",
                )
    sigma = float(np.sqrt(residuals @ residuals / dof)) if dof > 0 else float("nan")
    std = np.full(p, np.inf)
    corr = np.full((p, p), np.nan)
    good = [k for k in range(p) if k not in reasons]
    if good and dof > 0:
        sub = scaled[:, good]
        cov_scaled = sigma**2 * np.linalg.pinv(sub.T @ sub)
        std_good = np.sqrt(np.clip(np.diag(cov_scaled), 0.0, None)) * scale[good]
        std[good] = std_good
        d = np.sqrt(np.clip(np.diag(cov_scaled), 1e-300, None))
        corr[np.ix_(good, good)] = cov_scaled / np.outer(d, d)
    t = float(stats.t.ppf(0.5 + confidence / 2.0, dof)) if dof > 0 else np.inf
    half = t * std
    for k in good:
        if dof <= 0:
            reasons[k] = (
                f"undetermined: {m} residuals for {p} parameters leave no degree of freedom"
            )
            std[k] = half[k] = np.inf
        elif not np.isfinite(half[k]) or half[k] > abs(theta[k]) > 0:
            reasons[k] = (
                f"undetermined: the {confidence:.0%} interval (+/- {half[k]:.3g}) is wider than "
                "the value"
            )
            std[k] = half[k] = np.inf
    return ParameterStatistics(std, half, corr, reasons, sigma, singular, sensitivity)
