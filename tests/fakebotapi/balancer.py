"""A round-robin HTTP load balancer (aiohttp, background thread) for tests and benchmarks.

It lets several bot processes in webhook mode sit behind one webhook URL::

    with FakeBotApi() as api, Balancer([bot_a_url, bot_b_url]) as lb:
        # each bot listens on its own port; the bots call setWebhook(lb.url + "/hook", ...)
        ...
        assert lb.forwarded == {bot_a_url: 10, bot_b_url: 10}

Every request (method, path, query, headers, body) goes to the next backend in turn; a backend
that refuses the connection is skipped for that request (the next one is tried). If none
accepts it the answer is 502; a backend that accepted the request but failed to answer (it
closed the connection, or did not answer within ``timeout``) is not retried elsewhere — the
request may have been processed — and the answer is 502 (504 on a timeout).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable

import aiohttp
from aiohttp import web

from .background import LoopThreadServer, serve_all_paths, stop_loop_thread

# Hop-by-hop headers (RFC 9110 section 7.6.1) and the ones aiohttp sets itself.
_HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
    }
)


def _forwardable(headers: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(k, v) for k, v in headers if k.lower() not in _HOP_BY_HOP]


class Balancer(LoopThreadServer):
    """Round-robin reverse proxy on ``host`` (a free port unless ``port`` is given)."""

    thread_name = "balancer"

    def __init__(
        self,
        backends: Iterable[str] = (),
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        timeout: float = 60.0,
    ) -> None:
        """``backends``: base URLs such as ``http://127.0.0.1:8081`` (a path prefix is kept:
        ``http://h:1/a`` + request ``/b?x=1`` -> ``http://h:1/a/b?x=1``). ``timeout``: seconds
        a backend may take to answer one request."""
        self._lock = threading.Lock()
        self._backends: list[str] = []
        self._forwarded: dict[str, int] = {}
        self._refused: dict[str, int] = {}
        self._failed = 0  # requests answered 502/504 by the balancer itself
        self._next = 0
        self._host = host
        self._port = port
        self._timeout = timeout
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self.port = 0
        self.set_backends(backends)

    # ------------------------------------------------------------------ control
    @property
    def url(self) -> str:
        """The balancer's base URL, e.g. ``http://127.0.0.1:40123``."""
        return f"http://{self._host}:{self.port}"

    @property
    def backends(self) -> list[str]:
        with self._lock:
            return list(self._backends)

    def set_backends(self, backends: Iterable[str]) -> None:
        """Replace the backends (counters of backends seen before are kept)."""
        clean = [b.rstrip("/") for b in backends]
        with self._lock:
            self._backends = clean
            self._next = 0
            for backend in clean:
                self._forwarded.setdefault(backend, 0)
                self._refused.setdefault(backend, 0)

    @property
    def forwarded(self) -> dict[str, int]:
        """Per backend: requests it answered (whatever the status)."""
        with self._lock:
            return dict(self._forwarded)

    @property
    def refused(self) -> dict[str, int]:
        """Per backend: requests for which it refused the connection (and was skipped)."""
        with self._lock:
            return dict(self._refused)

    @property
    def failed(self) -> int:
        """Requests the balancer answered itself with 502 / 504."""
        with self._lock:
            return self._failed

    # ---------------------------------------- lifecycle (start and with: LoopThreadServer)
    async def _astart(self) -> None:
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0),
            timeout=aiohttp.ClientTimeout(total=self._timeout),
            auto_decompress=False,
            skip_auto_headers=("User-Agent", "Content-Type", "Accept", "Accept-Encoding"),
        )
        self._runner, self.port = await serve_all_paths(self._handle, self._host, self._port)

    async def _astop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    def stop(self) -> None:
        if self._thread is None or self._loop is None:
            return
        stop_loop_thread(self._loop, self._thread, self._astop)
        self._thread = None

    # ------------------------------------------------------------------ proxying
    def _order(self) -> list[str]:
        """The backends to try for one request: the next one in turn first."""
        with self._lock:
            backends = self._backends
            if not backends:
                return []
            start = self._next % len(backends)
            self._next = (start + 1) % len(backends)
            return backends[start:] + backends[:start]

    def _count(self, table: dict[str, int], backend: str) -> None:
        with self._lock:
            table[backend] = table.get(backend, 0) + 1

    def _fail(self, status: int, text: str) -> web.Response:
        with self._lock:
            self._failed += 1
        return web.Response(status=status, text=text)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        session = self._session
        assert session is not None
        body = await request.read()
        headers = _forwardable(request.headers.items())
        for backend in self._order():
            try:
                async with session.request(
                    request.method,
                    backend + request.path_qs,
                    headers=headers,
                    data=body,
                    allow_redirects=False,
                ) as answer:
                    content = await answer.read()
                    self._count(self._forwarded, backend)
                    return web.Response(
                        status=answer.status,
                        reason=answer.reason,
                        body=content,
                        headers=_forwardable(answer.headers.items()),
                    )
            except aiohttp.ClientConnectorError:
                self._count(self._refused, backend)  # refused / unreachable: try the next
                continue
            except TimeoutError:
                return self._fail(504, f"504 Gateway Timeout: {backend} did not answer")
            except aiohttp.ClientError as exc:
                return self._fail(502, f"502 Bad Gateway: {backend}: {type(exc).__name__}")
        return self._fail(502, "502 Bad Gateway: no backend accepted the connection")
