"""Saturation and two-phase property tables of one blend, built once from CoolProp and cached on disk.

Who reads them: :class:`~workbench.fluids.blend.backend.BlendBackend`, for every state on or
inside the dome of a zeotropic blend. CoolProp's HEOS mixture (p, h) flash costs about 250 ms
a call; its (p, Q) flash, which these tables are built from, costs about 1 ms and is reliable
below the critical region. Single-phase states are not tabulated: the backend finds them by
Newton's method on exact HEOS (rho, T) updates (10 us each for a mixture).

Grid (``u = ln p``, uniform; ``z`` uniform on 0..1)::

    z = (h - h_bubble(p)) / (h_dew(p) - h_bubble(p))      enthalpy share of the glide [-]

For each pressure node, (p, Q) flashes at :data:`N_QUALITY` qualities (clustered at both ends)
give T, h, s, v = 1/rho and Q; a cubic spline in ``z`` resamples them onto the uniform ``z``
grid. The bubble (Q = 0) and dew (Q = 1) lines are stored at the nodes. Lookups:

- saturation: a cubic spline in ``u`` through the nodes (T, h, s, rho at Q = 0 and Q = 1);
- inside the dome: per node row a cubic spline in ``z``, then four-point Lagrange
  interpolation in ``u`` (error of order ``du^4``); T, s, v and the quality Q.

Accuracy against direct HEOS flashes is tested (tests/test_fluids_blends.py) and reported in
docs/fluids.md: T within 0.02 K, s and rho within 0.05 %.

The tables are built from CoolProp and cached on disk by
:mod:`workbench.fluids.blend.table_build`; this module holds the arrays, their lookups and
their file format.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.interpolate import CubicSpline

from workbench.errors import FluidPropertyError

__all__ = [
    "DOME_KEPT",
    "N_PRESSURE",
    "N_QUALITY",
    "N_Z",
    "TABLE_VERSION",
    "TOP_SHARE",
    "T_LOW_K",
    "BlendTables",
]

TABLE_VERSION = 4
"""Bumped when the layout or the grid rules change (old files are then ignored); 4: a node
whose saturation points do not continue the lines below it ends the table."""
N_PRESSURE = 120
"""Pressure nodes (uniform in ln p) between the lowest and the highest tabulated pressure."""
N_QUALITY = 21
"""(p, Q) flashes per pressure node."""
N_Z = 25
"""Nodes of the uniform enthalpy-share grid."""
T_LOW_K = 200.0
"""The table starts at the dew pressure of this temperature [K] (or 2 K above ``T_min``)."""
DOME_KEPT = 64
"""(pressure, interval) pairs whose combined dome coefficients a table keeps."""
TOP_SHARE = 0.97
"""The table is built up to this share of the critical pressure, but ends where CoolProp's
(p, Q) flash of the mixture first stops converging, which for the predefined blends is lower
(0.81-0.92 of the critical pressure; docs/fluids.md lists each): the real top is
:attr:`BlendTables.p_max`."""


def _cubic_coefficients(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per-interval coefficients ``c[i, k, ...]`` of a natural-end cubic spline (``k`` = power 3..0)."""
    return np.asarray(CubicSpline(x, y, axis=-1, bc_type="not-a-knot").c)


@dataclass
class BlendTables:
    """The tables of one blend (see the module docstring).

    Attributes
    ----------
    u0, du : float
        First node and step of ``u = ln p`` [ln Pa].
    sat : numpy.ndarray
        Saturation lines, shape ``(2, 4, n_p)``: Q = 0 and 1 by T [K], h [J/kg], s [J/kg/K],
        rho [kg/m3].
    dome : numpy.ndarray
        Inside the dome, shape ``(4, n_p, n_z)``: T [K], s [J/kg/K], v [m3/kg] and the
        mass vapour fraction [-].
    coolprop_version : str
        CoolProp version the tables were built with.
    p_crit, t_crit : float
        The blend's critical pressure [Pa] and temperature [K] (CoolProp's critical point
        search, or the table's top when it finds none).
    """

    u0: float
    du: float
    sat: np.ndarray
    dome: np.ndarray
    coolprop_version: str
    p_crit: float
    t_crit: float

    def __post_init__(self) -> None:
        """Precompute the splines' coefficients and the pressure range."""
        n_p = self.sat.shape[-1]
        u = self.u0 + self.du * np.arange(n_p)
        # saturation splines in u: coefficients (4 powers, n_p - 1 intervals, 2 lines x 4 props)
        self._sat_c = _cubic_coefficients(u, self.sat.reshape(8, n_p))
        z = np.linspace(0.0, 1.0, self.dome.shape[-1])
        self._dz = float(z[1] - z[0])
        # dome splines in z per row: (4 powers, n_z - 1 intervals, 4 props, n_p rows)
        self._dome_c = _cubic_coefficients(z, self.dome)
        self._n_p = n_p
        self._n_z = int(self.dome.shape[-1])
        self._dome_kept: dict[tuple[float, int], list[list[float]]] = {}
        self.p_min = math.exp(self.u0)
        self.p_max = math.exp(self.u0 + self.du * (n_p - 1))

    # -- lookups --------------------------------------------------------------------------------
    def _interval(self, p: float, what: str) -> tuple[int, float]:
        if not (self.p_min * (1 - 1e-12) <= p <= self.p_max * (1 + 1e-12)):
            raise FluidPropertyError(
                f"{what}: p={p!r} Pa is outside the blend's tables ({self.p_min:.6g} to "
                f"{self.p_max:.6g} Pa: they end at {self.p_max / 1e5:.1f} bar, "
                f"{self.p_max / self.p_crit:.2f} of the critical pressure "
                f"{self.p_crit / 1e5:.1f} bar, where CoolProp's (p, Q) flash of the mixture "
                "stops converging)"
            )
        t = (math.log(p) - self.u0) / self.du
        k = min(max(int(t), 0), self._n_p - 2)
        return k, t - k

    def saturation(self, p: float, what: str = "saturation") -> np.ndarray:
        """Bubble and dew states at ``p`` [Pa]: shape ``(2, 4)``, rows Q = 0, 1; T, h, s, rho."""
        k, t = self._interval(p, what)
        c = self._sat_c[:, k]
        x = t * self.du
        return np.asarray((((c[0] * x + c[1]) * x + c[2]) * x + c[3]).reshape(2, 4))

    def saturation_slope(self, p: float, what: str = "saturation") -> np.ndarray:
        """d(T, h, s, rho)/dp along the bubble and dew lines [per Pa], shape ``(2, 4)``."""
        k, t = self._interval(p, what)
        c = self._sat_c[:, k]
        x = t * self.du
        return np.asarray(((3.0 * c[0] * x + 2.0 * c[1]) * x + c[2]).reshape(2, 4) / p)

    def dome_state(
        self, p: float, z: float, what: str = "two-phase state"
    ) -> tuple[float, float, float, float]:
        """T [K], s [J/kg/K], v [m3/kg] and Q [-] at ``p`` [Pa] and enthalpy share ``z`` [-].

        The four rows' z-spline coefficients of the interval holding ``z`` are combined with
        the Lagrange weights of ``p`` once per (pressure, interval), the last
        :data:`DOME_KEPT` at most: a coil asks for several enthalpies on one isobar, each then
        one cubic per property in Python floats. The same polynomial as weighting the four
        rows' values (to rounding).
        """
        j = min(max(int(z / self._dz), 0), self._n_z - 2)
        c = self._dome_kept.get((p, j))
        if c is None:
            c = self._dome_at(p, j, what)
        x = z - j * self._dz
        c0, c1, c2, c3 = c
        return (
            ((c0[0] * x + c1[0]) * x + c2[0]) * x + c3[0],
            ((c0[1] * x + c1[1]) * x + c2[1]) * x + c3[1],
            ((c0[2] * x + c1[2]) * x + c2[2]) * x + c3[2],
            ((c0[3] * x + c1[3]) * x + c2[3]) * x + c3[3],
        )

    def _dome_at(self, p: float, j: int, what: str) -> list[list[float]]:
        """Interval ``j``'s coefficients at ``p`` [Pa]: four rows weighted, (4 powers, 4 props)."""
        k, t = self._interval(p, what)
        lo = min(max(k - 1, 0), self._n_p - 4)
        s = k + t - lo  # position among the four rows, 0..3
        w = np.array(
            [
                -(s - 1) * (s - 2) * (s - 3) / 6.0,
                s * (s - 2) * (s - 3) / 2.0,
                -s * (s - 1) * (s - 3) / 2.0,
                s * (s - 1) * (s - 2) / 6.0,
            ]
        )
        c: list[list[float]] = (self._dome_c[:, j, :, lo : lo + 4] @ w).tolist()
        kept = self._dome_kept
        if len(kept) >= DOME_KEPT:
            kept.clear()  # atomic: the tables are shared by the backends of a process's threads
        kept[(p, j)] = c
        return c

    # -- storage --------------------------------------------------------------------------------
    def save(self, path: Path, meta: str) -> None:
        """Write the tables and their ``meta`` description to ``path`` (atomically)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as handle:
            np.savez(
                handle,
                grid=np.array([self.u0, self.du, self.p_crit, self.t_crit]),
                sat=self.sat,
                dome=self.dome,
                meta=np.array(meta),
                coolprop_version=np.array(self.coolprop_version),
            )
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path, meta: str) -> BlendTables | None:
        """The tables in ``path`` if it exists and was built for ``meta``, else None."""
        try:
            with np.load(path) as data:
                if str(data["meta"]) != meta:
                    return None
                grid = data["grid"]
                return cls(
                    float(grid[0]),
                    float(grid[1]),
                    np.array(data["sat"]),
                    np.array(data["dome"]),
                    str(data["coolprop_version"]),
                    float(grid[2]),
                    float(grid[3]),
                )
        except (OSError, KeyError, ValueError):
            return None
