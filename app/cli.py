"""`rlhf-lab`: serve the lab with uvicorn (127.0.0.1:8000 by default), one worker per process.

The app keeps no state, so a host runs one process per core, each on its own port, behind nginx
(deploy/nginx.conf): see docs/deploy.md.
"""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(prog="rlhf-lab", description="Serve the RLHF Pipeline Lab.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--proxy-headers", action="store_true", help="trust X-Forwarded-* from a reverse proxy")
    args = parser.parse_args(argv)
    uvicorn.run("app.main:app", host=args.host, port=args.port, proxy_headers=args.proxy_headers, forwarded_allow_ips="127.0.0.1" if args.proxy_headers else None,
                access_log=False)


if __name__ == "__main__":
    main()
