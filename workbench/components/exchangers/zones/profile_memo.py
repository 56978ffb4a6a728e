"""The fine temperature profile of an exchanger, remembered per solved state and guarded.

A result asks for an exchanger's profile (:mod:`workbench.components.exchangers.zones.profile`)
several times (outputs, checks, warnings): :class:`ProfileMemo` computes it once per distinct
state, :func:`safe_check` turns a failed property call into the reason it could not be
computed, :func:`two_stream_check` does both for two refrigerant streams.
"""

from __future__ import annotations

from collections.abc import Callable

from workbench.components.base import PortState
from workbench.components.exchangers.zones.profile import ProfileCheck, two_stream_profile
from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend

__all__ = ["Found", "ProfileMemo", "safe_check", "two_stream_check"]


def safe_check(compute: Callable[[], ProfileCheck]) -> tuple[ProfileCheck | None, str | None]:
    """Run a profile computation; a failed property call becomes a message instead."""
    try:
        return compute(), None
    except FluidPropertyError as exc:
        return None, f"the temperature profile could not be checked: {exc}"


Found = tuple[ProfileCheck | None, str | None]
"""A fine profile, or None and why it could not be computed (or None, None: nothing to check)."""


class ProfileMemo:
    """The fine profile of one exchanger at the last state it was asked for.

    A result asks for it several times (outputs, checks, warnings); the profile is computed
    once per distinct state. Every exchanger holds one.
    """

    __slots__ = ("_found", "_key")

    def __init__(self) -> None:
        self._key: tuple[float, ...] | None = None
        self._found: Found = (None, None)

    def get(self, key: tuple[float, ...], compute: Callable[[], ProfileCheck]) -> Found:
        """The profile of the state ``key``, computed by ``compute`` unless it is the last one.

        Parameters
        ----------
        key : tuple of float
            Everything the profile depends on (SI).
        compute : callable
            Builds the profile; a failed property call becomes the reason (:func:`safe_check`).
        """
        if key != self._key:
            self._found, self._key = safe_check(compute), key
        return self._found


def two_stream_check(
    memo: ProfileMemo,
    fluid: FluidBackend,
    hot: tuple[PortState, PortState],
    cold: tuple[PortState, PortState],
    cold_fluid: FluidBackend | None = None,
) -> Found:
    """The fine profile of a solved exchanger between two refrigerant streams, remembered.

    Parameters
    ----------
    memo : ProfileMemo
        The exchanger's memo.
    fluid : FluidBackend
        Properties of both streams.
    hot, cold : tuple of PortState
        Inlet and outlet of each stream; the heat flow is the hot stream's loss [W].
    cold_fluid : FluidBackend, optional
        Properties of the cold stream when its fluid is another.

    Returns
    -------
    tuple
        The profile (None without heat flow) and why it could not be computed (or None).
    """
    (hi, ho), (ci, co) = hot, cold
    q = hi.m * (hi.h - ho.h)
    if q <= 0.0:
        return None, None
    return memo.get(
        (hi.p, hi.h, ho.p, ho.h, ci.p, ci.h, co.p, co.h, q),
        lambda: two_stream_profile(
            fluid,
            ((hi.p, hi.h), (ho.p, ho.h)),
            ((ci.p, ci.h), (co.p, co.h)),
            q,
            cold_fluid=cold_fluid,
        ),
    )
