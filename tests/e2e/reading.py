"""Reading every message a game left, as a player would: what each chat holds at the end,
and every keyboard and caption the bot ever sent (from the fake Bot API's call log).

The checks here are the rules of issue "Players II": a message that is no longer true
was edited or deleted; one live hand per player at most; every open end has one name,
the same in every button and caption, and no two open ends share one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bot.render import end_names
from bot.telegram.callbacks import EndPress
from engine import Game, Table, Tile
from tests.bot.telegram.test_texts_sent import GENDER_SUFFIX, NOTATION, texts_in
from tests.fakebotapi import FakeBotApi
from tests.fakebotapi.views import Button, MessageView
from tests.support.buttons import of_kind, press_of

# What only the live hand of the seat to act, or the board of a game being played, may say.
YOUR_MOVE = re.compile(r"Ваш ход|Your move")
WHOSE_TURN = re.compile(r"Ходит:|Turn:|▶")
# Words the players' texts must not use (issue "Players II", point 5).
OLD_WORDS = re.compile(
    r"⏳[^\n]*\d с на ход"  # a clock line must say the time left («осталось 85 с»)
    r"|\b(?:1[2-9]\d|[2-9]\d\d) с\b"  # two minutes and more read as minutes
    r"|проиграть заново|domino-replay|спиннер"
)
# An end's name: a colour and an arrow; a line of them, «🔵⬅️ 6 · 🟠➡️ 1».
END_NAME = re.compile(r"([🔵🟠⚪⚫])([⬅➡⬆⬇]️)")
ENDS_LINE = re.compile(r"(?:[🔵🟠⚪⚫][⬅➡⬆⬇]️ \d(?: · |$))+")
ENDS_WORD = re.compile(r"Концы: |Ends: ")  # the hand's caption lists the ends after it


def bot_messages(api: FakeBotApi, chat: int) -> list[MessageView]:
    return api.messages(chat, from_bot=True)


def contents(message: MessageView) -> str:
    """Everything a person reads on a message: its text or caption, and its buttons."""
    return "\n".join([message.content, *(b.text for b in message.buttons)])


def claims_a_turn(message: MessageView) -> bool:
    return bool(YOUR_MOVE.search(contents(message)) or WHOSE_TURN.search(message.content))


def all_texts(api: FakeBotApi) -> list[str]:
    """Every text, caption and button label the bot sent or edited in, in any chat."""
    found: list[str] = []
    for call in api.calls():
        found += texts_in(call.params)
        found += [button.text for button in sent_buttons(call.params)]
    return found


def check_words(api: FakeBotApi) -> None:
    """Nothing shown reads like the record or uses words the players found wrong."""
    shown = all_texts(api)
    assert len(shown) > 10
    bad = [t for t in shown if NOTATION.search(t) or GENDER_SUFFIX.search(t) or OLD_WORDS.search(t)]
    assert bad == [], bad[:5]


def sent_buttons(params: dict[str, Any]) -> Iterator[Button]:
    """The inline buttons a call sent (a new message, an edit of its markup or media)."""
    markup = params.get("reply_markup")
    if isinstance(markup, str):
        try:
            markup = json.loads(markup)
        except ValueError:
            return
    if not isinstance(markup, dict):
        return
    for row in markup.get("inline_keyboard", []):
        for raw in row:
            yield Button(raw.get("text", ""), raw.get("callback_data"), raw.get("url"))


# -- the ends' names, against the game's own record -----------------------------------


@dataclass(frozen=True)
class Position:
    variant: str
    table: Table


def positions(record: dict[str, Any]) -> dict[int, Position]:
    """The table at each version of the recorded game (the version a hand button carries)."""
    game = Game.empty(record["variant"], record["players"], record.get("target"))
    found: dict[int, Position] = {}
    for deal in record["rounds"]:
        hands = [[Tile.parse(t) for t in hand] for hand in deal["hands"]]
        game.start_round(deal["starter"], hands, [Tile.parse(t) for t in deal["boneyard"]])
        for text in deal["moves"]:
            found[game.version] = Position(game.variant, game.round.table.copy())
            game.push(game.parse_move(text))
    return found


def check_end_names(api: FakeBotApi, record: dict[str, Any]) -> int:
    """Every end-choice button the bot ever sent names its end as the one module does for
    that position, and no two buttons of a keyboard (or ends of a caption line) share a
    name. Returns how many end buttons were read (a game may have needed none)."""
    at = positions(record)
    read = 0
    for call in api.calls():
        buttons = list(sent_buttons(call.params))
        ends = of_kind(buttons, EndPress)
        labels = [END_NAME.search(b.text) for b in ends]
        assert len({m.group(0) for m in labels if m}) == len(ends), [b.text for b in ends]
        for button in ends:
            press = press_of(button)
            assert isinstance(press, EndPress)
            position = at[press.hand.version]
            name = end_names(position.table, position.variant)[press.end]
            assert button.text.startswith(name.text + " "), (button.text, name.text)
            read += 1
        for text in texts_in(call.params):
            for line in text.splitlines():
                if ENDS_LINE.fullmatch(line) or ENDS_WORD.search(line):
                    names = END_NAME.findall(line)
                    assert len(set(names)) == len(names), line
    return read
