"""Base class of component models and the registry of component classes.

A component declares its equations as data: :meth:`Component.equations` lists them as
:class:`Equation` records (a name and the physical kind that sets the residual's scale, see
:data:`RESIDUAL_SCALES`), and ``residuals`` evaluates them in that order (each ``0 = ...``
documented in the family module). The solver owns the
vector of unknowns ``x`` [SI]; a component reads its ports' mass flow, pressure and enthalpy
from it through :meth:`Component.port`. Calibration factors are read through
:meth:`Component.factor`, so a control loop can turn a factor into an unknown.

The Jacobian block of a component is computed by :meth:`Component.jacobian`: analytic where a
family provides it, otherwise forward differences over the component's own unknowns (the
grouping that makes finite differences cheap: each component only sees its ports).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, NamedTuple

import numpy as np

from workbench.components.catalog.specs import ComponentSpec, get_spec
from workbench.errors import FluidPropertyError, SpecificationError
from workbench.fluids import FluidBackend

__all__ = [
    "COMPONENT_CLASSES",
    "RESIDUAL_SCALES",
    "Component",
    "Equation",
    "PortState",
    "PortVars",
    "ResidualKind",
    "StepFunction",
    "ZoneCharge",
    "component_class",
    "difference_columns",
    "geometry_problems",
    "model_class",
    "register_component",
    "register_variant",
]

ResidualKind = Literal["mass", "pressure", "enthalpy", "temperature", "power", "control", "charge"]
"""Physical kind of a residual; it selects the residual's scale in :data:`RESIDUAL_SCALES`."""

StepFunction = Callable[[int, float], float]
"""``step(i, x_i)``: the finite-difference perturbation of unknown ``i`` at value ``x_i``."""

RESIDUAL_SCALES: dict[str, float] = {
    "mass": 1.0e-2,  # kg/s
    "pressure": 1.0e3,  # Pa
    "enthalpy": 1.0e2,  # J/kg
    "temperature": 1.0e-2,  # K
    "power": 1.0,  # W
    "control": 1.0,  # dimensionless (already normalised by the loop's band)
    "charge": 1.0,  # kg (a circuit's refrigerant charge: converged to 1 mg at tolerance 1e-6)
}
"""Scale [unit of the residual] dividing each kind of residual before the convergence test.

The solver converges when every scaled residual is below ``solver.tolerance`` (default 1e-6),
that is mass balances to 1e-8 kg/s, pressures to 1e-3 Pa, enthalpies to 1e-4 J/kg,
temperatures to 1e-8 K and heat flows to 1e-6 W.
"""


@dataclass(frozen=True)
class ZoneCharge:
    """The refrigerant in one zone of a coil or HX side.

    Attributes
    ----------
    zone : str
        ``superheated``, ``two-phase``, ``subcooled`` or ``supercritical`` (prefixed ``hot.`` /
        ``cold.`` for the sides of a heat exchanger).
    volume_m3 : float
        The zone's volume [m3].
    density_kg_m3 : float
        Its mean density [kg/m3].
    kg : float
        Its mass [kg].
    """

    zone: str
    volume_m3: float
    density_kg_m3: float
    kg: float


@dataclass(frozen=True, slots=True)
class Equation:
    """One residual equation of a block, declared as data.

    Attributes
    ----------
    name : str
        Name shown in diagnostics as ``<block>.<name>`` (``heat_transfer``, ``flow`` ...).
    kind : str
        Physical kind of the residual (a key of :data:`RESIDUAL_SCALES`): the solver divides
        the residual by that scale before the convergence test.
    """

    name: str
    kind: ResidualKind


@dataclass(frozen=True)
class PortVars:
    """Indices of a port's unknowns in the solver vector: mass flow, pressure, enthalpy."""

    m: int
    p: int
    h: int


class PortState(NamedTuple):
    """State at a port [kg/s, Pa, J/kg].

    A named tuple rather than a frozen dataclass: :meth:`Component.port` builds one per call
    (about a thousand per solve), and a tuple is built in half the time.
    """

    m: float
    p: float
    h: float


COMPONENT_CLASSES: dict[str, type[Component]] = {}


def register_component(cls: type[Component]) -> type[Component]:
    """Class decorator adding a component class to the registry under its ``type_name``."""
    COMPONENT_CLASSES[cls.type_name] = cls
    return cls


def component_class(type_name: str) -> type[Component]:
    """Return the model class of a component type."""
    try:
        return COMPONENT_CLASSES[type_name]
    except KeyError:
        raise SpecificationError(
            f"no model for component type {type_name!r}; known: {', '.join(sorted(COMPONENT_CLASSES))}"
        ) from None


COMPONENT_VARIANTS: dict[tuple[str, str], type[Component]] = {}
"""Models of a component type built from its hardware, by ``(type name, geometry kind)``."""


def register_variant(type_name: str, kind: str) -> Callable[[type[Component]], type[Component]]:
    """Class decorator: the model of ``type_name`` when its ``geometry`` has ``kind``.

    A condenser with ``"geometry": {"kind": "brazed_plate", ...}`` is built by the class
    registered as ``register_variant("Condenser", "brazed_plate")`` instead of the UA model.
    """

    def add(cls: type[Component]) -> type[Component]:
        COMPONENT_VARIANTS[(type_name, kind)] = cls
        return cls

    return add


def _variant(type_name: str, geometry: Any) -> type[Component] | tuple[str, str]:
    """The variant class of a ``geometry``, or why there is none as ``(subpath, message)``."""
    kinds = sorted(k for t, k in COMPONENT_VARIANTS if t == type_name)
    if not isinstance(geometry, Mapping) or "kind" not in geometry:
        return ("", f"expected an object with a 'kind' ({', '.join(kinds) or 'none known'})")
    cls = COMPONENT_VARIANTS.get((type_name, str(geometry["kind"])))
    if cls is None:
        return (
            ".kind",
            f"{geometry['kind']!r} is not a {type_name} geometry; known: "
            f"{', '.join(kinds) or 'none'}",
        )
    return cls


def geometry_problems(type_name: str, geometry: Any) -> list[tuple[str, str]]:
    """Problems of a ``geometry`` object for a component type, as ``(subpath, message)``.

    ``subpath`` is ``""`` or a suffix such as ``.fins_per_m``; empty when the geometry is
    valid. The variant's :meth:`Component.check_geometry` judges the keys of its kind.
    """
    found = _variant(type_name, geometry)
    if isinstance(found, tuple):
        return [found]
    return found.check_geometry(geometry)


def model_class(type_name: str, params: Mapping[str, Any], path: str = "") -> type[Component]:
    """The model class of a component: its type's, or a variant chosen by ``geometry.kind``.

    Raises
    ------
    SpecificationError
        The type is unknown, or ``geometry`` is not an object with a known ``kind`` for this
        type (the message names the JSON path and the kinds known).
    """
    geometry = params.get("geometry")
    if geometry is None:
        return component_class(type_name)
    found = _variant(type_name, geometry)
    if isinstance(found, tuple):
        where = f"{path}.params.geometry" if path else "geometry"
        raise SpecificationError(f"{where}{found[0]}: {found[1]}")
    return found


class Component:
    """A component model: parameters, ports and residual equations.

    Parameters
    ----------
    name : str
        Flat component name.
    params : mapping
        Parameters as given in the scenario (SI, with the scenario contract's suffixes); defaults come
        from the catalog.
    fluid : FluidBackend
        Working-fluid property backend.
    path : str
        JSON path of the component in the source document (for messages).
    """

    type_name: ClassVar[str] = ""
    streams: ClassVar[tuple[tuple[str, str], ...]] = (("inlet", "outlet"),)
    """Pairs (inlet port, outlet port) joined by a refrigerant stream inside the component."""

    def __init__(
        self, name: str, params: Mapping[str, Any], fluid: FluidBackend, path: str = ""
    ) -> None:
        self.name = name
        self.path = path or name
        self.fluid = fluid
        spec = get_spec(self.type_name)
        assert spec is not None, self.type_name
        self.spec: ComponentSpec = spec
        self.given: dict[str, Any] = dict(params)
        self.params: dict[str, Any] = {
            p.name: p.default for p in spec.params if p.default is not None
        }
        self.params.update(self.given)
        self.ports: dict[str, PortVars] = {}
        self.factor_sources: dict[str, Callable[[np.ndarray], float]] = {}
        self.configure()

    # -- set-up ----------------------------------------------------------------------------
    def configure(self) -> None:
        """Derive the model mode from the parameters (override in families).

        Called once by ``__init__``, after :attr:`params` holds the given values over the
        catalog's defaults.

        Raises
        ------
        SpecificationError
            The parameters do not make a model (from :meth:`error`, naming the component).
        """

    @classmethod
    def check_geometry(cls, geometry: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Problems of a ``geometry`` object for this variant, as ``(subpath, message)``.

        A variant built from hardware (:func:`register_variant`) overrides it; the scenario
        validator reports each problem at ``<component>.params.geometry<subpath>``.
        """
        return []

    def bind(self, ports: Mapping[str, PortVars]) -> None:
        """Attach the solver indices of the ports' unknowns."""
        self.ports = dict(ports)
        self.factor_sources = {}
        self._local = sorted({i for pv in self.ports.values() for i in (pv.m, pv.p, pv.h)})

    def drive_factor(self, name: str, index: int, value: Callable[[np.ndarray], float]) -> None:
        """Let unknown ``index`` drive calibration factor ``name`` through ``value(x)``.

        Used by control loops: the loop's state is an unknown and the factor is its saturated
        value.
        """
        self.factor_sources[name] = value
        self._local = sorted(set(self._local) | {index})

    def has(self, name: str) -> bool:
        """True when the scenario gave parameter ``name``."""
        return name in self.given

    def error(self, message: str) -> SpecificationError:
        """An error that names this component."""
        return SpecificationError(f"{self.type_name} {self.name!r} ({self.path}): {message}")

    # -- state access ----------------------------------------------------------------------
    def port(self, x: np.ndarray, port: str) -> PortState:
        """State of ``port`` in the solver vector ``x``."""
        pv = self.ports[port]
        return PortState(x.item(pv.m), x.item(pv.p), x.item(pv.h))

    def factor(self, x: np.ndarray, name: str) -> float:
        """Value of calibration factor ``name``: an unknown when a loop drives it, else the parameter."""
        source = self.factor_sources.get(name)
        if source is not None:
            return source(x)
        return float(self.params.get(name, 1.0))

    @property
    def local_vars(self) -> list[int]:
        """Indices of every unknown this component's residuals may depend on."""
        return self._local

    # -- equations -------------------------------------------------------------------------
    def equations(self) -> tuple[Equation, ...]:
        """The residual equations, in the order of :meth:`residuals` (override in families).

        Returns
        -------
        tuple of Equation
            One record per residual: its name and physical kind. The set can depend on the
            mode chosen by :meth:`configure` and, for junctions, on the bound ports.
        """
        raise NotImplementedError

    def equation_names(self) -> list[str]:
        """Names of the residual equations, in the order of :meth:`residuals`."""
        return [eq.name for eq in self.equations()]

    def residual_kinds(self) -> list[str]:
        """Kind of each residual (a key of :data:`RESIDUAL_SCALES`)."""
        return [eq.kind for eq in self.equations()]

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Residuals [SI units of each kind] at ``x``; zero at the solution.

        Parameters
        ----------
        x : numpy.ndarray
            The solver's vector of unknowns [kg/s, Pa, J/kg; loop states].

        Returns
        -------
        numpy.ndarray
            One value per entry of :meth:`equations`, in that order, each in the unit of its
            kind (kg/s, Pa, J/kg, K, W); the family module states each as ``0 = ...``.

        Raises
        ------
        FluidPropertyError
            A state at ``x`` is outside the fluid backend's range.
        """
        raise NotImplementedError

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Entries (local equation row, global column, d residual / d x) of the Jacobian block.

        The default is one-sided finite differences over :attr:`local_vars`; ``step(i, xi)``
        returns the perturbation of unknown ``i``. Where the forward step leaves the fluid's
        valid range (a pressure a hair below the critical point), the backward step is used.
        """
        cols = self._local
        if not cols:
            return []
        derivs = np.empty((len(cols), len(f0)))
        for k, col in enumerate(cols):
            xi = x[col]
            dx = step(col, xi)
            try:
                x[col] = xi + dx
                f1 = self.residuals(x)
            except FluidPropertyError:
                dx = -dx
                x[col] = xi + dx
                f1 = self.residuals(x)
            finally:
                x[col] = xi
            derivs[k] = (f1 - f0) / dx
        # the nonzero entries column by column, rows ascending (one pass over the block)
        ks, rows = np.nonzero(derivs)
        return list(
            zip(
                rows.tolist(),
                [cols[k] for k in ks.tolist()],
                derivs[ks, rows].tolist(),
                strict=True,
            )
        )

    def measure(self, x: np.ndarray, output: str) -> float:
        """Value of one scenario-contract output at ``x`` [SI], smooth enough for a control loop."""
        value = self.outputs(x).get(output)
        if value is None:
            raise self.error(f"has no output {output!r}")
        return float(value)

    # -- results ---------------------------------------------------------------------------
    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """Results of the component at the solution [SI], named as the scenario contract names them.

        Parameters
        ----------
        x : numpy.ndarray
            The solved vector of unknowns.

        Returns
        -------
        dict of str to float or None
            Output name -> value [SI: W, kg/s, Pa, K, J/kg; ratios dimensionless]; None where
            a value is undefined at this state (a quality outside the dome, a ratio over zero).
        """
        return {}

    def check(self, x: np.ndarray) -> list[str]:
        """Physical checks at a converged solution; each string names an impossibility.

        Parameters
        ----------
        x : numpy.ndarray
            The solved vector of unknowns.

        Returns
        -------
        list of str
            One message per violated physical law (heat flowing uphill, flow running
            backwards), naming the component; empty when the state is possible.
        """
        return []

    def warnings(self, x: np.ndarray) -> list[str]:
        """Possible but questionable conditions at a converged solution.

        Parameters
        ----------
        x : numpy.ndarray
            The solved vector of unknowns.

        Returns
        -------
        list of str
            One message per condition (liquid at a compressor suction, a correlation used
            outside its range), naming the component; empty when there is nothing to say.
        """
        return []


def difference_columns(
    residuals: Callable[[np.ndarray], np.ndarray],
    x: np.ndarray,
    f0: np.ndarray,
    step: StepFunction,
    cols: list[int],
) -> list[tuple[int, int, float]]:
    """Forward-difference Jacobian entries of ``residuals`` for the columns ``cols``.

    Parameters
    ----------
    residuals : callable
        A block's residuals at a state vector.
    x : numpy.ndarray
        The state (SI); each column is moved by ``step(col, x[col])`` and restored.
    f0 : numpy.ndarray
        The residuals at ``x``.
    step : callable
        ``step(i, xi)``: the perturbation of unknown ``i``.
    cols : list of int
        The columns to difference (the ones without analytic derivatives).

    Returns
    -------
    list of tuple
        ``(local row, column, d residual / d x)`` for every nonzero derivative.
    """
    entries: list[tuple[int, int, float]] = []
    for col in cols:
        xi = x[col]
        dx = step(col, xi)
        x[col] = xi + dx
        try:
            f1 = residuals(x)
        finally:
            x[col] = xi
        d = (f1 - f0) / dx
        entries += [(int(r), col, float(d[r])) for r in np.nonzero(d)[0]]
    return entries
