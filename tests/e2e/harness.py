"""What every end-to-end game must show, read from the fake Bot API: the boards, the final
table against an engine replay of the exported record, the ratings.

The bot process, the players and the keyboards are in tests/support (the benches use them
too).
"""

from __future__ import annotations

import json
import re
from typing import Any

from engine import replay, summary
from tests.fakebotapi import FakeBotApi
from tests.fakebotapi.views import MessageView
from tests.support.buttons import hand_buttons, tiles_on
from tests.support.players import final_message

ROUND = re.compile(r"(?:Кон|Round) (\d+)")


def round_of(message: MessageView) -> int:
    found = ROUND.search(message.caption or message.text or "")
    return int(found.group(1)) if found else 1


def board_messages(api: FakeBotApi, group: int) -> list[MessageView]:
    """The group's board pictures (photos with the "My tiles" button, or finished ones)."""
    final = final_message(api, group)
    return [
        m
        for m in api.messages(group, from_bot=True)
        if m.photo is not None and (final is None or m.id != final.id)
    ]


def final_totals(text: str) -> dict[str, int]:
    """`{name: number}` from lines like «1. Андрей — Очки: 27»."""
    found: dict[str, int] = {}
    for line in text.splitlines():
        match = re.match(r"^\d+\. (.+?) — [^:]+: (-?\d+)", line)
        if match:
            found[match.group(1)] = int(match.group(2))
    return found


def export_record(api: FakeBotApi, user: int, group: int, timeout: float = 10.0) -> dict:
    sent = api.send_text(user, group, "/export")
    document = api.wait_message(
        group, after=sent, where=lambda m: m.document is not None, timeout=timeout
    )
    return json.loads(document.document)


def check_finished_game(
    api: FakeBotApi,
    group: int,
    people: dict[int, str],
    final: MessageView,
    lobby_id: int,
    extra_boards: int = 0,
    export_timeout: float = 10.0,
) -> dict[str, Any]:
    """What every finished game must show; returns its exported record.

    `extra_boards`: how many boards more than one a round the group may hold. A board
    being posted when the bot was killed (or timed out, or met Redis gone) may have
    reached Telegram without the bot noting it; it is posted again, so that round has a
    second board (the first one left as it was).
    """
    record = export_record(api, next(iter(people)), group, export_timeout)
    replayed = summary(replay(record))
    assert replayed["finished"]
    rounds = len(record["rounds"])

    # One board picture per round, edited in place; then the final table. Each board
    # ends showing how its round ended. (How often it was edited depends on the pace:
    # a scripted player can finish a round before the group's next call is allowed,
    # and the board then goes out showing the round's end.)
    boards = board_messages(api, group)
    described = [(b.id, b.edit_count, b.caption) for b in boards]
    assert rounds <= len(boards) <= rounds + extra_boards, described
    last_of_round = {round_of(board): board for board in boards}
    assert sorted(last_of_round) == list(range(1, rounds + 1)), described
    for number, board in last_of_round.items():
        caption = board.caption or ""
        assert f"Кон {number} окончен" in caption or "Игра окончена" in caption, (number, caption)
    assert lobby_id not in {m.id for m in api.messages(group)}  # the lobby made way for the game

    # The final table shows the scores an engine replay of the record gives.
    shown = final_totals(final.caption or "")
    players = record["players"]
    assert shown == dict(zip(players, replayed["totals"], strict=True))

    # Each hand reached only its owner: every tile on a player's buttons was dealt to
    # him in that round or lay in the boneyard (which he drew from).
    for user, name in people.items():
        seat = players.index(name)
        for message in api.messages(user, from_bot=True):
            tiles = tiles_on(hand_buttons(message))
            if not tiles:
                continue
            deal = record["rounds"][round_of(message) - 1]
            own = {_code(t) for t in deal["hands"][seat] + deal["boneyard"]}
            assert tiles <= own, (user, message.caption)
    # Nothing of a hand ever went to the group.
    assert not any(hand_buttons(m) for m in api.messages(group))

    return record


def _code(tile: str) -> str:
    a, b = (int(x) for x in tile.split(":"))
    return f"{max(a, b)}{min(a, b)}"


NEWCOMER_RATING = 1000  # what a newcomer's rating shows (docs/rules.md, "Ratings")
RATING_CHANGE = re.compile(r"^(\d+)\. (.+?) — .* · рейтинг ([+−]\d+|0)$")


def final_rating_changes(caption: str) -> dict[str, tuple[int, int]]:
    """`{name: (place, change)}` from lines like «1. Андрей — Очки: 27 · рейтинг +136»."""
    found: dict[str, tuple[int, int]] = {}
    for line in caption.splitlines():
        match = RATING_CHANGE.match(line)
        if match:
            change = int(match.group(3).replace("−", "-"))
            found[match.group(2)] = (int(match.group(1)), change)
    return found


def check_ratings_moved(
    api: FakeBotApi, group: int, people: dict[int, str], final: MessageView
) -> None:
    """A finished match of newcomers only, all people: the final table shows each one's
    rating change, up for the winner and down for the loser (alike for a shared place),
    and /top in the group lists them, best first, with those ratings."""
    changes = final_rating_changes(final.caption or "")
    assert set(changes) == set(people.values()), final.caption
    by_place = sorted(changes.items(), key=lambda item: (item[1][0], item[0]))
    places = [place for _, (place, _) in by_place]
    rows = []
    if len(set(places)) == 1:  # a shared place moves equal newcomers alike
        assert len({change for _, (_, change) in by_place}) == 1, final.caption
    else:
        assert places == sorted(set(places)), final.caption  # no shared place among them
        assert by_place[0][1][1] > 0 > by_place[-1][1][1], final.caption
    for row, (name, (place, change)) in enumerate(by_place, start=1):
        wins = "1 победа" if place == 1 else "0 побед"
        rows.append(f"{row}. {name} — {NEWCOMER_RATING + change} · 1 игра, {wins}")
    sent = api.send_text(next(iter(people)), group, "/top")
    top = api.wait_message(group, after=sent, contains="Лучшие игроки чата")
    assert [r for r in top.content.splitlines() if re.match(r"^\d+\. ", r)] == rows, top.content
