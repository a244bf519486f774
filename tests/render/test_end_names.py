"""Ends are named by the arrow the board picture shows at them: in the end buttons, the
several-doubles picker, the board caption and the hint, so that what a player taps is
what he sees (after a corner an end's next tile no longer goes its own way)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.game.hints import Hint, Reason
from bot.i18n import translator
from bot.render.captions import board_text
from bot.render.history import arrows_before
from bot.render.layout import board_layout, end_arrows
from bot.render.words import EMOJI_ARROWS, play_words
from bot.storage.models import Match
from bot.telegram import keyboards
from bot.telegram.hint_texts import hint_line
from engine import Doubles, End, Game, Play, SeatView, view_for
from engine.table import Table

TR = translator("ru")


def positions(variant: str, games: int = 5) -> Iterator[SeatView]:
    """The seat to act's view at every turn of random games (tables that turn corners)."""
    for seed in range(games):
        game = Game.new(variant, ["Андрей", "Ирина"], seed)
        rng = random.Random(seed)
        while not game.over:
            turn = game.turn
            assert turn is not None
            yield view_for(game, turn)
            legal = game.legal_moves()
            plays = [m for m in legal if isinstance(m, Play | Doubles)]
            game.push(rng.choice(plays or list(legal)))


def mark_directions(view: SeatView) -> dict[End, End]:
    layout = board_layout(view.table, lanes=view.variant == "twolane")
    return {mark.end: mark.direction for mark in layout.marks}


def test_each_end_is_named_by_its_marks_arrow_unless_two_would_read_alike() -> None:
    turned = kept = 0
    for variant in ("fives", "muggins", "twolane"):
        for view in positions(variant):
            if view.table.opening is None:
                continue
            arrows = end_arrows(view.table, lanes=variant == "twolane")
            marks = mark_directions(view)
            values = dict(view.table.ends)
            assert set(arrows) == set(values)
            named = [(arrows[end], value) for end, value in values.items()]
            assert len(set(named)) == len(named), (view.table.ends, arrows)  # never alike
            for end in values:
                if arrows[end] == marks[end]:
                    turned += arrows[end] is not end
                else:  # only to keep two ends apart: its own name
                    assert arrows[end] is end
                    kept += 1
    assert turned > 20  # the test sees corners
    assert kept < turned


def test_the_end_buttons_and_the_caption_use_the_pictures_arrows() -> None:
    checked = 0
    for view in positions("fives", games=6):
        arrows = end_arrows(view.table)
        values = dict(view.table.ends)
        ends_line = " · ".join(f"{EMOJI_ARROWS[arrows[end]]} {v}" for end, v in values.items())
        if values:
            assert ends_line in board_text(view, TR)
        by_tile: dict[object, list[Play]] = {}
        for move in view.legal:
            if isinstance(move, Play) and move.end is not None:
                by_tile.setdefault(move.tile, []).append(move)
        match = Match(id="abcd1234", chat_id=-100, creator_id=1)
        for tile, plays in by_tile.items():
            if len({p.end for p in plays}) < 2:
                continue
            markup = keyboards.ends_for(match, view, tile, TR)
            labels = [b.text for b in markup.inline_keyboard[0]]
            expected = [
                keyboards.END_LABELS[arrows[p.end]].format(value=values[p.end])
                for p in plays
                if p.end is not None
            ]
            assert labels == expected
            assert len(set(labels)) == len(labels)
            checked += 1
    assert checked > 5


def test_a_hint_names_its_end_as_the_button_does() -> None:
    view = next(
        v
        for v in positions("fives", games=40)
        if any(end_arrows(v.table)[e] is not e for e, _ in v.table.ends)
    )
    arrows = end_arrows(view.table)
    end = next(e for e, _ in view.table.ends if arrows[e] is not e)
    value = dict(view.table.ends)[end]
    hint = Hint(Play(view.hand[0], end), Reason.ONLY_TILE, end=end, end_value=value)
    # The names as the hint's caller gives them: each end's arrow as its button shows it.
    names = {e: EMOJI_ARROWS[arrow] for e, arrow in keyboards.shown_ends(view).items()}
    line = hint_line(TR, hint, names)
    assert f"на {EMOJI_ARROWS[arrows[end]]} {value}" in line
    assert EMOJI_ARROWS[end] not in line


def test_past_moves_are_named_by_the_arrows_the_picture_showed_before_them() -> None:
    """The caption's last move and the group's «since the last picture» list say where a
    tile went as the picture (and the buttons) named that end then."""
    turned = 0
    for variant in ("fives", "muggins", "twolane"):
        for seed in range(6):
            game = Game.new(variant, ["Андрей", "Ирина"], seed)
            rng = random.Random(seed)
            tables: list[Table] = []  # the table before each move of the round
            while not game.over:
                turn = game.turn
                assert turn is not None
                before = view_for(game, turn)
                if not before.moves:
                    tables = []
                tables.append(before.table)
                legal = game.legal_moves()
                plays = [m for m in legal if isinstance(m, Play | Doubles)]
                move = rng.choice(plays or list(legal))
                game.push(move)
                rnd = game.rounds[before.round_number - 1]
                texts = [entry.text for entry in rnd.moves]
                named = arrows_before(variant, texts)
                lanes = variant == "twolane"
                assert named == [
                    {end: EMOJI_ARROWS[a] for end, a in end_arrows(t, lanes=lanes).items()}
                    for t in tables
                ]
                if not isinstance(move, Play) or move.end is None or rnd.end is not None:
                    continue
                arrow = end_arrows(before.table, lanes=lanes)[move.end]
                turned += arrow is not move.end
                words = play_words(texts[-1], {**EMOJI_ARROWS, move.end: EMOJI_ARROWS[arrow]})
                after = view_for(game, turn)
                assert f": {words}" in board_text(after, TR)
    assert turned > 10  # the test sees moves laid past a corner
