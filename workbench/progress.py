"""Progress of long loops: a tqdm bar on a terminal or in a notebook, a few lines elsewhere.

A bar redraws itself with carriage returns, which is right on a terminal and in Jupyter but
fills a CI log or a redirected file with hundreds of frames. :func:`progress` shows the bar
only when someone watches (standard error is a terminal, or the code runs in a Jupyter
kernel); otherwise it writes at most five plain lines to standard error: the start, each
quarter, and the end.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any, TextIO

__all__ = ["Progress", "interactive", "progress"]


def interactive(stream: TextIO | None = None) -> bool:
    """True when ``stream`` (default standard error) is a terminal or the code runs in Jupyter."""
    stream = sys.stderr if stream is None else stream
    try:
        if stream.isatty():
            return True
    except (AttributeError, ValueError):  # closed or replaced streams
        pass
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    get_ipython = getattr(shell, "get_ipython", None)
    ip = get_ipython() if callable(get_ipython) else None
    return type(ip).__name__ == "ZMQInteractiveShell"


class Progress:
    """Count done items; draw a tqdm bar or write a few summary lines (see the module).

    Parameters
    ----------
    total : int
        Number of items.
    desc : str
        What is counted, e.g. ``"sweep"``.
    unit : str
        Name of one item, e.g. ``"case"``.
    enabled : bool
        False shows nothing.
    bar : bool or None
        Force the tqdm bar on (True) or off (False); None decides with :func:`interactive`.
    stream : file, optional
        Where the lines go (default standard error).
    """

    def __init__(
        self,
        total: int,
        desc: str,
        unit: str = "item",
        *,
        enabled: bool = True,
        bar: bool | None = None,
        stream: TextIO | None = None,
    ) -> None:
        self.total, self.desc, self.unit = total, desc, unit
        self.done = 0
        self.enabled = enabled
        self._stream = stream
        self._t0 = time.perf_counter()
        self._next_quarter = 1
        self._bar: Any = None
        if enabled and (interactive(stream) if bar is None else bar):
            from tqdm.auto import tqdm

            self._bar = tqdm(total=total, desc=desc, unit=unit, file=stream)
        elif enabled:
            self._line(f"{total} {unit}s")

    def _line(self, text: str) -> None:
        print(f"{self.desc}: {text}", file=self._stream or sys.stderr, flush=True)

    def update(self, n: int = 1) -> None:
        """Count ``n`` more items as done."""
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
            return
        if not self.enabled or self.total <= 0:
            return
        quarter = 4 * self.done // self.total
        if quarter >= self._next_quarter:
            self._next_quarter = quarter + 1
            elapsed = time.perf_counter() - self._t0
            self._line(f"{self.done}/{self.total} {self.unit}s done, {elapsed:.1f} s")

    def close(self) -> None:
        """Close the bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        """The progress itself."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the bar; an exception propagates."""
        self.close()


def progress(total: int, desc: str, unit: str = "item", *, enabled: bool = True) -> Progress:
    """A :class:`Progress` for ``total`` items (a context manager)."""
    return Progress(total, desc, unit, enabled=enabled)
