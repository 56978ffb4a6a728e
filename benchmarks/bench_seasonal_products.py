"""Prediction error of a product model: fitted to a 35 degC declaration, tested on 55 degC.

Constructed products (no third-party data): for each refrigerant (R32, R290, R410A) a base
scenario (the R290 example with the fluid swapped and the displacement scaled to the fluid's
volumetric capacity) and three "true" units drawn with a seeded generator. Each true unit differs
from the base in the free parameters (displacement, isentropic efficiency, condenser and
evaporator UA) *and* in hidden ones the fit cannot move (the isentropic and volumetric speed
curves, the volumetric efficiency, superheat, subcooling, water flow). Its EN 14825 declarations
(average climate, low and medium temperature application) are the test points of
:func:`workbench.seasonal.rate` on the true unit. :func:`workbench.seasonal.fit_declared` fits
the base to the 35 degC (low) declaration, :func:`workbench.seasonal.predict_declared` predicts
the 55 degC (medium) one, and the table reports the COP errors. Run
``python -m benchmarks.bench_seasonal_products`` (``--no-write`` only prints); it replaces the
``bench:seasonal-products`` section of docs/benchmarks.md (the same table is quoted in
docs/seasonal.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.bench_docs import machine_line, write_section

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "scenarios" / "air_water_heat_pump_seasonal_v2.json"
DISPLACEMENT = {"R290": 3.6e-5, "R32": 2.2e-5, "R410A": 2.4e-5}
"""Base displacement per fluid [m3]: about the same capacity as the R290 example."""
PRODUCTS = 2

__all__ = ["base", "main", "measure", "product"]


def base(fluid: str) -> dict[str, Any]:
    """The base scenario of a fluid."""
    doc = json.loads(EXAMPLE.read_text())
    doc["fluid"] = fluid
    doc["name"] = f"base {fluid}"
    doc["circuits"][0]["components"][0]["displacement_m3"] = DISPLACEMENT[fluid]
    return doc


def product(fluid: str, rng: np.random.Generator) -> tuple[dict[str, Any], dict[str, float]]:
    """A true unit: the base with free and hidden parameters drawn; returns it and the draws."""
    doc = base(fluid)
    comp, cond, _valve, evap = doc["circuits"][0]["components"]
    drawn = {
        "displacement": float(rng.uniform(0.85, 1.3)),
        "eta_s": float(rng.uniform(0.56, 0.72)),
        "cond_ua": float(rng.uniform(0.7, 1.4)),
        "evap_ua": float(rng.uniform(0.7, 1.4)),
        "speed_c2": float(rng.uniform(-0.4, -0.2)),
        "eta_v": float(rng.uniform(0.86, 0.95)),
        "superheat": float(rng.uniform(3.0, 7.0)),
        "subcooling": float(rng.uniform(2.0, 5.0)),
        "water": float(rng.uniform(0.85, 1.2)),
    }
    comp["displacement_m3"] *= drawn["displacement"]
    comp["isentropic_efficiency"] = drawn["eta_s"]
    c2 = drawn["speed_c2"]
    comp["isentropic_speed_curve"] = [1.0 - 0.7 - c2, 0.7, c2]  # 1 at the rated speed
    comp["volumetric_efficiency"] = drawn["eta_v"]
    cond["ua"] *= drawn["cond_ua"]
    cond["subcooling_k"] = drawn["subcooling"]
    cond["secondary_mass_flow_kg_s"] *= drawn["water"]
    evap["ua_nominal_kw_k"] *= drawn["evap_ua"]
    evap["superheat_k"] = drawn["superheat"]
    doc["name"] = f"true {fluid}"
    return doc, drawn


def measure(products: int = PRODUCTS, seed: int = 38) -> tuple[str, list[dict[str, Any]]]:
    """Fit and predict every constructed product; the markdown section and the rows."""
    from workbench.seasonal import fit_declared, predict_declared, rate

    rng = np.random.default_rng(seed)
    rows = []
    redrawn = 0
    for fluid in ("R32", "R290", "R410A"):
        for k in range(products):
            while True:  # a unit whose own rating does not converge declares nothing: draw again
                truth, _drawn = product(fluid, rng)
                low = rate(truth).test_points
                med = rate(truth, application="medium").test_points
                if low["converged"].all() and med["converged"].all():
                    break
                redrawn += 1
            t0 = time.perf_counter()
            fit = fit_declared(base(fluid), low[["t_c", "supply_c", "capacity_kw", "cop"]])
            fit_s = time.perf_counter() - t0
            pred = predict_declared(fit.scenario, med[["t_c", "supply_c", "capacity_kw"]])
            err = (pred["cop"].to_numpy() / med["cop"].to_numpy() - 1.0) * 100.0
            err35 = fit.residuals[fit.residuals["quantity"] == "cop"]
            rows.append(
                {
                    "fluid": fluid,
                    "product": k + 1,
                    "fit_cop_rms_pct": float(
                        np.sqrt(np.mean((err35["residual"] / err35["measured"]) ** 2)) * 100
                    ),
                    "median_abs_55_pct": float(np.nanmedian(np.abs(err))),
                    "max_abs_55_pct": float(np.nanmax(np.abs(err))),
                    "converged": int(pred["converged"].sum()),
                    "fit_s": fit_s,
                    "errors": err.tolist(),
                }
            )
            print(rows[-1], flush=True)
    lines = [
        "### Product models: fitted at 35 degC, predicting 55 degC (constructed products)",
        "",
        machine_line(),
        f"(load average {os.getloadavg()[0]:.1f} while measuring: the machine is shared)",
        "",
        f"{products} products per fluid, seed {seed}; {redrawn} drawn units whose own rating "
        "did not converge were drawn again.",
        "",
        "| fluid | product | COP fit RMS at 35 °C [%] | median abs COP error at 55 °C [%] | "
        "max abs [%] | 55 °C points solved | fit time [s] |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['fluid']} | {r['product']} | {r['fit_cop_rms_pct']:.2f} | "
            f"{r['median_abs_55_pct']:.2f} | {r['max_abs_55_pct']:.2f} | "
            f"{r['converged']}/{len(r['errors'])} | {r['fit_s']:.0f} |"
        )
    for fluid in ("R32", "R290", "R410A"):
        errs = np.abs(np.concatenate([r["errors"] for r in rows if r["fluid"] == fluid]))
        solved = int(np.isfinite(errs).sum())
        lines.append(
            f"| {fluid} | all points | | **{np.nanmedian(errs):.2f}** | {np.nanmax(errs):.2f} | "
            f"{solved}/{errs.size} | |"
        )
    return "\n".join(lines), rows


def main(argv: list[str] | None = None) -> int:
    """Measure, print and (unless ``--no-write``) write the docs section."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="only print the table")
    parser.add_argument("--products", type=int, default=PRODUCTS, help="products per fluid")
    args = parser.parse_args(argv)
    text, _rows = measure(args.products)
    print(text)
    if not args.no_write:
        write_section("seasonal-products", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
