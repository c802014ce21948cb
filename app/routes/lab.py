"""The lab (``/{lang}/``: the page, or for htmx the live regions that changed) and the compare page."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app import htmx, templating
from app.caching import cacheable
from app.model import Result, evaluate, normalise
from app.model.inputs import Notice
from app.model.moves import moves
from app.model.scenarios import open_step
from app.routes import check_lang, query_dict, raw_query
from app.view.compare import compare_context
from app.view.handout import handout_context
from app.view.lab import lab_context
from app.view.links import canonical_query
from app.view.regions import Region, state_regions, to_send, with_moves

router = APIRouter(include_in_schema=False)


@lru_cache(maxsize=1024)  # a partial's previous state is almost always one just computed
def evaluate_query(query: str) -> tuple[tuple[Notice, ...], Result]:
    """A query string → the notices of its normalisation and the model's result (both immutable).  A bare step link
    opens the step's own workload (``scenarios.open_step``)."""
    parsed = parse_qs(query, keep_blank_values=True)
    inputs, notices = normalise(parsed)
    return notices, evaluate(open_step(inputs, parsed))


@lru_cache(maxsize=1024)  # the same states as evaluate_query's: a move's previous state is one just answered
def query_regions(query: str) -> dict[str, Region]:
    """A query string → its state's live regions (app/view/regions/), the view-models a partial is diffed on.
    Callers do not mutate the dict."""
    notices, result = evaluate_query(query)
    return state_regions(result, notices, present=presenting(query))


def lab_home(request: Request, lang: str) -> str:
    """The lab's whole address in ``lang`` as this request reached it (``http://host:port/en/``): the request's base
    URL, which honours the Host header and a proxy's forwarded scheme where uvicorn is told to trust it."""
    return f"{request.base_url}{lang}/"


def presenting(query: str) -> bool:
    """Presenter view (``present=1``): not a model input, a way of showing the page, kept by every state link."""
    return parse_qs(query).get("present", [""])[-1] == "1"


@router.api_route("/{lang}/", methods=["GET", "HEAD"])
async def lab(lang: str, request: Request) -> Response:
    # ``async`` because it never waits: a few milliseconds of CPU, run on the event loop.  A plain ``def`` would be
    # sent to Starlette's thread pool, a thread hop per move that buys no parallelism under the GIL.
    check_lang(lang)
    query = raw_query(request)
    notices, result = evaluate_query(query)
    prev_query = htmx.previous_state_query(request)
    # The page's own URL again (a reload, a history restore): nothing to diff against, so every region is sent.
    # Another URL of the same state (a value clamped to the same one) diffs as usual: nothing but what always goes.
    previous = evaluate_query(prev_query)[1] if prev_query not in (None, query) else None
    change = moves(previous, result) if previous is not None and previous.inputs != result.inputs else None
    regions = query_regions(query)
    if change is not None:
        regions = with_moves(regions, result, change)
    if htmx.wants_partial(request):
        before = query_regions(prev_query) if previous is not None else None
        html = templating.render_partial(lang, to_send(before, regions))
        response = HTMLResponse(html, headers={"Vary": htmx.VARY_PARTIAL})
    else:
        ctx = lab_context(lang, result, regions, present=presenting(query), home=lab_home(request, lang))
        response = HTMLResponse(templating.render_page("lab.html", ctx), headers={"Vary": htmx.VARY_PAGE})
        if request.cookies.get("lang") != lang:
            response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
            return response
    return cacheable(request, response, 300)


@router.api_route("/{lang}/handout", methods=["GET", "HEAD"], response_class=HTMLResponse)
def handout(lang: str, request: Request) -> Response:
    """A lab state's handout block: its whole address and the QR code of it (inline SVG), which app.js fetches once
    the moves have settled.  A partial does not carry it: drawing a code costs ≈ 6 ms, a move's whole server share,
    and its bytes would push a partial past its 10 kB."""
    check_lang(lang)
    result = evaluate_query(raw_query(request))[1]
    ctx = handout_context(lab_home(request, lang), canonical_query(result.inputs))
    return cacheable(request, HTMLResponse(templating.render_page("_handout.html", {"lang": lang, **ctx}),
                                           headers={"X-Handout-Query": ctx["handout_query"]}), 300)


@router.api_route("/{lang}/compare", methods=["GET", "HEAD"], response_class=HTMLResponse)
def compare(lang: str, request: Request) -> Response:
    check_lang(lang)
    return HTMLResponse(templating.render_page("compare.html", compare_context(lang, query_dict(request))))
