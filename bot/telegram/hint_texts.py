"""The hint's one line: the move, named as its buttons show it, and the reason for it."""

from __future__ import annotations

from bot.game.hints import Hint, Reason
from bot.i18n import Translator
from bot.telegram.keyboards import DOUBLE_LABELS, END_LABELS
from engine import Doubles, Draw, End, Play, Tile

# A callback alert shows at most 200 characters (Telegram counts UTF-16 units).
ALERT_LIMIT = 200
MAX_TILES_NAMED = 3


def hint_line(tr: Translator, hint: Hint, arrows: dict[End, End] | None = None) -> str:
    """«Сыграйте 5:5 на ⬅️ 5 — 2 очка: концы 5+5 = 10»: plain text, one line.

    `arrows`: the arrow the board shows at each end, as the buttons name the ends
    (`keyboards.shown_ends`); the ends' own names without it.
    """
    move = _move(tr, hint, arrows or {})
    line = tr("{move} — {reason}").format(move=move, reason=_reason(tr, hint))
    return _fit(" ".join(line.split()))


def _move(tr: Translator, hint: Hint, arrows: dict[End, End]) -> str:
    move = hint.move
    if isinstance(move, Draw):
        return tr("Draw from the boneyard")
    if isinstance(move, Doubles):
        laid = ", ".join(
            DOUBLE_LABELS[arrows.get(p.end, p.end)].format(tile=p.tile)
            for p in move.plays
            if p.end is not None
        )
        return tr("Lay doubles together ({button}): {doubles}").format(
            button=tr("🁣 Several doubles"), doubles=laid
        )
    if isinstance(move, Play):
        if hint.end is not None and hint.end_value is not None:
            end = END_LABELS[arrows.get(hint.end, hint.end)].format(value=hint.end_value)
            return tr("Play {tile} on {end}").format(tile=move.tile, end=end)
        return tr("Play {tile}").format(tile=move.tile)
    return tr("Pass")


def _reason(tr: Translator, hint: Hint) -> str:
    reason = hint.reason
    if reason is Reason.DRAW:
        return tr("nothing fits")
    if reason is Reason.PASS:
        if hint.penalty:
            return tr.n(
                "nothing fits; a pass costs {count} penalty point",
                "nothing fits; a pass costs {count} penalty points",
                hint.penalty,
            ).format(count=hint.penalty)
        return tr("nothing fits and the boneyard is empty")
    if reason is Reason.GOES_OUT:
        return tr("your last tile: you go out")
    if reason is Reason.SCORES:
        return _scores(tr, hint)
    if reason is Reason.ONLY_MOVE:
        return tr("the only tile you can play")
    if reason is Reason.BLOCKS:
        return tr("your opponents have no tile for {ends}").format(ends=_pips(hint.pips))
    if reason is Reason.SHEDS_DOUBLE:
        return tr("gets rid of {tiles}").format(tiles=_tiles(hint.tiles))
    if reason is Reason.DENIES:
        return tr("after it no single tile lets an opponent score")
    if reason is Reason.FOLLOW_UP:
        return tr("leaves you a move on {pip}: you hold {tiles}").format(
            pip=_pips(hint.pips), tiles=_tiles(hint.tiles)
        )
    if reason is Reason.SHEDS_HEAVY:
        return tr("the heaviest tile you can play")
    return tr("the strong computer would play so")


def _scores(tr: Translator, hint: Hint) -> str:
    points = tr.n("{count} point", "{count} points", hint.points).format(count=hint.points)
    total = sum(hint.terms)
    counted = bool(hint.terms) and total > 0 and total % 5 == 0
    if hint.spinner and not counted:
        return tr("{points} for laying the spinner").format(points=points)
    if not counted:
        return points
    if len(hint.terms) == 1:
        ends = tr("the table counts {total}").format(total=total)
    else:
        terms = "+".join(str(term) for term in hint.terms)
        ends = tr("the ends {terms} = {total}").format(terms=terms, total=total)
    if hint.spinner:
        return tr("{points}: {ends}, and the spinner").format(points=points, ends=ends)
    return tr("{points}: {ends}").format(points=points, ends=ends)


def _tiles(tiles: tuple[Tile, ...]) -> str:
    return ", ".join(str(tile) for tile in tiles[:MAX_TILES_NAMED])


def _pips(pips: tuple[int, ...]) -> str:
    return ", ".join(str(pip) for pip in pips)


def _fit(line: str) -> str:
    """Cut to the alert's limit (never needed for the texts above; a safety net)."""
    while len(line.encode("utf-16-le")) // 2 > ALERT_LIMIT:
        line = line[:-2] + "…"
    return line
