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
from workbench.components.vessel import Accumulator, Receiver

__all__ = [
    "COMPONENT_CLASSES",
    "Accumulator",
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
    "Receiver",
    "Splitter",
    "component_class",
]
