"""Unknowns a component reads beyond its own ports, found from the circuit graph.

A :class:`~workbench.components.exchangers.gas_cooler.component.GasCooler` whose pressure follows an
optimal-pressure correlation needs the evaporating temperature, which it takes from the
suction pressure of the compressor that feeds it: the edges are followed upstream from the
gas cooler's inlet, through each component's stream, to the first compressor, and that
compressor's inlet pressure becomes an unknown of the gas cooler.
"""

from __future__ import annotations

from workbench.components.exchangers.gas_cooler.component import GasCooler
from workbench.components.machines.compressor import Compressor
from workbench.errors import SpecificationError
from workbench.solver.system import System

__all__ = ["link_suction_pressures"]


def link_suction_pressures(system: System) -> None:
    """Give every gas cooler with ``pressure_control`` the suction pressure of its compressor.

    Raises
    ------
    SpecificationError
        No compressor upstream of such a gas cooler.
    """
    topo, flat = system.topology, system.flat
    for comp in system.components.values():
        if not isinstance(comp, GasCooler) or comp.correlation is None:
            continue
        name, port = comp.name, "inlet"
        for _ in range(len(flat.edges)):
            edge = flat.edges[topo.port_edge[(name, port)]]
            upstream = system.components[edge.src]
            inlet = next((a for a, b in upstream.streams if b == edge.src_port), None)
            if inlet is None:
                break
            if isinstance(upstream, Compressor):
                comp.link_suction(topo.edge_vars[topo.port_edge[(upstream.name, inlet)]].p)
                break
            name, port = upstream.name, inlet
        if comp.suction_p_index is None:
            raise SpecificationError(
                f"GasCooler {comp.name!r} ({comp.path}): pressure_control "
                f"{comp.correlation!r} reads the evaporating temperature at the suction of the "
                "compressor that feeds the gas cooler, and none was found upstream"
            )
