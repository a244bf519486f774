"""The table's routes on the bot's own web server (bot.web):

- `GET /table/` — the page (its Content-Security-Policy allows only its own files,
  Telegram's script and its own WebSocket);
- `GET /table/static/<file>` — the page's script and styles, shipped in the package;
- `GET /table/api/view[?game=<game id>]` — the view now, for the init data in the
  `Authorization: tma <init data>` header (`game`: for init data without a start
  parameter, as a private chat's `web_app` button opens the page): 200 with `{"words",
  "lang", "now", "view"}`; 401 `{"error": "unauthorized", "texts": {lang: words}}`; 404
  `{"error": "no_game", "text"}`;
- `GET /table/ws` — the live table (bot.table.session).

The page's files need no init data; everything else does.
"""

from __future__ import annotations

import json
import logging
import re
from importlib import resources
from pathlib import Path

from aiohttp import web
from redis.exceptions import RedisError

from bot.game.match_errors import StoreError
from bot.i18n import LANGUAGES, translator
from bot.table.initdata import Unauthorized
from bot.table.server import TableServer
from bot.table.session import GOING_AWAY, Session
from bot.telegram import webapp_texts

log = logging.getLogger(__name__)

STATIC = Path(str(resources.files("bot") / "table" / "static"))
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"
AUTH_SCHEME = "tma "  # Authorization: tma <init data>
_HOST = re.compile(r"^[A-Za-z0-9.\-\[\]:]{1,255}$")


def add_routes(app: web.Application, table: TableServer) -> None:
    async def view(request: web.Request) -> web.Response:
        return await _view(request, table)

    async def socket(request: web.Request) -> web.StreamResponse:
        return await Session(table, request).run()

    app.router.add_get("/table", _to_page)
    app.router.add_get("/table/", _page)
    app.router.add_static("/table/static/", STATIC, show_index=False)
    app.router.add_get("/table/api/view", view)
    app.router.add_get("/table/ws", socket)

    async def close_tables(_: web.Application) -> None:
        await table.hub.close_all(GOING_AWAY, "server stopping")

    app.on_shutdown.append(close_tables)


async def _to_page(_: web.Request) -> web.Response:
    raise web.HTTPMovedPermanently("/table/")


async def _page(request: web.Request) -> web.Response:
    body = (STATIC / "index.html").read_bytes()
    return web.Response(
        body=body,
        content_type="text/html",
        charset="utf-8",
        headers={"Content-Security-Policy": policy(request.host), "Cache-Control": "no-cache"},
    )


def policy(host: str) -> str:
    """Only the page's own files, Telegram's script, and its own WebSocket."""
    sockets = f" wss://{host} ws://{host}" if _HOST.match(host) else ""
    return "; ".join(
        [
            "default-src 'none'",
            f"script-src 'self' {TELEGRAM_SCRIPT}",
            "style-src 'self'",
            "img-src 'self'",
            f"connect-src 'self'{sockets}",
            "base-uri 'none'",
            "form-action 'none'",
        ]
    )


async def _view(request: web.Request, table: TableServer) -> web.Response:
    header = request.headers.get("Authorization", "")
    init_data = header[len(AUTH_SCHEME) :] if header.startswith(AUTH_SCHEME) else ""
    try:
        identity = table.identify(init_data)
    except Unauthorized as refused:
        log.warning("table: view refused: unauthorized (%s)", refused.reason)
        # Who asks is not known: the page picks the language of the words it shows.
        texts = {
            lang: webapp_texts.page_words(translator(lang))["unauthorized"] for lang in LANGUAGES
        }
        return web.json_response(
            {"error": "unauthorized", "texts": texts}, status=401, dumps=_dumps
        )
    try:
        tr = await table.translator(identity)
        place = await table.place(identity, request.query.get("game", ""))
        view = None if place is None else await table.current_view(place, identity, tr)
    except (StoreError, RedisError) as exc:
        log.warning("table: view not read (%s)", exc.__class__.__name__)
        return web.json_response({"error": "storage_down"}, status=503)
    if view is None:
        text = webapp_texts.refusal(tr, "game_gone")
        return web.json_response({"error": "no_game", "text": text}, status=404)
    words = webapp_texts.page_words(tr)
    return web.json_response(
        {"words": words, "lang": tr.lang, "now": table.clock(), "view": view},
        headers={"Cache-Control": "no-store"},
        dumps=_dumps,
    )


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)
