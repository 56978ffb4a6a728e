"""Exergy analysis of a solved result: destruction per component, fuel, product and losses.

With the ambient (dead state) at ``T0`` [K] and ``p0`` [Pa], for every component ``c``:

* its **entropy generation** from the solved edge states and the bodies it exchanges heat
  with (secondary streams or reservoirs, below)::

      S_gen,c = sum_out m s - sum_in m s + dS_body                           [W/K]

* its **exergy destruction** (Gouy-Stodola) ``E_D,c = T0 * S_gen,c`` [W];

* for each outside body it heats or cools, the body's **exergy change**
  ``dE_body = dH_body - T0 * dS_body`` with ``dH_body`` the heat it receives:

  - a secondary stream (air, water, brine) of constant capacity rate ``C`` from ``T_in`` to
    ``T_out`` (the coil's model): ``dS = C ln(T_out / T_in)``, ``C = dH / (T_out - T_in)``;
    the heat is exchanged at its thermodynamic mean temperature ``T_m = dH / dS``;
  - a reservoir at ``T_r`` (a ``reservoirs_k`` entry, a secondary inlet temperature without a
    flow, or the ambient for a cascade's heat loss): ``dS = dH / T_r``;
  - a coil without any secondary: a reservoir at the refrigerant temperature that makes the
    heat transfer just possible: its coldest port for heat it releases (a condenser's
    outlet), its warmest for heat it absorbs (an evaporator's outlet).

The **cycle** (``purpose`` cooling or heating; ``auto`` is cooling when a body the refrigerant
takes heat from comes in below ``T0``: a secondary inlet, a reservoir): the product is the exergy gained by the bodies the cycle serves (those it takes
heat from when cooling, gives heat to when heating); the fuel is the compressor power plus the
exergy given up by any other body; the loss is the exergy gained by the other bodies (a
refrigerator's warm condenser air). Summing the component balances, the edge exergies cancel
in a closed circuit, so ``fuel = product + destruction + loss`` holds up to the solver's
tolerance (``balance_w``); the exergetic efficiency is ``product / fuel``. Thermal couplings
(cascades) are one row: both coils and the heat loss to ambient (at ``T0``, no exergy).
A refrigerant line exchanges its heat gain with a reservoir at its own ``ambient_temp_c``
(neither product nor served: a loss, or a fuel when a room warmer than ``T0`` gives heat). Its
edges also carry the potential energy ``m g dz`` it lifts the refrigerant by, which the flow
exergies leave out: ``balance_w`` is ``m g sum(dz)`` when a circuit's line elevations do not
sum to zero (the components between them are taken level).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

import pandas as pd

from workbench.errors import FluidPropertyError, WorkbenchError
from workbench.solver.states import EdgeState

__all__ = [
    "PURPOSES",
    "ComponentExergy",
    "ExergyAnalysis",
    "HeatExergy",
    "SolvedCycle",
    "exergy_analysis",
]


class SolvedCycle(Protocol):
    """What the analysis reads of a solve: :class:`~workbench.solver.results.SolveResult` has it.

    Named here so that this module sits below the result (whose ``exergy`` method calls it).
    """

    @property
    def components(self) -> dict[str, dict[str, Any]]:
        """Outputs per component (SI with unit suffixes, as in the result tables)."""

    @property
    def couplings(self) -> list[dict[str, Any]]:
        """Thermal couplings between circuits with their heat flows."""

    @property
    def edge_states(self) -> list[EdgeState]:
        """Every edge's state (pressure, enthalpy, temperature, mass flow)."""

    @property
    def fluid(self) -> str | None:
        """The working fluid."""

    @property
    def fluid_backend(self) -> str | None:
        """The working fluid's backend."""


PURPOSES = ("auto", "cooling", "heating")
"""What the cycle is for: it selects which outside bodies' exergy gain is the product."""

HEAT_RELEASING = ("Condenser", "GasCooler")
"""Coil types whose refrigerant releases heat to an outside body."""

HEAT_ABSORBING = ("Evaporator",)
"""Coil types whose refrigerant absorbs heat from an outside body."""

POWERED = ("Compressor", "InjectionCompressor")
"""Component types whose ``power`` output is shaft work into the refrigerant."""


@dataclass(frozen=True)
class HeatExergy:
    """Heat exchanged with one outside body.

    Attributes
    ----------
    component : str
        The coil (or coupling row) exchanging the heat.
    heat_w : float
        Heat the body receives [W] (positive: the refrigerant releases it).
    temperature_k : float
        Temperature at which the body takes the heat [K] (the stream's thermodynamic mean).
    exergy_w : float
        Exergy the body gains [W].
    entropy_w_k : float
        Entropy the body gains [W/K].
    body : str
        ``secondary stream``, ``reservoir`` (given), ``secondary inlet`` (a fixed-temperature
        secondary), ``refrigerant`` (no secondary: the limiting refrigerant temperature) or
        ``ambient`` (a coupling's loss).
    role : str
        ``product``, ``fuel`` or ``loss``.
    """

    component: str
    heat_w: float
    temperature_k: float
    exergy_w: float
    entropy_w_k: float
    body: str
    role: str


@dataclass(frozen=True)
class ComponentExergy:
    """Exergy balance of one component [W, W/K].

    Attributes
    ----------
    name, type : str
        Component (or ``<hot> + <cold>`` for a thermal coupling, type ``ThermalCoupling``).
    power_w : float
        Shaft power into the refrigerant.
    heat_w : float
        Heat into the refrigerant from outside bodies.
    heat_exergy_w : float
        Exergy the outside bodies give up (into the component).
    exergy_in_w, exergy_out_w : float
        Flow exergy of the refrigerant entering and leaving.
    entropy_generation_w_k : float
        Entropy generated.
    destruction_w : float
        Exergy destroyed, ``T0 * entropy_generation_w_k``.
    destruction_ratio : float or None
        ``destruction_w / fuel`` of the cycle (y).
    destruction_share : float or None
        ``destruction_w / total destruction`` (y*).
    """

    name: str
    type: str
    power_w: float
    heat_w: float
    heat_exergy_w: float
    exergy_in_w: float
    exergy_out_w: float
    entropy_generation_w_k: float
    destruction_w: float
    destruction_ratio: float | None = None
    destruction_share: float | None = None


@dataclass
class ExergyAnalysis:
    """The exergy analysis of a result (see module docstring); SI throughout.

    Attributes
    ----------
    ambient_k, ambient_pa : float
        Dead state.
    purpose : str
        ``cooling`` or ``heating`` (after ``auto`` was resolved).
    components : list of ComponentExergy
        One row per component (couplings merged), in the result's order.
    heat : list of HeatExergy
        Every outside body.
    power_w, fuel_w, product_w, loss_w, destruction_w : float
        Compressor power and the cycle's totals [W].
    efficiency : float or None
        ``product_w / fuel_w``.
    balance_w : float
        ``fuel_w - product_w - destruction_w - loss_w`` [W]: zero to the solver's tolerance.
    streams : pandas.DataFrame
        Flow exergy per edge: edge, m_kg_s, e_j_kg (specific, from the dead state), E_w.
    """

    ambient_k: float
    ambient_pa: float
    purpose: str
    components: list[ComponentExergy]
    heat: list[HeatExergy]
    power_w: float
    fuel_w: float
    product_w: float
    loss_w: float
    destruction_w: float
    efficiency: float | None
    balance_w: float
    streams: pd.DataFrame = field(default_factory=pd.DataFrame)

    @property
    def table(self) -> pd.DataFrame:
        """One row per component: power, heat, exergy in/out, S_gen, E_D, y, y* (index: name)."""
        rows = [asdict(c) for c in self.components]
        return pd.DataFrame(rows).set_index("name") if rows else pd.DataFrame()

    @property
    def heat_table(self) -> pd.DataFrame:
        """One row per outside body: component, heat, temperature, exergy, role."""
        return pd.DataFrame([asdict(h) for h in self.heat])

    @property
    def summary(self) -> dict[str, float | None]:
        """Fuel, product, destruction, loss, balance [W] and efficiency [-]."""
        return {
            "ambient_k": self.ambient_k,
            "power_w": self.power_w,
            "fuel_w": self.fuel_w,
            "product_w": self.product_w,
            "destruction_w": self.destruction_w,
            "loss_w": self.loss_w,
            "balance_w": self.balance_w,
            "efficiency": self.efficiency,
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: purpose, summary, components and heat."""
        return {
            "purpose": self.purpose,
            "ambient_pa": self.ambient_pa,
            **self.summary,
            "components": [asdict(c) for c in self.components],
            "heat": [asdict(h) for h in self.heat],
        }

    def _repr_html_(self) -> str:  # pragma: no cover - notebook display
        eff = "n/a" if self.efficiency is None else f"{self.efficiency:.4f}"
        head = (
            f"<p>exergy ({self.purpose}, T0 = {self.ambient_k:.2f} K): fuel {self.fuel_w:.1f} W, "
            f"product {self.product_w:.1f} W, destruction {self.destruction_w:.1f} W, loss "
            f"{self.loss_w:.1f} W, efficiency {eff}</p>"
        )
        return head + str(self.table.to_html())


@dataclass
class _Row:
    name: str
    type: str
    members: tuple[str, ...]
    power_w: float = 0.0
    heat: list[tuple[float, float, float, str]] = field(default_factory=list)
    """(heat into refrigerant, body entropy gain, body exergy gain, body kind) per body."""


def _dead_state(result: SolvedCycle, t0: float, p0: float) -> tuple[float, float]:
    """Enthalpy [J/kg] and entropy [J/(kg K)] of the working fluid at the dead state."""
    if not result.fluid:
        return 0.0, 0.0
    from workbench.fluids import get_backend

    try:
        fluid = get_backend(result.fluid, result.fluid_backend)
        h0 = float(fluid.h_pT(p0, t0))
        return h0, float(fluid.s_ph(p0, h0))
    except (FluidPropertyError, ValueError):
        return 0.0, 0.0


def _body(
    out: dict[str, Any], q_out: float, t_ports: list[float], t0: float, override: float | None
) -> tuple[float, float, float, str]:
    """(entropy gain, exergy gain, temperature, kind) of the body receiving ``q_out`` [W]."""
    t_in = out.get("secondary_inlet_temperature")
    t_out = out.get("secondary_outlet_temperature")
    if override is not None:
        t_r, kind = float(override), "reservoir"
    elif t_in is not None and t_out is not None and abs(t_out - t_in) > 1e-9 * t_in:
        ds = q_out / (t_out - t_in) * math.log(t_out / t_in)
        return ds, q_out - t0 * ds, q_out / ds if ds else float(t_in), "secondary stream"
    elif t_in is not None:
        t_r, kind = float(t_in), "secondary inlet"
    else:
        t_r = min(t_ports) if q_out > 0 else max(t_ports)
        kind = "refrigerant"
    ds = q_out / t_r
    return ds, q_out - t0 * ds, t_r, kind


def exergy_analysis(
    result: SolvedCycle,
    ambient_k: float,
    *,
    ambient_pa: float = 101325.0,
    purpose: str = "auto",
    reservoirs_k: dict[str, float] | None = None,
) -> ExergyAnalysis:
    """Exergy analysis of a solved result (module docstring; ``docs/exergy.md``).

    Parameters
    ----------
    result : SolvedCycle
        A solve result with edge states (a converged one: at a failed solve the balance does
        not close).
    ambient_k : float
        Dead-state (ambient) temperature T0 [K].
    ambient_pa : float
        Dead-state pressure p0 [Pa]; only the flow exergies of the edges depend on it.
    purpose : str
        ``cooling``, ``heating`` or ``auto``.
    reservoirs_k : dict, optional
        Temperature [K] of the body a coil exchanges heat with, by component name (overrides
        its secondary stream).

    Raises
    ------
    WorkbenchError
        A non-positive ambient temperature, an unknown purpose or component name, or a
        result without edge states.
    """
    if not ambient_k > 0.0:
        raise WorkbenchError(
            f"exergy: ambient_k must be a temperature in K above 0, got {ambient_k}"
        )
    if purpose not in PURPOSES:
        raise WorkbenchError(
            f"exergy: purpose must be one of {', '.join(PURPOSES)}, got {purpose!r}"
        )
    if not result.edge_states:
        raise WorkbenchError("exergy: the result carries no edge states (nothing was solved)")
    overrides = dict(reservoirs_k or {})
    unknown = sorted(set(overrides) - set(result.components))
    if unknown:
        raise WorkbenchError(
            f"exergy: reservoirs_k names no component of the result: {', '.join(unknown)}"
        )
    t0 = float(ambient_k)
    h0, s0 = _dead_state(result, t0, ambient_pa)
    states = result.edge_states

    rows = _rows(result)
    bodies: list[tuple[_Row, float, float, float, float, str, bool]] = []
    sources: list[float] = []  # temperatures of the bodies heat is taken from, as they come
    for row in rows:
        comp_in = [st for st in states if st.dst in row.members and st.src not in row.members]
        comp_out = [st for st in states if st.src in row.members and st.dst not in row.members]
        q_in = (
            sum(st.m_kg_s * st.h_j_kg for st in comp_out)
            - sum(st.m_kg_s * st.h_j_kg for st in comp_in)
            - row.power_w
        )
        if row.type == "ThermalCoupling":
            coupling = next(
                c
                for c in result.couplings
                if row.name == f"{c['hot_component']} + {c['cold_component']}"
            )
            loss = float(coupling["loss_to_ambient_w"])
            row.heat.append((-loss, loss / t0, 0.0, "ambient"))
            bodies.append((row, loss, t0, 0.0, loss / t0, "ambient", False))
            continue
        if row.type == "RefrigerantLine":  # heat with the room around the line (docs/lines.md)
            line = result.components[row.name]
            t_amb, gain = line.get("ambient_temperature"), float(line.get("heat_gain") or 0.0)
            if t_amb is not None:
                ds, de, t_m, _kind = _body({}, -gain, [], t0, float(t_amb))
                row.heat.append((gain, ds, de, "ambient"))
                bodies.append((row, -gain, t_m, de, ds, "ambient", False))
            continue
        typ = row.type
        if typ not in HEAT_RELEASING + HEAT_ABSORBING and row.name not in overrides:
            continue
        out = result.components[row.name]
        t_ports = [st.t_k for st in comp_in + comp_out]
        ds, de, t_m, kind = _body(out, -q_in, t_ports, t0, overrides.get(row.name))
        row.heat.append((q_in, ds, de, kind))
        bodies.append((row, -q_in, t_m, de, ds, kind, q_in > 0))
        if q_in > 0:
            t_in = out.get("secondary_inlet_temperature")
            sources.append(t_m if kind in ("reservoir", "refrigerant") or t_in is None else t_in)

    if purpose == "auto":
        purpose = "cooling" if any(t < t0 - 1e-6 for t in sources) else "heating"
    heat: list[HeatExergy] = []
    fuel = power = sum(r.power_w for r in rows)
    product = loss = 0.0
    for row, q_out, t_m, de, ds, kind, absorbs in bodies:
        serves = absorbs if purpose == "cooling" else (not absorbs and kind != "ambient")
        if serves and de >= 0.0:
            role, product = "product", product + de
        elif de < 0.0:
            role, fuel = "fuel", fuel - de
        else:
            role, loss = "loss", loss + de
        heat.append(HeatExergy(row.name, q_out, t_m, de, ds, kind, role))

    def flow_exergy(st: Any) -> float:
        return float(st.m_kg_s * ((st.h_j_kg - h0) - t0 * (st.s_j_kgk - s0)))

    comps: list[ComponentExergy] = []
    for row in rows:
        comp_in = [st for st in states if st.dst in row.members and st.src not in row.members]
        comp_out = [st for st in states if st.src in row.members and st.dst not in row.members]
        s_gen = sum(st.m_kg_s * st.s_j_kgk for st in comp_out) - sum(
            st.m_kg_s * st.s_j_kgk for st in comp_in
        )
        s_gen += sum(ds for _q, ds, _de, _k in row.heat)
        comps.append(
            ComponentExergy(
                name=row.name,
                type=row.type,
                power_w=row.power_w,
                heat_w=sum(q for q, _ds, _de, _k in row.heat),
                heat_exergy_w=-sum(de for _q, _ds, de, _k in row.heat),
                exergy_in_w=sum(flow_exergy(st) for st in comp_in),
                exergy_out_w=sum(flow_exergy(st) for st in comp_out),
                entropy_generation_w_k=s_gen,
                destruction_w=t0 * s_gen,
            )
        )
    destruction = sum(c.destruction_w for c in comps)
    comps = [
        ComponentExergy(
            **{
                **asdict(c),
                "destruction_ratio": c.destruction_w / fuel if fuel else None,
                "destruction_share": c.destruction_w / destruction if destruction else None,
            }
        )
        for c in comps
    ]
    streams = pd.DataFrame(
        [
            {
                "edge": st.label,
                "m_kg_s": st.m_kg_s,
                "e_j_kg": (st.h_j_kg - h0) - t0 * (st.s_j_kgk - s0),
                "E_w": flow_exergy(st),
            }
            for st in states
        ]
    )
    return ExergyAnalysis(
        ambient_k=t0,
        ambient_pa=float(ambient_pa),
        purpose=purpose,
        components=comps,
        heat=heat,
        power_w=power,
        fuel_w=fuel,
        product_w=product,
        loss_w=loss,
        destruction_w=destruction,
        efficiency=product / fuel if fuel else None,
        balance_w=fuel - product - destruction - loss,
        streams=streams,
    )


def _rows(result: SolvedCycle) -> list[_Row]:
    """One row per component; the two coils of a thermal coupling share one row."""
    coupled: dict[str, str] = {}
    rows: list[_Row] = []
    for c in result.couplings:
        hot, cold = str(c["hot_component"]), str(c["cold_component"])
        coupled[hot] = coupled[cold] = f"{hot} + {cold}"
    made: set[str] = set()
    for name, out in result.components.items():
        if name in coupled:
            label = coupled[name]
            if label not in made:
                made.add(label)
                members = tuple(n for n, lab in coupled.items() if lab == label)
                rows.append(_Row(label, "ThermalCoupling", members))
            continue
        power = float(out.get("power") or 0.0) if out.get("type") in POWERED else 0.0
        rows.append(_Row(name, str(out.get("type")), (name,), power_w=power))
    return rows
