"""Render the component catalog as Markdown for ``docs/scenario-format.md``.

The section between ``<!-- catalog:start -->`` and ``<!-- catalog:end -->`` is generated;
a test checks that it matches the catalog. Regenerate it with::

    python -m workbench.scenario.catalog_doc docs/scenario-format.md
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.components.catalog.specs import COMPONENT_TYPES, ComponentSpec, ParamSpec
from workbench.scenario.params import describe_range

__all__ = ["END", "START", "main", "render_catalog_markdown", "replace_catalog_section"]

START = "<!-- catalog:start -->"
END = "<!-- catalog:end -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _param_row(param: ParamSpec) -> str:
    allowed = describe_range(param)
    if param.kind == "number_list" and param.length:
        allowed = f"{param.length} numbers"
    if param.choices:
        allowed = ", ".join(f"`{c}`" for c in param.choices)
    default = "" if param.default is None else f"`{param.default}`"
    return (
        f"| `{param.name}` | {param.kind} | {_cell(param.unit or '-')} | {_cell(allowed or 'any')} "
        f"| {default or '-'} | {_cell(param.description)} |"
    )


def _render_type(spec: ComponentSpec) -> list[str]:
    lines = [
        f"### {spec.type_name}",
        "",
        f"{spec.description}.",
        "",
        f"- ports: {', '.join(f'`{p}`' for p in spec.ports)}"
        + "".join(f"; more as `{stem}_3`, `{stem}_4`, ..." for stem in spec.numbered)
        + ("; a junction (each port is the end of a branch)" if spec.junction else ""),
        f"- outputs (control `measure.output`): {', '.join(f'`{o}`' for o in spec.outputs)}",
        f"- calibration factors (control `actuator.factor`): "
        f"{', '.join(f'`{f}`' for f in spec.factors)}",
    ]
    if spec.alternatives:
        groups = "; ".join(" or ".join(f"`{n}`" for n in group) for group in spec.alternatives)
        lines.append(f"- give at most one of: {groups}")
    lines += [
        "",
        "| parameter | kind | unit | allowed | default | meaning |",
        "|---|---|---|---|---|---|",
        *(_param_row(p) for p in spec.params),
        "",
    ]
    return lines


def render_catalog_markdown() -> str:
    """The generated Markdown section (markers included)."""
    lines = [
        START,
        "<!-- generated from workbench/components/catalog/specs.py by "
        "`python -m workbench.scenario.catalog_doc docs/scenario-format.md`; do not edit -->",
        "",
    ]
    for spec in COMPONENT_TYPES.values():
        lines += _render_type(spec)
    lines.append(END)
    return "\n".join(lines)


def replace_catalog_section(text: str) -> str:
    """Return ``text`` with its catalog section replaced by a freshly rendered one."""
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"markers {START} ... {END} not found")
    return text[:start] + render_catalog_markdown() + text[end + len(END) :]


def main(argv: list[str] | None = None) -> int:
    """Rewrite the catalog section of the given Markdown file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("doc", type=Path, help="Markdown file with the catalog markers")
    args = parser.parse_args(argv)
    text = args.doc.read_text(encoding="utf-8")
    args.doc.write_text(replace_catalog_section(text), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
