"""An aiohttp server on its own event loop in a daemon thread (the fake API's, the balancer's)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ClassVar, Self

from aiohttp import web


class LoopThreadServer:
    """``start()``, ``stop()`` and ``with`` for a server that ``_astart`` sets up on an event
    loop of its own, in a daemon thread named ``thread_name``."""

    thread_name: ClassVar[str]
    _loop: asyncio.AbstractEventLoop | None
    _thread: threading.Thread | None

    def start(self) -> Self:
        if self._thread is not None:
            return self
        self._loop = asyncio.new_event_loop()
        self._thread = start_loop_thread(self._loop, self._astart, name=self.thread_name)
        return self

    async def _astart(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_loop_thread(
    loop: asyncio.AbstractEventLoop, astart: Callable[[], Awaitable[None]], *, name: str
) -> threading.Thread:
    """Run ``astart()`` on ``loop`` in a new daemon thread, then the loop until it is stopped.

    Returns the thread once ``astart()`` has finished (waiting at most 30 s); if it failed, its
    exception is raised here instead and the loop is closed.
    """
    ready = threading.Event()
    failure: list[BaseException] = []

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(astart())
        except BaseException as exc:  # reported to the starting thread
            failure.append(exc)
            ready.set()
            loop.close()
            return
        ready.set()
        loop.run_forever()
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    ready.wait(30)
    if failure:
        raise failure[0]
    return thread


def stop_loop_thread(
    loop: asyncio.AbstractEventLoop,
    thread: threading.Thread,
    last: Callable[[], Coroutine[Any, Any, None]] | None,
) -> None:
    """Run ``last()`` on ``loop`` (best effort, at most 15 s), then stop the loop and wait for
    its thread (at most 15 s)."""
    if last is not None:
        fut = asyncio.run_coroutine_threadsafe(last(), loop)
        with contextlib.suppress(Exception):  # best effort shutdown
            fut.result(15)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(15)


async def serve_all_paths(
    handler: Callable[[web.Request], Awaitable[web.StreamResponse]], host: str, port: int
) -> tuple[web.AppRunner, int]:
    """Serve every method and path with ``handler`` on ``host``:``port`` (0: a free port).

    Returns the runner (to clean up) and the port bound.
    """
    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_route("*", "/{tail:.*}", handler)
    runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=2.0)
    await runner.setup()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    await web.SockSite(runner, sock).start()
    return runner, sock.getsockname()[1]
