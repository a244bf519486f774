"""How a round ended and what each player got for it, in words.

The board's panel, the empty table before the next round and the captions all
tell it from here.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.render.words.naming import Translate, identity, player_name, plural
from engine.view import RoundSummary, SeatView


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

    fives: +2 for going out, or +1 to the lowest score on a block; muggins: the
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
        # A block gives 1 to the lowest score of the match (its totals, this round's points
        # included: docs/rules.md), named with that score so that nobody reads it as the
        # pips in hand. Every point a fives play scores is even (2 for the first double, 4
        # for the fives), so the odd ones are the block's; `view` is the round's end, so
        # the score was the total less that 1.
        fewest = [seat for seat, points in enumerate(summary.points) if points % 2]
        score = view.totals[fewest[0]] - 1 if fewest else 0
        if compact and len(fewest) > 1:
            names = ", ".join(name(seat) for seat in fewest)
            each = markup(tr("+1 point each, the lowest score in the match ({score}): {names}"))
            return [each.format(names=names, score=score)]
        return [
            line(
                "{name}: +{points} point, the lowest score in the match: {score}",
                "{name}: +{points} points, the lowest score in the match: {score}",
                seat,
                1,
                score=score,
            )
            for seat in fewest
        ]
    return _muggins_end_points(tr, view, summary, name, markup, compact)


def points_name_who_went_out(view: SeatView, summary: RoundSummary) -> bool:
    """Whether `round_end_points` names who went out, as what he got it for (fives' «+2
    points for going out»): a text that shows those lines does not say it above them too."""
    rules = view.rules
    return (
        summary.end == "out"
        and summary.out is not None
        and not rules.penalty_scoring
        and not rules.scores_hands_left
    )


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
