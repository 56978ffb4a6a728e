"""The fixed-charge row of the Jacobian: item by item, no zone-model root-find per column.

The row is checked against a forward difference of the whole circuit's charge (the definition
it replaces), and its cost is counted: each item is evaluated once per column it reads, the
circuit's inventory is never rebuilt, and a UA coil's zone model runs no root-find.
"""

from __future__ import annotations

import numpy as np
import pytest
from charge_cases import charge_doc

import workbench.components.exchangers.coils.zone_memory as zone_memory_module
import workbench.solver.charge.inventory as inventory_module
from workbench.components.exchangers.coils.component import Coil
from workbench.solver import prepare, solve
from workbench.solver.charge.block import FD_STEP, CircuitCharge
from workbench.solver.charge.inventory import circuit_charge
from workbench.solver.start.initial import initial_guess


def _block(system):
    return next(b for b in system.blocks if isinstance(b, CircuitCharge))


def _whole_circuit_row(system, block, x):
    """Forward differences of circuit_charge over every unknown the inventory reads."""
    f0 = circuit_charge(system, x, block.circuit)
    row = {}
    for col in block.local_vars:
        dx = FD_STEP * max(abs(float(x[col])), 0.01 * float(system.var_scale[col]))
        xp = x.copy()
        xp[col] += dx
        row[col] = (circuit_charge(system, xp, block.circuit) - f0) / dx
    return row


def _states():
    """The example's system at its cold start and at its solution."""
    system = prepare(charge_doc(charge_kg=0.25))
    result = solve(charge_doc(charge_kg=0.25), system=system)
    assert result.converged
    return system, [initial_guess(system), result.x.copy()]


@pytest.fixture(scope="module")
def states():
    return _states()


def test_charge_row_matches_whole_circuit_differences(states):
    system, xs = states
    block = _block(system)
    for x in xs:
        f0 = block.residuals(x)
        got = {c: v for _r, c, v in block.jacobian(x.copy(), f0, system.step)}
        ref = _whole_circuit_row(system, block, x)
        big = max(abs(v) for v in ref.values())
        for col, v in ref.items():
            # the zone split moved along its IFT derivative: same derivative, O(step) apart
            assert got.get(col, 0.0) == pytest.approx(v, rel=2e-3, abs=1e-6 * big), (
                system.var_names[col] if hasattr(system, "var_names") else col
            )


def test_charge_row_builds_no_inventory_and_runs_no_root_find(states, monkeypatch):
    system, xs = states
    block = _block(system)
    x = xs[1].copy()
    f0 = block.residuals(x)  # the residual at the state, as Newton evaluates it first
    counts = {"inventory": 0, "root": 0, "items": 0}
    real_inventory, real_root = inventory_module.inventory, zone_memory_module.coil_heat_flow
    real_item = inventory_module.component_item

    def inventory(*a, **k):
        counts["inventory"] += 1
        return real_inventory(*a, **k)

    def root(*a, **k):
        counts["root"] += 1
        return real_root(*a, **k)

    def item(*a, **k):
        counts["items"] += 1
        return real_item(*a, **k)

    monkeypatch.setattr(inventory_module, "inventory", inventory)
    monkeypatch.setattr(zone_memory_module, "coil_heat_flow", root)
    monkeypatch.setattr(inventory_module, "component_item", item)
    before = x.copy()
    block.jacobian(x, f0, system.step)
    assert np.array_equal(x, before)  # every perturbation undone
    assert counts["inventory"] == 0
    assert counts["root"] == 0  # both coils are UA coils: their roots are linearised
    # components are evaluated only through their gradients (coils) or once per column
    coils = [t for t in block.terms if t.gradient is not None]
    assert {t.name for t in coils} == {
        c.name for c in system.components.values() if isinstance(c, Coil)
    }
    assert counts["items"] == sum(
        len(t.cols) for t in block.terms if t.gradient is None and "->" not in t.name
    )


def test_charge_residual_is_the_inventory_sum(states):
    system, xs = states
    block = _block(system)
    for x in xs:
        expected = circuit_charge(system, x, block.circuit) - block.charge_kg
        assert block.residuals(x)[0] == pytest.approx(expected, rel=1e-13, abs=1e-15)


@pytest.mark.parametrize("void_fraction", ["homogeneous", "zivi"])
def test_moved_zones_follow_path_zones_to_first_order(void_fraction):
    from workbench.components.inventory.density import moved_zones, path_zones
    from workbench.components.inventory.void_fraction import void_fraction as model_named
    from workbench.fluids import get_backend

    fluid, model = get_backend("R290"), model_named(void_fraction)
    p = 5e5
    h_liq, h_vap = float(fluid.h_liq(p)), float(fluid.h_vap(p))
    h_in, h_out = h_liq + 0.3 * (h_vap - h_liq), h_vap + 20e3  # evaporator: dome, then vapour
    base = path_zones(fluid, p, h_in, h_out, model)
    for d_in, d_out in ((5.0, 0.0), (0.0, 5.0), (-3.0, 4.0)):
        moved = moved_zones(fluid, p, base, h_in + d_in, h_out + d_out, model)
        exact = path_zones(fluid, p, h_in + d_in, h_out + d_out, model)
        assert moved is not None
        assert [z.name for z in moved] == [z.name for z in exact]
        for zb, zm, ze in zip(base, moved, exact, strict=True):
            assert (zm.h_a, zm.h_b) == (ze.h_a, ze.h_b)
            change = ze.density - zb.density
            # first order: the moved density carries the change up to its square
            assert zm.density == pytest.approx(ze.density, abs=1e-3 * abs(change) + 1e-12)
    # the outlet moved into the dome: the path must be cut anew
    assert moved_zones(fluid, p, base, h_in, h_vap - 10.0, model) is None


def test_charge_residual_sees_a_volume_changed_in_place(states):
    """A sweep sets a coil's volume on the built model: the residual at the same state follows."""
    system, xs = states
    block = _block(system)
    x = xs[1]
    before = block.residuals(x)[0]
    condenser = system.components["condenser"]
    volume = condenser.params["internal_volume_m3"]
    try:
        condenser.params["internal_volume_m3"] = 2.0 * volume
        after = block.residuals(x)[0]
        assert after == pytest.approx(circuit_charge(system, x, block.circuit) - block.charge_kg)
        assert after > before + 1e-3  # the condenser holds tens of grams more
    finally:
        condenser.params["internal_volume_m3"] = volume
