"""The main job behind the README's first command.

Validates and flattens every example scenario, solves it (a JSON result, a P-h and a T-s diagram
per example), and executes every notebook with papermill, writing everything into an output
folder (``output/`` by default), then prints where the results are::

    output/flat/<name>.json         flat scenarios (templates expanded)
    output/results/<name>.json      solve results (``workbench solve --json`` format)
    output/figures/<name>_ph.png    P-h diagrams
    output/results/<name>_exergy.json, output/figures/<name>_exergy.png
                                    exergy analysis of the examples whose metadata gives
                                    ambient_k (the branching examples)
    output/figures/<name>_ts.png    T-s diagrams
    output/figures/<name>_charge.png
                                    where the charge sits, for the examples with volumes
    output/results/<name>_seasonal.json, output/figures/<name>_seasonal.png
                                    EN 14825 rating of the examples with a seasonal block
    output/notebooks/<nb>.ipynb     executed notebooks, their artefacts in output/notebooks/<nb>/

A step that fails is reported and makes the exit code 1; the other steps still run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from pathlib import Path

__all__ = ["main", "run_main_job"]

REPO_ROOT = Path(__file__).resolve().parent.parent


def _solve_examples(scenario_files: list[Path], output: Path) -> int:
    from workbench.errors import WorkbenchError
    from workbench.plotting import plot_fluid_panels, plot_ph, plot_ts
    from workbench.plotting.common import fluid_groups
    from workbench.scenario import flatten, load_scenario
    from workbench.solver import solve

    failures = 0
    for path in scenario_files:
        name = path.stem
        try:
            scenario = load_scenario(path)
            flat = flatten(scenario)
            flat_path = output / "flat" / path.name
            flat_path.parent.mkdir(parents=True, exist_ok=True)
            flat_path.write_text(json.dumps(flat.to_dict(), indent=2) + "\n")
            print(f"  validated and flattened {path.name} -> {flat_path}")
            result = solve(scenario)
            result_path = output / "results" / f"{name}.json"
            result_path.parent.mkdir(parents=True, exist_ok=True)
            result_path.write_text(result.to_json() + "\n")
            several = len(fluid_groups(scenario)) > 1  # a cascade: one panel per fluid
            for kind, plot in (("ph", plot_ph), ("ts", plot_ts)):
                if several:
                    fig, _axes = plot_fluid_panels(result, scenario, kind)
                else:
                    fig, _ax = plot(result, scenario=scenario)
                figure_path = output / "figures" / f"{name}_{kind}.png"
                figure_path.parent.mkdir(parents=True, exist_ok=True)
                fig.savefig(figure_path, dpi=120, bbox_inches="tight")
            _exergy(scenario, result, name, output)
            _charge(result, name, output)
            _seasonal(scenario, name, output)
            s = result.summary
            cop = s.get("cop_heating")
            state = "converged" if result.converged else "NOT converged"
            print(
                f"  solved {path.name}: {state} in {result.iterations} iterations, "
                f"COP heating {cop:.3f}"
                if cop is not None
                else f"  solved {path.name}: {state}"
            )
            if not result.converged:
                failures += 1
                print("    " + result.report().replace("\n", "\n    "))
        except WorkbenchError as exc:
            failures += 1
            print(f"  FAILED {path.name}: {exc}")
    return failures


def _charge(result: object, name: str, output: Path) -> None:
    """Where the charge sits, for an example with refrigerant volumes (docs/charge.md)."""
    charge = getattr(result, "charge", None)
    if not charge:
        return
    from workbench.plotting import plot_charge

    fig, _ax = plot_charge(result)
    path = output / "figures" / f"{name}_charge.png"
    fig.savefig(path, dpi=120, bbox_inches="tight")
    safety = getattr(result, "safety", None) or {}
    print(f"  charge of {name}: {1e3 * charge['total_kg']:.1f} g -> {path}")
    if safety.get("message"):
        print(f"    safety: {safety['message']}")


def _seasonal(scenario: object, name: str, output: Path) -> None:
    """Seasonal rating (JSON and bins chart) of an example with a ``seasonal`` block."""
    if getattr(scenario, "seasonal", None) is None:
        return
    from workbench.plotting.seasonal import plot_bins
    from workbench.seasonal import rate

    rating = rate(scenario)  # type: ignore[arg-type]
    path = output / "results" / f"{name}_seasonal.json"
    path.write_text(json.dumps(rating.to_dict(), indent=2) + "\n")
    if rating.complete:
        fig, _ax = plot_bins(rating)
        fig.savefig(output / "figures" / f"{name}_seasonal.png", dpi=120, bbox_inches="tight")
        figure = f"SEER {rating.seer:.2f}" if rating.seer is not None else f"SCOP {rating.scop:.2f}"
        print(f"  seasonal rating of {name}: {figure}, eta_s {rating.eta_s:.0f} % -> {path}")
    else:
        print(f"  seasonal rating of {name}: incomplete -> {path}")


def _exergy(scenario: object, result: object, name: str, output: Path) -> None:
    """Exergy table and waterfall of a converged example whose metadata gives ``ambient_k``."""
    from workbench.plotting import plot_exergy

    metadata = getattr(scenario, "metadata", None) or {}
    ambient = metadata.get("ambient_k") if isinstance(metadata, dict) else None
    if ambient is None or not getattr(result, "converged", False):
        return
    analysis = result.exergy(ambient_k=float(ambient))  # type: ignore[attr-defined]
    path = output / "results" / f"{name}_exergy.json"
    path.write_text(json.dumps(analysis.to_dict(), indent=2) + "\n")
    fig, _ax = plot_exergy(analysis)
    fig.savefig(output / "figures" / f"{name}_exergy.png", dpi=120, bbox_inches="tight")
    print(
        f"  exergy of {name} at {float(ambient):.2f} K: efficiency {analysis.efficiency:.4f}, "
        f"balance {analysis.balance_w:.2e} W -> {path}"
    )


def _run_notebooks(output: Path) -> int:
    try:
        import papermill
    except ModuleNotFoundError:
        print("  notebooks skipped: papermill missing (pip install 'thermal-workbench[notebooks]')")
        return 1
    from workbench.notebook_ui.run import ensure_kernel, list_notebooks, run_notebook

    failures = 0
    folder = output / "notebooks"
    kernel = ensure_kernel()
    server_was_running = _embedded_running()
    for path in list_notebooks():
        t0 = time.perf_counter()
        try:
            target = run_notebook(path, output_dir=folder, kernel_name=kernel)
            print(f"  executed {path.name} in {time.perf_counter() - t0:.1f} s -> {target}")
        except papermill.PapermillExecutionError as exc:
            failures += 1
            print(
                f"  FAILED {path.name} in cell {exc.exec_count}: {exc.ename}: {exc.evalue} "
                f"(see {folder / path.name})"
            )
        except Exception as exc:  # a broken kernel or environment: report, go on
            failures += 1
            print(f"  FAILED {path.name}: {type(exc).__name__}: {exc}")
            traceback.print_exc(limit=3)
    if server_was_running is False and _embedded_running():
        from workbench.notes import stop_embedded

        stop_embedded()  # leave the embedded database as the job found it
        print("  stopped the embedded note database the notes notebook started")
    return failures


def _embedded_running() -> bool | None:
    """Whether the embedded note database runs (None: notes extra missing or DATABASE_URL set)."""
    import os

    if os.environ.get("DATABASE_URL"):
        return None
    try:
        from workbench.notes import embedded_status
    except ModuleNotFoundError:
        return None
    return embedded_status().running


def run_main_job(examples: Path, output: Path, notebooks: bool = True) -> int:
    """Run the main job; return a process exit code (0 when every step succeeded)."""
    output.mkdir(parents=True, exist_ok=True)
    scenario_files = sorted(examples.glob("*.json"))
    print(f"main job: {len(scenario_files)} example scenarios from {examples}")
    failures = _solve_examples(scenario_files, output)
    if notebooks:
        print("main job: executing the notebooks")
        failures += _run_notebooks(output)
    root = output.resolve()
    print(f"main job: results are in {root / 'results'}")
    print(f"main job: figures are in {root / 'figures'}")
    if notebooks:
        print(f"main job: executed notebooks and their artefacts are in {root / 'notebooks'}")
    if failures:
        print(f"main job: {failures} step(s) failed (see above)")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    """Run the main job from the command line (the README's first command)."""
    from workbench.cli.main import quiet_environment_warnings

    quiet_environment_warnings()
    parser = argparse.ArgumentParser(prog="python -m workbench.main_job", description=__doc__)
    parser.add_argument("--examples", type=Path, default=REPO_ROOT / "examples" / "scenarios")
    parser.add_argument("--output", type=Path, default=Path("output"))
    parser.add_argument("--no-notebooks", action="store_true", help="only solve the examples")
    args = parser.parse_args(argv)
    return run_main_job(args.examples, args.output, notebooks=not args.no_notebooks)


if __name__ == "__main__":
    sys.exit(main())
