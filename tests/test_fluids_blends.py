"""Blend names, the blend tables and the blend backend against direct CoolProp HEOS flashes."""

from __future__ import annotations

import math

import CoolProp.CoolProp as CP
import numpy as np
import pytest

from workbench.errors import UnknownFluidError
from workbench.fluids import get_backend
from workbench.fluids.blend.spec import mass_to_mole, parse_blend
from workbench.fluids.blend.table_build import load_or_build
from workbench.fluids.names import resolve_fluid


def test_blend_names_predefined_and_alias():
    assert resolve_fluid("R454B", "CoolProp") == "R454B"
    assert resolve_fluid("r-454b.mix", "CoolProp") == "R454B"
    spec = parse_blend("R454B")
    assert spec.components == ("R32", "R1234yf")
    assert spec.mass_fractions == pytest.approx((0.689, 0.311), abs=1e-6)
    # the zeotropic R407C is the mixture model by its plain name; the near-azeotropes keep
    # meaning CoolProp's pseudo-pure fluids, and .mix selects their mixture model
    assert resolve_fluid("R407C", "CoolProp") == "R407C"
    assert resolve_fluid("R-407C", "CoolProp") == "R407C"
    assert resolve_fluid("R407C.mix", "CoolProp") == "R407C"
    assert parse_blend("R407C").components == ("R32", "R125", "R134a")
    for name in ("R410A", "R404A", "R507A"):
        assert parse_blend(name) is None
        assert resolve_fluid(name, "CoolProp") == name
        assert resolve_fluid(name + ".mix", "CoolProp") == name + ".mix"
    for name in ("R452B", "R455A", "R513A", "R448A", "R449A"):
        assert resolve_fluid(name, "CoolProp") == name


def test_blend_custom_mass_form_converts_to_moles():
    spec = parse_blend("R32/R1234yf 68.9/31.1")
    m32 = CP.PropsSI("M", "R32")
    myf = CP.PropsSI("M", "R1234yf")
    x32 = (0.689 / m32) / (0.689 / m32 + 0.311 / myf)
    assert spec.mole_fractions[0] == pytest.approx(x32, rel=1e-12)
    assert mass_to_mole(spec.components, spec.mass_fractions) == spec.mole_fractions
    # the same composition as CoolProp's predefined R454B
    assert spec.mole_fractions == pytest.approx(parse_blend("R454B").mole_fractions, abs=1e-7)


@pytest.mark.parametrize(
    ("fluid", "words"),
    [
        ("R32/R9999 50/50", "unknown component 'R9999'"),
        ("R32/R1234yf 60/30", "sum to 90, not 100"),
        ("R32/R1233zd(E) 50/50", "cannot build or flash the pair R32/R1233zd(E)"),
        ("R32[0.829]&R1234yf[0.171]", "'R32/R1234yf 68.86/31.14'"),
        ("R999Z.mix", "unknown predefined mixture"),
    ],
)
def test_blend_name_mistakes_say_what_is_wrong(fluid, words):
    with pytest.raises(UnknownFluidError) as info:
        resolve_fluid(fluid, "CoolProp")
    assert words in str(info.value)


def test_blend_on_the_test_backend_is_refused():
    with pytest.raises(UnknownFluidError, match="blends need fluid_backend 'CoolProp'"):
        resolve_fluid("R454B", "Test")


def test_blend_scenario_mistake_names_the_json_path():
    from workbench.errors import ScenarioError
    from workbench.scenario import load_scenario

    doc = {
        "fluid": "R32/R1234yf 60/30",
        "fluid_backend": "CoolProp",
        "circuits": [{"components": [{"name": "v", "type": "ExpansionValve"}]}],
    }
    with pytest.raises(ScenarioError) as info:
        load_scenario(doc)
    assert "fluid" in str(info.value)
    assert "sum to 90" in str(info.value)


def _reference(fluid):
    spec = parse_blend(fluid)
    state = CP.AbstractState("HEOS", spec.coolprop_fluids)
    state.set_mole_fractions(list(spec.mole_fractions))
    return spec, state


def _mass_quality(state, q_mol, spec):
    molar = [CP.PropsSI("M", c) for c in spec.components]
    m_v = float(np.dot(state.mole_fractions_vapor(), molar))
    m_l = float(np.dot(state.mole_fractions_liquid(), molar))
    return q_mol * m_v / (q_mol * m_v + (1 - q_mol) * m_l)


@pytest.mark.parametrize("fluid", ["R454B", "R407C"])
def test_blend_backend_matches_heos_inside_and_on_the_dome(fluid):
    b = get_backend(fluid, "CoolProp")
    spec, ref = _reference(fluid)
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(80):
        p = math.exp(rng.uniform(math.log(max(b.p_min, 0.5e5)), math.log(0.95 * b.p_max)))
        q = float(rng.uniform(0.0, 1.0))
        try:  # CoolProp's own mixture flash fails at some pressures: those are skipped
            ref.update(CP.PQ_INPUTS, p, 0.0)
            bubble = (ref.T(), ref.hmass())
            ref.update(CP.PQ_INPUTS, p, 1.0)
            dew = (ref.T(), ref.hmass(), ref.smass())
            ref.update(CP.PQ_INPUTS, p, q)
        except ValueError:
            continue
        checked += 1
        state = b.state_ph(p, ref.hmass())
        assert state.phase == "two-phase"
        assert pytest.approx(ref.T(), abs=0.02) == state.T
        assert state.s == pytest.approx(ref.smass(), rel=5e-4)
        assert state.rho == pytest.approx(ref.rhomass(), rel=5e-4)
        assert state.quality == pytest.approx(_mass_quality(ref, q, spec), abs=1e-4)
        assert b.T_bubble(p) == pytest.approx(bubble[0], abs=0.02)
        assert b.h_liq(p) == pytest.approx(bubble[1], rel=5e-4)
        assert b.T_dew(p) == pytest.approx(dew[0], abs=0.02)
        assert b.h_vap(p) == pytest.approx(dew[1], rel=5e-4)
        assert b.s_vap(p) == pytest.approx(dew[2], rel=5e-4)
    assert checked >= 40


@pytest.mark.parametrize("fluid", ["R454B", "R407C"])
def test_blend_backend_single_phase_is_heos(fluid):
    b = get_backend(fluid, "CoolProp")
    _spec, ref = _reference(fluid)
    for p, dt, phase in ((5e5, 20.0, CP.iphase_gas), (20e5, -5.0, CP.iphase_liquid)):
        t = b.T_dew(p) + dt if dt > 0 else b.T_bubble(p) + dt
        ref.specify_phase(phase)
        ref.update(CP.PT_INPUTS, p, t)
        ref.unspecify_phase()
        h = ref.hmass()
        state = b.state_ph(p, h)
        assert pytest.approx(t, abs=1e-6) == state.T
        assert state.s == pytest.approx(ref.smass(), rel=1e-9)
        assert state.rho == pytest.approx(ref.rhomass(), rel=1e-9)
        assert b.h_pT(p, t) == pytest.approx(h, rel=1e-9)


def test_blend_backend_glide_and_errors():
    b = get_backend("R454B", "CoolProp")
    p = b.p_sat(275.15)
    assert b.T_dew(p) == pytest.approx(275.15, abs=1e-8)
    assert 1.0 < b.T_dew(p) - b.T_bubble(p) < 2.0  # R454B: about 1.5 K at 2 degC
    assert b.zeotropic
    h_mid = 0.5 * (b.h_liq(p) + b.h_vap(p))
    assert b.dT_dh_p(p, h_mid) > 0.0  # the temperature slides through the dome
    with pytest.raises(Exception, match="inside the glide"):
        b.h_pT(p, 0.5 * (b.T_dew(p) + b.T_bubble(p)))
    # between the tables' top and the cricondenbar: refused, the real top named
    with pytest.raises(Exception, match=r"above the top of the blend's tables \(43.09 bar, 0.81"):
        b.state_ph(1.2 * b.p_max, 450e3)
    with pytest.raises(Exception, match="below the blend's tables"):
        b.state_ph(0.5 * b.p_min, 450e3)


def test_blend_tables_cache_is_keyed_and_reused(tmp_path):
    spec = parse_blend("R32/R1234yf 50/50")
    first = load_or_build(spec, tmp_path, n_p=12, n_q=9, n_z=9, progress=False)
    files = list(tmp_path.glob("*.npz"))
    assert len(files) == 1
    again = load_or_build(spec, tmp_path, n_p=12, n_q=9, n_z=9, progress=False)
    assert np.array_equal(first.sat, again.sat)
    assert again.coolprop_version == CP.get_global_param_string("version")
    other = parse_blend("R32/R1234yf 40/60")
    load_or_build(other, tmp_path, n_p=12, n_q=9, n_z=9, progress=False)
    assert len(list(tmp_path.glob("*.npz"))) == 2


def test_blend_catalog_and_composition_editor_helpers():
    from workbench.fluids.blend.spec import blend_catalog, compose_blend

    catalog = dict(blend_catalog())
    assert catalog["R454B"] == "R32/R1234yf 68.9/31.1"
    assert "R407C" in catalog
    assert "R407C.mix" not in catalog
    assert "R410A.mix" in catalog
    assert "R410A" not in catalog
    assert {"R448A", "R449A", "R452B", "R455A", "R513A"} <= set(catalog)
    assert all(name.startswith("R") for name in catalog)
    assert compose_blend(["r32", "R1234YF"], [68.9, 31.1]) == "R32/R1234yf 68.9/31.1"
    with pytest.raises(UnknownFluidError, match="sum to 99"):
        compose_blend(["R32", "R1234yf"], [68.9, 30.1])


def test_predefined_blend_coolprop_cannot_model_is_a_clear_error():
    with pytest.raises(
        UnknownFluidError, match=r"cannot model its predefined mixture 'R401A\.mix'"
    ):
        resolve_fluid("R401A", "CoolProp")


def _predefined_pairs() -> list[tuple[str, str]]:
    import itertools

    from workbench.fluids.blend.spec import predefined_blends

    pairs = set()
    for name in predefined_blends().values():
        try:
            state = CP.AbstractState("HEOS", name)
        except ValueError:
            continue  # a predefined mixture CoolProp itself cannot build (R401A, ...)
        pairs.update(itertools.combinations(sorted(state.fluid_names()), 2))
    return sorted(pairs)


@pytest.mark.parametrize(("first", "second"), _predefined_pairs())
def test_blend_every_pair_of_the_predefined_blends_is_accepted(first, second):
    from workbench.fluids.blend.spec import compose_blend

    name = compose_blend([first, second], [50.0, 50.0])
    spec = parse_blend(name)
    assert spec.components == (first, second)
    assert sum(spec.mole_fractions) == pytest.approx(1.0, abs=1e-12)


def test_blend_r32_r125_custom_composition_is_r410a_mixture():
    # R410A is R32/R125 50/50 by mass: the custom blend has CoolProp's R410A.mix mole fractions
    spec = parse_blend("R32/R125 50/50")
    assert spec.components == ("R32", "R125")
    assert spec.mole_fractions == pytest.approx(parse_blend("R410A.mix").mole_fractions, abs=1e-6)
