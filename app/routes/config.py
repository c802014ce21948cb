"""POST /{lang}/config: the "paste config.json" helper without JavaScript.  The pasted text is read by
app/model/architectures.py (size-limited, never executed, never echoed); a readable one is redirected (303) to the
lab with the shape's fields and ``arch=custom``, keeping the other parameters (the form's action carries them); an
unreadable one gets a page that says why, in the reader's language, with a link back."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import templating
from app.model.architectures import MAX_CONFIG_BYTES, SHAPE_NAMES, ConfigError, parse_config
from app.routes import check_lang, query_dict
from app.view.lab import other

router = APIRouter(include_in_schema=False)

MAX_BODY_BYTES = 3 * MAX_CONFIG_BYTES + 4_096  # the paste form-encoded (≤ 3 bytes a character) and a little more


async def _body(request: Request) -> bytes | None:
    """The request body, or None past MAX_BODY_BYTES (read no further than that)."""
    length = request.headers.get("content-length", "")
    if length.isdecimal() and int(length) > MAX_BODY_BYTES:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            return None
    return bytes(body)


@router.post("/{lang}/config")
async def paste_config(lang: str, request: Request) -> Response:
    check_lang(lang)
    state = {k: v[-1] for k, v in query_dict(request).items() if k not in SHAPE_NAMES and k not in ("policy_b", "arch")}
    body = await _body(request)
    try:
        if body is None:
            raise ConfigError("too_large")
        text = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True).get("config", [""])[-1]
        shape = parse_config(text)
    except ConfigError as err:
        status = 413 if err.kind == "too_large" else 400
        back = f"/{lang}/?{urlencode(state)}" if state else f"/{lang}/"
        html = templating.render_page("config_error.html", {"lang": lang, "other_lang": other(lang), "page": "config",
                                                             "kind": err.kind, "message_key": f"config.error.{err.kind}",
                                                             "back": back, "switch_url": f"/{other(lang)}/"})
        return HTMLResponse(html, status_code=status)
    query = {**state, "arch": "custom", **{k: str(v) for k, v in shape.items()}}
    return RedirectResponse(f"/{lang}/?{urlencode(query)}", status_code=303)
