"""The ``seasonal`` block of a scenario (schema version 2): how to rate it to EN 14825.

Read by :func:`workbench.seasonal.rate`; the solver never reads it (flattening drops it). Paths
name flat-scenario values the way sweeps do (``evaporator.air_inlet_temp_c``,
``compressor.speed_hz``; :mod:`workbench.sweep.paths`); a temperature path's suffix (``_c`` or
``_k``) says its unit.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["CapacityControlConfig", "OffModeConfig", "SeasonalConfig", "WaterSideConfig"]


class _Strict(BaseModel):
    model_config = ConfigDict(
        strict=True, extra="forbid", populate_by_name=True, allow_inf_nan=False
    )


class WaterSideConfig(_Strict):
    """How the water (indoor) side is held at each test point."""

    parameter: str = Field(
        description="path of the water inlet temperature (e.g. condenser.secondary_inlet_temp_k)"
    )
    hold: Literal["outlet", "inlet"] = Field(
        "outlet",
        description="outlet: the inlet is moved until the water outlet meets the test point's "
        "temperature (flow fixed); inlet: the parameter is set to it directly",
    )


class CapacityControlConfig(_Strict):
    """The parameter that controls capacity and the output that measures it."""

    parameter: str = Field(description="path of the control parameter (e.g. compressor.speed_hz)")
    output: str = Field(
        description="path of the capacity output, W (e.g. condenser.capacity for heating)"
    )
    min: float | None = Field(
        None, gt=0, description="lowest value; the component's min_speed_hz when absent"
    )
    max: float | None = Field(
        None, gt=0, description="highest value; the component's max_speed_hz when absent"
    )


class OffModeConfig(_Strict):
    """Electric power in the off modes [kW] (EN 14825:2018 Annex A hours)."""

    to: float = Field(0.0, ge=0, description="thermostat-off mode [kW]")
    sb: float = Field(0.0, ge=0, description="standby mode [kW]")
    ck: float = Field(0.0, ge=0, description="crankcase heater mode [kW]")
    off: float = Field(0.0, ge=0, description="off mode [kW]")


class SeasonalConfig(_Strict):
    """Settings of a seasonal rating (EN 14825:2018, air-to-water unit, heating or cooling)."""

    standard: Literal["EN14825:2018"] = Field("EN14825:2018", description="rating standard")
    mode: Literal["heating", "cooling"] = Field(
        "heating", description="heating (SCOP, eta_s) or cooling (SEER) of a chiller"
    )
    climate: Literal["average", "warmer", "colder"] = Field(
        "average", description="reference heating season"
    )
    application: Literal["low", "medium", "fan_coil", "floor"] = Field(
        "low",
        description="heating: low (35 degC) or medium (55 degC) water outlet; cooling: fan_coil "
        "(7 degC) or floor (18 degC)",
    )
    outlet: Literal["variable", "fixed"] = Field(
        "variable",
        description="variable: the standard's outlet temperature per test point; fixed: 35/55",
    )
    design_load_kw: float = Field(gt=0, description="Pdesignh (Pdesignc for cooling) [kW]")
    bivalent_c: float | None = Field(
        None, description="bivalent temperature Tbiv [degC] (heating: required)"
    )
    operation_limit_c: float | None = Field(
        None, description="operation limit TOL [degC]; none: the design temperature"
    )
    cd: float = Field(0.9, ge=0, le=1, description="degradation coefficient Cd [-]")
    off_mode_kw: OffModeConfig = Field(default_factory=OffModeConfig)
    outdoor: str = Field(description="path of the outdoor air temperature")
    water: WaterSideConfig
    capacity: CapacityControlConfig

    @model_validator(mode="after")
    def _bivalent_not_below_limit(self) -> SeasonalConfig:
        heating = self.mode == "heating"
        if heating != (self.application in ("low", "medium")):
            raise ValueError(
                f"application {self.application!r} does not fit mode {self.mode!r}: heating "
                "takes low or medium, cooling fan_coil or floor"
            )
        if not heating:
            return self
        if self.bivalent_c is None:
            raise ValueError("bivalent_c is required for a heating rating")
        tol = self.operation_limit_c
        if tol is not None and self.bivalent_c < tol:
            raise ValueError(
                f"bivalent_c {self.bivalent_c} is below operation_limit_c {tol}: the heat pump "
                "cannot carry the load alone below its operation limit"
            )
        return self
