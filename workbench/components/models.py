"""Every component model class, registered by type name (import this to fill the registry)."""

from workbench.components.base import COMPONENT_CLASSES, Component, component_class
from workbench.components.coils import Condenser, Evaporator
from workbench.components.compressor import Compressor
from workbench.components.gas_cooler import GasCooler
from workbench.components.internal_hx import HeatExchanger
from workbench.components.valve import ExpansionValve

__all__ = [
    "COMPONENT_CLASSES",
    "Component",
    "Compressor",
    "Condenser",
    "Evaporator",
    "ExpansionValve",
    "GasCooler",
    "HeatExchanger",
    "component_class",
]
