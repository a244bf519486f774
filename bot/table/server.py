"""The live table of one bot process: its hub of open tables, its change feed, and what
every request asks first (who is this, which game, in which language)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bot.game.match_records import Current
from bot.game.service import GameService
from bot.i18n import Translator, normalize, translator
from bot.settings import Settings
from bot.table.actions import Place
from bot.table.feed import Feed
from bot.table.hub import Hub, Seat
from bot.table.initdata import Identity, check_init_data
from bot.table.messages import GAME_ID_LENGTH
from bot.table.presence import TablePresence
from bot.table.views import table_view


class TableServer:
    def __init__(
        self, service: GameService, settings: Settings, clock: Callable[[], float] = time.time
    ) -> None:
        self.service = service
        self.settings = settings
        self.clock = clock
        self._token = settings.telegram_bot_token.get_secret_value()
        self.hub = Hub(service, self._view)
        self.feed = Feed(service.store.tables, self.hub)
        service.change_listeners.append(self.feed.changed)
        self.presence = TablePresence(service.store.presence, self.hub, self.feed.process, clock)

    def start(self) -> None:
        self.feed.start()
        self.presence.start()

    async def stop(self) -> None:
        await self.presence.stop()
        await self.feed.stop()

    def identify(self, init_data: object) -> Identity:
        """Who signed `init_data` (Unauthorized if nobody this bot can trust)."""
        max_age = self.settings.webapp_max_age_hours * 3600
        return check_init_data(init_data, self._token, max_age, self.clock())

    async def place(self, identity: Identity, named: str = "") -> Place | None:
        """The game the table was opened for, where it is played (None: no such game). A
        person seated there is noted as sitting at the table (docs/table.md).

        The game is the signed start parameter (a `startapp` link); a private chat's
        `web_app` button signs none, and its page names the game itself (`named`): a
        game id is no secret, and a seat is found by the signed user id alone. A page
        opened by a link may name another game of the link's chat and topic: the chat's
        next game, which it follows (a Rematch's lobby); any other name is passed over."""
        signed, named = (
            name if len(name) <= GAME_ID_LENGTH else "" for name in (identity.start_param, named)
        )
        tables = self.service.store.tables
        game_id, found = named, await tables.find_game(named) if named else None
        names_another = found is not None and signed and signed != named
        if names_another and await tables.find_game(signed) != found:
            found = None  # a game of another chat than the one the link was signed for
        if found is None:  # nothing named, or nothing it may name: the link's game
            game_id, found = signed, await tables.find_game(signed) if signed else None
        if found is None:
            return None
        place = Place(found[0], found[1], game_id)
        current = await self.service.current(place.chat_id, place.thread_id)
        match = current.match if current is not None else None
        if (
            match is not None
            and match.id == game_id
            and match.seat_of(identity.user_id) is not None
        ):
            await tables.note_seated(*found, game_id, identity.user_id)
        return place

    async def translator(self, identity: Identity) -> Translator:
        """The user's language as the bot chooses it: his /lang choice, else Telegram's."""
        prefs = await self.service.store.prefs.user(identity.user_id)
        default = self.settings.default_language
        return translator(prefs.lang or normalize(identity.language_code, default))

    async def current_view(self, place: Place, identity: Identity, tr: Translator) -> Any:
        """The view of the game now, for one request (None: the chat has moved on)."""
        current = await self.service.current(place.chat_id, place.thread_id)
        if current is None or current.match.id != place.game_id:
            return None
        changes = await self.hub.changes(current)
        return table_view(current, identity.user_id, tr, self.settings, changes)

    def _view(self, current: Current, seat: Seat, changes: dict[int, int] | None) -> Any:
        return table_view(current, seat.identity.user_id, seat.tr, self.settings, changes)
