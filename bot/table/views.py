"""What one person sees at the table: the whole view as JSON-ready data, built per seat.

A pure function of the stored match (and its engine game), the viewer's user id and his
language. A seat's own hand goes only into the view of the user that seat belongs to; a
spectator (a valid user who is not seated) gets the board and the scores, never a hand.
Every word comes from bot.telegram.webapp_texts, in the viewer's language.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from bot.game import forfeits
from bot.game.match_records import Current
from bot.game.options import MAX_SEATS, TURN_CHOICES, has_clock, target_choices
from bot.i18n import Translator
from bot.settings import Settings
from bot.storage.models import Match
from bot.table.positions import board_positions
from bot.telegram import endings, texts, webapp_texts
from engine import Doubles, Game, Play, SeatView, Tile, view_for
from engine.variants import VARIANTS


def table_view(
    current: Current,
    user_id: int,
    tr: Translator,
    settings: Settings,
    changes: dict[int, int] | None = None,
) -> dict[str, Any]:
    """The view of `current` for `user_id`; `changes`: a finished match's rating changes by
    seat (its final table shows them)."""
    match = current.match
    seat = match.seat_of(user_id)
    view: dict[str, Any] = {
        "game": match.id,
        "version": match.rev,  # +1 on every stored change: the page keeps the newest
        "status": match.status,
        "seat": seat,
        "creator": user_id == match.creator_id,
        "title": texts.variant_name(tr, match.variant),
        "ending": webapp_texts.ending(tr, match) if match.status == "cancelled" else None,
        "lobby": None,
        "table": None,
    }
    if match.status == "lobby":
        view["lobby"] = lobby_view(match, user_id, tr, settings)
    elif current.game is not None:
        view["table"] = game_view(match, current.game, seat, tr, changes or {})
    return view


def gone_view(game_id: str, next_game: str | None = None) -> dict[str, Any]:
    """The view of a game that is no longer stored (the chat has moved on); `next_game`:
    the chat's game now (a Rematch's lobby, a new game), which the page opens instead."""
    return {
        "game": game_id,
        "version": -1,
        "status": "gone",
        "seat": None,
        "creator": False,
        "next": next_game,
    }


# -- the lobby ---------------------------------------------------------------------------


def lobby_view(match: Match, user_id: int, tr: Translator, settings: Settings) -> dict[str, Any]:
    seat = match.seat_of(user_id)
    creator = user_id == match.creator_id
    seats = [
        {
            "number": number,
            "name": webapp_texts.seat_name(tr, s.player),
            "computer": s.user_id is None,
            "kind": webapp_texts.seat_kind(tr, s.level) if s.user_id is None else None,
            "you": s.user_id == user_id,
        }
        for number, s in enumerate(match.seats, start=1)
    ]
    options = []
    if creator:
        chosen = {"variant": match.variant, "target": match.target, "time": match.turn_seconds}
        for kind, values in lobby_choices(match).items():
            if values:  # a game whose target is fixed offers none
                current = chosen[kind] if chosen[kind] is not None else values[0]
                options.append(_option(kind, current, values, tr))
    full = len(match.seats) >= MAX_SEATS
    computers = any(s.user_id is None for s in match.seats)
    can_join = seat is None and not full and not match.practice
    return {
        "creator_name": match.creator_name,
        "seats": seats,
        "lines": webapp_texts.lobby_lines(match, tr, settings, can_join=can_join, creator=creator),
        "options": options,
        "can": {
            "join": can_join,
            "leave": seat is not None and not match.practice,
            "start": creator,
            "cancel": creator,
            "add_computer": creator and not full,
            "remove_computer": creator and computers,
        },
    }


def lobby_choices(match: Match) -> dict[str, tuple[object, ...]]:
    """The values each of the lobby's options offers (the lobby rule takes any of them)."""
    return {
        "variant": tuple(VARIANTS),
        "target": target_choices(match.variant, len(match.seats)),
        "time": TURN_CHOICES,
    }


def _option(
    kind: str, current: object, values: tuple[object, ...], tr: Translator
) -> dict[str, Any]:
    """A lobby option and the values it offers, the one set now marked."""
    return {
        "action": kind,
        "label": webapp_texts.option_label(tr, kind),
        "choices": [
            {
                "value": str(value),
                "label": webapp_texts.option_value(tr, kind, value),
                "chosen": value == current,
            }
            for value in values
        ],
    }


# -- a game under way or over --------------------------------------------------------------


def game_view(
    match: Match, game: Game, seat: int | None, tr: Translator, changes: dict[int, int]
) -> dict[str, Any]:
    left = forfeits.left_seats(match)
    public = forfeits.shown_view(view_for(game), left)
    if match.status == "cancelled":
        public = endings.as_ended(public)
    turn = public.turn
    person_to_act = turn is not None and match.status == "playing" and match.seats[turn].human
    return {
        "version": public.version,  # the engine's: a hand action names it (next round)
        "heading": webapp_texts.heading(tr, public),
        "round_title": webapp_texts.round_title(tr, public),
        "state": webapp_texts.state_line(tr, public),
        "turn": turn,
        "clock": {
            "deadline": match.deadline,
            "running": has_clock(match.turn_seconds),
            "name": webapp_texts.seat_name(tr, public.players[turn]),
        }
        if person_to_act and turn is not None
        else None,
        "players": _players(match, public, tr, seat),
        "score_label": webapp_texts.score_label(tr, public),
        "boneyard": public.boneyard_size,
        "boneyard_text": webapp_texts.boneyard(tr, public),
        "ends": webapp_texts.ends_line(public),
        "count": webapp_texts.count_line(tr, public),
        "moves": webapp_texts.recent_moves(tr, public),
        "round_end": webapp_texts.round_end_lines(tr, public),
        "board": board_positions(public),
        "hand": _hand(match, game, seat, tr),
        "final": _final(tr, public, changes, left) if match.status == "over" else None,
        # A player who did not leave may open the next lobby from the final table.
        "rematch": match.status == "over" and seat is not None and seat not in left,
    }


def _players(
    match: Match, view: SeatView, tr: Translator, seat: int | None
) -> list[dict[str, Any]]:
    return [
        {
            "seat": index,
            "name": webapp_texts.seat_name(tr, name),
            "computer": index < len(match.seats) and match.seats[index].computer,
            "tiles": view.hand_sizes[index],
            "total": view.totals[index],
            "turn": view.turn == index,
            "out": index in view.out,
            "you": index == seat,
            "place": view.standings.places[index] if view.over else None,
        }
        for index, name in enumerate(view.players)
    ]


def _hand(match: Match, game: Game, seat: int | None, tr: Translator) -> dict[str, Any] | None:
    """The seat's own tiles, those that fit now marked (only ever in its user's view)."""
    if seat is None or match.status != "playing":
        return None
    view = view_for(game, seat)
    human = match.seats[seat].human
    playable = playable_tiles(view) if human else set()
    your_turn = view.my_turn and human
    return {
        "tiles": [
            {"tile": str(tile), "a": tile.high, "b": tile.low, "playable": tile in playable}
            for tile in view.hand
        ],
        "your_turn": your_turn,
        "prompt": webapp_texts.hand_prompt(tr, view) if human else "",
        "moves": hand_moves(view, match.practice) if your_turn else [],
    }


def hand_moves(view: SeatView, practice: bool) -> list[dict[str, str]]:
    """The seat's legal moves as the actions that make them, ready to send: a play per
    tile and end ("6:4@W"; the opening's has no end), each set of doubles muggins allows
    ("6:6@N,5:5@S"), draw, pass; and a practice game's hint."""
    moves: list[dict[str, str]] = []
    for move in view.legal:
        if isinstance(move, Play):
            value = str(move.tile) if move.end is None else f"{move.tile}@{move.end}"
            entry = {"action": "play", "value": value}
        elif isinstance(move, Doubles):
            value = ",".join(f"{play.tile}@{play.end}" for play in move.plays)
            entry = {"action": "doubles", "value": value}
        else:
            entry = {"action": str(move), "value": ""}  # "draw" or "pass"
        if entry not in moves:  # the opening's tile, whichever half faces west
            moves.append(entry)
    if practice and moves:
        moves.append({"action": "hint", "value": ""})
    return moves


def playable_tiles(view: SeatView) -> set[Tile]:
    """The tiles of the seat's legal moves (a muggins move of doubles marks each double)."""
    found: set[Tile] = set()
    for move in view.legal:
        if isinstance(move, Play):
            found.add(move.tile)
        elif isinstance(move, Doubles):
            found.update(play.tile for play in move.plays)
    return found


def _final(
    tr: Translator, view: SeatView, changes: dict[int, int], left: Collection[int]
) -> list[str]:
    return webapp_texts.final_lines(tr, view, changes, left)
