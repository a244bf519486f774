"""What people receive in whole games: no record notation, no English in a Russian chat.

The harness records every call the bot makes; every text, caption and button label
in them is read, whichever method carried it (messages, edits, media, answers).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.bot.conftest import Harness, Table

# The record's way of writing a play: «6:2@E», «3:3@W+2:2@E».
NOTATION = re.compile(r"\d:\d\s*@\s*[WENS]|@[WENS]\b")
GENDER_SUFFIX = re.compile(r"\((а|а|ла)\)|него/неё")
TEXT_KEYS = {"text", "caption"}


def texts_in(value: Any, key: str = "") -> Iterator[str]:
    """Every text or caption in a call's parameters, nested ones (media, markup) included."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped[:1] in "[{":
            try:
                yield from texts_in(json.loads(stripped), key)
                return
            except ValueError:
                pass
        if key in TEXT_KEYS:
            yield value
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from texts_in(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from texts_in(item, key)


def sent_texts(h: Harness) -> list[str]:
    found = []
    for call in h.api.calls():
        found += texts_in(call.params)
    return found


async def play_for_a_while(h: Harness, table: Table, turns: int) -> None:
    """The people play `turns` moves (computers play theirs), then the game is played out."""
    for _ in range(turns):
        game = await table.game()
        if game.status != "playing":
            return
        # Who acts, from the same read as the version (a computer may move meanwhile).
        turn = game.game().turn
        user = None if turn is None else game.match.seats[turn].user_id
        if user is None:  # a computer's turn: wait until it has moved
            version = game.version

            async def moved(before: int = version) -> bool:
                now = await table.game()
                return now.status != "playing" or now.version != before

            await h.until(moved, "the computer's move", timeout=30)
            continue
        await h.play_any(user, game.version)
    if (await table.game()).status == "playing":
        await h.finish(table.chat, timeout=60)
    await h.settle()


@pytest.mark.parametrize("variant", ["fives", "muggins", "twolane"])
async def test_no_record_notation_reaches_people(h: Harness, variant: str) -> None:
    table = await h.table(variant, computers="e")
    await play_for_a_while(h, table, 14)
    texts = sent_texts(h)
    assert len(texts) > 20
    # The moves were shown, each end by its name: its colour and its arrow.
    assert any(re.search(r"\d:\d (🔵|🟠|⚪|⚫)(⬅️|➡️|⬆️|⬇️)", text) for text in texts)
    leaked = [text for text in texts if NOTATION.search(text)]
    assert leaked == []


@pytest.mark.parametrize("variant", ["fives", "twolane"])
async def test_a_russian_chat_reads_russian_only(h: Harness, variant: str) -> None:
    table = await h.table(variant, computers="s")
    await play_for_a_while(h, table, 8)
    texts = sent_texts(h)
    assert any("Компьютер 1" in text for text in texts)
    assert [text for text in texts if "Computer" in text] == []
    assert [text for text in texts if GENDER_SUFFIX.search(text)] == []
    if variant == "twolane":  # a single round: never «кон»
        assert [text for text in texts if re.search(r"\b[Кк]он\b|\bкона\b", text)] == []


async def test_computer_names_follow_the_chats_language(h: Harness) -> None:
    """A computer added while the chat spoke English is «Компьютер» once it speaks Russian."""
    table = await h.table("fives", start=False)
    andrey = table.users[0]
    await h.say(andrey, table.chat, "/lang en")
    await h.lobby_settled(table.chat)
    answer = await h.lobby_button(andrey, table.chat, table.lobby, "ce")
    assert not answer.show_alert, answer
    await h.say(andrey, table.chat, "/lang ru")
    await h.lobby_settled(table.chat)
    lobby = (await h.game(table.chat)).match
    computer = lobby.seats[-1]
    assert (computer.kind, computer.number, computer.name) == ("computer", 1, "")  # no words
    await h.wait(
        lambda api: "🤖 Компьютер 1" in api.message(table.chat, table.lobby.id).content,
        "the lobby in Russian",
    )
    await table.start()
    board = await table.board_caption("Компьютер 1")
    assert "Computer" not in (board.caption or "")
