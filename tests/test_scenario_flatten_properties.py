"""Property-based tests of flattening: random templates, instances and connections.

Each generated template is a chain of components with inlet/outlet ports, joined by internal
edges and exposing ``in`` (first inlet) and ``out`` (last outlet). Instances are spread over
random circuits and every circuit's instances are joined into one ring by ``connections``,
written either through external ports or as literal ``<component>:<port>`` endpoints.
Parameters are calibration factors, given literally or as ``$name`` references that the
instance or the template default resolves.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.components.catalog.specs import COMPONENT_TYPES
from workbench.scenario import flatten, load_scenario

CHAIN_TYPES = [t for t, spec in COMPONENT_TYPES.items() if spec.ports == ("inlet", "outlet")]
LOCAL_NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)
VALUES = st.floats(min_value=0.0, max_value=5.0, allow_nan=False).map(lambda x: round(x, 6))


@st.composite
def templates(draw: Any) -> dict[str, Any]:
    names = draw(st.lists(LOCAL_NAMES, min_size=1, max_size=4, unique=True))
    components = []
    params: dict[str, float] = {}
    refs: list[str] = []
    for name in names:
        ctype = draw(st.sampled_from(CHAIN_TYPES))
        comp: dict[str, Any] = {"name": name, "type": ctype}
        factors = COMPONENT_TYPES[ctype].factors  # vessels (Receiver, Accumulator) have none
        chosen = draw(st.lists(st.sampled_from(factors), unique=True)) if factors else []
        for factor in chosen:
            if draw(st.booleans()):
                ref = f"p{len(refs)}"
                refs.append(ref)
                comp[factor] = f"${ref}"
                if draw(st.booleans()):
                    params[ref] = draw(VALUES)
            else:
                comp[factor] = draw(VALUES)
        components.append(comp)
    edges = [{"from": f"{a}:outlet", "to": f"{b}:inlet"} for a, b in itertools.pairwise(names)]
    return {
        "components": components,
        "edges": edges,
        "params": params,
        "ports": {"in": f"{names[0]}:inlet", "out": f"{names[-1]}:outlet"},
        "_refs": refs,
    }


@st.composite
def scenarios(draw: Any) -> dict[str, Any]:
    tpls = draw(st.lists(templates(), min_size=1, max_size=3))
    n_instances = draw(st.integers(min_value=1, max_value=5))
    instances = []
    for i in range(n_instances):
        t = draw(st.integers(min_value=0, max_value=len(tpls) - 1))
        refs = tpls[t]["_refs"]
        # every reference without a template default must be given by the instance
        required = [r for r in refs if r not in tpls[t]["params"]]
        optional = draw(st.lists(st.sampled_from(refs), unique=True)) if refs else []
        inst_params = {r: draw(VALUES) for r in {*required, *optional}}
        instances.append(
            {
                "name": f"i{i}",
                "of": f"t{t}",
                "circuit": draw(st.integers(min_value=0, max_value=3)),
                "params": inst_params,
            }
        )
    connections = []
    by_circuit: dict[int, list[dict[str, Any]]] = {}
    for inst in instances:
        by_circuit.setdefault(inst["circuit"], []).append(inst)
    for ring in by_circuit.values():
        for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
            ta, tb = tpls[int(a["of"][1:])], tpls[int(b["of"][1:])]
            src = (
                f"{a['name']}.out"
                if draw(st.booleans())
                else f"{a['name']}.{ta['components'][-1]['name']}:outlet"
            )
            dst = (
                f"{b['name']}.in"
                if draw(st.booleans())
                else f"{b['name']}.{tb['components'][0]['name']}:inlet"
            )
            connections.append({"from": src, "to": dst})
    subsystems = {
        f"t{i}": {k: v for k, v in tpl.items() if k != "_refs"} for i, tpl in enumerate(tpls)
    }
    return {
        "schema_version": "2",
        "fluid": "R134a",
        "subsystems": subsystems,
        "instances": instances,
        "connections": connections,
    }


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(scenarios())
def test_flatten_property_names_unique_and_complete(doc: dict[str, Any]) -> None:
    flat = flatten(load_scenario(doc))
    expected = [
        f"{inst['name']}.{comp['name']}"
        for inst in doc["instances"]
        for comp in doc["subsystems"][inst["of"]]["components"]
    ]
    assert sorted(flat.components) == sorted(expected)
    assert len(set(expected)) == len(expected)
    for inst in doc["instances"]:
        for comp in doc["subsystems"][inst["of"]]["components"]:
            flat_comp = flat.components[f"{inst['name']}.{comp['name']}"]
            assert flat_comp.circuit == inst["circuit"]
            assert flat_comp.type == comp["type"]
    assert sorted(flat.circuits) == sorted({inst["circuit"] for inst in doc["instances"]})


@SETTINGS
@given(scenarios())
def test_flatten_property_every_edge_kept_and_routed(doc: dict[str, Any]) -> None:
    flat = flatten(load_scenario(doc))
    internal = sum(len(doc["subsystems"][i["of"]]["edges"]) for i in doc["instances"])
    assert len(flat.edges) == internal + len(doc["connections"])
    for edge in flat.edges:
        assert flat.components[edge.src].circuit == edge.circuit
        assert flat.components[edge.dst].circuit == edge.circuit
        assert (edge.src_port, edge.dst_port) == ("outlet", "inlet")
    # every circuit is one closed ring: each component entered once and left once
    for cid in flat.circuits:
        edges = flat.circuit_edges(cid)
        names = sorted(c.name for c in flat.circuit_components(cid))
        assert sorted(e.src for e in edges) == names
        assert sorted(e.dst for e in edges) == names
    connection_edges = [e for e in flat.edges if e.path.startswith("connections[")]
    assert sorted(e.path for e in connection_edges) == sorted(
        f"connections[{i}]" for i in range(len(doc["connections"]))
    )


@SETTINGS
@given(scenarios())
def test_flatten_property_substitution_instance_first_then_default(doc: dict[str, Any]) -> None:
    flat = flatten(load_scenario(doc))
    for inst in doc["instances"]:
        template = doc["subsystems"][inst["of"]]
        for comp in template["components"]:
            params = flat.components[f"{inst['name']}.{comp['name']}"].params
            given_keys = {k for k in comp if k not in ("name", "type")}
            assert set(params) == given_keys
            for k in given_keys:
                value = comp[k]
                if isinstance(value, str):
                    ref = value[1:]
                    expected = inst["params"].get(ref, template["params"].get(ref))
                    assert ref in inst["params"] or ref in template["params"]
                else:
                    expected = value
                assert params[k] == expected


@SETTINGS
@given(scenarios())
def test_flatten_property_round_trip_stable(doc: dict[str, Any]) -> None:
    flat = flatten(load_scenario(doc))
    first = flat.to_dict()
    text = json.dumps(first)
    again = flatten(load_scenario(text))
    assert again.to_dict() == first
    assert list(again.components) == list(flat.components)
    assert [(e.source, e.target) for e in again.edges] == [(e.source, e.target) for e in flat.edges]
    assert flatten(flat.to_scenario()).to_dict() == first
