"""A seat given up with /leave is last and never the winner, whatever the computer made
of it: in the standings the bot shows, the final table, the private result, the stats
and the ratings."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.game import forfeits, ratings
from bot.render import Mark, final_layout, final_text
from bot.storage.models import Match, Seat
from engine import Game, view_for
from engine.view import SeatView
from tests.bot.conftest import Harness, position
from tests.bot.delivery.test_lifecycle import TAKEN_OVER, hand_messages, hands_say

PLAYERS = ["Андрей", "Ирина", "Ольга", "Вадим"]


def finished(variant: str, players: int, seed: int) -> SeatView:
    game = Game.new(variant, PLAYERS[:players], seed=seed)
    rng = random.Random(seed)
    while not game.over:
        game.push(rng.choice(game.legal_moves()))
    return view_for(game)


def views(variant: str) -> list[SeatView]:
    return [finished(variant, players, seed) for players in (2, 3, 4) for seed in range(8)]


@pytest.mark.parametrize("variant", ["fives", "muggins", "twolane"])
def test_the_winner_who_left_is_last_and_the_others_keep_their_order(variant: str) -> None:
    for view in views(variant):
        gone = view.standings.winners[0]
        shown = forfeits.shown_standings(view, {gone})
        staying = [seat for seat in range(len(view.players)) if seat != gone]
        assert gone not in shown.winners
        assert shown.places[gone] == len(view.players) == max(shown.places)
        assert all(shown.places[seat] < shown.places[gone] for seat in staying)
        # The others keep the engine's order among themselves, from the first place.
        for a in staying:
            for b in staying:
                assert (view.standings.places[a] < view.standings.places[b]) == (
                    shown.places[a] < shown.places[b]
                )
        assert min(shown.places[seat] for seat in staying) == 1
        assert shown.winners and all(shown.places[seat] == 1 for seat in shown.winners)
        again = dataclasses.replace(view, standings=shown)
        assert forfeits.shown_standings(again, {gone}) == shown  # applied twice: the same


def test_the_fives_record_counts_every_other_seat_the_left_ones_too() -> None:
    seen = 0
    for view in views("fives"):
        gone = view.standings.winners[0]
        shown = forfeits.shown_standings(view, {gone})
        if len(shown.winners) != 1:
            assert shown.record is None  # a shared win has no record
            continue
        best = shown.winners[0]
        others = sum(view.totals) - view.totals[best]
        assert shown.record == view.totals[best] - others
        # He had the most points: counted among the others', they leave no margin.
        assert shown.record <= 0
        seen += 1
    assert seen


def test_the_muggins_losers_are_found_among_those_who_stayed() -> None:
    seen = 0
    for view in views("muggins"):
        loser = view.standings.losers[0]
        shown = forfeits.shown_standings(view, {loser})
        assert loser not in shown.losers
        behind = [
            seat for seat in range(len(view.players)) if seat != loser and seat not in shown.winners
        ]
        if behind:
            fewest = min(view.totals[seat] for seat in behind)
            assert shown.losers == tuple(s for s in behind if view.totals[s] == fewest)
            seen += 1
        else:  # two players: the one who stayed won, and nobody else lost
            assert shown.losers == ()
    assert seen


def test_nobody_left_changes_nothing_and_everyone_left_wins_nothing() -> None:
    view = finished("fives", 3, 1)
    assert forfeits.shown_standings(view, set()) == view.standings
    assert forfeits.shown_view(view, ()) is view
    everyone = forfeits.shown_standings(view, {0, 1, 2})
    assert everyone.winners == () and len(set(everyone.places)) == 1


def test_the_seats_of_a_match_who_left() -> None:
    match = Match(id="m", chat_id=1, variant="fives", creator_id=1)
    match.seats = [
        Seat(name="Андрей", user_id=1, computer=True, left=True),
        Seat(name="Ирина", user_id=2),
        Seat(name="Компьютер 1", computer=True),
        Seat(name="Ольга", user_id=3, computer=True),  # missed turns: taken over, not left
    ]
    assert forfeits.left_seats(match) == {0}


def test_the_final_table_says_who_left_and_puts_him_last() -> None:
    view = finished("fives", 3, 2)
    gone = view.standings.winners[0]
    shown = forfeits.shown_view(view, {gone})
    text = final_text(shown, lambda m: m, None, {gone})
    name = PLAYERS[gone]
    assert f"{name} left the game: the last place" in text
    assert f"3. {name} — Points: {view.totals[gone]}" in text
    assert f"Winner: {name}" not in text
    layout = final_layout(shown, lambda m: m, None, {gone})
    assert Mark.FORFEIT in layout.marks
    assert any("Left the game: gave the seat up" in line.words for line in layout.footer)


# -- the bot ------------------------------------------------------------------------


async def test_a_leaver_whose_computer_won_is_last_and_told_so(h: Harness) -> None:
    table = await h.table("fives")
    andrey, irina = table.users
    assert (await h.say(andrey, table.chat, "/leave")).text == TAKEN_OVER
    # His seat is far ahead: whatever the last round brings, the computer there wins it.
    ahead = position(
        "fives", ["Андрей", "Ирина"], ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"]
    )
    ahead.totals = [60, 0]
    await h.set_position(table.chat, ahead)
    snap = await h.finish(table.chat)
    engine_game = snap.game()
    assert view_for(engine_game).standings.winners == (0,)  # the engine's: his seat

    final = h.api.message(table.chat, snap.group.final_message_id or 0)
    caption = final.caption or ""
    assert "Победитель: Ирина" in caption
    assert f"1. Ирина — Очки: {engine_game.totals[1]}" in caption
    assert f"2. Андрей — Очки: {engine_game.totals[0]}" in caption
    assert "Андрей — выход из игры: последнее место" in caption

    await hands_say(h, [andrey, irina], "Игра окончена.")
    told = hand_messages(h, andrey)[-1].content
    assert "Вы вышли из игры: последнее место (2 из 2)" in told
    assert "Победитель: Ирина" in told and "Ваше место" not in told
    assert "Ваше место: 1 из 2" in hand_messages(h, irina)[-1].content

    stats = await h.store.scores.stats(table.chat)
    assert (stats[andrey].wins, stats[irina].wins) == (0, 1)
    ranks = ratings.finishing_ranks(snap.match, engine_game)
    assert ranks == [2, 1]
    lines = await h.store.scores.ratings(table.chat, "fives")
    assert lines[irina].wins == 1 and lines[andrey].wins == 0
