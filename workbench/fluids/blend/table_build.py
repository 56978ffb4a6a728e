"""Building a blend's saturation and two-phase tables from CoolProp, and their disk cache.

The tables themselves (arrays, lookups, file format) are
:class:`~workbench.fluids.blend.tables.BlendTables`; this module makes them: for each pressure
node, (p, Q) flashes of the HEOS mixture at :data:`~workbench.fluids.blend.tables.N_QUALITY`
qualities (retried from the last bubble or dew point when CoolProp's start fails), resampled
onto the table's grid. :func:`load_or_build` reads a cached file or builds and stores it.

The file holds the arrays and what they were made from (composition, CoolProp version, grid,
:data:`~workbench.fluids.blend.tables.TABLE_VERSION`); its name hashes the same, so a new
CoolProp release or composition builds a new table. Folder: ``$WORKBENCH_HOME/cache/blends``
when ``WORKBENCH_HOME`` is set, else the per-user cache folder
(``platformdirs.user_cache_dir("workbench")``).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
from scipy.interpolate import CubicSpline

from workbench.errors import FluidPropertyError
from workbench.fluids.blend.spec import BlendSpec
from workbench.fluids.blend.tables import (
    N_PRESSURE,
    N_QUALITY,
    N_Z,
    T_LOW_K,
    TABLE_VERSION,
    TOP_SHARE,
    BlendTables,
)

__all__ = [
    "BuildProgress",
    "blend_cache_dir",
    "build_tables",
    "critical_point",
    "load_or_build",
    "tables_cached",
]

BuildProgress: TypeAlias = bool | Callable[[int, int], None]
"""How a table build reports: True a :mod:`workbench.progress` bar (or a few lines on standard
error), False nothing, a callable ``report(done, total)`` after each pressure node (a status
line of a form: nothing is written to standard error)."""


def blend_cache_dir() -> Path:
    """Folder of the cached tables: ``$WORKBENCH_HOME/cache/blends`` or the user cache folder."""
    home = os.environ.get("WORKBENCH_HOME")
    if home:
        return Path(home).expanduser() / "cache" / "blends"
    import platformdirs

    return Path(platformdirs.user_cache_dir("workbench", appauthor=False)) / "blends"


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


def _continues(sat: np.ndarray, k: int, rows: np.ndarray) -> bool:
    """Whether node ``k``'s bubble and dew points continue the lines of the nodes below it.

    Along ``ln p`` (a uniform step) the saturation temperatures rise smoothly: each end's rise
    must be positive and at most three times the rise before plus 0.5 K, each end's enthalpy
    change at most three times the one before plus 2 kJ/kg. A (p, Q) flash of a mixture near
    its critical region can converge to another solution (R463A: a dew point at 1098 K after
    317 K); the table ends before such a node.
    """
    if k < 2:
        return True
    for end, row in ((0, rows[0]), (1, rows[-1])):
        t_prev, t_prev2 = sat[end, 0, k - 1], sat[end, 0, k - 2]
        h_prev, h_prev2 = sat[end, 1, k - 1], sat[end, 1, k - 2]
        rise = row[0] - t_prev
        if not 0.0 < rise <= 3.0 * abs(t_prev - t_prev2) + 0.5:
            return False
        if not abs(row[1] - h_prev) <= 3.0 * abs(h_prev - h_prev2) + 2000.0:
            return False
    return True


def _qualities(n_q: int) -> np.ndarray:
    """Qualities clustered at both ends (the glide bends most near the bubble point)."""
    return 0.5 - 0.5 * np.cos(np.linspace(0.0, math.pi, n_q))


def build_tables(
    spec: BlendSpec,
    n_p: int = N_PRESSURE,
    n_q: int = N_QUALITY,
    n_z: int = N_Z,
    progress: BuildProgress = True,
) -> BlendTables:
    """Build the tables of ``spec`` from CoolProp (p, Q) flashes (see the module docstring).

    Parameters
    ----------
    spec : BlendSpec
        The blend.
    n_p, n_q, n_z : int
        Pressure nodes, qualities flashed per node, enthalpy-share nodes.
    progress : bool or callable
        How the build reports (:data:`BuildProgress`).

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
    report = progress if callable(progress) else None
    bar = Progress(n_p, f"tables of {spec.name}", "pressure", enabled=progress is True)
    with bar:
        for k in range(n_p):
            p = math.exp(u[k])
            try:
                rows, q_row = _row(state, p, qs, ends, molar)
            except ValueError:
                break  # the table ends below the first pressure CoolProp cannot flash
            if not np.all(np.isfinite(rows)) or not np.all(np.diff(rows[:, 1]) > 0):
                break
            if not _continues(sat, k, rows):
                break  # a flash that converged to another solution (R463A's dew point at 1098 K)
            sat[0, :, k] = (rows[0, 0], rows[0, 1], rows[0, 2], 1.0 / rows[0, 3])
            sat[1, :, k] = (rows[-1, 0], rows[-1, 1], rows[-1, 2], 1.0 / rows[-1, 3])
            z = (rows[:, 1] - rows[0, 1]) / (rows[-1, 1] - rows[0, 1])
            fine = CubicSpline(z, np.column_stack([rows[:, 0], rows[:, 2], rows[:, 3], q_row]))
            dome[:, k, :] = fine(z_grid).T
            last_good = k
            bar.update(1)
            if report is not None:
                report(k + 1, n_p)
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
    progress: BuildProgress = True,
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
    progress : bool or callable
        How a build reports (:data:`BuildProgress`); a cached file reports nothing.
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
