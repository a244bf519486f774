"""python-telegram-bot's HTTP transport on aiohttp instead of httpx.

PTB ships only an httpx transport; it documents `BaseRequest` as the place for
another. We use aiohttp's client because the bot is CPU-bound on Bot API calls
under load: httpx runs every request through httpcore's pool and anyio's
cancel scopes, several times the interpreter work of aiohttp's request per call
(measured with bench/load.py, see docs/performance.md). This class only maps
PTB's request (JSON fields, multipart files, four timeouts) onto aiohttp and
aiohttp's failures onto PTB's errors.
"""

from __future__ import annotations

from typing import Any

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData


class AiohttpRequest(BaseRequest):
    def __init__(
        self,
        connection_pool_size: int = 32,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        self._size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._size, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": self.USER_AGENT}
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("AiohttpRequest is not initialized")
        files = request_data.multipart_data if request_data else None
        fields = request_data.json_parameters if request_data else None
        read = _given(read_timeout, self._read_timeout)
        connect = _given(connect_timeout, self._connect_timeout)
        pool = _given(pool_timeout, self._pool_timeout)
        write = _given(write_timeout, self._media_write_timeout if files else self._write_timeout)
        # aiohttp has no separate write timeout: the whole call gets the sum of the parts.
        parts = (read, write, connect, pool)
        total = None if any(part is None for part in parts) else sum(p or 0.0 for p in parts)
        timeout = aiohttp.ClientTimeout(total=total, sock_connect=connect, sock_read=read)
        body: Any
        if files:
            body = aiohttp.FormData()
            for name, value in (fields or {}).items():
                body.add_field(name, value)
            for name, (filename, content, mime) in files.items():
                body.add_field(name, content, filename=filename, content_type=mime)
        else:
            body = fields or None
        try:
            async with self._session.request(method, url, data=body, timeout=timeout) as response:
                return response.status, await response.read()
        except (TimeoutError, aiohttp.ServerTimeoutError) as error:
            raise TimedOut from error
        except aiohttp.ClientError as error:
            # Some of aiohttp's errors quote the URL, and a Bot API URL holds the token.
            token = url.partition("/bot")[2].partition("/")[0]
            text = str(error).replace(token, "<token>") if token else str(error)
            raise NetworkError(f"aiohttp.{error.__class__.__name__}: {text}") from None


def _given(value: ODVInput[float], default: float | None) -> float | None:
    return default if isinstance(value, DefaultValue) else value
