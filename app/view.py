"""From a model Result to what the templates show: contexts, the diagram geometry, the JSON, the diff.

Geometry, catalogues and static tables are built once at import; a request only fills in state.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
from collections import OrderedDict
from dataclasses import asdict, fields, is_dataclass, replace
from functools import cache, lru_cache
from operator import attrgetter
from pathlib import Path
from urllib.parse import urlencode

from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, nodes
from jinja2.compiler import CodeGenerator
from jinja2.runtime import Context
from markupsafe import Markup, escape
from starlette.requests import Request

from app.htmlspace import CollapseWhitespace
from app.i18n import LANGS, escape_str, translator
from app.inline import InlineTemplates
from app.model import WorkloadInputs, evaluate, normalise
from app.model.assumptions import CONSTANTS, GPUS, SOURCES
from app.model.decisions import DECISION_IDS
from app.model.evaluate import Result
from app.model.inputs import CHOICE_SPECS, NUMBER_SPECS, NUMBERS, PARAM_NAMES, fmt_param
from app.model.meters import METER_IDS
from app.model.scenarios import PRESETS, WALKTHROUGH
from app.model.stages import NODE_IDS, STAGE_IDS


class _Context(Context):
    """Jinja's context, without the copy of the template's globals' names that Jinja makes in every context (each
    include, each render) only for ``{% import %}`` / ``{% from %}`` to see globals passed at render time: these
    templates import nothing (shared macros are globals, below)."""

    def __init__(self, environment, parent, name, blocks, globals=None):  # noqa: ANN001, A002 - Jinja's signature
        super().__init__(environment, parent, name, blocks, None)


# The callables the templates call by name, all plain (none takes Jinja's context): the translator and its
# methods, the fragment cache (a `{% call cached(…) %}` block's own call), the view helpers and the shared macro
DIRECT_CALLS = frozenset({"t", "targs", "cached", "timeline", "memory_bars", "vs_shows", "sec_head"})
_DIRECT_T_METHODS = frozenset({"markup", "fmt", "has"})


class _CodeGenerator(CodeGenerator):
    """Jinja's code generator, with two changes to the Python it writes for a template:

    * ``t(…)``, ``t.markup(…)`` and the other DIRECT_CALLS become plain calls.  Jinja writes every call as
      ``context.call(f, …)``, which looks for ``pass_context`` and friends on ``f`` each time (about 60 calls in a
      partial); these callables take no context, so the call is the same.  ``t.markup`` is read as a Python
      attribute (``t`` is always a Translator), not through ``environment.getattr``.  Any other call (``range``) is
      Jinja's.
    * what ``{{ … }}`` writes goes through ``environment.output`` (_Environment.output) instead of ``escape``."""

    def visit_Call(self, node: nodes.Call, frame, forward_caller: bool = False) -> None:  # noqa: ANN001
        callee = node.node
        direct = (isinstance(callee, nodes.Name) and callee.name in DIRECT_CALLS) or (
            isinstance(callee, nodes.Getattr) and isinstance(callee.node, nodes.Name) and callee.node.name == "t"
            and callee.attr in _DIRECT_T_METHODS)
        if not direct or self.environment.is_async:
            super().visit_Call(node, frame, forward_caller=forward_caller)
            return
        if isinstance(callee, nodes.Getattr):  # t.markup: the Translator's method itself, not environment.getattr()
            self.visit(callee.node, frame)
            self.write(f".{callee.attr}(")
        else:
            self.visit(callee, frame)
            self.write("(")
        # Jinja's signature() writes ", " before each argument (after context.call's first one): write it aside
        stream, self.stream = self.stream, io.StringIO()
        self.signature(node, frame, {"caller": "caller"} if forward_caller else None)
        args, self.stream = self.stream.getvalue(), stream
        self.write(args.removeprefix(", "))
        self.write(")")

    def _output_child_pre(self, node: nodes.Expr, frame, finalize) -> None:  # noqa: ANN001
        """What ``{{ … }}`` writes goes through ``environment.output`` rather than markupsafe's ``escape``."""
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile and finalize.src is None:
            self.write("environment.output(")
        else:
            super()._output_child_pre(node, frame, finalize)


class _Environment(Environment):
    """Jinja's environment, compiling with _CodeGenerator, and with ``x.name`` on a plain dict (the contexts'
    ``walk.focus``, ``mv.delta``, ``seg.gb``) read as the item straight away.  Jinja tries the attribute first and
    falls back to the item; on a dict that costs a raised and caught AttributeError, about 70 per partial.  Only
    names that are not attributes of dict (``items``, ``get`` …) go this way, so every template reads exactly what
    Jinja's own lookup would give."""

    code_generator_class = _CodeGenerator

    @staticmethod
    def output(value: object) -> str:
        """``escape(value)`` as ``{{ … }}`` writes it, as text to be joined: a str escaped into a plain str (escape()
        wraps it in a new Markup), what is safe already as it is (a rendered fragment, catalogue markup: escape()
        returns a new Markup of the same text), and an integer's digits as they are (nothing in them to escape).
        Everything else is markupsafe's escape()."""
        kind = type(value)
        if kind is str:
            return escape_str(value)
        if kind is Markup:
            return value
        if kind is int:
            return str(value)
        return escape(value)

    def getattr(self, obj, attribute):  # noqa: ANN001, ANN201 - Jinja's signature
        if type(obj) is dict and attribute not in _DICT_ATTRS:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        try:  # the rest is Jinja's own Environment.getattr, written out: no second call on each lookup
            return getattr(obj, attribute)
        except AttributeError:
            pass
        try:
            return obj[attribute]
        except (TypeError, LookupError, AttributeError):
            return self.undefined(obj=obj, name=attribute)


_DICT_ATTRS = frozenset(dir(dict))

ROOT = Path(__file__).parent
# autoescape on: every template is HTML.  True, not select_autoescape(): that is a function of the template's name,
# which Jinja calls again for every context it makes (each render, each include)
env = _Environment(loader=FileSystemLoader(ROOT / "templates"), autoescape=True)
templates = Jinja2Templates(env=env)
env.context_class = _Context
env.trim_blocks = True
env.lstrip_blocks = True
env.auto_reload = False  # templates ship with the app: no stat() of each template file on every render
env.cache = {}  # every template kept, in a plain dict: no LRU lock and reordering on each include (cache_size=-1)
env.add_extension(CollapseWhitespace)  # indentation out of the markup, once, at compile time (app/htmlspace.py)
env.add_extension(InlineTemplates)  # {% inline "…" %}: a live region's template pasted in at compile time (app/inline.py)


def _asset(name: str) -> str:
    digest = hashlib.sha256((ROOT / "static" / name).read_bytes()).hexdigest()[:10]
    return f"/static/{name}?v={digest}"


ASSETS = {"css": _asset("app.css"), "js": _asset("app.js"), "htmx": "/static/htmx-2.0.11.min.js",
          "icon": _asset("favicon.svg"), "nojs": _asset("nojs.css"), "swagger_init": _asset("swagger-init.js")}
env.globals.update(assets=ASSETS, langs=LANGS, meter_ids=METER_IDS, decision_ids=DECISION_IDS,
                   stage_ids=STAGE_IDS, node_ids=NODE_IDS)


# --- rendered fragments, reused --------------------------------------------------------------------------------
# A live region's HTML is a pure function of what it shows: a meter card of its meter, a diagram node of its
# state, an estimates block of the workload.  Templates wrap such a region in ``{% call cached(key…) %}``
# with everything it depends on as the key (always the language and whether it is a partial); the body is
# rendered only the first time.  Bounded (oldest out first); tests/web/test_fragments.py renders every page
# and partial with and without it and compares.
FRAGMENTS_MAX = 20_000
_fragments: OrderedDict[tuple, Markup] = OrderedDict()  # popitem(last=False): O(1), unlike del d[next(iter(d))]
fragment_stats = {"hits": 0, "misses": 0, "enabled": os.environ.get("RLHF_LAB_FRAGMENTS", "1") != "0"}  # 0: off (A/B)
_PLAIN = frozenset({str, int, float, bool, type(None)})
_FIELDS_OF: dict[type, object] = {}  # a dataclass → a function of an instance giving its fields' values


def _key_part(x: object) -> object:
    """A fragment key's part as plain values only: the inputs as their canonical query; a frozen dataclass as one
    flat tuple of its class name and fields, a dict field (a catalogue text's arguments) as its length and then its
    keys and values; a tuple of plain values as it is, a tuple of dataclasses (the reasons) part by part; anything
    else as its repr.  Plain keys keep no result alive, and the collector stops tracking them; flat, they are one
    container each, not one per item (each new container brings the collector's next run closer).  Equal keys
    mean equal values, so an equal key always stands for the same HTML; two equal dicts whose items came in
    another order only miss the cache."""
    kind = type(x)
    if kind in _PLAIN:
        return x
    if kind is WorkloadInputs:
        return canonical_query(x)
    if kind is tuple:
        return x if _PLAIN.issuperset(map(type, x)) else tuple(map(_key_part, x))
    fields_of = _FIELDS_OF.get(kind)
    if fields_of is None:
        names = tuple(f.name for f in fields(x)) if is_dataclass(x) else ()
        # every field at once, as a tuple (attrgetter of one name gives the value itself: wrap it)
        fields_of = _FIELDS_OF[kind] = (attrgetter(*names) if len(names) > 1 else
                                        (lambda o, n=names[0]: (getattr(o, n),)) if names else None)
    if fields_of is None:
        return repr(x)
    out: list = [kind.__name__]
    for v in fields_of(x):
        if type(v) in _PLAIN:
            out.append(v)
        elif type(v) is dict and _PLAIN.issuperset(map(type, v.values())):
            out.append(len(v))
            for item in v.items():
                out += item
        else:
            out.append(_key_part(v))
    return tuple(out)


def cached(*key, caller) -> Markup:  # noqa: ANN001 - Jinja passes the call block as ``caller``
    if not fragment_stats["enabled"]:
        return caller()
    k = tuple([x if type(x) in _PLAIN else _key_part(x) for x in key])
    html = _fragments.get(k)
    if html is not None:
        fragment_stats["hits"] += 1
        return html
    fragment_stats["misses"] += 1
    html = caller()
    if len(_fragments) >= FRAGMENTS_MAX:
        _fragments.popitem(last=False)
    _fragments[k] = html
    return html


env.globals["cached"] = cached
# Shared macros as globals, built once: a `{% from "_macros.html" import … %}` in a template runs on every render
# and each costs a set difference over the context's globals (Jinja's Template._get_default_module)
env.globals["sec_head"] = env.get_template("_macros.html").module.sec_head


def render(request: Request, name: str, context: dict):
    return templates.TemplateResponse(request, name, context)


def render_html(name: str, context: dict) -> str:
    """A template's HTML alone (the lab route builds its response, headers included, in one go)."""
    return env.get_template(name).render(context)


def lab_url(lang: str, inputs: WorkloadInputs, path: str = "", **changes) -> str:
    return f"/{lang}/{path}?{urlencode(inputs.query(**changes))}"


# --- diagram geometry (viewBox 0 0 1080 500) -----------------------------------------------------------

NODE_W, NODE_H = 190, 66
COLS = (20, 230, 440, 650, 865)
ROWS = (62, 222, 382)
NODE_POS: dict[str, tuple[int, int]] = {
    "demonstrations": (COLS[0], ROWS[0]),
    "preference_data": (COLS[0], ROWS[2]),
    "sft_trainer": (COLS[1], ROWS[0]),
    "rm_trainer": (COLS[1], ROWS[2]),
    "reward_model": (COLS[2], ROWS[2]),
    "rollout_gen": (COLS[2], ROWS[0]),
    "reference_model": (COLS[3], ROWS[0]),
    "policy_update": (COLS[3], ROWS[1]),
    "model_registry": (COLS[4], ROWS[0]),
    "eval_harness": (COLS[4], ROWS[1]),
    "metrics_log": (COLS[4], ROWS[2]),
}
GROUPS = (  # id, x, y, w, h, member nodes
    ("data", 8, 20, 214, 470),
    ("sft", 218, 20, 214, 130),
    ("reward", 218, 340, 424, 150),
    ("rl", 428, 20, 434, 300),
    ("eval", 853, 20, 214, 470),
)


def _anchor(node: str, side: str) -> tuple[float, float]:
    x, y = NODE_POS[node]
    return {
        "l": (x, y + NODE_H / 2), "r": (x + NODE_W, y + NODE_H / 2),
        "t": (x + NODE_W / 2, y), "b": (x + NODE_W / 2, y + NODE_H),
        "tr": (x + NODE_W - 30, y), "br": (x + NODE_W - 30, y + NODE_H),
        "bl": (x + 30, y + NODE_H), "tl": (x + 30, y),
    }[side]


def _path(edge: str, a: str, b: str) -> str:
    """SVG path for one edge; straight where the grid allows, curved around nodes elsewhere."""
    routes = {
        "sft_reference": lambda: _curve(_anchor(a, "tr"), (530, -12), _anchor(b, "tl")),
        "update_rollout": lambda: _curve(_anchor(a, "l"), (560, 250), _anchor(b, "br")),
        "reward_update": lambda: _curve(_anchor(a, "tr"), (640, 330), _anchor(b, "bl")),
        "pairs_update": lambda: _cubic(_anchor(a, "b"), (115, 492), (745, 492), _anchor(b, "b")),
        "update_registry": lambda: _curve(_anchor(a, "tr"), (850, 160), _anchor(b, "bl")),
        "update_metrics": lambda: _curve(_anchor(a, "br"), (850, 340), _anchor(b, "tl")),
        "rollout_reward": lambda: _line(_anchor(a, "b"), _anchor(b, "t")),
        "reference_update": lambda: _line(_anchor(a, "b"), _anchor(b, "t")),
        "eval_registry": lambda: _line(_anchor(a, "t"), _anchor(b, "b")),
    }
    if edge in routes:
        return routes[edge]()
    return _line(_anchor(a, "r"), _anchor(b, "l"))


def _line(p: tuple[float, float], q: tuple[float, float], reverse: bool = False) -> str:
    if reverse:
        p, q = q, p
    return f"M{p[0]:.0f},{p[1]:.0f} L{q[0]:.0f},{q[1]:.0f}"


def _cubic(p: tuple[float, float], c1: tuple[float, float], c2: tuple[float, float], q: tuple[float, float]) -> str:
    return f"M{p[0]:.0f},{p[1]:.0f} C{c1[0]:.0f},{c1[1]:.0f} {c2[0]:.0f},{c2[1]:.0f} {q[0]:.0f},{q[1]:.0f}"


def _curve(p: tuple[float, float], c: tuple[float, float], q: tuple[float, float]) -> str:
    return f"M{p[0]:.0f},{p[1]:.0f} Q{c[0]:.0f},{c[1]:.0f} {q[0]:.0f},{q[1]:.0f}"


def _edge_geometry() -> dict[str, str]:
    from app.model.stages import EDGES

    return {eid: _path(eid, a, b) for eid, a, b, _ in EDGES}


EDGE_PATHS = _edge_geometry()
env.globals.update(node_pos=NODE_POS, node_w=NODE_W, node_h=NODE_H, diagram_groups=GROUPS, edge_paths=EDGE_PATHS)


# --- inputs as form controls ---------------------------------------------------------------------------


def _nearest_index(ladder: tuple[float, ...], value: float) -> int:
    return min(range(len(ladder)), key=lambda k: abs(ladder[k] - value) / max(abs(ladder[k]), 1e-9))


def controls(inputs: WorkloadInputs) -> list[dict]:
    """Form controls in the contract's parameter order, so the form's query string is the canonical one."""
    data = inputs.model_dump()
    out = []
    for name in PARAM_NAMES:
        value = data[name]
        if name in NUMBER_SPECS:
            spec = NUMBER_SPECS[name]
            out.append({
                "kind": "number", "name": name, "group": spec.group, "value": fmt_param(value),
                "min": fmt_param(spec.minimum), "max": fmt_param(spec.maximum), "integer": spec.integer,
                "ladder": LADDER_JSON[name], "index": _nearest_index(spec.ladder, value),
                "last": len(spec.ladder) - 1, "step": "1" if spec.integer else "any",
            })
        else:
            spec = CHOICE_SPECS[name]
            out.append({"kind": "choice", "name": name, "group": spec.group, "value": value, "choices": spec.choices})
    return out


LADDER_JSON = {s.name: json.dumps([fmt_param(float(v)) for v in s.ladder]) for s in NUMBERS}


# --- what moved since the last change ----------------------------------------------------------------------


def diff(previous: tuple[WorkloadInputs, Result] | None, result: Result) -> dict | None:
    """Which parameters changed, which meters moved by how much, and which parameter moved each meter
    (re-evaluating the previous state with one changed parameter at a time)."""
    if previous is None:
        return None
    prev_inputs, prev = previous
    before = {p: getattr(prev_inputs, p) for p in PARAM_NAMES}
    after = {p: getattr(result.inputs, p) for p in PARAM_NAMES}
    changed = [p for p in PARAM_NAMES if before[p] != after[p]]
    alone: dict[str, Result] = {}
    if len(changed) > 1:
        for p in changed:
            alone[p] = evaluate(prev_inputs.model_copy(update={p: after[p]}))
    moves = []
    for mid in METER_IDS:
        b, a = prev.meters[mid].value, result.meters[mid].value
        if a == b:
            continue
        causes = changed if len(changed) == 1 else [
            p for p in changed if alone[p].meters[mid].value != b] or changed
        moves.append({"meter": mid, "before": b, "after": a, "delta": a - b, "causes": causes})
    return {
        "changed": [{"name": p, "before": fmt_param(before[p]), "after": fmt_param(after[p])} for p in changed],
        "moves": moves,
        "stage_before": prev.stage if prev.stage != result.stage else None,
        "bottleneck_before": prev.bottleneck if prev.bottleneck != result.bottleneck else None,
    }


# --- contexts -------------------------------------------------------------------------------------------


_ENUM_ARGS = ("what", "bound")


def targs(t, args: dict) -> dict:
    """Arguments for a catalogue template; enum-valued arguments are translated first."""
    if "what" not in args and "bound" not in args:  # _ENUM_ARGS, spelt out: this runs for every catalogue text
        return args
    return {k: (t(f"enum.{k}.{v}") if k in _ENUM_ARGS else v) for k, v in args.items()}


def base_context(lang: str, page: str) -> dict:
    t = translator(lang)
    return {"lang": lang, "t": t, "page": page, "other_lang": "en" if lang == "zh" else "zh",
            "targs": lambda args: targs(t, args)}


def current_preset(inputs: WorkloadInputs) -> str | None:
    return _PRESET_OF.get(inputs if inputs.step is None else inputs.model_copy(update={"step": None}))


_PRESET_OF = {p.inputs: p.id for p in reversed(PRESETS)}  # inputs → preset id (the first preset wins a tie)


ESTIMATE_BLOCKS = frozenset({"head", "step", "mem", "cap", "vs"})


def _step_shows(r: Result) -> tuple:
    """Everything the estimates' step block (_estimates.html, est-step) prints: the stage picks PPO step, DPO or
    offline figures, and the lines quote these inputs."""
    i = r.inputs
    return (r.stage, r.step, r.dpo, r.offline, i.gpus, i.epochs, i.prompt_tokens, i.response_tokens, i.policy_b,
            i.rm_b, i.pairs, i.demos)


def _vs_shows(r: Result) -> tuple:
    """The figures of the PPO-vs-DPO table (_estimates.html, est-vs)."""
    return (r.memory.total_gb, r.memory.min_gpus, r.dpo.total_gb, r.dpo.min_gpus, r.dpo.step_s, r.step.total_s,
            r.step.generation_s, r.inputs.rollouts)
# What each region list holds, in page order (the templates loop over it once): node, meter and decision ids, and
# the changed edges' states.  ALL_REGIONS has every one, for the whole page (whose diagram draws every edge itself:
# no edge list) and, with every edge, for a partial with no usable previous state
ALL_REGIONS = {"stage": True, "nodes": NODE_IDS, "edges": None, "meters": METER_IDS,
               "estimates": ESTIMATE_BLOCKS, "decisions": DECISION_IDS}
_OOB = Markup(' hx-swap-oob="true"')  # a live region's out-of-band swap attribute, in a partial


def changed_regions(previous: tuple[WorkloadInputs, Result] | None, r: Result) -> dict[str, object]:
    """Which live regions differ from the previous state's (what an htmx partial must send): the stage line,
    each diagram node and edge, each meter and decision card, and each block of the estimates.  The why-panel, notices and
    the preset marker are always sent."""
    if previous is None:
        return {**ALL_REGIONS, "edges": r.edges}
    p = previous[1]
    same_gpu = p.inputs.gpu == r.inputs.gpu and p.inputs.gpus == r.inputs.gpus
    return {
        "stage": (p.stage, p.bottleneck) != (r.stage, r.bottleneck),
        "nodes": [k for k in NODE_IDS if p.nodes[k] != r.nodes[k]],
        "edges": [e for e, f in zip(r.edges, p.edges, strict=True) if e != f],
        "meters": [k for k in METER_IDS if p.meters[k] != r.meters[k]],
        # the estimates section in blocks: its note (GPU count, type, placement), the step or phase times, the
        # per-GPU memory bars (exactly what memory_bars() draws), the note under them (the card's capacity), the
        # PPO-vs-DPO table; the compare link under it carries every input and goes with every move (_live.html)
        "estimates": {b for b, moved in (
            ("head", not same_gpu or p.inputs.placement != r.inputs.placement),
            ("step", _step_shows(p) != _step_shows(r)),
            ("mem", memory_bars(p) != memory_bars(r)),
            ("cap", (p.memory.usable_gb, p.memory.gpu_memory_gb) != (r.memory.usable_gb, r.memory.gpu_memory_gb)),
            ("vs", _vs_shows(p) != _vs_shows(r)),
        ) if moved},
        "decisions": [k for k in DECISION_IDS if p.decisions[k] != r.decisions[k]],
    }


def lab_context(lang: str, result: Result, notices, previous, present: bool = False, partial: bool = False) -> dict:
    ctx = base_context(lang, "lab")
    i = result.inputs
    query = canonical_query(i)  # one encoding for the page's own, the other language's and the compare URL
    ctx.update(
        r=result, inputs=i, notices=notices, change=diff(previous, result), present=present, partial=partial,
        # each live region's out-of-band swap attribute; set here, not by a {% set %} in _live.html, whose own
        # variables would make every {% include %} under it copy the whole context (Jinja's Context.get_all)
        oob=_OOB if partial else "",
        regions=changed_regions(previous, result) if partial else ALL_REGIONS,
        # the form's controls are not part of a partial (_live.html): build them for the whole page only
        controls=None if partial else controls(i), presets=_preset_urls(lang),
        current_preset=current_preset(i), state_query=query, self_url=f"/{lang}/?{query}",
        switch_url=f"/{ctx['other_lang']}/?{query}" + ("&present=1" if present else ""),
        compare_url=f"/{lang}/compare?{query}",
        walk=_walk(lang, i), gpu=GPUS[i.gpu], assumptions=ASSUMPTION_ROWS, gpu_rows=GPUS.values(),
        sources=SOURCES, reality=REALITY,
    )
    return ctx


@lru_cache(maxsize=1024)  # a partial's state is usually the one just fetched ahead or moved from
def canonical_query(inputs: WorkloadInputs) -> str:
    """The state's query string in the contract's order (every parameter; ``step`` when set): what urlencode()
    gives, joined directly when no value needs quoting (numbers and choice ids never do).

    >>> canonical_query(WorkloadInputs(kl=1e-3, method="dpo")) == urlencode(WorkloadInputs(kl=1e-3, method="dpo").query())
    True
    """
    query = inputs.query()
    if _URL_SAFE.match("".join(query.values())):  # every character of every value safe: one match for all
        return "&".join([f"{k}={v}" for k, v in query.items()])
    return urlencode(query)


_URL_SAFE = re.compile(r"[A-Za-z0-9_.~-]*\Z")  # what urlencode's quote_plus leaves as it is (the names all are)


@cache
def _preset_urls(lang: str) -> tuple[tuple[str, str], ...]:
    """Preset links depend on the language only: built once per language."""
    return tuple((p.id, lab_url(lang, p.inputs)) for p in PRESETS)


@cache
def _walk_steps(lang: str) -> tuple[tuple[int, str, str], ...]:
    """Walkthrough links depend on the language only: built once per language."""
    return tuple((w.number, lab_url(lang, w.inputs), w.focus) for w in WALKTHROUGH)


def _walk(lang: str, inputs: WorkloadInputs) -> dict:
    n = inputs.step
    steps = _walk_steps(lang)
    return {"current": n, "steps": steps, "total": len(steps),
            "prev": steps[n - 2][1] if n and n > 1 else None,
            "next": (steps[n][1] if n < len(steps) else None) if n else steps[0][1],
            "first": steps[0][1],
            "focus": WALKTHROUGH[n - 1].focus if n else None}


ASSUMPTION_ROWS = [
    {"key": c.key, "value": fmt_param(c.value), "unit": c.unit, "source": c.source} for c in CONSTANTS.values()
]


def _reality_rows() -> list[dict]:
    """Published measurements beside the model's estimate for the same configuration."""
    from app.model.scenarios import _w

    rows = []
    openrlhf = _w(policy_b=7, rm_b=7, rollouts=1024, prompt_tokens=1024, response_tokens=1024, gpus=8,
                  gpu="a100_80g", placement="separate")
    hybrid = openrlhf.model_copy(update={"placement": "colocated"})
    dschat = _w(policy_b=13, rm_b=0.35, rollouts=1024, prompt_tokens=256, response_tokens=256, gpus=8,
                gpu="a100_80g", placement="colocated")
    for key, inputs, published, source in (
        ("openrlhf", openrlhf, (482, 403, 885), "openrlhf"),
        ("hybrid", hybrid, (697, 492, 1189), "openrlhf"),
        ("dschat", dschat, (None, None, 250), "dschat"),
    ):
        s = evaluate(inputs).step
        rows.append({"key": key, "model": (s.generation_s, s.training_s, s.total_s), "published": published,
                     "source": source, "url": f"?{urlencode(inputs.query())}"})
    return rows


REALITY = _reality_rows()


# --- JSON ---------------------------------------------------------------------------------------------------


def result_json(r: Result) -> dict:
    s, m, d, o = r.step, r.memory, r.dpo, r.offline
    return {
        "inputs": r.inputs.model_dump(),
        "stage": r.stage,
        "bottleneck": r.bottleneck,
        "meters": {k: {"value": v.value, "level": v.level, "figure": v.figure, "figure_args": v.figure_args,
                       "formula": v.formula, "formula_args": v.formula_args} for k, v in r.meters.items()},
        "nodes": {k: {"active": n.active, "state": n.state, "bottleneck": n.bottleneck} for k, n in r.nodes.items()},
        "edges": {e.id: {"from": e.source, "to": e.target, "active": e.active, "async": e.asynchronous}
                  for e in r.edges},
        "decisions": {k: {"state": v.state, "reason": v.reason, "args": v.args} for k, v in r.decisions.items()},
        "reasons": [{"key": x.key, "args": x.args} for x in r.reasons],
        "estimates": {
            "step": {
                "generation_s": s.generation_s, "scoring_s": s.scoring_s, "training_s": s.training_s,
                "overlap_s": s.overlap_s, "total_s": s.total_s, "generation_share": s.generation_share,
                "generation_gpu_s": s.generation_gpu_s, "scoring_gpu_s": s.scoring_gpu_s,
                "training_gpu_s": s.training_gpu_s, "idle_gpu_s": s.idle_gpu_s, "tokens": s.tokens,
                "gpu_groups": asdict(s.groups),
                "generation_engine": asdict(s.gen),
            },
            "memory": {
                "total_gb": m.total_gb, "per_gpu_gb": m.per_gpu_gb, "gpu_memory_gb": m.gpu_memory_gb,
                "usable_gb": m.usable_gb, "fits": m.fits, "min_gpus": m.min_gpus,
                "training_per_gpu_gb": m.training_per_gpu_gb, "scoring_per_gpu_gb": m.scoring_per_gpu_gb,
                "generation_per_gpu_gb": m.generation_per_gpu_gb, "kv_gb_per_replica": m.kv_gb_per_replica,
                "models": asdict(m.models),
            },
            "dpo": asdict(d),
            "sft": {"epoch_s": o.sft_epoch_s, "per_gpu_gb": o.sft_per_gpu_gb},
            "reward_model": {"epoch_s": o.rm_epoch_s, "per_gpu_gb": o.rm_per_gpu_gb},
        },
    }


# --- tutorial and compare ------------------------------------------------------------------------------------


@cache
def tutorial_html(lang: str) -> tuple[Markup, tuple[tuple[str, str, str], ...]]:
    from app.tutorial import render_tutorial

    return render_tutorial(lang)


def tutorial_context(lang: str) -> dict:
    ctx = base_context(lang, "tutorial")
    body, toc = tutorial_html(lang)
    ctx.update(body=body, toc=toc, switch_url=f"/{ctx['other_lang']}/tutorial", glossary=GLOSSARY)
    return ctx


def _load_glossary() -> list[dict]:
    path = ROOT / "content" / "glossary.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else []


GLOSSARY = _load_glossary()
env.globals["glossary"] = GLOSSARY


def compare_context(lang: str, query: dict) -> dict:
    """Two configurations side by side: `a` is the query as given; `b` the same with the other method,
    unless `b_<param>` parameters say otherwise."""
    ctx = base_context(lang, "compare")
    left, notices = normalise(query)
    b_query = {k[2:]: v for k, v in query.items() if k.startswith("b_")}
    if b_query:
        right, more = normalise({**{k: [v] for k, v in left.query().items()}, **b_query})
        notices += tuple(replace(n, field=f"b_{n.field}") for n in more)
    else:
        other = "dpo" if left.method == "ppo" else "ppo"
        right = left.model_copy(update={"method": other, "kl": 0.1 if other == "dpo" else 0.02, "step": None})
    ra, rb = evaluate(left), evaluate(right)
    removed = [n for n in NODE_IDS if ra.nodes[n].active and not rb.nodes[n].active]
    added = [n for n in NODE_IDS if rb.nodes[n].active and not ra.nodes[n].active]
    ctx.update(a=ra, b=rb, notices=notices, removed=removed, added=added,
               a_url=lab_url(lang, left), b_url=lab_url(lang, right),
               switch_url=lab_url(ctx["other_lang"], left, "compare"),
               pairs=[(p.id, lab_url(lang, p.inputs, "compare")) for p in PRESETS])
    return ctx


# --- the engineer's panel: a per-step timeline and per-GPU memory bars -----------------------------------------

RL_STAGES = ("ppo_loop", "scaled_rollouts", "eval_gated")


def _pct(x: float, whole: float) -> float:
    return round(100.0 * x / whole, 2) if whole > 0 else 0.0


def timeline(r: Result) -> list[dict]:
    """Lanes of one PPO step: (phase, start %, width %) per GPU group."""
    s = r.step
    total = s.total_s
    if total <= 0:
        return []
    if s.groups.colocated:
        g, sc = s.generation_s, s.scoring_s
        return [{"lane": "all", "gpus": s.groups.training, "bars": [
            ("gen", 0.0, _pct(g, total), g), ("score", _pct(g, total), _pct(sc, total), sc),
            ("train", _pct(g + sc, total), _pct(s.training_s, total), s.training_s)]}]
    start_train = s.total_s - s.training_s
    return [
        {"lane": "gen", "gpus": s.groups.generation, "bars": [("gen", 0.0, _pct(s.generation_s, total), s.generation_s)]},
        {"lane": "score", "gpus": s.groups.scoring, "bars": [("score", 0.0, _pct(s.scoring_s, total), s.scoring_s)]},
        {"lane": "train", "gpus": s.groups.training, "bars": [
            ("train", _pct(start_train, total), _pct(s.training_s, total), s.training_s)]},
    ]


def memory_bars(r: Result) -> dict:
    """Per-GPU memory of each GPU group, split by model, against the card's capacity.  A partial asks twice for
    its state (which regions changed, then the block itself), and the next move asks again for it as the previous
    state: the last results' bars are kept, by the result's identity (the result itself is kept with them, so its
    id cannot be reused while the entry lives)."""
    kept = _recent_bars.get(id(r))
    if kept is not None and kept[0] is r:
        return kept[1]
    bars = _memory_bars(r)
    _recent_bars[id(r)] = (r, bars)
    if len(_recent_bars) > 256:  # more than one move per client of a 32-client benchmark, well under _state's memo
        _recent_bars.popitem(last=False)
    return bars


_recent_bars: OrderedDict[int, tuple[Result, dict]] = OrderedDict()


def _memory_bars(r: Result) -> dict:
    i, m = r.inputs, r.memory
    mm = m.models
    gpu_gb = m.gpu_memory_gb
    if r.stage in RL_STAGES:
        g = r.step.groups
        tp = max(r.step.gen.tensor_parallel, 1)
        kv = m.kv_gb_per_replica / tp
        if g.colocated:
            n = i.gpus
            rows = [("all", n, [("actor", mm.actor_gb / n), ("critic", mm.critic_gb / n),
                                ("reference", mm.reference_gb / n), ("reward", mm.reward_gb / n),
                                ("gen_weights", mm.generation_weights_gb / tp), ("kv", kv)])]
        else:
            rows = [
                ("train", g.training, [("actor", mm.actor_gb / g.training), ("critic", mm.critic_gb / g.training)]),
                ("score", g.scoring, [("reference", mm.reference_gb / g.scoring), ("reward", mm.reward_gb / g.scoring)]),
                ("gen", g.generation, [("gen_weights", mm.generation_weights_gb / tp), ("kv", kv)]),
            ]
    elif r.stage == "dpo":
        rows = [("all", i.gpus, [("actor", mm.actor_gb / i.gpus), ("reference", mm.reference_gb / i.gpus)])]
    else:
        rows = [("all", i.gpus, [("sft", r.offline.sft_per_gpu_gb)])]
        if r.stage == "reward_model":
            rows.append(("rm", i.gpus, [("rm", r.offline.rm_per_gpu_gb)]))
    totals = [sum([v for _, v in parts]) for _, _, parts in rows]
    scale = max(gpu_gb, *totals)  # > 0: a card's memory (_pct's own test, written out below)
    out = []
    for (lane, gpus, parts), total in zip(rows, totals, strict=True):
        x = 0.0
        segs = []
        for name, gb in parts:
            w = round(100.0 * gb / scale, 2)  # _pct(gb, scale)
            segs.append({"part": name, "gb": gb, "x": x, "w": w})
            x += w
        out.append({"lane": lane, "gpus": gpus, "total_gb": total, "segs": segs,
                    "over": total > m.usable_gb})
    return {"rows": out, "cap_x": _pct(gpu_gb, scale), "usable_x": _pct(m.usable_gb, scale), "gpu_gb": gpu_gb,
            "usable_gb": m.usable_gb}


def _input_labels(names: list[str], t) -> str:  # noqa: ANN001
    """The parameters' labels, comma-separated (the causes of a meter's move, _why.html)."""
    return ", ".join([t(f"input.{name}.label") for name in names])


env.filters["input_labels"] = _input_labels
env.globals["meter_bands"] = {  # a <meter>'s low and high, as its attributes print them ("50", not "50.0")
    mid: tuple(f"{CONSTANTS[k].value:g}" for k in (("memory_warn", "memory_hot") if mid == "train_memory"
                                                    else ("meter_warn", "meter_hot")))
    for mid in METER_IDS
}
env.globals.update(timeline=timeline, memory_bars=memory_bars, rl_stages=RL_STAGES, vs_shows=_vs_shows)
env.filters["pct"] = lambda x: f"{x:g}%"  # an SVG length in per cent of the bar: 53.57 → "53.57%", 35.0 → "35%"

# Every template compiled now, at start-up, not by the first request that needs it.  Its globals become a plain dict:
# Jinja keeps them as a ChainMap over the environment's, which every render copies into its context key by key in
# Python (≈ 13 µs for these 26 names; a dict copies in ≈ 1 µs).  Nothing is added to env.globals after this point.
for _name in env.list_templates(extensions=["html"]):
    _template = env.get_template(_name)
    _template.globals = dict(_template.globals)
