"""Every component model class, registered by type name (import this to fill the registry).

Models built from hardware register as variants of a type (``register_variant``); their
packages are imported here too, so ``model_class`` finds them.
"""

from workbench.components.base import (
    COMPONENT_CLASSES,
    COMPONENT_VARIANTS,
    Component,
    component_class,
    geometry_problems,
    model_class,
)
from workbench.components.exchangers.coils.component import Condenser, Evaporator
from workbench.components.exchangers.fin_tube.component import (
    FinTubeCondenser,
    FinTubeEvaporator,
    FinTubeGasCooler,
)
from workbench.components.exchangers.gas_cooler.component import GasCooler
from workbench.components.exchangers.ihx.component import HeatExchanger
from workbench.components.exchangers.lines.component import RefrigerantLine
from workbench.components.exchangers.plate.component import PlateCondenser, PlateEvaporator
from workbench.components.exchangers.plate.gas_cooler import PlateGasCooler
from workbench.components.junctions.flash_tank import FlashTank
from workbench.components.junctions.junction import Junction
from workbench.components.junctions.mixer import Mixer
from workbench.components.junctions.splitter import Splitter
from workbench.components.junctions.vessel import Accumulator, Receiver
from workbench.components.machines.compressor import Compressor
from workbench.components.machines.injection_compressor import InjectionCompressor
from workbench.components.machines.valve import ExpansionValve

__all__ = [
    "COMPONENT_CLASSES",
    "COMPONENT_VARIANTS",
    "Accumulator",
    "Component",
    "Compressor",
    "Condenser",
    "Evaporator",
    "ExpansionValve",
    "FinTubeCondenser",
    "FinTubeEvaporator",
    "FinTubeGasCooler",
    "FlashTank",
    "GasCooler",
    "HeatExchanger",
    "InjectionCompressor",
    "Junction",
    "Mixer",
    "PlateCondenser",
    "PlateEvaporator",
    "PlateGasCooler",
    "Receiver",
    "RefrigerantLine",
    "Splitter",
    "component_class",
    "geometry_problems",
    "model_class",
]
