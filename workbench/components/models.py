"""Every component model class, registered by type name (import this to fill the registry)."""

from workbench.components.base import COMPONENT_CLASSES, Component, component_class
from workbench.components.coils import Condenser, Evaporator
from workbench.components.compressor import Compressor
from workbench.components.flash_tank import FlashTank
from workbench.components.gas_cooler import GasCooler
from workbench.components.injection_compressor import InjectionCompressor
from workbench.components.internal_hx import HeatExchanger
from workbench.components.junction import Junction
from workbench.components.mixer import Mixer
from workbench.components.splitter import Splitter
from workbench.components.valve import ExpansionValve

__all__ = [
    "COMPONENT_CLASSES",
    "Component",
    "Compressor",
    "Condenser",
    "Evaporator",
    "ExpansionValve",
    "FlashTank",
    "GasCooler",
    "HeatExchanger",
    "InjectionCompressor",
    "Junction",
    "Mixer",
    "Splitter",
    "component_class",
]
