"""Cases of a sweep: a grid or a list, in an order where each case neighbours the previous."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["build_cases", "snake_order", "split_chunks"]


def snake_order(shape: Sequence[int]) -> list[tuple[int, ...]]:
    """Grid indices in boustrophedon order: consecutive entries differ in one index by one.

    >>> snake_order((2, 3))
    [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)]
    """
    if not shape:
        return [()]
    inner = snake_order(shape[1:])
    out: list[tuple[int, ...]] = []
    for i in range(shape[0]):
        seq = inner if i % 2 == 0 else inner[::-1]
        out.extend((i, *rest) for rest in seq)
    return out


def _values(path: str, values: Any) -> list[Any]:
    arr = list(np.atleast_1d(np.asarray(values, dtype=object)).tolist())
    if not arr:
        raise ValueError(f"sweep path {path!r} has no values")
    return arr


def build_cases(
    grid: Mapping[str, Any], mode: str = "grid"
) -> tuple[list[tuple[int, tuple[Any, ...]]], int]:
    """Cases in run order, each tagged with its index in the natural order.

    Parameters
    ----------
    grid : mapping
        Path -> values (a list or array).
    mode : str
        ``"grid"``: every combination (natural order: the first path varies slowest);
        ``"list"``: the k-th values of every path form case k (equal lengths required).

    Returns
    -------
    (list of (int, tuple), int)
        Cases in run order (grid cases snake so that neighbours differ in one value by one
        step) and the number of cases.

    Raises
    ------
    ValueError
        Unknown mode, an empty list of values, or lists of different lengths in list mode.
    """
    paths = list(grid)
    if not paths:
        raise ValueError("a sweep needs at least one path")
    lists = [_values(p, grid[p]) for p in paths]
    if mode == "list":
        lengths = {p: len(v) for p, v in zip(paths, lists)}
        if len(set(lengths.values())) != 1:
            raise ValueError(f"mode='list' needs lists of equal length; got {lengths}")
        n = len(lists[0])
        return [(k, tuple(v[k] for v in lists)) for k in range(n)], n
    if mode != "grid":
        raise ValueError(f"mode must be 'grid' or 'list', not {mode!r}")
    shape = [len(v) for v in lists]
    strides = [math.prod(shape[k + 1 :]) for k in range(len(shape))]
    cases = [
        (sum(i * s for i, s in zip(idx, strides)), tuple(v[i] for v, i in zip(lists, idx)))
        for idx in snake_order(shape)
    ]
    return cases, math.prod(shape)


def split_chunks(cases: list[Any], n_chunks: int) -> list[list[Any]]:
    """Split cases into ``n_chunks`` contiguous runs of nearly equal length."""
    n_chunks = max(1, min(n_chunks, len(cases)))
    bounds = np.linspace(0, len(cases), n_chunks + 1).round().astype(int)
    return [cases[a:b] for a, b in itertools.pairwise(bounds) if b > a]
