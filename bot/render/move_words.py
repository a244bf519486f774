"""How moves are written: a play's tiles and the ends they went to, the latest actions
of a round, and the ends' count with what it scores."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.render.ends import EndName, names_or_own
from bot.render.words import Translate, plural
from engine.tiles import End
from engine.view import SeatView


def play_parts(text: str) -> list[tuple[str, End | None]]:
    """The tiles of a play in notation and the end each went to: `3:3@W+2:2@E` is
    [("3:3", W), ("2:2", E)]; the opening goes to no end."""
    parts: list[tuple[str, End | None]] = []
    for part in text.split("+"):
        tile, _, end = part.partition("@")
        parts.append((tile, End[end] if end in End.__members__ else None))
    return parts


def play_words(text: str, names: Mapping[End, EndName] | None = None) -> str:
    """A play as people read it: «5:3 🟠➡️», «3:3 🔵⬅️ + 2:2 🟠➡️», each end by its name
    in `names` (the names before the move; an end missing there by its own arrow)."""
    return " + ".join(
        tile if end is None else f"{tile} {names_or_own(names, end).text}"
        for tile, end in play_parts(text)
    )


@dataclass(frozen=True, slots=True)
class Action:
    """One line of the recent moves: a play, or a run of draws or a pass."""

    seat: int
    text: str  # a play in notation, "draw" or "pass"
    points: int
    times: int  # how many equal actions in a row (draws)
    index: int = 0  # of the action's (last) move in the round's moves


def recent_actions(view: SeatView, limit: int = 2) -> list[Action]:
    """The round's latest actions, oldest first; runs of draws are merged."""
    actions: list[Action] = []
    for index, entry in enumerate(view.moves):
        previous = actions[-1] if actions else None
        if previous and entry.text == previous.text == "draw" and previous.seat == entry.seat:
            actions[-1] = Action(previous.seat, "draw", 0, previous.times + 1, index)
            continue
        actions.append(Action(entry.seat, entry.text, entry.points, 1, index))
    return actions[-limit:]


def action_words(
    tr: Translate, view: SeatView, action: Action, names: Mapping[End, EndName] | None = None
) -> str:
    """«drew 3 tiles», «passed», «5:3 🟠➡️», without the name; `names`: the ends' names
    just before the move."""
    if action.text == "draw":
        if action.times > 1:
            return plural(tr, "drew {count} tile", "drew {count} tiles", action.times).format(
                count=action.times
            )
        return tr("drew a tile")
    if action.text == "pass":
        return tr("passed, penalty") if view.rules.pass_penalty else tr("passed")
    return play_words(action.text, names)


def action_points(view: SeatView, action: Action) -> str:
    """«+4» for scoring plays, «+10» for a `twolane` pass (a penalty), else empty."""
    if action.text == "pass":
        penalty = view.rules.pass_penalty
        return f"+{penalty}" if penalty else ""
    return f"+{action.points}" if action.points else ""


def count_sum(terms: tuple[int, ...]) -> str:
    """«5 + 4 + 2 + 4 = 15»; a single term is just its number."""
    if len(terms) == 1:
        return str(terms[0])
    return " + ".join(str(t) for t in terms) + f" = {sum(terms)}"


def scores(terms: tuple[int, ...]) -> bool:
    total = sum(terms)
    return total > 0 and total % 5 == 0
