"""The words pictures and captions share, and how moves and names are written.

Every text shown goes through `tr` with an English message id; placeholders
are filled in after translation. `MESSAGES` lists every id used here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache

from bot.i18n import LANGUAGES, translator
from bot.render.ends import EndName, names_or_own
from bot.render.fonts import printable
from bot.variants import shown
from engine.tiles import End
from engine.variants import VARIANTS
from engine.view import RoundSummary, SeatView

Translate = Callable[[str], str]


def identity(message: str) -> str:
    """The default `tr`: the English message ids themselves."""
    return message


def N_(message: str) -> str:
    return message


def plural(tr: Translate, singular: str, many: str, count: int) -> str:
    """The form of a message for `count` (gettext's ngettext when `tr` has it)."""
    forms = getattr(tr, "n", None)
    if callable(forms):
        return str(forms(singular, many, count))
    return tr(singular if count == 1 else many)


def N_plural(singular: str, many: str) -> tuple[str, str]:
    return singular, many


COMPUTER_NAME = N_("Computer {number}")


MESSAGES: tuple[str, ...] = (
    *(shown(name).title for name in VARIANTS),
    N_("Round {number}"),
    N_("Target: {points}"),
    N_("Turn: {name}"),
    N_("Boneyard: {count}"),
    N_("Tiles"),
    N_("Points"),
    N_("Penalties"),
    N_("Ends: {sum}"),
    N_("Ends count once all four arms are taken"),
    N_("Lane"),
    N_("drew a tile"),
    N_("passed"),
    N_("Game over"),
    N_("Round {number} is over"),
    N_("{name} went out"),
    N_("Blocked"),
    N_("Nobody scores: the fewest pips are shared"),
    N_("Nobody passed: no penalties"),
    N_("Out of tiles: {names}"),
    N_("Winner: {names}"),
    N_("Player {number}"),
    N_("Your tiles"),
    N_("Your turn"),
    N_("No tile fits: draw"),
    N_("No tile fits: pass"),
    N_("No tile fits: pass, penalty +{points}"),
    N_("Standings"),
    N_("Record: {points}"),
    N_("Lost"),
    N_("Rounds played: {count}"),
    N_("passed, penalty"),
    N_("{name}: +{points} — left in the other hands: {hands}; {division}"),
    N_(
        "{name}: +{points} — the fewest pips in hand ({pips}); the other hands: {hands}; {division}"
    ),
    N_("{name}: +{points} — the other hands: {division}"),
    N_("{name}: +{points} — the fewest pips in hand ({pips}); the other hands: {division}"),
    N_("{pips} ÷ 5 = {points}, the remainder is dropped"),
    N_("{pips} ÷ 5 = {points}"),
    N_("+1 point each, the fewest points: {names}"),
    N_("Penalties for passes: {list}"),
    # The final table: its per-round grid, its badges and the legend under it.
    N_("Round by round"),
    N_("How the places came about"),
    N_("Total"),
    N_("Passes"),
    N_("Out"),
    N_("Pips"),
    N_("rating {change}"),
    N_("Left the game"),
    N_("{name} left the game: the last place"),
    N_("Rounds {first}–{last} are in the picture"),
    N_("Round {number} is in the picture"),
)

# Messages with plural forms: (singular, plural) ids, each used with a count.
PLURALS: tuple[tuple[str, str], ...] = (
    N_plural("{name}: +{points} point for going out", "{name}: +{points} points for going out"),
    N_plural(
        "{name}: +{points} point, the fewest points", "{name}: +{points} points, the fewest points"
    ),
    N_plural("{name} reached {points} point", "{name} reached {points} points"),
    N_plural(
        "{name}: {count} pass, +{points} penalty points",
        "{name}: {count} passes, +{points} penalty points",
    ),
    N_plural("drew {count} tile", "drew {count} tiles"),
)
# Every id a picture or caption may ask `tr` for: a `tr` without plural forms is
# asked the singular or the plural id itself.
MESSAGES += tuple(form for pair in PLURALS for form in pair)


def variant_title(tr: Translate, variant: str) -> str:
    """The game's name as the pictures head it, «Fives» (see `bot.variants`)."""
    return tr(shown(variant).title)


def player_name(tr: Translate, view: SeatView, seat: int) -> str:
    """A seat's name as the fonts can draw it (a fallback if nothing is left)."""
    name = printable(localized_name(tr, view.players[seat]))
    return name or tr("Player {number}").format(number=seat + 1)


@cache
def _computer_name_pattern() -> re.Pattern[str]:
    """«Computer 2», «Компьютер 2»: a computer's name in any of the bot's languages."""
    words = {translator(lang)(COMPUTER_NAME).partition("{number}")[0] for lang in LANGUAGES}
    words.add(COMPUTER_NAME.partition("{number}")[0])
    choices = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?:{choices})(\d{{1,2}})")


def computer_name(lang: str, number: int) -> str:
    """The name a computer player is given when it takes a seat: «Компьютер 2» in a chat
    that speaks Russian (`localized_name` shows it in the chat's language later)."""
    return translator(lang)(COMPUTER_NAME).format(number=number)


def localized_name(tr: Translate, name: str) -> str:
    """A computer player's name in the chat's language now (it was named in the lobby's,
    and the chat may have switched language since); any other name as it is."""
    found = _computer_name_pattern().fullmatch(name)
    if found is None:
        return name
    return tr(COMPUTER_NAME).format(number=found.group(1))


def end_of(text: str) -> End | None:
    _, sep, end = text.partition("@")
    return End[end] if sep and end in End.__members__ else None


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


def round_end_words(
    tr: Translate,
    view: SeatView,
    end: str,
    out: int | None,
    name_of: Callable[[int], str] | None = None,
    markup: Callable[[str], str] = identity,
) -> str:
    """Why a round ended: «Андрей went out», «Blocked», «Андрей reached 51 points».

    `name_of` writes a seat's name (the picture's by default) and `markup` the
    message around it (captions escape it for HTML).
    """
    name = name_of or (lambda seat: player_name(tr, view, seat))
    # A game played on after a player went out (twolane) names everyone who did.
    if view.rules.play_on_after_out and view.out and end != "target":
        outs = markup(tr("Out of tiles: {names}")).format(
            names=", ".join(name(seat) for seat in view.out)
        )
        return markup(tr("Blocked")) + " · " + outs if end == "blocked" else outs
    if end == "blocked":
        return markup(tr("Blocked"))
    if end == "target" and view.standings.winners:
        seat = view.standings.winners[0]
        points = view.totals[seat]
        message = plural(
            tr, "{name} reached {points} point", "{name} reached {points} points", points
        )
        return markup(message).format(name=name(seat), points=points)
    if out is not None:
        return markup(tr("{name} went out")).format(name=name(out))
    return ""


def round_end_points(
    tr: Translate,
    view: SeatView,
    summary: RoundSummary,
    name_of: Callable[[int], str] | None = None,
    markup: Callable[[str], str] = identity,
    compact: bool = False,
) -> list[str]:
    """What each player got at the round's end, and for what: one line per player.

    fives: +2 for going out, or +1 to the fewest points on a block; muggins: the
    other hands' pips ÷ 5 (rounded down) to who went out, or to the fewest pips on
    a block, naming the tiles left in those hands; twolane: 10 penalty points per pass.
    `compact`: shorter forms, for where room is short (a picture's panel): several
    players' equal bonus on one line, the muggins sum without the tiles.
    """
    name = name_of or (lambda seat: player_name(tr, view, seat))

    def line(singular: str, many: str, seat: int, points: int, **more: int) -> str:
        message = markup(plural(tr, singular, many, points))
        return message.format(name=name(seat), points=points, **more)

    rules = view.rules
    if rules.penalty_scoring:
        paid = [(seat, penalty) for seat, penalty in enumerate(summary.penalties) if penalty]
        if not paid or not rules.pass_penalty:
            return [markup(tr("Nobody passed: no penalties"))]
        if compact:
            listed = ", ".join(f"{name(seat)} +{penalty}" for seat, penalty in paid)
            return [markup(tr("Penalties for passes: {list}")).format(list=listed)]
        lines = []
        for seat, penalty in paid:
            passes = penalty // rules.pass_penalty
            message = markup(
                plural(
                    tr,
                    "{name}: {count} pass, +{points} penalty points",
                    "{name}: {count} passes, +{points} penalty points",
                    passes,
                )
            )
            lines.append(message.format(name=name(seat), count=passes, points=penalty))
        return lines
    if summary.end == "target":
        return []  # muggins: the target cut the round short, before any end-of-round points
    if not rules.scores_hands_left:
        if summary.end == "out" and summary.out is not None:
            bonus = rules.round_end_points(list(map(list, summary.hands_left)), [], summary.out)
            return [
                line(
                    "{name}: +{points} point for going out",
                    "{name}: +{points} points for going out",
                    seat,
                    points,
                )
                for seat, points in enumerate(bonus)
                if points
            ]
        # A block gives 1 to the fewest points. Every point a fives play scores is
        # even (2 for the first double, 4 for the fives), so the odd ones are the block's.
        fewest = [seat for seat, points in enumerate(summary.points) if points % 2]
        if compact and len(fewest) > 1:
            names = ", ".join(name(seat) for seat in fewest)
            return [markup(tr("+1 point each, the fewest points: {names}")).format(names=names)]
        return [
            line(
                "{name}: +{points} point, the fewest points",
                "{name}: +{points} points, the fewest points",
                seat,
                1,
            )
            for seat in fewest
        ]
    return _muggins_end_points(tr, view, summary, name, markup, compact)


def _muggins_end_points(
    tr: Translate,
    view: SeatView,
    summary: RoundSummary,
    name: Callable[[int], str],
    markup: Callable[[str], str],
    compact: bool,
) -> list[str]:
    """muggins: one player scores the other hands' pips ÷ 5, as the engine counts them,
    and the line names those hands' tiles and says the remainder is dropped."""
    hands = [list(hand) for hand in summary.hands_left]
    pips = [sum(t.pips for t in hand) for hand in hands]
    scorer = summary.out if summary.end == "out" else None
    if summary.end == "blocked":
        holders = [seat for seat, held in enumerate(pips) if held == min(pips)]
        if len(holders) > 1:
            return [markup(tr("Nobody scores: the fewest pips are shared"))]
        scorer = holders[0]
    if scorer is None:
        return []
    points = view.rules.round_end_points(hands, list(view.totals), summary.out)[scorer]
    others = sum(pips) - pips[scorer]
    division = markup(pips_division(tr, others, points))
    listed = ", ".join(
        f"{name(seat)} {' '.join(str(t) for t in hand)} ({pips[seat]})"
        for seat, hand in enumerate(hands)
        if seat != scorer and hand
    )
    if summary.end == "out":
        message = (
            "{name}: +{points} — the other hands: {division}"
            if compact
            else "{name}: +{points} — left in the other hands: {hands}; {division}"
        )
    else:
        message = (
            "{name}: +{points} — the fewest pips in hand ({pips}); the other hands: {division}"
            if compact
            else "{name}: +{points} — the fewest pips in hand ({pips}); "
            "the other hands: {hands}; {division}"
        )
    return [
        markup(tr(message)).format(
            name=name(scorer), points=points, pips=pips[scorer], hands=listed, division=division
        )
    ]


def pips_division(tr: Translate, pips: int, points: int) -> str:
    """«26 ÷ 5 = 5, the remainder is dropped» (no remainder: «25 ÷ 5 = 5»)."""
    if pips % 5:
        return tr("{pips} ÷ 5 = {points}, the remainder is dropped").format(
            pips=pips, points=points
        )
    return tr("{pips} ÷ 5 = {points}").format(pips=pips, points=points)


class Mark(Enum):
    """A mark the final table may show, in the order the legend explains them."""

    PLACES = N_("Medals: places by points; equal points share a place")
    PENALTY_PLACES = N_(
        "Places: the fewest penalties; then who ran out of tiles first; "
        "then the fewest tiles, then the fewest pips left"
    )
    OUT = N_("✓ ran out of tiles")
    BLOCKED = N_("⊘ blocked: nobody could play")
    TARGET = N_("⚑ the round stopped there: someone reached {points}")
    RECORD = N_("Record: the winner's points minus everyone else's")
    LOST = N_("Lost: the fewest points when someone reached {points}")
    FORFEIT = N_("Left the game: gave the seat up with /leave, so the last place")
    RATING = N_("rating: how much the player's rating in this chat changed")


MESSAGES += tuple(mark.value for mark in Mark)

OUT_MARK = "✓"  # after the points of the seat that ran out of tiles
BLOCKED_MARK = "⊘"  # after a blocked round's number
TARGET_MARK = "⚑"  # after the number of the muggins round that the target cut short


def legend(tr: Translate, marks: Collection[Mark], target: int | None = None) -> list[str]:
    """One line for each mark shown, in the legend's order; `target`: the match's."""
    return [tr(mark.value).format(points=target) for mark in Mark if mark in marks]


def shown_record(view: SeatView) -> int | None:
    """The fives record as the bot shows it: only a margin above zero (docs/rules.md)."""
    record = view.standings.record
    return record if record is not None and record > 0 else None


def winner_names(tr: Translate, view: SeatView) -> str:
    return ", ".join(player_name(tr, view, seat) for seat in view.standings.winners)


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"
