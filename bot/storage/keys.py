"""The one place that names Redis keys.

Every key of a chat carries the hash tag `{c<chat id>}`, so in a Redis Cluster a
chat's match, its delivery records, its last record, its stats and its language
share one slot: they can be read together (MGET) and changed by one script. A
person's keys carry `{u<user id>}` likewise. The call budget's keys share the tag
`{budget}` for the same reason. The due index, the heartbeats and the updates seen are
single keys, each only ever used alone. Two chats' keys are in two slots (perhaps on two
nodes): nothing may touch both in one command or script (see `Migration.move_chat`).
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

    def broken(self, chat_id: int, thread_id: int | None) -> str:
        """A game that could not be read, set aside (for a look by hand) so a new one can start."""
        return f"{self._chat(chat_id)}:broken:{thread_id or 0}"

    def last_record(self, chat_id: int, thread_id: int | None) -> str:
        """The record of the last finished game, for /export."""
        return f"{self._chat(chat_id)}:record:{thread_id or 0}"

    def stats(self, chat_id: int) -> str:
        return f"{self._chat(chat_id)}:stats"

    def counted(self, chat_id: int) -> str:
        """Ids of the last games added to the stats, by when (so none counts twice)."""
        return f"{self._chat(chat_id)}:counted"

    def ratings(self, chat_id: int, variant: str) -> str:
        """The chat's ratings of one variant (a hash by user id; no TTL, see Scores.add_ratings)."""
        return f"{self._chat(chat_id)}:rating:{variant}"

    def rating_seen(self, chat_id: int, variant: str) -> str:
        """The rated people of one variant by their last rated game (the oldest go first)."""
        return f"{self._chat(chat_id)}:rating:{variant}:seen"

    def rated(self, chat_id: int) -> str:
        """Ids of the chat's last rated games, by when (so none is rated twice)."""
        return f"{self._chat(chat_id)}:rated"

    def rating_changes(self, chat_id: int) -> str:
        """What each of those games changed (a hash by game id), for its final table."""
        return f"{self._chat(chat_id)}:rated:changes"

    def chat_language(self, chat_id: int) -> str:
        return f"{self._chat(chat_id)}:lang"

    def topic(self, chat_id: int, thread_id: int) -> str:
        """A forum topic's name, as its last forum_topic_created / _edited said."""
        return f"{self._chat(chat_id)}:topic:{thread_id}"

    def subscribers(self, chat_id: int, thread_id: int | None) -> str:
        """Who asked (/notify) to be called when a game opens there: user id -> language."""
        return f"{self._chat(chat_id)}:notify:{thread_id or 0}"

    def called(self, chat_id: int, thread_id: int | None, game_id: str) -> str:
        """How many subscribers a lobby called (its lobby message says so)."""
        return f"{self._chat(chat_id)}:called:{thread_id or 0}:{game_id}"

    def hints(self, chat_id: int, thread_id: int | None, game_id: str) -> str:
        """The hints a practice game's person was shown, by game version (a hash: asking
        twice for the same move shows the same hint and counts once)."""
        return f"{self._chat(chat_id)}:hints:{thread_id or 0}:{game_id}"

    def board_turn(self, chat_id: int) -> str:
        """The bucket that the chat's board calls, every topic's, take a token of (see
        bot.delivery.group.plan.board_turn)."""
        return f"{self._chat(chat_id)}:board-turn"

    def table_seated(self, chat_id: int, thread_id: int | None, game_id: str) -> str:
        """Who took a seat from the live table or opened it at his seat (a set of user ids):
        such a seat stays his when his private chat refuses the bot (bot.game.play_rules)."""
        return f"{self._chat(chat_id)}:table-seated:{thread_id or 0}:{game_id}"

    def table_presence(self, chat_id: int) -> str:
        """Who has the live table open, a sorted set by when that lapses (each process
        renews its own), and who went back to his private chat's buttons meanwhile (see
        bot.storage.presence)."""
        return f"{self._chat(chat_id)}:table-presence"

    def table_presence_tag(self, chat_id: int) -> str:
        """A tag the chat's presence gets anew whenever someone arrives, leaves or goes
        back to the buttons: read with the chat's records, it tells a process whether
        what it read of the presence before still holds (bot.storage.presence)."""
        return f"{self._chat(chat_id)}:table-presence-tag"

    def table_feed(self, chat_id: int) -> str:
        """The pub/sub channel that tells every process of the chat's committed changes (in
        the chat's slot: a Redis Cluster carries it as a sharded channel)."""
        return f"{self._chat(chat_id)}:table-feed"

    def table_game(self, game_id: str) -> str:
        """Where a game is played, by its id (the live table's start parameter names it)."""
        return f"{self.prefix}:table-game:{game_id}"

    def user(self, user_id: int) -> str:
        """A person's preferences as earlier releases kept them (one JSON text): read, and
        carried over into `user_prefs` (see bot.storage.prefs)."""
        return f"{self.prefix}:{{u{user_id}}}:user"

    def user_prefs(self, user_id: int) -> str:
        """A person's preferences, a hash field each (language, private chat opened)."""
        return f"{self.prefix}:{{u{user_id}}}:prefs"

    def user_games(self, user_id: int) -> str:
        """The games that seat a person (a hash: chat and topic -> game id), a hint
        checked against each match when read (see bot.storage.user_games)."""
        return f"{self.prefix}:{{u{user_id}}}:games"

    def process(self, process_id: str) -> str:
        """A running bot process's heartbeat (see bot.delivery.liveness)."""
        return f"{self.prefix}:proc:{process_id}"

    def update(self, update_id: int) -> str:
        """Set for a few minutes once a process took the update up (see bot.storage.updates)."""
        return f"{self.prefix}:update:{update_id}"

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

    def chat_pattern(self, chat_id: int) -> str:
        """A SCAN pattern for every key of the chat."""
        return f"{_glob_escape(self._chat(chat_id))}:*"

    def game_pattern(self, chat_id: int) -> str:
        """A SCAN pattern for the chat's game keys (one a topic)."""
        return f"{_glob_escape(self._chat(chat_id))}:game:*"

    def moved(self, key: str, old_chat_id: int, new_chat_id: int) -> str:
        """What a key of `old_chat_id` is called once the chat is `new_chat_id`."""
        old = self._chat(old_chat_id) + ":"
        if not key.startswith(old):
            raise ValueError(f"{key!r} is not a key of chat {old_chat_id}")
        return f"{self._chat(new_chat_id)}:{key.removeprefix(old)}"

    def parse_game(self, key: str) -> tuple[int, int | None]:
        """(chat id, thread id) back from a game key."""
        head, _, thread = key.rpartition(":game:")
        chat = head.rpartition("{c")[2].rstrip("}")
        return int(chat), (int(thread) or None)

    def answer(self, chat_id: int, thread_id: int | None, command: str) -> str:
        """The group's last answer to a command (message id, what it shows), for a short
        while: a repeat of the command then re-uses it (see bot.handlers.repeats)."""
        return f"{self._chat(chat_id)}:answer:{thread_id or 0}:{command}"

    def answer_extra(self, chat_id: int, thread_id: int | None, command: str) -> str:
        """Set once a repeat spent the one extra call (an edit or a note) of the window."""
        return f"{self._chat(chat_id)}:answer:{thread_id or 0}:{command}:extra"


def _glob_escape(text: str) -> str:
    """`text` matched literally in a SCAN pattern."""
    for special in "\\*?[]":
        text = text.replace(special, "\\" + special)
    return text
