"""Ratings: moved once by each finished match of two or more people, shown on the final
table, in /stats and in /top, kept in Redis without a TTL and of bounded size."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from redis.asyncio import Redis

from bot.game import ratings
from bot.game.match_records import Current
from bot.render import signed
from bot.storage import scores as scores_module
from bot.storage.keys import Keys
from bot.storage.models import RatingLine
from bot.storage.store import Store
from engine import view_for
from tests.bot.conftest import Harness

NEWCOMER = ratings.shown(*ratings.newcomer())
CHANGE = re.compile(r"рейтинг ([+−]\d+|0)")


def caption_changes(caption: str) -> dict[str, str]:
    """Each final-table line's name and the rating change it shows."""
    found = {}
    for line in caption.split("\n"):
        change = CHANGE.search(line)
        named = re.match(r"^\d+\. (\S+) — ", line)
        if change and named:
            found[named.group(1)] = change.group(1)
    return found


async def test_a_rated_two_person_match_moves_both_ratings_and_the_final_table_shows_it(
    h: Harness,
) -> None:
    table = await h.table("fives")
    andrey, irina = table.users
    game = await h.finish(table.chat)
    places = view_for(game.game()).standings.places
    lines = await h.store.scores.ratings(table.chat, "fives")
    assert set(lines) == {andrey, irina}
    assert all(line.games == 1 for line in lines.values())
    now = {user: ratings.shown(line.mu, line.sigma) for user, line in lines.items()}
    final = h.api.message(table.chat, game.final_message_id or 0)
    shown = caption_changes(final.caption or "")
    names = {andrey: "Андрей", irina: "Ирина"}
    for user in (andrey, irina):
        assert shown[names[user]] == signed(now[user] - NEWCOMER)
    if places[0] == places[1]:  # a shared place moves equal newcomers alike
        assert now[andrey] == now[irina]
        return
    winner, loser = (andrey, irina) if places[0] < places[1] else (irina, andrey)
    assert now[winner] > NEWCOMER > now[loser]
    assert lines[winner].wins == 1 and lines[loser].wins == 0
    assert shown[names[winner]].startswith("+") and shown[names[loser]].startswith("−")

    top = await h.say(irina, table.chat, "/top")
    assert top.text is not None
    rows = [row for row in top.text.split("\n") if re.match(r"^\d\. ", row)]
    assert rows == [
        f"1. {names[winner]} — {now[winner]} · 1 игра, 1 победа",
        f"2. {names[loser]} — {now[loser]} · 1 игра, 0 побед",
    ]
    stats = await h.say(irina, table.chat, "/stats")
    assert stats.text is not None and "Рейтинг · Пятерное домино" in stats.text
    assert f"1. {names[winner]} — {now[winner]} · 1 игра, 1 победа" in stats.text


async def test_a_match_is_rated_once_when_finished_twice_or_by_two_processes(
    h: Harness, redis_url: str, key_prefix: str
) -> None:
    table = await h.table("muggins")
    game = await h.finish(table.chat)
    before = await h.store.scores.ratings(table.chat, "muggins")
    shown = await ratings.rate_once(h.store.scores, game.match, game.game())

    # Its end looked at again: by the sweeper, by the delivery, by this test.
    await h.service.run_due(table.chat, None)
    assert await ratings.rate_once(h.store.scores, game.match, game.game()) == shown
    assert await h.store.scores.ratings(table.chat, "muggins") == before

    # Another match of the same two, ended in two processes at once: rated once.
    other = game.match.model_copy(update={"id": "second1"})
    clients = [Redis.from_url(redis_url) for _ in range(2)]
    try:
        stores = [Store(client, Keys(key_prefix)) for client in clients]
        results = await asyncio.gather(
            *(ratings.rate_once(store.scores, other, game.game()) for store in stores)
        )
    finally:
        for client in clients:
            await client.aclose()
    assert results[0] == results[1] and results[0]
    after = await h.store.scores.ratings(table.chat, "muggins")
    assert all(line.games == 2 for line in after.values())
    assert after != before


async def test_a_person_alone_with_computers_is_not_rated(h: Harness) -> None:
    table = await h.table("fives", people=1, computers="s")
    game = await h.finish(table.chat)
    assert await h.store.scores.ratings(table.chat, "fives") == {}
    final = h.api.message(table.chat, game.final_message_id or 0)
    assert "рейтинг" not in (final.caption or "")
    answer = await h.say(table.users[0], table.chat, "/top")
    assert answer.text is not None and answer.text.startswith("В этом чате ещё не было игр")


async def test_computers_play_at_a_fixed_rating_and_a_leaver_is_last(h: Harness) -> None:
    table = await h.table("fives", people=2, computers="e")
    game = await h.finish(table.chat)
    match, engine_game = game.match, game.game()
    lines = await h.store.scores.ratings(table.chat, "fives")
    assert set(lines) == set(table.users)  # the computer has no line of its own
    ranks = ratings.finishing_ranks(match, engine_game)
    assert ranks == list(view_for(engine_game).standings.places)

    # Had the best-placed person left with /leave, his seat would count last.
    people = [seat for seat, found in enumerate(match.seats) if found.user_id is not None]
    best = min(people, key=lambda seat: ranks[seat])
    left = match.model_copy(deep=True)
    left.seats[best].left = True
    after = ratings.finishing_ranks(left, engine_game)
    others = [seat for seat in range(len(ranks)) if seat != best]
    assert after is not None and after[best] == len(ranks)  # the last place, his alone
    assert all(after[seat] < after[best] for seat in others)
    # The others keep their order, from the first place (bot.game.forfeits).
    for a in others:
        for b in others:
            assert (ranks[a] < ranks[b]) == (after[a] < after[b])
    assert min(after[seat] for seat in others) == 1


def test_the_shown_number_and_the_computers_strengths() -> None:
    assert ratings.shown(*ratings.newcomer()) == 1000
    assert ratings.shown(25.0 + 25.0, 25.0 / 3) == 2000
    easy, strong = (ratings.shown(*ratings.COMPUTER_RATINGS[level]) for level in ("easy", "strong"))
    assert NEWCOMER < easy < strong


async def test_ratings_have_no_ttl_and_a_bounded_size(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scores_module, "RATED_PEOPLE", 3)
    monkeypatch.setattr(scores_module, "RATED_KEPT", 2)
    chat = -100777

    def compute(
        before: dict[int, RatingLine | None],
    ) -> tuple[dict[int, RatingLine], dict[int, int]]:
        lines = {user: RatingLine(name=str(user), mu=25.0, sigma=8.0, games=1) for user in before}
        return lines, dict.fromkeys(before, 5)

    for number in range(5):
        people = [number * 10 + 1, number * 10 + 2]
        await h.store.scores.add_ratings(chat, "fives", f"g{number}", people, compute)
    lines = await h.store.scores.ratings(chat, "fives")
    assert len(lines) == 3 and {41, 42} <= set(lines)  # the latest stay
    keys = h.store.keys
    for key in (keys.ratings(chat, "fives"), keys.rated(chat), keys.rating_changes(chat)):
        assert await h.store.redis.pttl(key) == -1
    assert await h.store.redis.zcard(keys.rated(chat)) == 2
    assert await h.store.redis.hlen(keys.rating_changes(chat)) == 2
    # A game dropped from the remembered ones is rated again only if it comes back
    # (minutes after its end at most): the kept ones are not.
    assert await h.store.scores.add_ratings(chat, "fives", "g4", [41, 42], compute) == {
        41: 5,
        42: 5,
    }
    assert await h.store.redis.zcard(keys.rated(chat)) == 2


async def test_what_a_rated_game_changed_is_read_back_as_stored(h: Harness) -> None:
    table = await h.table("fives")
    game = await h.finish(table.chat)
    scores = h.store.scores
    changes = await scores.rating_changes(table.chat, game.match.id)
    assert changes is not None and set(changes) == set(table.users)
    assert await ratings.rate_once(scores, game.match, game.game()) == changes  # not again
    assert await scores.rating_changes(table.chat, "never1") is None  # not rated
    assert await scores.rating_changes(table.chat + 1, game.match.id) is None  # another chat's


async def test_the_service_rates_a_match_before_the_delivery_hears_it_ended(h: Harness) -> None:
    table = await h.table("fives")
    service = h.service
    told = service.on_change
    assert told is not None
    seen: list[bool] = []
    rated: list[str] = []
    add_ratings = service.tally.scores.add_ratings

    async def rating(*args: Any) -> dict[int, int]:
        rated.append(args[2])
        return await add_ratings(*args)

    def changed(current: Current, due: int) -> None:
        if current.match.status == "over":
            seen.append(current.match.id in rated)  # rated by the time the delivery hears
        told(current, due)

    service.tally.scores.add_ratings = rating  # type: ignore[method-assign]
    service.on_change = changed
    game = await h.finish(table.chat)
    assert seen == [True]
    final = h.api.message(table.chat, game.final_message_id or 0)
    assert set(caption_changes(final.caption or "")) == {"Андрей", "Ирина"}


async def test_a_final_table_drawn_before_its_match_was_rated_rates_it_then(h: Harness) -> None:
    # The process that ended the match died before it counted it: the final table, drawn
    # by whoever comes next, has the game layer count it (once) and shows the changes.
    table = await h.table("fives")
    service = h.service
    skipped: list[str] = []

    async def died_first(current: Current) -> None:
        skipped.append(current.match.id)

    service.count_if_over = died_first  # type: ignore[method-assign]
    game = await h.finish(table.chat)
    assert skipped and set(skipped) == {game.match.id}  # never counted by the service
    changes = await h.store.scores.rating_changes(table.chat, game.match.id)
    assert changes is not None and set(changes) == set(table.users)
    assert all(line.games == 1 for line in (await h.store.scores.stats(table.chat)).values())
    final = h.api.message(table.chat, game.final_message_id or 0)
    shown = caption_changes(final.caption or "")
    names = dict(zip(table.users, ("Андрей", "Ирина"), strict=True))
    assert shown == {names[user]: signed(change) for user, change in changes.items()}
