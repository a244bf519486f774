"""The pictures and their text forms, for every game at its start, middle and end."""

from __future__ import annotations

import dataclasses
import io
import itertools
import random
import re

import pytest
from PIL import Image

from bot.render import (
    MESSAGES,
    Picture,
    board_text,
    final_text,
    render_board,
    render_final,
    render_hand,
)
from bot.render.board.status_column import STATUS_WIDTH, count_size
from bot.render.hand.hand_picture import PER_ROW, hand_slots
from bot.render.kit import sprites
from bot.render.layout.board_geometry import PICTURE_HEIGHT, PICTURE_WIDTH
from bot.render.words.captions import CAPTION_LIMIT
from bot.render.words.marks import Mark
from bot.render.words.message_ids import PLURALS
from bot.render.words.rounds import final_order
from bot.render.words.takeover_words import Takeover
from engine.game import Game
from engine.moves import Doubles, Play
from engine.tiles import ALL_TILES
from engine.view import SeatView, view_for
from tests.support.samples import full_table, play, with_table

VARIANTS = ("fives", "muggins", "twolane")
# Seats the computer took over, by seat: one for each reason.
TAKEN: dict[int, Takeover] = {1: "left", 2: "blocked_bot", 3: "missed_turns"}
PLAYERS = ["Андрей", "Ирина", "Ольга", "Вадим"]

# A Russian catalogue of our own, as the product's default language will have.
RUSSIAN = {
    "Fives": "Пятерное домино",
    "Muggins (to 51)": "Пятёрки (до 51)",
    "Two-lane dominoes": "Двухполосное домино",
    "Round {number}": "Раунд {number}",
    "Target: {points}": "Игра до {points}",
    "Turn: {name}": "Ходит {name}",
    "Boneyard: {count}": "Базар: {count}",
    "Tiles": "Кости",
    "Points": "Очки",
    "Penalties": "Штрафы",
    "Ends: {sum}": "Концы: {sum}",
    "Ends count once all four arms are taken": "Концы считаются, когда заняты все четыре луча",
    "double": "дубль",
    "double, once": "дубль — раз",
    "{end} is not counted until a tile lies there": "{end} не считается",
    "computer: left the game": "компьютер: вышел",
    "computer: private chat closed": "компьютер: чат закрыт",
    "computer: 3 turns missed": "компьютер: 3 пропуска",
    "{name}: the bot could not write to the private chat — the computer played the seat on": (
        "{name}: чат закрыт"
    ),
    "{name}: 3 turns missed in a row — the computer played the seat on": "{name}: 3 пропуска",
    "Lane": "Полоса",
    "drew a tile": "взял кость",
    "passed": "пас",
    "Game over": "Игра окончена",
    "Round {number} is over": "Раунд {number} окончен",
    "{name} went out": "{name} вышел",
    "Blocked": "Рыба",
    "Winner: {names}": "Победил {names}",
    "Player {number}": "Игрок {number}",
    "Your tiles": "Ваши кости",
    "Your turn": "Ваш ход",
    "No tile fits: draw": "Нечем ходить: берите",
    "No tile fits: pass": "Нечем ходить: пас",
    "No tile fits: pass, penalty +{points}": "Ходить нечем: пас, штраф +{points}",
    "Standings": "Таблица",
    "Record: {points}": "Запись {points}",
    "Lost": "Проиграл",
    "Rounds played: {count}": "Раундов: {count}",
    "Nobody scores: the fewest pips are shared": "Никто не получает очков",
    "Nobody passed: no penalties": "Штрафов нет",
    "Out of tiles: {names}": "Без костей: {names}",
    "passed, penalty": "пас, штраф",
    "Record: the winner's points minus everyone else's": "Запись: очки победителя минус чужие",
    "Lost: the fewest points when someone reached {points}": "Проиграл: меньше всех очков",
    "✓ ran out of tiles": "✓ без костей",
    "Places: the fewest penalties; then who ran out of tiles first; then the fewest tiles, "
    "then the fewest pips left": "Места",
    "Medals: places by points; equal points share a place": "Медали — места",
    "⊘ blocked: nobody could play": "⊘ рыба",
    "⚑ the round stopped there: someone reached {points}": "⚑ {points}",
    "Left the game: gave the seat up with /leave, so the last place": "Вышел: последний",
    "rating: how much the player's rating in this chat changed": "рейтинг: изменение",
    "Round by round": "По раундам",
    "How the places came about": "Откуда места",
    "Total": "Итого",
    "Passes": "Пасы",
    "Out": "Вышел",
    "Pips": "Очки в руке",
    "rating {change}": "рейтинг {change}",
    "Left the game": "Вышел",
    "{name} left the game: the last place": "{name} вышел: последний",
    "Rounds {first}–{last} are in the picture": "Раунды {first}–{last} на картинке",
    "Round {number} is in the picture": "Раунд {number} на картинке",
    "{name}: +{points} — left in the other hands: {hands}; {division}": (
        "{name}: +{points} — в руках: {hands}; {division}"
    ),
    "{name}: +{points} — the fewest pips in hand ({pips}); the other hands: {hands}; {division}": (
        "{name}: +{points} — меньше всех ({pips}); в руках: {hands}; {division}"
    ),
    "{name}: +{points} — the other hands: {division}": "{name}: +{points} — {division}",
    "{name}: +{points} — the fewest pips in hand ({pips}); the other hands: {division}": (
        "{name}: +{points} — меньше всех ({pips}); {division}"
    ),
    "{pips} ÷ 5 = {points}, the remainder is dropped": "{pips} ÷ 5 = {points}, остаток прочь",
    "{pips} ÷ 5 = {points}": "{pips} ÷ 5 = {points}",
    "+1 point each, the lowest score in the match ({score}): {names}": (
        "+1 каждому со счётом {score}: {names}"
    ),
    "Penalties for passes: {list}": "Штрафы: {list}",
    "{name}: +{points} point for going out": "{name}: +{points} за выход",
    "{name}: +{points} points for going out": "{name}: +{points} за выход",
    "{name}: +{points} point, the lowest score in the match: {score}": (
        "{name}: +{points}, меньше всех: {score}"
    ),
    "{name}: +{points} points, the lowest score in the match: {score}": (
        "{name}: +{points}, меньше всех: {score}"
    ),
    "{name} reached {points} point": "{name}: {points}",
    "{name} reached {points} points": "{name}: {points}",
    "{name}: {count} pass, +{points} penalty points": "{name}: пасов {count}, +{points}",
    "{name}: {count} passes, +{points} penalty points": "{name}: пасов {count}, +{points}",
    "drew {count} tile": "взял костей: {count}",
    "drew {count} tiles": "взял костей: {count}",
}


class Recorder:
    """A `tr` that translates from a dict and remembers every message id asked for."""

    def __init__(self, catalog: dict[str, str]) -> None:
        self.catalog = catalog
        self.asked: set[str] = set()

    def __call__(self, message: str) -> str:
        self.asked.add(message)
        return self.catalog.get(message, message)


def decoded(picture: Picture) -> Image.Image:
    image = Image.open(io.BytesIO(picture.data))
    image.load()
    assert image.format == {"jpeg": "JPEG", "png": "PNG"}[picture.format]
    assert image.size == (picture.width, picture.height)
    # Telegram's photo limits: width + height at most 10000, sides at most 20:1.
    assert picture.width + picture.height <= 10_000
    assert max(picture.width, picture.height) <= 20 * min(picture.width, picture.height)
    assert len(picture.data) < 10 * 1024 * 1024
    return image


def positions(variant: str, players: int = 4) -> dict[str, SeatView]:
    """The states a group sees: start, middle, full table, round over, game over."""
    names = PLAYERS[:players]
    start = Game.new(variant, names, seed=2)
    middle = play(variant, names, seed=3, until=lambda g: len(g.round.table.tiles()) >= 10)
    # A round that ended, before the next one is dealt.
    ended = Game.new(variant, names, seed=4)
    ended.seed = None
    rng = random.Random(4)
    while ended.turn is not None:
        legal = ended.legal_moves()
        plays = [m for m in legal if isinstance(m, Play | Doubles)]
        ended.push(rng.choice(plays or list(legal)))
    # The next round just dealt (the last one's end is shown on the empty table).
    dealt = play(variant, names, seed=5, until=lambda g: g.round.number == 2 or g.over)
    over = play(variant, names, seed=6)
    return {
        "start": view_for(start),
        "middle": view_for(middle),
        "full": with_table(view_for(middle), full_table(variant, "cross", 3)),
        "ended": view_for(ended),
        "dealt": view_for(dealt),
        "over": view_for(over),
    }


@pytest.fixture(scope="module", params=VARIANTS)
def variant(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def views(variant: str) -> dict[str, SeatView]:
    return positions(variant)


def test_boards_render_in_every_state(views: dict[str, SeatView]) -> None:
    tr = Recorder(RUSSIAN)
    for name, view in views.items():
        picture = render_board(view, tr)
        image = decoded(picture)
        assert image.size == (PICTURE_WIDTH, PICTURE_HEIGHT), name
        assert picture.format == "jpeg" and picture.filename == "board.jpg"
        assert len(picture.data) < 200 * 1024, name
    assert tr.asked <= set(MESSAGES)


def test_hands_render_for_every_seat(views: dict[str, SeatView], variant: str) -> None:
    tr = Recorder(RUSSIAN)
    game = play(variant, PLAYERS, seed=3, until=lambda g: len(g.round.table.tiles()) >= 10)
    for seat in range(len(PLAYERS)):
        view = view_for(game, seat)
        image = decoded(render_hand(view, tr))
        assert image.width == 1280
    assert tr.asked <= set(MESSAGES)


def test_final_tables_render(views: dict[str, SeatView]) -> None:
    tr = Recorder(RUSSIAN)
    for view in views.values():
        decoded(render_final(view, tr))
    assert tr.asked <= set(MESSAGES)


def test_every_message_id_is_used_and_listed() -> None:
    """MESSAGES is the catalogue the i18n owner works from: no more, no less."""
    tr = Recorder({})
    for variant in VARIANTS:
        for players in (2, 4):
            for view in positions(variant, players).values():
                render_board(view, tr)
                # A rated table where someone left: the rating label and the forfeit;
                # seats the computer took over, each for another reason.
                render_final(view, tr, {0: 12}, {1})
                board_text(view, tr, TAKEN)
                render_board(view, tr, "", TAKEN)
                final_text(view, tr, {0: 12}, {1}, (), TAKEN)
            game = play(
                variant, PLAYERS[:players], seed=8, until=lambda g: len(g.round.table.tiles()) >= 3
            )
            for seat in range(players):
                render_hand(view_for(game, seat), tr)
    # Seen only in rare states, drawn separately below.
    rare = {"Player {number}", "No tile fits: draw", "No tile fits: pass", "Standings", "Blocked"}
    rare |= {"No tile fits: pass, penalty +{points}"}
    # How a round ended, and the plural forms of its points, depend on the deal.
    rare |= {form for pair in PLURALS for form in pair}
    rare |= {"Nobody scores: the fewest pips are shared", "Nobody passed: no penalties"}
    rare |= {"Out of tiles: {names}", "passed, penalty", "drew a tile"}
    # How a round ended, as the deal has it; the shorter forms for a crowded panel,
    # a caption too long for every round.
    rare |= {mark.value for mark in (Mark.BLOCKED, Mark.TARGET, Mark.OUT)}
    rare |= {message for message in MESSAGES if "{division}" in message or "÷" in message}
    rare |= {
        "+1 point each, the lowest score in the match ({score}): {names}",
        "Penalties for passes: {list}",
    }
    rare |= {"Rounds {first}–{last} are in the picture", "Round {number} is in the picture"}
    assert set(MESSAGES) - tr.asked <= rare
    assert tr.asked <= set(MESSAGES)
    assert len(MESSAGES) == len(set(MESSAGES))
    assert set(RUSSIAN) == set(MESSAGES)


def test_translation_is_applied_before_formatting() -> None:
    view = positions("fives")["middle"]
    text = board_text(view, RUSSIAN.__getitem__)
    assert "Раунд " in text and "Базар: " in text and "Очки" in text
    assert "{" not in text


# -- the hand picture -----------------------------------------------------------


def turn_views(variant: str) -> list[SeatView]:
    """Seat views of the player to act, across a game (playing and stuck)."""
    found: list[SeatView] = []
    game = Game.new(variant, PLAYERS[:2], seed=9)
    rng = random.Random(9)
    while not game.over and len(found) < 60:
        if game.turn is not None:
            found.append(view_for(game, game.turn))
        legal = game.legal_moves()
        plays = [m for m in legal if isinstance(m, Play | Doubles)]
        game.push(rng.choice(plays or list(legal)))
    return found


@pytest.mark.parametrize("variant", VARIANTS)
def test_hand_numbers_follow_the_hand_order(variant: str) -> None:
    stuck = 0
    for view in turn_views(variant):
        slots = hand_slots(view)
        assert [s.number for s in slots] == list(range(1, len(view.hand) + 1))
        assert [s.tile for s in slots] == list(view.hand)
        # Reading order: left to right, then the next row below.
        for a, b in itertools.pairwise(slots):
            if (a.number - 1) // PER_ROW == (b.number - 1) // PER_ROW:
                assert b.x > a.x
            else:
                assert b.y > a.y and b.x < a.x
        playable = {
            p.tile
            for m in view.legal
            for p in (m.plays if isinstance(m, Doubles) else (m,) if isinstance(m, Play) else ())
        }
        for slot in slots:
            assert slot.playable == (slot.tile in playable)
            assert slot.dimmed == (slot.tile not in playable)
        if not playable:
            stuck += 1
        decoded(render_hand(view, RUSSIAN.get))  # type: ignore[arg-type]
    assert stuck or variant == "muggins"


def test_hand_is_not_marked_out_of_turn() -> None:
    game = play("fives", PLAYERS, seed=3, until=lambda g: len(g.round.table.tiles()) >= 4)
    waiting = next(seat for seat in range(4) if seat != game.turn)
    slots = hand_slots(view_for(game, waiting))
    assert slots and not any(s.playable or s.dimmed for s in slots)


def test_an_onlookers_hand_is_empty_and_nameless() -> None:
    view = view_for(play("fives", PLAYERS, seed=3, until=lambda g: len(g.round.table.tiles()) >= 4))
    assert view.seat is None and hand_slots(view) == []
    decoded(render_hand(view))


def test_a_new_rounds_caption_says_how_the_last_one_ended() -> None:
    view = positions("muggins")["dealt"]
    assert view.table.opening is None and view.last_round is not None
    text = board_text(view, RUSSIAN.__getitem__)
    assert f"Раунд {view.round_number - 1} окончен" in text


def test_a_big_hand_wraps_into_rows() -> None:
    view = view_for(Game.new("fives", PLAYERS[:2], seed=1), 0)
    big = dataclasses.replace(view, hand=tuple(reversed(ALL_TILES))[:22], legal=())
    slots = hand_slots(big)
    assert len({s.y for s in slots}) >= 2
    image = decoded(render_hand(big))
    assert all(s.x >= 0 and s.x + 72 <= image.width and s.y + 144 <= image.height for s in slots)


# -- text forms -----------------------------------------------------------------


def test_board_text_says_turn_scores_and_the_count(
    views: dict[str, SeatView], variant: str
) -> None:
    for name, view in views.items():
        text = board_text(view, RUSSIAN.__getitem__)
        assert len(text) <= CAPTION_LIMIT
        for seat, player in enumerate(view.players):
            assert player in text
            assert f"Очки: {view.totals[seat]}" in text or f"Штрафы: {view.totals[seat]}" in text
        if view.turn is not None:
            assert f"Ходит <b>{view.players[view.turn]}</b>" in text
        terms = view.count_terms
        if terms and len(terms) > 1:
            # Each counted end by its name, a double as it counts, then the sum.
            line = next(line for line in text.splitlines() if line.startswith("Концы: "))
            assert line.endswith(f" = {sum(terms)}"), (name, line)
            parts = [p for p in view.rules.count_parts(view.table) or () if p.counted]
            assert line.count(" + ") == len(parts) - 1, (name, line)
        if view.variant == "fives" and view.table.opening is not None and terms is None:
            assert "Концы считаются" in text


def test_final_text_names_places_points_record_and_losers(variant: str) -> None:
    view = view_for(play(variant, PLAYERS, seed=6))
    assert view.over
    text = final_text(view, RUSSIAN.__getitem__)
    assert len(text) <= CAPTION_LIMIT
    assert "Игра окончена" in text
    for seat in final_order(view):
        assert f"{view.standings.places[seat]}. {view.players[seat]}" in text
        assert f": {view.totals[seat]}" in text
    record = view.standings.record
    # The record is shown only as a margin above zero.
    assert ("Запись" in text) == (record is not None and record > 0)
    if view.standings.losers:
        assert "Проиграл" in text
    if variant == "twolane":  # a single round: no round count
        assert "Раундов" not in text
    else:
        assert f"Раундов: {len(view.finished_rounds)}" in text


def test_texts_escape_names_and_stay_short() -> None:
    names = ["<b>&" + "Очень длинное имя " * 10, "Ирина 🎉", "Ольга", "a" * 64]
    game = play("fives", names, seed=3, until=lambda g: len(g.round.table.tiles()) >= 6)
    for text in (board_text(view_for(game)), final_text(view_for(game))):
        assert len(text) <= CAPTION_LIMIT
        assert "<b>&" not in text and "&lt;b&gt;&amp;" in text
        assert "Ирина 🎉" in text  # emoji are fine in captions
        # Only our own bold tags are markup.
        assert set(re.findall(r"</?[a-z]+>", text)) <= {"<b>", "</b>"}


def test_fives_count_message_until_all_arms_are_taken() -> None:
    game = play("fives", PLAYERS, seed=3, until=lambda g: len(g.round.table.tiles()) >= 1)
    view = view_for(game)
    assert view.count_terms is None
    assert "Ends count once all four arms are taken" in board_text(view)
    decoded(render_board(view))


# -- odd names --------------------------------------------------------------------


def test_odd_names_render() -> None:
    names = ["🦊🦊", "Ирина 🎉👨‍👩‍👧", "W" * 80, "王小明"]
    for variant in VARIANTS:
        game = play(variant, names, seed=3, until=lambda g: len(g.round.table.tiles()) >= 5)
        for render in (render_board, render_final):
            decoded(render(view_for(game), RUSSIAN.__getitem__))
        decoded(render_hand(view_for(game, 0), RUSSIAN.__getitem__))


def test_sprites_are_drawn_once_and_reused() -> None:
    view = positions("fives")["full"]
    render_board(view)
    before = sprites.tile.cache_info()
    render_board(view)
    after = sprites.tile.cache_info()
    assert after.misses == before.misses
    assert after.hits - before.hits == len(view.table.placements())


def test_the_longest_count_fits_without_cutting() -> None:
    """muggins doubles count both halves: 12 + 12 + 12 + 12 = 48 is the longest sum."""
    from bot.render.kit.draw import length

    arithmetic = "12 + 12 + 12 + 12 = 48"
    for label in ("Ends: {sum}", RUSSIAN["Ends: {sum}"]):
        before, _, after = label.partition("{sum}")
        size = count_size(before, arithmetic, after, STATUS_WIDTH)
        assert size is not None, label
        width = length(before, size - 4) + length(arithmetic, size, True) + length(after, size - 4)
        assert width <= STATUS_WIDTH, label
    # A label too long for one line goes above the sum, which still fits whole.
    assert count_size("Сумма всех открытых концов: ", arithmetic, "", 562) is None
    assert count_size("", arithmetic, "", STATUS_WIDTH) is not None
    long_label = {**RUSSIAN, "Ends: {sum}": "Сумма всех открытых концов на столе: {sum}"}
    view = positions("muggins")["full"]
    decoded(render_board(view, long_label.__getitem__))
