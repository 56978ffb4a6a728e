"""Saturation and two-phase property tables of one blend, built once from CoolProp and cached on disk.

Who reads them: :class:`~workbench.fluids.blend_backend.BlendBackend`, for every state on or
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

The file holds the arrays and what they were made from (composition, CoolProp version, grid,
:data:`TABLE_VERSION`); its name hashes the same, so a new CoolProp release or composition
builds a new table. Folder: ``$WORKBENCH_HOME/cache/blends`` when ``WORKBENCH_HOME`` is set,
else the per-user cache folder (``platformdirs.user_cache_dir("workbench")``).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.interpolate import CubicSpline

from workbench.errors import FluidPropertyError
from workbench.fluids.blends import BlendSpec

__all__ = [
    "N_PRESSURE",
    "N_QUALITY",
    "N_Z",
    "TABLE_VERSION",
    "BlendTables",
    "blend_cache_dir",
    "build_tables",
    "load_or_build",
    "tables_cached",
]

TABLE_VERSION = 3
"""Bumped when the layout or the grid rules change (old files are then ignored)."""
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
"""The table ends at this share of the critical pressure (or where CoolProp's (p, Q) flash
stops converging, whichever is lower)."""


def blend_cache_dir() -> Path:
    """Folder of the cached tables: ``$WORKBENCH_HOME/cache/blends`` or the user cache folder."""
    home = os.environ.get("WORKBENCH_HOME")
    if home:
        return Path(home).expanduser() / "cache" / "blends"
    import platformdirs

    return Path(platformdirs.user_cache_dir("workbench", appauthor=False)) / "blends"


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
                f"{self.p_max:.6g} Pa, {TOP_SHARE:g} of the critical pressure at most)"
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


def _state(spec: BlendSpec) -> Any:
    """A HEOS ``AbstractState`` of the blend at its mole fractions."""
    import CoolProp.CoolProp as CP

    state = CP.AbstractState("HEOS", spec.coolprop_fluids)
    state.set_mole_fractions(list(spec.mole_fractions))
    return state


def critical_point(spec: BlendSpec) -> tuple[float, float] | None:
    """The blend's critical (T [K], p [Pa]) from CoolProp's search, or None if it finds none."""
    state = _state(spec)
    try:
        points = [(c.T, c.p) for c in state.all_critical_points() if c.p > 0 and c.T > 0]
    except ValueError:
        return None
    return max(points) if points else None


def _component_molar_mass(name: str) -> float:
    import CoolProp.CoolProp as CP

    return float(CP.AbstractState("HEOS", name).molar_mass())


def _grid_meta(spec: BlendSpec, n_p: int, n_q: int, n_z: int) -> str:
    import CoolProp

    return (
        f"v{TABLE_VERSION};CoolProp {CoolProp.__version__};HEOS;{spec.cache_key()};"
        f"n_p={n_p};n_q={n_q};n_z={n_z};t_low={T_LOW_K};top={TOP_SHARE}"
    )


def _flash_pq(state: Any, p: float, q: float, ends: dict[float, Any]) -> None:
    """A (p, Q) flash of the mixture, retried from the last bubble or dew point when it fails.

    CoolProp 8's mixture (p, Q) flash starts from a Wilson K-factor guess that fails at some
    pressures; the saturation points (Q = 0, 1) converge from the previous node's solution
    (``update_with_guesses``), after which the flash at ``q`` is tried once more.

    Raises
    ------
    ValueError
        CoolProp fails twice.
    """
    import CoolProp.CoolProp as CP

    try:
        state.update(CP.PQ_INPUTS, p, q)
    except ValueError:
        end = 0.0 if q < 0.5 else 1.0
        if end not in ends:
            raise
        state.update_with_guesses(CP.PQ_INPUTS, p, end, ends[end])
        if q != end:
            state.update(CP.PQ_INPUTS, p, q)
    if q in (0.0, 1.0):
        guess = CP.PyGuessesStructure()
        guess.T = state.T()
        guess.rhomolar_liq = state.saturated_liquid_keyed_output(CP.iDmolar)
        guess.rhomolar_vap = state.saturated_vapor_keyed_output(CP.iDmolar)
        guess.x = list(state.mole_fractions_liquid())
        guess.y = list(state.mole_fractions_vapor())
        ends[q] = guess


def _row(
    state: Any, p: float, qs: np.ndarray, ends: dict[float, Any], molar: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """T, h, s, v at one pressure across the dome, and the mass vapour fractions they are at.

    ``qs`` are molar vapour fractions (CoolProp's ``Q`` of a mixture), ``molar`` the molar
    masses of the components [kg/mol].

    The bubble and dew points first (:func:`_flash_pq`, retried from the last ones), then
    (p, Q) flashes at the qualities inside; from the first of those that fails on, (p, T)
    flashes at temperatures spaced like ``qs`` across the glide instead (CoolProp's two-phase
    (p, T) flash is 20-40 times slower but converges where its (p, Q) flash does not; both
    agree to 1e-6 K where both work). The points are returned in order of enthalpy.

    Raises
    ------
    ValueError
        CoolProp fails both ways, or the points are not strictly ordered in enthalpy.
    """
    import CoolProp.CoolProp as CP

    n = len(qs)
    rows = np.empty((n, 4))
    q_row = np.array(qs, dtype=float)  # the mass vapour fraction of each point
    for i, q in ((0, 0.0), (n - 1, 1.0)):
        _flash_pq(state, p, q, ends)
        rows[i] = (state.T(), state.hmass(), state.smass(), 1.0 / state.rhomass())
    t_bubble, t_dew = rows[0, 0], rows[-1, 0]
    by_temperature = False
    for i in range(1, n - 1):
        q = float(qs[i])
        if not by_temperature:
            try:
                state.update(CP.PQ_INPUTS, p, q)
                rows[i] = (state.T(), state.hmass(), state.smass(), 1.0 / state.rhomass())
                q_row[i] = _mass_quality(state, q, molar)
                continue
            except ValueError:
                by_temperature = True
        state.update(CP.PT_INPUTS, p, t_bubble + q * (t_dew - t_bubble))
        q_mol = state.Q()
        if not 0.0 < q_mol < 1.0:
            raise ValueError(f"(p, T) flash inside the glide gave Q={q_mol}")
        rows[i] = (state.T(), state.hmass(), state.smass(), 1.0 / state.rhomass())
        q_row[i] = _mass_quality(state, q_mol, molar)
    order = np.argsort(rows[:, 1], kind="stable")
    rows, q_row = rows[order], q_row[order]
    if not np.all(np.diff(rows[:, 1]) > 0):
        raise ValueError("two-phase points not strictly ordered in enthalpy")
    return rows, q_row


def _mass_quality(state: Any, q_mol: float, molar: np.ndarray) -> float:
    """Mass vapour fraction [-] of a two-phase mixture state from its molar one (CoolProp's Q).

    ``q = Q M_v / (Q M_v + (1 - Q) M_l)`` with the molar masses of the vapour and liquid
    phases from their compositions; 0 and 1 are kept exact.
    """
    if q_mol <= 0.0 or q_mol >= 1.0:
        return q_mol
    m_v = float(np.dot(state.mole_fractions_vapor(), molar))
    m_l = float(np.dot(state.mole_fractions_liquid(), molar))
    return q_mol * m_v / (q_mol * m_v + (1.0 - q_mol) * m_l)


def _qualities(n_q: int) -> np.ndarray:
    """Qualities clustered at both ends (the glide bends most near the bubble point)."""
    return 0.5 - 0.5 * np.cos(np.linspace(0.0, math.pi, n_q))


def build_tables(
    spec: BlendSpec,
    n_p: int = N_PRESSURE,
    n_q: int = N_QUALITY,
    n_z: int = N_Z,
    progress: bool = True,
) -> BlendTables:
    """Build the tables of ``spec`` from CoolProp (p, Q) flashes (see the module docstring).

    Parameters
    ----------
    spec : BlendSpec
        The blend.
    n_p, n_q, n_z : int
        Pressure nodes, qualities flashed per node, enthalpy-share nodes.
    progress : bool
        Show a progress bar (:mod:`workbench.progress`).

    Raises
    ------
    FluidPropertyError
        CoolProp cannot flash the blend over a useful range (the message names the state).
    """
    import CoolProp
    import CoolProp.CoolProp as CP

    from workbench.progress import Progress

    state = _state(spec)
    crit = critical_point(spec)
    t_low = max(T_LOW_K, float(state.Tmin()) + 2.0)
    try:
        state.update(CP.QT_INPUTS, 1.0, t_low)
        p_low = float(state.p())
    except ValueError as exc:
        raise FluidPropertyError(
            f"{spec.name} (CoolProp HEOS mixture): dew pressure at T={t_low:g} K failed: {exc}"
        ) from None
    p_top = TOP_SHARE * crit[1] if crit else 40e5
    u = np.linspace(math.log(p_low), math.log(p_top), n_p)
    qs = _qualities(n_q)
    z_grid = np.linspace(0.0, 1.0, n_z)
    sat = np.full((2, 4, n_p), np.nan)
    dome = np.full((4, n_p, n_z), np.nan)
    last_good = -1
    molar = np.array([_component_molar_mass(c) for c in spec.components])
    ends: dict[float, Any] = {}
    bar = Progress(n_p, f"tables of {spec.name}", "pressure", enabled=progress)
    with bar:
        for k in range(n_p):
            p = math.exp(u[k])
            try:
                rows, q_row = _row(state, p, qs, ends, molar)
            except ValueError:
                break  # the table ends below the first pressure CoolProp cannot flash
            if not np.all(np.isfinite(rows)) or not np.all(np.diff(rows[:, 1]) > 0):
                break
            sat[0, :, k] = (rows[0, 0], rows[0, 1], rows[0, 2], 1.0 / rows[0, 3])
            sat[1, :, k] = (rows[-1, 0], rows[-1, 1], rows[-1, 2], 1.0 / rows[-1, 3])
            z = (rows[:, 1] - rows[0, 1]) / (rows[-1, 1] - rows[0, 1])
            fine = CubicSpline(z, np.column_stack([rows[:, 0], rows[:, 2], rows[:, 3], q_row]))
            dome[:, k, :] = fine(z_grid).T
            last_good = k
            bar.update(1)
    if last_good < 8:
        raise FluidPropertyError(
            f"{spec.name} (CoolProp HEOS mixture): (p, Q) flashes fail from p={math.exp(u[0]):.6g} "
            "Pa on; no tables can be built"
        )
    n = last_good + 1
    sat, dome = sat[:, :, :n], dome[:, :n, :]
    if crit is None:
        crit = (float(sat[1, 0, -1]), math.exp(u[n - 1]))
    return BlendTables(
        float(u[0]), float(u[1] - u[0]), sat, dome, CoolProp.__version__, crit[1], crit[0]
    )


def _cache_path(spec: BlendSpec, meta: str, cache_dir: Path | None) -> Path:
    """The cache file of a blend's tables: its name slug and a digest of the grid's key."""
    slug = re.sub(r"[^A-Za-z0-9.]+", "_", spec.name).strip("_")[:60]
    digest = hashlib.sha256(meta.encode()).hexdigest()[:16]
    return (cache_dir or blend_cache_dir()) / f"{slug}-{digest}.npz"


def load_or_build(
    spec: BlendSpec,
    cache_dir: Path | None = None,
    *,
    n_p: int = N_PRESSURE,
    n_q: int = N_QUALITY,
    n_z: int = N_Z,
    progress: bool = True,
) -> BlendTables:
    """The blend's tables from the disk cache, built and stored there on first use.

    Parameters
    ----------
    spec : BlendSpec
        The blend.
    cache_dir : Path, optional
        Folder of the cache (default :func:`blend_cache_dir`).
    n_p, n_q, n_z : int
        Grid sizes (see :func:`build_tables`); part of the cache key.
    progress : bool
        Show a progress bar while building.
    """
    meta = _grid_meta(spec, n_p, n_q, n_z)
    path = _cache_path(spec, meta, cache_dir)
    tables = BlendTables.load(path, meta)
    if tables is None:
        tables = build_tables(spec, n_p, n_q, n_z, progress)
        with contextlib.suppress(OSError):  # a read-only cache: the tables serve this process
            tables.save(path, meta)
    return tables


def tables_cached(
    spec: BlendSpec,
    cache_dir: Path | None = None,
    *,
    n_p: int = N_PRESSURE,
    n_q: int = N_QUALITY,
    n_z: int = N_Z,
) -> bool:
    """True when the blend's tables are on disk already (a solve will not build them).

    Parameters
    ----------
    spec : BlendSpec
        The blend.
    cache_dir : Path, optional
        Folder of the cache (default :func:`blend_cache_dir`).
    n_p, n_q, n_z : int
        Grid sizes, as given to :func:`load_or_build`.
    """
    return _cache_path(spec, _grid_meta(spec, n_p, n_q, n_z), cache_dir).is_file()
