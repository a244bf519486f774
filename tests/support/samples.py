"""Sample positions for the pictures (docs/make_pictures.py draws them for the docs).

Games are played with the engine (random legal moves from a seed); full tables
(all 28 tiles down) are built tile by tile with the rules' own hub claims, in
the shapes that are hardest to lay out. The benchmark and the tests use these.
"""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Callable, Sequence

from PIL import Image

from bot.i18n import Translator, translator
from bot.render.kit.picture import Picture, encode
from engine.game import Game, MoveEntry
from engine.moves import Doubles, Play
from engine.table import Table
from engine.tiles import ALL_TILES, End, Tile
from engine.variants import VARIANTS, ruleset
from engine.view import RoundSummary, SeatView, view_for

PLAYERS = ("Андрей", "Ирина", "Ольга", "Вадим")
PHONE_WIDTH = 400  # how wide a phone shows a photo in a chat

# Which ends a full table's builder prefers, in order: the shape of the table.
SHAPES: dict[str, tuple[End, ...]] = {
    "east": (End.E,),  # one arm holds everything
    "west": (End.W,),
    "north": (End.N, End.W, End.E),  # the hub's N arm as long as it gets
    "south": (End.S, End.E, End.W),
    "cross": (),  # four long arms: the ends taken in turn
    "random": (),
}
# Each game's full tables by shape (twolane has no N and S arms: those shapes exist only
# with a spinner or house).
FULL_TABLES = [
    (variant, shape)
    for variant in VARIANTS
    for shape in SHAPES
    if not (variant == "twolane" and shape in ("north", "south"))
]


def play(
    variant: str,
    players: Sequence[str] = PLAYERS,
    seed: int = 1,
    until: Callable[[Game], bool] | None = None,
    moves: int = 10_000,
) -> Game:
    """A game played with random legal moves until `until` holds (or `moves` are made)."""
    game = Game.new(variant, list(players), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.over or (until is not None and until(game)):
            break
        legal = game.legal_moves()
        plays = [m for m in legal if isinstance(m, Play | Doubles)]
        game.push(rng.choice(plays or list(legal)))
    return game


def full_table(
    variant: str, shape: str = "random", seed: int = 0, opening: Tile | None = None
) -> Table:
    """A table holding all 28 tiles, laid by the rules of `variant` (hubs included).

    `shape` names the ends the builder prefers (see `SHAPES`); "cross" takes the
    ends in turn, "random" at random. The builder backtracks until every tile is
    down, so the result is always full.
    """
    rng = random.Random(f"{variant}:{shape}:{seed}")
    rules = ruleset(variant)
    for _attempt in range(1000):
        first = opening or rng.choice(ALL_TILES)
        table = Table()
        table.open_with(first, first.high if rng.random() < 0.5 else first.low)
        rules.claim_hub(table, None)
        left = [t for t in ALL_TILES if t != first]
        rng.shuffle(left)
        budget = [4000]
        if _complete(table, left, rules.claim_hub, SHAPES[shape], shape, rng, budget):
            return table
    raise RuntimeError(f"no full {shape} table found")  # pragma: no cover


def _complete(
    table: Table,
    left: list[Tile],
    claim: Callable[[Table, End | None], None],
    prefer: tuple[End, ...],
    shape: str,
    rng: random.Random,
    budget: list[int],
) -> bool:
    if not left:
        return True
    budget[0] -= 1
    if budget[0] < 0:
        return False
    ends = list(table.ends)
    if shape == "cross":
        # The ends in turn: the one holding the fewest tiles first.
        ends.sort(key=lambda e: (len(table.arm(e[0])), rng.random()))
    elif prefer:
        ends.sort(key=lambda e: prefer.index(e[0]) if e[0] in prefer else len(prefer))
        if shape in ("east", "west"):
            ends = [e for e in ends if e[0] in prefer] or ends
    else:
        rng.shuffle(ends)
    for end, value in ends:
        for tile in [t for t in left if t.has(value)]:
            trial = table.copy()
            trial.attach(tile, end)
            claim(trial, end)
            rest = [t for t in left if t != tile]
            if _complete(trial, rest, claim, prefer, shape, rng, budget):
                table.opening, table.arms, table.hub = trial.opening, trial.arms, trial.hub
                table.moves, table.ends = trial.moves, trial.ends
                return True
            if budget[0] < 0:
                return False
    return False


def with_table(view: SeatView, table: Table) -> SeatView:
    """`view` with another, full table: the round as it ends with every tile down."""
    terms = view.rules.count_terms(table)
    moves = []
    for placed in table.last_placed():
        end = next((e for e in End if placed in table.arm(e)), None)
        moves.append(f"{placed.inner}:{placed.outer}" + (f"@{end}" if end is not None else ""))
    seat = view.turn if view.turn is not None else 0
    # With every tile on the table, the player who laid the last one went out.
    ended = RoundSummary(
        number=view.round_number,
        starter=view.starter,
        end="out",
        out=seat,
        points=view.round_points,
        penalties=view.penalties,
        hands_left=tuple(() for _ in view.players),
    )
    return dataclasses.replace(
        view,
        table=table,
        turn=None,
        count_terms=None if terms is None else tuple(terms),
        boneyard_size=0,
        hand_sizes=tuple(0 for _ in view.players),
        moves=(*view.moves, MoveEntry(seat, "+".join(moves), 0)),
        legal=(),
        finished_rounds=(*view.finished_rounds, ended),
        # A one-round game (twolane): the round's end is the end of the game.
        standings=view.standings
        if not view.rules.one_round
        else dataclasses.replace(
            view.standings,
            finished=True,
            winners=tuple(s for s, p in enumerate(view.standings.places) if p == 1),
        ),
    )


def has_hub_arms(game: Game) -> bool:
    table = game.round.table
    return table.hub is not None and bool(table.arm(End.N)) and bool(table.arm(End.S))


def mixed_hand(game: Game) -> bool:
    """The player to act has tiles that fit and tiles that do not."""
    if game.turn is None:
        return False
    fitting = {m.tile for m in game.legal_moves() if isinstance(m, Play)}
    return 0 < len(fitting) < len(game.round.hands[game.turn])


def sample_views() -> dict[str, SeatView]:
    """The positions drawn for `docs/pictures/`, by file name (without the extension)."""
    views: dict[str, SeatView] = {}
    for variant, rules in VARIANTS.items():
        # A table in lanes (twolane) is shown with three players, one round along; a
        # table around a hub with four, once the hub has arms both ways.
        players = list(PLAYERS[: 3 if rules.lanes else 4])
        if rules.lanes:
            game = play(variant, players, seed=3, until=lambda g: len(g.round.table.tiles()) >= 11)
        else:
            game = play(
                variant,
                players,
                seed=5,
                until=lambda g: has_hub_arms(g) and len(g.round.table.tiles()) >= 12,
            )
        views[f"{variant}-board"] = view_for(game)
        # A hand on its turn with tiles that fit and tiles that do not.
        game = play(variant, players, seed=5, until=lambda g: mixed_hand(g) and g.version > 8)
        assert game.turn is not None
        views[f"{variant}-hand"] = view_for(game, game.turn)
        shape = "east" if rules.lanes else "cross"
        views[f"{variant}-full"] = with_table(view_for(game), full_table(variant, shape, seed=1))
        views[f"{variant}-final"] = view_for(final_match(variant, players))
    return views


def final_match(variant: str, players: list[str]) -> Game:
    """A finished match that shows what the final table can tell (the first such seed
    from 7 on): a round the target cut short where a play can reach it (muggins), else
    five rounds or more where there are rounds (fives)."""
    rules = ruleset(variant)
    for seed in range(7, 100):
        game = play(variant, players, seed=seed)
        ends = [rnd.end for rnd in game.rounds]
        if rules.target_mid_round:
            if ends[-1] != "target":
                continue
        elif not rules.one_round and len(ends) < 5:
            continue
        return game
    raise RuntimeError(f"no sample match of {variant}")  # pragma: no cover


def sample_changes(view: SeatView) -> dict[int, int]:
    """Rating changes for a sample final table, by place: as a table of people shows them."""
    steps = (78, 12, -20, -41)
    order = sorted(range(len(view.players)), key=lambda s: (view.standings.places[s], s))
    return {seat: steps[rank] for rank, seat in enumerate(order)}


def phone(picture: Picture) -> Picture:
    """The picture as a phone shows it, 400 px wide (scaled as the pip test scales it)."""
    image = Image.open(io.BytesIO(picture.data))
    height = round(image.height * PHONE_WIDTH / image.width)
    small = image.resize((PHONE_WIDTH, height), Image.Resampling.BICUBIC)
    return encode(small, picture.name)


def catalog(lang: str = "ru") -> Translator:
    """The product's catalogue for `lang` (Russian by default, as the product), with
    its plural forms: the samples look as the product does."""
    return translator(lang)
