"""``/static``: ServeStatic (the maintained ASGI fork of WhiteNoise) over a copy of app/static whose text files are
gzip-compressed once, at start.

Why compress at start: every learner's first visit fetches the stylesheet and both scripts, and the gzip
middleware compressing each one again on every request queued that work in front of the slider moves when a class
arrives at once (``docs/performance.md``).  ServeStatic serves a file's ``.gz`` sibling to a request that accepts
gzip (the gzip middleware passes an encoded answer through); it finds the siblings only on disk, and the package's
own directory may be read-only, hence the copy.
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from pathlib import Path

from servestatic import ServeStaticASGI
from servestatic.compress import Compressor
from starlette.exceptions import HTTPException
from starlette.types import Receive, Scope, Send


async def _not_found(scope: Scope, receive: Receive, send: Send) -> None:
    """A path ServeStatic does not have: the site's own 404 page (app.main.http_error), as for any other URL."""
    raise HTTPException(status_code=404)


def static_app(directory: Path) -> ServeStaticASGI:
    """An ASGI app for ``/static``: the files under ``directory`` (found once, at start) and their gzip."""
    copy = Path(tempfile.mkdtemp(prefix="rlhf-lab-static-"))
    served = copy / "static"
    shutil.copytree(directory, served)
    compressor = Compressor(use_gzip=True, use_brotli=False, quiet=True)
    for path in sorted(p for p in served.rglob("*") if p.is_file()):
        if compressor.should_compress(path.name):
            for _ in compressor.compress(str(path)):  # writes path.gz when it is smaller than the file
                pass
    # max_age None: the security middleware gives versioned static files their immutable Cache-Control
    app = ServeStaticASGI(_not_found, root=served, prefix="/static", max_age=None)
    weakref.finalize(app, shutil.rmtree, copy, ignore_errors=True)  # the copy goes with the app, or at exit
    return app
