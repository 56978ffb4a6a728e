"""Placing text on a chart so that labels stay inside the axes and never overlap.

Matplotlib places each annotation where it is told; with many isotherm, isobar and state labels
on one diagram they overlap (``"-20 °C0 °C"``) or fall outside the visible axes. A
:class:`LabelPlacer` keeps the boxes of the labels already placed (in display pixels, sizes
estimated from the font size) and, for each new label, takes the first candidate position that
is inside the axes and clear of every other box. Call it after the axes limits are final (the
figure's layout is run first so the pixel positions are the ones drawn).
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from matplotlib.axes import Axes
from matplotlib.text import Annotation

__all__ = ["Box", "LabelPlacer", "cluster_points", "format_celsius", "format_number"]

_CHAR_WIDTH = 0.62
"""Average character width as a share of the font size (DejaVu Sans digits and letters)."""

_LINE_HEIGHT = 1.25
"""Text box height as a share of the font size."""


def format_number(value: float, digits: int = 4) -> str:
    """A number in ``%g`` style without a negative zero (``-0.0`` -> ``"0"``)."""
    value = float(value)
    if value == 0.0 or abs(value) < 10.0 ** -(digits + 2):
        value = 0.0
    return f"{value:.{digits}g}"


def format_celsius(t_c: float) -> str:
    """A temperature label in degC: ``"-20 °C"``, ``"0 °C"`` (never ``"-0 °C"``)."""
    return f"{format_number(round(float(t_c), 6))} °C"


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in display pixels."""

    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box, gap: float = 1.0) -> bool:
        """True when the boxes intersect or are closer than ``gap`` pixels."""
        return not (
            self.x1 + gap <= other.x0
            or other.x1 + gap <= self.x0
            or self.y1 + gap <= other.y0
            or other.y1 + gap <= self.y0
        )

    def inside(self, outer: Box) -> bool:
        """True when the box lies within ``outer``."""
        return (
            self.x0 >= outer.x0
            and self.x1 <= outer.x1
            and self.y0 >= outer.y0
            and self.y1 <= outer.y1
        )


def cluster_points(xy: np.ndarray, radius: float) -> list[list[int]]:
    """Groups of points (display pixels) closer than ``radius`` to another of the group."""
    n = len(xy)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if np.all(np.isfinite(xy[[i, j]])) and np.hypot(*(xy[i] - xy[j])) < radius:
                parent[root(j)] = root(i)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


@dataclass
class LabelPlacer:
    """Places text labels on one axes without overlaps.

    Parameters
    ----------
    ax : matplotlib Axes
        The axes; its limits must be final.
    margin : float
        Distance kept from the axes frame [px].

    Attributes
    ----------
    boxes : list of Box
        Boxes taken so far (labels and markers registered with :meth:`block`).
    """

    ax: Axes
    margin: float = 2.0
    boxes: list[Box] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Run the figure's layout so that pixel positions are final, then record the frame [px]."""
        fig = self.ax.figure
        draw = getattr(fig, "draw_without_rendering", None)
        if draw is not None and fig.get_layout_engine() is not None:
            with warnings.catch_warnings():  # a degenerate layout keeps the old positions
                warnings.filterwarnings("ignore", message="constrained_layout not applied")
                draw()  # run the layout so that pixel positions are final
        frame = self.ax.get_window_extent()
        self.frame = Box(
            frame.x0 + self.margin,
            frame.y0 + self.margin,
            frame.x1 - self.margin,
            frame.y1 - self.margin,
        )
        self._px_per_pt = fig.dpi / 72.0

    # -- geometry --------------------------------------------------------------------------
    def to_pixels(self, x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray):
        """Data coordinates -> display pixels, as an ``(n, 2)`` array."""
        pts = np.column_stack([np.asarray(x, dtype=float), np.asarray(y, dtype=float)])
        return self.ax.transData.transform(pts)

    def size(self, text: str, fontsize: float) -> tuple[float, float]:
        """Estimated width and height of a one-line text [px]."""
        return (
            _CHAR_WIDTH * fontsize * len(text) * self._px_per_pt + 2.0,
            _LINE_HEIGHT * fontsize * self._px_per_pt,
        )

    def block(self, x: Iterable[float], y: Iterable[float], half_size: float = 4.0) -> None:
        """Keep labels off points (state markers, say): a square of ``2 half_size`` px each."""
        for px, py in self.to_pixels(list(x), list(y)):
            if np.isfinite(px) and np.isfinite(py):
                self.boxes.append(
                    Box(px - half_size, py - half_size, px + half_size, py + half_size)
                )

    def block_path(self, x: Iterable[float], y: Iterable[float], half_size: float = 2.0) -> None:
        """Keep labels off a drawn line: squares every ``half_size`` px along it."""
        pts = self.to_pixels(list(x), list(y))
        for a, b in itertools.pairwise(pts):
            if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
                continue
            steps = max(1, int(np.hypot(*(b - a)) / half_size))
            for u in np.linspace(0.0, 1.0, steps + 1):
                px, py = a + u * (b - a)
                self.boxes.append(
                    Box(px - half_size, py - half_size, px + half_size, py + half_size)
                )

    def fits(self, box: Box) -> bool:
        """True when ``box`` is inside the axes and clear of every box taken."""
        return box.inside(self.frame) and not any(box.overlaps(b) for b in self.boxes)

    # -- placing ---------------------------------------------------------------------------
    def place(
        self,
        text: str,
        anchors: Sequence[tuple[float, float]],
        offsets: Sequence[tuple[float, float]] = ((0.0, 3.0),),
        *,
        fontsize: float = 7.0,
        centred: bool = True,
        **kwargs,
    ) -> Annotation | None:
        """Write ``text`` at the first anchor and offset where it fits; None when none does.

        Parameters
        ----------
        text : str
            The label.
        anchors : sequence of (x, y)
            Candidate points in data coordinates, best first.
        offsets : sequence of (dx, dy)
            Candidate offsets of the text box's reference corner from the anchor [points];
            with ``centred`` the box is centred horizontally on the anchor plus ``dx`` and
            its bottom at ``dy`` (a negative ``dy`` puts the box's top there).
        fontsize : float
            Font size [points].
        centred : bool
            Centre the text on the anchor (True) or start it there (False: ``dx < 0`` puts
            the text's right end at the anchor).
        **kwargs
            Passed to :meth:`matplotlib.axes.Axes.annotate` (colour, gid, bbox, ...).
        """
        w, h = self.size(text, fontsize)
        for ax_, ay_ in anchors:
            px, py = self.to_pixels([ax_], [ay_])[0]
            if not (np.isfinite(px) and np.isfinite(py)):
                continue
            for dx, dy in offsets:
                ox, oy = dx * self._px_per_pt, dy * self._px_per_pt
                if centred:
                    x0, ha = px + ox - w / 2.0, "center"
                elif dx < 0:
                    x0, ha = px + ox - w, "right"
                else:
                    x0, ha = px + ox, "left"
                y0, va = (py + oy, "bottom") if dy >= 0 else (py + oy - h, "top")
                box = Box(x0, y0, x0 + w, y0 + h)
                if self.fits(box):
                    self.boxes.append(box)
                    return self.ax.annotate(
                        text,
                        (ax_, ay_),
                        xytext=(dx, dy),
                        textcoords="offset points",
                        ha=ha,
                        va=va,
                        fontsize=fontsize,
                        annotation_clip=False,
                        **kwargs,
                    )
        return None
