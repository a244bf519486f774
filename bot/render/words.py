"""The words pictures and captions share, and how moves and names are written.

Every text shown goes through `tr` with an English message id; placeholders
are filled in after translation. `MESSAGES` lists every id used here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.render.fonts import printable
from engine.tiles import End
from engine.variants import ruleset
from engine.view import SeatView

Translate = Callable[[str], str]


def identity(message: str) -> str:
    """The default `tr`: the English message ids themselves."""
    return message


def N_(message: str) -> str:
    return message


VARIANT_TITLES = {
    "fives": N_("Fives"),
    "muggins": N_("Muggins"),
    "twolane": N_("Two-lane dominoes"),
}

# Arrows for the ends, as the bot's buttons show them (⬅️ W, ➡️ E, ⬆️ N, ⬇️ S).
ARROWS = {End.W: "←", End.E: "→", End.N: "↑", End.S: "↓"}
EMOJI_ARROWS = {End.W: "⬅️", End.E: "➡️", End.N: "⬆️", End.S: "⬇️"}

MESSAGES: tuple[str, ...] = (
    *VARIANT_TITLES.values(),
    N_("Round {number}"),
    N_("Target: {points}"),
    N_("Turn: {name}"),
    N_("Boneyard: {count}"),
    N_("Tiles"),
    N_("Points"),
    N_("Penalties"),
    N_("Ends: {sum}"),
    N_("Ends count once all four arms are taken"),
    N_("Lane {arrow}"),
    N_("drew a tile"),
    N_("passed"),
    N_("Game over"),
    N_("Round {number} is over"),
    N_("{name} went out"),
    N_("Blocked"),
    N_("Winner: {names}"),
    N_("Player {number}"),
    N_("Your tiles"),
    N_("Your turn"),
    N_("No tile fits: draw"),
    N_("No tile fits: pass"),
    N_("Standings"),
    N_("Record: {points}"),
    N_("Lost"),
    N_("Rounds played: {count}"),
)


def variant_title(tr: Translate, variant: str) -> str:
    return tr(VARIANT_TITLES.get(variant, variant))


def player_name(tr: Translate, view: SeatView, seat: int) -> str:
    """A seat's name as the fonts can draw it (a fallback if nothing is left)."""
    name = printable(view.players[seat])
    return name or tr("Player {number}").format(number=seat + 1)


def end_of(text: str) -> End | None:
    _, sep, end = text.partition("@")
    return End[end] if sep and end in End.__members__ else None


def play_words(text: str, arrows: dict[End, str] = ARROWS) -> str:
    """A play as record notation writes it (`5:3@E`, `3:3@W+2:2@E`) with arrows for ends."""
    parts = []
    for part in text.split("+"):
        tile, _, end = part.partition("@")
        parts.append(f"{tile} {arrows[End[end]]}" if end in End.__members__ else tile)
    return " + ".join(parts)


@dataclass(frozen=True, slots=True)
class Action:
    """One line of the recent moves: a play, or a run of draws or a pass."""

    seat: int
    text: str  # a play in notation, "draw" or "pass"
    points: int
    times: int  # how many equal actions in a row (draws)


def recent_actions(view: SeatView, limit: int = 2) -> list[Action]:
    """The round's latest actions, oldest first; runs of draws are merged."""
    actions: list[Action] = []
    for entry in view.moves:
        previous = actions[-1] if actions else None
        if previous and entry.text == previous.text == "draw" and previous.seat == entry.seat:
            actions[-1] = Action(previous.seat, "draw", 0, previous.times + 1)
            continue
        actions.append(Action(entry.seat, entry.text, entry.points, 1))
    return actions[-limit:]


def action_words(
    tr: Translate, view: SeatView, action: Action, arrows: dict[End, str] = ARROWS
) -> str:
    """«drew a tile ×3», «passed», «5:3 →», without the name."""
    if action.text == "draw":
        words = tr("drew a tile")
        return f"{words} ×{action.times}" if action.times > 1 else words
    if action.text == "pass":
        return tr("passed")
    return play_words(action.text, arrows)


def action_points(view: SeatView, action: Action) -> str:
    """«+4» for scoring plays, «+10» for a `twolane` pass (a penalty), else empty."""
    if action.text == "pass":
        penalty = ruleset(view.variant).pass_penalty
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


def round_end_words(tr: Translate, view: SeatView, end: str, out: int | None) -> str:
    """Why a round ended: «Андрей went out», «Blocked»."""
    if end == "blocked":
        return tr("Blocked")
    if out is not None:
        return tr("{name} went out").format(name=player_name(tr, view, out))
    return ""


def winner_names(tr: Translate, view: SeatView) -> str:
    return ", ".join(player_name(tr, view, seat) for seat in view.standings.winners)


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"
