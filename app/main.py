"""The ASGI app (``app.main:app``): middleware, static files and the routers.  No formula lives here."""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import templating
from app.routes import api, calibrate, config, lab, launch, pages, plan
from app.security import SecurityHeadersMiddleware
from app.static_files import static_app


@asynccontextmanager
async def lifespan(app: FastAPI):  # noqa: ANN201, ARG001
    # Everything the app reads (catalogues, templates, the tutorial) is loaded at import: a missing file stops the
    # app before it serves.  Templates are compiled here, not by the first request that needs one.
    for env in templating.ENVS.values():
        for name in env.list_templates(extensions=["html"]):
            env.get_template(name)
    yield


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    """A 404 outside the API is the site's own page, in the reader's language; anything else is JSON."""
    if request.url.path.startswith("/api/") or exc.status_code != 404:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)
    return pages.not_found_page(request)


def create_app() -> FastAPI:
    app = FastAPI(
        docs_url=None,  # /docs is served from the vendored swagger-ui-dist: no CDN, no inline script
        redoc_url=None,
        title="RLHF Pipeline Lab",
        summary="Workload model of an RL post-training pipeline: stage, meters, decisions and physical estimates.",
        version="0.2.0",
        lifespan=lifespan,
    )
    app.add_middleware(GZipMiddleware, minimum_size=800, compresslevel=6)
    app.add_middleware(SecurityHeadersMiddleware)
    app.mount("/static", static_app(templating.STATIC), name="static")  # compressed once, at start
    app.include_router(api.compare_router)  # one route, before the lab's /{lang}/compare, which would match it
    app.include_router(lab.router)  # first: a slider move is most of the traffic, and routes are matched in order
    app.include_router(api.router)
    app.include_router(calibrate.router)  # POST /api/calibrate and /{lang}/calibrate: your own run
    app.include_router(pages.router)
    app.include_router(launch.router)
    app.include_router(plan.router)  # /api/plan and /{lang}/plan: the run planner
    app.include_router(config.router)  # POST /{lang}/config: the paste config.json helper
    app.add_exception_handler(StarletteHTTPException, http_error)
    return app


app = create_app()
