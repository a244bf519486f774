"""One name per open end, the same everywhere: the board's marks, the hand picture, every
button, the caption and the history lines. An end is named by its colour (fixed for the
round: W blue, E orange, N white, S black) and an arrow, the way the next tile laid
there will be drawn: no two open ends ever share a name, and the arrow is true."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from bot.game.hints import Hint, Reason
from bot.i18n import translator
from bot.render.board import board_picture as board_module
from bot.render.hand.hand_picture import footer_ends, hand_slots
from bot.render.layout.board_geometry import mark_size
from bot.render.layout.board_layout import board_layout, layout_board
from bot.render.words.captions import board_text
from bot.render.words.ends import EndName, end_names
from bot.storage.models import BoardMessage, GroupDelivery, Match, Seat
from bot.telegram import callbacks, keyboards, texts
from bot.telegram.hint_texts import hint_line
from engine import Doubles, End, Game, Move, Play, SeatView, Tile, view_for
from engine.table import Table

TR = translator("ru")
VARIANTS = ("fives", "muggins", "twolane")
PLAYERS = ["Андрей", "Ирина", "Ольга", "Вадим"]
# The names as the rules promise them (docs/rules.md), written out here on their own.
COLOUR_EMOJI = {End.W: "🔵", End.E: "🟠", End.N: "⚪", End.S: "⚫"}
ARROW_EMOJI = {End.W: "⬅️", End.E: "➡️", End.N: "⬆️", End.S: "⬇️"}
STEP = {End.W: (-1, 0), End.E: (1, 0), End.N: (0, -1), End.S: (0, 1)}


def spoken(name: EndName) -> str:
    """What a text must call an end named `name`: «🔵⬅️»."""
    return COLOUR_EMOJI[name.end] + ARROW_EMOJI[name.direction]


@dataclass
class Step:
    """One move of a random game: the position before it (the seat to act's view),
    the move, and the game after it."""

    before: SeatView
    move: Move
    game: Game


def steps(games: int = 3) -> Iterator[Step]:
    """Every move of random games of each game, with two, three and four players (the
    tables turn corners, the muggins house closes late and early, twolane lanes fold)."""
    for variant in VARIANTS:
        for players in (2, 3, 4):
            for seed in range(games):
                game = Game.new(variant, PLAYERS[:players], seed)
                rng = random.Random(seed * 10 + players)
                while not game.over:
                    turn = game.turn
                    assert turn is not None
                    before = view_for(game, turn)
                    legal = game.legal_moves()
                    plays = [m for m in legal if isinstance(m, Play | Doubles)]
                    move = rng.choice(plays or list(legal))
                    game.push(move)
                    yield Step(before, move, game)


def match_for(view: SeatView) -> Match:
    seats = [Seat(name=name, user_id=i + 1) for i, name in enumerate(view.players)]
    return Match(id="abcd1234", chat_id=-100, creator_id=1, variant=view.variant, seats=seats)  # type: ignore[arg-type]


def test_every_end_has_one_name_in_every_picture_button_and_caption() -> None:
    checked = doubles = turned = 0
    for step in steps(games=2):
        view = step.before
        if view.table.opening is None:
            continue
        values = dict(view.table.ends)
        names = end_names(view.table, view.variant)
        assert list(names) == list(values)
        # No two open ends share a name, whatever their arrows.
        said = [spoken(name) for name in names.values()]
        assert len(set(said)) == len(said), said
        for end, name in names.items():
            assert name.end is end and name.text == spoken(name)
            turned += name.direction is not end
        # The board picture's marks, as drawn.
        marks = board_module.end_marks(view)
        assert {mark.end: name for mark, name in marks} == names
        assert all(mark.end is name.end for mark, name in marks)
        # The hand picture: the marks under each playable tile and the footer.
        for slot in hand_slots(view):
            assert slot.names == tuple(names[end] for end in slot.ends)
        assert footer_ends(view) == tuple((names[end], value) for end, value in values.items())
        # The caption's line of ends.
        line = " · ".join(f"{spoken(names[end])} {value}" for end, value in values.items())
        assert line in board_text(view, TR).split("\n")
        # Every button that names an end: a tile fitting several, the doubles picker.
        match = match_for(view)
        for tile in {m.tile for m in view.legal if isinstance(m, Play) and m.end is not None}:
            plays = [m for m in view.legal if isinstance(m, Play) and m.tile == tile]
            if len(plays) < 2:
                continue
            row = keyboards.ends_for(match, view, tile, TR).inline_keyboard[0]
            assert [b.text for b in row] == [
                f"{spoken(names[p.end])} {values[p.end]}" for p in plays if p.end is not None
            ]
            checked += 1
        if any(isinstance(m, Doubles) for m in view.legal):
            rows = keyboards.doubles(match, view, (), TR).inline_keyboard[:-1]
            for button in (b for row in rows for b in row):
                pressed = callbacks.decode(button.callback_data)
                assert isinstance(pressed, callbacks.DoublesPress) and pressed.picked
                tile, end = pressed.picked[-1]
                assert button.text == f"{spoken(names[end])} {tile}"
                doubles += 1
    assert checked > 50 and doubles > 5
    assert turned > 100  # many ends' arrows are not their own direction


def mark_colours(image_pixel: tuple[int, ...], name: EndName) -> str:
    """Whether a pixel is the disc's colour, the arrow's, or neither."""

    def near(colour: tuple[int, int, int]) -> bool:
        return sum(abs(a - b) for a, b in zip(image_pixel, colour, strict=False)) < 60

    return "disc" if near(name.colour) else "ink" if near(name.ink) else "other"


def test_the_board_draws_each_mark_in_its_ends_colour_pointing_its_arrow() -> None:
    """Read off the picture itself: the disc's colour, and which way the arrow's head is."""
    drawn = 0
    for index, step in enumerate(steps(games=1)):
        view = step.before
        if view.table.opening is None or index % 10:
            continue
        image = board_module.draw_board(view).convert("RGB")
        layout = board_layout(view.table, view.variant)
        d = mark_size(layout.tile)
        for mark, name in board_module.end_marks(view):
            # Off the diagonal no arrow passes: the disc's own colour.
            disc = image.getpixel((mark.x + round(0.25 * d), mark.y + round(0.25 * d)))
            assert mark_colours(disc, name) == "disc", (mark, name, disc)
            # Beside the arrow's line: the head is wide, the tail narrow.
            dx, dy = STEP[name.direction]
            side = (round(0.12 * d) * dy, round(0.12 * d) * dx)
            ahead = (mark.x + round(0.06 * d) * dx, mark.y + round(0.06 * d) * dy)
            behind = (mark.x - round(0.12 * d) * dx, mark.y - round(0.12 * d) * dy)
            head = image.getpixel((ahead[0] + side[0], ahead[1] + side[1]))
            tail = image.getpixel((behind[0] + side[0], behind[1] + side[1]))
            assert mark_colours(head, name) == "ink", (mark, name, head)
            assert mark_colours(tail, name) == "disc", (mark, name, tail)
            drawn += 1
    assert drawn > 300


def test_a_tile_is_drawn_the_way_its_ends_arrow_pointed() -> None:
    """The arrow at an end before a move is the way each tile laid there is drawn after
    it: the spinner, the muggins house as it closes, every double of a doubles move."""
    plays = houses = spinners = 0
    for step in steps():
        move, view = step.move, step.before
        laid_now = (
            move.plays if isinstance(move, Doubles) else (move,) if isinstance(move, Play) else ()
        )
        if view.table.opening is None:
            continue
        after = step.game.rounds[view.round_number - 1].table
        after_layout = board_layout(after, view.variant)
        names = end_names(view.table, view.variant)
        for play in laid_now:
            assert play.end is not None
            box = next(b for b in after_layout.boxes if b.placed.tile == play.tile)
            name = names[play.end]
            assert name.direction is box.travel, (view.variant, move, name, box)
            plays += 1
            spinners += box.hub and view.table.hub is None and view.variant == "fives"
        houses += view.table.hub is None and after.hub is not None and view.variant == "muggins"
    assert plays > 1000
    assert houses > 10 and spinners > 5  # the muggins house closing, the spinner laid


def test_every_arrow_points_to_free_felt() -> None:
    """Issue 28: an end's arrow points away from the line, to where the next tile goes:
    the spot half a tile ahead of its mark, the arrow's way, lies on no tile."""
    checked = 0
    for index, step in enumerate(steps(games=2)):
        view = step.before
        if view.table.opening is None or index % 3:
            continue
        boxes = layout_board(view.table, view.variant)
        for mark, name in board_module.end_marks(view):
            tile = max(max(b.w, b.h) for b in boxes)
            dx, dy = STEP[name.direction]
            x, y = mark.x + dx * tile // 2, mark.y + dy * tile // 2
            for b in boxes:
                assert not (b.x < x < b.x + b.w and b.y < y < b.y + b.h), (view.variant, mark, b)
            checked += 1
    assert checked > 300


def test_a_past_move_is_named_as_its_buttons_named_the_end_just_before_it() -> None:
    """The group's «since the last picture» list and the caption's last move call the end
    a tile went to what the buttons called it when the move was made."""
    from bot.delivery.group.caption import board_caption

    compared = listed = 0
    labels: list[dict[End, str]] = []  # before each move of the round: end -> its button
    for step in steps(games=2):
        view, move, game = step.before, step.move, step.game
        if not view.moves:
            labels = []
        labels.append({end: keyboards.end_label(view, end) for end, _ in view.table.ends})
        if not isinstance(move, Play | Doubles) or view.table.opening is None:
            continue
        number = view.round_number
        entries = game.rounds[number - 1].moves
        after = view_for(game)
        shown = GroupDelivery(board=BoardMessage(round_number=number, shows_actions=0))
        match = match_for(after)
        caption = board_caption(match, game, after, TR, shown, number, finishing=False)
        since = next((line for line in caption.split("\n") if "С прошлой" in line), "")
        last = board_text(after, TR) if game.round.number == number and not game.over else ""
        for index in range(max(0, len(entries) - 3), len(entries)):
            for part in entries[index].text.split("+"):
                tile, _, end = part.partition("@")
                if not end:
                    continue
                name_said = labels[index][End[end]].rsplit(" ", 1)[0]  # «🔵⬅️ 5»: «🔵⬅️»
                if since:
                    assert f"{tile} {name_said}" in since, (since, labels[index])
                    listed += 1
                if last and index == len(entries) - 1:
                    assert f"{tile} {name_said}" in last, (last, labels[index])
                compared += 1
    assert compared > 500 and listed > 300


def test_the_answer_to_a_press_names_the_end_as_its_button() -> None:
    from bot.handlers.buttons import _end_names

    answered = 0
    for step in steps(games=1):
        view, move = step.before, step.move
        if not isinstance(move, Play) or move.end is None:
            continue
        label = keyboards.end_label(view, move.end)
        words = texts.move_words(f"{move.tile}@{move.end}", _end_names(view, move))
        assert words == f"{move.tile} {label.rsplit(' ', 1)[0]}"
        answered += 1
    assert answered > 100


def test_a_hint_names_its_end_as_its_button_does() -> None:
    """The hint is given the names its caller shows on the buttons: colour and arrow."""
    for step in steps(games=2):
        view = step.before
        names = end_names(view.table, view.variant)
        end = next((e for e, n in names.items() if n.direction is not e), None)
        if end is None or not view.hand:
            continue
        value = dict(view.table.ends)[end]
        hint = Hint(Play(view.hand[0], end), Reason.ONLY_TILE, end=end, end_value=value)
        shown = {e: n.text for e, n in keyboards.end_names_for(view).items()}
        line = hint_line(TR, hint, shown)
        assert f"на {spoken(names[end])} {value}" in line
        assert spoken(EndName(end, end)) not in line or names[end].direction is end
        return
    raise AssertionError("no end whose arrow is not its own")


def test_names_never_change_colour_and_an_unknown_table_keeps_its_own_arrows() -> None:
    table = Table()
    assert end_names(table, "fives") == {}
    assert texts.move_words("6:2@E") == "6:2 🟠➡️"
    assert texts.move_words("3:3@W+2:2@E") == "3:3 🔵⬅️ + 2:2 🟠➡️"
    table.open_with(Tile.of(6, 6), 6)
    names = end_names(table, "fives")  # a lone spinner: four ends, four colours
    assert [COLOUR_EMOJI[end] for end in names] == [n.emoji for n in names.values()]
