"""A bad input in a notebook cell, said in one line instead of a traceback.

A :class:`~workbench.errors.WorkbenchError` raised by a cell (an unknown climate, a misspelt
free parameter, an invalid scenario) is the workbench telling a person what to fix; a page of
traceback hides that line. :func:`brief_errors` registers an IPython handler that shows such an
error as ``ScenarioError: climate: 'cold' is not one of average, warmer, colder``. The cell
still fails (Run All and papermill stop there); any other exception keeps its full traceback.

Who reads it: the notebooks' import cells (07, 08).
"""

from __future__ import annotations

from typing import Any

from workbench.errors import ScenarioError, WorkbenchError

__all__ = ["brief_errors", "one_line"]


def one_line(error: BaseException) -> str:
    """The error's message in one line: a scenario error's issues joined by ``;``.

    Parameters
    ----------
    error : BaseException
        The exception.
    """
    if isinstance(error, ScenarioError) and error.issues:
        text = "; ".join(str(issue) for issue in error.issues)
    else:
        text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}"


def brief_errors(shell: Any = None) -> bool:
    """Show workbench errors raised in this kernel's cells as one line (no traceback).

    Parameters
    ----------
    shell : IPython InteractiveShell, optional
        The shell (default: the running one).

    Returns
    -------
    bool
        True when a shell was found and the handler registered; False outside IPython.
    """
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        shell = get_ipython()
    if shell is None:
        return False

    def handler(
        self: Any, etype: type, value: BaseException, tb: Any, tb_offset: Any = None
    ) -> list[str]:
        lines = [one_line(value)]
        self._showtraceback(etype, value, lines)
        return lines

    shell.set_custom_exc((WorkbenchError,), handler)
    return True
