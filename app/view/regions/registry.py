"""The regions of one state, in page order (``state_regions``), and which of them a partial sends (``to_send``)."""

from __future__ import annotations

from app.model import Result
from app.model.decisions import DECISION_IDS
from app.model.inputs import Notice
from app.model.meters import METER_IDS
from app.model.moves import Moves
from app.model.scenarios import moved_from_step
from app.model.stages import NODE_IDS
from app.view.charts import memory_chart, phases_chart, step_chart
from app.view.links import canonical_query, current_preset, walk_focus
from app.view.regions.arch import arch_info
from app.view.regions.decisions import DecisionVM
from app.view.regions.estimates import est_cap, est_head, est_run, est_step, est_vs
from app.view.regions.meters import meter_vm, strip
from app.view.regions.page import LinksVM, MarkerVM, NoticesVM
from app.view.regions.record import frozen
from app.view.regions.stage import NodeVM, stage_vm
from app.view.regions.why import why_vm
from app.view.timeline import timeline_chart


@frozen
class Region:
    kind: str      # the macro in regions.html that renders it
    dom_id: str    # the element's id: an out-of-band swap replaces the element with this id
    vm: object     # the frozen view-model the macro receives


ALWAYS_SENT = ("live-marker", "live-notices", "live-why")  # what moved changes with every move
# The regions a learner watches while a slider moves (the stage column's stage, diagram and meters, and the
# phone's meter strip): a partial sends them first, and the page paints them before the charts and the rest.
FIRST_PAINT = frozenset({"stage", "node", "edge", "meter", "strip"})
LINK_REGIONS = ("alt-link", "lang-switch", "compare-link", "launch-link", "present-link", "est-link")


def with_moves(regions: dict[str, Region], r: Result, change: Moves) -> dict[str, Region]:
    """A state's regions after a move: the why-panel also says what moved (``change``)."""
    why = Region(kind="why", dom_id="live-why", vm=why_vm(r, change))
    return {k: (why if k == "live-why" else v) for k, v in regions.items()}


def state_regions(r: Result, notices: tuple[Notice, ...] = (), present: bool = False) -> dict[str, Region]:
    """The live regions of one state (the why-panel without a previous state), in page order, by DOM id."""
    i = r.inputs
    focus = walk_focus(i)
    query = canonical_query(i)
    links = LinksVM(query=query, present=present)
    regions = [
        Region(kind="marker", dom_id="live-marker", vm=MarkerVM(query=query, preset=current_preset(i), focus=focus,
                                                                walk_moved=moved_from_step(i))),
        Region(kind="notices", dom_id="live-notices", vm=NoticesVM(notices=notices)),
        *(Region(kind=k.replace("-", "_"), dom_id=k, vm=links) for k in LINK_REGIONS),
        Region(kind="arch_info", dom_id="arch-info", vm=arch_info(i)),
        Region(kind="stage", dom_id="live-stage", vm=stage_vm(r)),
    ]
    regions += [Region(kind="node", dom_id=f"dg-n-{k}", vm=NodeVM(id=k, state=r.nodes[k])) for k in NODE_IDS]
    regions += [Region(kind="edge", dom_id=f"dg-e-{e.id}", vm=e) for e in r.edges]
    regions += [Region(kind="meter", dom_id=f"meter-{k}", vm=meter_vm(r, k, focus=focus == k)) for k in METER_IDS]
    regions += [
        Region(kind="strip", dom_id="meter-strip", vm=strip(r)),
        Region(kind="chart_step", dom_id="chart-step_vs_gpus", vm=step_chart(r)),
        Region(kind="chart_timeline", dom_id="chart-timeline", vm=timeline_chart(r)),
        Region(kind="est_head", dom_id="est-head", vm=est_head(r)),
        Region(kind="est_step", dom_id="est-step", vm=est_step(r)),
        Region(kind="chart_phases", dom_id="chart-step_phases", vm=phases_chart(r)),
        Region(kind="chart_memory", dom_id="est-mem", vm=memory_chart(r)),
        Region(kind="est_cap", dom_id="est-cap", vm=est_cap(r)),
        Region(kind="est_run", dom_id="est-run", vm=est_run(r)),
        Region(kind="est_vs", dom_id="est-vs", vm=est_vs(r)),
        Region(kind="why", dom_id="live-why", vm=why_vm(r)),
    ]
    regions += [Region(kind="decision", dom_id=f"decision-{k}", vm=DecisionVM(id=k, decision=r.decisions[k]))
                for k in DECISION_IDS]
    return {reg.dom_id: reg for reg in regions}


def to_send(before: dict[str, Region] | None, now: dict[str, Region]) -> list[Region]:
    """The regions of ``now`` whose view-model differs from ``before``'s (all of them without a previous state)."""
    if before is None:
        return list(now.values())
    return [reg for dom_id, reg in now.items()
            if dom_id in ALWAYS_SENT or dom_id not in before or before[dom_id].vm != reg.vm]
