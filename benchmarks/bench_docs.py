"""Helpers shared by every benchmark script: the machine line and the docs section writer."""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
from pathlib import Path

BENCHMARKS_MD = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"

__all__ = ["BENCHMARKS_MD", "machine_line", "write_section"]


def machine_line() -> str:
    """Date and machine description for a benchmark table."""
    now = dt.datetime.now().strftime("%Y-%m-%dT%H:%M")
    return (
        f"{now} on {platform.node() or 'unknown'}: {platform.platform()}, {platform.machine()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}"
    )


def write_section(name: str, markdown: str, path: Path = BENCHMARKS_MD) -> None:
    """Replace (or append) the ``bench:NAME`` section of docs/benchmarks.md, atomically."""
    start, end = f"<!-- bench:{name}:start -->", f"<!-- bench:{name}:end -->"
    block = f"{start}\n{markdown.strip()}\n{end}"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    tmp = path.with_suffix(f".md.{name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
