"""The live table: a Telegram Mini App page served by the bot's own web server, where
players and onlookers see the game as it happens (docs/table.md).

`initdata` checks who opened it, `views` builds what each person sees, `hub` keeps the
open tables and pushes views to them, `feed` brings every committed change there (across
processes through Redis), `session` serves one table's WebSocket, `actions` does what a
table asks through the game service, `routes` are its HTTP routes, `server` ties them
together; the page itself is in `static/`.
"""

from bot.table.routes import add_routes
from bot.table.server import TableServer

__all__ = ["TableServer", "add_routes"]
