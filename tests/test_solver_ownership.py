"""A solve owns what it mutates: its fluid backend, its property counts, no logging set-up."""

from __future__ import annotations

import copy
import logging
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from solver_cases import textbook_r134a, ua_heat_pump

from workbench.fluids import lease_backend
from workbench.solver import prepare, solve


def test_threads_solve_at_once_with_the_numbers_of_a_serial_run():
    docs = [ua_heat_pump(**{"evap.fan_speed": f}) for f in (0.6, 0.7, 0.8, 0.9, 1.0, 0.65)]
    serial = [solve(copy.deepcopy(d)) for d in docs]
    with ThreadPoolExecutor(max_workers=3) as pool:
        threaded = list(pool.map(lambda d: solve(copy.deepcopy(d)), docs))
    for a, b in zip(serial, threaded, strict=True):
        assert a.converged
        assert b.converged
        np.testing.assert_array_equal(a.x, b.x)
        assert a.property_calls == b.property_calls


def test_property_counts_are_per_solve_and_nothing_is_reset():
    doc = textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0)
    first, second = solve(copy.deepcopy(doc)), solve(copy.deepcopy(doc))
    assert first.property_calls == second.property_calls > 0
    # a lent backend keeps what it remembered (exact inputs): the second solve flashes less
    assert second.property_flashes <= first.property_flashes <= first.property_calls
    system = prepare(copy.deepcopy(doc))
    before = system.fluid.stats
    result = solve(doc, system=system)
    # the prepared system's backend keeps counting; the result holds the difference
    assert (system.fluid.stats - before).calls == result.property_calls


def test_lent_backends_are_not_lent_twice_at_once():
    with lease_backend("R134a", "CoolProp") as a, lease_backend("R134a", "CoolProp") as b:
        assert a is not b
    with lease_backend("R134a", "CoolProp") as c:
        assert c in (a, b)  # returned backends are lent again


def test_verbose_solve_logs_iterations_at_info_without_touching_logging(caplog):
    doc = ua_heat_pump()
    doc["solver"] = {"verbose": True}
    logger = logging.getLogger("workbench.solver")
    level, handlers = logger.level, list(logger.handlers)
    root_handlers = list(logging.getLogger().handlers)
    with caplog.at_level(logging.INFO, logger="workbench.solver"):
        result = solve(doc)
    assert result.converged
    lines = [r for r in caplog.records if "newton iteration" in r.getMessage()]
    assert len(lines) == result.iterations + 1
    assert all(r.levelno == logging.INFO for r in lines)
    assert logger.level == level
    assert logger.handlers == handlers
    assert logging.getLogger().handlers == root_handlers


def test_quiet_solve_logs_iterations_at_debug_only(caplog):
    with caplog.at_level(logging.INFO, logger="workbench.solver"):
        solve(ua_heat_pump())
    assert not [r for r in caplog.records if "newton iteration" in r.getMessage()]


@pytest.mark.parametrize("backend", ["CoolProp", "Test"])
def test_unknowns_pair_every_edge_pressure_with_its_enthalpy(backend):
    doc = ua_heat_pump(backend=backend)
    system = prepare(doc)
    states = system.unknowns.states
    assert len(states) == len(system.flat.edges)
    for state, edge_vars in zip(states, system.topology.edge_vars, strict=True):
        assert (state.p, state.h) == (edge_vars.p, edge_vars.h)
        assert system.var_names[state.p][2:] == system.var_names[state.h][2:]
        assert (system.var_kinds[state.p], system.var_kinds[state.h]) == ("p", "h")
    assert system.unknowns.index(system.var_names[states[0].h]) == states[0].h
