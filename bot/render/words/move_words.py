"""How moves are written: a play's tiles and the ends they went to, the latest actions
of a round, and the ends' count with what it scores."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.render.words.ends import EndName, names_or_own
from bot.render.words.naming import N_, Translate, identity, plural
from engine.tiles import End
from engine.variants import Counted
from engine.view import SeatView

# How a double at an end is counted, said after its term: both halves (muggins), or its
# number once (fives).
DOUBLE_TWICE = N_("double")
DOUBLE_ONCE = N_("double, once")
LEFT_OUT = N_("{end} is not counted until a tile lies there")


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
class RecentAction:
    """One line of the recent moves: a play, or a run of draws or a pass."""

    seat: int
    text: str  # a play in notation, "draw" or "pass"
    points: int
    times: int  # how many equal actions in a row (draws)
    index: int = 0  # of the action's (last) move in the round's moves


def recent_actions(view: SeatView, limit: int = 2) -> list[RecentAction]:
    """The round's latest actions, oldest first; runs of draws are merged."""
    actions: list[RecentAction] = []
    for index, entry in enumerate(view.moves):
        previous = actions[-1] if actions else None
        if previous and entry.text == previous.text == "draw" and previous.seat == entry.seat:
            actions[-1] = RecentAction(previous.seat, "draw", 0, previous.times + 1, index)
            continue
        actions.append(RecentAction(entry.seat, entry.text, entry.points, 1, index))
    return actions[-limit:]


def action_words(
    tr: Translate, view: SeatView, action: RecentAction, names: Mapping[End, EndName] | None = None
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


def action_points(view: SeatView, action: RecentAction) -> str:
    """«+4» for scoring plays, «+10» for a `twolane` pass (a penalty), else empty."""
    if action.text == "pass":
        penalty = view.rules.pass_penalty
        return f"+{penalty}" if penalty else ""
    return f"+{action.points}" if action.points else ""


def count_parts(view: SeatView) -> list[Counted] | None:
    """The open ends as the view's game counts them (None: nothing is counted now)."""
    return view.rules.count_parts(view.table)


def term_text(part: Counted) -> str:
    """What an end adds, as the table shows it: «4», «4+4» for a double counted by its
    two halves."""
    if part.double and part.adds == 2 * part.value:
        return f"{part.value}+{part.value}"
    return str(part.adds)


def count_words(
    tr: Translate,
    parts: list[Counted],
    names: Mapping[End, EndName] | None = None,
    markup: Callable[[str], str] = identity,
) -> list[str]:
    """The count as a person checks it against the table: «🔵⬅️ 4+4 (дубль) + 🟠➡️ 1 +
    ⚫⬇️ 2+2 (дубль) = 13», each end by its name; then a line for each open end the
    count leaves out (muggins: the house's side with no tile on it yet). `markup`
    writes the words around the numbers (captions escape them for HTML)."""
    terms = []
    for part in parts:
        if not part.counted:
            continue
        term = term_text(part)
        if part.double:
            how = DOUBLE_TWICE if part.adds == 2 * part.value else DOUBLE_ONCE
            term += f" ({markup(tr(how))})"
        if part.end is not None:
            term = f"{names_or_own(names, part.end).text} {term}"
        terms.append(term)
    total = sum(part.adds for part in parts if part.counted)
    counted = [p for p in parts if p.counted]
    arithmetic = " + ".join(terms)
    if len(counted) > 1 or (counted and term_text(counted[0]) != str(total)):
        arithmetic += f" = {total}"
    lines = [markup(tr("Ends: {sum}")).format(sum=arithmetic)]
    for part in parts:
        if not part.counted and part.end is not None:
            name = names_or_own(names, part.end).text
            lines.append(markup(tr(LEFT_OUT)).format(end=f"{name} {part.value}"))
    return lines


def scores(terms: tuple[int, ...]) -> bool:
    total = sum(terms)
    return total > 0 and total % 5 == 0
