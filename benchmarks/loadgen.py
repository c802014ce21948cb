"""Lean HTTP/1.1 load generator for bench_server.py: raw asyncio streams, one keep-alive connection per client.

Why: a generator built on an HTTP client library (httpx) burns ≈ 0.9 of a core to drive ≈ 360 requests/s, so on a
2-core box (client and server share the cores) the throughput it measures is the client's, not the server's.  This
one sends pre-encoded request bytes and parses only what it needs, on uvloop when importable:

* request: ``GET <path> HTTP/1.1`` + ``Host`` + ``HX-Request: true`` + ``HX-Current-URL`` + ``Accept-Encoding:
  gzip`` (what htmx sends for a slider move, minus the browser's other headers);
* response: status line, headers up to the blank line, then a ``Content-Length`` body or a chunked body (chunk
  extensions and trailers allowed), or a close-delimited body;
* correctness: status must be 200 (anything else is counted as an error ``status_<code>``), the body must be
  exactly as long as framed (a short read is an error), a gzip body must decompress completely with a valid CRC
  and length (``--verify full``, the default; also checks a partial contains ``hx-swap-oob``); ``--verify
  length`` skips the decompression;
* every request (and every connect) has a timeout; after any error the connection is closed and reopened;
  errors are counted by kind; each client stops at the deadline or when the run's request cap is reached;
* several targets (``run_raw(bases=[…])``, e.g. two ``rlhf-lab`` processes on two ports): client k talks to
  ``bases[k % len(bases)]`` with that target's ``Host`` and ``HX-Current-URL``, so the load is split evenly by
  clients and every answer is counted per target.  A pattern's memory (the unique pattern's visited states) is
  shared by all clients whatever their target.

Request patterns (``--pattern`` in bench_server.py):

* ``walk`` — each client walks the rollouts ladder up and down one notch at a time (clients start at different
  notches), other inputs at their defaults: realistic slider moves; the same (previous, new) state pairs repeat
  every 32 moves, so a cache keyed on the URL and the Vary headers (nginx's, or the browser's) would serve most of
  them; the app itself answers them from its ``evaluate_query`` lru_cache of model results and renders each one;
* ``unique`` — every request goes to a state never requested (nor started from) before in the run: random
  one-notch moves of random parameters (every parameter of the contract: the number ladders of app/model/inputs.py
  NUMBERS and the choices) from random start states, one ``random.Random(f"{seed}:{client}")`` per client; a move into a state
  already visited (or one that normalise() would change, e.g. ``separate`` with too few GPUs) is redrawn, and
  after 50 failed draws the client jumps to a fresh random state.  ``HX-Current-URL`` is always the client's
  previous state, and every URL is canonical (checked against ``DEFAULTS.query()`` at start), so no cache keyed
  on the URL could answer any request, and the model runs once per request (the previous state is the one just
  computed, found in the app's ``evaluate_query`` lru_cache, as in a real session): the honest cold figure;
* ``class`` — a class using the lab as app.js drives it: each client (a learner) starts from one of the six
  presets, drags a random slider notch by notch in one direction (reversing at the ends) for 2–12 notches, then
  takes another slider; every 40 notches it opens a preset again.  Per notch it sends what the page sends: the
  two neighbouring notches' partials fetched ahead (the move itself is then answered without a request), each
  diffed against the state on screen.  Learners share the presets and the ladders, so some answers repeat across
  the class and some do not — the realistic mix for a cache in front of the app (nginx's);
* ``floor`` — ``GET /healthz`` with the same headers (HTTP + framework alone; bench_server's ``--floor``).

Self-test of the response parser (Content-Length, chunked with extensions and trailers, gzip, close-delimited,
non-200, truncated body, timeout) against a tiny in-process server:

    .venv/bin/python benchmarks/loadgen.py --selftest
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import sys
import time
import zlib
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from _common import bounce, ladder_walk

REQUEST_TIMEOUT_S = 10.0
CONNECT_TIMEOUT_S = 5.0
ERROR_BACKOFF_S = 0.01
MAX_HEADER_LINES = 200
MAX_CHUNKS = 100_000
MAX_BODY_BYTES = 32 * 1024 * 1024
STREAM_LIMIT = 1024 * 1024  # longest header block / chunk-size line StreamReader will buffer
UNIQUE_MAX_DRAWS = 50
UNIQUE_MAX_FRESH_DRAWS = 10_000
PARTIAL_MARKER = b"hx-swap-oob"


# --- recording -------------------------------------------------------------------------------------------------


class Recorder:
    """What one load level measured; `recording` is off during the warm-up."""

    def __init__(self) -> None:
        self.recording = False
        self.latency_ms: list[float] = []
        self.wire_bytes: list[int] = []
        self.body_bytes: list[int] = []
        self.errors: dict[str, int] = {}
        self.done = 0
        self.by_target: dict[str, int] = {}  # answers recorded per target base URL
        self.total = 0  # requests attempted, incl. warm-up and errors

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


# --- requests and patterns -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Req:
    path: str  # "/en/?demos=…" (or "/healthz")
    current_url: str  # HX-Current-URL: absolute URL of the client's previous state
    raw: bytes  # the whole request, ready to write


def encode_request(host: str, path: str, current_url: str) -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: {host}\r\nHX-Request: true\r\nHX-Current-URL: {current_url}\r\n"
            "Accept-Encoding: gzip\r\n\r\n").encode("ascii")


class WalkPattern:
    """Each client walks the rollouts ladder up and down one notch at a time; clients start 3 notches apart.
    The (previous, new) pairs repeat with a period of 2 × (ladder length − 1), so they are pre-encoded once."""

    name = "walk"
    expect_partial = True

    def __init__(self, lang: str, floor: bool = False) -> None:
        self.urls, self.start = ladder_walk(lang)
        self.floor = floor

    def client(self, k: int, base: str) -> Iterator[Req]:
        host = urlsplit(base).netloc
        n = len(self.urls)
        walk = bounce(n, (self.start + 3 * k) % n)
        prev = next(walk)
        period: list[Req] = []
        for _ in range(max(1, 2 * (n - 1))):
            cur = next(walk)
            path = "/healthz" if self.floor else self.urls[cur]
            current = base + self.urls[prev]
            period.append(Req(path, current, encode_request(host, path, current)))
            prev = cur
        return itertools.cycle(period)

    def stats(self) -> dict:
        return {}


class FloorPattern(WalkPattern):
    """GET /healthz with the walk's headers: the HTTP + framework cost alone (no model, no template)."""

    name = "floor"
    expect_partial = False

    def __init__(self, lang: str) -> None:
        super().__init__(lang, floor=True)


class UniquePattern:
    """Every request goes to a state not seen before in the run (see the module docstring)."""

    name = "unique"
    expect_partial = True

    def __init__(self, lang: str, seed: int = 0) -> None:
        from app.model.assumptions import ARCHS, SEPARATE_MIN_GPUS
        from app.model.inputs import CHOICE_SPECS, DPO_MIN_BETA, NUMBER_SPECS, PARAM_NAMES, fmt_param

        self.lang, self.seed = lang, seed
        self.names = PARAM_NAMES
        self.values: list[list[object]] = []
        for name in PARAM_NAMES:
            if name in NUMBER_SPECS:
                spec = NUMBER_SPECS[name]
                self.values.append([int(v) if spec.integer else v for v in spec.ladder])
            else:
                self.values.append(list(CHOICE_SPECS[name].choices))
        # "name=value" per notch, URL-encoded once; a query is 14 of them joined in the contract's order
        self.frags = [[f"{quote(name)}={quote(fmt_param(v), safe='')}" for v in vals]
                      for name, vals in zip(PARAM_NAMES, self.values, strict=True)]
        self.radix = [len(v) for v in self.values]
        self.mult = [1] * len(self.radix)
        for i in range(len(self.radix) - 2, -1, -1):
            self.mult[i] = self.mult[i + 1] * self.radix[i + 1]
        ix = PARAM_NAMES.index
        self.i_place, self.i_gpus = ix("placement"), ix("gpus")
        self.bad_gpus = {j for j, g in enumerate(self.values[self.i_gpus]) if g < SEPARATE_MIN_GPUS}
        self.separate = self.values[self.i_place].index("separate")
        # normalise()'s rules between parameters (app/model/inputs.py), so every generated URL is canonical:
        # a named arch sets policy_b (its notch is fixed at 0 and the URL carries the arch's size), the response
        # cap is at least the mean, staleness > 0 needs separate placement and enough GPUs, DPO needs a β
        self.i_arch, self.i_pol = ix("arch"), ix("policy_b")
        self.arch_pol = {j: f"policy_b={quote(fmt_param(ARCHS[a].total_b), safe='')}"
                         for j, a in enumerate(self.values[self.i_arch]) if a != "custom"}
        self.arch_size = {j: ARCHS[a].total_b for j, a in enumerate(self.values[self.i_arch]) if a != "custom"}
        self.i_mean, self.i_cap = ix("response_tokens"), ix("response_max_tokens")
        self.i_stale, self.i_method, self.i_kl = ix("staleness"), ix("method"), ix("kl")
        self.dpo = self.values[self.i_method].index("dpo")
        self.low_kl = {j for j, k in enumerate(self.values[self.i_kl]) if k < DPO_MIN_BETA}
        self.visited: set[int] = set()
        self.rejected_draws = 0
        self.fresh_starts = 0
        self.requests = 0
        self._check()

    def _valid(self, idx: list[int]) -> bool:
        """False for a state normalise() would change (``separate`` below SEPARATE_MIN_GPUS → ``colocated``, and
        the other rules above), or one a named arch makes the same as its policy_b notch 0."""
        v = self.values
        if idx[self.i_place] == self.separate and idx[self.i_gpus] in self.bad_gpus:
            return False
        if idx[self.i_arch] in self.arch_pol and idx[self.i_pol] != 0:
            return False
        if v[self.i_cap][idx[self.i_cap]] < v[self.i_mean][idx[self.i_mean]]:
            return False
        if idx[self.i_stale] and (idx[self.i_gpus] in self.bad_gpus or idx[self.i_place] != self.separate):
            return False
        return not (idx[self.i_method] == self.dpo and idx[self.i_kl] in self.low_kl)

    def path(self, idx: list[int]) -> str:
        frags = [f[i] for f, i in zip(self.frags, idx, strict=True)]
        if idx[self.i_arch] in self.arch_pol:
            frags[self.i_pol] = self.arch_pol[idx[self.i_arch]]
        return f"/{self.lang}/?" + "&".join(frags)

    def _code(self, idx: list[int]) -> int:
        return sum(i * m for i, m in zip(idx, self.mult, strict=True))

    def _check(self) -> None:
        """The generated URLs are the canonical ones: equal to urlencode(DEFAULTS.query(...)), and normalise()
        leaves them unchanged (no notices) — so two different URLs here are two different states."""
        from urllib.parse import parse_qs

        from app.model import DEFAULTS
        from app.model.inputs import normalise

        rng = random.Random(f"check:{self.seed}")
        for _ in range(200):
            idx = [rng.randrange(r) for r in self.radix]
            if not self._valid(idx):
                continue
            changes = {n: self.values[i][j] for i, (n, j) in enumerate(zip(self.names, idx, strict=True))}
            if idx[self.i_arch] in self.arch_size:
                changes["policy_b"] = self.arch_size[idx[self.i_arch]]
            want = f"/{self.lang}/?" + urlencode(DEFAULTS.query(**changes))
            got = self.path(idx)
            inputs, notices = normalise(parse_qs(got.split("?", 1)[1], keep_blank_values=True))
            if got != want or notices or f"/{self.lang}/?" + urlencode(inputs.query()) != got:
                raise RuntimeError(f"unique pattern: non-canonical URL {got!r} (expected {want!r}, {notices})")

    def _fresh(self, rng: random.Random) -> tuple[list[int], int]:
        for _ in range(UNIQUE_MAX_FRESH_DRAWS):
            idx = [rng.randrange(r) for r in self.radix]
            code = self._code(idx)
            if self._valid(idx) and code not in self.visited:
                self.visited.add(code)
                return idx, code
        raise RuntimeError("unique pattern: no unvisited state found")  # ~10^14 states: cannot happen

    def client(self, k: int, base: str) -> Iterator[Req]:
        host = urlsplit(base).netloc
        rng = random.Random(f"{self.seed}:{k}")  # str seeds are hashed with SHA-512: stable across runs
        n = len(self.radix)
        idx, code = self._fresh(rng)
        cur_path = self.path(idx)
        while True:  # endless generator; the caller bounds the loop
            for _ in range(UNIQUE_MAX_DRAWS):
                i = rng.randrange(n)
                step = 1 if rng.random() < 0.5 else -1
                j = idx[i] + step
                if not 0 <= j < self.radix[i]:
                    j = idx[i] - step
                new = idx.copy()
                new[i] = j
                new_code = code + (j - idx[i]) * self.mult[i]
                if new_code in self.visited or not self._valid(new):
                    self.rejected_draws += 1
                    continue
                break
            else:  # boxed in by visited states: start again from a fresh random state (no request for the jump)
                self.fresh_starts += 1
                idx, code = self._fresh(rng)
                cur_path = self.path(idx)
                continue
            self.visited.add(new_code)
            self.requests += 1
            new_path = self.path(new)
            current = base + cur_path
            yield Req(new_path, current, encode_request(host, new_path, current))
            idx, code, cur_path = new, new_code, new_path

    def stats(self) -> dict:
        return {"seed": self.seed, "states_generated": self.requests, "states_visited": len(self.visited),
                "rejected_draws": self.rejected_draws, "fresh_starts": self.fresh_starts}


class ClassPattern:
    """A class of learners on the lab as app.js drives it (see the module docstring)."""

    name = "class"
    expect_partial = True

    def __init__(self, lang: str, seed: int = 0) -> None:
        from app.model.inputs import NUMBERS
        from app.model.scenarios import PRESETS

        self.lang, self.seed = lang, seed
        self.presets = [p.inputs for p in PRESETS]
        self.ladders = {s.name: [int(v) if s.integer else v for v in s.ladder] for s in NUMBERS}
        self.names = sorted(self.ladders)
        self.requests = self.repeats = 0
        self.seen: set[int] = set()  # (new, previous) pairs generated so far: a repeat is a response-cache hit

    def url(self, inputs) -> str:  # noqa: ANN001 - WorkloadInputs
        return f"/{self.lang}/?" + urlencode(inputs.query())

    def client(self, k: int, base: str) -> Iterator[Req]:
        host = urlsplit(base).netloc
        rng = random.Random(f"class:{self.seed}:{k}")
        while True:  # endless; the caller bounds the loop
            state = rng.choice(self.presets)
            notches = 0
            while notches < 40:
                name = rng.choice(self.names)
                ladder = self.ladders[name]
                value = getattr(state, name)
                j = min(range(len(ladder)), key=lambda i: abs(ladder[i] - value))
                step = rng.choice((-1, 1))
                for _ in range(rng.randint(2, 12)):
                    if not 0 <= j + step < len(ladder):
                        step = -step
                    j += step
                    state = state.model_copy(update={name: ladder[j]})
                    here = base + self.url(state)
                    for n in (j - 1, j + 1):  # what app.js fetches ahead once the move is on screen
                        if 0 <= n < len(ladder):
                            path = self.url(state.model_copy(update={name: ladder[n]}))
                            self.requests += 1
                            pair = hash((path, here))
                            if pair in self.seen:
                                self.repeats += 1
                            else:
                                self.seen.add(pair)
                            yield Req(path, here, encode_request(host, path, here))
                    notches += 1

    def stats(self) -> dict:
        return {"seed": self.seed, "requests_generated": self.requests, "repeated_pairs": self.repeats,
                "repeat_share": round(self.repeats / max(self.requests, 1), 3)}


PATTERNS = ("walk", "unique", "class")


def make_pattern(name: str, lang: str, seed: int = 0) -> WalkPattern | UniquePattern | ClassPattern:
    if name == "walk":
        return WalkPattern(lang)
    if name == "unique":
        return UniquePattern(lang, seed)
    if name == "class":
        return ClassPattern(lang, seed)
    if name == "floor":
        return FloorPattern(lang)
    raise ValueError(f"unknown pattern {name!r}")


# --- the HTTP/1.1 client ---------------------------------------------------------------------------------------


class ProtocolError(Exception):
    """A response that is not valid HTTP/1.1 framing; str(exc) is the error kind."""


@dataclass(slots=True)
class Response:
    status: int
    body: bytes  # as received (after de-chunking, before gzip decoding)
    gzip: bool
    keep_alive: bool


async def read_response(reader: asyncio.StreamReader) -> Response:
    """One response from the stream: status line, headers, then a Content-Length, chunked or close-delimited
    body.  Raises asyncio.IncompleteReadError if the peer closes early, ProtocolError on bad framing."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head[:-4].split(b"\r\n")
    if len(lines) > MAX_HEADER_LINES:
        raise ProtocolError("too_many_headers")
    version, _, rest = lines[0].partition(b" ")
    code = rest[:3]
    if not version.startswith(b"HTTP/1.") or len(code) != 3 or not code.isdigit():
        raise ProtocolError("bad_status_line")
    status = int(code)
    length: int | None = None
    chunked = gzip = False
    keep_alive = version == b"HTTP/1.1"
    for line in lines[1:]:
        name, sep, value = line.partition(b":")
        if not sep:
            raise ProtocolError("bad_header_line")
        name = name.lower()
        if name == b"content-length":
            value = value.strip()
            if not value.isdigit() or (length is not None and int(value) != length):
                raise ProtocolError("bad_content_length")
            length = int(value)
        elif name == b"transfer-encoding":
            codings = [c.strip() for c in value.lower().split(b",")]
            if codings[-1] != b"chunked":
                raise ProtocolError("unsupported_transfer_encoding")
            chunked = True
        elif name == b"content-encoding":
            enc = value.strip().lower()
            if enc == b"gzip":
                gzip = True
            elif enc not in (b"", b"identity"):
                raise ProtocolError("unsupported_content_encoding")
        elif name == b"connection":
            tokens = [t.strip() for t in value.lower().split(b",")]
            if b"close" in tokens:
                keep_alive = False
            elif b"keep-alive" in tokens:
                keep_alive = True
    if status in (204, 304) or 100 <= status < 200:
        return Response(status, b"", gzip, keep_alive)
    if chunked:  # RFC 9112 §6.3: Transfer-Encoding overrides Content-Length
        parts: list[bytes] = []
        size_total = 0
        for _ in range(MAX_CHUNKS):
            size_line = await reader.readuntil(b"\r\n")
            size_text = size_line[:-2].split(b";", 1)[0].strip()
            if not size_text or size_text.strip(b"0123456789abcdefABCDEF"):
                raise ProtocolError("bad_chunk_size")
            size = int(size_text, 16)
            if size == 0:
                break
            size_total += size
            if size_total > MAX_BODY_BYTES:
                raise ProtocolError("body_too_large")
            data = await reader.readexactly(size + 2)
            if data[-2:] != b"\r\n":
                raise ProtocolError("bad_chunk_framing")
            parts.append(data[:-2])
        else:
            raise ProtocolError("too_many_chunks")
        for _ in range(MAX_HEADER_LINES):  # trailer section, up to the blank line
            if await reader.readuntil(b"\r\n") == b"\r\n":
                break
        else:
            raise ProtocolError("too_many_trailers")
        return Response(status, b"".join(parts), gzip, keep_alive)
    if length is not None:
        if length > MAX_BODY_BYTES:
            raise ProtocolError("body_too_large")
        body = await reader.readexactly(length) if length else b""
        return Response(status, body, gzip, keep_alive)
    # neither: the body runs until the server closes the connection (bounded by the caller's timeout)
    body = await reader.read(MAX_BODY_BYTES + 1)
    parts = [body]
    size_total = len(body)
    while body and size_total <= MAX_BODY_BYTES:
        body = await reader.read(MAX_BODY_BYTES + 1)
        parts.append(body)
        size_total += len(body)
    if size_total > MAX_BODY_BYTES:
        raise ProtocolError("body_too_large")
    return Response(status, b"".join(parts), gzip, False)


def decode_body(resp: Response) -> bytes:
    """The body with gzip undone; raises ProtocolError unless the gzip stream is complete (CRC and length
    checked by zlib) with nothing after it."""
    if not resp.gzip:
        return resp.body
    d = zlib.decompressobj(31)
    try:
        out = d.decompress(resp.body)
    except zlib.error:
        raise ProtocolError("bad_gzip") from None
    if not d.eof or d.unused_data:
        raise ProtocolError("bad_gzip_length")
    return out


class Connection:
    """One keep-alive HTTP/1.1 connection; request() writes pre-encoded bytes and reads one response."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port, limit=STREAM_LIMIT)

    @property
    def is_open(self) -> bool:
        return self.writer is not None

    def close(self) -> None:
        if self.writer is not None:
            with contextlib.suppress(Exception):  # already broken: nothing to do
                self.writer.close()
        self.reader = self.writer = None

    async def request(self, raw: bytes) -> Response:
        assert self.reader is not None and self.writer is not None
        self.writer.write(raw)  # < 1 KB, one request in flight: no need to wait for drain
        resp = await read_response(self.reader)
        if not resp.keep_alive:
            self.close()
        return resp


def error_kind(exc: BaseException) -> str:
    if isinstance(exc, ProtocolError):
        return str(exc)
    if isinstance(exc, TimeoutError):
        return "timeout"
    if isinstance(exc, asyncio.IncompleteReadError):
        return "closed_before_headers" if not exc.partial else "incomplete_response"
    if isinstance(exc, asyncio.LimitOverrunError):
        return "line_too_long"
    return type(exc).__name__


async def raw_client(base: str, reqs: Iterator[Req], rec: Recorder, deadline: float, max_requests: int,
                     expect_partial: bool, verify: str = "full", timeout: float = REQUEST_TIMEOUT_S) -> None:
    """One client: request after request on its own connection to base until the deadline or the run's
    request cap."""
    parts = urlsplit(base)
    conn = Connection(parts.hostname or "127.0.0.1", parts.port or 80)
    full = verify == "full"
    perf = time.perf_counter
    try:
        while perf() < deadline and rec.total < max_requests:
            req = next(reqs)
            if not conn.is_open:
                try:
                    async with asyncio.timeout(CONNECT_TIMEOUT_S):
                        await conn.open()
                except Exception as exc:  # noqa: BLE001 - counted; the loop is bounded by the deadline
                    conn.close()
                    rec.error("connect_" + error_kind(exc))
                    rec.total += 1
                    await asyncio.sleep(ERROR_BACKOFF_S)
                    continue
            t = perf()
            try:
                async with asyncio.timeout(timeout):
                    resp = await conn.request(req.raw)
            except Exception as exc:  # noqa: BLE001 - counted; the connection is reopened
                conn.close()
                rec.error(error_kind(exc))
                rec.total += 1
                await asyncio.sleep(ERROR_BACKOFF_S)
                continue
            dt = (perf() - t) * 1000.0
            rec.total += 1
            if resp.status != 200:
                rec.error(f"status_{resp.status}")
                continue
            body_len: int | None = None
            if full:
                try:
                    body = decode_body(resp)
                except ProtocolError as exc:
                    rec.error(str(exc))
                    continue
                if expect_partial and PARTIAL_MARKER not in body:
                    rec.error("not_a_partial")
                    continue
                body_len = len(body)
            if rec.recording:
                rec.done += 1
                rec.by_target[base] = rec.by_target.get(base, 0) + 1
                rec.latency_ms.append(dt)
                rec.wire_bytes.append(len(resp.body))
                if body_len is not None:
                    rec.body_bytes.append(body_len)
    finally:
        conn.close()


async def run_raw(bases: list[str], pattern, clients: int, rec: Recorder, deadline: float,  # noqa: ANN001
                  max_requests: int, verify: str = "full", timeout: float = REQUEST_TIMEOUT_S) -> list[asyncio.Task]:
    """Start `clients` raw clients (tasks), client k against bases[k % len(bases)]; the caller awaits them (with
    its own bound)."""
    tasks = []
    for k in range(clients):
        base = bases[k % len(bases)]
        tasks.append(asyncio.create_task(raw_client(base, pattern.client(k, base), rec, deadline, max_requests,
                                                    pattern.expect_partial, verify, timeout)))
    return tasks


# --- event loop --------------------------------------------------------------------------------------------------


def loop_factory(loop: str = "auto") -> tuple[Callable[[], asyncio.AbstractEventLoop] | None, str]:
    """(loop factory for asyncio.Runner, its name): uvloop when asked for or, with "auto", when importable."""
    if loop in ("auto", "uvloop"):
        try:
            import uvloop

            return uvloop.new_event_loop, "uvloop"
        except ImportError:
            if loop == "uvloop":
                raise
    return None, "asyncio"


def run(coro: Coroutine[Any, Any, Any], loop: str = "auto") -> Any:  # noqa: ANN401
    factory, _ = loop_factory(loop)
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(coro)


# --- self-test -----------------------------------------------------------------------------------------------------


async def _selftest() -> None:
    body = b"<div hx-swap-oob='true'>" + random.Random(0).randbytes(3000).hex().encode() + b"</div>"
    gz = zlib.compressobj(6, zlib.DEFLATED, 31)
    gzbody = gz.compress(body) + gz.flush()
    chunks = [gzbody[:100], gzbody[100:2000], gzbody[2000:]]
    assert all(chunks), "test body too compressible"
    chunked = b"".join(f"{len(c):x};ext=1\r\n".encode() + c + b"\r\n" for c in chunks) + b"0\r\nX-Trailer: 1\r\n\r\n"
    responses = {
        b"/cl": b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nContent-Encoding: gzip\r\n\r\n" % len(gzbody) + gzbody,
        b"/chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n" + chunked,
        b"/404": b"HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\n\r\nnot found",
        b"/short": b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this",
        b"/close": b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + body,
        b"/badgz": b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nContent-Encoding: gzip\r\n\r\n" % (len(gzbody) - 5)
                   + gzbody[:-5],
    }

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            for _ in range(1_000_000):
                head = await reader.readuntil(b"\r\n\r\n")
                path = head.split(b" ", 2)[1]
                if path == b"/stall":  # never answer; returns when the client gives up and closes
                    await asyncio.wait_for(reader.read(1), 5)
                    break
                resp = responses[path]
                for i in range(0, len(resp), 700):  # dribble it out in pieces
                    writer.write(resp[i:i + 700])
                    await writer.drain()
                if path in (b"/close", b"/short"):
                    break
        except (asyncio.IncompleteReadError, ConnectionError, TimeoutError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        conn = Connection("127.0.0.1", port)
        await conn.open()
        r = await conn.request(encode_request("h", "/cl", "http://h/"))
        assert r.status == 200 and decode_body(r) == body, r
        r = await conn.request(encode_request("h", "/chunked", "http://h/"))
        assert r.status == 200 and r.body == gzbody and decode_body(r) == body and r.keep_alive, r
        r = await conn.request(encode_request("h", "/404", "http://h/"))
        assert r.status == 404 and r.body == b"not found", r
        r = await conn.request(encode_request("h", "/cl", "http://h/"))  # still in sync after all that
        assert decode_body(r) == body
        r = await conn.request(encode_request("h", "/close", "http://h/"))
        assert r.status == 200 and r.body == body and not r.keep_alive and not conn.is_open, r
        await conn.open()
        try:
            await conn.request(encode_request("h", "/short", "http://h/"))
            raise AssertionError("short body accepted")
        except asyncio.IncompleteReadError as exc:
            assert error_kind(exc) == "incomplete_response"
        conn.close()
        await conn.open()
        r = await conn.request(encode_request("h", "/badgz", "http://h/"))
        try:
            decode_body(r)
            raise AssertionError("truncated gzip accepted")
        except ProtocolError as exc:
            assert str(exc) == "bad_gzip_length", exc
        # the client loop: errors by kind, timeouts, bounded by the deadline
        rec = Recorder()
        rec.recording = True
        paths = itertools.cycle([Req(p, "", encode_request("h", p, "http://h/")) for p in ("/cl", "/chunked", "/404")])
        await raw_client(f"http://127.0.0.1:{port}", paths, rec, time.perf_counter() + 0.3, 10_000, True)
        assert rec.done > 10 and set(rec.errors) == {"status_404"}, rec.errors
        rec = Recorder()
        stall = itertools.cycle([Req("/stall", "", encode_request("h", "/stall", "http://h/"))])
        t0 = time.perf_counter()
        await raw_client(f"http://127.0.0.1:{port}", stall, rec, time.perf_counter() + 0.1, 10, True, timeout=0.2)
        assert rec.errors == {"timeout": 1} and time.perf_counter() - t0 < 1.0, rec.errors
    # the unique pattern: canonical URLs, no state twice
    pat = UniquePattern("en", seed=1)
    gens = [pat.client(k, f"http://127.0.0.1:{1 + k % 2}") for k in range(4)]  # two targets share the memory
    seen = set()
    for _ in range(2000):
        for g in gens:
            req = next(g)
            assert req.path not in seen
            seen.add(req.path)
    again = UniquePattern("en", seed=1).client(0, "http://127.0.0.1:1")
    assert next(again).path == next(UniquePattern("en", seed=1).client(0, "http://127.0.0.1:1")).path
    print(f"loadgen self-test passed ({len(seen)} unique states, {pat.stats()})")


if __name__ == "__main__":
    if sys.argv[1:] != ["--selftest"]:
        sys.exit(__doc__)
    run(_selftest())
