"""The one place that names Redis keys.

Every key of a chat carries the hash tag `{c<chat id>}`, so in a Redis Cluster a
chat's match, its delivery records, its last record, its stats and its language
share one slot: they can be read together (MGET) and changed by one script. The
call budget's keys share the tag `{budget}` for the same reason.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Keys:
    prefix: str = "dom"

    def _chat(self, chat_id: int) -> str:
        return f"{self.prefix}:{{c{chat_id}}}"

    def game(self, chat_id: int, thread_id: int | None) -> str:
        """The chat's (or forum topic's) current or latest match."""
        return f"{self._chat(chat_id)}:game:{thread_id or 0}"

    def group(self, chat_id: int, thread_id: int | None) -> str:
        """What the group's messages of that match show (the delivery layer's)."""
        return f"{self._chat(chat_id)}:group:{thread_id or 0}"

    def hand(self, chat_id: int, thread_id: int | None, seat: int) -> str:
        """What a seat's private hand message shows (the delivery layer's)."""
        return f"{self._chat(chat_id)}:hand:{thread_id or 0}:{seat}"

    def last_record(self, chat_id: int, thread_id: int | None) -> str:
        """The record of the last finished game, for /export."""
        return f"{self._chat(chat_id)}:record:{thread_id or 0}"

    def stats(self, chat_id: int) -> str:
        return f"{self._chat(chat_id)}:stats"

    def counted(self, chat_id: int) -> str:
        """Ids of the last games added to the stats, by when (so none counts twice)."""
        return f"{self._chat(chat_id)}:counted"

    def chat_language(self, chat_id: int) -> str:
        return f"{self._chat(chat_id)}:lang"

    def user(self, user_id: int) -> str:
        return f"{self.prefix}:{{u{user_id}}}:user"

    def process(self, process_id: str) -> str:
        """A running bot process's heartbeat (see bot.delivery.liveness)."""
        return f"{self.prefix}:proc:{process_id}"

    def due(self) -> str:
        """Sorted set of game keys by the time something is due (a deadline, a call to make)."""
        return f"{self.prefix}:due"

    def budget_calls(self) -> str:
        """The token's calls to Telegram in the last second (all processes)."""
        return f"{self.prefix}:{{budget}}:all"

    def budget_chat_calls(self, chat_id: int) -> str:
        """The calls to one group in the last minute."""
        return f"{self.prefix}:{{budget}}:c{chat_id}"

    def budget_chat_pause(self, chat_id: int) -> str:
        """Set while Telegram asked us to wait before the next call to this chat."""
        return f"{self.prefix}:{{budget}}:pause:{chat_id}"

    def budget_pause(self) -> str:
        """Set while Telegram asked us to wait before any call."""
        return f"{self.prefix}:{{budget}}:pause"

    def parse_game(self, key: str) -> tuple[int, int | None]:
        """(chat id, thread id) back from a game key."""
        head, _, thread = key.rpartition(":game:")
        chat = head.rpartition("{c")[2].rstrip("}")
        return int(chat), (int(thread) or None)
