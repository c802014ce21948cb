"""The live regions of the lab page, each with a frozen view-model built by keyword (a dataclass compared by value):
everything its template reads, and nothing else.

A region's template (a macro of app/templates/regions.html named after its ``kind``) receives only its view-model,
so what a region depends on is written exactly once, in this package.  The full page renders every region in place;
an htmx partial sends the regions whose view-model differs from the previous state's (``to_send``), each swapped by
id (``hx-swap-oob``): the charts, the meter strip and the links that carry the state travel like any other region.

One module per part of the page: ``registry`` (the regions of a state and the diff), ``page`` (marker, notices,
links), ``arch`` (the architecture picker's shape), ``stage`` (stage header and diagram), ``meters`` (meter cards
and strip), ``estimates`` (the engineer's panel), ``why`` (the why-panel) and ``decisions`` (the decision cards).
"""

from __future__ import annotations

from dataclasses import replace

from app.model.stages import EdgeState
from app.view.charts import MemoryChartVM, PhasesChartVM, StepChartVM
from app.view.regions.arch import ArchInfoVM, ShapeField, arch_info
from app.view.regions.decisions import DecisionVM
from app.view.regions.estimates import EstCapVM, EstHeadVM, EstRunVM, EstStepVM, EstVsVM
from app.view.regions.meters import BANDS, SHORT_ARG, MeterVM, StripVM, strip
from app.view.regions.page import LinksVM, MarkerVM, NoticesVM
from app.view.regions.registry import ALWAYS_SENT, FIRST_PAINT, LINK_REGIONS, Region, state_regions, to_send, with_moves
from app.view.regions.stage import FLAGGED_STATES, NodeVM, PlacementVM, StageVM, placement_vm, stage_vm
from app.view.regions.why import WhyVM

__all__ = ["ALWAYS_SENT", "BANDS", "FIRST_PAINT", "FLAGGED_STATES", "LINK_REGIONS", "SHORT_ARG", "ArchInfoVM",
           "DecisionVM", "EdgeState", "EstCapVM", "EstHeadVM", "EstRunVM", "EstStepVM", "EstVsVM", "LinksVM",
           "MarkerVM", "MemoryChartVM", "MeterVM", "NodeVM", "NoticesVM", "PhasesChartVM", "PlacementVM", "Region", "ShapeField",
           "StageVM", "StepChartVM", "StripVM", "WhyVM", "arch_info", "placement_vm", "replace", "stage_vm", "state_regions", "strip",
           "to_send", "with_moves"]
